// The options of orders create and update as records: made into commands with the command tree,
// without the code (and the schemas) that validates and sends the order (save.ts).
import { BODY_OPTIONS, IDEMPOTENCY_KEY_OPTION, TAGS_OPTION } from '../shared/body.js';
import { DRY_RUN_OPTION } from '../shared/dry-run.js';
import { collect } from '../shared/flags.js';
import type { OptionsOf } from '../shared/options.js';
import { ASSESSMENT_STATUSES, BUYER_STATUSES, ORDER_TYPES, SELLER_STATUSES } from '../../api/enums.js';
import { kindOptions } from './filters.js';
import { orList } from '../../util/format.js';

/** The kind, the order's fields, then --set and --file; `verb` begins the kinds' descriptions. */
const orderFields = (verb: string) =>
  [
    ...kindOptions(verb),
    { flags: '--external-id <id>', description: 'your identifier of the order (required on create)' },
    { flags: '--type <type>', description: (v: readonly string[]) => `${orList(v)} (required on create)`, values: ORDER_TYPES },
    { flags: '--order-created-at <date>', description: 'order date YYYY-MM-DD (required on create)' },
    { flags: '--order-arrival-at <date>', description: 'arrival date YYYY-MM-DD' },
    { flags: '--buyer-external-id <id>', description: "the buyer's identifier of the order" },
    { flags: '--seller-external-id <id>', description: "the seller's identifier of the order" },
    { flags: '--buyer-status <status>', description: (v: readonly string[]) => `buyer_company_status (purchase, batch): ${v.join(', ')}`, values: BUYER_STATUSES },
    { flags: '--seller-status <status>', description: (v: readonly string[]) => `seller_company_status (sale, batch): ${v.join(', ')}`, values: SELLER_STATUSES },
    // The API fields' own names, kebab-cased as every other field flag is.
    { alias: 'buyer-company-status', of: 'buyer-status' },
    { alias: 'seller-company-status', of: 'seller-status' },
    { flags: '--assessment-status <status>', description: orList, values: ASSESSMENT_STATUSES },
    { flags: '--value-chain <id>', description: 'value chain id' },
    { flags: '--buyer-company-id <id>', description: 'the buying company (sale, batch)' },
    { flags: '--seller-company-id <id>', description: 'the selling company (purchase, batch)' },
    { flags: '--company-id <id>', description: 'your company id (batch; required on create)' },
    { flags: '--border-cross-country-code <code>', description: 'two-letter code of the country where the goods entered the EU' },
    { flags: '--signed-off-at <datetime>', description: 'sign-off time (ISO 8601)' },
    TAGS_OPTION,
    { flags: '--send-information-request', description: 'ask the counterpart for traceability information (purchase, sale)' },
    {
      flags: '--item <spec>',
      description: 'an item: product=ID,volume=N,unit=kg[,line=N,external-id=X,id=N] (repeatable; on update the list replaces the items: give id=N to keep an item)',
      parse: collect,
    },
    ...BODY_OPTIONS,
  ] as const;

export const CREATE_ORDER_OPTIONS = [...orderFields('create'), IDEMPOTENCY_KEY_OPTION, DRY_RUN_OPTION] as const;
export const UPDATE_ORDER_OPTIONS = [...orderFields('update'), DRY_RUN_OPTION] as const;

/** What create and update take (update has no --idempotency-key). */
export type OrderFieldFlags = OptionsOf<typeof CREATE_ORDER_OPTIONS>;

export const ITEMS_HELP = `
Items: product= is the buyer's product on a purchase, the seller's on a sale and both on a batch;
buyer-product= and seller-product= name a side explicitly.`;

export const ORDER_EXAMPLES = {
  create: [
    'sct orders create --purchase --type order --external-id PO-2026-0001 --order-created-at 2026-03-01 --item product=17,volume=2500,unit=kg',
    'sct orders create --purchase --file order.json',
  ],
  update: ['sct orders update 217 --purchase --tag eudr --tag q1', 'sct orders update 217 --purchase --order-arrival-at 2026-04-15'],
};
