// sct orders create/update/trace against the sandbox: the bodies it sends per kind, the local
// checks that stop a bad body before anything is sent, and tracing that keeps other items.
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/sct.js';
import { OWNER, TRADER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });

/** As root, sct runs without the capabilities that write past file modes (as in files.test.ts). */
const refused = process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search'] : [];
const canBeRefused = process.platform !== 'win32' && (refused.length === 0 || existsSync('/usr/bin/setpriv'));

const sent = () => t.sb.requests.map((q) => `${q.method} ${q.path}`);

/** A product of the company (the sandbox checks each side's product belongs to that side). */
async function productOf(token: string): Promise<number[]> {
  return (await t.api('/products?limit=3', token)).results.map((p: any) => p.id);
}

let made = 0;

/**
 * A purchase order of the test's own with two items, made through the API as the web app would:
 * no test depends on another's order, or on the order they run in.
 */
async function newPurchase(): Promise<number> {
  const [p1, p2] = await productOf(OWNER);
  const r = await fetch(`${t.sb.url}/orders/purchase`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      type: 'order',
      external_id: `E2E-PO-OWN-${++made}`,
      order_created_at: '2025-03-01',
      seller_company_id: 101,
      buyer_company_status: 'draft',
      items: [
        { buyer_product: p1, volume: 2500, unit: 'kg', line_number: 1 },
        { buyer_product: p2, volume: 12.5, unit: 't', line_number: 2 },
      ],
    }),
  });
  const order = (await r.json()) as { id: number };
  if (!r.ok) throw new Error(`POST /orders/purchase: ${r.status} ${JSON.stringify(order)}`);
  t.sb.requests.length = 0;
  return order.id;
}

describe('orders create', () => {
  it('creates a purchase order with items from flags', async () => {
    const [p1, p2] = await productOf(OWNER);
    t.sb.requests.length = 0;
    const r = await t.sct([
      'orders', 'create', '--purchase',
      '--type', 'order', '--external-id', 'E2E-PO-1', '--order-created-at', '2025-03-01', '--order-arrival-at', '2025-03-20',
      '--seller-company-id', '101', '--buyer-status', 'draft', '--assessment-status', 'pending', '--value-chain', '3',
      '--seller-external-id', 'INV-9', '--border-cross-country-code', 'be', '--signed-off-at', '2025-03-02T10:00:00Z',
      '--tag', 'eudr', '--tag', 'q1', '--send-information-request',
      '--item', `product=${p1},volume=2500,unit=kg,line=1,external-id=E2E-PO-1-A`,
      '--item', `product=${p2},volume=12.5,unit=t`,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sent()).toEqual(['POST /api/orders/purchase']);
    expect(t.sb.requests[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.bodyOf()).toEqual({
      external_id: 'E2E-PO-1',
      type: 'order',
      order_created_at: '2025-03-01',
      order_arrival_at: '2025-03-20',
      seller_external_id: 'INV-9',
      buyer_company_status: 'draft',
      assessment_status: 'pending',
      value_chain: 3,
      seller_company_id: 101,
      border_cross_country_code: 'BE',
      signed_off_at: '2025-03-02T10:00:00Z',
      tags: ['eudr', 'q1'],
      send_information_request: true,
      items: [
        { buyer_product: p1, volume: 2500, unit: 'kg', line_number: 1, external_id: 'E2E-PO-1-A' },
        { buyer_product: p2, volume: 12.5, unit: 't' },
      ],
    });
    expect(r.stderr).toMatch(/Created purchase order \d+/);
    expect(r.stdout).toMatch(/^EXTERNAL ID\s+E2E-PO-1$/m);
    expect(r.stdout).toContain('ITEMS (2)');
    expect(r.stdout).toMatch(/^BORDER CROSSING\s+\S+ Belgium$/m);
  });

  it('a batch without --tag is sent with no tags, as orders import sends it', async () => {
    const r = await t.sct(['orders', 'create', '--batch', '--type', 'produced_batch', '--external-id', 'B-NO-TAGS', '--order-created-at', '2025-01-01', '--company-id', '1', '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0].body).toMatchObject({ external_id: 'B-NO-TAGS', tags: [] });
  });

  it('a border crossing of no country, or text --set read as a number, is exit 2 saying why, nothing sent', async () => {
    await t.expectUsageErrors([
      [['orders', 'create', '--purchase', '--type', 'order', '--external-id', 'E1', '--order-created-at', '2025-01-01', '--seller-company-id', '2', '--border-cross-country-code', 'zz'], /border_cross_country_code: "zz" is not an ISO 3166-1 alpha-2 country code/],
      // A --set of a field a flag gives too: never the last one winning without a word.
      [['orders', 'create', '--purchase', '--type', 'order', '--external-id', 'S-2', '--order-created-at', '2026-01-01', '--seller-company-id', '2', '--set', 'external_id=S-3'], '--set external_id=S-3: a flag of this command gives external_id too; give it one way'],
      [['products', 'create', '--name', 'P', '--tag', 'a', '--set', 'tags=["b"]'], '--set tags=["b"]: a flag of this command gives tags too; give it one way'],
      [['products', 'create', '--name', 'P', '--set', 'external_id=123'], /hint: external_id is a number here: text is in quotes, in a --file body \("external_id": "123"\) and in --set, whose value is JSON when it parses \(--set 'external_id="123"'\)/],
    ]);
  });

  it('creates a sale (product = the seller product) and a batch (both sides) from --file and --set', async () => {
    const [p1] = await productOf(OWNER);
    t.sb.requests.length = 0;
    // With a byte-order mark, as Notepad saves UTF-8 (sct api --input takes one too).
    const file = t.writeFile('body.json', '\uFEFF' + JSON.stringify({ type: 'order', external_id: 'FROM-FILE', order_created_at: '2025-01-01', custom: { keep: true } }));
    const [sale, batch] = await Promise.all([
      t.sct(['orders', 'create', '--sale', '--file', file, '--external-id', 'E2E-SO-1', '--buyer-company-id', '110', '--seller-status', 'pending', '--item', `product=${p1},volume=1,unit=kg`, '-o', 'json']),
      t.sct(
        ['orders', 'create', '--batch', '--file', '-', '--company-id', '1', '--buyer-company-id', '1', '--seller-company-id', '1', '--set', 'tags=["lot-7"]', '--item', `product=${p1},volume=3,unit=kg`, '-o', 'json'],
        { input: JSON.stringify({ type: 'produced_batch', external_id: 'E2E-B-1', order_created_at: '2025-02-01' }) },
      ),
    ]);
    expect(sale.exitCode, sale.stderr).toBe(0);
    expect(batch.exitCode, batch.stderr).toBe(0);
    const saleReq = t.sb.requests.find((q) => q.path === '/api/orders/sale')!;
    const batchReq = t.sb.requests.find((q) => q.path === '/api/orders/batch')!;
    expect(JSON.parse(saleReq.body)).toEqual({
      type: 'order',
      external_id: 'E2E-SO-1',
      order_created_at: '2025-01-01',
      custom: { keep: true },
      buyer_company_id: 110,
      seller_company_status: 'pending',
      items: [{ seller_product: p1, volume: 1, unit: 'kg' }],
    });
    expect(JSON.parse(batchReq.body)).toEqual({
      type: 'produced_batch',
      external_id: 'E2E-B-1',
      order_created_at: '2025-02-01',
      company_id: 1,
      buyer_company_id: 1,
      seller_company_id: 1,
      tags: ['lot-7'],
      items: [{ buyer_product: p1, seller_product: p1, volume: 3, unit: 'kg' }],
    });
    const saved = JSON.parse(batch.stdout);
    expect(saved).toMatchObject({ external_id: 'E2E-B-1', type: 'produced_batch', tags: ['lot-7'] });
    expect(saved.items[0]).toMatchObject({ buyer_product: p1, seller_product: p1, volume: 3 });
  });

  it('checks kinds, items and fields locally: exit 2 and nothing sent', async () => {
    await t.expectUsageErrors([
      [['orders', 'create', '--external-id', 'X'], 'one of --purchase, --sale or --batch is required'],
      [['orders', 'create', '--purchase', '--sale', '--external-id', 'X'], 'not --purchase and --sale'],
      [['orders', 'create', '--purchase', '--external-id', 'X'], /invalid purchase order\n\s+type: This field is required\.\n\s+order_created_at: This field is required\./],
      [['orders', 'create', '--batch', '--type', 'order', '--external-id', 'X', '--order-created-at', '2025-01-01'], /company_id: This field is required/],
      [['orders', 'create', '--purchase', '--item', 'product=1,volume=lots'], 'invalid --item "product=1,volume=lots": volume "lots" is not a number'],
      [['orders', 'create', '--purchase', '--item', 'product=1,weight=3'], 'invalid --item "product=1,weight=3": unknown key "weight"'],
      [['orders', 'create', '--purchase', '--item', 'product'], '"product" is not KEY=VALUE'],
      [['orders', 'create', '--purchase', '--type', 'order', '--external-id', 'X', '--order-created-at', '2025-01-01', '--buyer-status', 'happy'], /buyer_company_status: "happy" is not one of the allowed values: draft, /],
      [['orders', 'create', '--purchase', '--company-id', '1'], '--company-id does not apply to a purchase order'],
      [['orders', 'create', '--sale', '--buyer-status', 'draft'], '--buyer-status does not apply to a sale order'],
      [['orders', 'create', '--sale', '--order-created-at', '2025-02-30'], 'invalid --order-created-at "2025-02-30"'],
      [['orders', 'create', '--sale', '--type', 'order', '--external-id', 'X', '--order-created-at', '2025-01-01', '--signed-off-at', 'yesterday'], /signed_off_at: expected an ISO 8601 date-time/],
      [['orders', 'create', '--sale', '--type', 'order', '--external-id', 'x'.repeat(256), '--order-created-at', '2025-01-01'], 'external_id: must be at most 255 characters long'],
      [['orders', 'create', '--batch', '--type', 'order', '--external-id', 'X', '--order-created-at', '2025-01-01', '--company-id', '1', '--tag', ''], /tags\[0\]: tags must be non-empty strings/],
      [['orders', 'create', '--sale', '--type', 'order', '--external-id', 'X', '--order-created-at', '2025-01-01', '--set', 'items=[{"volume":"ten"}]'], 'items[0].volume: expected a number'],
      [['orders', 'create', '--sale', '--type', 'order', '--external-id', 'X', '--order-created-at', '2025-01-01', '--set', 'items=5'], 'items: expected a list'],
      // Where, as a person finds it, on every Node (Node 20 says only a position in characters).
      [['orders', 'create', '--sale', '--file', '-'], /stdin is not valid JSON at line 2, column 2 \(/, '{\n nope'],
      // Nothing at all (a closed stdin, an empty file): said as such, not as JSON's end.
      [['orders', 'create', '--sale', '--file', '-'], 'stdin is empty: it should hold one JSON object', ' \n'],
      [['orders', 'update', '5', '--sale'], 'nothing to update'],
      [['orders', 'update', '5', '--sale', '--border-cross-country-code', 'BEL'], /border_cross_country_code: expected a 2-letter country code/],
    ]);
  });

  it('reports the API rejection with exit 1 and its field errors', async () => {
    const r = await t.sct(['orders', 'create', '--purchase', '--type', 'order', '--external-id', 'E2E-PO-1', '--order-created-at', '2025-03-01']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('400 Bad Request on POST /orders/purchase');
    expect(r.stderr).toContain('external_id: order with this external id already exists.');
  });
});

describe('orders update', () => {
  it('PATCHes the kind endpoint with only the fields given', async () => {
    const purchaseId = await newPurchase();
    const order = await t.api(`/orders/${purchaseId}`);
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'update', String(purchaseId), '--purchase', '--buyer-status', 'ready_for_review', '--tag', 'audited', '--item', `id=${order.items[0].id},volume=3000`, '--item', `id=${order.items[1].id}`, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    // The order is read first: the new item list names both items, so nothing is dropped and nobody is asked.
    expect(sent()).toEqual([`GET /api/orders/${purchaseId}`, `PATCH /api/orders/purchase/${purchaseId}`]);
    expect(t.bodyOf(1)).toEqual({ buyer_company_status: 'ready_for_review', tags: ['audited'], items: [{ id: order.items[0].id, volume: 3000 }, { id: order.items[1].id }] });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: purchaseId, buyer_company_status: 'ready_for_review', tags: ['audited'] });
  });

  it('updates a sale and a batch through their own endpoints', async () => {
    // Its own sale and batch, made as `orders create` makes them.
    const [p1] = await productOf(OWNER);
    const made = await Promise.all([
      t.sct(['orders', 'create', '--sale', '--type', 'order', '--external-id', 'E2E-SO-UPD', '--order-created-at', '2025-01-01', '--buyer-company-id', '110', '--seller-status', 'pending', '--item', `product=${p1},volume=1,unit=kg`, '-o', 'json']),
      t.sct(['orders', 'create', '--batch', '--type', 'produced_batch', '--external-id', 'E2E-B-UPD', '--order-created-at', '2025-02-01', '--company-id', '1', '--buyer-company-id', '1', '--seller-company-id', '1', '--item', `product=${p1},volume=3,unit=kg`, '-o', 'json']),
    ]);
    for (const m of made) expect(m.exitCode, m.stderr).toBe(0);
    const [sale, batch] = made.map((m) => JSON.parse(m.stdout) as { id: number });
    t.sb.requests.length = 0;
    const [s, b] = await Promise.all([
      t.sct(['orders', 'update', String(sale.id), '--sale', '--seller-status', 'passing']),
      t.sct(['orders', 'update', String(batch.id), '--batch', '--type', 'product_chain', '--set', 'order_arrival_at=null']),
    ]);
    expect(s.exitCode, s.stderr).toBe(0);
    expect(b.exitCode, b.stderr).toBe(0);
    expect(sent().sort()).toEqual([`PATCH /api/orders/batch/${batch.id}`, `PATCH /api/orders/sale/${sale.id}`].sort());
    expect(JSON.parse(t.sb.requests.find((q) => q.path.includes('/batch/'))!.body)).toEqual({ type: 'product_chain', order_arrival_at: null });
  });
});

describe('orders trace', () => {
  it('adds to one item, keeps the other items, PATCHes through the buyer side', async () => {
    const purchaseId = await newPurchase();
    const before = await t.api(`/orders/${purchaseId}`);
    const [first, second] = before.items;
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'trace', String(purchaseId), '--item', String(first.id), '--to-origin', '1,2', '--to-order', '5']);
    expect(r.exitCode, r.stderr).toBe(0);
    // Who the company is first: the order's read and its write are then one round trip apart.
    expect(sent()).toEqual(['GET /api/accounts/me', `GET /api/orders/${purchaseId}`, `PATCH /api/orders/purchase/${purchaseId}`]);
    const body = t.bodyOf(2);
    expect(body.items.map((i: any) => i.id)).toEqual([first.id, second.id]);
    expect(body.items[0].trace).toEqual({ traced_orders: [5], traced_origins: [1, 2] });
    expect(r.stdout).toMatch(/^TRACED TO ORIGINS\s+1, 2$/m);

    // A second trace adds; --replace sets the list.
    const again = await t.sct(['orders', 'trace', String(purchaseId), '--item', String(first.id), '--to-origin', '3', '--purchase', '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).trace).toEqual({ traced_orders: [5], traced_origins: [1, 2, 3] });
    const replaced = await t.sct(['orders', 'trace', String(purchaseId), '--item', String(first.id), '--to-origin', '4', '--to-order', '', '--replace', '--purchase', '-o', 'json']);
    expect(JSON.parse(replaced.stdout).trace).toEqual({ traced_orders: [], traced_origins: [4] });
    // The item printed is a documented resource: its fields picked, the trace among them.
    const picked = await t.sct(['orders', 'trace', String(purchaseId), '--item', String(first.id), '--to-origin', '4', '--purchase', '--json', 'id,trace.traced_origins']);
    expect(picked.exitCode, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout)).toEqual({ id: first.id, trace: { traced_origins: [4] } });

    const after = await t.api(`/orders/${purchaseId}`);
    const strip = (it: any) => ({ ...it, updated_at: undefined });
    expect(strip(after.items[1])).toEqual(strip(second));
    const { trace: _t, traced_order_count: _a, traced_origin_count: _b, updated_at: _u, ...rest } = after.items[0];
    const { trace: _t2, traced_order_count: _a2, traced_origin_count: _b2, updated_at: _u2, ...restBefore } = first;
    expect(rest).toEqual(restBefore);
  });

  it('a colleague who edits another item between the read and the PATCH keeps the edit', async () => {
    const purchaseId = await newPurchase();
    const before = await t.api(`/orders/${purchaseId}`);
    const [first, second] = before.items;
    // The colleague's edit lands just before sct's PATCH is handled.
    t.sb.setBeforeHandle(async (q) => {
      if (q.method !== 'PATCH') return;
      t.sb.setBeforeHandle(undefined);
      await fetch(`${t.sb.url}/orders/purchase/${purchaseId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ id: first.id }, { id: second.id, volume: 4242 }] }),
      });
    });
    const r = await t.sct(['orders', 'trace', String(purchaseId), '--item', String(first.id), '--to-origin', '7', '--purchase']);
    expect(r.exitCode, r.stderr).toBe(0);
    const patch = t.sb.requests.filter((q) => q.method === 'PATCH').at(-1)!;
    expect(JSON.parse(patch.body).items).toEqual([{ id: first.id, trace: expect.any(Object) }, { id: second.id }]);
    const after = await t.api(`/orders/${purchaseId}`);
    expect(after.items.find((i: any) => i.id === second.id).volume).toBe(4242);
    expect(after.items.find((i: any) => i.id === first.id).trace.traced_origins).toContain(7);
  });

  it('an item a colleague adds while sct learns which company it acts for is kept', async () => {
    const purchaseId = await newPurchase();
    const before = await t.api(`/orders/${purchaseId}`);
    const [p1] = await productOf(OWNER);
    let added: number | undefined;
    t.sb.setBeforeHandle(async (q) => {
      if (q.method !== 'GET' || !q.path.endsWith('/accounts/me')) return;
      t.sb.setBeforeHandle(undefined);
      const r = await fetch(`${t.sb.url}/orders/purchase/${purchaseId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [...before.items.map((i: any) => ({ id: i.id })), { buyer_product: p1, volume: 3, unit: 'kg', line_number: 9 }] }),
      });
      added = ((await r.json()) as any).items.find((i: any) => i.line_number === 9).id;
    });
    const r = await t.sct(['orders', 'trace', String(purchaseId), '--item', String(before.items[0].id), '--to-origin', '8']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(added).toBeDefined();
    expect((await t.api(`/orders/${purchaseId}`)).items.map((i: any) => i.id)).toContain(added);
  });

  it('two traces of one item at once (a script loop in the background) both stay', async () => {
    const purchaseId = await newPurchase();
    const before = await t.api(`/orders/${purchaseId}`);
    const item = before.items[0];
    const had: number[] = item.trace?.traced_origins ?? [];
    // Each read of the order answered late: both runs would read before either writes.
    t.sb.setBeforeHandle(async (q) => {
      if (q.method === 'GET' && q.path === `/api/orders/${purchaseId}`) await new Promise((res) => setTimeout(res, 400));
    });
    const runs = await Promise.all(['11', '12'].map((origin) => t.sctBin(['orders', 'trace', String(purchaseId), '--item', String(item.id), '--to-origin', origin, '--purchase'])));
    t.sb.setBeforeHandle(undefined);
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const after = (await t.api(`/orders/${purchaseId}`)).items.find((i: any) => i.id === item.id);
    expect([...after.trace.traced_origins].sort((x: number, y: number) => x - y)).toEqual([...new Set([...had, 11, 12])].sort((x, y) => x - y));
  });

  it.skipIf(!canBeRefused)('a config directory sct may not write in traces without the order\'s lock, whether or not it holds locks/ already (a CI cache restored read-only)', async () => {
    const purchaseId = await newPurchase();
    const item = (await t.api(`/orders/${purchaseId}`)).items[0];
    const dir = mkdtempSync(join(t.dir, 'read-only-config-'));
    for (const [label, origin] of [['without-locks', '21'], ['with-locks', '22']] as const) {
      const config = join(dir, label);
      mkdirSync(config);
      if (label === 'with-locks') {
        mkdirSync(join(config, 'locks'));
        chmodSync(join(config, 'locks'), 0o555);
      }
      chmodSync(config, 0o555);
      const env = { PATH: process.env.PATH ?? '', HOME: dir, SCT_CONFIG_DIR: config, XDG_CACHE_HOME: join(dir, 'cache'), SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, NO_COLOR: '1' };
      const args = ['orders', 'trace', String(purchaseId), '--item', String(item.id), '--to-origin', origin, '--purchase'];
      const r = await execa(refused[0] ?? process.execPath, [...refused.slice(1), ...(refused.length ? [process.execPath] : []), BIN, ...args], { env, extendEnv: false, reject: false, timeout: 20_000 });
      chmodSync(config, 0o755);
      expect(r.exitCode, `${label}: ${r.stderr}`).toBe(0);
    }
    const after = (await t.api(`/orders/${purchaseId}`)).items.find((i: any) => i.id === item.id);
    expect(after.trace.traced_origins).toEqual(expect.arrayContaining([21, 22]));
  });

  it('PATCHes through the sale endpoint when the company is the seller', async () => {
    const trader = t.sctAs(TRADER);
    const sale = (await t.api('/orders?order_action=selling&limit=20', TRADER)).results.find((o: any) => o.seller_company_id === 2 && o.buyer_company_id !== 2 && o.items.length > 1);
    const origin = (await t.api('/origins?limit=1', TRADER)).results[0].id;
    t.sb.requests.length = 0;
    const r = await trader(['orders', 'trace', String(sale.id), '--item', String(sale.items[1].id), '--to-origin', String(origin)]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sent()[2]).toBe(`PATCH /api/orders/sale/${sale.id}`);
    expect(t.bodyOf(2).items).toHaveLength(sale.items.length);
    expect(t.bodyOf(2).items[1].trace.traced_origins).toContain(origin);
  });

  it("leaves the other items' traces alone, even when they name orders this company cannot see", async () => {
    // Demo order 9: item 16 is traced (by the seller) to order 7, which the buyer cannot see.
    const before = await t.api('/orders/9');
    expect(before.items.map((i: any) => i.id)).toEqual([16, 17]);
    expect(before.items[0].trace.traced_orders).toEqual([7]);
    expect((await t.api('/orders/7')).detail).toMatch(/not found/i);
    const origins = (await t.api('/origins?limit=2')).results.map((o: any) => o.id);
    t.sb.requests.length = 0;
    // Repeated flags add up: both origins are traced.
    const r = await t.sct(['orders', 'trace', '9', '--item', '17', '--to-origin', String(origins[0]), '--to-origin', String(origins[1]), '--purchase']);
    expect(r.exitCode, r.stderr).toBe(0);
    const body = t.bodyOf(1);
    expect(body.items[0]).not.toHaveProperty('trace');
    expect(body.items[1].trace).toEqual({ traced_orders: [], traced_origins: origins });
    const after = await t.api('/orders/9');
    expect(after.items[0].trace).toEqual(before.items[0].trace);
    expect(after.items[1].trace.traced_origins).toEqual(origins);
  });

  it('stops before any PATCH when the item is not in the order, and checks flags first', async () => {
    const purchaseId = await newPurchase();
    const r = await t.sct(['orders', 'trace', String(purchaseId), '--item', '999999', '--to-origin', '1']);
    // The order was read, so this is a failed request (1), not a usage error (2: nothing sent).
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`item 999999 is not an item of order ${purchaseId}`);
    expect(sent()).toEqual(['GET /api/accounts/me', `GET /api/orders/${purchaseId}`]);
    t.sb.requests.length = 0;
    await t.expectUsageErrors([
      [['orders', 'trace', '5', '--to-origin', '1'], '--item ITEM_ID is required'],
      [['orders', 'trace', '5', '--item', '1'], 'give --to-order IDS and/or --to-origin IDS'],
      [['orders', 'trace', '5', '--item', '1', '--to-origin', 'a,b'], 'invalid --to-origin "a"'],
      [['orders', 'trace', '5', '--item', '1', '--to-order', '5'], 'cannot be traced to itself'],
      [['orders', 'trace', '5', '--item', '1', '--to-order', '6', '--sale', '--batch'], 'not --sale and --batch'],
    ]);
  });
});
