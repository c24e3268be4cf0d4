// Fitting a table to the terminal. Widths are display widths (string-width, the measure
// cli-table3 itself uses): a CJK character or an emoji takes two cells, a combining accent none.
// Id, date, status and e-mail columns are never cut; the widest free-text columns shrink first,
// ending in `…`; when even that is not enough the columns that matter least for the resource are
// left out (each column's priority, output/columns.ts; the caller says which went).
//
// string-width sets up Unicode tables and an Intl.Segmenter when it loads (15–65 ms of a
// one-request command's start-up, bench/results.md), and only a table fitted to a terminal needs
// it: it is loaded then (loadMeasure), never for a pipe or a file.

const GAP = 2;
const ELLIPSIS = '…';
/** A free-text column is not shrunk below this (or its header, if shorter than its content). */
const MIN_FREE = 6;
/**
 * …and not below this while a column that matters less is still shown: a name cut to six cells
 * ("Bovine …") says little, so the less important column is left out first.
 */
const READABLE = 12;

export interface TableColumn {
  header: string;
  path: string;
  /**
   * How much the column matters at a narrow terminal, 1 (left out first) to 5 (last). Columns
   * without one (`--columns`) rank alike, and among equals the rightmost goes first.
   */
  priority?: number;
}

/** The rank of a column without a priority: in the middle, as a `--columns` list has none. */
const UNRANKED = 3;

let measure: ((s: string) => number) | undefined;
let segmenter: Intl.Segmenter | undefined;

/** Loads what measures display widths; every function below that measures needs it first. */
export async function loadMeasure(): Promise<void> {
  measure ??= (await import('string-width')).default;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
}

/**
 * A soft hyphen (U+00AD, in names pasted from documents) takes a cell at a terminal (xterm, VTE
 * and glibc's wcwidth give it one), where string-width counts none.
 */
const SOFT_HYPHENS = /\u00ad/g;

export function displayWidth(s: string): number {
  if (!measure) throw new Error('displayWidth before loadMeasure()');
  return measure(s) + (s.includes('\u00ad') ? s.match(SOFT_HYPHENS)!.length : 0);
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
// Labels of the domain hold no dot, so a string of dots is read once, never tried at every split.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const DATE_HEADERS = new Set(['DATE', 'CREATED', 'UPDATED', 'MODIFIED', 'EXPIRES', 'EXPIRED', 'DUE', 'SUBMITTED']);

/** Is this column's last path segment an id, a date, a status or an e-mail address? */
function fixedByName(column: TableColumn): boolean {
  const field = (column.path.split('.').pop() ?? '').toLowerCase();
  const header = column.header.trim().toUpperCase();
  if (field === 'id' || field === 'uuid' || field.endsWith('_id') || field.endsWith('_uuid')) return true;
  // What a person types or looks up whole: an e-mail address (revoke and renew take it), a SKU,
  // a statement's registry identifier.
  if (field === 'email' || field.endsWith('_email') || header === 'EMAIL' || header === 'E-MAIL') return true;
  if (field === 'sku' || field === 'identifier' || field.endsWith('_identifier')) return true;
  if (field.endsWith('_at') || field.endsWith('date') || field.endsWith('_on') || DATE_HEADERS.has(header)) return true;
  if (field === 'status' || field.endsWith('_status') || header === 'STATUS' || header.endsWith(' STATUS')) return true;
  return header === 'ID' || header.endsWith(' ID');
}

/** Ids, dates, statuses and e-mail addresses are never cut: by name, or because every value is one. */
export function isFixedColumn(column: TableColumn, cells: string[] = []): boolean {
  if (fixedByName(column)) return true;
  const values = cells.filter((c) => c !== '');
  return values.length > 0 && values.every((c) => UUID.test(c) || DATE.test(c) || EMAIL.test(c));
}

export interface Fit {
  /** The columns shown, by index, left to right. */
  shown: number[];
  /** Their widths (display cells), in the same order. */
  widths: number[];
  /** The columns left out, by index, left to right. */
  dropped: number[];
}

/**
 * Widths for the table within `width` cells, `GAP` cells between columns. When the columns do
 * not fit even with every free-text column at its narrowest, the lowest-priority column is left
 * out (the rightmost of equals), then the next, until the rest fit; then each column left out
 * comes back, the most important first, if it fits beside them (a narrow ROLE once a 36-cell
 * uuid is gone), but a column without a priority not past one to its left that stayed out. The columns shown keep their order; the widest free-text column shrinks first,
 * one cell at a time, down to its narrowest (READABLE or MIN_FREE).
 */
export function fitColumns(columns: TableColumn[], rows: string[][], width: number): Fit {
  // A loop, not Math.max(...rows): a table of 130,000 rows is more arguments than a call takes.
  const natural = columns.map((c, i) => rows.reduce((widest, r) => Math.max(widest, displayWidth(r[i] ?? '')), displayWidth(c.header)));
  const fixed = columns.map((c, i) => isFixedColumn(c, rows.map((r) => r[i] ?? '')));
  const floor = (least: number) => columns.map((c, i) => (fixed[i] ? natural[i] : Math.min(natural[i], Math.max(least, displayWidth(c.header)))));
  const minimum = floor(MIN_FREE);
  const readable = floor(READABLE);
  const rank = columns.map((c) => c.priority ?? UNRANKED);
  /** Each shown column's narrowest width: readable while a less important column is shown too. */
  const floors = (set: Set<number>) => {
    const lowest = Math.min(...[...set].map((i) => rank[i]));
    return new Map([...set].map((i) => [i, rank[i] > lowest ? readable[i] : minimum[i]]));
  };
  const fits = (set: Set<number>) => [...floors(set).values()].reduce((sum, w) => sum + w + GAP, -GAP) <= width;

  const shown = new Set(columns.keys());
  const leftOut: number[] = [];
  // One column is always shown, even when nothing makes it fit.
  while (shown.size > 1 && !fits(shown)) {
    let least = -1;
    for (const i of shown) if (least < 0 || rank[i] <= rank[least]) least = i;
    shown.delete(least);
    leftOut.push(least);
  }
  // Columns without a priority (a --columns list, in the order the user gave) lose their
  // rightmost: one does not come back past an unranked one to its left that did not fit.
  const refused: number[] = [];
  for (const i of [...leftOut].reverse()) {
    if (columns[i].priority === undefined && refused.some((j) => j < i && columns[j].priority === undefined)) continue;
    shown.add(i);
    if (!fits(shown)) {
      shown.delete(i);
      refused.push(i);
    }
  }

  const order = [...shown].sort((a, b) => a - b);
  const least = floors(shown);
  const widths = order.map((i) => natural[i]);
  const budget = width - GAP * (order.length - 1);
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > budget) {
    let widest = -1;
    for (let k = 0; k < order.length; k++) {
      if (widths[k] > least.get(order[k])! && (widest < 0 || widths[k] > widths[widest])) widest = k;
    }
    if (widest < 0) break;
    widths[widest]--;
    total--;
  }
  // A lone column wider than the terminal is cut even when it is an id: a wrapped line is worse.
  if (order.length === 1 && widths[0] > width) widths[0] = Math.max(1, width);
  return { shown: order, widths, dropped: columns.map((_, i) => i).filter((i) => !shown.has(i)) };
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
