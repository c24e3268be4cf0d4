// The JSON export floor: `node export-json.mjs URL TOKEN json|ndjson > out.json` pages through
// URL by `next` and copies each element of `results` byte for byte, found by a scan that only
// follows strings and nesting (no validation, no parsing): into one array framed as sct frames
// it (json), or one element a line (ndjson).
import { writeSync } from 'node:fs';
import { getPage } from './fetch-pages.mjs';

const [url, token, format] = process.argv.slice(2);
const OPEN = Buffer.from('[\n  ');
const SEPARATOR = Buffer.from(',\n  ');
const NEWLINE = Buffer.from('\n');

/** [start, end, start, end, …] of the elements of the array that opens at `open`; and its end. */
function elements(b, open) {
  const bounds = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < b.length; i++) {
    const c = b[i];
    if (c === 0x22) {
      // Skip the string (the sandbox's pages end their strings: no bounds check).
      for (i++; b[i] !== 0x22; i++) if (b[i] === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) {
        if (i > start) bounds.push(start, i);
        return { bounds, end: i };
      }
    } else if (c === 0x2c && depth === 1) {
      bounds.push(start, i);
      start = i + 1;
    }
  }
  throw new Error('unterminated results');
}

let written = 0;
for (let next = url; next; ) {
  const page = await getPage(next, token);
  const open = page.indexOf('"results":[') + 10;
  const { bounds, end } = elements(page, open);
  const parts = [];
  for (let j = 0; j < bounds.length; j += 2) {
    if (format === 'ndjson') parts.push(page.subarray(bounds[j], bounds[j + 1]), NEWLINE);
    else parts.push(written++ === 0 ? OPEN : SEPARATOR, page.subarray(bounds[j], bounds[j + 1]));
  }
  writeSync(1, Buffer.concat(parts));
  // `next` is outside the results: the page's bytes around them, read as JSON text.
  const rest = page.toString('latin1', 0, open) + page.toString('latin1', end + 1);
  const link = /"next":\s*(null|"(?:[^"\\]|\\.)*")/.exec(rest);
  next = link ? JSON.parse(link[1]) : null;
}
if (format !== 'ndjson') writeSync(1, written === 0 ? '[]\n' : '\n]\n');
