// Reading a bulk input file: CSV with a header row, every record tagged with the line it
// came from, so every error can name the file, the line and the column.
import { CsvError, parse } from 'csv-parse';
import { fileLabel, readInput } from '../util/files.js';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { PartialFailureError, UsageError, type FieldErrors } from '../errors.js';
import { ID_MAX, parseInteger } from '../util/numbers.js';
import { REQUIRED } from '../api/schemas/messages.js';
import { unguardFormula } from '../output/spreadsheet.js';
import { closest } from '../output/suggest.js';
import { cleanCell, keyShown } from '../util/sanitize.js';
import { shellWord } from '../util/shell.js';
import { isZip, notReadable, utf8Input } from './decode.js';
import { holdHeapClose } from './heap.js';
import { stopEvery, stopPoint } from '../util/process.js';
import { invalidCount, placeName, writeReportFile, type FileUnit } from './report.js';
import type { Outcome } from './runner.js';
import type { Context } from '../context.js';
import type { SheetRead } from './workbook.js';

export interface CsvRow {
  /** 1-based line number in the file where the record starts (a quoted cell may span lines). */
  line: number;
  values: Record<string, string>;
  /**
   * A workbook's cells that hold a formula's error (#N/A), by column: the row is invalid where
   * the command reads such a column (cellErrorsIn), whatever text the cell shows.
   */
  cellErrors?: Record<string, string>;
}

/** The problems of a row's error cells in the columns a command reads, as [column, message]. */
export function cellErrorsIn(row: CsvRow, columns: Iterable<string>): Array<[string, string]> {
  if (!row.cellErrors) return [];
  const out: Array<[string, string]> = [];
  for (const column of columns) {
    const message = row.cellErrors[column];
    if (message !== undefined) out.push([column, message]);
  }
  return out;
}

export interface CsvFile {
  name: string;
  columns: string[];
  rows: CsvRow[];
  /** The separator the header was split with; '' for a workbook. */
  delimiter: string;
  /** How its number cells are written (decimalText). */
  numbers: NumberStyle;
  /** The data rows read (also when `takeRows` took them and `rows` is empty). */
  rowCount: number;
}

/** A file's name and its columns. */
type NamedColumns = Pick<CsvFile, 'name' | 'columns'>;

/** A file's name and its columns, as read from its header, and how its numbers are written. */
export type FileHeader = Pick<CsvFile, 'name' | 'columns' | 'numbers'> & {
  /** Its rows come one at a time as they are read (a CSV file; a workbook comes whole): its row taker may wait between them. */
  lineByLine: boolean;
};

/** The flags of every command that reads a CSV file. */
interface FileReadFlags {
  encoding?: string;
  delimiter?: string;
  decimalComma?: boolean;
  /** The sheet of a workbook to read (the first one without). */
  sheet?: string;
}

export interface ReadOptions extends FileReadFlags {
  /** The run's signal: Ctrl-C stops the read of the file (or of stdin, or a FIFO waiting for its writer), and of its records. */
  signal?: AbortSignal;
  /** Every column the command reads (aliases included): the separator is the one that finds them. */
  known?: readonly string[];
  /**
   * Takes the rows as they are read, in file order, instead of keeping them in `rows`: a command
   * that turns rows into what it sends need not hold a million rows beside what it made of them.
   * Given the header (its columns normalised) before any row is read, it checks it (throws to
   * refuse it) and answers what takes each row. A promise the taker returns is waited for before
   * the next row where the file is read line by line (FileHeader.lineByLine); elsewhere it must
   * return none.
   */
  takeRows?: (header: FileHeader) => RowTaker;
  /** The file's bytes, when the command has read them already (to read the file twice). */
  input?: Buffer;
  /**
   * The command keeps all it makes of the file to the end (a sync plans against every row): its
   * heap only grows, and V8 held close to it (holdHeapClose) collects at every quarter's growth
   * for little. `orders sync` of a million rows: 27 s of CPU against 19 s, for 5% less memory.
   */
  keepsAll?: boolean;
}

/** What takes each row of a file as it is read (ReadOptions.takeRows). */
export type RowTaker = (row: CsvRow) => void | Promise<void>;

/**
 * A number as Excel (General: `1.23457E+11`) and LibreOffice (`1.23456789012346E+018`) write one
 * too long for their cells, a decimal comma too; the sign after the E tells it from a code
 * such as `12E3`.
 */
const SCIENTIFIC_ID = /^\d+(?:[.,]\d+)?E[+-]\d+$/i;

/**
 * Records read between two stop points: a file of a million rows is seconds of synchronous
 * work, during which a stop signal's handler would not otherwise run (src/util/process.ts).
 */
const STOP_EVERY = 2000;

/** The separators spreadsheet programs write, in the order a tie is settled. */
const DELIMITERS = [',', ';', '\t', '|'];

/**
 * Reads the whole file (`-` for stdin) and checks that the required columns are there, before
 * any row is taken. Rows are made record by record as the file is read, so a file's records are
 * never all held at once beside its rows.
 */
export async function readCsv(file: string, stdin: Readable, required: string[] = [], opts: ReadOptions = {}): Promise<CsvFile> {
  const name = fileLabel(file);
  const input = opts.input ?? (await readInput(file, stdin, { signal: opts.signal }));
  if (!opts.keepsAll) holdHeapClose(input.length);
  const workbook = isZip(input);
  // The guard sct puts on formula-like cells of a CSV file comes off, so a cell reads as it was
  // before it was written: in a workbook too, which LibreOffice (and Excel) made from that CSV
  // with the `'` kept as text. Typed into a cell, a `'` is never stored: it only marks the cell
  // as text.
  const unguard = unguardFormula;
  const rows: CsvRow[] = [];
  let take: RowTaker = (row) => void rows.push(row);
  let columns: string[] | undefined;
  /** The columns with a header, as the command sees them (a blank spacer column left out). */
  let named: string[] = [];
  /** Where the header has a blank cell between named ones: a spacer column, empty in every row. */
  let spacers: number[] = [];
  /** The columns that hold external ids (text, however many digits). */
  let idColumns: string[] = [];
  let rowCount = 0;
  let lineByLine = false;
  /** A first line `sep=;` (Excel's note of the separator): skipped, its separator used. */
  let sepLine = false;
  /** A workbook's sheet being read. */
  let sheetRead: SheetRead | undefined;
  const onRecord = (cells: string[], line: number, errorCells?: ReadonlyMap<number, string>, cellOf?: (column: number) => string): void | Promise<void> => {
    if (sepLine && line === 1) return;
    // A row with no value in any cell is a row left blank in the sheet: spreadsheet programs
    // write it as `,` (or `;`, a tab), and a workbook's blank rows are skipped too.
    const filled = lastFilled(cells);
    if (filled < 0) return;
    if (!columns) {
      // Empty cells right of the last named column are no columns: LibreOffice ends every line
      // with a separator for a column within the sheet's used area that holds nothing.
      cells = cells.slice(0, filled + 1);
      const names = cells.map(unguard);
      columns = names.map(normalizeHeader);
      const problem = headerProblem(name, line, names, columns, cellOf);
      if (problem) throw problem;
      spacers = columns.flatMap((c, j) => (c === '' ? [j] : []));
      named = columns.filter((c) => c !== '');
      idColumns = named.filter((c) => c.endsWith('external_id'));
      const missing = required.filter((c) => !named.includes(c));
      const known = opts.known ?? required;
      if (missing.length) {
        // A misspelt column is named with the closest known one, as refuseUnknownColumns does.
        const unknown = named.filter((c) => !known.includes(c));
        const said = unknownColumnsSaid(unknown, known);
        const guessed = said.guessed ? `; ${said.text}` : '';
        const problem = `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (found: ${listedColumns(named) || 'none'})${guessed}`;
        // Another sheet or a title row is the likely cause only when the row read holds none of
        // the command's columns: a real header that lacks one is said as a CSV's is.
        if (sheetRead && !named.some((c) => known.includes(c))) throw sheetHeaderProblem(name, problem, line, sheetRead);
        throw new UsageError(`${name}: ${problem}`);
      }
      // A CSV header without a known column is refused where its separator is chosen.
      if (sheetRead && known.length > 0 && !named.some((c) => known.includes(c))) {
        throw sheetHeaderProblem(name, `no known column in the header (found: ${listedColumns(named)})`, line, sheetRead);
      }
      if (opts.takeRows) take = opts.takeRows({ name, columns: named, numbers: numberStyle(delimiter, opts.decimalComma === true), lineByLine });
      return;
    }
    // A spacer column holds nothing: a value there has no field to go to, which is said.
    for (const j of spacers) {
      if (j < cells.length && cells[j]!.trim() !== '') {
        // A workbook's cell by its name (C2): its columns need not start at A.
        throw new UsageError(`${name} line ${line}: ${cellOf ? `cell ${cellOf(j)}` : `column ${j + 1}`} has a value (${JSON.stringify(cells[j]!.trim().slice(0, 40))}), but no header`);
      }
    }
    // Empty cells past the header's columns are the empty column it left out; a value there is
    // refused below, as any row of another length.
    if (cells.length > columns.length && filled < columns.length) cells = cells.slice(0, columns.length);
    if (cells.length !== columns.length) {
      const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
      throw new UsageError(`${name} line ${line}: ${count(cells.length, 'cell')}, but the header has ${count(columns.length, 'column')}`);
    }
    // defineProperty semantics (as fromEntries), not assignment: a column named __proto__
    // stays an ordinary field. Built without an array of entries per row.
    const values: Record<string, string> = {};
    for (let j = 0; j < cells.length; j++) {
      if (columns[j] === '') continue;
      if (columns[j] === '__proto__') Object.defineProperty(values, '__proto__', { value: unguard(cells[j]), enumerable: true, writable: true, configurable: true });
      else values[columns[j]] = unguard(cells[j]);
    }
    rowCount++;
    let cellErrors: Record<string, string> | undefined;
    if (errorCells) for (const [j, message] of errorCells) if (j < columns.length) (cellErrors ??= {})[columns[j]] = message;
    // A long id a spreadsheet took for a number and saved in scientific notation has lost its
    // digits: read as text, it is a new key (a sync's twin, two orders merged into one). A
    // workbook's number cells are checked as they are read (workbook.ts).
    if (delimiter !== '') {
      for (const column of idColumns) {
        const v = values[column]?.trim();
        if (v && SCIENTIFIC_ID.test(v)) (cellErrors ??= {})[column] = `"${v}" is a number a spreadsheet wrote in scientific notation: the id's digits are lost; format the column as text in the spreadsheet, type the ids again and save`;
      }
    }
    const taken = take(cellErrors ? { line, values, cellErrors } : { line, values });
    if (taken && !lineByLine) throw new Error('a row taker may wait only where the file is read line by line');
    return taken;
  };
  let delimiter = '';
  if (workbook) {
    await eachWorkbookRecord(input, name, opts, onRecord, (read) => (sheetRead = read));
    // Read in one synchronous stretch (seconds for a large sheet): a signal that came meanwhile stops it here.
    if (opts.signal) await stopPoint(opts.signal);
  }
  else {
    if (opts.sheet !== undefined) throw new UsageError(`--sheet: ${name} is a CSV file, not a workbook (.xlsx, .ods)`);
    let bytes: Buffer | undefined = await utf8Input(input, name, opts.encoding);
    const sep = excelSeparator(bytes);
    sepLine = sep !== undefined;
    delimiter = chooseDelimiter(bytes, name, opts.delimiter, opts.known ?? required, sep);
    const text = quoteFreeText(bytes);
    lineByLine = true;
    if (text === undefined) await eachParsedRecord(bytes, name, delimiter, onRecord, opts.signal);
    else {
      // The cells are slices of the text: the file's bytes are no longer needed while they are read.
      bytes = undefined;
      const pause = opts.signal && stopEvery(opts.signal, STOP_EVERY);
      for (const [cells, line] of quoteFreeRecordsOf(text, delimiter)) {
        const taken = onRecord(cells, line);
        if (taken) await taken;
        const paused = pause?.();
        if (paused) await paused;
      }
    }
  }
  if (rowCount === 0) throw new UsageError(`${name} has no data rows (a header row and at least one row are needed)`);
  return { name, columns: named, rows, delimiter, numbers: numberStyle(delimiter, opts.decimalComma === true), rowCount };
}

/**
 * The records of a ZIP that is a workbook: its first sheet or --sheet. The flags that only mean
 * something for text are refused rather than ignored. --decimal-comma still applies, to numbers
 * typed into text cells.
 */
async function eachWorkbookRecord(
  bytes: Buffer,
  name: string,
  opts: ReadOptions,
  onRecord: (cells: string[], line: number, errors?: ReadonlyMap<number, string>, cellOf?: (column: number) => string) => void,
  onSheet: (read: SheetRead) => void,
): Promise<void> {
  const kind = (await import('./zip-kind.js')).zipKind(bytes);
  if ('looksLike' in kind) throw notReadable(name, kind.looksLike);
  for (const [flag, given] of [['--encoding', opts.encoding], ['--delimiter', opts.delimiter]] as const) {
    if (given !== undefined) throw new UsageError(`${flag}: ${name} is a workbook (an .${kind.workbook}); its text is read as it is stored`, undefined, `give ${flag} only for a CSV file`);
  }
  (await import('./workbook.js')).eachSheetRecord(bytes, name, kind.workbook, opts.sheet, onRecord, onSheet);
}

/**
 * A workbook's header that is not the one the command reads, with where it was found: the
 * header is a sheet's first row that is not blank, so a first sheet of instructions or a title
 * above the header is read as it.
 */
function sheetHeaderProblem(name: string, problem: string, row: number, read: SheetRead): UsageError {
  const several = read.sheets.length > 1;
  const sheet = read.chosen ? `its sheet ${JSON.stringify(read.sheet)}` : `its ${several ? 'first' : 'only'} sheet, ${JSON.stringify(read.sheet)}`;
  return new UsageError(
    `${name}: ${problem}; the header is row ${row} of ${sheet}${several ? ` (its sheets: ${read.sheets.join(', ')})` : ''}`,
    undefined,
    `${several ? 'give --sheet NAME to read another sheet; ' : ''}sct reads a sheet's first row that is not blank as its header: delete any title rows above the header`,
  );
}

/**
 * The separator that splits the header line into the most columns the command knows (a tie goes
 * to the first of `,`, `;`, tab, `|`). --delimiter wins; a header in which no separator finds a
 * known column is refused, saying what was found, rather than read as one strange column.
 */
function chooseDelimiter(bytes: Buffer, name: string, flag: string | undefined, known: readonly string[], sep?: string): string {
  // After a `sep=` line the header is the second line, and the separator is the one it names.
  const afterSepLine = sep !== undefined;
  const given = flag ?? sep;
  const start = afterSepLine ? bytes.indexOf(0x0a) + 1 : 0;
  const end = bytes.indexOf(0x0a, start);
  const header = bytes.toString('utf8', start, end < 0 ? Math.min(bytes.length, start + 65536) : end).replace(/\r$/, '');
  const at = afterSepLine ? 'line 2' : 'line 1';
  const names = (d: string) => header.split(d).map((c) => normalizeHeader(unguardFormula(c.trim().replace(/^"(.*)"$/, '$1'))));
  const hint = `the columns are ${[...new Set(known)].join(', ')}; give --delimiter if the file uses another separator`;
  // Misspelt names are said with the known ones they are close to, as beside a known column; a
  // name holding a separator is the header cut with the wrong one, close to nothing it meant.
  const guesses = (found: string[]) => {
    const said = unknownColumnsSaid(found.filter((c) => !DELIMITERS.some((d) => c.includes(d))), known);
    return said.guessed ? `; ${said.text}` : '';
  };
  if (given !== undefined) {
    const d = given === '\\t' || given.toLowerCase() === 'tab' ? '\t' : given;
    if ([...d].length !== 1 || d === '"' || d === '\n' || d === '\r') throw new UsageError(`--delimiter ${JSON.stringify(given)}: one character, e.g. ";" or tab`);
    if (known.length > 0 && header.trim() !== '' && !names(d).some((c) => known.includes(c))) {
      throw new UsageError(`${name} ${at}: no known column in the header (found: ${listedColumns(names(d))}; tried the separator ${d === '\t' ? 'tab' : JSON.stringify(d)}, from ${flag === undefined ? 'its sep= line' : '--delimiter'})${guesses(names(d))}`, undefined, hint);
    }
    return d;
  }
  if (known.length === 0) return ',';
  let best = ',';
  let found = 0;
  for (const d of DELIMITERS) {
    const n = names(d).filter((c) => known.includes(c)).length;
    if (n > found) [best, found] = [d, n];
  }
  if (found === 0 && header.trim() !== '') {
    // The columns as the separator that cuts the header into the most cells sees them: a tab
    // header read with commas would show as one name joined by underscores.
    const widest = DELIMITERS.map(names).reduce((a, b) => (b.length > a.length ? b : a));
    throw new UsageError(
      `${name} ${at}: no known column in the header (found: ${listedColumns(widest)}; tried the separators , ; tab |)${guesses(widest)}`,
      undefined,
      hint,
    );
  }
  return best;
}

/**
 * The separator a first line `sep=;` names (Excel reads it, and files made for Excel carry it;
 * LibreOffice shows it as a row): undefined when the first line is anything else.
 */
function excelSeparator(bytes: Buffer): string | undefined {
  const end = bytes.indexOf(0x0a);
  const first = bytes.toString('utf8', 0, end < 0 ? Math.min(bytes.length, 16) : Math.min(end, 16)).replace(/\r$/, '');
  return /^"?sep=([^"\r\n])"?$/i.exec(first)?.[1];
}

interface Records {
  records: string[][];
  /** The line each record starts on. */
  starts: number[];
}

/** What takes each record of a file and the line it starts on; it may make the reading wait. */
type OnRecord = (cells: string[], line: number) => void | Promise<void>;

/** The records as csv-parse reads them, all at once. */
export async function parsedRecords(bytes: Buffer, name: string, onHeader: (cells: string[], line: number) => void, delimiter = ','): Promise<Records> {
  const records: string[][] = [];
  const starts: number[] = [];
  await eachParsedRecord(bytes, name, delimiter, (cells, line) => {
    if (records.length === 0) onHeader(cells, line);
    records.push(cells);
    starts.push(line);
  });
  return { records, starts };
}

/**
 * Each record as csv-parse reads it, in file order, with the line it starts on; a promise
 * `onRecord` returns is waited for before the next (a dry run's writing holds the reading back).
 * The parser is given the bytes 64 kB at a time and its records of each are handed on before the
 * next: given whole, it would make every record of a million-row file before the first was taken.
 * A parse error is raised once the records before it were taken: a message names the first bad
 * line, whatever came before it.
 */
async function eachParsedRecord(bytes: Buffer, name: string, delimiter: string, onRecord: OnRecord, signal?: AbortSignal): Promise<void> {
  const lines = new LineCounter(bytes, delimiter);
  let parsed: Array<[string[], number]> = [];
  let failure: unknown;
  const parser = parse({
    bom: true,
    delimiter,
    // Every line end, as an editor shows lines: left to itself csv-parse takes the first it meets
    // for the whole file, and rows added with `echo >>` to a file Excel saved (CRLF) were read as
    // one record with a line end inside a cell.
    record_delimiter: ['\r\n', '\n', '\r'],
    trim: true,
    skip_empty_lines: true,
    // Cells are counted by the caller, so that every message names the line its record starts on.
    relax_column_count: true,
    // Taken here, with where the parser was when it ended the record; answering null keeps nothing.
    on_record: (cells: string[], info) => {
      parsed.push([cells, info.bytes]);
      return null;
    },
  });
  // An error is also seen on the parser at once (`errored`); 'error' itself comes a tick later.
  parser.on('error', (err) => (failure ??= err));
  parser.resume();
  const handOn = async () => {
    const now = parsed;
    parsed = [];
    for (const [cells, end] of now) {
      const taken = onRecord(cells, lines.record(end));
      if (taken) await taken;
    }
  };
  try {
    for (const slice of slicesOf(bytes, 1 << 16)) {
      parser.write(slice);
      failure ??= parser.errored ?? undefined;
      await handOn();
      if (failure) break;
      if (signal) await stopPoint(signal);
    }
    if (!failure) {
      // The last record may end with the file, and an open quote is found only there.
      parser.end();
      await finished(parser).catch((err: unknown) => (failure ??= err));
      await handOn();
    }
    if (failure) throw failure;
  } catch (err) {
    if (err instanceof CsvError) throw new UsageError(`${name} line ${lines.nextRecord()}: ${csvProblem(err)}`);
    throw err;
  } finally {
    parser.destroy();
  }
}

function* slicesOf(bytes: Buffer, size: number): Iterable<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** The records of a quote-free file all at once (see quoteFreeText), or undefined. */
export function quoteFreeRecords(bytes: Buffer, delimiter = ','): Records | undefined {
  const text = quoteFreeText(bytes);
  if (text === undefined) return undefined;
  const records: string[][] = [];
  const starts: number[] = [];
  for (const [cells, line] of quoteFreeRecordsOf(text, delimiter)) {
    records.push(cells);
    starts.push(line);
  }
  return { records, starts };
}

/**
 * The text of a file without a `"` in it and with one kind of line end (LF, or CRLF), which
 * quoteFreeRecordsOf reads as csv-parse would (a test holds the two to the same answers) at a
 * fraction of its cost per row. Undefined for any other file (UTF-16, quotes, CR or mixed line
 * ends): csv-parse reads those.
 */
function quoteFreeText(bytes: Buffer): string | undefined {
  if (bytes.includes(QUOTE) || (bytes[0] === 0xff && bytes[1] === 0xfe)) return undefined;
  let text = bytes.toString('utf8');
  if (text.startsWith('\ufeff')) text = text.slice(1);
  // CRLF throughout, or not read here: every CR is followed by a LF and every LF follows a CR.
  if (text.includes('\r') && !(occurrences(text, '\r\n') === occurrences(text, '\r') && occurrences(text, '\r') === occurrences(text, '\n'))) return undefined;
  return text;
}

/** Each line one record, cut at the separator, cells trimmed, blank lines skipped; with its line number. */
function* quoteFreeRecordsOf(text: string, delimiter: string): Generator<[string[], number]> {
  const end = text.includes('\r') ? '\r\n' : '\n';
  // Line by line with indexOf rather than one split: an array of every line of a million-row
  // file would be held beside the records.
  for (let at = 0, number = 1; at <= text.length; number++) {
    const next = text.indexOf(end, at);
    const line = text.slice(at, next < 0 ? text.length : next);
    at = next < 0 ? text.length + 1 : next + end.length;
    // Cells are trimmed of what String.prototype.trim removes, the same characters as csv-parse.
    // A blank line is skipped, but a line of tab separators is a row of empty cells, as `,,` is.
    if (line.trim() === '' && !line.includes(delimiter)) continue;
    const cells = line.split(delimiter);
    for (let j = 0; j < cells.length; j++) cells[j] = cells[j].trim();
    yield [cells, number];
  }
}

function occurrences(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

const QUOTE = 0x22;

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

  /** The blank lines at the start of a text: white space but the separator (a lone tab is a row of empty cells), then a line end. */
  private readonly blank: RegExp;

  constructor(
    private readonly bytes: Buffer,
    delimiter: string,
  ) {
    this.encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf16le' : 'utf8';
    // A separator that is white space (tab, or a space given by --delimiter) is never blank.
    const space = /\s/.test(delimiter) ? `[^\\S\\r\\n${delimiter}]` : '[^\\S\\r\\n]';
    this.blank = new RegExp(`^(?:${space}*(?:\\r\\n|\\r|\\n))*`);
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
    return this.line + lineEnds(this.blank.exec(text)![0], this.afterCR);
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

/** The index of the last cell that holds something, -1 when none does. */
function lastFilled(cells: readonly string[]): number {
  let i = cells.length - 1;
  while (i >= 0 && cells[i] === '') i--;
  return i;
}

/** Header names are matched case-insensitively, with spaces and dashes read as underscores. */
function normalizeHeader(h: string): string {
  return h.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/**
 * Two headers that read as the same column (`type` and `Type`) would leave one of them silently
 * ignored: refused before any row is read. (A nameless one is a spacer column, read empty.)
 */
function headerProblem(file: string, line: number, raw: string[], names: string[], cellOf?: (column: number) => string): UsageError | undefined {
  // A blank header between named ones is a spacer column (its cells are checked row by row).
  const firstOf = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    if (names[i] === '') continue;
    const first = firstOf.get(names[i]) ?? i;
    firstOf.set(names[i], first);
    if (first !== i) {
      // A workbook's by their cells (B1, D1): its columns need not start at A.
      const [one, other] = cellOf ? [`cells ${cellOf(first)}`, cellOf(i)] : [`columns ${first + 1}`, `${i + 1}`];
      return new UsageError(`${file} line ${line}: ${one} ("${raw[first].trim()}") and ${other} ("${raw[i].trim()}") are the same column, ${names[i]}`);
    }
  }
  return undefined;
}

/**
 * A column the command does not read (after the read-only ones are taken out) is exit 2 with the
 * closest known name: a misspelt header (`auth_grup`) would otherwise drop its data without a
 * word. `used` are the headers read (aliases included), `known` the names to suggest.
 */
export function refuseUnknownColumns(csv: NamedColumns, used: readonly string[], known: readonly string[] = used): void {
  const unknown = csv.columns.filter((c) => !used.includes(c));
  if (unknown.length) throw new UsageError(unknownColumns(csv.name, unknown, known), {}, `the columns are ${known.join(', ')}`);
}

/** Column names said in a message: the first 20, and how many more (a header may have a million). */
const NAMED_COLUMNS = 20;

/** A name as a message says it: cut, as a header cell may be a megabyte. */
const shortName = (name: string, max: number) => (name.length > max ? `${name.slice(0, max)}…` : name);

function listedColumns(names: readonly string[]): string {
  const more = names.length - NAMED_COLUMNS;
  const shown = names.slice(0, NAMED_COLUMNS).map((n) => shortName(n, 160));
  return more > 0 ? `${shown.join(', ')} and ${more.toLocaleString('en-US')} more` : shown.join(', ');
}

/**
 * Unknown columns a close name is looked for among: past them (a header of a million columns) the
 * search would take seconds, and no one misspells the millionth.
 */
const GUESSED_COLUMNS = 10_000;

/**
 * `unknown columns colour (did you mean color?), note`: those with a close known name first, and
 * whether any has one.
 */
function unknownColumnsSaid(unknown: readonly string[], known: readonly string[]): { text: string; guessed: boolean } {
  const guessed: string[] = [];
  const others: string[] = [];
  unknown.forEach((c, i) => {
    const guess = i < GUESSED_COLUMNS ? closest(c, known) : undefined;
    if (guess) guessed.push(`${shortName(c, 100)} (did you mean ${guess}?)`);
    else others.push(c);
  });
  return { text: `unknown column${unknown.length > 1 ? 's' : ''} ${listedColumns([...guessed, ...others])}`, guessed: guessed.length > 0 };
}

/** `file: unknown columns colour (did you mean color?), note`. */
export function unknownColumns(file: string, unknown: readonly string[], known: readonly string[]): string {
  return `${file}: ${unknownColumnsSaid(unknown, known).text}`;
}

/**
 * Columns naming a field the service returns but does not take (`id`, `company_id`,
 * `value_chain_detail.name`, …), as a file written by `sct … list -o csv` has them: taken out of
 * the file's columns with one info line, so such a file reads back. `takes` are the columns the
 * command reads; `returned` the resource's documented fields (a dotted column by its first part).
 */
export function dropReadOnlyColumns(io: { info(line: string): void }, csv: NamedColumns, takes: readonly string[], returned: readonly string[]): void {
  const readOnly = csv.columns.filter((c) => !takes.includes(c) && returned.includes(c.split('.')[0]));
  if (readOnly.length === 0) return;
  csv.columns = csv.columns.filter((c) => !readOnly.includes(c));
  const shown = readOnly.length > 6 ? `${readOnly.slice(0, 6).join(', ')} and ${readOnly.length - 6} more` : readOnly.join(', ');
  io.info(`${csv.name}: ignoring ${readOnly.length} column${readOnly.length > 1 ? 's' : ''} the service sets itself (${shown})`);
}

/** A quoted cell past this is cut in a row's message (stderr and the report alike). */
const QUOTED_MAX = 60;

/**
 * A row's message with the cells it quotes as they are: a control character shown as its escape
 * (a NUL before `217`, stripped before a terminal, made a good id look refused), and a cell of
 * 100,000 characters cut to its start and its length.
 */
export function asQuoted(message: string): string {
  // A quoted cell may hold an escaped quote (`"dup\"q"`, as JSON.stringify writes one).
  return message.replace(/"((?:[^"\\]|\\.)*)"/g, (whole, cell: string) => {
    const shown = cell.length > QUOTED_MAX ? `${cell.slice(0, QUOTED_MAX)}…` : cell;
    const visible = shown.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return cell.length > QUOTED_MAX ? `"${visible}" (${cell.length.toLocaleString('en-US')} characters)` : visible === cell ? whole : `"${visible}"`;
  });
}

/** Collects every row error before failing, so one run shows all that must be fixed. */
export class RowErrors {
  private readonly errors: { line: number; column?: string; message: string }[] = [];
  /** A feature's key (its external_id) by its number: the report names it so, as a plot file's reading does. */
  private readonly keys = new Map<number, string>();
  /** `unit`: what the file's numbers count, its rows' lines or a plot file's features ("feature 3, name: …"). */
  constructor(
    private readonly file: string,
    private readonly unit: FileUnit = 'row',
  ) {}

  /** The key the report and the warning name a line's unit by (a feature's external_id), instead of "feature 4". */
  name(line: number, key: string): void {
    this.keys.set(line, key);
  }

  /** "line 4" or "feature 4". */
  private at(line: number): string {
    return placeName(this.unit, line);
  }

  add(line: number, column: string | undefined, message: string): void {
    this.errors.push({ line, column, message: asQuoted(message) });
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
      if (!o) byLine.set(e.line, (o = { key: this.keys.get(e.line) ?? this.at(e.line), lines: [e.line], status: 'invalid', error: 'invalid', fields: {} }));
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
      const u = this.unit;
      this.throwIfAny(flags.report ? `every invalid ${u} is in ${shellWord(flags.report)}; --skip-invalid sends the valid ${u}s (with --force to replace that report)` : `--skip-invalid sends the valid ${u}s and reports the others`);
    }
    // Rows by their lines; features by their keys, as a plot file's reading names them.
    const named = invalid.slice(0, 10).map((o) => (this.keys.has(o.lines[0]!) ? keyShown(o.key) : o.lines[0]));
    ctx.io.warn(`${this.file}: ${invalidCount(invalid.length, this.unit)} left out (--skip-invalid): ${named.join(', ')}${invalid.length > 10 ? ', …' : ''}`);
    // Without a report (a dry run has none), stderr is the one place that says why.
    if (!flags.report) {
      const shown = [...this.errors].sort((a, b) => a.line - b.line).slice(0, 10);
      for (const e of shown) ctx.io.error(cleanCell(`  ${this.at(e.line)}${e.column ? `, ${e.column}` : ''}: ${e.message}`));
      if (this.errors.length > shown.length) ctx.io.error(`  … and ${this.errors.length - shown.length} more (--report FILE lists them all)`);
    }
    return invalid;
  }

  /** Exit 2 with every problem listed (`line 4, volume: expected a number`); nothing was sent. */
  throwIfAny(hint?: string): void {
    if (this.errors.length === 0) return;
    const fields: FieldErrors = {};
    // In file order, whatever order the checks found them in (role names are looked up last).
    const shown = [...this.errors].sort((a, b) => a.line - b.line).slice(0, 50);
    for (const e of shown) (fields[`${this.at(e.line)}${e.column ? `, ${e.column}` : ''}`] ??= []).push(e.message);
    const more = this.errors.length - shown.length;
    const rows = new Set(this.errors.map((e) => e.line)).size;
    throw new UsageError(`${this.file}: ${invalidCount(rows, this.unit)}; nothing was sent${notAllListed(shown.length, more)}`, fields, hint);
  }
}

/**
 * " (the first 50 errors are listed, 32 more are not: …)" when an error lists some of its
 * problems: said in its message, which the JSON error object carries too, so a script reading
 * its `fields` learns that they are not all there. "" when none is left out.
 */
export function notAllListed(listed: number, more: number): string {
  return more > 0 ? ` (the first ${listed} errors are listed, ${more} more are not: --report FILE lists them all)` : '';
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
    errors.add(line, column, `"${text}" is not a whole number 0..${ID_MAX}`);
    return undefined;
  }
}

/**
 * How a file writes its numbers: with a decimal comma (a `;`-separated file, or --decimal-comma),
 * a decimal point (a `,`-separated file, whose cells cannot hold a bare comma; a workbook, whose
 * numbers are numbers), or either (tab or `|`: the separator does not say).
 */
/**
 * 'comma': --decimal-comma was given. 'semicolon': the file is ;-separated, as spreadsheets
 * with decimal commas write it, but LibreOffice and Excel in an English locale write `;` files
 * with decimal points too, so a dot that may be either is refused there.
 */
export type NumberStyle = 'comma' | 'semicolon' | 'point' | 'either';

function numberStyle(delimiter: string, decimalComma: boolean): NumberStyle {
  if (decimalComma) return 'comma';
  if (delimiter === ';') return 'semicolon';
  return delimiter === ',' || delimiter === '' ? 'point' : 'either';
}

/** `1.234`, `12.500.000`: dots that group thousands when a comma is the decimal mark. */
const DOT_GROUPED = /^[+-]?[1-9]\d{0,2}(\.\d{3})+(,\d*)?$/;
/** `1.234`: one group of three after the dot, nothing else; a decimal in the other convention. */
const ONE_DOT_GROUP = /^[+-]?[1-9]\d{0,2}\.\d{3}$/;
/** `1,250.50`: commas that group thousands beside a decimal point. */
const COMMA_GROUPED_POINT = /^[+-]?[1-9]\d{0,2}(,\d{3})+\.\d+$/;
/** `12,500,000`: commas that group thousands more than once, no decimal mark. */
const COMMA_GROUPED_TWICE = /^[+-]?[1-9]\d{0,2}(,\d{3}){2,}$/;
/** `1,250`: one group of three after the comma, nothing else; a thousands group in the other convention. */
const ONE_COMMA_GROUP = /^[+-]?[1-9]\d{0,2},\d{3}$/;

/**
 * A number cell in the file's convention, as the plain decimal the service takes (`1234.5`).
 * With decimal commas, `1.234,5` and `12,5` read as 1234.5 and 12.5, and `12.5` (which cannot
 * be a thousands group) as 12.5; `1.234` alone is 1234 and `1,250` alone 1.25 only with
 * --decimal-comma, since a ;-separated file from an English locale writes one point two three
 * four, and a grouped twelve hundred and fifty, so. Otherwise a comma is refused rather than read one way or the
 * other: `1,234` is a thousand in one convention and one point two in the other; and where the
 * separator does not settle the convention, so is `1.250`; unless `o.max`, the cell's bound (a
 * latitude's 90), leaves only one of the two readings. Throws an Error saying what is wrong;
 * callers add the line and column.
 */
export function decimalText(raw: string, numbers: NumberStyle, o: { max?: number } = {}): string {
  const s = raw.trim();
  // Where only one of the two readings is within the cell's bound (a latitude is never 5350),
  // that one is the cell's: refused otherwise.
  const settle = (a: string, b: string, why: string): string => {
    if (o.max !== undefined) {
      const [inA, inB] = [Math.abs(Number(a)) <= o.max, Math.abs(Number(b)) <= o.max];
      if (inA !== inB) return inA ? a : b;
      // Neither: what to write instead is no question of convention.
      if (!inA) throw new Error(`"${raw}" reads as ${Number(a)} or as ${Number(b)}, and neither is within -${o.max}..${o.max}`);
    }
    throw new Error(why);
  };
  if (numbers !== 'comma' && numbers !== 'semicolon') {
    // 1,250.50 (a US sheet's grouping): commas that group and a decimal point, one reading only.
    if (COMMA_GROUPED_POINT.test(s)) return s.replace(/,/g, '');
    if (s.includes(',')) throw new Error(`"${raw}" has a comma: if it is a decimal comma, give --decimal-comma (or save the file with ; as separator)`);
    if (numbers === 'either' && DOT_GROUPED.test(s)) {
      const comma = s.replace(/\./g, '');
      // Two dots are no decimal point: 12.500.000 has the one reading.
      if (s.indexOf('.') !== s.lastIndexOf('.')) return comma;
      // Offered as it reads one way only: 1.234 as itself would be refused again, 1.2340 is not.
      const point = String(Number(s)) === s.replace(/^\+/, '') ? `${s}0` : String(Number(s));
      return settle(
        s,
        comma,
        `"${raw}" reads as ${Number(s)} with a decimal point and as ${comma} with a decimal comma, and the file's separator does not say which: write ${point} or ${comma}, give --decimal-comma, or save the file with , or ; as separator`,
      );
    }
    return s;
  }
  if (numbers === 'semicolon') {
    // Offered as they read one way only: 1,250 and 1.250 are each refused here.
    if (ONE_DOT_GROUP.test(s)) {
      const comma = s.replace('.', '');
      return settle(
        s,
        comma,
        `"${raw}" reads as ${comma} with a decimal comma and as ${Number(s)} with a decimal point, and a ;-separated file may be written either way: write ${comma} or ${String(Number(s)).replace('.', ',')}, or give --decimal-comma if its dots group thousands`,
      );
    }
    // Its mirror, as LibreOffice and Excel in an English locale write a grouped 1250 into a
    // ;-separated file: read as 1.25 it would be a thousandth of the volume, without a word.
    if (ONE_COMMA_GROUP.test(s)) {
      const point = s.replace(',', '.');
      const grouped = s.replace(',', '');
      return settle(
        point,
        grouped,
        `"${raw}" reads as ${Number(point)} with a decimal comma and as ${grouped} with a comma grouping thousands (as an English locale writes a ;-separated file), and a ;-separated file may be written either way: write ${String(Number(point)).replace('.', ',')} or ${grouped}, or give --decimal-comma if its commas are decimal`,
      );
    }
    // Commas grouping more than once, or beside a decimal point, read one way only.
    if (COMMA_GROUPED_TWICE.test(s) || COMMA_GROUPED_POINT.test(s)) return s.replace(/,/g, '');
  }
  if (DOT_GROUPED.test(s)) return s.replace(/\./g, '').replace(',', '.');
  if (s.includes(',') && s.includes('.')) throw new Error(`"${raw}" is not a number with a decimal comma (e.g. 1.234,5)`);
  return s.replace(',', '.');
}

/**
 * The end of a dry run that --skip-invalid let go on past invalid rows: exit 3, as the real run
 * would end, so a script trying a file first learns that rows would be left out.
 */
export function endDryRun(file: string, invalid: readonly Outcome[] | undefined, unit: FileUnit = 'row'): void {
  if (!invalid?.length) return;
  throw new PartialFailureError(`${file}: ${invalidCount(invalid.length, unit)} left out (--skip-invalid); nothing sent (dry run)`);
}
