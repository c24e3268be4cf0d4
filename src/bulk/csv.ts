// Reading a bulk input file: CSV with a header row, every record tagged with the line it
// came from, so every error can name the file, the line and the column.
import { CsvError, parse } from 'csv-parse/sync';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError, type FieldErrors } from '../errors.js';
import { parseInteger } from '../commands/shared/flags.js';
import { REQUIRED } from '../api/schemas/messages.js';
import { unguardFormula } from '../output/spreadsheet.js';
import { utf8Input } from './decode.js';
import { writeReportFile } from './report.js';
import type { Outcome } from './runner.js';
import type { Context } from '../context.js';

export interface CsvRow {
  /** 1-based line number in the file where the record starts (a quoted cell may span lines). */
  line: number;
  values: Record<string, string>;
}

export interface CsvFile {
  name: string;
  columns: string[];
  rows: CsvRow[];
  /** The separator the header was split with. */
  delimiter: string;
  /** Number cells use a decimal comma (`12,5`): a `;`-separated file, or --decimal-comma. */
  decimalComma: boolean;
}

/** The flags of every command that reads a CSV file. */
export interface FileReadFlags {
  encoding?: string;
  delimiter?: string;
  decimalComma?: boolean;
}

export interface ReadOptions extends FileReadFlags {
  /** Every column the command reads (aliases included): the separator is the one that finds them. */
  known?: readonly string[];
}

/** The separators spreadsheet programs write, in the order a tie is settled. */
const DELIMITERS = [',', ';', '\t', '|'];

/** How messages name a file: by its base name, or stdin for `-`. */
export function fileLabel(file: string): string {
  return file === '-' ? 'stdin' : basename(file);
}

/** Reads the whole file (`-` for stdin) and checks that the required columns are there. */
export async function readCsv(file: string, stdin: Readable, required: string[] = [], opts: ReadOptions = {}): Promise<CsvFile> {
  const name = fileLabel(file);
  const bytes = await utf8Input(await readInput(file, stdin), name, opts.encoding);
  const delimiter = chooseDelimiter(bytes, name, opts.delimiter, opts.known ?? required);
  let header: string[] | undefined;
  const readHeader = (cells: string[], line: number) => {
    // The guard sct puts on formula-like cells comes off first, so a cell reads as it was
    // before it was written.
    const names = cells.map(unguardFormula);
    header = names.map(normalizeHeader);
    const problem = headerProblem(name, line, names, header);
    if (problem) throw problem;
  };
  const { records, starts } = quoteFreeRecords(bytes, delimiter) ?? parsedRecords(bytes, name, readHeader, delimiter);
  if (!header && records.length > 0) readHeader(records[0], starts[0]);
  const columns = header ?? [];
  const rows: CsvRow[] = [];
  for (let i = 1; i < records.length; i++) {
    const values = records[i];
    if (values.length !== columns.length) {
      const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
      throw new UsageError(`${name} line ${starts[i]}: ${count(values.length, 'cell')}, but the header has ${count(columns.length, 'column')}`);
    }
    // defineProperty semantics (as fromEntries), not assignment: a column named __proto__
    // stays an ordinary field. Built without an array of entries per row, and the record is
    // let go as its row is made, so a million rows are not held twice.
    const row: Record<string, string> = {};
    for (let j = 0; j < values.length; j++) {
      if (columns[j] === '__proto__') Object.defineProperty(row, '__proto__', { value: unguardFormula(values[j]), enumerable: true, writable: true, configurable: true });
      else row[columns[j]] = unguardFormula(values[j]);
    }
    records[i] = NO_CELLS;
    rows.push({ line: starts[i], values: row });
  }
  if (rows.length === 0) throw new UsageError(`${name} has no data rows (a header row and at least one row are needed)`);
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw new UsageError(`${name}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (found: ${columns.join(', ') || 'none'})`);
  }
  return { name, columns, rows, delimiter, decimalComma: opts.decimalComma === true || delimiter === ';' };
}

/**
 * The separator that splits the header line into the most columns the command knows (a tie goes
 * to the first of `,`, `;`, tab, `|`). --delimiter wins; a header in which no separator finds a
 * known column is refused, saying what was found, rather than read as one strange column.
 */
function chooseDelimiter(bytes: Buffer, name: string, given: string | undefined, known: readonly string[]): string {
  if (given !== undefined) {
    const d = given === '\\t' || given.toLowerCase() === 'tab' ? '\t' : given;
    if ([...d].length !== 1 || d === '"' || d === '\n' || d === '\r') throw new UsageError(`--delimiter ${JSON.stringify(given)}: one character, e.g. ";" or tab`);
    return d;
  }
  const end = bytes.indexOf(0x0a);
  const header = bytes.toString('utf8', 0, end < 0 ? Math.min(bytes.length, 65536) : end).replace(/\r$/, '');
  if (known.length === 0) return ',';
  const names = (d: string) => header.split(d).map((c) => normalizeHeader(unguardFormula(c.trim().replace(/^"(.*)"$/, '$1'))));
  let best = ',';
  let found = 0;
  for (const d of DELIMITERS) {
    const n = names(d).filter((c) => known.includes(c)).length;
    if (n > found) [best, found] = [d, n];
  }
  if (found === 0 && header.trim() !== '') {
    throw new UsageError(
      `${name} line 1: no known column in the header (found: ${names(',').join(', ')}; tried the separators , ; tab |)`,
      undefined,
      `the columns are ${known.join(', ')}; give --delimiter if the file uses another separator`,
    );
  }
  return best;
}

interface Records {
  records: string[][];
  /** The line each record starts on. */
  starts: number[];
}

/**
 * The records as csv-parse reads them. `onHeader` sees the first record as soon as it is read,
 * so that a bad header is reported before a CSV error further down.
 */
export function parsedRecords(bytes: Buffer, name: string, onHeader: (cells: string[], line: number) => void, delimiter = ','): Records {
  const lines = new LineCounter(bytes);
  const starts: number[] = [];
  let records: string[][];
  try {
    records = parse(bytes, {
      bom: true,
      delimiter,
      trim: true,
      skip_empty_lines: true,
      // The header is read as a record like the others, and cells are counted by the caller:
      // both so that every message names the line its record starts on.
      relax_column_count: true,
      // Called in file order as each record is parsed, so when the parser fails, the counter
      // has seen every record before the failing one.
      on_record: (cells, info) => {
        const line = lines.record(info.bytes);
        if (starts.length === 0) onHeader(cells, line);
        starts.push(line);
        return cells;
      },
    });
  } catch (err) {
    if (err instanceof CsvError) throw new UsageError(`${name} line ${lines.nextRecord()}: ${csvProblem(err)}`);
    throw err;
  }
  return { records, starts };
}

/**
 * The records of a file without a `"` in it and with one kind of line end (LF, or CRLF), read
 * as csv-parse reads them (a test holds the two to the same answers) at a fraction of its cost
 * per row: each line is one record, cut at the separator, cells trimmed, blank lines skipped.
 * Undefined for any other file (UTF-16, quotes, CR or mixed line ends): csv-parse reads those.
 */
export function quoteFreeRecords(bytes: Buffer, delimiter = ','): Records | undefined {
  if (bytes.includes(QUOTE) || (bytes[0] === 0xff && bytes[1] === 0xfe)) return undefined;
  let text = bytes.toString('utf8');
  if (text.startsWith('\ufeff')) text = text.slice(1);
  const crlf = text.includes('\r');
  const end = crlf ? '\r\n' : '\n';
  const records: string[][] = [];
  const starts: number[] = [];
  // Line by line with indexOf rather than one split: an array of every line of a million-row
  // file would be held beside the records.
  for (let at = 0, number = 1; at <= text.length; number++) {
    const next = text.indexOf(end, at);
    const line = text.slice(at, next < 0 ? text.length : next);
    at = next < 0 ? text.length + 1 : next + end.length;
    if (crlf && (line.includes('\r') || line.includes('\n'))) return undefined;
    // Cells are trimmed of what String.prototype.trim removes, the same characters as csv-parse.
    if (line.trim() === '') continue;
    const cells = line.split(delimiter);
    for (let j = 0; j < cells.length; j++) cells[j] = cells[j].trim();
    records.push(cells);
    starts.push(number);
  }
  return { records, starts };
}

const QUOTE = 0x22;
const NO_CELLS: string[] = [];

/**
 * The whole input at once: the rows are all kept anyway, and line numbers are counted on the
 * file's own text.
 */
async function readInput(file: string, stdin: Readable): Promise<Buffer> {
  try {
    if (file !== '-') return await readFile(file);
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks);
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/**
 * Line numbers as an editor shows them (a line ends at CRLF, LF or a lone CR), counted on the
 * file's text between the ends of records. csv-parse's own count is where a record ends, and it
 * counts a CRLF inside quotes twice.
 */
class LineCounter {
  /** csv-parse reads a file that starts with a UTF-16 byte order mark as UTF-16. */
  private readonly encoding: BufferEncoding;
  /** Where the last record read ended (after its line end), in bytes. */
  private end = 0;
  /** The line that byte is on. */
  private line = 1;
  /** The last record ended in CR: a LF just after it ends the same line. */
  private afterCR = false;

  constructor(private readonly bytes: Buffer) {
    this.encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf16le' : 'utf8';
  }

  /** The first line of the record that ends at byte `end`. */
  record(end: number): number {
    const text = this.bytes.toString(this.encoding, this.end, end);
    const first = this.start(text);
    this.line += lineEnds(text, this.afterCR);
    this.afterCR = text.endsWith('\r');
    this.end = end;
    return first;
  }

  /** The first line of the record after the last one read (the one the parser failed on). */
  nextRecord(): number {
    return this.start(this.bytes.toString(this.encoding, this.end));
  }

  /** Blank lines skipped before a record come first in its text; its own first line follows them. */
  private start(text: string): number {
    return this.line + lineEnds(/^\s*/.exec(text)![0], this.afterCR);
  }
}

function lineEnds(text: string, afterCR: boolean): number {
  const ends = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  return afterCR && text.startsWith('\n') ? ends - 1 : ends;
}

/** csv-parse's message in the words of someone fixing the file, without its own line count. */
function csvProblem(err: CsvError): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted cell is never closed (a " is missing): the record that starts here runs to the end of the file';
    case 'INVALID_OPENING_QUOTE':
      return 'a " inside a cell that does not start with one (quote the whole cell, and write a " inside it as "")';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'text after the closing " of a quoted cell (write a " inside a quoted cell as "")';
    default:
      return err.message.replace(/ (at|on) line \d+/, '');
  }
}

/** Header names are matched case-insensitively, with spaces and dashes read as underscores. */
function normalizeHeader(h: string): string {
  return h.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/**
 * Two headers that read as the same column (`type` and `Type`) would leave one of them silently
 * ignored, and a nameless one cannot be matched: both are refused before any row is read.
 */
function headerProblem(file: string, line: number, raw: string[], names: string[]): UsageError | undefined {
  const blank = names.findIndex((n) => n === '');
  if (blank >= 0 && names.length > 1) return new UsageError(`${file} line ${line}: column ${blank + 1} has no name`);
  for (let i = 0; i < names.length; i++) {
    const first = names.indexOf(names[i]);
    if (first !== i) {
      return new UsageError(`${file} line ${line}: columns ${first + 1} ("${raw[first].trim()}") and ${i + 1} ("${raw[i].trim()}") are the same column, ${names[i]}`);
    }
  }
  return undefined;
}

/**
 * Columns the command does not read (names, notes) are allowed, but said: a misspelt header
 * would otherwise drop its data without a word. `used` are the headers read (aliases included),
 * `known` the names to suggest.
 */
export function warnIgnoredColumns(io: { warn(line: string): void }, csv: CsvFile, used: readonly string[], known: readonly string[] = used): void {
  const ignored = csv.columns.filter((c) => !used.includes(c));
  if (ignored.length) io.warn(`${csv.name}: ignoring column${ignored.length > 1 ? 's' : ''} ${ignored.join(', ')} (known: ${known.join(', ')})`);
}

/**
 * Columns naming a field the service returns but does not take (`id`, `company_id`,
 * `value_chain_detail.name`, …), as a file written by `sct … list -o csv` has them: taken out of
 * the file's columns with one info line, so such a file reads back. `takes` are the columns the
 * command reads; `returned` the resource's documented fields (a dotted column by its first part).
 */
export function dropReadOnlyColumns(io: { info(line: string): void }, csv: CsvFile, takes: readonly string[], returned: readonly string[]): void {
  const readOnly = csv.columns.filter((c) => !takes.includes(c) && returned.includes(c.split('.')[0]));
  if (readOnly.length === 0) return;
  csv.columns = csv.columns.filter((c) => !readOnly.includes(c));
  const shown = readOnly.length > 6 ? `${readOnly.slice(0, 6).join(', ')} and ${readOnly.length - 6} more` : readOnly.join(', ');
  io.info(`${csv.name}: ignoring ${readOnly.length} column${readOnly.length > 1 ? 's' : ''} the service sets itself (${shown})`);
}

/** Collects every row error before failing, so one run shows all that must be fixed. */
export class RowErrors {
  private readonly errors: { line: number; column?: string; message: string }[] = [];
  constructor(private readonly file: string) {}

  add(line: number, column: string | undefined, message: string): void {
    this.errors.push({ line, column, message });
  }

  get size(): number {
    return this.errors.length;
  }

  /** The lines that have an error. */
  lines(): Set<number> {
    return new Set(this.errors.map((e) => e.line));
  }

  /** One `invalid` outcome per bad row, its errors as the report's field messages. */
  outcomes(): Outcome[] {
    const byLine = new Map<number, Outcome>();
    for (const e of this.errors) {
      let o = byLine.get(e.line);
      if (!o) byLine.set(e.line, (o = { key: `line ${e.line}`, lines: [e.line], status: 'invalid', error: 'invalid', fields: {} }));
      (o.fields![e.column ?? 'row'] ??= []).push(e.message);
    }
    return [...byLine.values()].sort((a, b) => a.lines[0] - b.lines[0]);
  }

  /**
   * Every row checked, before anything is sent. Without --skip-invalid any invalid row is exit 2
   * (the --report written first, with every invalid row); with it, the invalid rows are said
   * and returned for the report of the run, which ends in exit 3.
   */
  settle(ctx: Pick<Context, 'io' | 'flags'>, flags: { skipInvalid?: boolean; report?: string }): Outcome[] {
    if (this.errors.length === 0) return [];
    const invalid = this.outcomes();
    if (!flags.skipInvalid) {
      if (flags.report) writeReportFile(flags.report, invalid, { csvFormulas: ctx.flags.csvFormulas });
      this.throwIfAny(flags.report ? `every invalid row is in ${flags.report}; --skip-invalid sends the valid rows` : '--skip-invalid sends the valid rows and reports the others');
    }
    ctx.io.warn(`${this.file}: ${invalid.length} invalid row${invalid.length > 1 ? 's' : ''} left out (--skip-invalid): ${invalid.slice(0, 10).map((o) => o.lines[0]).join(', ')}${invalid.length > 10 ? ', …' : ''}`);
    return invalid;
  }

  /** Exit 2 with every problem listed (`line 4, volume: expected a number`); nothing was sent. */
  throwIfAny(hint?: string): void {
    if (this.errors.length === 0) return;
    const fields: FieldErrors = {};
    const shown = this.errors.slice(0, 50);
    for (const e of shown) (fields[`line ${e.line}${e.column ? `, ${e.column}` : ''}`] ??= []).push(e.message);
    const more = this.errors.length - shown.length;
    const rows = new Set(this.errors.map((e) => e.line)).size;
    throw new UsageError(
      `${this.file}: ${rows} invalid row${rows > 1 ? 's' : ''}; nothing was sent`,
      fields,
      [more > 0 ? `${more} more error${more > 1 ? 's' : ''} not shown` : '', hint ?? ''].filter(Boolean).join('; ') || undefined,
    );
  }
}

/** A required id cell, or undefined after recording what is wrong with it. */
export function idCell(raw: string | undefined, line: number, column: string, errors: RowErrors): number | undefined {
  const text = raw?.trim() ?? '';
  if (!text) {
    errors.add(line, column, REQUIRED);
    return undefined;
  }
  try {
    return parseInteger(text, column);
  } catch {
    errors.add(line, column, `"${text}" is not a whole number 0..2147483647`);
    return undefined;
  }
}

/**
 * A number cell in the file's convention, as the plain decimal the service takes (`1234.5`).
 * With decimal commas, `1.234,5` and `12,5` read as 1234.5 and 12.5, and `12.5` (which cannot
 * be a thousands group) as 12.5. Without, a comma is refused rather than read one way or the
 * other: `1,234` is a thousand in one convention and one point two in the other. Throws an
 * Error saying what is wrong; callers add the line and column.
 */
export function decimalText(raw: string, decimalComma: boolean): string {
  const s = raw.trim();
  if (!decimalComma) {
    if (s.includes(',')) throw new Error(`"${raw}" has a comma: if it is a decimal comma, give --decimal-comma (or save the file with ; as separator)`);
    return s;
  }
  if (/^[+-]?\d{1,3}(\.\d{3})+(,\d*)?$/.test(s)) return s.replace(/\./g, '').replace(',', '.');
  if (s.includes(',') && s.includes('.')) throw new Error(`"${raw}" is not a number with a decimal comma (e.g. 1.234,5)`);
  return s.replace(',', '.');
}
