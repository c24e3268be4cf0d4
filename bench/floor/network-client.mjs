// The network benchmark's floors: a minimal node:http client over the same link.
//   node network-client.mjs export URL TOKEN FORMAT GZIP PARALLEL [HEADER] → the list as json or csv
//     (csv: the columns of HEADER, sct's header line) on stdout
//   node network-client.mjs bulk URL TOKEN FILE PARALLEL [GZIP] [ME] → POSTs 100 rows a request;
//     ME=1: GET /accounts/me first, as a client whose retries are keyed to the user must
// Export: the first page, then (PARALLEL > 1) every other offset known from its count, PARALLEL
// at a time, written in order; GZIP=1 asks for gzip and gunzips. JSON: each page's results array
// copied as its bytes; CSV: JSON.parse and the columns and escaping of bench/floor/export-csv.mjs (sct's).
import { request, Agent } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { columnsOf, csvRows } from './csv-cells.mjs';

const [mode, base, token, arg, a4, a5, a6] = process.argv.slice(2);
// The 7th argument: the CSV header line of an export, or ME of a bulk run.
const header = a6;
const agent = new Agent({ keepAlive: true });

function send(method, url, body, gzip) {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (gzip) headers['accept-encoding'] = 'gzip';
    if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'idempotency-key': randomUUID() });
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode >= 300) return reject(new Error(`${method} ${url}: ${res.statusCode}`));
        const raw = Buffer.concat(chunks);
        resolve(res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}


/** The page's count and next link, read from its head (the sandbox writes them before the results). */
function head(page) {
  const h = page.subarray(0, page.indexOf('"results":')).toString('utf8');
  return { count: Number(/"count":\s*(\d+)/.exec(h)[1]), next: JSON.parse(/"next":\s*(null|"(?:[^"\\]|\\.)*")/.exec(h)[1]) };
}

async function exportList(url, format, gzip, parallel) {
  const columns = format === 'csv' ? columnsOf(header) : undefined;
  const out = [];
  let first = true;
  const write = (page) => {
    if (format === 'json') {
      // The results' bytes as they came: the least a JSON export can do.
      const inner = page.subarray(page.indexOf('"results":') + 10).subarray(1);
      const body = inner.subarray(0, inner.lastIndexOf(']'));
      if (body.length) out.push(Buffer.from(first ? '[' : ','), body);
      if (body.length) first = false;
    } else {
      if (first) out.push(header + '\n');
      first = false;
      out.push(csvRows(JSON.parse(page.toString('utf8')), columns));
    }
    if (out.length > 4096) writeOut();
  };
  const writeOut = () => {
    for (const part of out.splice(0)) process.stdout.write(part);
  };
  const page = await send('GET', url, undefined, gzip);
  const h = head(page);
  write(page);
  if (parallel <= 1) {
    for (let next = h.next; next; ) {
      const p = await send('GET', next, undefined, gzip);
      write(p);
      next = head(p).next;
    }
  } else if (h.next) {
    const n = new URL(h.next);
    const limit = Number(n.searchParams.get('limit'));
    const urls = [];
    for (let o = Number(n.searchParams.get('offset')); o < h.count; o += limit) {
      n.searchParams.set('offset', String(o));
      urls.push(n.href);
    }
    const pending = [];
    let i = 0;
    while (i < urls.length || pending.length) {
      while (pending.length < parallel && i < urls.length) pending.push(send('GET', urls[i++], undefined, gzip));
      write(await pending.shift());
    }
  }
  if (format === 'json') out.push(first ? '[]\n' : ']\n');
  writeOut();
}

async function bulk(file, parallel, gzip, me) {
  if (me) await send('GET', base + '/accounts/me', undefined, gzip);
  const rows = readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean).map((l) => {
    const [email, group] = l.split(',');
    return { email, auth_group: Number(group) };
  });
  const chunks = [];
  for (let i = 0; i < rows.length; i += 100) chunks.push(rows.slice(i, i + 100));
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) await send('POST', base + '/accounts/user-invitations/bulk-create', JSON.stringify({ operations: chunks[next++] }), gzip);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

if (mode === 'export') await exportList(base, arg, a4 === '1', Number(a5));
else await bulk(arg, Number(a4), a5 === '1', a6 === '1');
agent.destroy();
