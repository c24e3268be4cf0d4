// `npm run bench`: speed and memory figures, each printed as a ratio to a baseline measured
// in the same run on the same machine (absolute times vary too much between machines).
//
//   1. Start-up: `sct --version` and `sct --help` against `node -e 0` (target ≤ 1.15×).
//   2. Export: `sct orders list --buying --all -o csv|json|ndjson` over 10,000 and 100,000
//      sandbox orders against the no-library floor of each format: client CPU time (targets
//      ≤ 1.2× for csv, ≤ 1.5× for json and ndjson), peak RSS (≤ 1.25×), wall time, and the HTTP
//      requests (target ceil(rows / 1000), the sandbox's max page size). See bench/export.mjs.
//   2b. One-request commands: `sct orders get 1` and `sct orders list --buying` against a node:http
//      script doing the same GET and printing the body (target ≤ 1.3×), sandbox in its own process;
//      without and with NODE_EXTRA_CA_CERTS.
//   3. A 2 GB JSON answer: peak RSS of sct refusing it (exit 1, "answer too large"), against the
//      peak RSS of a bare `node -e 0` and the 256 MB read cap (target: no crash, bounded by the cap).
//
//   4. Sync (bench/sync.mjs), geolocation (bench/geo.mjs) and bulk (bench/bulk.mjs: CPU of
//      `sct invitations bulk-create` of 10,000 rows per 1,000 rows, against a minimal node:http
//      client sending the same requests; target ≤ 100 ms).
//   5. The sandbox itself (bench/sandbox.mjs): a 1,000-order page against a static server, its
//      start with 100,000 orders against `node -e 0`, a bulk check growing linearly.
//
//   6. Over a real network (bench/network.mjs): exports and bulk-create over a 40 ms, 50 Mbit/s
//      link against a minimal client without and with gzip, one and 4 pages in flight.
//
// Options: --quick (fewer runs), --startup-only, --huge-only, --one-request-only, --export-only,
// --bulk-only, --memory-only, --sandbox-only, --network-only.
import { spawnSync } from 'node:child_process';
import { startSandboxProcess } from '../scripts/sandbox-process.mjs';
import { timed } from './measure.mjs';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sct.js');
const quick = process.argv.includes('--quick');
const startupOnly = process.argv.includes('--startup-only');
const hugeOnly = process.argv.includes('--huge-only');
const oneRequestOnly = process.argv.includes('--one-request-only');
const bulkOnly = process.argv.includes('--bulk-only');
const sandboxOnly = process.argv.includes('--sandbox-only');
const exportOnly = process.argv.includes('--export-only');
const networkOnly = process.argv.includes('--network-only');
const memoryOnly = process.argv.includes('--memory-only');
const only = startupOnly || hugeOnly || oneRequestOnly || bulkOnly || sandboxOnly || exportOnly || networkOnly || memoryOnly;
const TOKEN = 'sct_demo_owner_cacao';

if (!existsSync(join(root, 'dist', 'cli.cjs'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });

/** The environment start-up is measured in: as users run, without NODE_EXTRA_CA_CERTS (see below). */
const USER_ENV = { ...process.env };
delete USER_ENV.NODE_EXTRA_CA_CERTS;

function timeOnce(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore', env: USER_ENV });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function startup() {
  const runs = quick ? 7 : 25;
  const cases = { baseline: ['-e', '0'], version: [bin, '--version'], help: [bin, '--help'] };
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  // Interleaved, so a busy moment on the machine hits every case alike.
  for (let i = 0; i < runs + 2; i++) {
    for (const [k, args] of Object.entries(cases)) {
      const ms = timeOnce(args);
      if (i >= 2) samples[k].push(ms); // the first runs warm the disk cache
    }
  }
  const base = median(samples.baseline);
  console.log(`\nStart-up (median of ${runs} runs each, without NODE_EXTRA_CA_CERTS)`);
  console.log(`  node -e 0       ${base.toFixed(1)} ms   1.00×`);
  for (const k of ['version', 'help']) {
    const m = median(samples[k]);
    const ratio = m / base;
    console.log(`  sct --${k.padEnd(8)} ${m.toFixed(1)} ms   ${ratio.toFixed(2)}×  ${ratio <= 1.15 ? 'ok' : 'over the 1.15× target'}`);
  }
}


/**
 * A server answering every request with 2 GB of JSON, streamed from one reused block; with
 * `gzip`, as a gzip bomb: members of 64 MB compressed to about 250 KB each, 2 GB once inflated.
 */
async function hugeServer({ gzip = false } = {}) {
  const element = Buffer.from('{"id": 1, "external_id": "PO-0000001", "note": "' + 'x'.repeat(200) + '"},');
  const block = Buffer.concat(Array(4096).fill(element));
  const member = gzip ? gzipSync(Buffer.concat(Array(64).fill(block)), { level: 9 }) : undefined;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    if (!gzip) res.write('{"count": 1, "next": null, "results": [');
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && sent < 2 * 1024 ** 3) {
        sent += gzip ? 64 * block.length : block.length;
        if (!res.write(gzip ? member : block)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end(gzip ? undefined : '{}]}');
    };
    pump();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

async function hugeAnswerBench() {
  if (!existsSync('/usr/bin/time')) {
    console.log('\n2 GB answer: skipped (needs GNU time at /usr/bin/time for peak RSS)');
    return;
  }
  for (const gzip of [false, true]) {
    const server = await hugeServer({ gzip });
    const config = mkdtempSync(join(tmpdir(), 'sct-bench-'));
    try {
      const env = { ...process.env, SCT_CONFIG_DIR: config, SCT_BASE_URL: `http://127.0.0.1:${server.address().port}/api`, SCT_TOKEN: TOKEN, NO_COLOR: '1' };
      const base = await timed(['-e', '0'], env);
      const sct = await timed([bin, 'orders', 'list', '--buying'], env);
      const wall = sct.wall;
      console.log(gzip ? '\n2 GB JSON answer as a gzip bomb (about 8 MB on the wire)' : '\n2 GB JSON answer to sct orders list --buying (streamed, no Content-Length)');
      console.log(`  node -e 0          peak RSS ${base.rssMb.toFixed(1).padStart(6)} MB`);
      console.log(`  sct refusing it    peak RSS ${sct.rssMb.toFixed(1).padStart(6)} MB  (${(sct.rssMb / base.rssMb).toFixed(1)}× node -e 0), exit ${sct.status} in ${(wall / 1000).toFixed(2)} s${sct.status === 1 && /answer too large/.test(sct.stderr) ? ' ok' : `: ${sct.stderr}`}`);
    } finally {
      server.closeAllConnections();
      server.close();
      rmSync(config, { recursive: true, force: true });
    }
  }
}



/**
 * NODE_EXTRA_CA_CERTS makes every Node process read and parse a certificate bundle at start (the
 * script as well as sct), so the one-request figures are measured without it (as users run) and
 * with it (as some CI machines and corporate set-ups run).
 */
const EXTRA_CA = process.env.NODE_EXTRA_CA_CERTS || ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'].find((f) => existsSync(f));

async function oneRequestBench() {
  if (!existsSync('/usr/bin/time')) {
    console.log('\nOne-request commands: skipped (needs GNU time at /usr/bin/time for CPU time)');
    return;
  }
  const sb = await startSandboxProcess(['--rate-limit', '1000000']);
  const config = mkdtempSync(join(tmpdir(), 'sct-bench-'));
  try {
    // A code cache of the benchmark's own, written by its warm-up runs as a user's first run of
    // each command writes it: the user's could hold a cache of another path (src/cli/code-cache.ts).
    const env = { ...process.env, SCT_CONFIG_DIR: config, XDG_CACHE_HOME: join(config, 'cache'), SCT_BASE_URL: sb.url, SCT_TOKEN: TOKEN, NO_COLOR: '1' };
    delete env.NODE_EXTRA_CA_CERTS;
    const variants = { 'without NODE_EXTRA_CA_CERTS': env };
    if (EXTRA_CA) variants[`with NODE_EXTRA_CA_CERTS=${EXTRA_CA}`] = { ...env, NODE_EXTRA_CA_CERTS: EXTRA_CA };
    // The floor: the same GET with node:http, the body printed as it came; and the same GET as
    // sct sends it, asking for a compressed answer (the sandbox then compresses it, as a proxy
    // would) and inflating it.
    const script = (path, gzip) => {
      const headers = `authorization: 'Bearer ${TOKEN}', accept: 'application/json'${gzip ? ", 'accept-encoding': 'gzip, deflate, br'" : ''}`;
      const body = gzip ? "(r.headers['content-encoding'] ? r.pipe(require('zlib').createGunzip()) : r)" : 'r';
      return `require('http').get(process.argv[1] + '${path}', { headers: { ${headers} } }, (r) => ${body}.pipe(process.stdout))`;
    };
    const LIST = '/orders?order_action=buying&limit=10&offset=0';
    const commands = {
      'node:http GET /orders/1': ['-e', script('/orders/1'), sb.url],
      'node:http, gzip': ['-e', script('/orders/1', true), sb.url],
      'sct orders get 1': [bin, 'orders', 'get', '1', '-o', 'json'],
      'node:http GET /orders?…': ['-e', script(LIST), sb.url],
      'node:http, gzip ': ['-e', script(LIST, true), sb.url],
      'sct orders list --buying': [bin, 'orders', 'list', '--buying', '-o', 'json'],
    };
    const cases = Object.entries(variants).flatMap(([v, e]) => Object.entries(commands).map(([k, args]) => ({ v, k, args, env: e })));
    const runs = quick ? 7 : 15;
    const samples = new Map(cases.map((c) => [c, { wall: [], cpu: [] }]));
    // Every case of both variants interleaved, so a busy moment on the machine hits all alike.
    for (let i = 0; i < runs + 2; i++) {
      for (const c of cases) {
        const r = await timed(c.args, c.env);
        if (r.status !== 0) throw new Error(`node ${c.args.join(' ')} exited ${r.status}: ${r.stderr}`);
        if (i >= 2) {
          samples.get(c).wall.push(r.wall);
          samples.get(c).cpu.push(r.cpu);
        }
      }
    }
    console.log(`\nOne-request commands (median of ${runs}, interleaved; target ≤ 1.3× the node:http script, wall time; sct's code cache made by the warm-up runs)`);
    const line = (name, m, extra = '') => console.log(`    ${name.trim().padEnd(26)} ${median(m.wall).toFixed(1).padStart(6)} ms wall, ${median(m.cpu).toFixed(0).padStart(3)} ms CPU${extra}`);
    for (let i = 0; i < cases.length; i += 3) {
      const [plain, gzip, sct] = [samples.get(cases[i]), samples.get(cases[i + 1]), samples.get(cases[i + 2])];
      if (cases[i].k === Object.keys(commands)[0]) console.log(`  ${cases[i].v}`);
      const ratio = median(sct.wall) / median(plain.wall);
      line(cases[i].k, plain);
      line(cases[i + 1].k, gzip);
      line(cases[i + 2].k, sct, `   ${ratio.toFixed(2)}× wall, ${(median(sct.cpu) / median(plain.cpu)).toFixed(2)}× CPU of the script${ratio <= 1.3 ? ' ok' : ' (over 1.3×)'}; ${(median(sct.wall) / median(gzip.wall)).toFixed(2)}× of the gzip script`);
    }
  } finally {
    sb.child.kill('SIGINT');
    rmSync(config, { recursive: true, force: true });
  }
}

// Export of 10,000 and 100,000 orders against the floors: bench/export.mjs (its own sandboxes).
const exportBench = async () => (await import('./export.mjs')).exportBench({ quick });

if (networkOnly) {
  await (await import('./network.mjs')).networkBench({ quick });
} else if (bulkOnly) {
  await (await import('./bulk.mjs')).bulkBench({ quick });
} else if (hugeOnly) {
  await hugeAnswerBench();
} else if (sandboxOnly) {
  await (await import('./sandbox.mjs')).sandboxBench({ quick });
} else if (oneRequestOnly) {
  await oneRequestBench();
} else if (memoryOnly) {
  await (await import('./memory.mjs')).memoryBench();
} else if (exportOnly) {
  await exportBench();
} else {
  startup();
  if (!startupOnly) {
    await oneRequestBench();
    await exportBench();
    await hugeAnswerBench();
  }
}

// Sync of a 10,000-order file against 100,000 orders: bench/sync.mjs (its own sandbox).
if (!only) await (await import('./sync.mjs')).syncBench({ quick });

// Geolocation: sct origins check of 100,000 plots (half polygons): bench/geo.mjs.
if (!only) await (await import('./geo.mjs')).geoBench({ quick });

// Bulk: sct invitations bulk-create of 10,000 rows, CPU per 1,000 rows: bench/bulk.mjs.
if (!only) await (await import('./bulk.mjs')).bulkBench({ quick });

// Memory: peak RSS of a 1,000,000-row invitations bulk-create --dry-run: bench/memory.mjs.
if (!only) await (await import('./memory.mjs')).memoryBench();
if (!only) await (await import('./memory.mjs')).readerBench();

// The sandbox: page, start, bulk check: bench/sandbox.mjs.
if (!only) await (await import('./sandbox.mjs')).sandboxBench({ quick });

// 6. Over a real network: exports and bulk over a 40 ms, 50 Mbit/s link against floors (bench/network.mjs).
if (!only) await (await import('./network.mjs')).networkBench({ quick });
