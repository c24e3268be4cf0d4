// The CSV export floor: `node export-csv.mjs URL TOKEN csv HEADER > out.csv` pages through URL by
// `next`, JSON.parse of each page, and writes the columns HEADER names (the dotted fields of sct's
// header, which bench/export.mjs reads from sct once) with hand-written escaping: the same bytes
// as `sct … --all -o csv`, nothing more.
import { writeSync } from 'node:fs';
import { getPage } from './fetch-pages.mjs';

const [url, token, , header] = process.argv.slice(2);
const columns = header.split(',').map((k) => k.split('.'));

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
  if (typeof v === 'boolean') return v ? '1' : '';
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

writeSync(1, header + '\n');
for (let next = url; next; ) {
  const page = JSON.parse((await getPage(next, token)).toString('utf8'));
  let out = '';
  for (const row of page.results) out += columns.map((c) => cell(read(row, c))).join(',') + '\n';
  writeSync(1, out);
  next = page.next;
}
