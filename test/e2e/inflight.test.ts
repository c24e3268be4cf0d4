// Writes in flight: bulk runs send up to --concurrency requests at a time, and never spend the
// hour's request budget faster than one at a time would. The sandbox logs, for every request,
// how many /api requests it was handling when that one arrived (`inFlight`).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { until, useSandbox } from '../helpers/sandbox.js';
import { sctFor } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';
import { startSandbox } from '../../src/sandbox/server.js';

/** A file of `n` purchase orders with ids `tag-1`…, in the columns of `orders import`. */
async function ordersCsv(t: ReturnType<typeof useSandbox>, tag: string, n: number): Promise<{ file: string; ids: string[] }> {
  const product = (await t.api('/products?limit=1')).results[0].id;
  const ids = Array.from({ length: n }, (_, i) => `${tag}-${i + 1}`);
  const lines = ['external_id,type,order_created_at,seller_company_id,product,volume,unit', ...ids.map((id, i) => `${id},order,2025-06-01,101,${product},${i + 1},kg`)];
  return { file: t.writeFile(`${tag}.csv`, lines.join('\n') + '\n'), ids };
}

const peopleCsv = (t: ReturnType<typeof useSandbox>, tag: string, n: number) =>
  t.writeFile(`${tag}.csv`, ['email,auth_group', ...Array.from({ length: n }, (_, i) => `${tag}${i}@inflight.example,3`)].join('\n') + '\n');

const writes = (t: ReturnType<typeof useSandbox>) => t.sb.requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');
const mostInFlight = (t: ReturnType<typeof useSandbox>) => Math.max(0, ...writes(t).map((r) => r.inFlight));

describe('a budget that covers the run: up to --concurrency requests in flight', () => {
  const t = useSandbox({}, { inProcess: true });

  it('orders import --concurrency 4 keeps four orders in flight, and one at a time with --concurrency 1', async () => {
    const { file } = await ordersCsv(t, 'WIDE', 16);
    t.sb.setFaults({ latencyMs: 60, methods: ['POST'] });
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '4']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(mostInFlight(t)).toBe(4);

    t.sb.requests.length = 0;
    const { file: other } = await ordersCsv(t, 'NARROW', 6);
    const one = await t.sct(['orders', 'import', '--purchase', '--file', other, '--concurrency', '1']);
    expect(one.exitCode, one.stderr).toBe(0);
    expect(mostInFlight(t)).toBe(1);
  });

  it('invitations bulk-create sends its chunks four at a time by default', async () => {
    const file = peopleCsv(t, 'wide', 800);
    t.sb.setFaults({ latencyMs: 100, methods: ['POST'] });
    const r = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes(t)).toHaveLength(8);
    expect(mostInFlight(t)).toBe(4);
  });
});

describe('answers in any order, reported in the file\'s order', () => {
  const t = useSandbox({ seed: 20 });
  const posts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/orders/purchase');
  const keyOf = (r: { headers: Record<string, unknown>; body: string }) => [JSON.parse(r.body).external_id as string, String(r.headers['idempotency-key'])] as const;
  async function countsOf(ids: string[]): Promise<number[]> {
    const list = { results: await t.ordersWith(ids) };
    return ids.map((id) => (list.results as Array<{ external_id: string }>).filter((o) => o.external_id === id).length);
  }

  it('503s retried out of turn at --concurrency 4: stdout, the report and the summary follow the file', { timeout: 60_000 }, async () => {
    const { file, ids } = await ordersCsv(t, 'ORDER', 24);
    // Two rows the service refuses (their external_id is taken), far apart, so the summary lists them in file order too.
    const text = readFileSync(file, 'utf8').split('\n');
    const taken = await t.sct(['orders', 'import', '--purchase', '--file', t.writeFile('taken.csv', [text[0], text[6], text[20]].join('\n') + '\n')]);
    expect(taken.exitCode, taken.stderr).toBe(0);
    t.sb.requests.length = 0;
    const report = join(t.dir, 'report.csv');
    t.sb.setFaults({ failureRate: 0.3, methods: ['POST'] });
    const r = await t.sctBin(['orders', 'import', '--purchase', '--file', file, '--concurrency', '4', '--report', report, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    // Some answers did come out of turn: the POSTs of the rows did not all arrive in file order.
    const arrived = posts().filter((p) => p.status !== 503).map((p) => keyOf(p)[0]);
    expect(arrived).not.toEqual([...arrived].sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1])));
    const rows = JSON.parse(r.stdout) as Array<{ key: string; lines: number[]; status: string }>;
    expect(rows.map((x) => x.key)).toEqual(ids);
    expect(rows.map((x) => x.lines[0])).toEqual(ids.map((_, i) => i + 2));
    expect(rows.filter((x) => x.status === 'rejected').map((x) => x.key)).toEqual(['ORDER-6', 'ORDER-20']);
    const csv = parse(readFileSync(report), { columns: true }) as Array<{ key: string }>;
    expect(csv.map((x) => x.key)).toEqual(ids);
    expect(r.stderr).toContain('purchase orders: 22 created, 2 rejected');
    expect(r.stderr).toMatch(/line 7 \(ORDER-6\):[^\n]*\n\s+line 21 \(ORDER-20\):/);
  });

  it('kill -9 with four orders in flight: the rerun resends them under their keys, creates nothing twice, reports in file order', { timeout: 60_000 }, async () => {
    const { file, ids } = await ordersCsv(t, 'KILL', 20);
    // Slow answers: once the sixth order has reached the service, four are in flight.
    t.sb.setFaults({ latencyMs: 400, methods: ['POST'] });
    const child = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '4']);
    await until(() => posts().length >= 6 || child.exitCode !== null, 'six orders sent', 30_000);
    child.kill('SIGKILL');
    await child.catch(() => undefined);
    // The service finishes what reached it: those orders exist, their answers went nowhere.
    await new Promise((r) => setTimeout(r, 600));
    t.sb.setFaults({});
    const firstKeys = new Map(posts().map((p) => keyOf(p)));
    expect(firstKeys.size).toBeGreaterThanOrEqual(6);
    t.sb.requests.length = 0;

    const rerun = await t.sct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '4', '-o', 'json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const rows = JSON.parse(rerun.stdout) as Array<{ key: string; status: string }>;
    expect(rows.map((x) => x.key)).toEqual(ids);
    const skipped = rows.filter((x) => x.status === 'skipped').map((x) => x.key);
    expect(skipped.length).toBeGreaterThan(0);
    // Every order the killed run sent without a journal record goes again, under the same key.
    const resent = posts().map((p) => keyOf(p)).filter(([id]) => firstKeys.has(id));
    expect(resent.length).toBe(firstKeys.size - skipped.length);
    for (const [id, key] of resent) expect(key, id).toBe(firstKeys.get(id));
    expect(await countsOf(ids)).toEqual(ids.map(() => 1));
  });
});

describe('the budget: with fewer requests left than --concurrency, one at a time', () => {
  // Six requests a second: X-RateLimit-Remaining is always below the eight in flight asked for.
  const t = useSandbox({ rateLimit: 6, rateLimitWindowSeconds: 1 }, { inProcess: true });

  const cases: Array<[string, () => Promise<string[]>]> = [
    ['orders import', async () => ['orders', 'import', '--purchase', '--file', (await ordersCsv(t, 'BUDGET', 14)).file]],
    ['orders sync', async () => ['orders', 'sync', '--purchase', '--yes', '--file', (await ordersCsv(t, 'SYNCED', 10)).file]],
    ['invitations bulk-create', async () => ['invitations', 'bulk-create', '--file', peopleCsv(t, 'budget', 700)]],
  ];
  for (const [name, argsOf] of cases) {
    it(`${name} --concurrency 8: never more than one write in flight, never a 429`, { timeout: 60_000 }, async () => {
      const args = await argsOf();
      t.sb.requests.length = 0;
      t.sb.setFaults({ latencyMs: 30, methods: ['POST', 'PATCH'] });
      const r = await t.sct([...args, '--concurrency', '8']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(writes(t).length).toBeGreaterThan(6);
      expect(writes(t).map((w) => w.inFlight)).toEqual(writes(t).map(() => 1));
      // A run's first request cannot know the budget an earlier run left (it may meet a 429 and
      // wait); every write is sent knowing it.
      expect(writes(t).filter((x) => x.status === 429)).toEqual([]);
    });
  }
});

describe('the budget running out under --concurrency 4', () => {
  // Six requests in a window that outlasts the run: the answers to the first requests in flight
  // come back in any order (a 0 before a 1); the run stops at the 0, never provokes a 429.
  const t = useSandbox({ rateLimit: 6, rateLimitWindowSeconds: 3600 }, { inProcess: true });

  it('origins import of 10 rows: the rows the budget allows, then not_sent past --max-wait, no 429', { timeout: 60_000 }, async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `R${i},CI,RL-${i},6.1,-5.1`);
    const file = t.writeFile('budget-origins.csv', ['name,country_code,external_id,latitude,longitude', ...rows].join('\n') + '\n');
    t.sb.setFaults({ latencyMs: 30, methods: ['POST'] });
    const r = await t.sct(['origins', 'import', '--file', file, '--max-wait', '1s']);
    expect(r.exitCode).toBe(1);
    expect(t.sb.requests.filter((x) => x.status === 429)).toEqual([]);
    expect(r.stderr).toMatch(/not sent/);
  });

  it("origins sync, whose read right before each create may spend the budget's last request: the create waits, never sent into a 429", { timeout: 60_000 }, async () => {
    for (const [concurrency, budget] of [['1', 11], ['1', 12], ['4', 11], ['4', 12]] as const) {
      // A budget for the plan's reads and a few creates, each with its read: it ends mid-run, on a
      // read (11: the plan's 3, four pairs, a read) or on a create.
      const small = await startSandbox({ port: 0, rateLimit: budget });
      try {
        const rows = Array.from({ length: 10 }, (_, i) => `S${i},CI,RLS-${concurrency}-${budget}-${i},6.1,-5.1`);
        const file = t.writeFile(`budget-sync-${concurrency}-${budget}.csv`, ['name,country_code,external_id,latitude,longitude', ...rows].join('\n') + '\n');
        const r = await sctFor(small.url, OWNER, t.dir)(['origins', 'sync', '--file', file, '--yes', '--concurrency', concurrency, '--max-wait', '1s']);
        expect(r.exitCode, r.stderr).toBe(1);
        expect(small.requests.some((x) => x.method === 'POST' && x.status === 201), r.stderr).toBe(true);
        expect(small.requests.filter((x) => x.status === 429).map((x) => `${x.method} ${x.path}`), r.stderr).toEqual([]);
      } finally {
        await small.close();
      }
    }
  });
});

describe('--concurrency: a whole number 1..16 on every bulk command', () => {
  const t = useSandbox({}, { inProcess: true });

  it('at 16, the most, a run says nothing of its own listeners (no Node warning mid-run)', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => `M${i},CI,MAXL-${i},6.1,-5.1`);
    const file = t.writeFile('sixteen.csv', ['name,country_code,external_id,latitude,longitude', ...rows].join('\n') + '\n');
    t.sb.setFaults({ latencyMs: 100, methods: ['POST'] });
    try {
      // As a process of its own: Node's warnings go to its stderr.
      const r = await sctFor(t.sb.url, OWNER, t.dir)(['origins', 'import', '--file', file, '--concurrency', '16']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    } finally {
      t.sb.setFaults({});
    }
  });

  it('anything else is exit 2, naming the flag, before the file is read or anything sent', async () => {
    const files = {
      orders: t.writeFile('orders.csv', 'external_id,type,order_created_at,seller_company_id,product,volume,unit\nV-1,order,2025-06-01,101,1,1,kg\n'),
      origins: t.writeFile('origins.csv', 'name,country_code,external_id\nFarm,CI,V-1\n'),
      people: t.writeFile('people.csv', 'email,auth_group\nv@inflight.example,member\n'),
      pairs: t.writeFile('pairs.csv', 'dds_id,order_id\n1,1\n'),
      requests: t.writeFile('requests.csv', 'order_id\n1\n'),
    };
    const commands = [
      ['orders', 'import', '--purchase', '--file', files.orders],
      ['orders', 'sync', '--purchase', '--yes', '--file', files.orders],
      ['origins', 'import', '--file', files.origins],
      ['origins', 'sync', '--yes', '--file', files.origins],
      ['invitations', 'bulk-create', '--file', files.people],
      ['dds', 'trace', '--file', files.pairs],
      ['info-requests', 'send', '--file', files.requests],
    ];
    const cases: Array<[string[], RegExp]> = [];
    for (const args of commands) {
      for (const bad of ['0', '17', '-1', '2.5', 'four', '']) {
        cases.push([[...args, '--concurrency', bad], /invalid --concurrency .*(expected 1\.\.16|expected a whole number)/]);
      }
    }
    await t.expectUsageErrors(cases, { inProcess: true });
  });
});
