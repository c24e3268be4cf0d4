// The export benchmark (`npm run bench` runs it; `npm run bench -- --export-only [--quick]`, or
// `node bench/export.mjs [--quick]` alone): `sct orders list --buying --all -o csv|json|ndjson`
// into a file, over 10,000 and 100,000 sandbox orders (the sandbox in its own process, its rate
// limit out of the way), against the no-library floor of each format (bench/floor/): node:http
// pages following `next`; CSV: JSON.parse and hand-written escaping of the same columns (sct's
// header, read from one `--limit 1` run); JSON:
// each element's bytes copied into one array (ndjson: one a line).
//
// Floor and sct run interleaved, the median of 3 runs each (1 with --quick). The figure the
// targets are judged on is the client's CPU time (user + system, GNU time): the sandbox's own
// time is the same for both and only lengthens the wall time, which is printed beside it.
// Targets: CPU ≤ 1.2× the floor for csv, ≤ 1.5× for json and ndjson; peak RSS ≤ 1.25× the floor's.
// The outputs are compared too: sct's must be byte for byte the floor's.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from '../scripts/sandbox-process.mjs';
import { call } from './call.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sct.js');
const floors = { csv: join(root, 'bench', 'floor', 'export-csv.mjs'), json: join(root, 'bench', 'floor', 'export-json.mjs') };
const TOKEN = 'sct_demo_owner_cacao';
const FORMATS = ['csv', 'json', 'ndjson'];
const TARGET = { csv: 1.2, json: 1.5, ndjson: 1.5 };
const RSS_TARGET = 1.25;

/** `node args…` with stdout into `file`: wall, client CPU (user + system) and peak RSS, by GNU time. */
function measure(args, env, file) {
  const out = openSync(file, 'w');
  try {
    const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', process.execPath, ...args], { env, stdio: ['ignore', out, 'pipe'], maxBuffer: 1 << 20 });
    const time = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(String(r.stderr));
    if (r.status !== 0 || !time) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { wall: Number(time[1]), cpu: Number(time[2]) + Number(time[3]), rssMb: Number(time[4]) / 1024 };
  } finally {
    closeSync(out);
  }
}

function sha(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function exportAt(orders, runs) {
  const sb = await startSandboxProcess(['--orders', String(orders), '--rate-limit', '1000000']);
  const dir = mkdtempSync(join(tmpdir(), 'sct-bench-export-'));
  try {
    const env = { ...process.env, SCT_CONFIG_DIR: dir, SCT_BASE_URL: sb.url, SCT_TOKEN: TOKEN, NO_COLOR: '1', CI: 'true' };
    // The first request sct sends for --all; the floors start from the same one.
    const first = `${sb.url}/orders?order_action=buying&limit=10000&offset=0`;
    // The CSV columns are the documented fields of an order (src/api/schemas/fields.ts): the floor
    // writes the ones sct's header names, read once here.
    const header = String(spawnSync(process.execPath, [bin, 'orders', 'list', '--buying', '--limit', '1', '-o', 'csv'], { env }).stdout).split('\n')[0];
    const cases = {};
    for (const format of FORMATS) {
      cases[`floor ${format}`] = format === 'csv' ? [floors.csv, first, TOKEN, format, header] : [floors.json, first, TOKEN, format];
      cases[`sct ${format}`] = [bin, 'orders', 'list', '--buying', '--all', '-o', format];
    }
    const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    // A first pass builds whatever the sandbox builds lazily, so the first measured run is not slower for it.
    measure(cases['floor json'], env, join(dir, 'warm-up'));
    let requests;
    for (let round = 0; round < runs; round++) {
      for (const format of FORMATS) {
        // Which goes first alternates, so a busy moment on the machine hits both alike.
        const order = round % 2 === 0 ? ['floor', 'sct'] : ['sct', 'floor'];
        for (const who of order) {
          const name = `${who} ${format}`;
          if (name === 'sct csv' && round === 0) await call('DELETE', `${sb.origin}/_sandbox/requests`);
          samples[name].push(measure(cases[name], env, join(dir, name.replace(' ', '.'))));
          if (name === 'sct csv' && round === 0) requests = (await call('GET', `${sb.origin}/_sandbox/requests`)).filter((q) => q.path === '/api/orders').length;
        }
      }
    }
    return { orders, samples, requests, dir };
  } finally {
    sb.child.kill('SIGINT');
  }
}

export async function exportBench({ quick = false } = {}) {
  if (!existsSync('/usr/bin/time')) {
    console.log('\nExport: skipped (needs GNU time at /usr/bin/time for CPU time and peak RSS)');
    return;
  }
  const runs = quick ? 1 : 3;
  for (const orders of [10_000, 100_000]) {
    const r = await exportAt(orders, runs);
    try {
      const size = statSync(join(r.dir, 'sct.csv')).size;
      const lines = readFileSync(join(r.dir, 'sct.ndjson'), 'utf8').split('\n').length - 1;
      console.log(`\nExport: sct orders list --buying --all -o csv|json|ndjson > file, ${orders.toLocaleString('en')} sandbox orders`);
      console.log(`  ${lines.toLocaleString('en')} rows, ${r.requests} requests (target ${Math.ceil(lines / 1000)})${r.requests === Math.ceil(lines / 1000) ? ' ok' : ''}; csv ${(size / 1024 ** 2).toFixed(0)} MB; median of ${runs}, interleaved with the floor`);
      console.log('  format  floor CPU   sct CPU   ratio (target)      floor RSS   sct RSS   ratio (target)    floor wall  sct wall  output');
      for (const format of FORMATS) {
        const f = r.samples[`floor ${format}`];
        const s = r.samples[`sct ${format}`];
        const cpu = [median(f.map((x) => x.cpu)), median(s.map((x) => x.cpu))];
        const rss = [median(f.map((x) => x.rssMb)), median(s.map((x) => x.rssMb))];
        const wall = [median(f.map((x) => x.wall)), median(s.map((x) => x.wall))];
        const same = sha(join(r.dir, `floor.${format}`)) === sha(join(r.dir, `sct.${format}`));
        const cpuRatio = cpu[1] / cpu[0];
        const rssRatio = rss[1] / rss[0];
        console.log(
          `  ${format.padEnd(6)}  ${cpu[0].toFixed(2).padStart(7)} s  ${cpu[1].toFixed(2).padStart(6)} s  ${cpuRatio.toFixed(2)}× (${TARGET[format]}×) ${cpuRatio <= TARGET[format] ? 'ok    ' : 'MISSED'}` +
            `  ${rss[0].toFixed(0).padStart(6)} MB  ${rss[1].toFixed(0).padStart(5)} MB  ${rssRatio.toFixed(2)}× (${RSS_TARGET}×) ${rssRatio <= RSS_TARGET ? 'ok    ' : 'MISSED'}` +
            `  ${wall[0].toFixed(2).padStart(7)} s  ${wall[1].toFixed(2).padStart(6)} s  ${same ? 'identical' : 'DIFFERS'}`,
        );
      }
    } finally {
      rmSync(r.dir, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(join(root, 'dist', 'cli.cjs'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  await exportBench({ quick: process.argv.includes('--quick') });
}
