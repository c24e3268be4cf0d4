// `sct orders import --purchase|--sale|--batch --file orders.csv`: one create per order, rows
// sharing an external_id being that order's items.
//
// The columns, what each holds and which orders take it are data (src/commands/orders/columns.ts):
// help, `--template` and the manual are made from them. Order columns are the same on every row
// of an order (a blank cell means "as on the other rows"); item columns give one item per row, or
// all of an order's items in one `items` cell, as `sct orders list -o csv` writes them.
//
// Every row is checked before the first request; any error stops the run with exit 2 and
// names the line and column. The run itself is src/bulk/import.ts: a journal and deterministic
// Idempotency-Keys make a rerun after an interruption skip what went through and resend the
// rest without duplicates.
import type { Context } from '../../context.js';
import type * as z from 'zod';
import { PATHS } from '../../api/paths.js';
import { UsageError } from '../../errors.js';
import { endDryRun, decimalText, dropReadOnlyColumns, readCsv, RowErrors, unknownColumns, type CsvFile, type CsvRow, type FileHeader, type NumberStyle, type RowTaker } from '../../bulk/csv.js';
import { RESOURCE_FIELDS } from '../../api/schemas/fields.js';
import type { Outcome, Unit } from '../../bulk/runner.js';
import { checkReportPath } from '../../bulk/report.js';
import { nameItemLines, runImport } from '../../bulk/import.js';
import { parseConcurrency } from '../shared/flags.js';
import { ID_MAX, isExactly, isId } from '../../util/numbers.js';
import { writeTemplateIf, type FileTemplate } from '../shared/bulk.js';
import type { ImportFlags } from './options.js';
import { postsOf, requestsAsMade, writeRequests } from '../shared/dry-run.js';
import { readInput } from '../../util/files.js';
import { parseWorded } from '../shared/body.js';
import { ORDER_CREATE_SCHEMAS, ORDER_UPDATE_SCHEMAS } from '../../api/schemas/orders.js';
import { addObjectProblems, heldObjects, type FileObject, type FileObjects, type RowProblem } from '../../sync/plan.js';
import { type OrderKindName } from '../../api/enums.js';
import { orderKind } from './filters.js';
import { ITEM_COLUMNS, ITEMS_COLUMN, ORDER_COLUMNS, orderFileColumns, type Conv } from './columns.js';


type Body = Record<string, unknown>;
const LIST_SEPARATOR = /[|;]/;

class CellError extends Error {}

function convert(raw: string, conv: Conv, numbers: NumberStyle = 'point'): unknown {
  switch (conv) {
    case 'text':
      return raw;
    case 'datetime':
      // LibreOffice's CSV export writes a date-time `2026-11-25 10:30:00`: RFC 3339 allows the
      // space for the T and the service reads it, but the schema's ISO 8601 takes only the T.
      return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(raw) ? raw.replace(' ', 'T') : raw;
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
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new CellError(`"${raw}" is not a number`);
      if (!Number.isFinite(n)) throw new CellError(`"${raw}" is larger than a number holds`);
      if (!isExactly(text, n)) throw new CellError(`"${raw}" ${n === 0 ? 'is closer to 0 than a number holds' : 'has more digits than a number holds exactly'} (it would be sent as ${String(n)})`);
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
      // "eudr, organic" as a sentence writes it would be one tag, comma and all.
      if (raw.includes(',')) {
        const parts = raw.split(/[,|;]/).map((s) => s.trim()).filter(Boolean);
        throw new CellError(`"${raw}" has a comma: the values of a list are separated by | or ; (${parts.join('|')}); one that holds a comma is written in a JSON list, ${JSON.stringify([raw])}`);
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

/** Where an order field's value came from: a schema error names its line, a conflict its text. */
interface Origin {
  line: number;
  raw: string;
}

/** An order whose rows are being read. */
interface OpenOrder {
  body: Body;
  /** Order field (its column's name) → where its value came from. */
  fieldOrigin: Map<string, Origin>;
  /** Per item: its line and item field → column. */
  items: Array<{ line: number; columns: Map<string, string> }>;
  lines: number[];
  /** The line of each item's line number, item external id and, for an item with neither, content. */
  seen?: Map<string, number>;
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

/**
 * An order's items in the order of their line numbers, when each has one: its body, and so its
 * key, are the same however the file's rows are sorted (a spreadsheet sorted by product between a
 * run that lost an answer and its rerun would otherwise send another body under the first key).
 * Items without line numbers stay in the file's order, which is then all that tells them apart.
 */
function inLineNumberOrder(unit: OrderFromFile): void {
  const items = unit.payload.items;
  if (!Array.isArray(items) || items.length < 2) return;
  const numbers = items.map((it) => (it as Body).line_number);
  if (!numbers.every((n): n is number => typeof n === 'number')) return;
  if (numbers.every((n, i) => i === 0 || numbers[i - 1]! <= n)) return;
  const order = numbers.map((n, i) => ({ n, i })).sort((a, b) => a.n - b.n);
  unit.payload.items = order.map(({ i }) => items[i]);
  unit.itemLines = order.map(({ i }) => unit.itemLines[i]!);
}

/**
 * The items of an `items` cell as `-o csv` writes them (the service's item objects, as JSON),
 * as a create takes them: the kind's products, volume, unit, line number, external id, metadata
 * and trace. A message when the cell is not such a list.
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
  const taken = ['volume', 'unit', 'line_number', 'external_id', 'metadata', 'trace', ...(kind === 'sale' ? [] : ['buyer_product']), ...(kind === 'purchase' ? [] : ['seller_product'])];
  return (value as Body[]).map((it) => Object.fromEntries(taken.filter((f) => it[f] !== null && it[f] !== undefined).map((f) => [f, it[f]])));
}

export function planImport(csv: CsvFile, kind: OrderKindName, errors?: RowErrors): Unit<Body>[] {
  return ordersFromCsv(csv, kind, errors);
}

/** Refuses a header an order file of the kind cannot have (exit 2), before any row is read. */
function checkOrderColumns(csv: Pick<CsvFile, 'name' | 'columns'>, kind: OrderKindName): void {
  const orderColumns = ORDER_COLUMNS[kind];
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
}

interface Problem {
  line: number;
  column: string;
  message: string;
}

/**
 * Makes orders of rows: each row is added to the order its external_id names, and an order is
 * finished (checked with the kind's schema) once all its rows are in. It holds only the orders
 * not yet finished, so a reader that knows where each order ends holds a few at a time.
 */
class OrderAssembler {
  private readonly open = new Map<string, OpenOrder>();
  /** What is wrong, in the order found; reported in line order. */
  private readonly problems: Problem[] = [];
  /** The lines with a problem, so an order with one is never sent in part (--skip-invalid). */
  private readonly badLines = new Set<number>();
  /** Each finished order's other lines, which are not sent because one of its lines is invalid. */
  private readonly notSent: Problem[] = [];
  private readonly givenSets = new Map<string, ReadonlySet<string>>();
  private readonly orderColumns: Record<string, Conv>;
  private readonly create: z.ZodType;
  private readonly schema: z.ZodType;

  constructor(
    private readonly kind: OrderKindName,
    private readonly numbers: NumberStyle,
    /** sync: a sync's orders (see schema). leaveOut: the caller settles the errors, and an order with an invalid row is left out whole. */
    private readonly o: { sync?: boolean; leaveOut?: boolean } = {},
  ) {
    this.orderColumns = ORDER_COLUMNS[kind];
    this.create = ORDER_CREATE_SCHEMAS[kind] as z.ZodType;
    // A sync's row may update an order the service holds: then only what it gives is checked, and
    // what a create would need besides is kept for the plan to judge (src/sync/run.ts).
    this.schema = o.sync ? (ORDER_UPDATE_SCHEMAS[kind] as z.ZodType) : this.create;
  }

  private problem(line: number, column: string, message: string): void {
    this.problems.push({ line, column, message });
    this.badLines.add(line);
  }

  /** A cell's value, or undefined when it is blank or does not convert (then recorded as an error). */
  private readCell(row: CsvRow, column: string, conv: Conv): { raw: string; value: unknown } | undefined {
    // A workbook cell holding a formula's error (#N/A): the row is invalid, its order left out.
    const broken = row.cellErrors?.[column];
    if (broken !== undefined) {
      this.problem(row.line, column, broken);
      return undefined;
    }
    const raw = (row.values[column] ?? '').trim();
    if (!raw) return undefined;
    try {
      return { raw, value: convert(raw, conv, this.numbers) };
    } catch (e) {
      this.problem(row.line, column, (e as Error).message);
      return undefined;
    }
  }

  /** Adds the row to its order; the order's external_id, or undefined for a row that names none. */
  add(row: CsvRow): string | undefined {
    const { kind } = this;
    const externalId = (row.values.external_id ?? '').trim();
    const broken = row.cellErrors?.external_id;
    if (!externalId || broken !== undefined) {
      this.problem(row.line, 'external_id', broken ?? 'required: it names the order the row belongs to');
      return undefined;
    }
    let order = this.open.get(externalId);
    if (!order) this.open.set(externalId, (order = { body: {}, fieldOrigin: new Map(), items: [], lines: [] }));
    order.lines.push(row.line);

    for (const column in this.orderColumns) {
      const cell = this.readCell(row, column, this.orderColumns[column]);
      if (!cell) continue;
      const { raw, value } = cell;
      const first = order.fieldOrigin.get(column);
      if (first) {
        if (JSON.stringify(order.body[column]) !== JSON.stringify(value)) {
          this.problem(row.line, column, `"${raw}" conflicts with line ${first.line} of order ${externalId} ("${first.raw}"): order columns must agree on every row of an order`);
        }
        continue;
      }
      order.body[column] = value;
      order.fieldOrigin.set(column, { line: row.line, raw });
    }

    const item: Body = {};
    const columns = new Map<string, string>();
    let hasItem = false;
    for (const [column, [field, conv]] of Object.entries(ITEM_COLUMNS)) {
      const cell = this.readCell(row, column, conv);
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
    if (row.cellErrors?.[ITEMS_COLUMN] !== undefined) this.problem(row.line, ITEMS_COLUMN, row.cellErrors[ITEMS_COLUMN]);
    else if (listed && hasItem) this.problem(row.line, ITEMS_COLUMN, 'give the items as rows (product, volume, unit…) or as this column, not both');
    else if (listed) {
      const exported = itemsOfColumn(listed, kind);
      if (typeof exported === 'string') this.problem(row.line, ITEMS_COLUMN, exported);
      else
        for (const it of exported) {
          ((order.body.items ??= []) as Body[]).push(it);
          order.items.push({ line: row.line, columns: new Map(Object.keys(it).map((f) => [f, ITEMS_COLUMN])) });
        }
    }
    if (hasItem) {
      this.checkNotRepeated(order, item, row.line, columns, externalId);
      ((order.body.items ??= []) as Body[]).push(item);
      order.items.push({ line: row.line, columns });
    }
    return externalId;
  }

  /**
   * An item given twice in one order: its line number or its external id again (a sync matches
   * items by line number, and could not tell them apart), or, for an item with neither, the same
   * row again (pasted twice in a spreadsheet).
   */
  private checkNotRepeated(order: OpenOrder, item: Body, line: number, columns: Map<string, string>, externalId: string): void {
    const seen = (order.seen ??= new Map());
    const once = (key: string, column: string, message: (first: number) => string) => {
      const first = seen.get(key);
      if (first !== undefined) this.problem(line, column, message(first));
      else seen.set(key, line);
    };
    if (item.line_number !== undefined) once(`line ${String(item.line_number)}`, columns.get('line_number')!, (first) => `${String(item.line_number)} is also the line number of line ${first} of order ${externalId}`);
    if (item.external_id !== undefined) once(`id ${String(item.external_id)}`, columns.get('external_id')!, (first) => `"${String(item.external_id)}" is also the item of line ${first} of order ${externalId}`);
    if (item.line_number === undefined && item.external_id === undefined) {
      once(`same ${JSON.stringify(item)}`, '', (first) => `the same item as line ${first} of order ${externalId} (a row given twice? give each item its own line_number)`);
    }
  }

  /**
   * Finishes the order of externalId, every row of it added: its unit, or undefined when it is
   * invalid (its problems recorded) or, with --skip-invalid, has an invalid row (its other rows
   * then recorded as not sent: an order is sent whole or not at all).
   */
  finish(externalId: string): OrderFromFile | undefined {
    const order = this.open.get(externalId)!;
    this.open.delete(externalId);
    const given = this.givenSet([...order.fieldOrigin.keys(), ...(order.items.length ? ['items'] : [])]);
    // A batch must carry tags (an empty list is fine); in a file, no tags means none.
    if (this.kind === 'batch') order.body.tags ??= [];
    const result = parseWorded(this.schema, order.body);
    if (!result.success) {
      for (const p of issuesAt(order, result.error.issues)) this.problem(p.line, p.column, p.message);
      return undefined;
    }
    const unit: OrderFromFile = { key: externalId, lines: order.lines, payload: result.data as Body, given, itemLines: order.items.map((i) => i.line) };
    if (this.o.sync) {
      const full = parseWorded(this.create, order.body);
      if (full.success) unit.payload = full.data as Body;
      else unit.createProblems = issuesAt(order, full.error.issues);
    }
    inLineNumberOrder(unit);
    const first = order.lines.find((l) => this.badLines.has(l));
    if (first === undefined) return unit;
    if (this.o.leaveOut) {
      for (const l of order.lines) if (!this.badLines.has(l)) this.notSent.push({ line: l, column: 'external_id', message: `not sent: line ${first} of order ${externalId} is invalid` });
    }
    return undefined;
  }

  /**
   * The fields an order gives, as one set shared by every order that gives the same: the orders
   * of a file mostly fill the same columns, and a set of its own for each of a million orders
   * held about 200 MB.
   */
  private givenSet(fields: string[]): ReadonlySet<string> {
    const key = fields.sort().join('\u0000');
    let set = this.givenSets.get(key);
    if (!set) this.givenSets.set(key, (set = new Set(fields)));
    return set;
  }

  /** Every problem into errors: what was found in line order, then the rows not sent. */
  report(errors: RowErrors): void {
    for (const p of this.problems.sort((a, b) => a.line - b.line)) errors.add(p.line, p.column || undefined, p.message);
    for (const p of this.notSent) errors.add(p.line, p.column, p.message);
  }
}

function issuesAt(order: OpenOrder, issues: z.core.$ZodIssue[]): Problem[] {
  return issues.map((issue) => {
    const [line, column] = locate(order, issue.path);
    return { line, column, message: issue.message };
  });
}

/**
 * Groups the rows into orders and validates every one with the kind's create schema. Returns
 * the orders, or throws (exit 2) listing every problem with its line and column. `orders
 * import` and `orders sync` both read their file here, so the two never disagree on a cell.
 * Given `errors`, the caller settles them (--skip-invalid): an order with an invalid row is
 * left out whole.
 */
export function ordersFromCsv(csv: CsvFile, kind: OrderKindName, errors?: RowErrors, o: { sync?: boolean } = {}): OrderFromFile[] {
  checkOrderColumns(csv, kind);
  // Read as a file that comes row by row is: each order finished at its last row, as an order
  // being assembled holds far more than the order made (a million at once took about 1.5 GB).
  const scattered = new ScatteredOrders();
  for (const row of csv.rows) scattered.note(row);
  scattered.done();
  const units: OrderFromFile[] = [];
  const orders = ordersAsRead(csv, kind, scattered, (unit) => units.push(unit), { ...o, leaveOut: errors !== undefined });
  for (const row of csv.rows) orders.add(row);
  const rowErrors = errors ?? new RowErrors(csv.name);
  orders.end(rowErrors);
  if (!errors) rowErrors.throwIfAny();
  return units;
}

/** The CSV line and column a schema issue points at. */
function locate(order: OpenOrder, path: PropertyKey[]): [number, string] {
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

/** One order of one item: the example row of `--template` (a batch's own companies below). */
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

const BATCH_EXAMPLE: Record<string, string> = { external_id: 'BATCH-2025-0001', item_external_id: 'BATCH-2025-0001-1', buyer_company_id: '1', seller_company_id: '1' };

/**
 * `--template`: the header of the file this command reads for the kind, and one example row.
 * Columns that name the same thing another way (buyer_product beside product) are left out.
 */
export function orderTemplate(kind: OrderKindName): FileTemplate {
  return {
    columns: orderFileColumns(kind).filter((c) => c !== 'buyer_product' && c !== 'seller_product'),
    // A batch is the company's own on both sides (the demo's company 1, whose product 17 is).
    example: kind === 'batch' ? { ...EXAMPLE, ...BATCH_EXAMPLE, type: 'produced_batch' } : { ...EXAMPLE, type: 'order' },
  };
}

/** `--template` of orders import and sync: true when it was written (nothing else to do). */
export function writeOrderTemplate(ctx: Context, flags: ImportFlags): Promise<boolean> {
  // Without --template, --file is checked with the other flags (checkOrderFlags).
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

/** Every column an order file of any kind may have: the separator is the one that finds them. */
const KNOWN_COLUMNS = [...Object.values(ORDER_COLUMNS).flatMap(Object.keys), ...Object.keys(ITEM_COLUMNS)];

/** The flags `orders import` and `orders sync` check before anything is read. */
function checkOrderFlags(flags: ImportFlags): { kind: OrderKindName; file: string; concurrency: number } {
  const kind = orderKind(flags)!;
  if (!flags.file) throw new UsageError('--file orders.csv is required (- for stdin)');
  const concurrency = parseConcurrency(flags.concurrency);
  checkReportPath(flags.report, flags.force, flags.file);
  return { kind, file: flags.file, concurrency };
}

/** Reads an order file from the same bytes as often as asked: `first` says its notes once. */
type Reading = (first: boolean, takeRows: (header: FileHeader) => RowTaker) => Promise<CsvFile>;

/** The readings of an order file; `columns` are those the command reads (the others the service sets are left). */
async function orderFileReading(ctx: Context, flags: ImportFlags, file: string, kind: OrderKindName, columns: readonly string[], keepsAll = false): Promise<Reading> {
  const bytes = await readInput(file, ctx.io.stdin, { signal: ctx.signal });
  return (first, takeRows) =>
    readCsv(file, ctx.io.stdin, ['external_id'], {
      ...flags,
      known: KNOWN_COLUMNS,
      input: bytes,
      keepsAll,
      signal: ctx.signal,
      takeRows: (header) => {
        dropReadOnlyColumns(first ? ctx.io : { info: () => undefined }, header, columns, RESOURCE_FIELDS.order);
        checkOrderColumns(header, kind);
        return takeRows(header);
      },
    });
}

/** A reading that makes each order as its rows come (ordersAsRead), what it finds wrong put into `found`. */
async function readOrders(
  read: Reading,
  kind: OrderKindName,
  scattered: ScatteredOrders,
  found: RowErrors,
  emit: (unit: OrderFromFile) => void,
  o: { afterRow?: () => Promise<void> | undefined; sync?: boolean } = {},
): Promise<void> {
  let orders: ReturnType<typeof ordersAsRead> | undefined;
  await read(false, (header) => {
    orders = ordersAsRead(header, kind, scattered, emit, { sync: o.sync });
    return (row) => {
      orders!.add(row);
      return o.afterRow?.();
    };
  });
  orders!.end(found);
}

/**
 * The first readings of an order file: which orders' rows are apart, then every order checked
 * once its rows are in, what is wrong put into `errors`. `keep`: the valid orders are kept (else
 * only counted, to be made again by a later reading). A workbook comes whole (SheetJS reads it
 * all at each reading): it is read once, its rows kept and its orders always.
 */
async function checkOrders(
  read: Reading,
  kind: OrderKindName,
  o: { keep: boolean; sync?: boolean; each?: (unit: OrderFromFile) => void },
): Promise<{ csv: CsvFile; scattered: ScatteredOrders; lineByLine: boolean; errors: RowErrors; units: OrderFromFile[]; count: number }> {
  const scattered = new ScatteredOrders();
  const rows: CsvRow[] = [];
  let lineByLine = false;
  let columns: string[] = [];
  const csv = await read(true, (header) => {
    lineByLine = header.lineByLine;
    // Those the service sets taken out.
    columns = header.columns;
    return lineByLine ? (row) => scattered.note(row) : (row) => void rows.push(row);
  });
  scattered.done();
  const errors = new RowErrors(csv.name);
  if (!lineByLine) {
    const units = ordersFromCsv({ ...csv, columns, rows }, kind, errors, { sync: o.sync });
    if (o.each) units.forEach(o.each);
    return { csv, scattered, lineByLine, errors, units, count: units.length };
  }
  const units: OrderFromFile[] = [];
  let count = 0;
  const take = (unit: OrderFromFile) => {
    count++;
    o.each?.(unit);
    if (o.keep) units.push(unit);
  };
  await readOrders(read, kind, scattered, errors, take, { sync: o.sync });
  return { csv, scattered, lineByLine, errors, units, count };
}

/** One order of the file as a sync compares it: the body `orders import` would send. */
function syncObject(o: OrderFromFile): FileObject {
  return { key: o.key, lines: o.lines, body: o.payload, given: o.given, itemLines: o.itemLines, createProblems: o.createProblems };
}

/**
 * The file of a sync, once its flags are checked: its valid orders, made as `orders import`
 * makes them, and the rows left out (--skip-invalid), what the sync itself cannot take (`check`:
 * two items under one line number) among them. A plan to apply, or written as one JSON document,
 * holds the orders (`holds`); else a CSV file is read as `orders import` reads it: checked first,
 * keeping only the orders' keys, then its orders made again each time the sync asks for them
 * (FileObjects). A workbook's orders are always held.
 */
export async function ordersToSync(
  ctx: Context,
  flags: ImportFlags,
  check: (kind: OrderKindName, o: FileObject) => RowProblem[],
  holds: boolean,
): Promise<{ kind: OrderKindName; file: string; concurrency: number; objects: FileObjects; invalid: Outcome[] }> {
  const checked = checkOrderFlags(flags);
  // A sync leaves the items column of a list written with -o csv, so that an unchanged export
  // plans no change to the items the service holds (an import reads it).
  const read = await orderFileReading(ctx, flags, checked.file, checked.kind, orderFileColumns(checked.kind), holds);
  const refused = new Map<string, { lines: number[]; problems: RowProblem[] }>();
  const keys = new Set<string>();
  const lacking = new Map<string, { lines: number[]; problems: RowProblem[] }>();
  const note = (unit: OrderFromFile) => {
    const o = syncObject(unit);
    const problems = check(checked.kind, o);
    if (problems.length) return void refused.set(o.key, { lines: o.lines, problems });
    // Held objects give their own keys (heldObjects); only a file read again needs them noted.
    if (holds) return;
    keys.add(o.key);
    if (o.createProblems?.length) lacking.set(o.key, { lines: o.lines, problems: o.createProblems });
  };
  const { csv, scattered, lineByLine, units, errors } = await checkOrders(read, checked.kind, { keep: holds, sync: true, each: note });
  for (const [key, r] of refused) addObjectProblems(errors, { key, lines: r.lines }, r.problems);
  const invalid = errors.settle(ctx, flags);
  const objects: FileObjects =
    lineByLine && !holds
      ? {
          keys,
          lacking,
          // What the reading finds wrong was found and said by the first.
          each: async (take, afterEach) => {
            const emit = (unit: OrderFromFile) => {
              if (!refused.has(unit.key)) take(syncObject(unit));
            };
            await readOrders(read, checked.kind, scattered, new RowErrors(csv.name), emit, { afterRow: afterEach, sync: true });
          },
        }
      : heldObjects(units.filter((u) => !refused.has(u.key)).map(syncObject));
  return { ...checked, objects, invalid };
}

/**
 * The orders whose rows are not all together in the file (`A, B, A`), each with its last line:
 * what a reading that hands each order on once its rows are in needs to know beforehand. Any
 * other order ends where a row of another begins. Rows without an external_id are passed over.
 */
export class ScatteredOrders {
  private seen: Set<string> | undefined = new Set();
  private previous: string | undefined;
  readonly lastLine = new Map<string, number>();

  /** The first reading: every row, in file order. */
  note(row: CsvRow): void {
    const externalId = (row.values.external_id ?? '').trim();
    if (!externalId) return;
    if (externalId !== this.previous) {
      if (this.seen!.has(externalId)) this.lastLine.set(externalId, row.line);
      else this.seen!.add(externalId);
      this.previous = externalId;
    } else if (this.lastLine.has(externalId)) this.lastLine.set(externalId, row.line);
  }

  /** The file read: the external_ids of the others are no longer needed. */
  done(): this {
    this.seen = undefined;
    return this;
  }
}

/**
 * Orders made as a reading's rows come, each handed to `emit` once its rows are in (see
 * ScatteredOrders), in the order of their first lines; invalid ones are not handed on (an order
 * with an invalid row is left out whole, its other rows said to be not sent unless `leaveOut`
 * is false). `end` hands on the last and puts what was wrong into errors.
 */
export function ordersAsRead(
  header: Pick<FileHeader, 'numbers'>,
  kind: OrderKindName,
  scattered: ScatteredOrders,
  emit: (unit: OrderFromFile) => void,
  o: { sync?: boolean; leaveOut?: boolean } = {},
): { add(row: CsvRow): void; end(errors: RowErrors): void } {
  const orders = new OrderAssembler(kind, header.numbers, { leaveOut: o.leaveOut ?? true, sync: o.sync });
  // The orders begun and not yet handed on, by first line: one that ends before an order begun
  // earlier waits for it. In a file whose orders' rows are together, none waits.
  interface Begun {
    done: boolean;
    unit?: OrderFromFile;
  }
  let queue: Array<Begun | undefined> = [];
  let head = 0;
  const begun = new Map<string, Begun>();
  // The order of the rows just read, while they come together.
  let current: string | undefined;
  const finish = (externalId: string) => {
    const entry = begun.get(externalId)!;
    begun.delete(externalId);
    entry.done = true;
    entry.unit = orders.finish(externalId);
    for (let next = queue[head]; next?.done; next = queue[head]) {
      if (next.unit) emit(next.unit);
      queue[head++] = undefined;
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };
  const { lastLine } = scattered;
  return {
    add(row) {
      const externalId = orders.add(row);
      if (externalId === undefined) return;
      if (externalId !== current) {
        if (current !== undefined && !lastLine.has(current)) finish(current);
        current = externalId;
        if (!begun.has(externalId)) {
          const entry = { done: false };
          begun.set(externalId, entry);
          queue.push(entry);
        }
      }
      if (lastLine.get(externalId) === row.line) finish(externalId);
    },
    end(errors) {
      if (current !== undefined && !lastLine.has(current)) finish(current);
      current = undefined;
      orders.report(errors);
    },
  };
}

export async function importOrders(ctx: Context, flags: ImportFlags): Promise<void> {
  const { kind, file, concurrency } = checkOrderFlags(flags);
  const path = PATHS.ordersOfKind(kind);
  // A CSV file is read three times from the same bytes: to find the orders whose rows are apart,
  // to check every order once its rows are in, and to make each again and hand it on (written at
  // once by a dry run). Only the orders whose rows are still coming are held: a million orders
  // held at once took 2.6 GB (docs/decisions/memory.md). A workbook comes whole and is read once.
  // An import reads the items column of a list written with -o csv (JSON).
  const read = await orderFileReading(ctx, flags, file, kind, [...orderFileColumns(kind), ITEMS_COLUMN]);

  const { csv, scattered, lineByLine, errors, units, count } = await checkOrders(read, kind, { keep: false });
  const invalid = errors.settle(ctx, flags);
  // The reading that makes what the one before checked: what it finds wrong was found and said then.
  const made = (emit: (unit: OrderFromFile) => void, afterRow?: () => Promise<void> | undefined) => readOrders(read, kind, scattered, new RowErrors(csv.name), emit, { afterRow });

  if (flags.dryRun) {
    if (lineByLine) {
      const out = requestsAsMade(ctx, path);
      await made((unit) => out.add(unit.payload), () => out.afterRow());
      await out.end();
    } else await writeRequests(ctx, postsOf(path, units));
    const rowCount = csv.rowCount - invalid.length;
    const valid = invalid.length ? 'valid ' : '';
    ctx.io.info(`${csv.name}: ${count} ${valid}${kind} order${count === 1 ? '' : 's'} from ${rowCount} row${rowCount === 1 ? '' : 's'}${valid ? '' : ', all valid'}: ${count} request${count === 1 ? '' : 's'}; nothing sent (dry run)`);
    return endDryRun(csv.name, invalid);
  }
  if (lineByLine) await made((unit) => units.push(unit));

  await runImport(ctx, {
    // The kind is part of the run's identity: the same file imported as sales is other orders.
    command: `orders-import-${kind}`,
    file,
    units,
    noun: `${kind} orders`,
    path,
    concurrency,
    fresh: flags.fresh,
    report: flags.report,
    invalid,
    placeRejection: (unit, err) => nameItemLines(err, (unit as OrderFromFile).itemLines),
  });
}
