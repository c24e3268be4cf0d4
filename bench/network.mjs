// The network benchmark (`npm run bench -- --network-only [--quick]`, or `node bench/network.mjs
// [--runs N] [--before DIR]`): sct over a link of 40 ms round trip and 50 Mbit/s each way against
// a sandbox of 20,000 orders in its own process, with floors measured in the same run by a
// minimal node:http client (bench/floor/network-client.mjs) over the same link.
//
// The link (bench/link.mjs), the best this machine can build, named in the output: network
// namespaces joined by `tc netem` (root, iproute2, the kernel's sch_netem); else namespaces joined
// by a delay line between two TUN devices (bench/tunlink.py; root, iproute2, /dev/net/tun,
// python3), checked before the cases by a ping or TCP connect round trip and an 8 MB transfer;
// else a throttling proxy on 127.0.0.1 (bench/throttle.mjs). The sandbox runs on the far side,
// sct and the floors on the near one; across namespaces the server is not loopback, so sct runs
// with SCT_ALLOW_HTTP=1. SCT_BENCH_LINK=proxy|tun|netem picks one (to compare them).
//
// Cases, wall time, medians of interleaved runs (3 by default, 1 with --quick):
//   export json: floor one page at a time without compression, with gzip, with gzip and 4 pages
//   in flight; sct (target ≤ 1.2× the last). export csv: floor with gzip and 4 in flight; sct
//   (target ≤ 1.3×). bulk: invitations bulk-create of 2,000 rows (20 requests of 100), floor with
//   4 requests in flight, without and with gzip (as sct asks: over a real link an uncompressed
//   answer of 47 KB takes more round trips of TCP's slow start than its 4.5 KB gzipped); sct at
//   its default --concurrency 4 (target ≤ 1.2× the gzip floor); and, to read that figure by, the
//   gzip floor asking GET /accounts/me first, as sct does for its journal and Idempotency-Keys.
// --before DIR: also `DIR/bin/sct.js` (a build of an earlier commit) for json, csv, bulk and one request.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from '../scripts/sandbox-process.mjs';
import { timed } from './measure.mjs';
import { startThrottle } from './throttle.mjs';
import { checkLink, chooseLink, startNamespaceLink } from './link.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sct.js');
const floor = join(root, 'bench', 'floor', 'network-client.mjs');
const TOKEN = 'sct_demo_owner_cacao';
const ORDERS = 20_000;
const ROWS = 2_000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

export async function networkBench({ quick = false, runs = quick ? 1 : 3, before } = {}) {
  const { kind, why } = process.env.SCT_BENCH_LINK ? { kind: process.env.SCT_BENCH_LINK, why: 'SCT_BENCH_LINK' } : chooseLink();
  const sandboxArgs = ['--orders', String(ORDERS), '--rate-limit', '1000000'];
  let link;
  let sb;
  let url;
  let proxy;
  let checked;
  let counts = '';
  const dir = mkdtempSync(join(tmpdir(), 'sct-bench-network-'));
  try {
    if (kind === 'proxy') {
      sb = await startSandboxProcess(sandboxArgs);
      proxy = await startThrottle(Number(new URL(sb.url).port));
      url = `http://127.0.0.1:${proxy.port}/api`;
    } else {
      link = await startNamespaceLink(kind);
      checked = await checkLink(link);
      sb = await startSandboxProcess([...sandboxArgs, '--host', link.host], process.env, link.server);
      url = sb.url;
    }
    const client = link?.client ?? [];
    // A code cache of its own, written by the first runs (see run.mjs, one-request).
    const env = { ...process.env, SCT_CONFIG_DIR: dir, XDG_CACHE_HOME: join(dir, 'cache'), SCT_BASE_URL: url, SCT_TOKEN: TOKEN, NO_COLOR: '1', CI: 'true' };
    // The far end of a namespace link is not loopback: sct refuses plain http there without it.
    if (link) env.SCT_ALLOW_HTTP = '1';
    delete env.NODE_EXTRA_CA_CERTS;
    const first = `${url}/orders?order_action=buying&limit=10000&offset=0`;
    // The CSV floor writes the columns sct's header names, read once (asynchronously: the proxy,
    // where it is the link, runs in this process).
    const head = await timed([bin, 'orders', 'list', '--buying', '--limit', '1', '-o', 'csv'], env, client);
    const header = head.stdout.split('\n')[0];
    const people = (run, who) => {
      const file = join(dir, `people-${who}-${run}.csv`);
      writeFileSync(file, ['email,auth_group', ...Array.from({ length: ROWS }, (_, i) => `p${i}-${who}-${run}@bench-network.example,3`)].join('\n') + '\n');
      return file;
    };
    const cases = {
      'json floor, 1 page, no gzip': () => [floor, 'export', first, TOKEN, 'json', '0', '1'],
      'json floor, gzip': () => [floor, 'export', first, TOKEN, 'json', '1', '1'],
      'json floor, gzip, 4 in flight': () => [floor, 'export', first, TOKEN, 'json', '1', '4'],
      'json sct': () => [bin, 'orders', 'list', '--buying', '--all', '-o', 'json'],
      'csv floor, gzip, 4 in flight': () => [floor, 'export', first, TOKEN, 'csv', '1', '4', header],
      'csv sct': () => [bin, 'orders', 'list', '--buying', '--all', '-o', 'csv'],
      'bulk floor, 4 in flight': (run) => [floor, 'bulk', url, TOKEN, people(run, 'floor'), '4'],
      'bulk floor, gzip, 4 in flight': (run) => [floor, 'bulk', url, TOKEN, people(run, 'floor-gzip'), '4', '1'],
      // Not the target's floor: what sct's own GET /accounts/me (the identity its
      // Idempotency-Keys derive from) costs on top of it, for reading the figure.
      'bulk floor, gzip, 4 in flight, me first': (run) => [floor, 'bulk', url, TOKEN, people(run, 'floor-me'), '4', '1', '1'],
      'bulk sct': (run) => [bin, 'invitations', 'bulk-create', '--file', people(run, 'sct')],
      // One request over the link: sct opens its connection as it starts (src/cli/early-connection.ts).
      'one-request floor (node:http script)': () => ['-e', `require('http').get(process.argv[1] + '/orders/1', { headers: { authorization: 'Bearer ${TOKEN}', accept: 'application/json' } }, (r) => r.pipe(process.stdout))`, url],
      'one-request sct (orders get 1)': () => [bin, 'orders', 'get', '1', '-o', 'json'],
    };
    if (before) {
      const old = join(before, 'bin', 'sct.js');
      cases['json sct before'] = () => [old, 'orders', 'list', '--buying', '--all', '-o', 'json'];
      cases['csv sct before'] = () => [old, 'orders', 'list', '--buying', '--all', '-o', 'csv'];
      cases['bulk sct before'] = (run) => [old, 'invitations', 'bulk-create', '--file', people(run, 'before')];
      cases['one-request sct before'] = () => [old, 'orders', 'get', '1', '-o', 'json'];
    }
    const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    for (let run = 0; run < runs; run++) {
      // Interleaved, and in turned order every other round: a busy moment hits every case alike.
      const names = run % 2 === 0 ? Object.keys(cases) : Object.keys(cases).reverse();
      for (const name of names) {
        // A single request is short and noisy: five of each in a round.
        for (let k = 0; k < (name.startsWith('one-request') ? 5 : 1); k++) {
          const r = await timed(cases[name](run), env, client);
          if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${r.stderr.slice(-1000)}`);
          samples[name].push(r.wall);
        }
      }
    }
    const m = (k) => median(samples[k]);
    const uptime = spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();
    const described = {
      netem: 'network namespaces joined by tc netem (delay 20ms rate 50mbit each way)',
      tun: `network namespaces joined by a userspace delay line between two TUN devices (bench/tunlink.py: +20 ms, 50 Mbit/s each way; ${why})`,
      proxy: `a throttling proxy in userspace on 127.0.0.1 (bench/throttle.mjs: +20 ms each way, 50 Mbit/s each way; ${why})`,
    };
    console.log(`\nNetwork: ${ORDERS.toLocaleString('en')} sandbox orders over ${described[kind]}`);
    if (checked) {
      const ping = checked.pingMs ? `ping ${checked.pingMs.toFixed(1)} ms, ` : 'no ping installed; ';
      console.log(`  link check: round trip ${ping}TCP connect ${checked.rttMs.toFixed(1)} ms (target 40 ms); ${(checked.bytes / 1e6).toFixed(0)} MB at ${checked.mbit.toFixed(1)} Mbit/s of TCP payload (link 50 Mbit/s, slow start included)`);
    }
    console.log(`  wall time, median of ${runs} interleaved run${runs === 1 ? '' : 's'} (one-request: of ${5 * runs}, five a round); ${uptime}`);
    const line = (k, base, target) => {
      const ratio = m(k) / m(base);
      console.log(`  ${k.padEnd(40)} ${(m(k) / 1000).toFixed(m(k) < 1000 ? 3 : 2).padStart(7)} s  ${ratio.toFixed(2)}× ${base === k ? '' : `of "${base}"`}${target ? ` (target ${target}×) ${ratio <= target ? 'ok' : 'MISSED'}` : ''}`);
    };
    const floor1 = 'json floor, 1 page, no gzip';
    for (const k of ['json floor, 1 page, no gzip', 'json floor, gzip', 'json floor, gzip, 4 in flight']) line(k, floor1);
    line('json sct', 'json floor, gzip, 4 in flight', 1.2);
    if (before) line('json sct before', 'json floor, gzip, 4 in flight');
    line('csv floor, gzip, 4 in flight', 'csv floor, gzip, 4 in flight');
    line('csv sct', 'csv floor, gzip, 4 in flight', 1.3);
    if (before) line('csv sct before', 'csv floor, gzip, 4 in flight');
    const bulkFloor = 'bulk floor, gzip, 4 in flight';
    line('bulk floor, 4 in flight', bulkFloor);
    line(bulkFloor, bulkFloor);
    line('bulk floor, gzip, 4 in flight, me first', bulkFloor);
    line('bulk sct', bulkFloor, 1.2);
    console.log(`  ${''.padEnd(40)} ${''.padStart(7)}    ${(m('bulk sct') / m('bulk floor, gzip, 4 in flight, me first')).toFixed(2)}× of "bulk floor, gzip, 4 in flight, me first"`);
    if (before) line('bulk sct before', bulkFloor);
    const oneFloor = 'one-request floor (node:http script)';
    line(oneFloor, oneFloor);
    line('one-request sct (orders get 1)', oneFloor, 1.3);
    if (before) line('one-request sct before', oneFloor);
  } finally {
    sb?.child.kill('SIGINT');
    await proxy?.close();
    counts = (await link?.close()) ?? '';
    rmSync(dir, { recursive: true, force: true });
  }
  if (counts) console.log(`  ${counts}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(join(root, 'dist', 'cli.cjs'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const runs = arg('--runs');
  await networkBench({ quick: process.argv.includes('--quick'), runs: runs ? Number(runs) : undefined, before: arg('--before') });
}
