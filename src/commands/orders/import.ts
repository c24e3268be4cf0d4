// `sct orders import --purchase|--sale|--batch --file orders.csv`: one create per order, rows
// sharing an external_id being that order's items.
//
// The CSV format (header names are case-insensitive; spaces and dashes read as underscores):
//
//   Order columns — the same on every row of an order; a blank cell means "as on the other rows":
//     external_id (required)             groups the rows into orders
//     type                               order, produced_batch, manufactured_batch, product_chain
//     order_created_at, order_arrival_at YYYY-MM-DD
//     buyer_external_id, seller_external_id
//     assessment_status                  pending, in_progress, passing, failing, mitigated
//     value_chain                        value chain id
//     border_cross_country_code          two letters
//     signed_off_at                      ISO 8601 date-time
//     tags                               separated by | or ; (a batch without tags gets [])
//     buyer_company_status               purchase, batch
//     seller_company_status              sale, batch
//     seller_company_id                  purchase, batch
//     buyer_company_id                   sale, batch
//     company_id                         batch (required)
//     send_information_request           purchase, sale: true/false, yes/no, 1/0
//     dds_identifiers                    purchase, sale: separated by | or ;
//   Item columns — one item per row; a row whose item cells are all blank adds no item:
//     product                            the buyer's product on a purchase, the seller's on a
//                                        sale, both on a batch (ids)
//     buyer_product, seller_product      a side named explicitly
//     volume                             a number
//     unit                               kg, t, m3, …
//     line_number                        a whole number
//     item_external_id                   the item's own identifier
//     traced_orders, traced_origins      ids separated by | or ;
//   Or the items of an order in one cell, as `sct orders list -o csv` writes them:
//     items                              a JSON list of the service's items (import only)
//
// Every row is checked before the first request; any error stops the run with exit 2 and
// names the line and column. The run itself is src/bulk/import.ts: a journal and deterministic
// Idempotency-Keys make a rerun after an interruption skip what went through and resend the
// rest without duplicates.
import type { Context } from '../../context.js';
import type * as z from 'zod';
import { PATHS } from '../../api/paths.js';
import { UsageError } from '../../errors.js';
import { decimalText, dropReadOnlyColumns, readCsv, RowErrors, unknownColumns, type CsvFile, type NumberStyle } from '../../bulk/csv.js';
import { RESOURCE_FIELDS } from '../../api/schemas/fields.js';
import type { Unit } from '../../bulk/runner.js';
import { checkReportPath } from '../../bulk/report.js';
import { runImport } from '../../bulk/import.js';
import { connectEarly } from '../../bulk/open.js';
import { parseConcurrency } from '../shared/flags.js';
import { ID_MAX, isId } from '../../util/numbers.js';
import { writeTemplateIf, type FileTemplate } from '../shared/bulk.js';
import type { ImportFlags } from './options.js';
import { postsOf, writeRequests } from '../shared/dry-run.js';
import { ORDER_CREATE_SCHEMAS, ORDER_UPDATE_SCHEMAS } from '../../api/schemas/orders.js';
import type { RowProblem } from '../../sync/plan.js';
import { type OrderKindName } from '../../api/enums.js';
import { requiredMessage } from '../../api/schemas/messages.js';
import { orderKind } from './filters.js';
import { ITEM_COLUMNS, ORDER_COLUMNS, orderFileColumns, type Conv } from './columns.js';


type Body = Record<string, unknown>;
const LIST_SEPARATOR = /[|;]/;

class CellError extends Error {}

function convert(raw: string, conv: Conv, numbers: NumberStyle = 'point'): unknown {
  switch (conv) {
    case 'text':
      return raw;
    case 'int':
      if (!isId(raw)) throw new CellError(`"${raw}" is not a whole number 0..${ID_MAX}`);
      return Number(raw);
    case 'number': {
      let text: string;
      try {
        text = decimalText(raw, numbers);
      } catch (e) {
        throw new CellError((e as Error).message);
      }
      const n = Number(text);
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) || !Number.isFinite(n)) throw new CellError(`"${raw}" is not a number`);
      return n;
    }
    case 'bool': {
      const v = raw.toLowerCase();
      if (['true', 'yes', '1', 'y'].includes(v)) return true;
      if (['false', 'no', '0', 'n'].includes(v)) return false;
      throw new CellError(`"${raw}" is not true or false`);
    }
    case 'list':
      // A list as `-o csv` writes it (["eudr","organic"]) reads back as that list.
      if (raw.startsWith('[')) {
        const parsed = jsonStrings(raw);
        if (parsed) return parsed;
      }
      return raw.split(LIST_SEPARATOR).map((s) => s.trim()).filter(Boolean);
    case 'idlist':
      return raw
        .split(LIST_SEPARATOR)
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => convert(s, 'int'));
  }
}

function jsonStrings(raw: string): string[] | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Where each body field came from, so a schema error can name the CSV line and column. */
interface Origin {
  line: number;
  column: string;
}

export interface PlannedOrder {
  body: Body;
  /** Order field → where its value came from. */
  fieldOrigin: Map<string, Origin>;
  /** Per item: its line and item field → column. */
  items: Array<{ line: number; columns: Map<string, string> }>;
}

/**
 * One order of the file: the create body (as `orders import` sends it, and `orders sync` when
 * the order is new), and what `orders sync` needs to compare it with the service.
 */
export interface OrderFromFile extends Unit<Body> {
  /**
   * The order fields the file gives a value for. A batch's `tags: []` is in the body (the API
   * requires the field) but not here: a blank cell is no value, so a sync never compares it.
   */
  given: ReadonlySet<string>;
  /** The line of each of the body's items, in order. */
  itemLines: number[];
  /** A sync's order: what the file lacks to create it (empty when it may be created). */
  createProblems?: RowProblem[];
}

/** The units `orders import` sends: one per order of the file. */
/** The column `-o csv` writes an order's items to, as JSON. */
const ITEMS_COLUMN = 'items';

/**
 * The items of an `items` cell as `-o csv` writes them (the service's item objects, as JSON),
 * as a create takes them: the kind's products, volume, unit, line number and external id. A
 * message when the cell is not such a list.
 */
function itemsOfColumn(text: string, kind: OrderKindName): Body[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || !value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) {
    return 'not a JSON list of items, as -o csv writes them (or give each item a row: product, volume, unit)';
  }
  const taken = ['volume', 'unit', 'line_number', 'external_id', ...(kind === 'sale' ? [] : ['buyer_product']), ...(kind === 'purchase' ? [] : ['seller_product'])];
  return (value as Body[]).map((it) => Object.fromEntries(taken.filter((f) => it[f] !== null && it[f] !== undefined).map((f) => [f, it[f]])));
}

export function planImport(csv: CsvFile, kind: OrderKindName, errors?: RowErrors): Unit<Body>[] {
  return ordersFromCsv(csv, kind, errors);
}

/**
 * Groups the rows into orders and validates every one with the kind's create schema. Returns
 * the orders, or throws (exit 2) listing every problem with its line and column. `orders
 * import` and `orders sync` both read their file here, so the two never disagree on a cell.
 */
export function ordersFromCsv(csv: CsvFile, kind: OrderKindName, errors?: RowErrors, o: { sync?: boolean } = {}): OrderFromFile[] {
  const orderColumns = ORDER_COLUMNS[kind];
  // Collected first and reported in line order: a file is fixed top to bottom.
  const problems: Array<{ line: number; column: string; message: string }> = [];
  const problem = { add: (line: number, column: string, message: string) => void problems.push({ line, column, message }) };
  /** A cell's value, or undefined when it is blank or does not convert (then recorded as an error). */
  const readCell = (row: CsvFile['rows'][number], column: string, conv: Conv): { raw: string; value: unknown } | undefined => {
    const raw = (row.values[column] ?? '').trim();
    if (!raw) return undefined;
    try {
      return { raw, value: convert(raw, conv, csv.numbers) };
    } catch (e) {
      problem.add(row.line, column, (e as Error).message);
      return undefined;
    }
  };
  const unknown = csv.columns.filter((c) => !Object.hasOwn(orderColumns, c) && !Object.hasOwn(ITEM_COLUMNS, c) && c !== ITEMS_COLUMN);
  if (unknown.length) {
    const elsewhere = unknown.filter((c) => Object.values(ORDER_COLUMNS).some((cols) => Object.hasOwn(cols, c)));
    const hint = elsewhere.length ? `${elsewhere.join(', ')} ${elsewhere.length > 1 ? 'are' : 'is'} not part of a ${kind} order` : undefined;
    const known = orderFileColumns(kind);
    throw new UsageError(unknownColumns(csv.name, unknown, known), {}, hint ?? `columns: ${known.join(', ')}`);
  }
  if (!csv.columns.includes('external_id')) throw new UsageError(`${csv.name}: missing column external_id (it groups the rows into orders)`);
  if (csv.columns.includes('product')) {
    const own = kind === 'purchase' ? ['buyer_product'] : kind === 'sale' ? ['seller_product'] : ['buyer_product', 'seller_product'];
    const clash = own.filter((c) => csv.columns.includes(c));
    if (clash.length) throw new UsageError(`${csv.name}: columns product and ${clash.join(', ')} name the same product on a ${kind} order: keep one`);
  }

  const orders = new Map<string, PlannedOrder & { lines: number[] }>();
  for (const row of csv.rows) {
    const externalId = (row.values.external_id ?? '').trim();
    if (!externalId) {
      problem.add(row.line, 'external_id', 'required: it names the order the row belongs to');
      continue;
    }
    let order = orders.get(externalId);
    if (!order) orders.set(externalId, (order = { body: {}, fieldOrigin: new Map(), items: [], lines: [] }));
    order.lines.push(row.line);

    for (const [column, conv] of Object.entries(orderColumns)) {
      const cell = readCell(row, column, conv);
      if (!cell) continue;
      const { raw, value } = cell;
      const first = order.fieldOrigin.get(column);
      if (first) {
        if (JSON.stringify(order.body[column]) !== JSON.stringify(value)) {
          problem.add(row.line, column, `"${raw}" conflicts with line ${first.line} of order ${externalId} ("${csv.rows.find((r) => r.line === first.line)?.values[column] ?? ''}"): order columns must agree on every row of an order`);
        }
        continue;
      }
      order.body[column] = value;
      order.fieldOrigin.set(column, { line: row.line, column });
    }

    const item: Body = {};
    const columns = new Map<string, string>();
    let hasItem = false;
    for (const [column, [field, conv]] of Object.entries(ITEM_COLUMNS)) {
      const cell = readCell(row, column, conv);
      if (!cell) continue;
      hasItem = true;
      const { value } = cell;
      if (field === 'product') {
        if (kind !== 'sale') (item.buyer_product = value), columns.set('buyer_product', column);
        if (kind !== 'purchase') (item.seller_product = value), columns.set('seller_product', column);
      } else if (field === 'trace') {
        const trace = (item.trace ??= {}) as Body;
        trace[column] = value;
        columns.set(`trace.${column}`, column);
      } else {
        item[field] = value;
        columns.set(field, column);
      }
    }
    const listed = (row.values[ITEMS_COLUMN] ?? '').trim();
    if (listed && hasItem) problem.add(row.line, ITEMS_COLUMN, 'give the items as rows (product, volume, unit…) or as this column, not both');
    else if (listed) {
      const exported = itemsOfColumn(listed, kind);
      if (typeof exported === 'string') problem.add(row.line, ITEMS_COLUMN, exported);
      else
        for (const it of exported) {
          ((order.body.items ??= []) as Body[]).push(it);
          order.items.push({ line: row.line, columns: new Map(Object.keys(it).map((f) => [f, ITEMS_COLUMN])) });
        }
    }
    if (hasItem) {
      ((order.body.items ??= []) as Body[]).push(item);
      order.items.push({ line: row.line, columns });
    }
  }

  const units: OrderFromFile[] = [];
  const create = ORDER_CREATE_SCHEMAS[kind] as z.ZodType;
  // A sync's row may update an order the service holds: then only what it gives is checked, and
  // what a create would need besides is kept for the plan to judge (src/sync/run.ts).
  const schema = o.sync ? (ORDER_UPDATE_SCHEMAS[kind] as z.ZodType) : create;
  const issuesAt = (order: PlannedOrder & { lines: number[] }, issues: z.core.$ZodIssue[]) =>
    issues.map((issue) => {
      const [line, column] = locate(order, issue.path);
      return { line, column, message: issue.message };
    });
  for (const [externalId, order] of orders) {
    const given = new Set(order.fieldOrigin.keys());
    if (order.items.length) given.add('items');
    // A batch must carry tags (an empty list is fine); in a file, no tags means none.
    if (kind === 'batch') order.body.tags ??= [];
    const result = schema.safeParse(order.body, { error: requiredMessage });
    if (!result.success) {
      for (const p of issuesAt(order, result.error.issues)) problem.add(p.line, p.column, p.message);
      continue;
    }
    const unit: OrderFromFile = { key: externalId, lines: order.lines, payload: result.data as Body, given, itemLines: order.items.map((i) => i.line) };
    if (o.sync) {
      const full = create.safeParse(order.body, { error: requiredMessage });
      if (full.success) unit.payload = full.data as Body;
      else unit.createProblems = issuesAt(order, full.error.issues);
    }
    units.push(unit);
  }
  const rowErrors = errors ?? new RowErrors(csv.name);
  for (const p of problems.sort((a, b) => a.line - b.line)) rowErrors.add(p.line, p.column, p.message);
  if (!errors) {
    rowErrors.throwIfAny();
    return units;
  }
  // The caller settles the errors (--skip-invalid): an order is sent whole or not at all, so
  // the other rows of an order with an invalid row are invalid too.
  const bad = rowErrors.lines();
  return units.filter((u) => {
    const first = u.lines.find((l) => bad.has(l));
    if (first === undefined) return true;
    for (const l of u.lines) if (!bad.has(l)) rowErrors.add(l, 'external_id', `not sent: line ${first} of order ${u.key} is invalid`);
    return false;
  });
}

/** The CSV line and column a schema issue points at. */
function locate(order: PlannedOrder & { lines: number[] }, path: PropertyKey[]): [number, string] {
  if (path[0] === 'items' && typeof path[1] === 'number') {
    const item = order.items[path[1]];
    const field = path.slice(2).map(String).join('.');
    const column = item?.columns.get(field) ?? item?.columns.get(String(path[2] ?? '')) ?? String(path[2] ?? 'item');
    return [item?.line ?? order.lines[0], column];
  }
  const field = String(path[0] ?? 'external_id');
  const origin = order.fieldOrigin.get(field);
  return [origin?.line ?? order.lines[0], field];
}

/** One order of one item, valid for every kind: the example row of `--template`. */
const EXAMPLE: Record<string, string> = {
  external_id: 'PO-2025-0001',
  order_created_at: '2025-04-01',
  order_arrival_at: '2025-04-15',
  assessment_status: 'pending',
  border_cross_country_code: 'CI',
  tags: 'eudr|organic',
  seller_company_id: '2',
  buyer_company_id: '2',
  company_id: '1',
  product: '17',
  volume: '1250.5',
  unit: 'kg',
  line_number: '1',
  item_external_id: 'PO-2025-0001-1',
};

/**
 * `--template`: the header of the file this command reads for the kind, and one example row.
 * Columns that name the same thing another way (buyer_product beside product) are left out.
 */
export function orderTemplate(kind: OrderKindName): FileTemplate {
  return {
    columns: orderFileColumns(kind).filter((c) => c !== 'buyer_product' && c !== 'seller_product'),
    example: { ...EXAMPLE, type: kind === 'batch' ? 'produced_batch' : 'order' },
  };
}

/** `--template` of orders import and sync: true when it was written (nothing else to do). */
export function writeOrderTemplate(ctx: Context, flags: ImportFlags): Promise<boolean> {
  // Without --template, --file is checked with the other flags (openOrderFile).
  return writeTemplateIf(
    ctx,
    flags,
    () => {
      // The file a purchase reads when no kind is given: the usual one to start from.
      const kind = orderKind(flags, false);
      if (!kind) ctx.io.info('the columns of a purchase file (--purchase); --sale and --batch read their own: add one of them to --template');
      return orderTemplate(kind ?? 'purchase');
    },
    { required: false },
  );
}

/** The flags `orders import` and `orders sync` check before anything is read, then the file. */
/** The file of an import or sync, read once its flags are checked; `bulk`: an import's rows go out as a bulk run (connectEarly). */
export async function openOrderFile(ctx: Context, flags: ImportFlags, bulk = false): Promise<{ kind: OrderKindName; file: string; concurrency: number; csv: CsvFile }> {
  const kind = orderKind(flags)!;
  if (!flags.file) throw new UsageError('--file orders.csv is required (- for stdin)');
  const concurrency = parseConcurrency(flags.concurrency);
  checkReportPath(flags.report, flags.force, flags.file);
  if (bulk) connectEarly(ctx, flags.dryRun);
  const known = [...Object.values(ORDER_COLUMNS).flatMap(Object.keys), ...Object.keys(ITEM_COLUMNS)];
  const csv = await readCsv(flags.file, ctx.io.stdin, ['external_id'], { ...flags, known });
  // An import reads the items column of a list written with -o csv (JSON); a sync leaves it, so
  // that an unchanged export plans no change to the items the service holds.
  dropReadOnlyColumns(ctx.io, csv, bulk ? [...orderFileColumns(kind), ITEMS_COLUMN] : orderFileColumns(kind), RESOURCE_FIELDS.order);
  return { kind, file: flags.file, concurrency, csv };
}

export async function importOrders(ctx: Context, flags: ImportFlags): Promise<void> {
  const { kind, file, concurrency, csv } = await openOrderFile(ctx, flags, true);
  const errors = new RowErrors(csv.name);
  const units = planImport(csv, kind, errors);
  const invalid = errors.settle(ctx, flags);
  const rows = csv.rows.length - invalid.length;

  if (flags.dryRun) {
    await writeRequests(ctx, postsOf(PATHS.ordersOfKind(kind), units));
    ctx.io.info(`${csv.name}: ${units.length} ${kind} order${units.length === 1 ? '' : 's'} from ${rows} row${rows === 1 ? '' : 's'}, all valid: ${units.length} request${units.length === 1 ? '' : 's'}; nothing sent (dry run)`);
    return;
  }

  await runImport(ctx, {
    // The kind is part of the run's identity: the same file imported as sales is other orders.
    command: `orders-import-${kind}`,
    file,
    units,
    noun: `${kind} orders`,
    path: PATHS.ordersOfKind(kind),
    concurrency,
    fresh: flags.fresh,
    report: flags.report,
    invalid,
  });
}
