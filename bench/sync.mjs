// The sync benchmark (`npm run bench` runs it last; `node bench/sync.mjs [--quick]` alone):
// `sct orders sync --purchase` of a 10,000-order file — 1 % new, 1 % changed, the rest as the
// service holds them — against a sandbox of 100,000 orders (50,000 with --quick).
//
// Reported: the requests sct used against the target (ceil(orders on the side / 1000, the
// sandbox's largest page) reads + exactly the writes; a run that applies also asks
// GET /accounts/me once, whose user and workspace the journal belongs to), the wall time of
// the plan (--dry-run), of the run that applies it and of a second run (which must write
// nothing), and sct's CPU: reading (HTTP, JSON, snapshots) and planning (matching and diffing,
// target ≤ 2 s), measured inside sct (SCT_SYNC_PROFILE=1), and the whole process's CPU and
// peak RSS (GNU time, when /usr/bin/time exists).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from '../scripts/sandbox-process.mjs';
import { call } from './call.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sct.js');
const TOKEN = 'sct_demo_owner_cacao';
// The file is built from what another token of the company reads: none of sct's budget is spent.
const READER = 'sct_demo_admin_cacao';
const FILE_ORDERS = 10_000;
const PAGE = 1000;

/** The company's purchase orders, as `orders sync --purchase` manages them, in id order. */
async function purchases(sb) {
  const out = [];
  let side = 0;
  for (let offset = 0; ; offset += PAGE) {
    const page = await call('GET', `${sb.url}/orders?order_action=buying&ordering=id&limit=${PAGE}&offset=${offset}`, { authorization: `Bearer ${READER}` });
    side = page.count;
    for (const o of page.results) {
      if (o.company_id === o.buyer_company_id && o.seller_company_id !== o.buyer_company_id) {
        out.push({
          external_id: o.external_id,
          type: o.type,
          order_created_at: o.order_created_at,
          order_arrival_at: o.order_arrival_at,
          buyer_company_status: o.buyer_company_status,
          seller_company_id: o.seller_company_id,
          tags: o.tags,
          signed_off_at: o.signed_off_at,
          border_cross_country_code: o.border_cross_country_code,
          items: o.items.map((i) => ({ product: i.buyer_product, volume: i.volume, unit: i.unit, line_number: i.line_number, external_id: i.external_id })),
        });
      }
    }
    if (!page.next) break;
  }
  return { side, orders: out };
}

const HEADER = 'external_id,type,order_created_at,order_arrival_at,buyer_company_status,seller_company_id,tags,signed_off_at,border_cross_country_code,product,volume,unit,line_number,item_external_id';

/** 9,900 orders as the service holds them (100 of them changed) and 100 new ones. */
function nightlyFile(orders, products) {
  const lines = [HEADER];
  const existing = orders.slice(0, FILE_ORDERS - FILE_ORDERS / 100);
  const changeEvery = Math.floor(existing.length / (FILE_ORDERS / 100));
  existing.forEach((o, n) => {
    const changed = n % changeEvery === 0 && n / changeEvery < FILE_ORDERS / 100;
    o.items.forEach((it, i) => {
      const order = i === 0 ? [o.external_id, o.type, o.order_created_at, o.order_arrival_at ?? '', o.buyer_company_status, o.seller_company_id ?? '', o.tags.join('|'), o.signed_off_at ?? '', o.border_cross_country_code ?? ''] : [o.external_id, '', '', '', '', '', '', '', ''];
      // A changed order: one item's volume, as an ERP's correction would.
      const volume = changed && i === 0 ? it.volume + 1 : it.volume;
      lines.push([...order, it.product ?? '', volume, it.unit, it.line_number, it.external_id].join(','));
    });
  });
  for (let n = 0; n < FILE_ORDERS / 100; n++) {
    lines.push([`BENCH-NEW-${n}`, 'order', '2025-06-01', '', 'draft', 101, 'eudr', '', 'BE', products[n % products.length], 100 + n, 'kg', 1, ''].join(','));
  }
  return lines.join('\n') + '\n';
}

function runSct(args, env) {
  const gnuTime = existsSync('/usr/bin/time');
  const started = process.hrtime.bigint();
  const r = gnuTime
    ? spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', process.execPath, bin, ...args], { env, encoding: 'utf8', maxBuffer: 256 << 20 })
    : spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', maxBuffer: 256 << 20 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const time = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  const profile = /sync profile: read ([\d.]+) s CPU in (\d+) requests, plan ([\d.]+) s CPU/.exec(r.stderr);
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    wall,
    cpu: time ? Number(time[1]) + Number(time[2]) : undefined,
    rssMb: time ? Number(time[3]) / 1024 : undefined,
    readCpu: profile ? Number(profile[1]) : undefined,
    planCpu: profile ? Number(profile[3]) : undefined,
  };
}

async function requestsSince(sb) {
  const log = await call('GET', `${sb.origin}/_sandbox/requests`);
  await call('DELETE', `${sb.origin}/_sandbox/requests`);
  // The log is emptied before each run and only sct makes requests during one (the sandbox masks
  // every token in its log alike, so the token cannot tell them apart).
  const mine = log;
  const count = (method, test) => mine.filter((q) => q.method === method && test(q.path)).length;
  return {
    reads: count('GET', (p) => p === '/api/orders'),
    me: count('GET', (p) => p === '/api/accounts/me'),
    // Each order to update is read again just before its PATCH (a colleague may have changed it).
    rereads: count('GET', (p) => /^\/api\/orders\/\d+\/?$/.test(p)),
    posts: count('POST', () => true),
    patches: count('PATCH', () => true),
    all: mine.length,
  };
}

export async function syncBench({ quick = false } = {}) {
  const size = quick ? 50_000 : 100_000;
  const sb = await startSandboxProcess(['--orders', String(size)]);
  const config = mkdtempSync(join(tmpdir(), 'sct-bench-sync-'));
  try {
    const { side, orders } = await purchases(sb);
    const products = (await call('GET', `${sb.url}/products?limit=5`, { authorization: `Bearer ${READER}` })).results.map((p) => p.id);
    if (orders.length < FILE_ORDERS) throw new Error(`only ${orders.length} purchase orders on the sandbox; ${FILE_ORDERS} are needed`);
    const file = join(config, 'erp-purchases.csv');
    writeFileSync(file, nightlyFile(orders, products));
    await call('DELETE', `${sb.origin}/_sandbox/requests`);
    const env = { ...process.env, SCT_CONFIG_DIR: config, SCT_BASE_URL: sb.url, SCT_TOKEN: TOKEN, NO_COLOR: '1', CI: 'true', SCT_SYNC_PROFILE: '1' };
    const args = ['orders', 'sync', '--purchase', '--file', file];
    const readTarget = Math.ceil(side / PAGE);
    const writeTarget = 2 * (FILE_ORDERS / 100);

    const plan = runSct([...args, '--dry-run', '-o', 'json'], env);
    if (plan.status !== 0) throw new Error(`sync --dry-run exited ${plan.status}: ${plan.stderr}`);
    const planned = JSON.parse(plan.stdout);
    const planReq = await requestsSince(sb);
    const apply = runSct([...args, '--yes', '-o', 'json'], env);
    if (apply.status !== 0) throw new Error(`sync --yes exited ${apply.status}: ${apply.stderr}`);
    const applyReq = await requestsSince(sb);
    const again = runSct([...args, '--yes', '-o', 'json'], env);
    if (again.status !== 0) throw new Error(`second sync exited ${again.status}: ${again.stderr}`);
    const againReq = await requestsSince(sb);

    const s = (x) => (x === undefined ? '   n/a' : `${x.toFixed(2).padStart(6)} s`);
    const mb = (x) => (x === undefined ? 'n/a' : `${x.toFixed(0)} MB`);
    const ok = (good) => (good ? 'ok' : 'MISSED');
    console.log(`\nSync: sct orders sync --purchase, a ${FILE_ORDERS.toLocaleString('en')}-order file (1 % new, 1 % changed) against ${size.toLocaleString('en')} sandbox orders`);
    console.log(`  ${side} orders on the buying side (${orders.length} of them the company's purchases); reads target ceil(${side} / ${PAGE}) = ${readTarget}, writes target ${writeTarget}`);
    console.log(`  plan: ${planned.create.length} create, ${planned.update.length} update, ${planned.unchanged.length} unchanged, ${planned.only_on_service.length} only on the service  ${ok(planned.create.length === 100 && planned.update.length === 100)}`);
    console.log(`  run                 wall      ${'requests (target)'.padEnd(88)} read CPU   plan CPU   process CPU  peak RSS`);
    const row = (name, r, req, target, good) =>
      console.log(
        `  ${name.padEnd(18)} ${s(r.wall)}  ${`${req.reads} reads + ${req.me} me + ${req.rereads} re-reads + ${req.posts} POST + ${req.patches} PATCH (${target})`.padEnd(88)} ${s(r.readCpu)}  ${s(r.planCpu)}  ${s(r.cpu)}    ${mb(r.rssMb)}  ${ok(good)}`,
      );
    row('--dry-run', plan, planReq, `${readTarget} + 0`, planReq.reads === readTarget && planReq.all === readTarget && (plan.planCpu ?? 0) <= 2);
    const updates = writeTarget / 2;
    row('--yes', apply, applyReq, `${readTarget} + 1 + ${writeTarget} + ${updates} re-reads`, applyReq.reads === readTarget && applyReq.rereads === updates && applyReq.posts + applyReq.patches === writeTarget && applyReq.all === readTarget + 1 + writeTarget + updates);
    row('second --yes', again, againReq, `${readTarget} + 1 + 0`, againReq.posts + againReq.patches === 0);
    console.log(`  planning CPU (matching and diffing ${FILE_ORDERS} orders): ${plan.planCpu?.toFixed(3)} s (target ≤ 2 s) ${ok((plan.planCpu ?? 99) <= 2)}`);
  } finally {
    sb.child.kill('SIGINT');
    rmSync(config, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(join(root, 'dist', 'cli.cjs'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  await syncBench({ quick: process.argv.includes('--quick') });
}
