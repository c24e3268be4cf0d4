// sct orders sync and origins sync against the sandbox: the plan of a file with new, changed,
// identical and missing objects (--dry-run sends no write), --yes sending exactly the creates
// and PATCHes of only the changed fields, a second sync sending nothing, empty cells changing
// nothing, the confirmation at a terminal, a plan larger than the rate budget, and kill -9 /
// Ctrl-C at seeded points with reruns until the service equals the file, every order once.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { until, useSandbox } from '../helpers/sandbox.js';
import { rng } from '../helpers/random.js';
import { ADMIN, MULTI, OWNER } from '../sandbox/helpers.js';
import type { Prompter } from '../../src/prompt.js';
import { InterruptedError } from '../../src/errors.js';

const t = useSandbox({ rateLimit: 100_000 }, { inProcess: true });
let products: number[];

beforeAll(async () => {
  products = (await t.api('/products?limit=3')).results.map((p: any) => p.id);
});

async function send(method: string, path: string, body: unknown): Promise<any> {
  const r = await fetch(t.sb.url + path, { method, headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

/** A purchase order on the service, as if created in the web app. */
function seedOrder(externalId: string, extra: Record<string, unknown> = {}): Promise<any> {
  return send('POST', '/orders/purchase', {
    type: 'order',
    external_id: externalId,
    order_created_at: '2025-03-01',
    seller_company_id: 101,
    buyer_company_status: 'draft',
    tags: ['eudr', 'organic'],
    signed_off_at: '2025-03-02T10:00:00Z',
    items: [
      { buyer_product: products[0], volume: 100, unit: 'kg', line_number: 1 },
      { buyer_product: products[1], volume: 5.5, unit: 't', line_number: 2 },
    ],
    ...extra,
  });
}

/** The company's purchase orders with these external ids, by external id (each a list: twice is a bug). */
async function ordersById(ids: string[]): Promise<Map<string, any[]>> {
  const list = { results: await t.ordersWith(ids) };
  const out = new Map<string, any[]>(ids.map((i) => [i, []]));
  for (const o of list.results) out.get(o.external_id)?.push(o);
  return out;
}

const writes = () => t.sb.requests.filter((q) => q.method === 'POST' || q.method === 'PATCH');
const HEADER = 'external_id,type,order_created_at,seller_company_id,buyer_company_status,tags,signed_off_at,product,volume,unit,line_number';

/** A file naming SAME (as on the service, written differently), CHANGED (status, one item) and NEW. */
function nightlyFile(p: string): string {
  const [a, b] = products;
  return t.writeFile(
    `${p}.csv`,
    [
      HEADER,
      `${p}-SAME,order,2025-03-01,101,draft,organic|eudr,2025-03-02T11:00:00+01:00,${a},100.0,kg,1`,
      `${p}-SAME,,,,,,,${b},5.50,t,2`,
      `${p}-CHANGED,order,2025-03-01,101,completed,eudr|organic,,${a},100,kg,1`,
      `${p}-CHANGED,,,,,,,${b},7,t,2`,
      `${p}-NEW,order,2025-04-01,102,,,,${a},1,kg,`,
    ].join('\n') + '\n',
  );
}

describe('orders sync', () => {
  it('plans create, update, unchanged and only on the service; --dry-run sends no write', async () => {
    const [same, changed, missing] = await Promise.all([seedOrder('DRY-SAME'), seedOrder('DRY-CHANGED'), seedOrder('DRY-MISSING')]);
    const file = nightlyFile('DRY');
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(Object.keys(plan)).toEqual(['create', 'update', 'unchanged', 'only_on_service', 'requests', 'reads', 'rate_limit']);
    expect(plan.create).toEqual([
      { external_id: 'DRY-NEW', lines: [6], body: { external_id: 'DRY-NEW', type: 'order', order_created_at: '2025-04-01', seller_company_id: 102, items: [{ buyer_product: products[0], volume: 1, unit: 'kg' }] } },
    ]);
    expect(plan.update).toEqual([
      {
        external_id: 'DRY-CHANGED',
        id: changed.id,
        lines: [4, 5],
        changes: [
          { field: 'buyer_company_status', old: 'draft', new: 'completed' },
          { field: 'items[line 2].volume', old: 5.5, new: 7 },
        ],
        body: { buyer_company_status: 'completed', items: [{ id: changed.items[0].id }, { id: changed.items[1].id, volume: 7 }] },
      },
    ]);
    expect(plan.unchanged).toEqual([{ external_id: 'DRY-SAME', id: same.id, lines: [2, 3] }]);
    expect(plan.only_on_service).toContainEqual({ external_id: 'DRY-MISSING', id: missing.id });
    // Orders the supplier recorded (its sales to this company) are not this sync's to list.
    expect(plan.only_on_service.every((o: any) => !String(o.external_id).startsWith('SO-'))).toBe(true);
    expect(plan.requests).toBe(2);
    expect(plan.reads).toBe(1);
    expect(plan.rate_limit.remaining).toBeGreaterThan(0);
    // One read of the whole side, in the largest pages, ordered by id; nothing else.
    expect(t.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/orders']);
    expect(t.queryOf()).toEqual({ order_action: 'buying', ordering: 'id', limit: '10000', offset: '0' });
    expect(r.stderr).toMatch(/plan for purchase orders: 1 to create, 1 to update, 1 unchanged, \d+ only on the service \(kept: sync never deletes\)/);
    // The reset an hour from now: with its date when that is past midnight.
    // The update's order is read again right before its PATCH: one request more.
    expect(r.stderr).toMatch(/cost: 2 writes \+ 1 read, and 1 read right before the writes; \d+ requests left this hour \(resets (\d{4}-\d\d-\d\d )?\d\d:\d\d\)/);

    // At a terminal-like table: each action, and `field: old → new` for the update.
    const table = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run']);
    expect(table.stdout).toMatch(/create\s+DRY-NEW\s+new, 1 item/);
    expect(table.stdout).toMatch(new RegExp(`update\\s+DRY-CHANGED\\s+${changed.id}\\s+buyer_company_status: draft → completed`));
    expect(table.stdout).toMatch(/items\[line 2\]\.volume: 5\.5 → 7/);
    expect(table.stdout).toMatch(/only on service/);
    // Into a pipe the table is not cut: every object only on the service has its line.
    const only = Number(/(\d+) only on the service/.exec(r.stderr)![1]);
    expect(only).toBeGreaterThan(20);
    expect(table.stdout.split('\n').filter((l) => l.startsWith('only on service'))).toHaveLength(only);
    expect(table.stderr).not.toContain('more only on the service');
    // NDJSON carries the lines as -o json does, an array; a CSV cell as "2 3".
    const nd = (await t.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run', '-o', 'ndjson'])).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(nd.find((x) => x.external_id === 'DRY-NEW').lines).toEqual(expect.arrayContaining([expect.any(Number)]));
    expect(writes()).toHaveLength(0);
  });

  it('--yes sends exactly the creates and PATCHes of the changed fields; a second sync sends nothing', async () => {
    const changed = await seedOrder('YES-CHANGED');
    await seedOrder('YES-SAME');
    const file = nightlyFile('YES');
    const report = join(t.dir, 'sync-report.csv');
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '--report', report, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    // Applying with -o json: stdout is the plan's object (step 3 of the spec), the results in it.
    const shown = JSON.parse(r.stdout);
    expect(shown.create.map((c: any) => c.external_id)).toEqual(['YES-NEW']);
    expect(shown.update.map((u: any) => [u.external_id, u.changes.map((c: any) => c.field)])).toEqual([['YES-CHANGED', ['buyer_company_status', 'items[line 2].volume']]]);
    expect(shown.unchanged.map((u: any) => u.external_id)).toEqual(['YES-SAME']);
    expect(shown).toMatchObject({ only_on_service: expect.any(Array), requests: 2 });
    const results = shown.results;
    // In the file's order, as every bulk run reports.
    expect(results.map((x: any) => [x.key, x.status, x.lines])).toEqual([
      ['YES-CHANGED', 'updated', [4, 5]],
      ['YES-NEW', 'created', [6]],
    ]);
    expect(r.stderr).toContain('purchase orders: 1 created, 1 updated, 0 rejected');
    // The changed order is read again right before its PATCH (it could have changed since the plan).
    expect(t.sb.requests.filter((q) => q.method === 'GET').map((q) => q.path)).toEqual(['/api/accounts/me', '/api/orders', `/api/orders/${changed.id}`]);
    expect(writes().map((q) => `${q.method} ${q.path}`).sort()).toEqual(['PATCH /api/orders/purchase/' + changed.id, 'POST /api/orders/purchase']);
    const post = writes().find((q) => q.method === 'POST')!;
    expect(post.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(post.body)).toEqual({ external_id: 'YES-NEW', type: 'order', order_created_at: '2025-04-01', seller_company_id: 102, items: [{ buyer_product: products[0], volume: 1, unit: 'kg' }] });
    const patch = writes().find((q) => q.method === 'PATCH')!;
    expect(JSON.parse(patch.body)).toEqual({ buyer_company_status: 'completed', items: [{ id: changed.items[0].id }, { id: changed.items[1].id, volume: 7 }] });
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => [x.key, x.status, x.id])).toEqual([
      ['YES-CHANGED', 'updated', String(changed.id)],
      ['YES-NEW', 'created', String(results[1].id)],
    ]);

    // The service now holds what the file says, and what the file left empty as it was.
    const after = (await ordersById(['YES-CHANGED'])).get('YES-CHANGED')![0];
    expect(after.buyer_company_status).toBe('completed');
    expect(after.signed_off_at).toBe('2025-03-02T10:00:00Z');
    expect(after.items.map((i: any) => [i.id, i.line_number, i.volume, i.unit])).toEqual([
      [changed.items[0].id, 1, 100, 'kg'],
      [changed.items[1].id, 2, 7, 't'],
    ]);

    t.sb.requests.length = 0;
    const again = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ create: [], update: [], requests: 0, results: [] });
    expect(again.stderr).toContain('nothing to do: the service matches');
    expect(again.stderr).toMatch(/0 to create, 0 to update, 3 unchanged/);
    expect(writes()).toHaveLength(0);
  });

  it('an update that adds an item is not sent again once it may have reached the service: unknown, and the rerun plans nothing', async () => {
    const order = await seedOrder('ADD-ITEM');
    const file = t.writeFile('add-item.csv', `external_id,product,volume,unit,line_number\nADD-ITEM,${products[0]},44,kg,3\n`);
    // The PATCH is carried out, its answer lost: sent again, the new item would be made twice
    // (or, where the service replaces the list, deleted and made anew under another id).
    t.sb.setFaults({ dropFirst: 1, dropAfterProcessing: true, methods: ['PATCH'] });
    t.sb.requests.length = 0;
    const r = await t.sctIn(['orders', 'sync', '--purchase', '--file', file, '--yes', '-o', 'json'], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(r.exitCode, r.stderr).toBe(1);
    expect(t.sb.requests.filter((q) => q.method === 'PATCH')).toHaveLength(1);
    expect(JSON.parse(r.stdout).results.map((x: any) => x.status)).toEqual(['unknown']);
    const after = (await t.api(`/orders/${order.id}`)).items.map((i: any) => i.line_number).sort();
    expect(after).toEqual([1, 2, 3]);
    const again = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 to create, 0 to update, 1 unchanged');

    // orders update --item, the same: its PATCH goes once.
    const [a, b, c] = (await t.api(`/orders/${order.id}`)).items.map((i: any) => i.id);
    t.sb.setFaults({ dropFirst: 1, dropAfterProcessing: true, methods: ['PATCH'] });
    t.sb.requests.length = 0;
    const update = await t.sctIn(['orders', 'update', String(order.id), '--purchase', '--item', `id=${a}`, '--item', `id=${b}`, '--item', `id=${c}`, '--item', `product=${products[1]},volume=2,unit=kg,line=4`], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(update.exitCode).toBe(1);
    expect(t.sb.requests.filter((q) => q.method === 'PATCH')).toHaveLength(1);
    expect((await t.api(`/orders/${order.id}`)).items.filter((i: any) => i.line_number === 4)).toHaveLength(1);
  });

  it('a create whose answer was lost and which a rerun finds on the service went through: deleted since, the next sync creates it under a new key, not the old one (whose replay answers with the deleted order)', async () => {
    const file = t.writeFile('lost-create.csv', `external_id,type,order_created_at,seller_company_id,product,volume,unit\nLOST-1,order,2025-03-01,101,${products[0]},9,kg\n`);
    // Carried out, every answer lost (the first try and its retries): unknown.
    t.sb.setFaults({ dropFirst: 10, dropAfterProcessing: true, methods: ['POST'] });
    const first = await t.sctIn(['orders', 'sync', '--purchase', '--file', file, '--yes', '-o', 'json'], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(first.exitCode, first.stderr).toBe(1);
    expect(JSON.parse(first.stdout).results.map((x: any) => x.status)).toEqual(['unknown']);
    const [made] = (await ordersById(['LOST-1'])).get('LOST-1')!;
    // The rerun finds it: nothing to write, and it says the earlier create went through.
    const again = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 to create, 0 to update, 1 unchanged');
    expect(again.stderr).toMatch(/1 purchase order an earlier run sent without learning the outcome is on the service: LOST-1 \(id \d+\)/);
    await send('DELETE', `/orders/${made.id}`, undefined).catch(() => undefined);
    expect((await ordersById(['LOST-1'])).get('LOST-1')).toEqual([]);
    const recreate = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '-o', 'json']);
    expect(recreate.exitCode, recreate.stderr).toBe(0);
    const [row] = JSON.parse(recreate.stdout).results;
    expect(row.status).toBe('created');
    expect(row.id).not.toBe(made.id);
    expect((await ordersById(['LOST-1'])).get('LOST-1')!.map((o) => o.id)).toEqual([row.id]);
  });

  it('a create whose answer was lost, deleted by a colleague before the rerun, is no "created" of the replayed answer: a conflict naming it, and the next rerun creates it under a new key', async () => {
    const file = t.writeFile('lost-deleted.csv', `external_id,type,order_created_at,seller_company_id,product,volume,unit\nLOST-2,order,2025-03-01,101,${products[0]},9,kg\n`);
    t.sb.setFaults({ dropFirst: 10, dropAfterProcessing: true, methods: ['POST'] });
    const first = await t.sctIn(['orders', 'sync', '--purchase', '--file', file, '--yes', '-o', 'json'], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(first.exitCode, first.stderr).toBe(1);
    const [made] = (await ordersById(['LOST-2'])).get('LOST-2')!;
    // The colleague deletes it before the rerun reads the service.
    await send('DELETE', `/orders/${made.id}`, undefined).catch(() => undefined);
    const again = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(3);
    const [row] = JSON.parse(again.stdout).results;
    expect(row.status).toBe('conflict');
    expect(row.error).toContain(`the earlier run created it (id ${made.id}), and it is no longer on the service`);
    expect((await ordersById(['LOST-2'])).get('LOST-2')).toEqual([]);
    const recreate = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '-o', 'json']);
    expect(recreate.exitCode, recreate.stderr).toBe(0);
    const [created] = JSON.parse(recreate.stdout).results;
    expect(created.status).toBe('created');
    expect((await ordersById(['LOST-2'])).get('LOST-2')!.map((o) => o.id)).toEqual([created.id]);
  });

  it('a signed_off_at without an offset is read in UTC whatever the zone sct runs in: the same plan in Los Angeles, Kiritimati and UTC', async () => {
    await seedOrder('TZ-1', { signed_off_at: '2025-12-23T09:00:00Z' });
    const file = t.writeFile('tz.csv', 'external_id,signed_off_at\nTZ-1,2025-12-23T09:00:00\n');
    for (const TZ of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati']) {
      const r = await t.sctBin(['orders', 'sync', '--purchase', '--file', file, '--dry-run'], { env: { TZ } });
      expect(r.exitCode, `${TZ}: ${r.stderr}`).toBe(0);
      expect(r.stderr, TZ).toMatch(/0 to create, 0 to update, 1 unchanged/);
    }
  });

  it('leaves a field alone when its cell is empty, and an order without item rows keeps its items', async () => {
    const before = await seedOrder('EMPTY-1', { border_cross_country_code: 'BE', order_arrival_at: '2025-03-09' });
    const file = t.writeFile(
      'empty.csv',
      `external_id,type,order_created_at,order_arrival_at,seller_company_id,buyer_company_status,border_cross_country_code,tags,signed_off_at,product,volume,unit,line_number
EMPTY-1,order,2025-03-01,,,,be,,,,,,\n`,
    );
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/0 to create, 0 to update, 1 unchanged/);
    expect(writes()).toHaveLength(0);
    const after = (await ordersById(['EMPTY-1'])).get('EMPTY-1')![0];
    expect(after.items).toHaveLength(2);
    expect(after.updated_at).toBe(before.updated_at);
  });

  it('asks at a terminal before writing; no answers no; without a terminal and --yes it stops after the plan (exit 2)', async () => {
    await Promise.all([seedOrder('ASK-CHANGED'), seedOrder('ASK-SAME')]);
    const file = nightlyFile('ASK');
    const asked: string[] = [];
    const prompter = (answer: boolean) =>
      ({
        confirm: async (message: string) => {
          asked.push(message);
          return answer;
        },
      }) as unknown as Prompter;

    t.sb.requests.length = 0;
    const noTerminal = await t.sct(['orders', 'sync', '--purchase', '--file', file]);
    expect(noTerminal.exitCode).toBe(2);
    expect(noTerminal.stdout).toMatch(/update\s+ASK-CHANGED/);
    expect(noTerminal.stderr).toContain('Apply the plan (create 1 and update 1): confirm with --yes (no terminal to ask on)');

    const declined = await t.sctIn(['orders', 'sync', '--purchase', '--file', file], { tty: true, prompter: prompter(false), env: { CI: undefined } });
    expect(declined.exitCode, declined.stderr).toBe(2);
    expect(declined.stderr).toContain('cancelled: nothing was sent');
    expect(asked).toEqual(['Apply the plan (create 1 and update 1)?']);
    expect(writes()).toHaveLength(0);

    // Ctrl-C at the question: nothing was sent, and the run says so of every row, as a stop during
    // the reads does (its report, its summary, its rerun hint; -o json the plan with `results`).
    const report = join(t.dir, 'asked-report.csv');
    const stopped = await t.sctIn(['orders', 'sync', '--purchase', '--file', file, '--report', report, '-o', 'json'], {
      tty: true,
      prompter: { confirm: () => Promise.reject(new InterruptedError()) } as unknown as Prompter,
      env: { CI: undefined },
    });
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/purchase orders: 0 created, 0 rejected, \d+ not sent — report in /);
    expect(stopped.stderr).toContain('to continue, rerun');
    const doc = JSON.parse(stopped.stdout);
    expect(doc.update.map((u: { external_id: string }) => u.external_id)).toEqual(['ASK-CHANGED']);
    expect(doc.results.every((r: { status: string }) => r.status === 'not_sent')).toBe(true);
    expect(readFileSync(report, 'utf8')).toMatch(/,ASK-CHANGED,not_sent,/);
    expect(writes()).toHaveLength(0);

    const accepted = await t.sctIn(['orders', 'sync', '--purchase', '--file', file], { tty: true, prompter: prompter(true), env: { CI: undefined } });
    expect(accepted.exitCode, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/update\s+ASK-CHANGED/);
    expect(accepted.stdout).toMatch(/ASK-CHANGED\s+updated/);
    expect(writes().map((q) => q.method).sort()).toEqual(['PATCH', 'POST']);
  });

  it('a workspace switched elsewhere while the plan waited for its answer: nothing is sent, and both workspaces are named', async () => {
    const env = { SCT_TOKEN: MULTI, CI: undefined };
    const file = t.writeFile('switched.csv', 'external_id,name,country_code,latitude,longitude\nSWITCH-NEW-1,New farm,CI,6.123456,-5.123456\n');
    const switchTo = (company: number) =>
      fetch(`${t.sb.url}/accounts/workspaces/switch`, { method: 'POST', headers: { Authorization: `Bearer ${MULTI}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ company_id: company }) });
    await switchTo(1);
    try {
      const prompter = { confirm: async () => (await switchTo(3), true) } as unknown as Prompter;
      t.sb.requests.length = 0;
      const r = await t.sctIn(['origins', 'sync', '--file', file], { tty: true, prompter, env });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('the service now acts in workspace 3, not 1 as when the plan was made (switched elsewhere meanwhile): nothing was sent');
      expect(r.stderr).toContain('sct workspaces switch 1');
      expect(writes().filter((q) => !q.path.includes('/workspaces/switch'))).toHaveLength(0);
    } finally {
      await switchTo(1);
    }
  });

  it('refuses a file a sync cannot match before sending anything', async () => {
    const twoLines = t.writeFile('twolines.csv', `external_id,type,order_created_at,product,line_number\nL-1,order,2025-01-01,${products[0]},1\nL-1,,,${products[1]},1\n`);
    const noId = t.writeFile('noid.csv', 'name,country_code\nFarm,CI\n');
    const noIdCell = t.writeFile('noidcell.csv', 'name,country_code,external_id\nFarm,CI,\n');
    const plots = t.writeFile('plots.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Farm', country_code: 'CI' }, geometry: { type: 'Point', coordinates: [-5.951234, 6.131234] } }] }));
    await t.expectUsageErrors([
      [['orders', 'sync', '--purchase', '--file', twoLines, '--yes'], 'line 3, line_number: 1 is also the line number of line 2 of order L-1'],
      [['orders', 'sync', '--file', twoLines], 'one of --purchase, --sale or --batch is required'],
      [['origins', 'sync', '--file', noId, '--yes'], 'missing column external_id'],
      [['origins', 'sync', '--file', noIdCell, '--yes'], 'line 2, external_id: required: a sync matches each row with an origin by its external_id'],
      [['origins', 'sync', '--file', plots, '--dry-run'], 'feature 1, external_id: required: a sync matches each feature with an origin by its external_id'],
    ]);
  });
});

describe('origins sync', () => {
  it('a file saved in a code page that lacks some letters (each a "?") is refused rather than synced over the service: exit 2, nothing written; a "?" typed where the service has no letter to lose is planned', async () => {
    const lost = await send('POST', '/origins', { name: 'Farm Phạm 16 (Đắk Lắk)', country_code: 'VN', external_id: 'OS-CP1252', description: 'Café Nguyễn', location: { type: 'Point', coordinates: [108.05, 12.67] } });
    const kept = await send('POST', '/origins', { name: 'Farm Kept', country_code: 'CI', external_id: 'OS-ASKED', location: { type: 'Point', coordinates: [-5.95, 6.13] } });
    const file = t.writeFile('origins-cp1252.csv', `external_id,name,country_code,description\nOS-CP1252,Farm Ph?m 16 (??k L?k),VN,Café Nguy?n\nOS-ASKED,Farm Kept?,CI,\n`);
    t.sb.requests.length = 0;
    const r = await t.sct(['origins', 'sync', '--file', file, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(2);
    // No plan on stdout, as for any invalid row: a script would take a plan without the row for the whole.
    expect((await t.sct(['origins', 'sync', '--file', file, '--dry-run', '-o', 'json'])).stdout).toBe('');
    expect(r.stderr).toContain('line 2, name: "Farm Ph?m 16 (??k L?k)" has "?" where the service has "Farm Phạm 16 (Đắk Lắk)": the file was saved in an encoding without those letters');
    expect(r.stderr).toContain('line 2, description: "Café Nguy?n" has "?" where the service has "Café Nguyễn"');
    expect(r.stderr).toContain('save it as UTF-8');
    const skipped = await t.sct(['origins', 'sync', '--file', file, '--yes', '--skip-invalid', '-o', 'json']);
    expect(skipped.exitCode, skipped.stderr).toBe(3);
    expect(JSON.parse(skipped.stdout).update.map((u: any) => u.external_id)).toEqual(['OS-ASKED']);
    expect((await t.api(`/origins/${lost.id}`)).name).toBe('Farm Phạm 16 (Đắk Lắk)');
    expect((await t.api(`/origins/${kept.id}`)).name).toBe('Farm Kept?');

    // Text the service holds decomposed (NFD): an encoder writes a "?" for each accent it cannot map.
    const nfd = await send('POST', '/origins', { name: 'Farm Trần (Đắk Lắk)'.normalize('NFD'), country_code: 'VN', external_id: 'OS-NFD', location: { type: 'Point', coordinates: [108.05, 12.67] } });
    const spoilt = Buffer.from('Farm Trần (Đắk Lắk)'.normalize('NFD'), 'utf8').toString('utf8').replace(/[^\x00-\xff]/gu, '?');
    const nfdFile = t.writeFile('origins-nfd.csv', `external_id,name\nOS-NFD,${spoilt}\n`);
    const refused = await t.sct(['origins', 'sync', '--file', nfdFile, '--dry-run']);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`line 2, name: ${JSON.stringify(spoilt)} has "?" where the service has`);
    expect((await t.api(`/origins/${nfd.id}`)).name).toBe('Farm Trần (Đắk Lắk)'.normalize('NFD'));
  });

  it('a list (tags) a code page spoilt is refused as a text is', async () => {
    const order = await seedOrder('CP-TAGS', { tags: ['Đắk Lắk', 'eudr'] });
    // In another order than the service's: tags are a set.
    const file = t.writeFile('tags-cp1252.csv', `external_id,tags\nCP-TAGS,eudr|??k L?k\n`);
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('line 2, tags: ["eudr","??k L?k"] has "?" where the service has ["Đắk Lắk","eudr"]');
    expect((await t.api(`/orders/${order.id}`)).tags).toEqual(['Đắk Lắk', 'eudr']);
  });

  it('creates, updates only what differs, leaves empty cells alone, and a second sync sends nothing', async () => {
    const same = await send('POST', '/origins', { name: 'Farm Same', country_code: 'CI', external_id: 'OS-SAME', description: 'kept', location: { type: 'Point', coordinates: [-5.95, 6.13] } });
    const moved = await send('POST', '/origins', { name: 'Farm Moved', country_code: 'GH', external_id: 'OS-MOVED', location: { type: 'Point', coordinates: [-1.5, 6.5] } });
    const file = t.writeFile(
      'origins.csv',
      `external_id,name,country_code,description,lat,lng
OS-SAME,Farm Same,ci,,6.13,-5.95
OS-MOVED,Farm Moved,GH,north plot,6.6,-1.5
OS-NEW,Farm New,CI,,5.1,-4.2\n`,
    );
    t.sb.requests.length = 0;
    const dry = await t.sct(['origins', 'sync', '--file', file, '--dry-run', '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout);
    expect(plan.create.map((c: any) => c.external_id)).toEqual(['OS-NEW']);
    expect(plan.unchanged).toEqual([{ external_id: 'OS-SAME', id: same.id, lines: [2] }]);
    expect(plan.update).toEqual([
      {
        external_id: 'OS-MOVED',
        id: moved.id,
        lines: [3],
        changes: [
          { field: 'description', old: null, new: 'north plot' },
          { field: 'location', old: { type: 'Point', coordinates: [-1.5, 6.5] }, new: { type: 'Point', coordinates: [-1.5, 6.6] } },
        ],
        body: { description: 'north plot', location: { type: 'Point', coordinates: [-1.5, 6.6] } },
      },
    ]);
    expect(plan.only_on_service.length).toBeGreaterThan(0);
    expect(writes()).toHaveLength(0);

    const r = await t.sct(['origins', 'sync', '--file', file, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('origins: 1 created, 1 updated, 0 rejected');
    expect(writes().map((q) => `${q.method} ${q.path}`).sort()).toEqual([`PATCH /api/origins/${moved.id}`, 'POST /api/origins']);
    expect(JSON.parse(writes().find((q) => q.method === 'PATCH')!.body)).toEqual(plan.update[0].body);
    const kept = await t.api(`/origins/${same.id}`);
    expect(kept.description).toBe('kept');

    t.sb.requests.length = 0;
    const again = await t.sct(['origins', 'sync', '--file', file, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/0 to create, 0 to update, 3 unchanged/);
    expect(writes()).toHaveLength(0);
  });
});

describe('a point a sync row gives without its country', () => {
  it('is checked for latitude and longitude swapped against the country the service holds for the origin: exit 2, nothing written; --skip-invalid leaves it out', async () => {
    const ci = await send('POST', '/origins', { name: 'Farm Soubre', country_code: 'CI', external_id: 'OS-SWAP-CI', location: { type: 'Point', coordinates: [-6.59, 5.78] } });
    await send('POST', '/origins', { name: 'Farm Island', country_code: 'CO', external_id: 'OS-SWAP-CO', location: { type: 'Point', coordinates: [-81.7, 12.5] } });
    await send('POST', '/origins', { name: 'Farm Kumasi', country_code: 'GH', external_id: 'OS-SWAP-GH', location: { type: 'Point', coordinates: [-1.6, 6.7] } });
    await send('POST', '/origins', { name: 'Finca Huila', country_code: 'CO', external_id: 'OS-SWAP-HUILA', location: { type: 'Point', coordinates: [-75.6, 2.5] } });
    // An update needs only what changes: the key and the point. Line 2 is swapped; line 3 is a
    // farm of San Andrés (outside the country outlines, not swapped); line 4 moves within Ghana.
    const csv = t.writeFile('moved.csv', 'external_id,latitude,longitude\nOS-SWAP-CI,-6.6,5.79\nOS-SWAP-CO,12.55,-81.72\nOS-SWAP-GH,6.71,-1.61\n');
    // Swapped, this one lies on land (in Antarctica): the check of a feature naming no country
    // (at sea?) lets it through; the country the service holds does not.
    const geojson = t.writeFile('moved.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { external_id: 'OS-SWAP-HUILA' }, geometry: { type: 'Point', coordinates: [2.51, -75.61] } }] }));
    t.sb.requests.length = 0;
    const r = await t.sct(['origins', 'sync', '--file', csv, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/line 2, latitude: latitude and longitude look swapped: the point lies [\d,]+ km outside Côte d'Ivoire \(CI\), the origin's country on the service; did you mean latitude 5\.79, longitude -6\.6\?/);
    expect(r.stderr).not.toMatch(/line [34]/);
    const applied = await t.sct(['origins', 'sync', '--file', csv, '--yes']);
    expect(applied.exitCode).toBe(2);
    expect(writes()).toHaveLength(0);
    const skipped = await t.sct(['origins', 'sync', '--file', csv, '--dry-run', '--skip-invalid', '-o', 'json']);
    expect(skipped.exitCode, skipped.stderr).toBe(3);
    expect(JSON.parse(skipped.stdout).update.map((u: { external_id: string }) => u.external_id)).toEqual(['OS-SWAP-CO', 'OS-SWAP-GH']);
    const plots = await t.sct(['origins', 'sync', '--file', geojson, '--dry-run']);
    expect(plots.exitCode).toBe(2);
    expect(plots.stderr).toContain('error: moved.geojson: 1 invalid feature; nothing was sent');
    expect(plots.stderr).toMatch(/feature 1, geometry: latitude and longitude look swapped: the point lies [\d,]+ km outside Colombia \(CO\), the origin's country on the service; did you mean latitude 2\.51, longitude -75\.61\?/);
    // Left out, it is a feature throughout, named in the report by its key as a feature refused
    // while the file is read is.
    const report = join(t.dir, 'moved-report.csv');
    const left = await t.sct(['origins', 'sync', '--file', geojson, '--yes', '--skip-invalid', '--report', report]);
    expect(left.exitCode, left.stderr).toBe(3);
    expect(left.stderr).toContain('moved.geojson: 1 invalid feature left out (--skip-invalid): OS-SWAP-HUILA');
    expect(left.stderr).toContain('(1 invalid feature left out)');
    expect(left.stderr).not.toMatch(/invalid rows?\b/);
    expect(readFileSync(report, 'utf8')).toMatch(/^1,OS-SWAP-HUILA,invalid,/m);
    const dry = await t.sct(['origins', 'sync', '--file', geojson, '--dry-run', '--skip-invalid']);
    expect(dry.stderr).toMatch(/error: \S*moved\.geojson: 1 invalid feature left out \(--skip-invalid\); nothing sent \(dry run\)/);
    expect(writes()).toHaveLength(0);
    expect((await t.api(`/origins/${ci.id}`)).location.coordinates).toEqual([-6.59, 5.78]);
  });
});

describe('a key stored with spaces around it', () => {
  it('is matched by the key the file gives (cells are read trimmed): an export synced back creates no twin', async () => {
    const spaced = await send('POST', '/origins', { name: 'Spaced plot', country_code: 'CI', external_id: '  OS-SP 1  ', location: { type: 'Point', coordinates: [-4.0, 5.3] } });
    const file = t.writeFile('spaced.csv', 'external_id,name,country_code,lat,lng\n"  OS-SP 1  ",Spaced plot,CI,5.3,-4.0\n');
    t.sb.requests.length = 0;
    const dry = await t.sct(['origins', 'sync', '--file', file, '--dry-run', '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout);
    expect(plan.create).toEqual([]);
    expect(plan.unchanged.map((u: { id: number }) => u.id)).toEqual([spaced.id]);
    expect(writes()).toHaveLength(0);
  });
});

describe('a plan only shown, made as the file is read again', () => {
  it('origins: rows invalid at the first reading (no external_id, twice, a plot at sea, nothing to create with) are left out once each, the rest planned', async () => {
    const sea = JSON.stringify({ type: 'Polygon', coordinates: [[[-3, 3], [-2.99, 3], [-2.99, 3.01], [-3, 3.01], [-3, 3]]] }).replace(/"/g, '""');
    const file = t.writeFile(
      'origins-left-out.csv',
      `external_id,name,country_code,location
OL-1,Farm One,CI,"6.13,-5.95"
,Farm Nameless,CI,"6.1,-5.9"
OL-1,Farm One Again,CI,"6.2,-5.9"
OL-SEA,Farm at Sea,CI,"${sea}"
OL-BARE,,,
OL-2,Farm Two,CI,"6.3,-5.9"
`,
    );
    const r = await t.sct(['origins', 'sync', '--file', file, '--dry-run', '--skip-invalid', '-o', 'ndjson']);
    expect(r.exitCode, r.stderr).toBe(3);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.filter((x) => x.action === 'create').map((x) => [x.external_id, x.lines])).toEqual([['OL-1', [2]], ['OL-2', [7]]]);
    // The file's own faults, then what only the service's state shows (nothing to create OL-BARE with).
    expect(r.stderr).toContain('3 invalid rows left out (--skip-invalid): 3, 4, 5\n');
    expect(r.stderr).toContain('1 invalid row left out (--skip-invalid): 6\n');
    expect(r.stderr).toContain('4 invalid rows left out (--skip-invalid); nothing sent (dry run)');
    expect(writes()).toHaveLength(0);
  });
});

describe('a change a terminal would not show', () => {
  it('a name that differs only by a zero-width space is planned as an update whose table row spells it out', async () => {
    await send('POST', '/origins', { name: 'Zero\u200bWidth Farm', country_code: 'CI', external_id: 'ZW-1' });
    const file = t.writeFile('zero-width.csv', 'external_id,name\nZW-1,ZeroWidth Farm\n');
    const r = await t.sct(['origins', 'sync', '--file', file, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('name: Zero\\u{200B}Width Farm → ZeroWidth Farm (they differ in characters a terminal does not show)');
  });
});

describe('rows left out with --skip-invalid', () => {
  it('an order the sync cannot match items of (two under one line number) is left out and reported, the others sent: exit 3', async () => {
    const file = t.writeFile(
      'two-items-one-line.csv',
      `external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number
SK-DUP,order,2025-01-01,101,${products[0]},5,kg,2
SK-DUP,order,2025-01-01,101,${products[1]},6,kg,
SK-OK,order,2025-01-01,101,${products[0]},7,kg,
`,
    );
    const report = join(t.dir, 'two-items-report.csv');
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '--skip-invalid', '--report', report]);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(writes().map((q) => JSON.parse(q.body).external_id)).toEqual(['SK-OK']);
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<{ line: string; status: string; error: string }>;
    expect(rows.filter((x) => x.status === 'invalid').map((x) => x.line)).toEqual(['2', '3']);
    expect(rows.find((x) => x.line === '3')!.error).toContain('SK-DUP has two items with line_number 2');
  });

  it('the items column\'s metadata is compared and sent whole when edited, and a trace typed into it is planned: neither dropped in silence', async () => {
    const order = (await t.api('/orders?order_action=buying&limit=200')).results.find((o: any) => o.company_id === 1 && o.buyer_company_id !== o.seller_company_id && o.items.length > 0 && o.items[0].metadata?.supplementary_unit);
    expect(order, 'a purchase order whose first item has metadata').toBeDefined();
    const exported = await t.sct(['orders', 'list', '--buying', '--search', order.external_id, '-o', 'csv']);
    const rows = (parse(exported.stdout, { columns: true }) as Array<Record<string, string>>).filter((r) => r.external_id === order.external_id);
    const header = Object.keys(rows[0]!);
    const line = (row: Record<string, string>) => header.map((h) => `"${(row[h] ?? '').replace(/"/g, '""')}"`).join(',');
    const unedited = t.writeFile('meta-same.csv', `${header.join(',')}\n${line(rows[0]!)}\n`);
    const same = await t.sct(['orders', 'sync', '--purchase', '--file', unedited, '--dry-run']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stderr).toMatch(/0 to create, 0 to update, 1 unchanged/);
    const items = JSON.parse(rows[0]!.items);
    items[0].metadata = { ...items[0].metadata, supplementary_unit: 'boxes' };
    const edited = t.writeFile('meta-edited.csv', `${header.join(',')}\n${line({ ...rows[0]!, items: JSON.stringify(items) })}\n`);
    const plan = await t.sct(['orders', 'sync', '--purchase', '--file', edited, '--yes']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stderr).toMatch(/0 to create, 1 to update/);
    const patch = t.sb.requests.filter((q) => q.method === 'PATCH').at(-1)!;
    expect(JSON.parse(patch.body as string).items.find((it: any) => it.id === items[0].id).metadata).toEqual(items[0].metadata);
    expect((await t.api(`/orders/${order.id}`)).items.find((it: any) => it.id === items[0].id).metadata.supplementary_unit).toBe('boxes');
    // A trace typed into the column is part of the item, as the item rows' traced_origins column.
    items[0].trace = { traced_origins: [1] };
    const traced = t.writeFile('meta-trace.csv', `${header.join(',')}\n${line({ ...rows[0]!, items: JSON.stringify(items) })}\n`);
    const noted = await t.sct(['orders', 'sync', '--purchase', '--file', traced, '--dry-run']);
    expect(noted.exitCode, noted.stderr).toBe(0);
    expect(noted.stderr).toMatch(/0 to create, 1 to update/);
    expect(noted.stdout).toContain('trace.traced_origins');
  });

  it('a file whose valid rows need no change, with rows left out: exit 3 with or without --yes, never "the service matches the file"', async () => {
    const file = t.writeFile('buying-export.csv', (await t.sct(['orders', 'list', '--buying', '--all', '-o', 'csv'])).stdout);
    const shown = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--skip-invalid']);
    expect(shown.stderr).toMatch(/0 to create, 0 to update, \d+ unchanged/);
    expect(shown.exitCode, shown.stderr).toBe(3);
    expect(shown.stderr).toMatch(/invalid rows left out \(--skip-invalid\); the valid rows need no change/);
    const applied = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--skip-invalid', '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(3);
    expect(applied.stderr).toMatch(/nothing to do for the valid rows: the service matches them \(\d+ invalid rows left out\)/);
    expect(applied.stderr).not.toContain('the service matches buying-export.csv');
  });
});

describe('a sync stopped at its question', () => {
  it('reports a row --skip-invalid left out as invalid, once, and every other row not sent', async () => {
    const file = t.writeFile('asked-left-out.csv', 'external_id,name,country_code\nAQ-1,Asked farm,CI\nAQ-BARE,,\n');
    const report = join(t.dir, 'asked-left-out-report.csv');
    const r = await t.sctIn(['origins', 'sync', '--file', file, '--skip-invalid', '--report', report], {
      tty: true,
      prompter: { confirm: () => Promise.reject(new InterruptedError()) } as unknown as Prompter,
      env: { CI: undefined },
    });
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain('origins: 0 created, 0 rejected, 1 not sent, 1 invalid (not sent)');
    const rows = readFileSync(report, 'utf8').trim().split('\n').slice(1);
    expect(rows.map((l) => l.split(',').slice(0, 3).join(','))).toEqual(['2,AQ-1,not_sent', '3,line 3,invalid']);
    expect(writes()).toHaveLength(0);
  });
});

describe('a sync stopped while it reads the service', () => {
  it('writes its summary, its report (every row not sent) and the rerun hint, exit 130', async () => {
    const file = t.writeFile('stopped-early.csv', 'external_id,name,country_code\nSE-1,Early farm,CI\nSE-2,Early farm two,CI\n');
    const report = join(t.dir, 'stopped-early-report.csv');
    t.sb.setFaults({ latencyMs: 1500, methods: ['GET'] });
    try {
      const ctl = new AbortController();
      const running = t.sctIn(['origins', 'sync', '--file', file, '--yes', '--report', report], { signal: ctl.signal });
      await until(() => t.sb.requests.some((r) => r.method === 'GET'), 'the first read');
      ctl.abort();
      const r = await running;
      expect(r.exitCode, r.stderr).toBe(130);
      expect(r.stderr).toContain('origins: 0 created, 0 rejected, 2 not sent');
      expect(r.stderr).toContain('to continue, rerun');
      expect(readFileSync(report, 'utf8')).toMatch(/^line,key,status,id,error\n2,SE-1,not_sent,,\n3,SE-2,not_sent,,\n$/);
      // -o json: stdout is the object a sync always writes (`.results` as after a plan), never a bare list.
      const json = new AbortController();
      t.sb.requests.length = 0;
      const asJson = t.sctIn(['origins', 'sync', '--file', file, '--yes', '-o', 'json'], { signal: json.signal });
      await until(() => t.sb.requests.some((r) => r.method === 'GET'), 'the first read');
      json.abort();
      const j = await asJson;
      expect(j.exitCode, j.stderr).toBe(130);
      expect(JSON.parse(j.stdout)).toEqual({ results: [expect.objectContaining({ key: 'SE-1', status: 'not_sent' }), expect.objectContaining({ key: 'SE-2', status: 'not_sent' })] });
    } finally {
      t.sb.setFaults({});
    }
  });
});

describe('interrupted syncs converge', () => {
  for (const seed of [20251, 7]) it(`kill -9 and Ctrl-C at seeded points (seed ${seed}), then reruns: every order exactly once and the service equals the file`, { timeout: 60_000 }, async () => {
    const random = rng(seed);
    const [a, b, c] = products;
    const existing = Array.from({ length: 10 }, (_, i) => `KILL${seed}-OLD-${i}`);
    const fresh = Array.from({ length: 10 }, (_, i) => `KILL${seed}-NEW-${i}`);
    await Promise.all(existing.map((id) => seedOrder(id)));
    const lines = [HEADER];
    // Each existing order changes its status and an item, and gains a third item; each new one has two.
    for (const [i, id] of existing.entries()) lines.push(`${id},order,2025-03-01,101,completed,eudr,,${a},100,kg,1`, `${id},,,,,,,${b},${i + 10},t,2`, `${id},,,,,,,${c},3,kg,3`);
    for (const [i, id] of fresh.entries()) lines.push(`${id},order,2025-05-01,103,draft,new,,${a},${i + 1},kg,1`, `${id},,,,,,,${b},2,kg,2`);
    const file = t.writeFile(`kill-${seed}.csv`, lines.join('\n') + '\n');
    const args = ['orders', 'sync', '--purchase', '--file', file, '--yes', '--concurrency', '3', '-o', 'json'];

    // Writes are slow and some answers are lost after the service acted: kill points land mid-run.
    t.sb.setFaults({ latencyMs: 40, dropRate: 0.1, dropAfterProcessing: true, methods: ['POST', 'PATCH'] });
    const runs: Array<{ signal: string | null; after: number; exit: number | undefined }> = [];
    for (let i = 0; i < 8; i++) {
      const signal = i < 4 ? (random() < 0.5 ? 'SIGKILL' : 'SIGINT') : null;
      // 0: while it starts, reads or plans; else after that many writes reached the service.
      const after = Math.floor(random() * 7);
      const start = writes().length;
      const child = t.spawnSct(args, { timeout: 40_000 });
      if (signal && after === 0) await new Promise((res) => setTimeout(res, 150 + Math.floor(random() * 300)));
      if (signal && after > 0) await until(() => writes().length - start >= after || child.exitCode !== null, 'the kill point', 20_000).catch(() => undefined);
      if (signal) child.kill(signal as NodeJS.Signals);
      const r = await child;
      runs.push({ signal, after, exit: r.exitCode });
      // A kill, a lost answer or Ctrl-C is never the service's verdict on an order.
      expect(Number(/(\d+) rejected/.exec(String(r.stderr))?.[1] ?? 0), `run ${i + 1}: ${r.stderr}`).toBe(0);
      expect(String(r.stderr), `run ${i + 1}`).not.toMatch(/\n\s+at /);
      // Requests the killed run had in flight still land (the latency): let them before the rerun reads.
      await new Promise((res) => setTimeout(res, 120));
      if (r.exitCode === 0 && !signal) break;
    }
    t.sb.setFaults({});
    // SYNC_KILL_LOG=1 shows the kill points and exits of each run.
    if (process.env.SYNC_KILL_LOG) console.log(JSON.stringify({ seed, runs }));
    expect(runs.at(-1)?.exit, JSON.stringify(runs)).toBe(0);

    const found = await ordersById([...existing, ...fresh]);
    for (const [id, list] of found) expect(list.length, `${id}: ${JSON.stringify(runs)}`).toBe(1);
    for (const [i, id] of existing.entries()) {
      const o = found.get(id)![0];
      expect(o.buyer_company_status).toBe('completed');
      expect(o.items.map((it: any) => [it.line_number, it.buyer_product, it.volume])).toEqual([
        [1, a, 100],
        [2, b, i + 10],
        [3, c, 3],
      ]);
    }
    for (const [i, id] of fresh.entries()) {
      expect(found.get(id)![0].items.map((it: any) => [it.line_number, it.volume])).toEqual([
        [1, i + 1],
        [2, 2],
      ]);
    }
    // The file's view: nothing left to write.
    t.sb.requests.length = 0;
    const check = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run', '-o', 'json']);
    const plan = JSON.parse(check.stdout);
    expect([plan.create.length, plan.update.length, plan.unchanged.length]).toEqual([0, 0, 20]);
  });
});

describe('interrupted origins syncs converge', () => {
  it('kill -9 and Ctrl-C at seeded points, then reruns: every origin exactly once and equal to the file', { timeout: 60_000 }, async () => {
    const random = rng(4242);
    const existing = Array.from({ length: 8 }, (_, i) => `OKILL-OLD-${i}`);
    const fresh = Array.from({ length: 12 }, (_, i) => `OKILL-NEW-${i}`);
    await Promise.all(existing.map((id, i) => send('POST', '/origins', { name: `Old farm ${i}`, country_code: 'CI', external_id: id, location: { type: 'Point', coordinates: [-5.9, 6.1] } })));
    const rows = [
      ...existing.map((id, i) => `${id},Old farm ${i},CI,moved plot,${(6.2 + i / 100).toFixed(6)},-5.900000`),
      ...fresh.map((id, i) => `${id},New farm ${i},GH,,${(6.5 + i / 100).toFixed(6)},-1.500000`),
    ];
    const file = t.writeFile('origins-kill.csv', ['external_id,name,country_code,description,lat,lng', ...rows].join('\n') + '\n');
    const args = ['origins', 'sync', '--file', file, '--yes', '--concurrency', '3', '-o', 'json'];
    t.sb.setFaults({ latencyMs: 40, dropRate: 0.1, dropAfterProcessing: true, methods: ['POST', 'PATCH'] });
    const runs: Array<{ signal: string | null; after: number; exit: number | undefined }> = [];
    for (let i = 0; i < 8; i++) {
      const signal = i < 3 ? (random() < 0.5 ? 'SIGKILL' : 'SIGINT') : null;
      const after = 1 + Math.floor(random() * 8);
      const start = writes().length;
      const child = t.spawnSct(args, { timeout: 40_000 });
      if (signal) await until(() => writes().length - start >= after || child.exitCode !== null, 'the kill point', 20_000).catch(() => undefined);
      if (signal) child.kill(signal as NodeJS.Signals);
      const r = await child;
      runs.push({ signal, after, exit: r.exitCode });
      expect(Number(/(\d+) rejected/.exec(String(r.stderr))?.[1] ?? 0), `run ${i + 1}: ${r.stderr}`).toBe(0);
      await new Promise((res) => setTimeout(res, 120));
      if (r.exitCode === 0 && !signal) break;
    }
    t.sb.setFaults({});
    expect(runs.at(-1)?.exit, JSON.stringify(runs)).toBe(0);

    const all = (await t.api(`/origins?limit=1000&external_id__in=${encodeURIComponent([...existing, ...fresh].join(','))}`)).results as any[];
    const byId = new Map<string, any[]>();
    for (const o of all) byId.set(o.external_id, [...(byId.get(o.external_id) ?? []), o]);
    for (const id of [...existing, ...fresh]) expect(byId.get(id)?.length, `${id}: ${JSON.stringify(runs)}`).toBe(1);
    for (const [i, id] of existing.entries()) {
      const o = byId.get(id)![0];
      expect(o.description).toBe('moved plot');
      expect(o.location).toEqual({ type: 'Point', coordinates: [-5.9, Number((6.2 + i / 100).toFixed(6))] });
    }
    const check = await t.sct(['origins', 'sync', '--file', file, '--dry-run', '-o', 'json']);
    const plan = JSON.parse(check.stdout);
    expect([plan.create.length, plan.update.length, plan.unchanged.length]).toEqual([0, 0, 20]);
  });
});

// Each test has a sandbox of its own: 7 requests per 5-second window, so a plan outgrows the
// budget, and no test depends on what another left of it. The tests' own reads use another token
// of the company: they spend none of sct's budget.
describe('rate budget', () => {
  const small = useSandbox({ rateLimit: 7, rateLimitWindowSeconds: 5 }, { inProcess: true });

  it('says when a plan needs more requests than are left, stops past --max-wait, and a rerun continues', { timeout: 30_000 }, async () => {
    const product = (await small.api('/products?limit=1', ADMIN)).results[0].id;
    const ids = Array.from({ length: 8 }, (_, i) => `RATE-${i}`);
    const file = small.writeFile('rate.csv', ['external_id,type,order_created_at,product', ...ids.map((id) => `${id},order,2025-06-01,${product}`)].join('\n') + '\n');

    const dry = await small.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run', '--max-wait', '0']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('cost: 8 writes + 1 read; 6 requests left this hour');
    expect(dry.stderr).toMatch(/the plan needs 8 writes but 6 are left this hour: it would finish after (\d{4}-\d\d-\d\d )?\d\d:\d\d(:\d\d)?.*; waiting \S+ is longer than --max-wait \(0ms\), so the run stops when the budget is spent: rerun after/);

    // Applying with no patience: it stops when the budget is gone (exit 1), having created what it could.
    const first = await small.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '--max-wait', '0', '--concurrency', '1']);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stderr).toMatch(/rate limit/);
    expect(first.stderr).toContain('to continue, rerun: sct ');
    const created = [...(await orderCounts(small, ids)).values()].filter((n) => n === 1).length;
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(8);

    // The rerun plans only what is left and waits for the budget (within the default --max-wait).
    const second = await small.sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain(`${8 - created} to create, 0 to update, ${created} unchanged`);
    expect([...(await orderCounts(small, ids)).values()]).toEqual(Array(8).fill(1));
  });
});

describe('rate budget of the reads before writes', () => {
  const small = useSandbox({ rateLimit: 7, rateLimitWindowSeconds: 5 }, { inProcess: true });

  it('counts the read each origin create and each update makes right before its write', { timeout: 30_000 }, async () => {
    const file = small.writeFile('rate-origins.csv', ['external_id,name,country_code', ...Array.from({ length: 4 }, (_, i) => `RO-${i},Rate farm ${i},CI`)].join('\n') + '\n');
    const dry = await small.sct(['origins', 'sync', '--file', file, '--dry-run', '--max-wait', '0']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('cost: 4 writes + 1 read, and 4 reads right before the writes; 6 requests left this hour');
    expect(dry.stderr).toMatch(/the plan needs 8 requests \(4 writes, 4 reads before them\) but 6 are left this hour/);
  });
});

async function orderCounts(s: { ordersWith: (ids: string[], token?: string) => Promise<any[]> }, ids: string[]): Promise<Map<string, number>> {
  const list = { results: await s.ordersWith(ids, ADMIN) };
  const counts = new Map<string, number>(ids.map((i) => [i, 0]));
  for (const o of list.results) counts.set(o.external_id, (counts.get(o.external_id) ?? 0) + 1);
  return counts;
}
