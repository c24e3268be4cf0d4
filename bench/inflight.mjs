// Writes in flight (`node bench/inflight.mjs [--latency MS] [--runs N]`): the wall time of
// `sct invitations bulk-create` of 2,000 rows (20 requests of 100) at --concurrency 1 and 4,
// against `sct sandbox --latency MS` in its own process, which stands in for a service far away
// (default 100 ms per answer). A fresh sandbox per run (one pending invitation per address);
// runs interleaved, medians compared.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from '../scripts/sandbox-process.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sct.js');
const ROWS = 2_000;
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const latency = arg('--latency', 100);
const runs = arg('--runs', 3);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function run(file, concurrency, dir) {
  const sb = await startSandboxProcess(['--rate-limit', '1000000', '--latency', String(latency)]);
  const config = mkdtempSync(join(dir, 'config-'));
  try {
    const env = { ...process.env, SCT_CONFIG_DIR: config, SCT_BASE_URL: sb.url, SCT_TOKEN: 'sct_demo_owner_cacao', NO_COLOR: '1' };
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [bin, 'invitations', 'bulk-create', '--file', file, '--concurrency', String(concurrency)], { env, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr.slice(-2000)}`);
    return ms;
  } finally {
    sb.child.kill('SIGINT');
  }
}

if (!existsSync(join(root, 'dist', 'cli.js'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
const dir = mkdtempSync(join(tmpdir(), 'sct-bench-inflight-'));
try {
  const file = join(dir, 'people.csv');
  writeFileSync(file, ['email,auth_group', ...Array.from({ length: ROWS }, (_, i) => `p${i}@bench-inflight.example,3`)].join('\n') + '\n');
  const samples = { 1: [], 4: [] };
  for (let i = 0; i < runs; i++) for (const c of [1, 4]) samples[c].push(await run(file, c, dir));
  console.log(`invitations bulk-create, ${ROWS.toLocaleString('en')} rows in ${ROWS / 100} requests, sandbox latency ${latency} ms (median of ${runs}, wall time of the sct process)`);
  for (const c of [1, 4]) console.log(`  --concurrency ${c}  ${median(samples[c]).toFixed(0).padStart(6)} ms   (${samples[c].map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  speed-up ${(median(samples[1]) / median(samples[4])).toFixed(2)}×`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
