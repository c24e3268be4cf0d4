// The planning of `orders sync` and `origins sync` (src/sync/): values compared as the service
// stores them, empty cells never compared, items matched by line number, the PATCH body with
// only what differs, the reading of the service's pages, the cost line, and the speed of
// planning 10,000 rows against 100,000 orders.
import { describe, expect, it } from 'vitest';
import { canonical, same } from '../../src/sync/normalise.js';
import { checkObject, Planner, snapshotOf, type FileObject, type Plan, type ServiceView, type Snapshot, type SyncSpec } from '../../src/sync/plan.js';
import { readService } from '../../src/sync/read.js';
import { changeText, costLines } from '../../src/sync/render.js';
import { orderSource, orderSyncSpec } from '../../src/commands/orders/sync.js';
import { ORIGIN_SYNC_SPEC } from '../../src/commands/origins/sync.js';
import { ordersFromCsv } from '../../src/commands/orders/import.js';
import type { ApiClient } from '../../src/api/client.js';
import { RowErrors, type CsvFile } from '../../src/bulk/csv.js';
import { UsageError } from '../../src/errors.js';

/** A plan of objects at hand, as a sync makes it object by object (src/sync/run.ts). */
function planSync(spec: SyncSpec, objects: readonly FileObject[], service: ServiceView): Plan {
  const planner = new Planner(spec, service);
  for (const o of objects) planner.add(o);
  return planner.done();
}

/** The sync's own check of every object, exit 2 as the command ends it. */
function checkFile(file: string, spec: SyncSpec, objects: readonly FileObject[]): void {
  const errors = new RowErrors(file);
  for (const o of objects) for (const p of checkObject(spec, o)) errors.add(p.line, p.column, p.message);
  errors.throwIfAny();
}

function csv(text: string): CsvFile {
  const [header, ...lines] = text.trim().split('\n');
  const columns = header.split(',');
  return { name: 'orders.csv', columns, delimiter: ',', numbers: 'point', rowCount: lines.length, rows: lines.map((l, i) => ({ line: i + 2, values: Object.fromEntries(l.split(',').map((v, j) => [columns[j], v])) })) };
}

const purchaseSpec = orderSyncSpec('purchase');
const fileOrders = (text: string, kind: 'purchase' | 'sale' | 'batch' = 'purchase'): FileObject[] =>
  ordersFromCsv(csv(text), kind).map((o) => ({ key: o.key, lines: o.lines, body: o.payload, given: o.given, itemLines: o.itemLines }));

/** A service order as the API returns it (the fields a sync reads). */
function serviceOrder(id: number, externalId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    company_id: 1,
    buyer_company_id: 1,
    seller_company_id: 101,
    external_id: externalId,
    type: 'order',
    order_created_at: '2025-01-02',
    order_arrival_at: null,
    buyer_company_status: 'draft',
    signed_off_at: null,
    border_cross_country_code: null,
    tags: [],
    items: [{ id: id * 10 + 1, line_number: 1, buyer_product: 1, seller_product: null, volume: 10, unit: 'kg', external_id: `${externalId}-L1`, trace: { traced_orders: [], traced_origins: [] } }],
    value_chain_detail: { big: 'x'.repeat(100) },
    ...extra,
  };
}

const view = (orders: Record<string, unknown>[], onlyOnService: Record<string, unknown>[] = []) => ({
  byKey: new Map(orders.map((o) => [o.external_id as string, snapshotOf(purchaseSpec, 'external_id', o)])),
  onlyOnService,
});

describe('normalise', () => {
  it('compares values as the service stores them', () => {
    expect(same('datetime', '2025-03-01T14:30:00Z', '2025-03-01T15:30:00.000+01:00')).toBe(true);
    expect(same('datetime', '2025-03-01T14:30:00Z', '2025-03-01T14:30:01Z')).toBe(false);
    expect(same('datetime', '2025-03-01T14:30:00Z', null)).toBe(false);
    expect(same('date', '2025-03-01', '2025-03-01T00:00:00Z')).toBe(true);
    expect(same('number', 1200.5, '1200.50')).toBe(true);
    expect(same('number', 7, 8)).toBe(false);
    expect(same('set', ['organic', 'eudr', 'eudr'], ['eudr', 'organic'])).toBe(true);
    expect(same('set', [4, 5], ['5', 4])).toBe(true);
    expect(same('set', ['a'], null)).toBe(false);
    expect(same('set', [], null)).toBe(true);
    expect(same('upper', 'be', 'BE')).toBe(true);
    expect(same('text', '=SUM(A1)', '=SUM(A1)')).toBe(true);
    expect(same('text', 'a', null)).toBe(false);
    expect(same('geometry', { type: 'Point', coordinates: [-4.02, 5.35] }, { coordinates: ['-4.02', 5.35], type: 'Point', bbox: [0] })).toBe(true);
    expect(same('geometry', { type: 'Point', coordinates: [-4.02, 5.35] }, { type: 'Point', coordinates: [5.35, -4.02] })).toBe(false);
    // A ring is the same plot whatever its direction and first position (a Shapefile winds it the other way).
    const ring = [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]];
    const reversed = [...ring].reverse();
    const shifted = [[1, 1], [0, 1], [0, 0], [1, 0], [1, 1]];
    for (const other of [reversed, shifted]) {
      expect(same('geometry', { type: 'Polygon', coordinates: [ring] }, { type: 'Polygon', coordinates: [other] })).toBe(true);
      expect(same('geometry', { type: 'MultiPolygon', coordinates: [[ring]] }, { type: 'MultiPolygon', coordinates: [[other]] })).toBe(true);
    }
    expect(same('geometry', { type: 'Polygon', coordinates: [ring] }, { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 2], [0, 1], [0, 0]]] })).toBe(false);
    expect(same('geometry', { type: 'Polygon', coordinates: [ring] }, { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]] })).toBe(false);
    expect(canonical('set', undefined)).toEqual([]);
  });
});

describe('planSync (orders)', () => {
  it('plans create, update with only the changed fields, unchanged, and lists what is only on the service', () => {
    const file = fileOrders(`external_id,type,order_created_at,buyer_company_status,tags,signed_off_at,product,volume,unit,line_number
PO-SAME,order,2025-01-02,draft,,2025-03-01T14:30:00Z,1,10.0,kg,1
PO-CHANGED,order,2025-01-02,completed,b|a,,1,12,kg,1
PO-NEW,order,2025-02-01,,,,3,1,kg,`);
    const plan = planSync(
      purchaseSpec,
      file,
      view(
        [
          serviceOrder(1, 'PO-SAME', { signed_off_at: '2025-03-01T14:30:00.000Z', tags: ['kept'] }),
          serviceOrder(2, 'PO-CHANGED', { tags: ['a', 'b'] }),
        ],
        [{ external_id: 'PO-ELSEWHERE', id: 3 }],
      ),
    );
    expect(plan.create.map((c) => c.key)).toEqual(['PO-NEW']);
    expect(plan.create[0].body).toEqual(file[2].body);
    expect(plan.unchanged).toEqual([{ key: 'PO-SAME', id: 1, lines: [2] }]);
    expect(plan.update).toHaveLength(1);
    const [u] = plan.update;
    expect(u.id).toBe(2);
    // tags b|a are the same set as [a, b]; the item's volume changed, nothing else did.
    expect(u.changes).toEqual([
      { field: 'buyer_company_status', old: 'draft', new: 'completed' },
      { field: 'items[line 1].volume', old: 10, new: 12 },
    ]);
    expect(u.body).toEqual({ buyer_company_status: 'completed', items: [{ id: 21, volume: 12 }] });
    expect(plan.onlyOnService).toEqual([{ external_id: 'PO-ELSEWHERE', id: 3 }]);
  });

  it('never compares or sends an empty cell', () => {
    const file = fileOrders(`external_id,type,order_created_at,buyer_company_status,order_arrival_at,tags,product,volume,unit
PO-1,order,2025-01-02,,,,,,`);
    const plan = planSync(purchaseSpec, file, view([serviceOrder(1, 'PO-1', { buyer_company_status: 'completed', order_arrival_at: '2025-05-05', tags: ['x'] })]));
    expect(plan.unchanged.map((u) => u.key)).toEqual(['PO-1']);
    // A batch's tags [] is in the create body (the API requires it) but is no value of the file.
    const batch = fileOrders(`external_id,type,order_created_at,company_id,tags\nB-1,produced_batch,2025-01-02,1,`, 'batch');
    expect(batch[0].body.tags).toEqual([]);
    const spec = orderSyncSpec('batch');
    const svc = snapshotOf(spec, 'external_id', { ...serviceOrder(5, 'B-1', { type: 'produced_batch', seller_company_id: 1, tags: ['lot-9'] }) });
    expect(planSync(spec, batch, { byKey: new Map([['B-1', svc]]), onlyOnService: [] }).unchanged).toHaveLength(1);
  });

  it('sends the whole item list when an item is new or changed: the others as {id}, new ones with their line number', () => {
    const file = fileOrders(`external_id,type,order_created_at,product,volume,unit,traced_origins
PO-1,order,2025-01-02,1,10,kg,
PO-1,,,,,t,7|8
PO-1,,,4,3,kg,`);
    const current = serviceOrder(1, 'PO-1', {
      items: [
        { id: 11, line_number: 1, buyer_product: 1, volume: 10, unit: 'kg', trace: { traced_orders: [], traced_origins: [] } },
        { id: 12, line_number: 2, buyer_product: 2, volume: 5, unit: 'kg', trace: { traced_orders: [], traced_origins: [8, 7] } },
        { id: 13, line_number: 9, buyer_product: 2, volume: 5, unit: 'kg', trace: { traced_orders: [], traced_origins: [] } },
      ],
    });
    const plan = planSync(purchaseSpec, file, view([current]));
    const [u] = plan.update;
    expect(u.changes).toEqual([
      { field: 'items[line 2].unit', old: 'kg', new: 't' },
      { field: 'items[line 3]', old: null, new: { buyer_product: 4, volume: 3, unit: 'kg', line_number: 3 } },
    ]);
    // Line 9 is only on the service: kept, like the unchanged line 1.
    expect(u.body).toEqual({ items: [{ id: 11 }, { id: 12, unit: 't' }, { id: 13 }, { buyer_product: 4, volume: 3, unit: 'kg', line_number: 3 }] });
  });

  it('leaves the item list out when no item changed, and an order without item rows keeps its items', () => {
    const same = fileOrders(`external_id,type,order_created_at,product,volume\nPO-1,order,2025-01-02,1,10`);
    expect(planSync(purchaseSpec, same, view([serviceOrder(1, 'PO-1')])).unchanged).toHaveLength(1);
    const noItems = fileOrders(`external_id,type,order_created_at,buyer_company_status\nPO-1,order,2025-01-02,completed`);
    expect(planSync(purchaseSpec, noItems, view([serviceOrder(1, 'PO-1')])).update[0].body).toEqual({ buyer_company_status: 'completed' });
  });

  it('does not compare what the service does not return, and says so', () => {
    const file = fileOrders(`external_id,type,order_created_at,dds_identifiers,send_information_request\nPO-1,order,2025-01-02,25BE1,yes`);
    const plan = planSync(purchaseSpec, file, view([serviceOrder(1, 'PO-1')]));
    expect(plan.unchanged).toHaveLength(1);
    expect(plan.notCompared.sort()).toEqual(['dds_identifiers', 'send_information_request']);
  });

  it('refuses two items of one order with the same line number before anything is sent', () => {
    const file = fileOrders(`external_id,type,order_created_at,product,line_number\nPO-1,order,2025-01-02,1,1\nPO-1,,,2,\nPO-1,,,3,2`);
    const e = (() => {
      try {
        checkFile('orders.csv', purchaseSpec, file);
      } catch (err) {
        return err as UsageError;
      }
    })();
    expect(e).toBeInstanceOf(UsageError);
    expect(e!.fields).toEqual({ 'line 4, line_number': ['PO-1 has two items with line_number 2 (line 3 too): a sync matches items by line_number'] });
  });
});

describe('planSync (origins)', () => {
  it('compares country codes upper-cased and locations as geometries', () => {
    const svc = snapshotOf(ORIGIN_SYNC_SPEC, 'external_id', { id: 4, external_id: 'O-1', name: 'Farm', country_code: 'CI', location: { type: 'Point', coordinates: [-5.95, 6.13] }, description: null, mapping_information: 'x' });
    expect(svc).toEqual({ id: 4, external_id: 'O-1', name: 'Farm', country_code: 'CI', location: { type: 'Point', coordinates: [-5.95, 6.13] }, description: null });
    const byKey = new Map([['O-1', svc]]);
    const body = { external_id: 'O-1', name: 'Farm', country_code: 'CI', location: { type: 'Point', coordinates: [-5.95, 6.13] } };
    expect(planSync(ORIGIN_SYNC_SPEC, [{ key: 'O-1', lines: [2], body }], { byKey, onlyOnService: [] }).unchanged).toHaveLength(1);
    const moved = planSync(ORIGIN_SYNC_SPEC, [{ key: 'O-1', lines: [2], body: { ...body, description: 'north plot', location: { type: 'Point', coordinates: [-5.9, 6.13] } } }], { byKey, onlyOnService: [] });
    expect(moved.update[0].body).toEqual({ description: 'north plot', location: { type: 'Point', coordinates: [-5.9, 6.13] } });
  });
});

describe('orderSource', () => {
  it('manages the orders the company recorded on that side, of that kind', () => {
    const purchase = { company_id: 1, buyer_company_id: 1, seller_company_id: 2 };
    const suppliersSale = { company_id: 2, buyer_company_id: 1, seller_company_id: 2 };
    const batch = { company_id: 1, buyer_company_id: 1, seller_company_id: 1 };
    const sale = { company_id: 1, buyer_company_id: 3, seller_company_id: 1 };
    expect([purchase, suppliersSale, batch].map(orderSource('purchase').manages!)).toEqual([true, false, false]);
    expect([purchase, batch].map(orderSource('batch').manages!)).toEqual([false, true]);
    expect([sale, batch].map(orderSource('sale').manages!)).toEqual([true, false]);
    expect(orderSource('sale').query).toEqual({ order_action: 'selling' });
  });
});

describe('readService', () => {
  it('reads every page in id order, keeps snapshots of the file keys, lists the rest and the duplicates', async () => {
    const pages = [
      [serviceOrder(1, 'A'), serviceOrder(2, 'B'), { ...serviceOrder(3, 'X'), company_id: 2 }],
      [serviceOrder(4, 'A'), serviceOrder(5, 'C')],
    ];
    const asked: unknown[] = [];
    const client = {
      async *paginate(path: string, query: unknown, options: unknown) {
        asked.push([path, query, options]);
        for (let i = 0; i < pages.length; i++) yield { results: pages[i], count: 5, request: i + 1 };
      },
    } as unknown as ApiClient;
    const state = await readService(client, orderSource('purchase'), purchaseSpec, new Set(['A', 'C']), { signal: new AbortController().signal });
    expect(asked).toEqual([['/orders', { order_action: 'buying', ordering: 'id' }, { all: true }]]);
    expect([...state.byKey.keys()]).toEqual(['A', 'C']);
    expect(state.byKey.get('A')!.id).toBe(1);
    expect(state.byKey.get('A')).not.toHaveProperty('value_chain_detail');
    expect(state.onlyOnService).toEqual([{ external_id: 'B', id: 2 }, { external_id: 'A', id: 4 }]);
    expect(state.duplicates).toEqual(new Map([['A', [1, 4]]]));
    expect(state.others).toBe(1);
    expect(state.reads).toBe(2);
  });
});

describe('costLines', () => {
  const now = Date.parse('2025-06-01T13:20:00');
  const reset = Date.parse('2025-06-01T14:00:00') / 1000;
  it('says the cost and the budget left', () => {
    expect(costLines({ writes: 3, reads: 64, rateLimit: { limit: 1000, remaining: 933, reset }, now, maxWaitMs: 600_000 })).toEqual([
      'cost: 3 writes + 64 reads; 933 requests left this hour (resets 14:00)',
    ]);
    expect(costLines({ writes: 1, reads: 1, rateLimit: {}, now, maxWaitMs: 0 })).toEqual(['cost: 1 write + 1 read; the service reports no rate limit']);
  });

  it('dates a reset that falls on another day, by the calendar of the local clock', () => {
    const tz = process.env.TZ;
    try {
      // Half past midnight in Berlin is still the day before in UTC.
      process.env.TZ = 'Europe/Berlin';
      const late = Date.parse('2025-06-01T23:30:00');
      const [line] = costLines({ writes: 1, reads: 1, rateLimit: { limit: 1000, remaining: 900, reset: Date.parse('2025-06-02T00:30:00') / 1000 }, now: late, maxWaitMs: 600_000 });
      expect(line).toBe('cost: 1 write + 1 read; 900 requests left this hour (resets 2025-06-02 00:30)');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('says when a plan larger than the budget would finish, and whether sct waits or stops', () => {
    const [, stops] = costLines({ writes: 150, reads: 2, rateLimit: { limit: 100, remaining: 40, reset }, now, maxWaitMs: 600_000 });
    expect(stops).toContain('the plan needs 150 writes but 40 are left this hour: it would finish after 15:00 (2 budget resets away)');
    expect(stops).toContain('longer than --max-wait (10m), so the run stops when the budget is spent: rerun after 14:00');
    const [, waits] = costLines({ writes: 90, reads: 2, rateLimit: { limit: 100, remaining: 40, reset }, now, maxWaitMs: 3_600_000 });
    expect(waits).toBe('the plan needs 90 writes but 40 are left this hour: it would finish after 14:00; sct waits for the budget (40m, within --max-wait 1h)');
    // The first wait within --max-wait, the hour after it not: waits once, then stops.
    const [, once] = costLines({ writes: 150, reads: 2, rateLimit: { limit: 100, remaining: 40, reset }, now, maxWaitMs: 45 * 60_000 });
    expect(once).toContain('sct waits for the first reset (40m), but the next wait, an hour, is longer than --max-wait (45m), so the run stops when that budget is spent: rerun after 15:00');
  });
});

// How fast is bench/sync.mjs's (CPU of planning against its floor): here only what the plan holds.
describe('a plan of 10,000 file orders against 100,000 on the service', () => {
  it('creates, updates and leaves unchanged exactly what differs', () => {
    const svc = new Map<string, Snapshot>();
    for (let i = 0; i < 100_000; i++) {
      const o = serviceOrder(i + 1, `PO-${i}`);
      if (i < 9_900) svc.set(`PO-${i}`, snapshotOf(purchaseSpec, 'external_id', o));
    }
    const rows = ['external_id,type,order_created_at,buyer_company_status,product,volume,unit,line_number'];
    for (let i = 0; i < 10_000; i++) rows.push(`PO-${i < 9_900 ? i : `N${i}`},order,2025-01-02,draft,1,${i % 100 === 0 ? 11 : 10},kg,1`);
    const file = fileOrders(rows.join('\n'));
    const plan = planSync(purchaseSpec, file, { byKey: svc, onlyOnService: [] });
    expect(plan.create).toHaveLength(100);
    expect(plan.update).toHaveLength(99);
    expect(plan.unchanged).toHaveLength(9_801);
  });
});

describe('a change whose two sides print alike', () => {
  it('spells out the characters a terminal does not show, and names a difference of composition', () => {
    expect(changeText({ field: 'name', old: 'zero\u200bwidth', new: 'zerowidth' })).toBe('name: zero\\u{200B}width → zerowidth (they differ in characters a terminal does not show)');
    expect(changeText({ field: 'name', old: 'mid\ufeffBOM', new: 'midBOM' })).toBe('name: mid\\u{FEFF}BOM → midBOM (they differ in characters a terminal does not show)');
    expect(changeText({ field: 'name', old: 'a\r\nb', new: 'a\nb' })).toBe('name: a\\u{D}\\u{A}b → a\\u{A}b (they differ in characters a terminal does not show)');
    expect(changeText({ field: 'name', old: 'Cafe\u0301', new: 'Café' })).toBe('name: Cafe\u0301 → Café (the same letters, composed differently: Unicode normalisation)');
    // Anything else as before; an emoji family keeps its joiners.
    expect(changeText({ field: 'name', old: 'Farm 👨‍👩‍👧', new: 'Farm B' })).toBe('name: Farm 👨‍👩‍👧 → Farm B');
  });
});
