// sct products as a user runs them: sct in-process against the sandbox.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

describe('products list', () => {
  it('maps --commodity and --composition, with the shared list flags', async () => {
    const r = await t.sct(['products', 'list', '-o', 'json', '--commodity', 'cocoa', '--composition', 'simple', '--ordering', '-name', '--search', 'a', '--filter', 'sku__icontains=SKU', '--limit', '5', '--offset', '1']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests).toHaveLength(1);
    expect(t.sb.requests[0]).toMatchObject({ method: 'GET', path: '/api/products', status: 200 });
    expect(t.queryOf()).toEqual({ commodity: 'cocoa', composition: 'simple', ordering: '-name', search: 'a', sku__icontains: 'SKU', limit: '5', offset: '1' });
    const rows = JSON.parse(r.stdout) as Array<{ commodity: string; composition: string }>;
    for (const p of rows) expect(p).toMatchObject({ commodity: 'cocoa', composition: 'simple' });
  });

  it('sends commodity__in for several commodities', async () => {
    const r = await t.sct(['products', 'list', '--json', '--commodity', 'cocoa,coffee', '--limit', '100']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.queryOf()).toMatchObject({ commodity__in: 'cocoa,coffee', limit: '100' });
    for (const p of JSON.parse(r.stdout) as Array<{ commodity: string }>) expect(['cocoa', 'coffee']).toContain(p.commodity);
  });

  it('prints table, CSV and ndjson', async () => {
    const table = await t.sct(['products', 'list', '--limit', '3']);
    expect(table.exitCode, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SKU\s+NAME\s+COMMODITY\s+COMPOSITION\s+HS CODE\s+ASSESSMENT\s+CREATED$/);
    expect(lines).toHaveLength(4);
    const c = await t.sct(['products', 'list', '-o', 'csv', '--limit', '3', '--columns', 'id,sku,metadata.species']);
    const rows = parse(c.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0])).toEqual(['id', 'sku', 'metadata.species']);
    expect(Array.isArray(JSON.parse(rows[0]['metadata.species']))).toBe(true);
    const nd = await t.sct(['products', 'list', '-o', 'ndjson', '--limit', '3']);
    expect(nd.stdout.trim().split('\n').map((l) => String(JSON.parse(l).id))).toEqual(rows.map((x) => x.id));
  });

  it('follows pages with --all and --page-size', async () => {
    const r = await t.sct(['products', 'list', '--all', '--page-size', '5', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const all = JSON.parse(r.stdout) as Array<{ id: number }>;
    expect(t.sb.requests.length).toBe(Math.ceil(all.length / 5) || 1);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
  });

  it('rejects bad values before sending anything', async () => {
    await t.expectUsageErrors([
      [['products', 'list', '--commodity', 'gold'], 'invalid --commodity "gold"'],
      [['products', 'list', '--composition', 'mixed'], 'invalid --composition "mixed"'],
      [['products', 'list', '--all', '--limit', '5'], '--all and --limit cannot be combined'],
      [['products', 'list', '--filter', 'novalue'], 'expected KEY=VALUE'],
      [['products', 'get', 'abc'], 'invalid ID'],
    ], { inProcess: true });
  });
});

describe('products get, create, update, delete', () => {
  it('gets one product as JSON and as key/value lines', async () => {
    const r = await t.sct(['products', 'get', '1', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const p = JSON.parse(r.stdout);
    expect(p).toMatchObject({ id: 1, name: expect.any(String) });
    const text = await t.sct(['products', 'get', '1']);
    expect(text.stdout).toMatch(new RegExp(`^SKU\\s+${p.sku}$`, 'm'));
    expect(text.stdout).toMatch(/^ASSESSMENT SUMMARY\s+[\d.]+% passing, [\d.]+% failing$/m);
    expect(t.sb.requests.map((x) => `${x.method} ${x.path}`)).toEqual(['GET /api/products/1', 'GET /api/products/1']);
    const missing = await t.sct(['products', 'get', '999999']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('404');
  });

  it('rejects invalid create and update input with exit 2, sending nothing', async () => {
    await t.expectUsageErrors([
      [['products', 'create', '--sku', 'X-1'], /name: /],
      [['products', 'create', '--name', ''], /name: /],
      [['products', 'create', '--name', 'Beans', '--commodity', 'gold'], /commodity: /],
      [['products', 'create', '--name', 'Beans', '--composition', 'mixed'], /composition: /],
      [['products', 'create', '--name', 'Beans', '--tag', ''], /tags\[0\]: /],
      [['products', 'create', '--name', 'Beans', '--external-id', 'e'.repeat(256)], /external_id: /],
      [['products', 'create', '--file', join(t.dir, 'missing.json')], 'cannot read'],
      [['products', 'update', '1'], 'nothing to update'],
      [['products', 'update', '1', '--commodity', 'gold'], /commodity: /],
    ], { inProcess: true });
  });

  it('creates a product from flags, --set and --file', async () => {
    const file = t.writeFile('product.json', JSON.stringify({ name: 'overridden', metadata: { species: [{ common_name: 'Cacao', scientific_name: 'Theobroma cacao' }] } }));
    const r = await t.sct([
      'products', 'create', '--file', file, '--name', 'Fine cocoa beans', '--sku', 'E2E-COCOA-1', '--commodity', 'cocoa', '--composition', 'simple',
      '--hs-code', '180100', '--external-id', 'EXT-P-1', '--type', 'raw_material', '--tag', 'eudr', '--tag', 'organic', '--set', 'description=Grade A',
      '-o', 'json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Created product \d+/);
    expect(t.sb.requests).toHaveLength(1);
    expect(t.sb.requests[0]).toMatchObject({ method: 'POST', path: '/api/products', status: 201 });
    expect(t.sb.requests[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.bodyOf()).toEqual({
      name: 'Fine cocoa beans',
      metadata: { species: [{ common_name: 'Cacao', scientific_name: 'Theobroma cacao' }] },
      sku: 'E2E-COCOA-1',
      commodity: 'cocoa',
      composition: 'simple',
      hs_code: '180100',
      external_id: 'EXT-P-1',
      type: 'raw_material',
      tags: ['eudr', 'organic'],
      description: 'Grade A',
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ sku: 'E2E-COCOA-1', name: 'Fine cocoa beans', tags: ['eudr', 'organic'] });
  });

  it('reports the service rejecting a create with exit 1 and its field errors', async () => {
    const r = await t.sct(['products', 'create', '--name', 'Bad HS', '--hs-code', 'abc']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('400');
    expect(r.stderr).toMatch(/hs_code: /);
  });

  it('updates only the given fields', async () => {
    const r = await t.sct(['products', 'update', '2', '--name', 'Renamed product', '--commodity', 'coffee', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0]).toMatchObject({ method: 'PATCH', path: '/api/products/2', status: 200 });
    expect(t.bodyOf()).toEqual({ name: 'Renamed product', commodity: 'coffee' });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 2, name: 'Renamed product', commodity: 'coffee' });
    expect(r.stderr).toContain('Updated product 2');
  });

  it('deletes with --yes; without --yes and no terminal exits 2 and sends nothing', async () => {
    const no = await t.sct(['products', 'delete', '3']);
    expect(no.exitCode).toBe(2);
    expect(no.stderr).toContain('confirm with --yes');
    expect(t.sb.requests).toHaveLength(0);
    const yes = await t.sct(['products', 'delete', '3', '--yes']);
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(yes.stderr).toContain('Deleted product 3');
    expect(t.sb.requests.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual(['DELETE /api/products/3 204']);
    expect((await t.sct(['products', 'get', '3'])).exitCode).toBe(1);
  });
});
