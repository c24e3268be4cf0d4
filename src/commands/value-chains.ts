import type { Context } from '../context.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, DETAILS } from '../output/columns.js';
import { KNOWN_VALUE_CHAIN_STATUSES, KNOWN_VALUE_CHAIN_TYPES } from '../api/enums.js';
import { LIST_OPTIONS, listQuery, parseCountryCode, runList } from './shared/list.js';
import { crudLeaves } from './shared/crud.js';
import { parseInteger } from './shared/flags.js';
import { TAGS_OPTION } from './shared/body.js';
import type { OptionEntry, OptionsOf } from './shared/options.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import { setNamedFilters } from './shared/filters.js';
import { VALUE_CHAIN_FILTERS } from '../api/filters/value-chains.js';

const TYPES_HELP = `e.g. ${KNOWN_VALUE_CHAIN_TYPES.join(', ')}`;
const STATUSES_HELP = `e.g. ${KNOWN_VALUE_CHAIN_STATUSES.join(', ')}`;

/** The field flags of create and update. */
const VALUE_CHAIN_FIELDS = [
  { flags: '--company-name <text>', description: 'the partner company (required on create)' },
  { flags: '--description <text>', description: 'description' },
  { flags: '--external-id <id>', description: 'your own identifier' },
  { flags: '--contact-name <text>', description: 'contact person' },
  { flags: '--type <value>', description: TYPES_HELP },
  { flags: '--status <value>', description: STATUSES_HELP },
  { flags: '--country-code <code>', description: '2-letter country code' },
  { flags: '--permission-granted', description: 'the partner granted permission' },
  { flags: '--no-permission-granted', description: 'the partner did not grant permission' },
  { flags: '--self-managed', description: 'you manage this partner’s data yourself' },
  { flags: '--no-self-managed', description: 'the partner manages its own data' },
  // The API field's own name (is_self_managed), kebab-cased as every other field flag is.
  { alias: 'is-self-managed', of: 'self-managed' },
  { alias: 'no-is-self-managed', of: 'no-self-managed' },
  { flags: '--reciprocal-company-id <id>', description: 'the partner’s company id on the service' },
  TAGS_OPTION,
] as const satisfies readonly OptionEntry[];

export type ValueChainFieldFlags = OptionsOf<typeof VALUE_CHAIN_FIELDS>;

// Options are listed in the order help lists them.
const LIST_VALUE_CHAINS_OPTIONS = [{ filters: VALUE_CHAIN_FILTERS }, { alias: 'country', of: 'country-code' }, ...LIST_OPTIONS] as const;

export type ListValueChainsOptions = OptionsOf<typeof LIST_VALUE_CHAINS_OPTIONS>;

export const register = registerOf({
  name: 'value-chains',
  description: 'Manage value chains (the companies in your supply chains)',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List value chains',
      prints: 'valueChain',
      options: LIST_VALUE_CHAINS_OPTIONS,
      exclusive: ['permission-granted', 'self-managed'],
      help: '\nOrdering fields: id, company_name, type, status, country_code, created_at, updated_at.',
      examples: ['sct value-chains list --status active', 'sct value-chains list --country-code CI --columns id,company_name,external_id'],
      run: (ctx, opts) => listValueChains(ctx, opts),
    }),
    ...crudLeaves({
      resource: 'valueChain',
      group: 'value-chains',
      noun: 'value chain',
      article: 'a',
      paths: { all: PATHS.valueChains, one: PATHS.valueChain },
      columns: COLUMNS.valueChain,
      detail: DETAILS.valueChain,
      fields: VALUE_CHAIN_FIELDS,
      exclusive: ['permission-granted', 'self-managed'],
      fieldsOf: valueChainFields,
      schemas: () => import('../api/schemas/value-chains.js').then((m) => ({ create: m.valueChainCreateSchema, update: m.valueChainUpdateSchema })),
      examples: {
        get: ['sct value-chains get 3', 'sct value-chains get 3 --json company_name,status'],
        create: ['sct value-chains create --company-name "Kumasi Cocoa Traders Ltd" --country-code GH --external-id VC-1-0900', 'sct value-chains create --file partner.json'],
        update: ['sct value-chains update 3 --contact-name "Kwame Mensah"', 'sct value-chains update 3 --tag cocoa --tag ghana'],
        delete: ['sct value-chains delete 9', 'sct value-chains delete 9 --yes'],
      },
    }),
  ],
});

export function valueChainListQuery(opts: ListValueChainsOptions): URLSearchParams {
  const query = listQuery(opts);
  setNamedFilters(query, VALUE_CHAIN_FILTERS, opts, {
    permissionGranted: (v) => query.set('permission_granted', String(v)),
    selfManaged: (v) => query.set('is_self_managed', String(v)),
  });
  return query;
}

export async function listValueChains(ctx: Context, opts: ListValueChainsOptions): Promise<void> {
  const query = valueChainListQuery(opts);
  await runList(ctx, { path: PATHS.valueChains, query, flags: opts, columns: COLUMNS.valueChain, noun: 'value chains' });
}

export function valueChainFields(opts: ValueChainFieldFlags): Record<string, unknown> {
  return {
    company_name: opts.companyName,
    description: opts.description,
    external_id: opts.externalId,
    contact_name: opts.contactName,
    type: opts.type,
    status: opts.status,
    country_code: opts.countryCode === undefined ? undefined : parseCountryCode(opts.countryCode, '--country-code'),
    permission_granted: opts.permissionGranted,
    is_self_managed: opts.selfManaged,
    reciprocal_company_id: parseInteger(opts.reciprocalCompanyId, '--reciprocal-company-id'),
    tags: opts.tag,
  };
}
