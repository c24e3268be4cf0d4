// Reading orders: the list from one side, one order with its items, and the statistics.
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { COLUMNS, assessmentSummaryCell, cellValue, statementsCell, type Column } from '../../output/columns.js';
import { writeTable, writeList, writeOne } from '../../output/format.js';
import { displayValue, getPath } from '../../output/values.js';
import { cleanCell } from '../../util/sanitize.js';
import { checkFilterPairs, listQuery, runList } from '../shared/list.js';
import { parseEnum, parseEnumList, splitKeyValue, textValue } from '../shared/flags.js';
import { AnswerError, UsageError } from '../../errors.js';
import { isPlainObject, nonObjectIn } from '../../util/objects.js';
import { STATISTICS_DELIMIT_BY, STATISTICS_GROUP_BY, type OrderAction } from '../../api/enums.js';
import { orderAction, orderFilterQuery } from './filters.js';
import type { ListOrdersFlags, StatsFlags } from './options.js';

/** The list's columns from one side: the counterpart is the seller when buying, the buyer when selling. */
export function orderColumns(action: OrderAction): Column[] {
  const side = action === 'buying' ? 'seller_company' : 'buyer_company';
  return COLUMNS.order.map((c) =>
    c.path === 'counterpart'
      ? { ...c, header: action === 'buying' ? 'SELLER' : 'BUYER', path: `${side}.name`, value: (row) => getPath(row, `${side}.name`) ?? getPath(row, `${side}_id`) }
      : c,
  );
}

export async function listOrders(ctx: Context, flags: ListOrdersFlags): Promise<void> {
  const query = orderFilterQuery(flags, listQuery(flags));
  await runList(ctx, { path: PATHS.orders, query, flags, columns: orderColumns(orderAction(flags)), noun: 'orders' });
}

const date = (path: string) => (row: Record<string, unknown>) => {
  const v = getPath(row, path);
  return typeof v === 'string' ? v.slice(0, 10) : v;
};

/** The key/value view of one order: who, what state, which dates, and how it is traced. */
const ORDER_DETAIL: Column[] = [
  { header: 'ID', path: 'id' },
  { header: 'EXTERNAL ID', path: 'external_id' },
  { header: 'TYPE', path: 'type' },
  { header: 'BUYER', path: 'buyer_company.name', value: (r) => getPath(r, 'buyer_company.name') ?? getPath(r, 'buyer_company_id') },
  { header: 'BUYER EXTERNAL ID', path: 'buyer_external_id' },
  { header: 'SELLER', path: 'seller_company.name', value: (r) => getPath(r, 'seller_company.name') ?? getPath(r, 'seller_company_id') },
  { header: 'SELLER EXTERNAL ID', path: 'seller_external_id' },
  { header: 'RECORDED BY', path: 'company.name', value: (r) => getPath(r, 'company.name') ?? getPath(r, 'company_id') },
  { header: 'BUYER STATUS', path: 'buyer_company_status' },
  { header: 'SELLER STATUS', path: 'seller_company_status' },
  { header: 'ASSESSMENT', path: 'assessment_status' },
  { header: 'ASSESSMENT SUMMARY', path: 'assessment_summary', value: assessmentSummaryCell },
  { header: 'CREATED', path: 'order_created_at' },
  { header: 'ARRIVAL', path: 'order_arrival_at' },
  {
    header: 'VALUE CHAIN',
    path: 'value_chain',
    value: (r) => {
      const name = getPath(r, 'value_chain_detail.company_name');
      return r.value_chain == null ? '' : name ? `${name} (${r.value_chain})` : r.value_chain;
    },
  },
  // An embedded country: the cell shows "flag name"; the bare code when the API sent no object.
  { header: 'BORDER CROSSING', path: 'border_cross_country', value: (r) => r.border_cross_country ?? r.border_cross_country_code },
  { header: 'SIGNED OFF', path: 'signed_off_at' },
  { header: 'TAGS', path: 'tags' },
  { header: 'STATEMENTS', path: 'due_diligence_statements', value: statementsCell },
  { header: 'ITEMS', path: 'items', value: (r) => (Array.isArray(r.items) ? r.items.length : '') },
  { header: 'UPDATED', path: 'updated_at', value: date('updated_at') },
];

export async function showOrder(ctx: Context, id: number): Promise<void> {
  await writeOrder(ctx, await ctx.client().getObject(PATHS.order(id)), `GET ${PATHS.order(id)}`);
}

/**
 * One order: JSON as returned, or the key/value view followed by a table of its items. `request`
 * names where it came from, for an item that is no object (a blank row would hide it): an error
 * for a read; after a write that went through (`written`), a warning, the write's exit code kept
 * (an exit 1 would have a script create the order again).
 */
export async function writeOrder(ctx: Context, order: Record<string, unknown>, request: string, written = false): Promise<void> {
  const output = ctx.output(COLUMNS.order);
  // For people the items follow as a table of their own; JSON/CSV already hold them, and
  // --columns shows only the fields it names.
  const itemTable = output.format === 'table' && !output.columns;
  let items = Array.isArray(order.items) ? (order.items as Record<string, unknown>[]) : [];
  const odd = itemTable ? nonObjectIn(items, 'item') : undefined;
  if (odd && !written) throw new AnswerError(`unexpected answer from ${request}: ${odd}`);
  if (odd) {
    ctx.io.warn(`unexpected answer from ${request}: ${odd}: the items that are no object are not shown (-o json shows the answer as it came)`);
    items = items.filter(isPlainObject);
  }
  await writeOne(ctx.io, order, { ...output, detail: ORDER_DETAIL });
  if (!itemTable) return;
  if (items.length === 0) {
    await ctx.io.write(`\n${ctx.io.color.bold('ITEMS')}  none\n`);
    return;
  }
  const rows = items.map((it) => COLUMNS.orderItem.map((c) => cleanCell(displayValue(cellValue(it, c)))));
  await ctx.io.write(`\n${ctx.io.color.bold(`ITEMS (${items.length})`)}\n`);
  await writeTable(ctx.io, COLUMNS.orderItem, rows);
}

/** The statistics query: the list's filters plus group_by (one parameter per value) and delimit_by. */
export function statsQuery(flags: StatsFlags): { query: URLSearchParams; groupBy: string[]; delimitBy?: string } {
  const query = new URLSearchParams();
  if (flags.search !== undefined) query.set('search', textValue(flags.search, '--search'));
  for (const pair of flags.filter ?? []) {
    const [k, v] = splitKeyValue(pair, '--filter');
    if (['limit', 'offset', 'ordering'].includes(k)) throw new UsageError(`--filter ${k}: statistics take no ${k}`);
    // The table's columns are those the flags ask for: a grouping given here would print counts
    // with no column saying what each counts, or be sent beside the flag's.
    if (k === 'group_by') throw new UsageError(`--filter group_by: use --group-by (${STATISTICS_GROUP_BY.join(', ')})`);
    if (k === 'delimit_by') throw new UsageError(`--filter delimit_by: use --delimit-by (${STATISTICS_DELIMIT_BY.join(', ')})`);
    query.append(k, textValue(v, `--filter ${k}=`));
  }
  orderFilterQuery(flags, query);
  // As a list's: a --filter that a flag replaced, or sent beside one, is said.
  checkFilterPairs(flags.filter, query);
  const groupBy = [...new Set(parseEnumList(flags.groupBy, '--group-by', STATISTICS_GROUP_BY) ?? [])];
  if (flags.groupBy !== undefined && groupBy.length === 0) throw new UsageError(`--group-by needs a value: ${STATISTICS_GROUP_BY.join(', ')}`);
  // group_by is an array parameter: repeated, as list filters are sent by form-style clients.
  for (const g of groupBy) query.append('group_by', g);
  const delimitBy = parseEnum(flags.delimitBy, '--delimit-by', STATISTICS_DELIMIT_BY);
  if (delimitBy) query.set('delimit_by', delimitBy);
  return { query, groupBy, delimitBy };
}

/** Only what the rows are grouped by: the other keys are null in every row. */
export function statsColumns(groupBy: string[], delimited: boolean): Column[] {
  const byPath = new Map(COLUMNS.orderStatistics.map((c) => [c.path, c]));
  return [
    ...(delimited ? [byPath.get('date')!] : []),
    ...groupBy.map((g) => byPath.get(g) ?? { header: g.toUpperCase(), path: g }),
    byPath.get('order_count')!,
  ];
}

export async function orderStats(ctx: Context, flags: StatsFlags): Promise<void> {
  const { query, groupBy, delimitBy } = statsQuery(flags);
  const client = ctx.client();
  const spinner = await ctx.spinner('Counting orders…');
  let data: unknown;
  try {
    data = await client.get(PATHS.orderStatistics, query);
  } finally {
    spinner.stop();
  }
  const output = ctx.output(statsColumns(groupBy, Boolean(delimitBy)));
  if (Array.isArray(data)) await writeList(ctx.io, data, output);
  else await writeOne(ctx.io, data, output);
}
