// The stubs the command tests stand on: they must fail when a stub is left over or a request
// has none, whatever the command does with the error.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpMock, runWith } from '../helpers/http-mock.js';

let http: HttpMock;
beforeEach(() => {
  http = new HttpMock();
});
afterEach(async () => {
  await http.close();
});

describe('HttpMock', () => {
  it('answers each stub once, in the order declared, and records what was sent', async () => {
    http.stub('GET', '/orders/1', { json: { id: 1 } }).stub('GET', '/orders/1', { json: { id: 2 } });
    http.stub('POST', '/products', { body: { name: 'x' } }, (req) => ({ status: 201, json: { id: 9, sent: req.body } }));
    const seen: unknown[] = [];
    await runWith(http, async (ctx) => {
      seen.push(await ctx.client().get('/orders/1'), await ctx.client().get('/orders/1', { limit: 5 }));
      seen.push((await ctx.client().request({ method: 'POST', path: '/products', body: { name: 'x' }, expect: 'created' })).data);
    });
    expect(seen).toEqual([{ id: 1 }, { id: 2 }, { id: 9, sent: { name: 'x' } }]);
    expect(http.sent()).toEqual(['GET /orders/1', 'GET /orders/1', 'POST /products']);
    expect(http.requests[1].query).toEqual({ limit: '5' });
    expect(http.requests[2].headers['idempotency-key']).toBeTruthy();
    expect(http.requests[2].headers.authorization).toBe('Bearer sct_test-token');
    http.verify();
  });

  it('fails verify() naming each stub not used', async () => {
    http.stub('GET', '/orders/1', { json: {} }).stub('DELETE', '/orders/2', { status: 204 });
    await runWith(http, async (ctx) => void (await ctx.client().get('/orders/1')));
    expect(() => http.verify()).toThrow(/1 HTTP stub not used:\n {2}DELETE \/orders\/2 \(at .*http-mock\.test\.ts/);
  });

  it('fails the request at once when no stub matches, and verify() after, even if the command swallowed the error', async () => {
    http.stub('GET', '/orders', { query: { limit: '1' } }, { json: { results: [] } });
    await expect(runWith(http, (ctx) => ctx.client().get('/orders', { limit: 2 }).then(() => undefined))).rejects.toThrow(
      'no HTTP stub for GET /orders?limit=2',
    );
    await runWith(http, (ctx) => ctx.client().delete('/orders/3').then(() => undefined, () => undefined));
    expect(http.unexpected).toEqual(['GET /orders?limit=2', 'DELETE /orders/3']);
    expect(() => http.verify()).toThrow(/1 HTTP stub not used:[\s\S]*2 requests without a stub:\n {2}GET \/orders\?limit=2\n {2}DELETE \/orders\/3/);
  });

  it('matches a body exactly: a field more is no match', async () => {
    http.stub('PATCH', '/products/4', { body: { name: 'a' } }, { json: {} });
    await expect(runWith(http, (ctx) => ctx.client().patch('/products/4', { name: 'a', sku: 'b' }).then(() => undefined))).rejects.toThrow(/no HTTP stub for PATCH \/products\/4 \{"name":"a","sku":"b"\}/);
    expect(() => http.verify()).toThrow(/not used/);
  });
});
