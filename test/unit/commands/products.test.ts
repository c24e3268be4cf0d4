import { describe, expect, it } from 'vitest';
import { runRegistered, runWith, useHttpMock } from '../../helpers/http-mock.js';
import { listProducts, register } from '../../../src/commands/products.js';

const http = useHttpMock();
const PRODUCT = { id: 17, name: 'Cocoa butter', commodity: 'cocoa', external_id: 'BCC-P09001', tags: [] };

describe('products', () => {
  it('list --commodity: one GET with the filter', async () => {
    http.stub('GET', '/products', { query: { commodity__in: 'cocoa,coffee', limit: '10', offset: '0' } }, { json: { count: 1, next: null, previous: null, results: [PRODUCT] } });
    const { stdout } = await runWith(http, (ctx) => listProducts(ctx, { commodity: 'cocoa,coffee' }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['GET /products']);
    expect(JSON.parse(stdout)).toEqual([PRODUCT]);
  });

  it('get: one GET', async () => {
    http.stub('GET', '/products/17', { json: PRODUCT });
    const { stdout } = await runRegistered(http, register, ['products', 'get', '17', '-o', 'json']);
    expect(http.sent()).toEqual(['GET /products/17']);
    expect(JSON.parse(stdout)).toEqual(PRODUCT);
  });

  it('create: one POST of the fields given, with an Idempotency-Key', async () => {
    const body = { name: 'Cocoa butter', commodity: 'cocoa', external_id: 'BCC-P09001' };
    http.stub('POST', '/products', { body }, { status: 201, json: PRODUCT });
    const { stderr } = await runRegistered(http, register, ['products', 'create', '--name', 'Cocoa butter', '--commodity', 'cocoa', '--external-id', 'BCC-P09001', '--idempotency-key', 'key-1']);
    expect(http.sent()).toEqual(['POST /products']);
    expect(http.requests[0].headers['idempotency-key']).toBe('key-1');
    expect(stderr).toContain('Created product 17');
  });

  it('update: one PATCH of only the fields given, no Idempotency-Key', async () => {
    http.stub('PATCH', '/products/17', { body: { name: 'Bovine gelatine', tags: ['halal'] } }, { json: PRODUCT });
    await runRegistered(http, register, ['products', 'update', '17', '--name', 'Bovine gelatine', '--tag', 'halal', '-o', 'json']);
    expect(http.sent()).toEqual(['PATCH /products/17']);
    expect(http.requests[0].headers['idempotency-key']).toBeUndefined();
  });

  it('delete --yes: one DELETE', async () => {
    http.stub('DELETE', '/products/17', { status: 204 });
    const { stderr } = await runRegistered(http, register, ['products', 'delete', '17', '--yes']);
    expect(http.sent()).toEqual(['DELETE /products/17']);
    expect(stderr).toContain('Deleted product 17');
  });

  it('create --dry-run: nothing sent, the request printed', async () => {
    const { stdout } = await runRegistered(http, register, ['products', 'create', '--name', 'Cocoa butter', '--dry-run']);
    expect(http.sent()).toEqual([]);
    expect(stdout).toBe('POST /products\n{\n  "name": "Cocoa butter"\n}\n');
  });
});
