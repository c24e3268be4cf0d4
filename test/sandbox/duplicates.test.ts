// The uniqueness checks writes make (one pending invitation per e-mail, external_id per company
// and kind, sku per company) look rows up in indexes kept by the store; these tests hold the
// answers to what they were when every check scanned the whole table: a duplicate is refused
// within one request and against stored rows, and a row renamed, revoked or deleted frees its key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { all, client, OWNER, TRADER } from './helpers.js';

let sb: Sandbox;
let owner: ReturnType<typeof client>;
let trader: ReturnType<typeof client>;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, orders: 500, rateLimit: 100_000 });
  owner = client(sb, OWNER);
  trader = client(sb, TRADER);
});
afterAll(async () => {
  await sb.close();
});

const invitations = '/accounts/user-invitations';
const statuses = (r: { body: { results: Array<{ status: string }> } }) => r.body.results.map((x) => x.status);

describe('invitations', () => {
  it('refuses a second pending invitation to an e-mail within one bulk request, in any case', async () => {
    const r = await owner.post(`${invitations}/bulk-create`, {
      operations: [
        { email: 'dup.one@example.com', auth_group: 3 },
        { email: 'DUP.ONE@example.com', auth_group: 3 },
        { email: 'dup.two@example.com', auth_group: 3 },
        { email: 'dup.one@EXAMPLE.com', auth_group: 2 },
      ],
    });
    expect(statuses(r)).toEqual(['created', 'rejected', 'created', 'rejected']);
    expect(r.body.results[1].error).toEqual({ email: ['A pending invitation for this email already exists.'] });
  });

  it('refuses against stored pending invitations and members, not against revoked, expired or accepted ones', async () => {
    const stored = await all(owner, `${invitations}?limit=100`);
    const pending = stored.find((i) => i.status === 'pending')!;
    const expired = stored.find((i) => i.status === 'expired')!;
    const accepted = stored.find((i) => i.status === 'accepted')!;
    const revoked = stored.find((i) => i.status === 'revoked')!;
    const r = await owner.post(`${invitations}/bulk-create`, {
      operations: [
        { email: pending.email.toUpperCase(), auth_group: 3 },
        { email: 'Amelie.Janssens@brussels-cacao.example', auth_group: 3 },
        { email: expired.email, auth_group: 3 },
        { email: accepted.email, auth_group: 3 },
        { email: revoked.email, auth_group: 3 },
      ],
    });
    expect(statuses(r)).toEqual(['rejected', 'rejected', 'created', 'created', 'created']);
    expect(r.body.results[0].error).toEqual({ email: ['A pending invitation for this email already exists.'] });
    expect(r.body.results[1].error).toEqual({ email: ['This user is already a member of the workspace.'] });
    // Only the company's own invitations and members count: another workspace may invite both.
    const other = await trader.post(`${invitations}/bulk-create`, {
      operations: [
        { email: pending.email, auth_group: 3 },
        { email: 'amelie.janssens@brussels-cacao.example', auth_group: 3 },
      ],
    });
    expect(statuses(other)).toEqual(['created', 'created']);
  });

  it('frees an e-mail when its invitation is revoked, and blocks it again with the renewed one', async () => {
    const first = (await owner.post(invitations, { email: 'cycle@example.com', auth_group: 3 })).body;
    expect((await owner.post(`${invitations}/bulk-revoke`, { operations: [{ invitation_filters: { id: first.id } }] })).body.results[0].revoked_count).toBe(1);
    const second = await owner.post(invitations, { email: 'Cycle@example.com', auth_group: 3 });
    expect(second.status).toBe(201);
    const renewed = await owner.post(`${invitations}/renew`, { invitation: second.body.id });
    expect(renewed.status).toBe(201);
    expect((await owner.post(invitations, { email: 'cycle@example.com', auth_group: 3 })).body).toEqual({ email: ['A pending invitation for this email already exists.'] });
  });
});

describe('orders and products', () => {
  const order = (externalId: string) => ({ type: 'order', external_id: externalId, order_created_at: '2026-01-05', seller_company_id: 2, items: [] });
  const taken = { external_id: ['order with this external id already exists.'] };

  it('keeps external_id unique per company and kind through creates, renames and deletes', async () => {
    const a = (await owner.post('/orders/purchase', order('DUP-A'))).body;
    expect((await owner.post('/orders/purchase', order('DUP-A'))).body).toEqual(taken);
    // A demo order's external_id is taken too, without any write having touched it.
    const demo = (await owner.get('/orders/purchase?limit=1')).body.results[0];
    expect((await owner.post('/orders/purchase', order(demo.external_id))).body).toEqual(taken);
    // Renamed: the old external_id is free, the new one taken.
    expect((await owner.patch(`/orders/purchase/${a.id}`, { external_id: 'DUP-B' })).status).toBe(200);
    expect((await owner.post('/orders/purchase', order('DUP-B'))).body).toEqual(taken);
    const again = await owner.post('/orders/purchase', order('DUP-A'));
    expect(again.status).toBe(201);
    // Renamed back onto a taken one: refused; onto its own: fine.
    expect((await owner.patch(`/orders/purchase/${a.id}`, { external_id: 'DUP-A' })).body).toEqual(taken);
    expect((await owner.patch(`/orders/purchase/${a.id}`, { external_id: 'DUP-B' })).status).toBe(200);
    // Deleted: free again. Another kind or another company: never a clash.
    expect((await owner.delete(`/orders/${again.body.id}`)).status).toBe(204);
    expect((await owner.post('/orders/purchase', order('DUP-A'))).status).toBe(201);
    expect((await owner.post('/orders/sale', { ...order('DUP-A'), seller_company_id: undefined, buyer_company_id: 110 })).status).toBe(201);
    expect((await trader.post('/orders/purchase', { ...order('DUP-A'), seller_company_id: 101 })).status).toBe(201);
  });

  it('refuses an item id the order does not have, and keeps each item listed by id', async () => {
    const o = (await owner.post('/orders/purchase', { ...order('DUP-ITEMS'), items: [{ volume: 1 }, { volume: 2 }] })).body;
    const other = (await owner.post('/orders/purchase', { ...order('DUP-ITEMS-2'), items: [{ volume: 3 }] })).body;
    const bad = await owner.patch(`/orders/purchase/${o.id}`, { items: [{ id: o.items[0].id }, { id: other.items[0].id }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ items: [{}, { id: [`Invalid pk "${other.items[0].id}" - object does not exist.`] }] });
    const kept = await owner.patch(`/orders/purchase/${o.id}`, { items: [{ id: o.items[1].id, volume: 5 }, { id: o.items[0].id }] });
    expect(kept.body.items.map((i: any) => [i.id, i.volume])).toEqual([[o.items[1].id, 5], [o.items[0].id, 1]]);
    expect((await owner.get(`/orders-items/${o.items[1].id}`)).body.volume).toBe(5);
  });

  it('keeps sku unique per company through creates, renames and deletes', async () => {
    const skuTaken = { sku: ['product with this sku already exists.'] };
    const p = (await owner.post('/products', { name: 'Dup', sku: 'DUP-SKU-1' })).body;
    expect((await owner.post('/products', { name: 'Dup again', sku: 'DUP-SKU-1' })).body).toEqual(skuTaken);
    const demo = (await owner.get('/products?limit=1')).body.results[0];
    expect((await owner.post('/products', { name: 'Demo twin', sku: demo.sku })).body).toEqual(skuTaken);
    expect((await owner.patch(`/products/${p.id}`, { sku: 'DUP-SKU-2' })).status).toBe(200);
    expect((await owner.post('/products', { name: 'Dup 2', sku: 'DUP-SKU-2' })).body).toEqual(skuTaken);
    const q = await owner.post('/products', { name: 'Dup 1', sku: 'DUP-SKU-1' });
    expect(q.status).toBe(201);
    expect((await owner.delete(`/products/${q.body.id}`)).status).toBe(204);
    expect((await owner.post('/products', { name: 'Dup 1 again', sku: 'DUP-SKU-1' })).status).toBe(201);
    expect((await trader.post('/products', { name: 'Theirs', sku: 'DUP-SKU-2' })).status).toBe(201);
  });

  it('adds each order to a statement once, however often it is traced', async () => {
    const bought = (await owner.get('/orders?order_action=buying&limit=3')).body.results.map((o: any) => o.id);
    const s = (await owner.post('/due-diligence-statements', { type: 'EUTR', orders: [bought[0]] })).body;
    const r = await owner.post('/due-diligence-statements/trace-orders', { dds_id: s.id, order_id: [bought[0], bought[1], bought[1], bought[2]] });
    expect(r.body.results[0]).toMatchObject({ added_orders: [bought[1], bought[2]], total_orders: 3 });
    const again = await owner.post('/due-diligence-statements/trace-orders', { dds_id: s.id, order_id: bought });
    expect(again.body.results[0]).toMatchObject({ added_orders: [], total_orders: 3 });
  });
});
