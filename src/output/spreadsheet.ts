// CSV that sct writes is opened in spreadsheets, where a cell beginning with `=`, `+`, `-`, `@`,
// a tab or a carriage return is run as a formula (`=HYPERLINK(…)` from the service would be a
// live link). Such a text cell is written with a leading `'`, which spreadsheets show as text;
// sct's own CSV readers take it off again, so an exported file imports unchanged.
//
// A cell that already begins with quotes before such a character (`'=x`) gets one more, so
// reading back is always the exact inverse of writing.
const NEEDS_GUARD = /^'*[=+\-@\t\r]/;
const GUARDED = /^'+[=+\-@\t\r]/;

/** A text cell as written to a CSV file. Numbers and booleans are never guarded. */
export function guardFormula(text: string): string {
  return NEEDS_GUARD.test(text) ? `'${text}` : text;
}

/** A cell read from a CSV file, with the guard `guardFormula` added taken off. */
export function unguardFormula(text: string): string {
  return GUARDED.test(text) ? text.slice(1) : text;
}

/**
 * The rules of every CSV file sct writes, as csv-stringify options: csvLine and csvCell below
 * write by them, and the tests hold them to csv-stringify's own text (csv-stringify itself is a
 * development dependency since: bench/results.md has why). sct's readers trim unquoted cells (so a
 * hand-typed `a, b` reads as `b`), which would shorten a guarded tab (`'\t`) to a bare `'` and
 * lose a guard-like quote after leading spaces: a cell that begins or ends with white space is
 * quoted, and quoted cells are read back exactly. A cell holding any line break is quoted too:
 * with a record_delimiter given, csv-stringify would otherwise quote only that one.
 */
export const CSV_WRITE_OPTIONS = { quoted_match: /^\s|\s$/, quote_record_delimiter: true, cast: { boolean: (v: boolean) => String(v) } } as const;

/**
 * One CSV line, its line end included, exactly as csv-stringify writes it with CSV_WRITE_OPTIONS
 * (a test holds the two to the same text): for files of thousands of lines, where csv-stringify
 * weighs every one of its options on every cell at several times the cost.
 */
export function csvLine(cells: readonly (string | number)[]): string {
  return cells.map(csvCell).join(',') + '\n';
}

// A cell is quoted when it holds a quote, a comma or a line break, or begins or ends with white space.
const NEEDS_QUOTES = /[",\n\r]|^\s|\s$/;
const QUOTES = /"/g;

/**
 * One cell as csv-stringify writes it with CSV_WRITE_OPTIONS: booleans as true and false (its
 * default, 1 and empty, would read back an exported false as no value at all), null as empty.
 * Exports write their rows with it too (bench/export.mjs).
 */
export function csvCell(cell: string | number | boolean | null | undefined): string {
  if (typeof cell === 'string') return NEEDS_QUOTES.test(cell) ? `"${cell.replace(QUOTES, '""')}"` : cell;
  if (typeof cell === 'number') return String(cell);
  if (typeof cell === 'boolean') return String(cell);
  return '';
}

/** A CSV cell: text guarded unless `formulas` (--csv-formulas) asks for it as sent. */
export function spreadsheetCell<T>(value: T, formulas = false): T | string {
  return typeof value === 'string' && !formulas ? guardFormula(value) : value;
}
