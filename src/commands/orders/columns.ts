// The columns of an orders file (orders import and orders sync), as data: the reader, the
// `--template` and the help's list of columns all come from here. Zod-free, so the help of the
// orders group (on the hot path) can list them without loading the schemas.
import type { OrderItemBody } from '../../api/schemas/orders.js';
import type { OrderKindName } from '../../api/enums.js';
import { wrap } from '../../help/wrap.js';

/** How a cell is read: text as it is, a date-time, a whole number, a number, yes/no, a list, a list of ids. */
export type Conv = 'text' | 'datetime' | 'int' | 'number' | 'bool' | 'list' | 'idlist';

const COMMON_ORDER_COLUMNS: Record<string, Conv> = {
  external_id: 'text',
  type: 'text',
  order_created_at: 'text',
  order_arrival_at: 'text',
  buyer_external_id: 'text',
  seller_external_id: 'text',
  assessment_status: 'text',
  value_chain: 'int',
  border_cross_country_code: 'text',
  signed_off_at: 'datetime',
  tags: 'list',
};

export const ORDER_COLUMNS: Record<OrderKindName, Record<string, Conv>> = {
  purchase: { ...COMMON_ORDER_COLUMNS, buyer_company_status: 'text', seller_company_id: 'int', send_information_request: 'bool', dds_identifiers: 'list' },
  sale: { ...COMMON_ORDER_COLUMNS, seller_company_status: 'text', buyer_company_id: 'int', send_information_request: 'bool', dds_identifiers: 'list' },
  batch: {
    ...COMMON_ORDER_COLUMNS,
    company_id: 'int',
    buyer_company_status: 'text',
    seller_company_status: 'text',
    buyer_company_id: 'int',
    seller_company_id: 'int',
  },
};

/** CSV item column → [item field, conversion]. */
export const ITEM_COLUMNS: Record<string, [keyof OrderItemBody | 'product', Conv]> = {
  product: ['product', 'int'],
  buyer_product: ['buyer_product', 'int'],
  seller_product: ['seller_product', 'int'],
  volume: ['volume', 'number'],
  unit: ['unit', 'text'],
  line_number: ['line_number', 'int'],
  item_external_id: ['external_id', 'text'],
  traced_orders: ['trace', 'idlist'],
  traced_origins: ['trace', 'idlist'],
};

/** Every column a file of the kind's orders may have: the order's, then the item's. */
export function orderFileColumns(kind: OrderKindName): string[] {
  return [...Object.keys(ORDER_COLUMNS[kind]), ...Object.keys(ITEM_COLUMNS)];
}

/** The column `-o csv` writes an order's items to, as JSON, which an import reads back. */
export const ITEMS_COLUMN = 'items';

/** What the help says beside a column (after the last of a run of columns it covers). */
const NOTES: Record<string, string> = {
  external_id: 'groups rows into one order',
  tags: '| or ; separated',
  product: "your side's product; both sides on a batch",
  traced_origins: 'ids, | or ; separated',
};

/** The help's paragraph on the columns: those of every kind, then by the kinds that have them, then the items'. */
export function orderColumnsHelp(): string {
  const named = (columns: string[]) => columns.map((c) => (NOTES[c] ? `${c} (${NOTES[c]})` : c)).join(', ');
  const kinds = Object.keys(ORDER_COLUMNS) as OrderKindName[];
  const byKinds = new Map<string, string[]>();
  for (const kind of kinds) {
    for (const column of Object.keys(ORDER_COLUMNS[kind])) {
      if (Object.hasOwn(COMMON_ORDER_COLUMNS, column)) continue;
      const which = kinds.filter((k) => Object.hasOwn(ORDER_COLUMNS[k], column)).join(' and ');
      const list = byKinds.get(which) ?? [];
      if (!list.includes(column)) list.push(column);
      byKinds.set(which, list);
    }
  }
  const groups = [...byKinds].map(([which, columns]) => `${which}: ${named(columns)}`);
  const text = `Columns: ${named(Object.keys(COMMON_ORDER_COLUMNS))}; ${groups.join('; ')}. Item columns, one item per row: ${named(Object.keys(ITEM_COLUMNS))}; or an order's items in one ${ITEMS_COLUMN} column, as \`sct orders list -o csv\` writes them.`;
  return wrap(text, 100, '');
}
