// The sandbox benchmark (`npm run bench` runs it; `npm run bench -- --sandbox-only` or
// `node bench/sandbox.mjs [--quick]` alone). Three figures, each beside a baseline measured in
// the same run (median of interleaved runs):
//
//   a. One 1,000-order page, GET /api/orders/?order_action=buying&limit=1000&offset=0 as
//      `sct orders list --buying --all` asks for its pages, from `sct sandbox --orders 100000`,
//      against a bare node:http server answering the same bytes from memory (both in child
//      processes, a fresh connection per request for both). Target ≤ 3×. The first request,
//      which serialises the orders, is shown apart.
//   b. Start: from spawning `sct sandbox --orders 100000 --port 0` to its printing the URL,
//      against `node -e 0` from spawning to exit. Target ≤ 8×.
//   c. A bulk check: invitations bulk-create of 1,000 and of 10,000 rows (requests of 100, the
//      most one takes) on a fresh sandbox each, summing the requests' times on a kept-alive
//      connection (the server's time and a constant per request). Linear: 10× the rows, about
//      10× the time; each row checks its e-mail against every invitation already stored.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from '../scripts/sandbox-process.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sct.js');
const TOKEN = 'sct_demo_owner_cacao';
const PAGE = '/orders/?order_action=buying&limit=1000&offset=0';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;

/** GET (or POST with a JSON body) and the whole answer read: its time, status and bytes. */
function call(url, { method = 'GET', body, agent = false } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { authorization: `Bearer ${TOKEN}`, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) };
    const t = process.hrtime.bigint();
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ ms: ms(t), status: res.statusCode, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A node:http server in a child process answering every request with the bytes of `file`, read into memory once. */
async function staticServer(file) {
  const script = `
    const bytes = require('node:fs').readFileSync(${JSON.stringify(file)});
    const server = require('node:http').createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
        res.end(bytes);
      });
    });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    child.stdout.once('data', (line) => resolve(line.trim()));
    child.once('exit', () => reject(new Error('the static server exited before listening')));
  });
  return { url, child };
}

async function pageBench(quick) {
  const runs = quick ? 9 : 25;
  const sb = await startSandboxProcess(['--orders', '100000', '--rate-limit', '1000000']);
  const dir = mkdtempSync(join(tmpdir(), 'sct-bench-sandbox-'));
  let server;
  try {
    const first = await call(`${sb.url}${PAGE}`);
    if (first.status !== 200) throw new Error(`GET ${PAGE} answered ${first.status}`);
    const file = join(dir, 'page.json');
    writeFileSync(file, first.bytes);
    server = await staticServer(file);
    const samples = { sandbox: [], static: [] };
    // Interleaved, so a busy moment on the machine hits both alike; the first five warm up.
    for (let i = 0; i < runs + 5; i++) {
      const a = await call(`${sb.url}${PAGE}`);
      const b = await call(server.url);
      if (!a.bytes.equals(first.bytes) || !b.bytes.equals(first.bytes)) throw new Error('the page changed between requests');
      if (i >= 5) {
        samples.sandbox.push(a.ms);
        samples.static.push(b.ms);
      }
    }
    const base = median(samples.static);
    const m = median(samples.sandbox);
    const results = JSON.parse(first.bytes).results.length;
    console.log(`\nSandbox: one ${results}-order page (${(first.bytes.length / 1e6).toFixed(1)} MB), GET /api${PAGE}, sandbox of 100,000 orders (median of ${runs}, interleaved, fresh connections)`);
    console.log(`  node:http serving the bytes from memory  ${base.toFixed(1).padStart(7)} ms`);
    console.log(`  sct sandbox                              ${m.toFixed(1).padStart(7)} ms   ${(m / base).toFixed(2)}×  ${m / base <= 3 ? 'ok' : 'over the 3× target'}`);
    console.log(`  (its first request, serialising the page: ${first.ms.toFixed(1)} ms)`);
  } finally {
    server?.child.kill();
    sb.child.kill('SIGINT');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Time from spawning `node args…` to the first line on its stdout (untilLine) or to its exit. */
function timeSpawn(args, untilLine) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    if (untilLine) {
      child.stdout.once('data', () => {
        resolve(ms(t));
        child.kill('SIGINT');
      });
    } else child.stdout.resume();
    child.once('close', (code) => (untilLine ? reject(new Error(`node ${args.join(' ')} exited ${code} before printing`)) : resolve(ms(t))));
  });
}

async function startBench(quick) {
  const runs = quick ? 5 : 15;
  const cases = {
    baseline: () => timeSpawn(['-e', '0'], false),
    sandbox: () => timeSpawn([bin, 'sandbox', '--orders', '100000', '--port', '0', '--quiet'], true),
  };
  const samples = { baseline: [], sandbox: [] };
  for (let i = 0; i < runs + 1; i++) {
    for (const [k, run] of Object.entries(cases)) {
      const t = await run();
      if (i >= 1) samples[k].push(t); // the first runs warm the disk cache
    }
  }
  const base = median(samples.baseline);
  const m = median(samples.sandbox);
  console.log(`\nSandbox start with 100,000 orders (median of ${runs}, interleaved)`);
  console.log(`  node -e 0 (to exit)                                  ${base.toFixed(0).padStart(6)} ms`);
  console.log(`  sct sandbox --orders 100000 --port 0 (to its URL)    ${m.toFixed(0).padStart(6)} ms   ${(m / base).toFixed(2)}×  ${m / base <= 8 ? 'ok' : 'over the 8× target'}`);
}

/**
 * The summed time of inviting `rows` new e-mails, 100 per request, on a fresh sandbox, after
 * 500 rows not counted (they warm the code up, so both sizes are timed warm).
 */
async function bulkCreate(rows) {
  const sb = await startSandboxProcess(['--rate-limit', '1000000']);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const invite = async (prefix, start) => {
    const operations = Array.from({ length: 100 }, (_, i) => ({ email: `${prefix}.${start + i}@bulk.example`, auth_group: 3 }));
    const r = await call(`${sb.url}/accounts/user-invitations/bulk-create`, { method: 'POST', body: { operations }, agent });
    const created = r.status === 201 ? JSON.parse(r.bytes).results.filter((x) => x.status === 'created').length : 0;
    if (created !== 100) throw new Error(`bulk-create answered ${r.status} with ${created} of 100 created`);
    return r.ms;
  };
  try {
    for (let start = 0; start < 500; start += 100) await invite('warm', start);
    let total = 0;
    for (let start = 0; start < rows; start += 100) total += await invite('bench', start);
    return total;
  } finally {
    agent.destroy();
    sb.child.kill('SIGINT');
  }
}

async function bulkBench() {
  const small = await bulkCreate(1_000);
  const large = await bulkCreate(10_000);
  const perRow = (t, n) => `${((t / n) * 1000).toFixed(0)} µs a row`;
  console.log('\nSandbox bulk check: invitations bulk-create, 100 rows a request, each row checked against every stored invitation');
  console.log(`  1,000 rows (10 requests)     ${small.toFixed(0).padStart(6)} ms   ${perRow(small, 1_000)}`);
  console.log(`  10,000 rows (100 requests)   ${large.toFixed(0).padStart(6)} ms   ${perRow(large, 10_000)}   ${(large / small).toFixed(1)}× the time for 10× the rows  ${large / small <= 15 ? 'ok (at most linear)' : 'more than linear'}`);
}

export async function sandboxBench({ quick = false } = {}) {
  if (!existsSync(join(root, 'dist', 'cli.cjs'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  await pageBench(quick);
  await startBench(quick);
  await bulkBench();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await sandboxBench({ quick: process.argv.includes('--quick') });
}
