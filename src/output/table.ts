// Fitting a table to the terminal. Widths are display widths (string-width, the measure
// cli-table3 itself uses): a CJK character or an emoji takes two cells, a combining accent none.
// Id, date and status columns are never cut; the widest free-text columns shrink first, ending in
// `…`; when even that is not enough the rightmost columns are left out (the caller says which).
//
// string-width sets up Unicode tables and an Intl.Segmenter when it loads (15–65 ms of a
// one-request command's start-up, bench/results.md), and only a table fitted to a terminal needs
// it: it is loaded then (loadMeasure), never for a pipe or a file.

export const GAP = 2;
const ELLIPSIS = '…';
/** A free-text column is not shrunk below this (or its header, if shorter than its content). */
const MIN_FREE = 6;

export interface TableColumn {
  header: string;
  path: string;
}

let measure: ((s: string) => number) | undefined;
let segmenter: Intl.Segmenter | undefined;

/** Loads what measures display widths; every function below that measures needs it first. */
export async function loadMeasure(): Promise<void> {
  measure ??= (await import('string-width')).default;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
}

export function displayWidth(s: string): number {
  if (!measure) throw new Error('displayWidth before loadMeasure()');
  return measure(s);
}

/**
 * `s` cut to at most `width` display cells, ending in `…` when cut. Cuts between graphemes
 * only, so never inside a multi-byte character, a wide character or an emoji sequence.
 */
export function truncate(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const { segment } of segmenter!.segment(s)) {
    const w = displayWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + ELLIPSIS;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const DATE_HEADERS = new Set(['DATE', 'CREATED', 'UPDATED', 'MODIFIED', 'EXPIRES', 'EXPIRED', 'DUE', 'SUBMITTED']);

/** Is this column's last path segment an id, a date or a status? */
function fixedByName(column: TableColumn): boolean {
  const field = (column.path.split('.').pop() ?? '').toLowerCase();
  const header = column.header.trim().toUpperCase();
  if (field === 'id' || field === 'uuid' || field.endsWith('_id') || field.endsWith('_uuid')) return true;
  if (field.endsWith('_at') || field.endsWith('date') || field.endsWith('_on') || DATE_HEADERS.has(header)) return true;
  if (field === 'status' || field.endsWith('_status') || header === 'STATUS' || header.endsWith(' STATUS')) return true;
  return header === 'ID' || header.endsWith(' ID');
}

/** Ids, dates and statuses are never cut: by name, or because every value is a uuid or a date. */
export function isFixedColumn(column: TableColumn, cells: string[] = []): boolean {
  if (fixedByName(column)) return true;
  const values = cells.filter((c) => c !== '');
  return values.length > 0 && values.every((c) => UUID.test(c) || DATE.test(c));
}

export interface Fit {
  /** The columns shown, by index, left to right. */
  shown: number[];
  /** Their widths (display cells), in the same order. */
  widths: number[];
  /** The columns left out (the rightmost ones), by index. */
  dropped: number[];
}

/**
 * Widths for the table within `width` cells, `GAP` cells between columns. The widest free-text
 * column shrinks first, one cell at a time, down to its minimum; when every free column is at
 * its minimum and the table is still too wide, the rightmost column is left out and the fitting
 * starts again from the natural widths of the rest.
 */
export function fitColumns(columns: TableColumn[], rows: string[][], width: number): Fit {
  const natural = columns.map((c, i) => Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const fixed = columns.map((c, i) => isFixedColumn(c, rows.map((r) => r[i] ?? '')));
  const minimum = columns.map((c, i) => (fixed[i] ? natural[i] : Math.min(natural[i], Math.max(MIN_FREE, displayWidth(c.header)))));
  for (let n = columns.length; n >= 1; n--) {
    const widths = natural.slice(0, n);
    const budget = width - GAP * (n - 1);
    let total = widths.reduce((a, b) => a + b, 0);
    while (total > budget) {
      let widest = -1;
      for (let i = 0; i < n; i++) if (!fixed[i] && widths[i] > minimum[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
      if (widest < 0) break;
      widths[widest]--;
      total--;
    }
    // One column is always shown, even when nothing makes it fit.
    if (total <= budget || n === 1) {
      const shown = [...Array(n).keys()];
      return { shown, widths, dropped: [...Array(columns.length).keys()].slice(n) };
    }
  }
  return { shown: [], widths: [], dropped: [] };
}

/**
 * The table's lines at a terminal: each cell cut to its width, padded, `GAP` spaces between
 * columns, nothing after the last. `paint(text, column)` colours a cell after it is cut, so the
 * escape sequences never count towards the width nor get cut.
 */
export function layoutTable(
  columns: TableColumn[],
  rows: string[][],
  fit: Fit,
  paint: { header: (s: string) => string; cell: (s: string, column: TableColumn) => string },
): string[] {
  const line = (cells: string[], style: (s: string, c: TableColumn) => string) =>
    fit.shown
      .map((col, k) => {
        const text = truncate(cells[col] ?? '', fit.widths[k]);
        const painted = style(text, columns[col]);
        return k === fit.shown.length - 1 ? painted : painted + ' '.repeat(fit.widths[k] - displayWidth(text) + GAP);
      })
      .join('')
      .trimEnd();
  return [line(columns.map((c) => c.header), (s) => paint.header(s)), ...rows.map((r) => line(r, paint.cell))];
}

/**
 * One table row for a pipe or a file: tab-separated, nothing cut. A tab or a line break inside
 * a cell becomes a space, so each row stays one line and `cut -f` finds the right field.
 */
export function tsvLine(cells: string[]): string {
  return cells.map(tsvCell).join('\t');
}

export function tsvCell(cell: string): string {
  return /[\t\r\n]/.test(cell) ? cell.replace(/[\t\r\n]+/g, ' ') : cell;
}
