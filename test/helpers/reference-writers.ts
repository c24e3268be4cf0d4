// The export writers as they were before they were made faster, kept as the reference the new
// ones are held to: the CSV writer on csv-stringify (100 rows a call), byte for byte, and the
// json writer that stringified every item again, value for value.
import { stringify } from 'csv-stringify/sync';
import { cellReaders, columnsFromFlag, type Column } from '../../src/output/columns.js';
import { csvValue, flattenKeys, getPath, mergeColumnKeys } from '../../src/output/values.js';
import { stripControl } from '../../src/util/sanitize.js';
import { CSV_WRITE_OPTIONS, spreadsheetCell } from '../../src/output/spreadsheet.js';

/** Text as it reaches a file: UTF-8 (a lone surrogate becomes U+FFFD, as it always did). */
export const asWritten = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

export interface ReferenceCsvOptions {
  columns?: string;
  csvFormulas?: boolean;
  /** Stdout is a terminal: strings cleaned first. */
  tty?: boolean;
  /** The resource's default columns, for the header of an empty list. */
  defaults?: Column[];
  /** The resource's documented CSV columns (output/fields.ts csvColumnsOf): the header whatever the rows. */
  documented?: readonly string[];
}

export function referenceCsv(pages: unknown[][], o: ReferenceCsvOptions = {}): string {
  let out = '';
  let count = 0;
  let columns: Column[] | undefined = o.columns ? columnsFromFlag(o.columns) : o.documented?.map((k) => ({ header: k, path: k }));
  const clean = o.tty ? (v: unknown) => (typeof v === 'string' ? stripControl(v) : v) : (v: unknown) => v;
  const cell = (v: unknown) => spreadsheetCell(clean(v), o.csvFormulas);
  const header = (cols: Column[]) => cols.map((c) => cell(c.header) as string);
  for (const rows of pages) {
    if (rows.length === 0) continue;
    if (!columns) {
      const keys = new Set<string>();
      const values = new Set<string>();
      for (const r of rows) for (const k of flattenKeys(r, '', [], values)) keys.add(k);
      const merged = mergeColumnKeys([...keys], values);
      // A field that is an object in other rows: its own column holds the rows' other values only.
      columns = merged.map((k) =>
        merged.some((o) => o.startsWith(`${k}.`))
          ? { header: k, path: k, value: (row: Record<string, unknown>) => { const v = getPath(row, k); return v !== null && typeof v === 'object' && !Array.isArray(v) ? undefined : v; } }
          : { header: k, path: k },
      );
    }
    const read = cellReaders(columns);
    for (let i = 0; i < rows.length; i += 100) {
      const records = rows.slice(i, i + 100).map((r) => read.map((get) => cell(csvValue(get(r as Record<string, unknown>)))));
      out += stringify(records, { ...CSV_WRITE_OPTIONS, header: count === 0, columns: header(columns) });
      count += records.length;
    }
  }
  if (count === 0) {
    const names = header(columns ?? (o.defaults ?? []).map((c) => ({ header: c.path, path: c.path })));
    if (names.length) out += stringify([], { ...CSV_WRITE_OPTIONS, header: true, columns: names });
  }
  return asWritten(out);
}

export function referenceJson(pages: unknown[][]): string {
  const items = pages.flat();
  return asWritten(items.length === 0 ? '[]\n' : '[\n  ' + items.map((r) => JSON.stringify(r)).join(',\n  ') + '\n]\n');
}
