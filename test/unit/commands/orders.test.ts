import { describe, expect, it } from 'vitest';
import { runWith, useHttpMock } from '../../helpers/http-mock.js';
import { deleteOrder } from '../../../src/commands/orders.js';
import { listOrders, showOrder } from '../../../src/commands/orders/view.js';
import { saveOrder } from '../../../src/commands/orders/save.js';

const ORDER = {
  id: 17,
  external_id: 'PO-2025-0017',
  type: 'purchase',
  company_id: 1,
  buyer_company_id: 1,
  seller_company_id: 2,
  items: [
    { id: 416, line_number: 1, buyer_product: 12, volume: 100, unit: 'kg' },
    { id: 417, line_number: 2, buyer_product: 13, volume: 5, unit: 'kg' },
  ],
};

const http = useHttpMock();

describe('orders', () => {
  it('get: one GET of the order', async () => {
    http.stub('GET', '/orders/17', { json: ORDER });
    const { stdout } = await runWith(http, (ctx) => showOrder(ctx, 17), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['GET /orders/17']);
    expect(JSON.parse(stdout)).toEqual(ORDER);
  });

  it('list --buying: one page, the side and the limit in the query', async () => {
    http.stub('GET', '/orders', { query: { order_action: 'buying', limit: '10', offset: '0' } }, { json: { count: 1, next: null, previous: null, results: [ORDER] } });
    const { stdout } = await runWith(http, (ctx) => listOrders(ctx, { buying: true }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['GET /orders']);
    expect(JSON.parse(stdout)).toEqual([ORDER]);
  });

  it('create --purchase: one POST to the purchase endpoint with the body and an Idempotency-Key', async () => {
    const body = {
      external_id: 'PO-1',
      type: 'order',
      order_created_at: '2025-03-01',
      border_cross_country_code: 'CI',
      seller_company_id: 2,
      items: [{ buyer_product: 12, volume: 2500, unit: 'kg' }],
    };
    http.stub('POST', '/orders/purchase', { body }, { status: 201, json: { id: 18, ...body } });
    await runWith(http, (ctx) => saveOrder(ctx, { purchase: true, externalId: 'PO-1', type: 'order', orderCreatedAt: '2025-03-01', borderCrossCountryCode: 'CI', sellerCompanyId: '2', item: ['product=12,volume=2500,unit=kg'] }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['POST /orders/purchase']);
    expect(http.requests[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('update with items: the order is read for the items the new list drops, then one PATCH', async () => {
    http.stub('GET', '/orders/17', { json: ORDER });
    const body = { items: [{ id: 416, volume: 120 }] };
    http.stub('PATCH', '/orders/purchase/17', { body }, { json: { ...ORDER, items: [{ ...ORDER.items[0], volume: 120 }] } });
    const { stderr } = await runWith(http, (ctx) => saveOrder(ctx, { purchase: true, item: ['id=416,volume=120'] }, 17), { flags: { yes: true, output: 'json' } });
    expect(http.sent()).toEqual(['GET /orders/17', 'PATCH /orders/purchase/17']);
    expect(http.requests[1].headers['idempotency-key']).toBeUndefined();
    expect(stderr).toContain('Updated purchase order 17');
  });

  it('update without items: the PATCH alone', async () => {
    http.stub('PATCH', '/orders/sale/17', { body: { buyer_external_id: 'B-9' } }, { json: ORDER });
    await runWith(http, (ctx) => saveOrder(ctx, { sale: true, buyerExternalId: 'B-9' }, 17), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['PATCH /orders/sale/17']);
  });

  it('delete --yes: the DELETE alone (nobody is asked, so the order is not read)', async () => {
    http.stub('DELETE', '/orders/17', { status: 204 });
    const { stderr } = await runWith(http, (ctx) => deleteOrder(ctx, 17), { flags: { yes: true } });
    expect(http.sent()).toEqual(['DELETE /orders/17']);
    expect(stderr).toContain('Deleted order 17');
  });
});
