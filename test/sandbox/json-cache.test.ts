// Orders are served from JSON serialised once. These tests hold every answer to the bytes
// JSON.stringify gives for the objects the store holds at that moment: on a fresh sandbox, and
// after each kind of write that changes what an order shows (the order itself, its items, the
// products, value chains and statements it embeds), and when a statement's registry work
// finishes without any write.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Ctx } from '../../src/sandbox/router.js';
import { orderObject } from '../../src/sandbox/routes/orders.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { client, OWNER, TRADER } from './helpers.js';

const DELAY = 2000;
let sb: Sandbox;
let owner: ReturnType<typeof client>;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, orders: 400, rateLimit: 100_000, statementDelayMs: DELAY });
  owner = client(sb, OWNER);
});
afterAll(async () => {
  await sb.close();
});

/** What the order looks like rendered now from the store, straight through JSON.stringify. */
function rendered(id: number): unknown {
  return orderObject({ store: sb.store } as Ctx, sb.store.orders.get(id)!);
}

/** GET as raw text, so the bytes themselves are compared. */
async function text(path: string, token = OWNER): Promise<{ status: number; text: string }> {
  const r = await fetch(`${sb.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: r.status, text: await r.text() };
}

/** The answer is exactly JSON.stringify of the page with each order rendered from the store now. */
async function expectListFresh(path: string, token = OWNER): Promise<any> {
  const r = await text(path, token);
  expect(r.status).toBe(200);
  const page = JSON.parse(r.text);
  expect(r.text).toBe(JSON.stringify({ count: page.count, next: page.next, previous: page.previous, results: page.results.map((o: any) => rendered(o.id)) }));
  return page;
}

async function expectOrderFresh(id: number, path = `/orders/${id}`): Promise<any> {
  const r = await text(path);
  expect(r.status).toBe(200);
  expect(r.text).toBe(JSON.stringify(rendered(id)));
  return JSON.parse(r.text);
}

const BUYING = '/orders?order_action=buying&limit=1000';

describe('answers equal JSON.stringify of the same objects', () => {
  it('for lists, pages, filters, kinds and single orders, served twice', async () => {
    const lists = [
      BUYING,
      '/orders?order_action=buying&limit=25&offset=50&ordering=-id',
      '/orders?order_action=buying&type=order&search=eudr',
      '/orders?order_action=buying&limit=1000&offset=100',
      '/orders/purchase?limit=1000',
      '/orders/sale?limit=1000',
      '/orders/batch?limit=1000',
      '/orders?order_action=selling&limit=1000',
    ];
    for (let round = 0; round < 2; round++) {
      for (const path of lists) await expectListFresh(path);
      await expectListFresh('/orders?order_action=selling&limit=1000', TRADER);
    }
    const ids = (await expectListFresh('/orders/purchase?limit=5')).results.map((o: any) => o.id);
    for (const id of ids) {
      await expectOrderFresh(id);
      await expectOrderFresh(id, `/orders/purchase/${id}`);
    }
  });
});

describe('no stale answer after a write', () => {
  /** A purchase the company recorded, with its value chain and a product on its first item, served once so it is cached. */
  async function cachedPurchase(): Promise<any> {
    const page = await expectListFresh('/orders/purchase?limit=1000&ordering=id');
    const o = page.results.find((x: any) => x.company_id === 1 && x.value_chain !== null && x.items[0]?.buyer_product !== null && x.due_diligence_statements.length === 0);
    await expectOrderFresh(o.id);
    return o;
  }

  it('after updating, creating and deleting orders', async () => {
    const o = await cachedPurchase();
    const patched = await owner.patch(`/orders/purchase/${o.id}`, { tags: ['fresh'], items: [{ id: o.items[0].id, volume: 7 }] });
    expect(patched.status).toBe(200);
    expect((await expectOrderFresh(o.id)).tags).toEqual(['fresh']);
    const listed = (await expectListFresh(BUYING)).results.find((x: any) => x.id === o.id);
    expect(listed.items.map((i: any) => i.volume)).toEqual([7]);

    const made = await owner.post('/orders/purchase', { type: 'order', external_id: 'CACHE-NEW', order_created_at: '2099-01-01', seller_company_id: 2 });
    expect(made.status).toBe(201);
    expect((await expectListFresh(BUYING)).results[0].id).toBe(made.body.id);

    expect((await owner.delete(`/orders/${made.body.id}`)).status).toBe(204);
    expect((await text(`/orders/${made.body.id}`)).status).toBe(404);
    expect((await expectListFresh(BUYING)).results.some((x: any) => x.id === made.body.id)).toBe(false);
  });

  it('after the deprecated order item endpoints add, change and remove an item', async () => {
    const o = await cachedPurchase();
    const item = await owner.post('/orders-items', { order: o.id, volume: 3 });
    expect(item.status).toBe(201);
    expect((await expectOrderFresh(o.id)).items.map((i: any) => i.id)).toContain(item.body.id);
    expect((await owner.patch(`/orders-items/${item.body.id}`, { volume: 4 })).status).toBe(200);
    expect((await expectOrderFresh(o.id)).items.find((i: any) => i.id === item.body.id).volume).toBe(4);
    expect((await owner.delete(`/orders-items/${item.body.id}`)).status).toBe(204);
    expect((await expectOrderFresh(o.id)).items.map((i: any) => i.id)).not.toContain(item.body.id);
  });

  it('after changing an embedded product or value chain, and an information request changing a value chain status', async () => {
    const o = await cachedPurchase();
    const product = o.items[0].buyer_product;
    expect((await owner.patch(`/products/${product}`, { name: 'Renamed for the cache test' })).status).toBe(200);
    expect((await expectOrderFresh(o.id)).items[0].buyer_product_detail.name).toBe('Renamed for the cache test');
    await expectListFresh(BUYING);

    expect((await owner.patch(`/value-chains/${o.value_chain}`, { description: 'Described anew', status: 'active' })).status).toBe(200);
    expect((await expectOrderFresh(o.id)).value_chain_detail).toMatchObject({ description: 'Described anew', status: 'active' });
    expect((await owner.patch(`/value-chains/${o.value_chain}`, { status: 'declined' })).status).toBe(200);
    await expectOrderFresh(o.id);
    // An information request invites the supplier of a declined chain: the chain becomes "invited".
    const sent = await owner.post('/information-requests/bulk', { information_requests: [{ value_chain_id: o.value_chain }] });
    expect(sent.body.results.processed[0].invitation_action).toBe('invitation_sent');
    expect((await expectOrderFresh(o.id)).value_chain_detail.status).toBe('invited');

    expect((await owner.delete(`/value-chains/${o.value_chain}`)).status).toBe(204);
    expect((await expectOrderFresh(o.id)).value_chain_detail).toBeNull();
    await expectListFresh(BUYING);
  });

  it('after statements are created, traced, renamed and deleted, and when their registry work finishes', async () => {
    const o = await cachedPurchase();
    // The clock (the sandbox's too, in this process) stands still until moved past the registry's answer.
    vi.useFakeTimers({ toFake: ['Date'] });
    let statement: number;
    try {
      const s = await owner.post('/due-diligence-statements', { type: 'EUDR', dds_identifier: '25BECACHE00001', orders: [o.id] });
      expect(s.status).toBe(201);
      statement = s.body.id;
      expect((await expectOrderFresh(o.id)).due_diligence_statements).toMatchObject([{ id: statement, status: 'in_progress' }]);
      await expectListFresh(BUYING);
      // No write: the registry answers after DELAY, and the order shows it.
      vi.setSystemTime(Date.now() + DELAY);
      expect((await expectOrderFresh(o.id)).due_diligence_statements).toMatchObject([{ id: statement, status: 'complete' }]);
      await expectListFresh(BUYING);
    } finally {
      vi.useRealTimers();
    }

    expect((await owner.patch(`/due-diligence-statements/${statement}`, { name: 'Named later' })).status).toBe(200);
    expect((await expectOrderFresh(o.id)).due_diligence_statements[0].name).toBe('Named later');

    const other = (await expectListFresh('/orders/purchase?limit=1000&ordering=-id')).results.find((x: any) => x.due_diligence_statements.length === 0);
    expect((await owner.post('/due-diligence-statements/trace-orders', { dds_id: statement, order_id: [other.id] })).status).toBe(200);
    expect((await expectOrderFresh(other.id)).due_diligence_statements.map((x: any) => x.id)).toEqual([statement]);

    expect((await owner.delete(`/due-diligence-statements/${statement}`)).status).toBe(204);
    expect((await expectOrderFresh(o.id)).due_diligence_statements).toEqual([]);
    expect((await expectOrderFresh(other.id)).due_diligence_statements).toEqual([]);
    await expectListFresh(BUYING);
  });

  it('after a write that was refused', async () => {
    const o = await cachedPurchase();
    expect((await owner.patch(`/orders/purchase/${o.id}`, { items: [{ id: 999999999 }] })).status).toBe(400);
    await expectOrderFresh(o.id);
    await expectListFresh(BUYING);
  });
});
