// Due diligence statements: the state machine with lazy completion, PATCH and delete rules,
// tracing orders, and the legacy bulk information requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { all, client, OWNER, TRADER } from './helpers.js';

const DELAY = 150;
const RUN = '3f1c2b9e-8a7d-4c6b-9e5f-0a1b2c3d4e5f';
let sb: Sandbox;
let cacao: ReturnType<typeof client>;
let bought: number[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  sb = await startSandbox({ port: 0, statementDelayMs: DELAY });
  cacao = client(sb, OWNER);
  bought = (await cacao.get('/orders?order_action=buying&limit=20&ordering=id')).body.results.map((o: any) => o.id);
});
afterAll(async () => {
  await sb.close();
});

const base = '/due-diligence-statements';

describe('creation rules and lifecycle', () => {
  it('retrieves an EUDR statement by identifier: in_progress, then complete', async () => {
    const r = await cacao.post(base, { type: 'EUDR', name: 'Cocoa Jan', dds_identifier: '25BEABCDEF1234', orders: [bought[0]] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'in_progress', dds_data: {}, orders: [bought[0]] });
    await sleep(DELAY + 50);
    const done = await cacao.get(`${base}/${r.body.id}`);
    expect(done.body.status).toBe('complete');
    expect(done.body.dds_data.reference_number).toBe('25BEABCDEF1234');
    expect(done.body.orders_detail[0]).toMatchObject({ id: bought[0], buyer_company_id: 1 });
    expect(done.body).toHaveProperty('products_detail');
  });

  it('fails a retrieval whose identifier starts with FAIL, with a reason', async () => {
    const r = await cacao.post(base, { type: 'EUDR', dds_identifier: 'FAIL-0001' });
    expect(r.body.status).toBe('in_progress');
    await sleep(DELAY + 50);
    const list = await cacao.get(`${base}?status=failed&id=${r.body.id}`);
    expect(list.body.count).toBe(1);
    expect(list.body.results[0].dds_data.reason).toMatch(/FAIL-0001/);
    expect((await cacao.patch(`${base}/${r.body.id}`, { status: 'complete' })).status).toBe(400);
  });

  it('files an EUDR statement without identifier and sets the registry identifier', async () => {
    expect((await cacao.post(base, { type: 'EUDR' })).body).toEqual({ assessment_run_ids: [expect.stringMatching(/required/)] });
    const r = await cacao.post(base, { type: 'EUDR', assessment_run_ids: [RUN] });
    expect(r.body).toMatchObject({ status: 'in_progress', dds_identifier: '', metadata: { was_filed: true } });
    await sleep(DELAY + 50);
    const done = await cacao.get(`${base}/${r.body.id}`);
    expect(done.body.status).toBe('complete');
    expect(done.body.dds_identifier).toMatch(/^26BE/);
    expect(done.body.assessment_run_ids).toEqual([RUN]);
  });

  it('creates PPWR as draft and completes it by PATCH; draft is never re-entered', async () => {
    const missing = await cacao.post(base, { type: 'PPWR' });
    expect(Object.keys(missing.body).sort()).toEqual(['assessment_run_ids', 'dds_identifier']);
    const r = await cacao.post(base, { type: 'PPWR', dds_identifier: 'PPWR-1', assessment_run_ids: [RUN], products: [1] });
    expect(r.body.status).toBe('draft');
    expect((await cacao.patch(`${base}/${r.body.id}`, { status: 'in_progress' })).status).toBe(400);
    const done = await cacao.patch(`${base}/${r.body.id}`, { status: 'complete', name: 'Packaging 2026' });
    expect(done.body).toMatchObject({ status: 'complete', name: 'Packaging 2026' });
    expect(['passing', 'failing']).toContain((await cacao.get('/products/1')).body.assessment_status);
    const back = await cacao.patch(`${base}/${r.body.id}`, { status: 'draft' });
    expect(back.status).toBe(400);
    expect(back.body.status[0]).toMatch(/draft/);
  });

  it('creates EUTR complete with a generated identifier and never changes its status', async () => {
    const r = await cacao.post(base, { type: 'EUTR', assessment_run_ids: [RUN] });
    expect(r.body.status).toBe('complete');
    expect(r.body.dds_identifier).toMatch(/^EUTR-BE-/);
    expect(r.body.assessment_run_ids).toEqual([]);
    expect((await cacao.patch(`${base}/${r.body.id}`, { status: 'failed' })).body.status[0]).toMatch(/EUTR/);
  });

  it('lets EUDR move draft -> in_progress -> complete by PATCH', async () => {
    const draft = (await all(cacao, `${base}?type=EUDR&status=draft&limit=100`))[0];
    expect(draft).toBeTruthy();
    expect((await cacao.patch(`${base}/${draft.id}`, { status: 'complete' })).status).toBe(400);
    expect((await cacao.patch(`${base}/${draft.id}`, { status: 'in_progress' })).body.status).toBe('in_progress');
    expect((await cacao.patch(`${base}/${draft.id}`, { status: 'complete' })).body.status).toBe('complete');
    expect((await cacao.patch(`${base}/${draft.id}`, { status: 'failed' })).status).toBe(400);
  });

  it('rejects PATCH of anything but status and name, naming the field', async () => {
    const s = (await cacao.get(`${base}?limit=1`)).body.results[0];
    const r = await cacao.patch(`${base}/${s.id}`, { assessment_run_ids: [RUN], name: 'x' });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['assessment_run_ids']);
    expect((await cacao.get(`${base}/${s.id}`)).body.name).toBe(s.name);
  });

  it('attaches only orders the company buys and products it owns', async () => {
    const sold = (await client(sb, TRADER).get('/orders?order_action=selling&limit=50')).body.results.find((o: any) => o.buyer_company_id !== 1);
    const r = await cacao.post(base, { type: 'EUTR', orders: [sold.id], products: [9999] });
    expect(r.status).toBe(400);
    expect(r.body.orders[0]).toMatch(/Invalid pk/);
    expect(r.body.products[0]).toMatch(/Invalid pk "9999"/);
    expect((await cacao.post(base, { type: 'XYZ' })).body.type[0]).toMatch(/not a valid choice/);
  });
});

describe('delete and withdraw', () => {
  it('withdraws only service-filed EUDR statements; otherwise 400 and nothing deleted', async () => {
    const eutr = (await cacao.post(base, { type: 'EUTR' })).body;
    const r = await cacao.delete(`${base}/${eutr.id}?has_withdraw_request=true`);
    expect(r.status).toBe(400);
    expect((await cacao.get(`${base}/${eutr.id}`)).status).toBe(200);
    const retrieved = (await cacao.post(base, { type: 'EUDR', dds_identifier: '25BEWITHDRAW01' })).body;
    expect((await cacao.delete(`${base}/${retrieved.id}?has_withdraw_request=true`)).status).toBe(400);
    const filed = (await cacao.post(base, { type: 'EUDR', assessment_run_ids: [RUN] })).body;
    expect((await cacao.delete(`${base}/${filed.id}?has_withdraw_request=true`)).status).toBe(204);
    expect((await cacao.get(`${base}/${filed.id}`)).status).toBe(404);
    expect((await cacao.get(`${base}?id=${filed.id}`)).body.count).toBe(0);
    expect((await cacao.delete(`${base}/${eutr.id}`)).status).toBe(204);
  });

  it('hides another company’s statements', async () => {
    const theirs = (await client(sb, TRADER).get(`${base}?limit=1`)).body.results[0];
    expect((await cacao.get(`${base}/${theirs.id}`)).status).toBe(404);
    expect((await cacao.delete(`${base}/${theirs.id}`)).status).toBe(404);
  });
});

describe('statement lists', () => {
  it('filters by status, type, identifier, name, orders and dates', async () => {
    const rows = await all(cacao, `${base}?limit=1000`);
    expect(new Set(rows.map((s) => s.status))).toEqual(new Set(['draft', 'in_progress', 'complete', 'failed']));
    expect(new Set(rows.map((s) => s.type))).toEqual(new Set(['EUDR', 'EUTR', 'PPWR']));
    const pick = async (q: string) => all(cacao, `${base}?limit=1000&${q}`);
    expect((await pick('status__in=draft,failed')).every((s) => ['draft', 'failed'].includes(s.status))).toBe(true);
    expect((await pick('type=PPWR')).every((s) => s.type === 'PPWR')).toBe(true);
    expect((await pick('dds_identifier__icontains=25be')).every((s) => s.dds_identifier.toLowerCase().includes('25be'))).toBe(true);
    const withOrder = rows.find((s) => s.orders.length);
    expect((await pick(`orders__in=${withOrder.orders[0]}`)).map((s) => s.id)).toContain(withOrder.id);
    expect((await pick(`object_pulse_identifier=order:${withOrder.orders[0]}`)).map((s) => s.id)).toContain(withOrder.id);
    expect((await pick(`id__exclude_in=${withOrder.id}`)).map((s) => s.id)).not.toContain(withOrder.id);
    expect((await pick('created_at__gte=2099-01-01T00:00:00Z')).length).toBe(0);
    const named = rows.find((s) => s.name);
    expect((await pick(`name__in=${encodeURIComponent(named.name)}`)).map((s) => s.id)).toContain(named.id);
    const ordered = await pick('ordering=name');
    expect((await cacao.get(`${base}?status=open`)).status).toBe(400);
    expect(ordered.length).toBe(rows.length);
  });
});

describe('tracing', () => {
  it('lists orders available for tracing, excluding those of given statements', async () => {
    const s = (await cacao.post(base, { type: 'EUTR', orders: [bought[1], bought[2]] })).body;
    const r = await cacao.get(`${base}/available-orders?limit=5`);
    expect(r.status).toBe(200);
    expect(r.body.count).toBeGreaterThan(5);
    expect(r.body.results[0].count).toBe(5);
    expect(Object.keys(r.body.results[0].results[0]).sort()).toEqual(['buyer_external_id', 'id', 'order_created_at', 'seller_external_id', 'type']);
    const excluded = await all(cacao, `${base}/available-orders?exclude_dds=${s.id}&limit=1000`);
    const ids = excluded.flatMap((g) => g.results.map((o: any) => o.id));
    expect(ids).not.toContain(bought[1]);
    expect(ids).toContain(bought[3]);
    expect((await cacao.get(`${base}/available-orders?exclude_dds=abc`)).status).toBe(400);
  });

  it('adds orders to statements without duplicates', async () => {
    const a = (await cacao.post(base, { type: 'EUTR', orders: [bought[4]] })).body;
    const b = (await cacao.post(base, { type: 'EUTR' })).body;
    const r = await cacao.post(`${base}/trace-orders`, { dds_id: [a.id, b.id], order_id: [bought[4], bought[5]] });
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([
      expect.objectContaining({ dds_id: a.id, added_orders: [bought[5]], total_orders: 2 }),
      expect.objectContaining({ dds_id: b.id, added_orders: [bought[4], bought[5]], total_orders: 2 }),
    ]);
    expect(r.body.summary).toEqual({ total_dds_processed: 2, total_orders_added: 3 });
    const single = await cacao.post(`${base}/trace-orders`, { dds_id: a.id, order_id: bought[6] });
    expect(single.body.results[0].total_orders).toBe(3);
    expect((await cacao.post(`${base}/trace-orders`, { dds_id: 999999, order_id: bought[6] })).body.dds_id[0]).toMatch(/Invalid pk/);
    expect((await cacao.post(`${base}/trace-orders`, { dds_id: a.id })).body.order_id).toEqual(['This field is required.']);
    const flt = await cacao.get(`/orders?order_action=buying&due_diligence_statements__isnull=false&id=${bought[5]}`);
    expect(flt.body.count).toBe(1);
    expect(flt.body.results[0].due_diligence_statements.map((d: any) => d.id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });
});

describe('information requests (legacy bulk)', () => {
  it('processes each element on its own and reports failures by index', async () => {
    const r = await cacao.post('/information-requests/bulk', {
      information_requests: [{ order_id: bought[0] }, { value_chain_id: 2 }, { order_id: 99999999 }, {}, { order_id: bought[0] }, { value_chain_id: 15 }],
    });
    expect(r.status).toBe(201);
    expect(r.body.results.summary).toEqual({ total_information_requests: 6, processed: 2, failed: 4 });
    expect(r.body.results.processed.map((p: any) => p.index)).toEqual([0, 1]);
    expect(r.body.results.processed[0]).toMatchObject({ order_id: bought[0], invitation_action: expect.any(String) });
    expect(r.body.results.failed.map((f: any) => f.index)).toEqual([2, 3, 4, 5]);
    expect(r.body.results.failed[0]).toMatchObject({ data: { order_id: 99999999 }, error: expect.any(String) });
    expect(r.body.message).toMatch(/2 of 6/);
  });

  it('accepts 1..100 elements', async () => {
    expect((await cacao.post('/information-requests/bulk', { information_requests: [] })).status).toBe(400);
    const many = Array.from({ length: 101 }, () => ({ value_chain_id: 2 }));
    expect((await cacao.post('/information-requests/bulk', { information_requests: many })).body.information_requests[0]).toMatch(/100/);
  });

  it('sends requests by filter through bulk-create', async () => {
    const r = await cacao.post('/information-requests/bulk-create', { filters: { id__in: bought.slice(0, 3).join(',') } });
    expect(r.status).toBe(201);
    expect(r.body.results.summary.processed).toBe(3);
  });
});
