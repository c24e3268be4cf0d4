// Orders, products, origins and value chains: tenancy, the list engine, bodies and kinds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE, startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { all, client, OWNER, TRADER } from './helpers.js';

let sb: Sandbox;
let cacao: ReturnType<typeof client>;
let trader: ReturnType<typeof client>;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, orders: 700 });
  cacao = client(sb, OWNER);
  trader = client(sb, TRADER);
});
afterAll(async () => {
  await sb.close();
});

describe('order lists', () => {
  it('requires order_action', async () => {
    for (const p of ['/orders', '/orders/statistics']) {
      const r = await cacao.get(p);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ order_action: ['This field is required.'] });
    }
    expect((await cacao.get('/orders?order_action=lending')).body.order_action[0]).toMatch(/valid choice/);
  });

  it('scopes buying and selling to the company side', async () => {
    const buying = await cacao.get('/orders?order_action=buying&limit=1000');
    expect(buying.body.results.every((o: any) => o.buyer_company_id === 1)).toBe(true);
    expect(new Set(buying.body.results.map((o: any) => o.type))).toEqual(new Set(['order', 'produced_batch', 'manufactured_batch', 'product_chain']));
    const selling = await trader.get('/orders?order_action=selling&limit=1000');
    expect(selling.body.results.every((o: any) => o.seller_company_id === 2)).toBe(true);
    // An order the trader sells to the chocolate maker is visible to both sides.
    const shared = selling.body.results.find((o: any) => o.buyer_company_id === 1);
    expect(shared).toBeTruthy();
    expect((await cacao.get(`/orders/${shared.id}`)).status).toBe(200);
    // The timber importer sees none of it.
    expect((await client(sb, 'sct_demo_member_timber').get(`/orders/${shared.id}`)).body).toEqual({ detail: 'Not found.' });
  });

  it('paginates with absolute next/previous links that keep other parameters', async () => {
    const first = await cacao.get('/orders?order_action=buying&type=order');
    expect(first.body.results).toHaveLength(10);
    const next = new URL(first.body.next);
    expect(next.origin).toBe(sb.origin);
    expect(next.pathname).toBe('/api/orders');
    expect(Object.fromEntries(next.searchParams)).toEqual({ order_action: 'buying', type: 'order', limit: '10', offset: '10' });
    expect(first.body.previous).toBeNull();
    const second = await cacao.get(first.body.next);
    expect(new URL(second.body.previous).searchParams.has('offset')).toBe(false);
    expect(second.body.results[0].id).not.toBe(first.body.results[0].id);
    const third = await cacao.get(second.body.next);
    expect(new URL(third.body.previous).searchParams.get('offset')).toBe('10');
    // An offset past 2^53 is counted exactly in the link back, as the service's Python does.
    const far = await cacao.get('/orders?order_action=buying&offset=99999999999999999999999');
    expect(far.body.results).toEqual([]);
    expect(new URL(far.body.previous).searchParams.get('offset')).toBe('99999999999999999999989');
    const everything = await all(cacao, '/orders?order_action=buying&type=order&limit=200');
    expect(everything).toHaveLength(first.body.count);
    expect(new Set(everything.map((o) => o.id)).size).toBe(first.body.count);
  });

  it('clamps the page size to MAX_PAGE_SIZE', async () => {
    expect(MAX_PAGE_SIZE).toBe(1000);
    const r = await cacao.get('/orders?order_action=buying&limit=50000&offset=3');
    expect(r.body.results).toHaveLength(Math.min(r.body.count - 3, MAX_PAGE_SIZE));
    expect(new URL(r.body.previous).searchParams.get('limit')).toBe('1000');
    expect((await cacao.get('/orders?order_action=buying&limit=0')).body.results).toHaveLength(10);
    expect((await cacao.get('/orders?order_action=buying&limit=abc')).body.results).toHaveLength(10);
  });

  it('filters by enums, dates, nested items and tags with their suffixes', async () => {
    const rows = await all(cacao, '/orders?order_action=buying&limit=1000');
    const check = async (q: string, pred: (o: any) => boolean) => {
      const got = await all(cacao, `/orders?order_action=buying&limit=1000&${q}`);
      const want = rows.filter(pred);
      expect(want.length, q).toBeGreaterThan(0);
      expect(got.map((o) => o.id).sort(), q).toEqual(want.map((o) => o.id).sort());
    };
    await check('type=produced_batch', (o) => o.type === 'produced_batch');
    await check('type__in=order,product_chain', (o) => ['order', 'product_chain'].includes(o.type));
    await check('buyer_company_status__in=draft,closed', (o) => ['draft', 'closed'].includes(o.buyer_company_status));
    await check('seller_company_status=failing', (o) => o.seller_company_status === 'failing');
    await check('assessment_status__in=passing,mitigated', (o) => ['passing', 'mitigated'].includes(o.assessment_status));
    await check('order_created_at__gte=2025-06-01&order_created_at__lte=2025-06-30', (o) => o.order_created_at >= '2025-06-01' && o.order_created_at <= '2025-06-30');
    await check('order_arrival_at__lte=2024-03-01', (o) => o.order_arrival_at !== null && o.order_arrival_at <= '2024-03-01');
    await check('value_chain=1', (o) => o.value_chain === 1);
    await check('border_cross_country_code__in=BE,NL', (o) => ['BE', 'NL'].includes(o.border_cross_country_code));
    const ids = rows.slice(0, 5).map((o) => o.id);
    await check(`id__in=${ids.join(',')}`, (o) => ids.includes(o.id));
    await check(`id__exclude_in=${ids.join(',')}`, (o) => !ids.includes(o.id));
    await check('tags__name=eudr', (o) => o.tags.includes('eudr'));
    await check('tags__name__icontains=TRADE', (o) => o.tags.some((t: string) => t.includes('trade')));
    await check('tags__name__in=organic,spot', (o) => o.tags.some((t: string) => ['organic', 'spot'].includes(t)));
    await check('tags__slug=rainforest-alliance', (o) => o.tags.includes('rainforest-alliance'));
    const items = (o: any) => o.items as any[];
    await check('items__buyer_product__commodity__in=coffee,palm_oil', (o) => items(o).some((i) => ['coffee', 'palm_oil'].includes(i.buyer_product_detail?.commodity)));
    await check('items__buyer_product__commodity=wood', (o) => items(o).some((i) => i.buyer_product_detail?.commodity === 'wood'));
    await check('items__seller_product__composition=composite', (o) => items(o).some((i) => i.seller_product_detail?.composition === 'composite'));
    await check('items__buyer_product__name__icontains=cocoa%20butter', (o) => items(o).some((i) => i.buyer_product_detail?.name.toLowerCase().includes('cocoa butter')));
    await check('items__buyer_product__sku__startswith=BCC-COF', (o) => items(o).some((i) => i.buyer_product_detail?.sku.startsWith('BCC-COF')));
    await check('items__seller_product__isnull=true', (o) => items(o).some((i) => i.seller_product === null));
    await check('items__external_id__endswith=-L3', (o) => items(o).some((i) => i.external_id.endsWith('-L3')));
    await check('items__unit=t', (o) => items(o).some((i) => i.unit === 't'));
    await check('items__volume__gte=20000', (o) => items(o).some((i) => i.volume >= 20000));
    const origin = rows.flatMap((o) => items(o).flatMap((i) => i.trace.traced_origins))[0];
    await check(`items__traced_origins=${origin}`, (o) => items(o).some((i) => i.trace.traced_origins.includes(origin)));
    await check(`items__traced_origins__in=${origin},99999`, (o) => items(o).some((i) => i.trace.traced_origins.includes(origin)));
    await check('passing_percentage_gte=50', (o) => o.assessment_summary.passing_percentage >= 50);
    await check('failing_percentage_gte=100', (o) => o.assessment_summary.failing_percentage >= 100);
    await check('due_diligence_statements__isnull=false', (o) => o.due_diligence_statements.length > 0);
    await check('due_diligence_statements__isnull=true', (o) => o.due_diligence_statements.length === 0);
    await check('search=eudr', (o) => o.tags.includes('eudr') || `${o.buyer_external_id} ${o.seller_external_id}`.toLowerCase().includes('eudr'));
  });

  it('rejects invalid filter values with the parameter as field', async () => {
    expect((await cacao.get('/orders?order_action=buying&type__in=order,bogus')).body).toEqual({
      'type__in': ['Select a valid choice. bogus is not one of the available choices.'],
    });
    expect((await cacao.get('/orders?order_action=buying&order_created_at__gte=yesterday')).body).toEqual({ order_created_at__gte: ['Enter a valid date.'] });
    // A day the month does not have is no date either (a body refuses it too).
    expect((await cacao.get('/orders?order_action=buying&order_created_at__gte=2025-02-30')).body).toEqual({ order_created_at__gte: ['Enter a valid date.'] });
    expect((await cacao.get('/orders?order_action=buying&order_created_at__gte=2024-02-29')).status).toBe(200);
    expect((await cacao.get('/orders?order_action=buying&items__buyer_product__commodity=gold')).status).toBe(400);
    expect((await cacao.get('/orders?order_action=buying&passing_percentage_gte=120')).status).toBe(400);
    expect((await cacao.get('/orders?order_action=buying&value_chain=x')).body).toEqual({ value_chain: ['Enter a whole number.'] });
  });

  it('ignores every query parameter its document does not list, as django-filter does', async () => {
    const every = (await cacao.get('/orders?order_action=buying&limit=1')).body.count;
    const one = (await all(cacao, '/orders?order_action=buying&limit=1000')).find((o) => o.external_id)!;
    // Each is a field the sandbox has or a lookup its type fits, but not a filter the document lists.
    for (const q of [
      `external_id=${one.external_id}`, 'company_id=2', 'buyer_company_id=2', 'seller_company_id=2', 'signed_off_at__isnull=true',
      'created_at__gte=2100-01-01', 'items__traced_orders=1', 'id__gt=5', 'id__lt=5', 'type__iexact=ORDER', 'type__exclude=order',
      'items__external_id__contains=x', 'order_created_at__gt=2100-01-01', 'id__exact=1', 'due_diligence_statements=1',
    ]) expect((await cacao.get(`/orders?order_action=buying&limit=1&${q}`)).body.count, q).toBe(every);
    // The statistics take the same filters.
    const total = (r: { body: Array<{ order_count: number }> }) => r.body.reduce((n, g) => n + g.order_count, 0);
    expect(total(await cacao.get(`/orders/statistics?order_action=buying&external_id=${one.external_id}`))).toBe(every);
    // What the document lists still narrows the list.
    expect((await cacao.get(`/orders?order_action=buying&id=${one.id}`)).body.count).toBe(1);
    expect((await cacao.get(`/orders?order_action=buying&id__exclude_in=${one.id}`)).body.count).toBe(every - 1);

    const origins = (await cacao.get('/origins?limit=1')).body.count;
    for (const q of ['id=1', 'id__gte=100000', 'name__iexact=x', 'country_code__startswith=ZZ', 'created_at__gt=2100-01-01'])
      expect((await cacao.get(`/origins?limit=1&${q}`)).body.count, q).toBe(origins);
    expect((await cacao.get('/origins?limit=1&id__in=1')).body.count).toBe(1);
    // A list filter given twice is read as django-filter reads it: its last value alone.
    const two = (await all(cacao, '/orders?order_action=buying&limit=1000')).slice(0, 2).map((o) => o.id);
    expect((await cacao.get(`/orders?order_action=buying&id__in=${two[0]}&id__in=${two[1]}`)).body.results.map((o: { id: number }) => o.id)).toEqual([two[1]]);
    // A boolean filter whose value is no boolean is no filter (django-filter's BooleanWidget), not a 400.
    for (const v of ['yes', '', 'maybe'])
      expect((await cacao.get(`/orders?order_action=buying&limit=1&due_diligence_statements__isnull=${v}`)).body.count, v).toBe(every);

    const statements = (await cacao.get('/due-diligence-statements?limit=1')).body.count;
    for (const q of ['assessment_status=passing', 'created_at__date__gte=2100-01-01', 'created_at__date=2000-01-01', 'id__gt=100000', 'orders=1'])
      expect((await cacao.get(`/due-diligence-statements?limit=1&${q}`)).body.count, q).toBe(statements);
  });

  it('orders by several keys and rejects unknown ones', async () => {
    const r = await all(cacao, '/orders?order_action=buying&limit=1000&ordering=type,-order_created_at');
    for (let i = 1; i < r.length; i++) {
      const [a, b] = [r[i - 1], r[i]];
      expect(a.type <= b.type).toBe(true);
      if (a.type === b.type) expect(a.order_created_at >= b.order_created_at).toBe(true);
    }
    const bad = await cacao.get('/orders?order_action=buying&ordering=-colour');
    expect(bad.status).toBe(400);
    expect(bad.body.ordering[0]).toMatch(/colour/);
  });

  it('answers statistics grouped and bucketed', async () => {
    const total = (await cacao.get('/orders?order_action=buying&limit=1')).body.count;
    const plain = await cacao.get('/orders/statistics?order_action=buying');
    expect(plain.body).toEqual([{ order_count: total, date: null, type: null, buyer_company_status: null, seller_company_status: null, assessment_status: null, value_chain_id: null }]);
    const grouped = await cacao.get('/orders/statistics?order_action=buying&group_by=type&group_by=assessment_status&delimit_by=monthly');
    expect(grouped.status).toBe(200);
    expect(grouped.body.reduce((s: number, r: any) => s + r.order_count, 0)).toBe(total);
    expect(grouped.body.every((r: any) => /^\d{4}-\d{2}-01$/.test(r.date) && r.type && r.assessment_status && r.buyer_company_status === null)).toBe(true);
    const yearly = await cacao.get('/orders/statistics?order_action=buying&group_by=type,value_chain_id&delimit_by=yearly&type=order');
    expect(yearly.body.every((r: any) => r.type === 'order' && r.date.endsWith('-01-01') && 'value_chain_id' in r)).toBe(true);
    expect((await cacao.get('/orders/statistics?order_action=buying&group_by=colour')).body.group_by).toBeTruthy();
    expect((await cacao.get('/orders/statistics?order_action=buying&delimit_by=hourly')).status).toBe(400);
  });
});

describe('order bodies', () => {
  const body = {
    type: 'order',
    external_id: 'PO-TEST-0001',
    order_created_at: '2026-01-15',
    seller_company_id: 2,
    tags: ['eudr'],
    items: [
      { buyer_product: 1, volume: 1200.5, unit: 'kg', metadata: { supplementary_unit: 'bags' } },
      { buyer_product: 2, volume: 10, trace: { traced_origins: [1, 2] } },
    ],
  };

  it('creates a purchase with nested items and rejects a duplicate external_id', async () => {
    const r = await cacao.post('/orders/purchase', body);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ company_id: 1, buyer_company_id: 1, seller_company_id: 2, external_id: 'PO-TEST-0001', buyer_company_status: 'draft' });
    expect(r.body.items).toHaveLength(2);
    expect(r.body.items[0]).toMatchObject({ line_number: 1, volume: 1200.5, buyer_product_detail: { id: 1 }, external_id: 'PO-TEST-0001-L1' });
    expect(r.body.items[1]).toMatchObject({ traced_origin_count: '2' });
    const dup = await cacao.post('/orders/purchase', body);
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ external_id: ['order with this external id already exists.'] });
    // The same external_id in another kind or company is fine.
    expect((await cacao.post('/orders/sale', { ...body, seller_company_id: undefined, items: [] })).status).toBe(201);
    // The supplier now sees it when selling.
    const seen = await trader.get(`/orders?order_action=selling&search=PO-TEST-0001`);
    expect(seen.body.results.map((o: any) => o.id)).toContain(r.body.id);
  });

  it('validates the documented fields', async () => {
    const r = await cacao.post('/orders/purchase', { type: 'crate', external_id: '', order_created_at: '15/01/2026', tags: [''], border_cross_country_code: 'BEL', seller_company_id: -1 });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body).sort()).toEqual(['border_cross_country_code', 'external_id', 'order_created_at', 'seller_company_id', 'tags', 'type']);
    expect(r.body.external_id).toEqual(['This field may not be blank.']);
    expect(r.body.seller_company_id).toEqual(['Ensure this value is greater than or equal to 0.']);
    const tooBig = await cacao.post('/orders/purchase', { ...body, external_id: 'PO-BIG', seller_company_id: 2147483648 });
    expect(tooBig.body).toEqual({ seller_company_id: ['Ensure this value is less than or equal to 2147483647.'] });
    expect((await cacao.post('/orders/purchase', { ...body, external_id: 'PO-STR', seller_company_id: 'x' })).body).toEqual({ seller_company_id: ['A valid integer is required.'] });
    expect((await cacao.post('/orders/purchase', {})).body).toMatchObject({ type: ['This field is required.'], external_id: ['This field is required.'], order_created_at: ['This field is required.'] });
    const longId = await cacao.post('/orders/purchase', { ...body, external_id: 'x'.repeat(256) });
    expect(longId.body.external_id[0]).toMatch(/no more than 255/);
    const batch = await cacao.post('/orders/batch', { ...body, external_id: 'B-1', company_id: 1, tags: undefined });
    expect(batch.body).toEqual({ tags: ['This field is required.'] });
    const foreign = await cacao.post('/orders/purchase', { ...body, external_id: 'PO-TEST-FOREIGN', items: [{ buyer_product: 40 }, { buyer_product: 1, trace: { traced_origins: [40] } }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.items[0].buyer_product[0]).toMatch(/Invalid pk/);
    expect(foreign.body.items[1].trace.traced_origins[0]).toMatch(/Invalid pk "40"/);
  });

  it('reports element errors with their messages: ListField style for values, list style for nested objects', async () => {
    const tags = await cacao.post('/orders/batch', { company_id: 1, type: 'produced_batch', external_id: 'B-TAGS', order_created_at: '2026-01-02', tags: ['', 'x'] });
    expect(tags.status).toBe(400);
    expect(tags.body).toEqual({ tags: { '0': ['This field may not be blank.'] } });
    const items = await cacao.post('/orders/purchase', {
      ...body,
      external_id: 'PO-TEST-ELEMENTS',
      dds_identifiers: ['ok', ''],
      items: [5, { buyer_product: 1, volume: 'lots' }, { buyer_product: 1, trace: { traced_orders: [1, 'x'] } }],
    });
    expect(items.status).toBe(400);
    expect(items.body).toEqual({
      dds_identifiers: { '1': ['This field may not be blank.'] },
      items: [
        { non_field_errors: ['Invalid data. Expected a dictionary.'] },
        { volume: ['A valid number is required.'] },
        { trace: { traced_orders: { '1': ['A valid integer is required.'] } } },
      ],
    });
  });

  it('answers a country object for every ISO 3166-1 code a border crossing names, not only the demo data\'s', async () => {
    const o = (await cacao.post('/orders/purchase', { ...body, external_id: 'PO-TEST-BORDER', border_cross_country_code: 'IN' })).body;
    expect(o.border_cross_country).toMatchObject({ alpha_2: 'IN', alpha_3: 'IND', numeric: '356', name: 'India', official_name: 'Republic of India', eu_status: 'non_member' });
    const r = await cacao.patch(`/orders/purchase/${o.id}`, { border_cross_country_code: 'HN' });
    expect(r.body.border_cross_country).toMatchObject({ alpha_2: 'HN', name: 'Honduras' });
    for (const code of ['AR', 'CN', 'KE', 'PY']) {
      const origin = (await cacao.post('/origins', { name: `Plot in ${code}`, country_code: code })).body;
      expect(origin.country?.alpha_2, code).toBe(code);
      await cacao.delete(`/origins/${origin.id}`);
    }
  });

  it('patches partially, replacing the item list', async () => {
    const o = (await cacao.post('/orders/purchase', { ...body, external_id: 'PO-TEST-PATCH' })).body;
    const [first] = o.items;
    const r = await cacao.patch(`/orders/purchase/${o.id}`, { buyer_company_status: 'ready_for_review', items: [{ id: first.id, volume: 5 }, { buyer_product: 3, volume: 7 }] });
    expect(r.status).toBe(200);
    expect(r.body.buyer_company_status).toBe('ready_for_review');
    expect(r.body.external_id).toBe('PO-TEST-PATCH');
    expect(r.body.items).toHaveLength(2);
    expect(r.body.items[0]).toMatchObject({ id: first.id, volume: 5, buyer_product: 1, metadata: { supplementary_unit: 'bags' } });
    expect(r.body.items[1].id).toBeGreaterThan(first.id);
    // The seller cannot patch it as a purchase, but as a sale.
    expect((await trader.patch(`/orders/purchase/${o.id}`, { type: 'order' })).status).toBe(404);
    expect((await trader.patch(`/orders/sale/${o.id}`, { seller_company_status: 'passing' })).body.seller_company_status).toBe('passing');
    const bad = await cacao.patch(`/orders/purchase/${o.id}`, { items: [{ id: 999999 }] });
    expect(bad.body.items[0].id[0]).toMatch(/Invalid pk/);
  });

  it('keeps an item sent as {id} as it is, and keeps external_id unique per company and kind on PATCH too (what orders sync relies on)', async () => {
    const o = (await cacao.post('/orders/purchase', { ...body, external_id: 'PO-TEST-SYNC' })).body;
    const [a, b] = o.items;
    const r = await cacao.patch(`/orders/purchase/${o.id}`, { items: [{ id: a.id }, { id: b.id, unit: 't' }, { buyer_product: 3, volume: 1, line_number: 7 }] });
    expect(r.status).toBe(200);
    const strip = ({ updated_at: _u, ...rest }: any) => rest;
    expect(strip(r.body.items[0])).toEqual(strip(a));
    expect(r.body.items[1]).toMatchObject({ id: b.id, unit: 't', volume: 10, trace: b.trace });
    expect(r.body.items[2]).toMatchObject({ line_number: 7, buyer_product: 3, external_id: 'PO-TEST-SYNC-L7' });
    const taken = await cacao.patch(`/orders/purchase/${o.id}`, { external_id: 'PO-TEST-0001' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ external_id: ['order with this external id already exists.'] });
    // Another company's order of that external id is no clash.
    expect((await trader.post('/orders/purchase', { ...body, external_id: 'PO-TEST-SYNC', items: [] })).status).toBe(201);
  });

  it('soft deletes: creator only, then 404 and gone from lists', async () => {
    const o = (await cacao.post('/orders/purchase', { ...body, external_id: 'PO-TEST-DEL' })).body;
    expect((await trader.delete(`/orders/${o.id}`)).status).toBe(403);
    expect((await cacao.delete(`/orders/${o.id}`)).status).toBe(204);
    expect((await cacao.get(`/orders/${o.id}`)).status).toBe(404);
    expect((await cacao.get(`/orders?order_action=buying&id=${o.id}`)).body.count).toBe(0);
    expect((await cacao.get('/orders/not-a-number')).status).toBe(404);
    // A deleted order's external_id can be used again.
    expect((await cacao.post('/orders/purchase', { ...body, external_id: 'PO-TEST-DEL' })).status).toBe(201);
  });

  it('serves the deprecated per-kind and order item endpoints', async () => {
    const batches = await cacao.get('/orders/batch?limit=5');
    expect(batches.body.results.every((o: any) => o.type !== 'order' && o.company_id === 1)).toBe(true);
    const b = (await cacao.post('/orders/batch', { company_id: 1, type: 'produced_batch', external_id: 'BATCH-T-1', order_created_at: '2026-01-02', tags: ['line-2'] })).body;
    expect((await cacao.get(`/orders/batch/${b.id}`)).body.external_id).toBe('BATCH-T-1');
    expect((await cacao.post('/orders/batch', { company_id: 2, type: 'produced_batch', external_id: 'BATCH-T-2', order_created_at: '2026-01-02', tags: ['x'] })).status).toBe(400);
    expect((await cacao.get(`/orders/sale/${b.id}`)).status).toBe(404);
    expect((await cacao.get('/orders/purchase?limit=3')).body.results.every((o: any) => o.buyer_company_id === 1)).toBe(true);
    const item = await cacao.post('/orders-items', { order: b.id, buyer_product: 5, volume: 3 });
    expect(item.status).toBe(201);
    expect((await cacao.patch(`/orders-items/${item.body.id}`, { volume: 4 })).body.volume).toBe(4);
    expect((await cacao.get(`/orders-items?order=${b.id}`)).body.count).toBe(1);
    expect((await cacao.delete(`/orders-items/${item.body.id}`)).status).toBe(204);
    expect((await cacao.get(`/orders/${b.id}`)).body.items).toHaveLength(0);
    expect((await cacao.delete(`/orders/batch/${b.id}`)).status).toBe(204);
  });
});

describe('products, origins, value chains', () => {
  it('keeps each company to its own objects', async () => {
    const mine = await cacao.get('/products?limit=1000');
    expect(mine.body.results.every((p: any) => p.company_id === 1)).toBe(true);
    const theirs = (await trader.get('/products?limit=1')).body.results[0];
    expect((await cacao.get(`/products/${theirs.id}`)).status).toBe(404);
    expect((await cacao.patch(`/products/${theirs.id}`, { name: 'x' })).status).toBe(404);
    expect((await cacao.delete(`/origins/${(await trader.get('/origins?limit=1')).body.results[0].id}`)).status).toBe(404);
  });

  it('filters products by commodity, name and type', async () => {
    const coffee = await all(cacao, '/products?commodity__in=coffee,wood&limit=100');
    expect(coffee.length).toBeGreaterThan(1);
    expect(coffee.every((p) => ['coffee', 'wood'].includes(p.commodity))).toBe(true);
    expect((await all(cacao, '/products?commodity__isnull=true')).every((p) => p.commodity === null)).toBe(true);
    expect((await all(cacao, '/products?name__icontains=CHOCOLATE')).every((p) => /chocolate/i.test(p.name))).toBe(true);
    expect((await cacao.get('/products?type=gadget')).status).toBe(400);
    const commodities = new Set((await all(cacao, '/products?limit=100')).map((p) => p.commodity));
    for (const c of ['cattle', 'cocoa', 'coffee', 'palm_oil', 'rubber', 'soya', 'wood']) expect(commodities.has(c)).toBe(true);
  });

  it('creates, updates and soft deletes a product', async () => {
    const p = await cacao.post('/products', { name: 'Cocoa nibs', sku: 'NIBS-1', commodity: 'cocoa', hs_code: '18010000', metadata: { species: [{ common_name: 'Cacao', scientific_name: 'Theobroma cacao' }] } });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ sku: 'NIBS-1', scientific_name: 'Theobroma cacao', due_diligence_statements: [] });
    expect((await cacao.post('/products', { name: 'again', sku: 'NIBS-1' })).body).toEqual({ sku: ['product with this sku already exists.'] });
    expect((await cacao.patch(`/products/${p.body.id}`, { commodity: 'diamonds' })).body.commodity[0]).toMatch(/not a valid choice/);
    expect((await cacao.patch(`/products/${p.body.id}`, { name: 'Cocoa nibs, roasted' })).body.name).toBe('Cocoa nibs, roasted');
    expect((await cacao.delete(`/products/${p.body.id}`)).status).toBe(204);
    expect((await cacao.get(`/products/${p.body.id}`)).status).toBe(404);
    expect((await cacao.get('/products?sku=NIBS-1')).body.count).toBe(0);
  });

  it('filters origins with string, date and percentage lookups and orders them', async () => {
    const rows = await all(cacao, '/origins?limit=100');
    expect(rows.every((o) => o.location && ['Point', 'Polygon', 'MultiPolygon'].includes(o.location.type))).toBe(true);
    expect(new Set(rows.map((o) => o.country_code)).size).toBeGreaterThan(3);
    const ci = await all(cacao, '/origins?country_code__in=CI,GH');
    expect(ci.length).toBe(rows.filter((o) => ['CI', 'GH'].includes(o.country_code)).length);
    const farms = await all(cacao, '/origins?name__istartswith=farm&name__iendswith=)');
    expect(farms.every((o) => o.name.startsWith('Farm') && o.name.endsWith(')'))).toBe(true);
    const day = rows[0].created_at.slice(0, 10);
    expect((await all(cacao, `/origins?created_at__date=${day}`)).every((o) => o.created_at.startsWith(day))).toBe(true);
    expect((await all(cacao, `/origins?created_at__date__gte=${day}`)).every((o) => o.created_at.slice(0, 10) >= day)).toBe(true);
    expect((await all(cacao, '/origins?passing_percentage_gte=60')).every((o) => o.assessment_summary.passing_percentage >= 60)).toBe(true);
    expect((await all(cacao, '/origins?external_id__in=ORI-CI-00001,nothing')).length).toBeLessThanOrEqual(1);
    const byName = await all(cacao, '/origins?ordering=-name&limit=100');
    expect(byName.map((o) => o.name)).toEqual([...byName.map((o) => o.name)].sort((a, b) => b.localeCompare(a, 'en')));
    expect((await cacao.get('/origins?search=Soubr')).body.results.every((o: any) => /soubr/i.test(`${o.name} ${o.description}`))).toBe(true);
    const o = await cacao.post('/origins', { name: 'New plot', country_code: 'gh', location: { type: 'Point', coordinates: [-1.6, 6.7] } });
    expect(o.body).toMatchObject({ country_code: 'GH', country: { alpha_3: 'GHA', flag: '🇬🇭' } });
    expect((await cacao.post('/origins', { name: 'x', country_code: 'GHA' })).body.country_code[0]).toMatch(/no more than 2/);
  });

  it('creates and filters value chains', async () => {
    const v = await cacao.post('/value-chains', { company_name: 'Cooperativa Nueva', type: 'supplier', country_code: 'PE' });
    expect(v.status).toBe(201);
    expect(v.body).toMatchObject({ status: 'invited', country: { name: 'Peru' } });
    expect((await all(cacao, '/value-chains?status=invited')).map((x) => x.id)).toContain(v.body.id);
    expect((await cacao.get('/value-chains?type=friend')).status).toBe(400);
    expect((await cacao.patch(`/value-chains/${v.body.id}`, { status: 'active' })).body.status).toBe('active');
  });
});
