// The CSV export floor: `node export-csv.mjs URL TOKEN > out.csv` pages through URL by `next`,
// JSON.parse of each page, and writes the columns sct chooses (every dotted field of the first
// page's rows) with hand-written escaping: the same bytes as `sct … --all -o csv`, nothing more.
import { writeSync } from 'node:fs';
import { getPage } from './fetch-pages.mjs';
import { csvPage } from './csv-cells.mjs';

const [url, token] = process.argv.slice(2);

const state = {};
for (let next = url; next; ) {
  const page = JSON.parse((await getPage(next, token)).toString('utf8'));
  writeSync(1, csvPage(page, state));
  next = page.next;
}
