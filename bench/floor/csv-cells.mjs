// The CSV export floor's cells, shared by export-csv.mjs and network-client.mjs: sct's escaping,
// hand-written, of the columns sct's header names.

const QUOTE = /[",\n\r]|^\s|\s$/;
const FORMULA = /^'*[=+\-@\t\r]/;
const text = (s) => {
  if (FORMULA.test(s)) s = "'" + s;
  return QUOTE.test(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
};
function cell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return text(v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return String(v);
  return text(JSON.stringify(v));
}
function read(row, parts) {
  let v = row;
  for (const p of parts) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, p)) return undefined;
    v = v[p];
  }
  return v;
}

/** The columns of sct's header line ("id,buyer.name,…"), each as its dotted path. */
export const columnsOf = (header) => header.split(',').map((k) => k.split('.'));

/** The CSV lines of one parsed page's rows. */
export function csvRows(page, columns) {
  let out = '';
  for (const row of page.results) out += columns.map((c) => cell(read(row, c))).join(',') + '\n';
  return out;
}
