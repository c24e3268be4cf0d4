// The output formats (table, json, ndjson, csv; geojson for origins). Lists are written page by
// page (json stays one array), so an export of 100,000 rows never holds more than a page in
// memory — except the table, which sizes its columns over every row and is meant for people,
// not exports.
import type { IOStreams } from './iostreams.js';
import { cellReaders, cellValue, columnsFromFlag, tableColumnsFromFlag, type Column } from './columns.js';
import { fitColumns, layoutTable, loadMeasure, tsvCell, tsvLine, type TableColumn } from './table.js';
import { colorStatus, isStatusField } from './iostreams.js';
import { csvValue, displayValue, flattenKeys, getPath, mergeColumnKeys, parentKeys } from './values.js';
import { isPlainObject } from '../util/objects.js';
import { cleanCell, cleanJsonText, stripControl, stripControlDeep } from '../util/sanitize.js';
import { csvCell, csvLine, spreadsheetCell } from './spreadsheet.js';
import { UsageError } from '../errors.js';
import { FEATURE_COLLECTION, toFeature, writeFeature } from './geojson.js';
import type { JsonFrame } from './json-frame.js';
import { pickPaths, splitFields } from './fields.js';
import { JsonText } from '../api/json-page.js';
import { FORMATS, GEOJSON, type Format } from './formats.js';

export function parseFormat(value: string, o: { geojson?: boolean } = {}): Format {
  if ((FORMATS as readonly string[]).includes(value) || (o.geojson && value === GEOJSON)) return value as Format;
  throw new UsageError(`invalid output format "${value}": use one of ${FORMATS.join(', ')}`);
}

export interface OutputOptions {
  format: Format;
  /** The --columns flag, if given. */
  columns?: string;
  /** The resource's default table columns. */
  defaults: Column[];
  /** The columns of `-o csv` without --columns: the resource's documented fields (output/fields.ts), if it has any. */
  csvColumns?: readonly string[];
  /** --csv-formulas: CSV cells exactly as the service sent them, without the formula guard. */
  csvFormulas?: boolean;
  /** --bom: a UTF-8 byte-order mark before the header, for Excel. */
  bom?: boolean;
  /** --jq: the whole JSON document filtered through jq (format is then json). */
  jq?: string;
}

/** In json/ndjson, `--columns` keeps only those fields of each object, nested as in the API object. */
function picker(options: OutputOptions): (row: unknown) => unknown {
  if (!options.columns) return (row) => row;
  const paths = splitFields(options.columns);
  return (row) => pickPaths(row, paths);
}

export interface ListWriter {
  /** A page's rows: values, or (when takesJsonText) all of them JsonText, as the client read them. */
  write(rows: unknown[]): Promise<void>;
  end(): Promise<void>;
  /** Rows written so far. */
  readonly count: number;
  /**
   * What it prints is about the whole list (--jq's `length`, a sum): a list cut short by an
   * error is not ended, never printed as an answer about part of it.
   */
  readonly wholeOnly?: boolean;
  /** The rows are printed as the service sent them, so they may come unparsed (PageOptions.asJsonText). */
  readonly takesJsonText?: boolean;
  /** Nothing reaches stdout until end() (a table fitted to the terminal): progress may be shown meanwhile. */
  readonly holdsRows?: boolean;
  /**
   * A line about the list, once it is written ("Showing 10 of 197 orders"): a table at a
   * terminal prints it after its rows, on stdout, so that a pager shows it at the end with them.
   * Writers without one leave stdout to the data; the caller says it on stderr.
   */
  note?(line: string): Promise<void>;
}

type Row = Record<string, unknown>;

/**
 * Rows per write of an export: a page of 1000 wide rows as one chunk is several MB more at the
 * peak, and slices let each reach the pipe before the next is built.
 */
const SLICE = 100;

export function createListWriter(io: IOStreams, options: OutputOptions): ListWriter {
  if (options.jq !== undefined) return jqWriter(io, options.jq, picker(options));
  // Whole objects are the service's bytes unchanged (at a terminal their strings cleaned one by
  // one, the numbers as sent: an id past 2^53 is never shown rounded); picking fields needs the values.
  const asSent = !options.columns;
  switch (options.format) {
    case 'json':
      return jsonArrayWriter(io, picker(options), JSON_ARRAY, asSent);
    case 'ndjson':
      return ndjsonWriter(io, picker(options), asSent);
    case 'geojson':
      return jsonArrayWriter(io, (row) => toFeature(row, picker(options)), FEATURE_COLLECTION);
    case 'csv':
      return checkColumns(io, options.columns, csvWriter(io, options));
    default:
      return checkColumns(io, options.columns, tableWriter(io, options));
  }
}

/** The `--columns` paths whose first field no row has: most likely typos. */
function unknownColumns(flag: string, rows: unknown[]): string[] {
  return columnsFromFlag(flag)
    .map((c) => c.path)
    .filter((path) => !rows.some((r) => r !== null && typeof r === 'object' && Object.hasOwn(r, path.split('.')[0])));
}

function warnUnknownColumns(io: IOStreams, unknown: string[]): void {
  if (unknown.length === 0) return;
  io.warn(`--columns: no field ${unknown.map((p) => `"${p}"`).join(', ')} in the results (check the spelling; -o json shows every field)`);
}

/** A misspelt `--columns` would silently print empty cells: said once, on the first rows. */
function checkColumns(io: IOStreams, flag: string | undefined, writer: ListWriter): ListWriter {
  if (!flag) return writer;
  let checked = false;
  return {
    get count() {
      return writer.count;
    },
    async write(rows) {
      if (!checked && rows.length > 0) {
        checked = true;
        warnUnknownColumns(io, unknownColumns(flag, rows));
      }
      await writer.write(rows);
    },
    end: () => writer.end(),
    note: writer.note,
  };
}

/**
 * Writes a whole list (unpaginated results, a dry run's rows). A thousand rows at a time: the
 * text of a million rows written as one string would be held whole beside its rows, and an
 * iterable lets a caller build each row as it is written rather than all of them first.
 */
export async function writeList(io: IOStreams, rows: Iterable<unknown>, options: OutputOptions): Promise<void> {
  await writeInBatches(createListWriter(io, options), rows);
}

/** Every row of `rows` through `w`, WRITE_BATCH at a time, then its end. */
export async function writeInBatches<T>(w: { write(rows: T[]): Promise<void>; end(): Promise<void> }, rows: Iterable<T>): Promise<void> {
  let batch: T[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === WRITE_BATCH) {
      await w.write(batch);
      batch = [];
    }
  }
  await w.write(batch);
  await w.end();
}

const WRITE_BATCH = 1000;

/** One resource: a JSON object, or "field  value" lines for people. */
export async function writeOne(io: IOStreams, obj: unknown, options: OutputOptions & { detail?: Column[] }): Promise<void> {
  if (options.jq !== undefined) return writeJq(io, picker(options)(obj), options.jq);
  if (options.format === 'json') return io.write(JSON.stringify(terminalSafe(io)(picker(options)(obj)), null, 2) + '\n');
  if (options.format === 'ndjson') return io.write(JSON.stringify(terminalSafe(io)(picker(options)(obj))) + '\n');
  if (options.format === 'csv') return writeList(io, [obj], options);
  if (options.format === 'geojson') return writeFeature(io, obj, picker(options));
  const row = (obj ?? {}) as Row;
  if (options.columns) warnUnknownColumns(io, unknownColumns(options.columns, [row]));
  const columns = options.columns
    ? tableColumnsFromFlag(options.columns)
    : (options.detail ?? Object.keys(row).map((k) => ({ header: k, path: k })));
  const width = Math.max(...columns.map((c) => c.header.length), 1);
  // Into a pipe, as every table there, tab-separated (`cut -f2`, values with spaces kept whole);
  // at a terminal, aligned.
  const pad = io.stdoutIsTTY ? (header: string) => `${header.padEnd(width)}  ` : (header: string) => `${header}\t`;
  let out = '';
  for (const c of columns) {
    const value = cellValue(row, c);
    // Without a detail list the headers are the object's keys, which come from the API too.
    const text = cleanCell(summarize(value));
    const shown = isStatusField(c.path) || isStatusField(c.header) ? colorStatus(io.color, text) : text;
    out += `${io.color.bold(pad(cleanCell(c.header)))}${shown}\n`;
  }
  await io.write(out);
}

/** Arrays of objects (items, statements) read better as a count in a key/value view. */
function summarize(value: unknown): string {
  if (Array.isArray(value) && value.some((v) => v && typeof v === 'object' && !isNamed(v))) {
    return `${value.length} ${value.length === 1 ? 'entry' : 'entries'}`;
  }
  return displayValue(value);
}
function isNamed(v: object): boolean {
  return typeof (v as Row).name === 'string';
}

/**
 * On a terminal, JSON output loses the control characters and escape sequences in its strings
 * (still valid JSON); into a pipe or a file the objects go exactly as the API returned them.
 */
export function terminalSafe(io: IOStreams): (value: unknown) => unknown {
  return io.stdoutIsTTY ? stripControlDeep : (value) => value;
}

/** jq's results for the document; on a terminal its strings lose their escape sequences first. */
async function writeJq(io: IOStreams, document: unknown, expr: string): Promise<void> {
  const { runJq } = await import('./jq.js');
  // jq's own stderr lines (`debug`, `stderr`) as jq writes them, the service's text in them cleaned at a terminal.
  const out = await runJq(terminalSafe(io)(document), expr, (text) => io.error(io.stderrIsTTY ? stripControl(text) : text));
  if (out) await io.write(out);
}

/**
 * --jq on a list: jq runs once, on the whole array (every page of --all), as on `-o json`'s
 * document; the rows are held until the end for it.
 */
function jqWriter(io: IOStreams, expr: string, pick: (row: unknown) => unknown): ListWriter {
  const rows: unknown[] = [];
  return {
    get count() {
      return rows.length;
    },
    wholeOnly: true,
    async write(batch) {
      for (const r of batch) rows.push(pick(r));
    },
    end: () => writeJq(io, rows, expr),
  };
}

const JSON_ARRAY: JsonFrame = { open: '[\n  ', separator: ',\n  ', close: '\n]\n', empty: '[]\n' };

function isJsonTexts(rows: unknown[]): rows is JsonText[] {
  return rows.every((r) => r instanceof JsonText);
}

/** JsonText rows, SLICE at a time, each with the bytes `parts` puts around it. */
async function writeJsonTexts(io: IOStreams, rows: JsonText[], parts: (row: Uint8Array, out: Uint8Array[]) => void): Promise<void> {
  const shown = io.stdoutIsTTY ? cleanJsonText : (bytes: Uint8Array) => bytes;
  for (let i = 0; i < rows.length; i += SLICE) {
    const out: Uint8Array[] = [];
    for (let j = i; j < Math.min(i + SLICE, rows.length); j++) parts(shown(rows[j]!.bytes), out);
    await io.write(Buffer.concat(out));
  }
}

function jsonArrayWriter(io: IOStreams, pick: (row: unknown) => unknown = (r) => r, frame: JsonFrame = JSON_ARRAY, takesJsonText = false): ListWriter {
  const safe = terminalSafe(io);
  const open = Buffer.from(frame.open);
  const separator = Buffer.from(frame.separator);
  let count = 0;
  return {
    takesJsonText,
    get count() {
      return count;
    },
    async write(rows) {
      if (rows.length === 0) return;
      if (takesJsonText && isJsonTexts(rows)) return writeJsonTexts(io, rows, (row, out) => out.push(count++ === 0 ? open : separator, row));
      // Counted once the rows are text: a row that cannot be made text (nested past what a stack
      // walks) leaves count as written, so end() never closes an array it did not open.
      let chunk = '';
      let made = count;
      for (const row of rows) {
        chunk += (made++ === 0 ? frame.open : frame.separator) + JSON.stringify(safe(pick(row)));
      }
      count = made;
      await io.write(chunk);
    },
    async end() {
      await io.write(count === 0 ? frame.empty : frame.close);
    },
  };
}

const NEWLINE = Buffer.from('\n');

function ndjsonWriter(io: IOStreams, pick: (row: unknown) => unknown, takesJsonText: boolean): ListWriter {
  const safe = terminalSafe(io);
  let count = 0;
  return {
    takesJsonText,
    get count() {
      return count;
    },
    async write(rows) {
      if (rows.length === 0) return;
      count += rows.length;
      // A JsonText is on one line (json-page.ts): each is ended by a newline.
      if (takesJsonText && isJsonTexts(rows)) return writeJsonTexts(io, rows, (row, out) => out.push(row, NEWLINE));
      await io.write(rows.map((r) => JSON.stringify(safe(pick(r))) + '\n').join(''));
    },
    async end() {},
  };
}

/**
 * The fields of rows written under columns taken from earlier rows that no column holds: a path
 * under a column (an object where there was null) is in its JSON cell, and a column under a path
 * (null where there was an object) is empty, so neither is missed.
 */
class LateFields {
  private readonly columns: Set<string>;
  private readonly parents = new Set<string>();
  private readonly missed = new Map<string, number>();
  constructor(paths: string[]) {
    this.columns = new Set(paths);
    for (const p of paths) for (let i = p.indexOf('.'); i > 0; i = p.indexOf('.', i + 1)) this.parents.add(p.slice(0, i));
  }
  note(row: unknown): void {
    for (const k of flattenKeys(row)) {
      if (this.columns.has(k) || this.parents.has(k) || this.underColumn(k)) continue;
      this.missed.set(k, (this.missed.get(k) ?? 0) + 1);
    }
  }
  private underColumn(k: string): boolean {
    for (let i = k.indexOf('.'); i > 0; i = k.indexOf('.', i + 1)) if (this.columns.has(k.slice(0, i))) return true;
    return false;
  }
  /** `the field "extra" (in 25 rows)`, or undefined when nothing was missed. */
  summary(): string | undefined {
    if (this.missed.size === 0) return undefined;
    // The names are the service's: stripped before they reach a terminal.
    const named = [...this.missed].slice(0, 10).map(([k, n]) => `${JSON.stringify(stripControl(k))} (in ${n} row${n === 1 ? '' : 's'})`);
    const more = this.missed.size > 10 ? ` and ${this.missed.size - 10} more` : '';
    return `the field${this.missed.size === 1 ? '' : 's'} ${named.join(', ')}${more}`;
  }
}

function csvWriter(io: IOStreams, options: OutputOptions): ListWriter {
  let count = 0;
  const byPath = (paths: readonly string[]) => paths.map((k) => ({ header: k, path: k }));
  // The same columns whatever the data: a nightly export keeps its shape. A field the documents
  // do not name is left out (-o json has every field); only a resource without documented
  // fields takes its columns from the first page's rows.
  let columns: Column[] | undefined = options.columns ? columnsFromFlag(options.columns) : options.csvColumns && byPath(options.csvColumns);
  let readers: ReturnType<typeof cellReaders> | undefined;
  /** Columns taken from the first page's rows: what later rows carry beyond them. */
  let late: LateFields | undefined;
  type Cell = ReturnType<typeof csvValue>;
  // On a terminal, strings from the API lose their escape sequences; in a file they stay as sent.
  // The formula guard comes after: stripping can leave a cell beginning with `=`.
  const clean = io.stdoutIsTTY ? (v: Cell) => (typeof v === 'string' ? stripControl(v) : v) : (v: Cell) => v;
  const field = (v: Cell) => csvCell(spreadsheetCell(clean(v), options.csvFormulas));
  const headerLine = (cols: Column[]) => (options.bom ? '\ufeff' : '') + csvLine(cols.map((c) => spreadsheetCell(clean(c.header), options.csvFormulas) as string));
  return {
    get count() {
      return count;
    },
    async write(rows) {
      if (rows.length === 0) return;
      if (!columns) {
        const keys = new Set<string>();
        const values = new Set<string>();
        for (const r of rows) for (const k of flattenKeys(r, '', [], values)) keys.add(k);
        const merged = mergeColumnKeys([...keys], values);
        // A field that is an object in other rows: its own column holds the rows' other values.
        const parents = parentKeys(merged);
        columns = merged.map((k) => (parents.has(k) ? { header: k, path: k, value: (row: Row) => notAnObject(getPath(row, k)) } : { header: k, path: k }));
        late = new LateFields(columns.map((c) => c.path));
      } else if (late) for (const r of rows) late.note(r);
      const read = (readers ??= cellReaders(columns));
      let text = count === 0 ? headerLine(columns) : '';
      for (let i = 0; i < rows.length; i += SLICE) {
        const end = Math.min(i + SLICE, rows.length);
        const lines: string[] = [];
        for (let j = i; j < end; j++) {
          const row = rows[j] as Row;
          const fields = new Array<string>(read.length);
          for (let k = 0; k < read.length; k++) fields[k] = field(csvValue(read[k](row)));
          lines.push(fields.join(','));
        }
        count += end - i;
        await io.write(text + lines.join('\n') + '\n');
        text = '';
      }
    },
    async end() {
      // The header is written with the first page: a field that only later pages carry has no
      // column, which is said rather than lost in silence.
      const missed = late?.summary();
      if (missed) io.warn(`-o csv: ${missed} first came after the header was written, so the file has no column for it: -o json keeps every field, or name the columns with --columns`);
      if (count > 0) return;
      // An empty list is still a CSV file with its header: a script reading it finds the
      // columns. Without documented fields they are the resource's default ones, by API name.
      const cols = columns ?? byPath(options.defaults.map((c) => c.path));
      if (cols.length) await io.write(headerLine(cols));
    },
  };
}

function tableWriter(io: IOStreams, options: OutputOptions): ListWriter {
  const columns = options.columns ? tableColumnsFromFlag(options.columns) : options.defaults;
  const readers = cellReaders(columns);
  const rows: string[][] = [];
  let count = 0;
  // Into a pipe nothing is fitted, so each batch goes out as it comes (the header with the
  // first) rather than every row of a long list being held until the end.
  const streamed = !io.stdoutIsTTY;
  return {
    get count() {
      return count;
    },
    holdsRows: !streamed,
    async write(batch) {
      const cells = batch.map((r) => readers.map((read) => cleanCell(displayValue(read(r as Row)))));
      if (streamed && cells.length > 0) await writeTable(io, columns, cells, count === 0);
      else for (const c of cells) rows.push(c);
      count += cells.length;
    },
    async end() {
      if (count === 0) {
        // Into a pipe the table is still a header row then its rows, none here: a script
        // reading it finds the columns, as in an empty CSV file.
        if (streamed) await writeTable(io, columns, []);
        io.info('no results');
        return;
      }
      if (!streamed) await writeTable(io, columns, rows);
    },
    async note(line) {
      if (!io.stdoutIsTTY) return io.info(line);
      await io.note(line);
    },
  };
}

/**
 * A table at a terminal, then the line naming the columns it left out (io.note: after its rows,
 * in the pager when one shows them, else on stderr). Into a pipe, the tab-separated table alone.
 */
export async function writeTable(io: IOStreams, columns: TableColumn[], rows: string[][], withHeader = true): Promise<void> {
  const { text, leftOut } = await laidOutTable(io, columns, rows, withHeader);
  await io.write(text);
  if (leftOut) await io.note(leftOut);
}

/** The table alone, as writeTable writes it. */
export async function renderTable(io: IOStreams, columns: TableColumn[], rows: string[][], withHeader = true): Promise<string> {
  return (await laidOutTable(io, columns, rows, withHeader)).text;
}

/**
 * At a terminal, a borderless table in the style of gh fitted to its width (see table.ts):
 * ids, dates, statuses and e-mail addresses whole, free text cut with `…`, the columns that
 * matter least left out when nothing else fits, and named on a line after the table; no row
 * ever wraps. Into a pipe or a file, the same
 * table tab-separated: a header row, one line per row, nothing cut, no colour unless forced.
 */
async function laidOutTable(io: IOStreams, columns: TableColumn[], rows: string[][], withHeader: boolean): Promise<{ text: string; leftOut?: string }> {
  // Without colour a status reads as it is: not even looked up (a bulk report has thousands).
  const status = columns.map((c) => io.colorEnabled && (isStatusField(c.path) || isStatusField(c.header)));
  const color = io.color;
  const paintCell = (text: string, col: number) => (status[col] ? colorStatus(color, text) : text);
  if (!io.stdoutIsTTY) {
    // Tabs and line breaks inside a cell become spaces (tsvCell), so each row is one line.
    const lines = rows.map((r) => r.map((cell, col) => paintCell(tsvCell(cell), col)).join('\t'));
    if (withHeader) lines.unshift(tsvLine(columns.map((c) => c.header)));
    return { text: lines.join('\n') + '\n' };
  }
  await loadMeasure();
  const width = io.terminalWidth();
  const fit = fitColumns(columns, rows, width);
  const index = new Map(columns.map((c, i) => [c, i]));
  const table = layoutTable(columns, rows, fit, { header: (s) => io.color.bold(s), cell: (s, c) => paintCell(s, index.get(c)!) }).join('\n') + '\n';
  if (fit.dropped.length === 0) return { text: table };
  const leftOut = fit.dropped.map((i) => columns[i].header).join(', ');
  return { text: table, leftOut: `columns left out to fit ${width} columns: ${leftOut} (widen the terminal, or --columns)` };
}

/** A value, or nothing where it is an object (whose fields have columns of their own). */
function notAnObject(value: unknown): unknown {
  return isPlainObject(value) ? undefined : value;
}
