// The CSV export floor: `node export-csv.mjs URL TOKEN csv HEADER > out.csv` pages through URL by
// `next`, JSON.parse of each page, and writes the columns HEADER names (the dotted fields of sct's
// header, which bench/export.mjs reads from sct once) with hand-written escaping: the same bytes
// as `sct … --all -o csv`, nothing more.
import { writeSync } from 'node:fs';
import { getPage } from './fetch-pages.mjs';
import { columnsOf, csvRows } from './csv-cells.mjs';

const [url, token, , header] = process.argv.slice(2);
const columns = columnsOf(header);

writeSync(1, header + '\n');
for (let next = url; next; ) {
  const page = JSON.parse((await getPage(next, token)).toString('utf8'));
  writeSync(1, csvRows(page, columns));
  next = page.next;
}
