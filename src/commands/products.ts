import type { Context } from '../context.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, DETAILS } from '../output/columns.js';
import { COMMODITIES, COMPOSITIONS } from '../api/enums.js';
import { LIST_OPTIONS, listQuery, runList } from './shared/list.js';
import { crudLeaves } from './shared/crud.js';
import { appendList, filterEnumList } from './shared/flags.js';
import { TAGS_OPTION } from './shared/body.js';
import type { OptionSpec, OptionsOf } from './shared/options.js';
import { defineLeaf, registerOf } from './shared/spec.js';

const LIST_PRODUCTS_OPTIONS = [
  { flags: '--commodity <list>', description: (v) => `commodity, comma-separated or repeated (${v.join(', ')})`, values: COMMODITIES, parse: appendList },
  { flags: '--composition <value>', description: (v) => v.join(' or '), values: COMPOSITIONS },
  ...LIST_OPTIONS,
] as const satisfies readonly OptionSpec[];

export type ListProductsOptions = OptionsOf<typeof LIST_PRODUCTS_OPTIONS>;

/** The field flags of create and update. */
const PRODUCT_FIELDS = [
  { flags: '--name <text>', description: 'product name (required on create)' },
  { flags: '--sku <text>', description: 'stock-keeping unit' },
  { flags: '--description <text>', description: 'description' },
  { flags: '--commodity <value>', description: (v) => v.join(', '), values: COMMODITIES },
  { flags: '--composition <value>', description: (v) => v.join(' or '), values: COMPOSITIONS },
  { flags: '--hs-code <code>', description: 'harmonised system code' },
  { flags: '--external-id <id>', description: 'your own identifier' },
  { flags: '--scientific-name <text>', description: 'scientific name' },
  { flags: '--common-name <text>', description: 'common name' },
  { flags: '--type <text>', description: 'product type' },
  TAGS_OPTION,
] as const satisfies readonly OptionSpec[];

export type ProductFieldFlags = OptionsOf<typeof PRODUCT_FIELDS>;

export const register = registerOf({
  name: 'products',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List products',
      prints: 'product',
      options: LIST_PRODUCTS_OPTIONS,
      examples: ['sct products list --commodity cocoa', 'sct products list --search sugar --columns id,name,external_id'],
      run: (ctx, opts) => listProducts(ctx, opts),
    }),
    ...crudLeaves({
      resource: 'product',
      group: 'products',
      noun: 'product',
      article: 'a',
      paths: { all: PATHS.products, one: PATHS.product },
      columns: COLUMNS.product,
      detail: DETAILS.product,
      fields: PRODUCT_FIELDS,
      fieldsOf: productFields,
      schemas: () => import('../api/schemas/products.js').then((m) => ({ create: m.productCreateSchema, update: m.productUpdateSchema })),
      examples: {
        get: ['sct products get 17', 'sct products get 17 --json name,commodity,hs_code'],
        create: ['sct products create --name "Cocoa butter" --commodity cocoa --external-id BCC-P09001', 'sct products create --file product.json'],
        update: ['sct products update 17 --name "Bovine gelatine, 250 bloom"', 'sct products update 17 --set tags=\'["halal"]\''],
        delete: ['sct products delete 22', 'sct products delete 22 --yes'],
      },
    }),
  ],
});

export async function listProducts(ctx: Context, opts: ListProductsOptions): Promise<void> {
  const query = listQuery(opts);
  const commodities = filterEnumList(opts.commodity, '--commodity', COMMODITIES);
  if (commodities) query.set(commodities.length > 1 ? 'commodity__in' : 'commodity', commodities.join(','));
  const composition = filterEnumList(opts.composition, '--composition', COMPOSITIONS);
  if (composition) query.set(composition.length > 1 ? 'composition__in' : 'composition', composition.join(','));
  await runList(ctx, { path: PATHS.products, query, flags: opts, columns: COLUMNS.product, noun: 'products' });
}

export function productFields(opts: ProductFieldFlags): Record<string, unknown> {
  return {
    name: opts.name,
    sku: opts.sku,
    description: opts.description,
    commodity: opts.commodity,
    composition: opts.composition,
    hs_code: opts.hsCode,
    external_id: opts.externalId,
    scientific_name: opts.scientificName,
    common_name: opts.commonName,
    type: opts.type,
    tags: opts.tag,
  };
}
