// Reading a workbook (.xlsx, .ods) as the records of one sheet: what the CSV reader gets from a
// file, with the sheet's own row numbers. Loaded, SheetJS with it, only when a file is a
// workbook (src/bulk/zip-kind.ts); docs/decisions/workbooks.md has the comparison behind it.
import { read, utils, type CellObject } from '@e965/xlsx';
import { UsageError } from '../errors.js';
import type { WorkbookKind } from './zip-kind.js';
import { damagedFile, damagedText } from '../util/zip-check.js';

/** The sheet read, told before its records: where a header that is not one was found. */
export interface SheetRead {
  sheet: string;
  /** The workbook's sheets, in order. */
  sheets: string[];
  /** Named by --sheet, not taken as the first. */
  chosen: boolean;
}

/**
 * Each record of the sheet named `sheet`, or of the first sheet, in order: its cells as text
 * from the sheet's first used column, and its sheet row number. Text cells stay as stored
 * (`00123`), numbers are plain decimals, dates `YYYY-MM-DD`, formulas their computed value.
 * Blank rows are skipped, as blank lines of a CSV file are.
 */
export function eachSheetRecord(
  bytes: Buffer,
  name: string,
  kind: WorkbookKind,
  sheet: string | undefined,
  onRecord: (cells: string[], row: number, errors?: ReadonlyMap<number, string>, cellOf?: (column: number) => string) => void,
  onSheet?: (read: SheetRead) => void,
): void {
  const damaged = damagedFile(bytes);
  if (damaged !== undefined) throw new UsageError(`${name} is ${damagedText(damaged)}`);
  let book: ReturnType<typeof read>;
  try {
    book = readBook(bytes, kind, sheet ?? 0);
  } catch (err) {
    throw new UsageError(`${name}: the workbook cannot be read (${(err as Error).message})`, undefined, 'open it in a spreadsheet program and save it again, or save the sheet as CSV');
  }
  let sheetName = sheet ?? book.SheetNames[0];
  if (sheet !== undefined && !book.SheetNames.includes(sheet)) {
    // `--sheet data` for the sheet named Data: read again for it (only the sheet asked for is parsed).
    const folded = sheetNamed(book.SheetNames, sheet);
    if (folded !== undefined) {
      book = readBook(bytes, kind, folded);
      sheetName = folded;
    }
  }
  const ws = sheetName === undefined ? undefined : book.Sheets[sheetName];
  if (!ws || sheetName === undefined) {
    // SheetJS leaves out a sheet it failed to read, the error unsaid.
    if (sheetName !== undefined && book.SheetNames.includes(sheetName)) {
      throw new UsageError(`${name}: its sheet ${JSON.stringify(sheetName)} cannot be read`, undefined, 'open it in a spreadsheet program and save it again, or save the sheet as CSV');
    }
    if (sheet === undefined) throw new UsageError(`${name}: the workbook has no sheet`);
    throw new UsageError(`${name} has no sheet ${JSON.stringify(sheet)} (its sheets: ${book.SheetNames.join(', ')})`);
  }
  onSheet?.({ sheet: sheetName, sheets: book.SheetNames, chosen: sheet !== undefined });
  const data = (ws['!data'] ?? []) as Array<Array<CellObject | undefined> | undefined>;
  // The first column that holds a cell, from the cells: a file's <dimension> may be stale
  // (SheetJS takes it as the range; Excel and LibreOffice show every cell).
  let first = Infinity;
  for (const row of data) {
    const at = row?.findIndex((cell) => cell !== undefined) ?? -1;
    if (at >= 0 && at < first) first = at;
  }
  if (first === Infinity) first = 0;
  let header: string[] | undefined;
  for (let r = 0; r < data.length; r++) {
    const row = data[r];
    if (!row) continue;
    const cells: string[] = [];
    // Cells that hold a formula's error (#N/A, #DIV/0!): their text as a CSV export has it, and
    // the error for the row's checks, so the row is invalid on its own, not the whole file.
    let errors: Map<number, string> | undefined;
    for (let c = first; c < row.length; c++) {
      const cell = row[c];
      if (cell?.t === 'e') {
        // An error cell written without its value (SheetJS writes them so) has no text to name.
        const shown = utils.format_cell(cell) || '';
        cells.push(shown);
        (errors ??= new Map()).set(c - first, `the cell (${utils.encode_cell({ r, c })}) holds ${shown ? `the error ${shown}` : 'an error value'}`);
        continue;
      }
      try {
        cells.push(cellText(cell));
      } catch (err) {
        const column = header?.[c - first] || utils.encode_col(c);
        if (!header) throw new UsageError(`${name} line ${r + 1}, ${column} (cell ${utils.encode_cell({ r, c })}): ${(err as Error).message}`);
        // A value that cannot be read (a long id taken for a number, a formula without its value)
        // makes its row invalid, as an error value does: --skip-invalid and --report take it,
        // and in a column the command does not read it is nothing.
        cells.push(cell?.v === undefined || cell.v === null ? '' : String(cell.v));
        (errors ??= new Map()).set(c - first, `the cell (${utils.encode_cell({ r, c })}): ${(err as Error).message}`);
      }
    }
    if (cells.every((t) => t === '')) continue;
    if (!header) {
      // Blank cells right of the last named column (a sheet's used range is often wider) are no columns.
      cells.length = lastFilled(cells) + 1;
      header = cells;
    } else if (cells.length > header.length) {
      const beyond = lastFilled(cells);
      if (beyond >= header.length) {
        throw new UsageError(`${name} line ${r + 1}: cell ${utils.encode_cell({ r, c: first + beyond })} has a value, but its column has no header`);
      }
      cells.length = header.length;
    }
    while (cells.length < header.length) cells.push('');
    onRecord(cells, r + 1, errors, (column) => utils.encode_cell({ r, c: first + column }));
  }
  // The first sheet taken by default is empty (a cover sheet, a blank one Excel added): said with
  // the others, not as a file with no rows.
  if (!header && sheet === undefined && book.SheetNames.length > 1) {
    throw new UsageError(`${name}: its first sheet, ${JSON.stringify(sheetName)}, is empty (its sheets: ${book.SheetNames.join(', ')})`, undefined, 'give --sheet NAME to read another');
  }

  /** A cell's value as the text a CSV file would hold; throws for a cell with no value to give. */
  function cellText(cell: CellObject | undefined): string {
    if (!cell || cell.v === undefined || cell.v === null) {
      if (cell?.f) throw new Error(`the formula =${cell.f} has no computed value (open the file in a spreadsheet program and save it)`);
      return '';
    }
    switch (cell.t) {
      case 's':
        // As stored, as a quoted CSV cell is read: a text's spaces at either end were quoted in
        // the CSV sct exported and are the service's (ids and codes are trimmed where read). A
        // cell of spaces alone is empty.
        return String(cell.v).trim() === '' ? '' : String(cell.v);
      case 'n': {
        // A whole number in a format of zeros alone (`00000`: shown `00123`) is how a sheet keeps
        // an id's or a postcode's leading zeros: read as it is shown.
        const v = cell.v as number;
        const format = typeof cell.z === 'string' ? cell.z : '';
        if (/^0{2,}$/.test(format) && Number.isInteger(v) && v >= 0 && v < 1e15) return String(v).padStart(format.length, '0');
        // An .ods keeps the format on the column when all its cells share it, and SheetJS reads
        // only a cell's own: the text the cell shows, which the .ods holds beside the value, says
        // the same when it is the number with zeros before it.
        if (typeof cell.w === 'string' && /^0\d+$/.test(cell.w) && Number(cell.w) === v && v < 1e15) return cell.w;
        return numberText(v);
      }
      case 'b':
        return cell.v ? 'true' : 'false';
      case 'd': {
        // A sheet read again for its built-in formats (readBook) has the cell's text, not its format.
        // An .ods keeps a format all cells of a column share on the column, which SheetJS does not
        // read (the cell gets its default, m/d/yy): the shown text the .ods holds says the time.
        const byFormat = typeof cell.z === 'string' ? showsTimeOfDay(cell.z) : undefined;
        const byText = typeof cell.w === 'string' ? /\d:\d/.test(cell.w) : undefined;
        const shows = byFormat === true || byText === true ? true : (byFormat ?? byText);
        return dateText(cell.v instanceof Date ? cell.v : new Date(String(cell.v)), shows);
      }
      default:
        return '';
    }
  }
}

/**
 * The workbook, with the sheet `sheets` names parsed. A file may name a format by its number
 * alone (currency 5-8, accounting 41-44, the East Asian dates 27-36 and 50-58, as openpyxl and
 * Excel in Chinese or Japanese write them); SheetJS knows their text only as it makes each
 * cell's formatted text, and without it leaves out, unsaid, a sheet with such a number cell.
 * Such a sheet is read again with that text made: slower, and only then.
 */
function readBook(bytes: Buffer, kind: WorkbookKind, sheets: string | number): ReturnType<typeof read> {
  const book = read(bytes, readOptions(kind, sheets));
  const wanted = typeof sheets === 'number' ? book.SheetNames[sheets] : sheets;
  if (wanted !== undefined && book.SheetNames.includes(wanted) && !book.Sheets[wanted]) return read(bytes, { ...readOptions(kind, sheets), cellText: true });
  return book;
}

/**
 * cellDates: a date cell is a Date at midnight UTC of its day, read back in UTC (dateText) so that
 * the day is the same in any time zone. cellNF: a cell's number format, which says whether a date
 * cell shows a time of day. No formatted text for an .xlsx (SheetJS would format every cell; see
 * readBook); an .ods holds each cell's shown text as written, kept as it is (cellText), because
 * a format on a column is not read. No HTML or styles; only the sheet asked for.
 */
const readOptions = (kind: WorkbookKind, sheets: string | number) => ({ type: 'buffer' as const, dense: true, cellDates: true, cellNF: true, cellText: kind === 'ods', cellHTML: false, cellStyles: false, sheets });

/**
 * Whether a date cell's number format shows a time of day (`yyyy-mm-dd hh:mm`, `[h]:mm`), read
 * without its quoted and escaped literal text; a cell without a format is asked by its value.
 */
function showsTimeOfDay(format: string | undefined): boolean | undefined {
  if (format === undefined || /^general$/i.test(format)) return undefined;
  return /[hs]/i.test(format.replace(/"[^"]*"|\\./g, '').replace(/\[(?![hms]+\])[^\]]*\]/gi, ''));
}

/** The one sheet whose name --sheet gives in another case (`data` for `Data`), if there is one. */
function sheetNamed(names: string[], wanted: string): string | undefined {
  const folded = names.filter((n) => n.toLowerCase() === wanted.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

function lastFilled(cells: string[]): number {
  let i = cells.length - 1;
  while (i >= 0 && cells[i] === '') i--;
  return i;
}

/**
 * A number as a plain decimal, to the 15 significant digits a spreadsheet shows: a computed
 * 0.1+0.2 is 0.3, as in the cell, and never in exponent notation.
 */
export function numberText(v: number): string {
  // A spreadsheet keeps 15 digits of a number (Excel of what is typed, LibreOffice of what it
  // saves as .xlsx): a whole number of 16 digits or more is a long id taken for a number, whose
  // last digits are gone (1234567890123456789 is stored as 1.23456789012346E+18), and read as it
  // is stored it would be another id.
  if (Number.isInteger(v) && Math.abs(v) >= 1e15) {
    throw new Error(`the number ${v.toPrecision(15).replace(/\.?0*e\+/, 'E+')} has too many digits to be read exactly: format the column as text in the spreadsheet and type the value again`);
  }
  const shown = Number(v.toPrecision(15));
  const text = String(shown);
  return /e/i.test(text) ? shown.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }) : text;
}

/**
 * `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` for a cell with a time of day (no zone: the sheet has
 * none). A cell whose format shows only the day (`withTime` false) is that day, whatever time it
 * holds: what the user sees, and never the next day for a time just before midnight.
 */
export function dateText(d: Date, withTime?: boolean): string {
  if (Number.isNaN(d.getTime())) throw new Error('the date cell has no valid date');
  if (withTime === false) return d.toISOString().slice(0, 10);
  // To the second: a sheet stores times as fractions of a day, which rarely land on whole milliseconds.
  const iso = new Date(Math.round(d.getTime() / 1000) * 1000).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
}
