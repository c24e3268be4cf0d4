import { describe, expect, it } from 'vitest';
import { parseItem, namedFields } from '../../src/commands/orders/save.js';
import { planImport, ordersAsRead, ScatteredOrders, type OrderFromFile } from '../../src/commands/orders/import.js';
import fc from 'fast-check';
import { RowErrors } from '../../src/bulk/csv.js';
import { orderFilterQuery, orderKind } from '../../src/commands/orders/filters.js';
import { statsColumns, statsQuery, orderColumns } from '../../src/commands/orders/view.js';
import { kindFor, tracePlan, tracedItems } from '../../src/commands/orders/trace.js';
import { ORDER_CREATE_SCHEMAS, ORDER_UPDATE_SCHEMAS, orderResponseSchema } from '../../src/api/schemas/orders.js';
import { UsageError, SctError } from '../../src/errors.js';
import { REQUIRED } from '../../src/api/schemas/messages.js';
import type { CsvFile, FileHeader } from '../../src/bulk/csv.js';

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('expected a UsageError');
}

function csv(text: string): CsvFile {
  const [header, ...lines] = text.trim().split('\n');
  const columns = header.split(',');
  return {
    name: 'orders.csv',
    columns,
    delimiter: ',',
    numbers: 'point',
    rowCount: lines.length,
    rows: lines.map((l, i) => ({ line: i + 2, values: Object.fromEntries(l.split(',').map((v, j) => [columns[j], v])) })),
  };
}

describe('parseItem', () => {
  it('maps product to the own side of each kind', () => {
    expect(parseItem('product=12,volume=2500,unit=kg', 'purchase')).toEqual({ buyer_product: 12, volume: 2500, unit: 'kg' });
    expect(parseItem('product=12,volume=2.5,unit=t', 'sale')).toEqual({ seller_product: 12, volume: 2.5, unit: 't' });
    expect(parseItem('product=12', 'batch')).toEqual({ buyer_product: 12, seller_product: 12 });
  });

  it('reads every key, aliases and explicit sides', () => {
    expect(parseItem('id=5, line=2 ,external-id=X-1,buyer_product=3,seller-product=4,volume=1e3,unit=kg', 'sale')).toEqual({
      id: 5,
      line_number: 2,
      external_id: 'X-1',
      buyer_product: 3,
      seller_product: 4,
      volume: 1000,
      unit: 'kg',
    });
    expect(parseItem('line-number=7', 'purchase')).toEqual({ line_number: 7 });
  });

  it('names the item and the key in its errors', () => {
    expect(usage(() => parseItem('product=12,volume=abc', 'purchase')).message).toBe('invalid --item "product=12,volume=abc": volume "abc" is not a number');
    expect(usage(() => parseItem('product=1,colour=red', 'purchase')).message).toContain('unknown key "colour"');
    expect(usage(() => parseItem('product', 'purchase')).message).toContain('"product" is not KEY=VALUE');
    expect(usage(() => parseItem('product=-1', 'purchase')).message).toContain('product "-1" is not a whole number');
    expect(usage(() => parseItem('unit=', 'purchase')).message).toContain('unit needs a value');
    expect(usage(() => parseItem('unit=kg,unit=t', 'purchase')).message).toContain('unit is given twice');
    expect(usage(() => parseItem('product=1,buyer-product=2', 'purchase')).message).toContain('product and buyer-product');
    expect(usage(() => parseItem('', 'purchase')).message).toContain('no fields');
  });
});

describe('namedFields', () => {
  it('maps the flags to the API field names', () => {
    const body = namedFields(
      { externalId: 'E', type: 'order', orderCreatedAt: '2025-01-02', buyerStatus: 'draft', valueChain: '3', sellerCompanyId: '101', tag: ['a'], sendInformationRequest: true, item: ['product=1'] },
      'purchase',
    );
    expect(body).toMatchObject({
      external_id: 'E',
      type: 'order',
      order_created_at: '2025-01-02',
      buyer_company_status: 'draft',
      value_chain: 3,
      seller_company_id: 101,
      tags: ['a'],
      send_information_request: true,
      items: [{ buyer_product: 1 }],
    });
  });

  it('refuses flags that belong to another kind', () => {
    expect(usage(() => namedFields({ companyId: '1' }, 'purchase')).message).toContain('--company-id does not apply to a purchase order');
    expect(usage(() => namedFields({ buyerStatus: 'draft' }, 'sale')).message).toContain('--buyer-status');
    expect(usage(() => namedFields({ sendInformationRequest: true }, 'batch')).message).toContain('--send-information-request');
    expect(usage(() => namedFields({ orderCreatedAt: '2025-02-30' }, 'sale')).message).toContain('--order-created-at');
  });
});

describe('order schemas', () => {
  const base = { type: 'order', external_id: 'E', order_created_at: '2025-01-01' };
  it('require the documented fields on create only', () => {
    expect(ORDER_CREATE_SCHEMAS.sale.safeParse(base).success).toBe(true);
    const missing = ORDER_CREATE_SCHEMAS.purchase.safeParse({});
    expect(missing.success).toBe(false);
    expect(missing.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual(
      expect.arrayContaining([['type', REQUIRED], ['external_id', REQUIRED], ['order_created_at', REQUIRED]]),
    );
    const batch = ORDER_CREATE_SCHEMAS.batch.safeParse(base);
    expect(batch.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['company_id', 'tags']);
    expect(ORDER_UPDATE_SCHEMAS.batch.safeParse({ tags: ['x'] }).success).toBe(true);
  });

  it('checks bounds, enums, dates and nested items; unknown fields pass through', () => {
    const r = ORDER_CREATE_SCHEMAS.batch.safeParse({
      ...base,
      company_id: 2_147_483_648,
      tags: [''],
      external_id: 'x'.repeat(256),
      order_arrival_at: '2025-13-01',
      buyer_company_status: 'waiting',
      border_cross_country_code: 'BEL',
      items: [{ volume: 'ten', trace: { traced_origins: [-1] } }],
    });
    expect(r.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(
      ['border_cross_country_code', 'buyer_company_status', 'company_id', 'external_id', 'items.0.trace.traced_origins.0', 'items.0.volume', 'order_arrival_at', 'tags.0'].sort(),
    );
    const when = ORDER_UPDATE_SCHEMAS.purchase.safeParse({ signed_off_at: '1 Jan 2025', order_created_at: '2025-02-30' });
    expect(when.error!.issues.map((i) => [i.path[0], i.message]).sort()).toEqual([
      ['order_created_at', 'expected a date YYYY-MM-DD'],
      ['signed_off_at', 'expected an ISO 8601 date-time, e.g. 2025-03-01T14:30:00Z'],
    ]);
    for (const t of ['2025-03-01T14:30:00Z', '2025-03-01T14:30:00+01:00', '2025-03-01T14:30', null]) {
      expect(ORDER_UPDATE_SCHEMAS.purchase.safeParse({ signed_off_at: t }).success, String(t)).toBe(true);
    }
    const ok = ORDER_UPDATE_SCHEMAS.sale.parse({ custom_field: 1, items: [{ id: 3, extra: true }] });
    expect(ok).toEqual({ custom_field: 1, items: [{ id: 3, extra: true }] });
  });
});

describe('orderFilterQuery', () => {
  it('needs exactly one side', () => {
    expect(usage(() => orderFilterQuery({})).message).toContain('--buying or --selling is required');
    expect(usage(() => orderFilterQuery({ buying: true, selling: true })).message).toContain('not both');
  });

  it('maps single values, lists, dates and the commodity of our side', () => {
    const q = orderFilterQuery({
      buying: true,
      type: 'order',
      buyerStatus: 'draft,closed',
      commodity: 'cocoa',
      createdFrom: '2025-01-01',
      tag: 'eudr,organic',
      dds: false,
      tracedOrigin: '4',
    });
    expect(Object.fromEntries(q)).toEqual({
      order_action: 'buying',
      type: 'order',
      buyer_company_status__in: 'draft,closed',
      items__buyer_product__commodity: 'cocoa',
      order_created_at__gte: '2025-01-01',
      tags__name__in: 'eudr,organic',
      due_diligence_statements__isnull: 'true',
      items__traced_origins: '4',
    });
    expect(orderFilterQuery({ selling: true, commodity: 'cocoa,wood' }).get('items__seller_product__commodity__in')).toBe('cocoa,wood');
  });

  it('maps the other named flags to their documented keys', () => {
    const q = orderFilterQuery({
      selling: true,
      sellerStatus: 'draft',
      assessmentStatus: 'failing,pending',
      arrivalFrom: '2025-02-01',
      arrivalTo: '2025-02-28',
      createdTo: '2025-01-31',
      valueChain: '7',
      hasDds: true,
      tracedOrigin: '4,5',
    });
    expect(Object.fromEntries(q)).toEqual({
      order_action: 'selling',
      seller_company_status: 'draft',
      assessment_status__in: 'failing,pending',
      order_arrival_at__gte: '2025-02-01',
      order_arrival_at__lte: '2025-02-28',
      order_created_at__lte: '2025-01-31',
      value_chain: '7',
      due_diligence_statements__isnull: 'false',
      items__traced_origins__in: '4,5',
    });
  });

  it('rejects bad values naming the allowed ones', () => {
    expect(usage(() => orderFilterQuery({ buying: true, sellerStatus: 'done' })).message).toContain('allowed values are draft, untraced');
    expect(usage(() => orderFilterQuery({ buying: true, type: '' })).message).toContain('--type needs a value');
    expect(usage(() => orderFilterQuery({ buying: true, hasDds: true, dds: false })).message).toContain('--has-dds or --no-dds');
    expect(usage(() => orderFilterQuery({ buying: true, createdFrom: '2025-03-01', createdTo: '2025-02-01' })).message).toContain('after');
  });
});

describe('orderKind', () => {
  it('needs exactly one kind', () => {
    expect(orderKind({ sale: true })).toBe('sale');
    expect(orderKind({}, false)).toBeUndefined();
    expect(usage(() => orderKind({})).message).toContain('one of --purchase, --sale or --batch');
    expect(usage(() => orderKind({ sale: true, batch: true })).message).toContain('not --sale and --batch');
  });
});

describe('columns', () => {
  it('shows the counterpart of the perspective', () => {
    const row = { buyer_company: { name: 'Us' }, seller_company: { name: 'Them' } };
    const buying = orderColumns('buying').find((c) => c.header === 'SELLER')!;
    const selling = orderColumns('selling').find((c) => c.header === 'BUYER')!;
    expect(buying.value!(row)).toBe('Them');
    expect(selling.value!(row)).toBe('Us');
  });

  it('shows only what the statistics are grouped by', () => {
    expect(statsColumns(['type'], true).map((c) => c.header)).toEqual(['DATE', 'TYPE', 'ORDERS']);
    expect(statsColumns([], false).map((c) => c.header)).toEqual(['ORDERS']);
  });

  it('sends group_by once per value', () => {
    const { query } = statsQuery({ selling: true, groupBy: 'type,value_chain_id', delimitBy: 'monthly' });
    expect(query.getAll('group_by')).toEqual(['type', 'value_chain_id']);
    expect(query.get('delimit_by')).toBe('monthly');
    expect(usage(() => statsQuery({ selling: true, groupBy: 'country' })).message).toContain('assessment_status, buyer_company_status');
    expect(usage(() => statsQuery({ selling: true, filter: ['limit=5'] })).message).toContain('no limit');
  });
});

describe('trace', () => {
  const order = orderResponseSchema.parse({
    id: 9,
    buyer_company_id: 1,
    seller_company_id: 2,
    items: [
      { id: 1, buyer_product: 3, seller_product: null, volume: 5, unit: 'kg', line_number: 1, external_id: 'A', trace: { traced_orders: [4], traced_origins: [7] }, traced_order_count: '1' },
      { id: 2, buyer_product: 6, volume: 1, unit: 't', line_number: 2, external_id: 'B', trace: { traced_orders: [], traced_origins: [8] } },
    ],
  });

  it('adds to the traced lists and keeps every other item', () => {
    const items = tracedItems(order, tracePlan('9', { item: '1', toOrigin: '7,9', toOrder: '5' }));
    expect(items).toEqual([
      { id: 1, trace: { traced_orders: [4, 5], traced_origins: [7, 9] } },
      // The others by their id alone: the service keeps them as they are, whatever changed since the read.
      { id: 2 },
    ]);
  });

  it('replaces with --replace, and an empty list clears', () => {
    const items = tracedItems(order, tracePlan('9', { item: '1', toOrigin: '', toOrder: '5', replace: true }));
    expect(items[0].trace).toEqual({ traced_orders: [5], traced_origins: [] });
  });

  it('fails before any PATCH when the item is not in the order', () => {
    let e: SctError | undefined;
    try {
      tracedItems(order, tracePlan('9', { item: '3', toOrigin: '1' }));
    } catch (err) {
      e = err as SctError;
    }
    expect(e).toBeInstanceOf(SctError);
    expect(e).not.toBeInstanceOf(UsageError);
    expect(e!.message).toBe('item 3 is not an item of order 9');
    expect(e!.hint).toContain('1, 2');
  });

  it('refuses to add when the current trace is unknown', () => {
    const bare = orderResponseSchema.parse({ id: 9, items: [{ id: 1, traced_origin_count: '2' }] });
    expect(() => tracedItems(bare, tracePlan('9', { item: '1', toOrigin: '3' }))).toThrow(SctError);
    expect(tracedItems(bare, tracePlan('9', { item: '1', toOrigin: '3', replace: true }))[0].trace!.traced_origins).toEqual([3]);
  });

  it('checks its flags', () => {
    expect(usage(() => tracePlan('9', { toOrigin: '1' })).message).toContain('--item');
    expect(usage(() => tracePlan('9', { item: '1' })).message).toContain('--to-order');
    expect(usage(() => tracePlan('9', { item: '1', toOrder: '9' })).message).toContain('itself');
    expect(usage(() => tracePlan('9', { item: '1', toOrigin: '' })).message).toContain('at least one id');
    expect(usage(() => tracePlan('x', { item: '1', toOrigin: '1' })).message).toContain('ORDER_ID');
  });

  it('PATCHes through the side the company is on', () => {
    expect(kindFor(order, 1)).toBe('purchase');
    expect(kindFor(order, 2)).toBe('sale');
    expect(kindFor({ ...order, buyer_company_id: 1, seller_company_id: 1 }, 1)).toBe('batch');
    expect(kindFor({ ...order, buyer_company_id: null, seller_company_id: null }, 1)).toBe('batch');
  });
});

describe('planImport', () => {
  it('groups rows by external_id into orders with items', () => {
    const units = planImport(
      csv(`external_id,type,order_created_at,seller_company_id,tags,product,volume,unit,line_number,item_external_id,traced_origins
PO-1,order,2025-01-02,101,eudr|organic,1,10,kg,1,A,4;5
PO-2,order,2025-01-03,102,,2,5.5,t,,,
PO-1,,,,,3,20,kg,2,B,
PO-3,order,2025-01-04,102,,,,,,,`),
      'purchase',
    );
    expect(units.map((u) => [u.key, u.lines])).toEqual([['PO-1', [2, 4]], ['PO-2', [3]], ['PO-3', [5]]]);
    expect(units[0].payload).toEqual({
      external_id: 'PO-1',
      type: 'order',
      order_created_at: '2025-01-02',
      seller_company_id: 101,
      tags: ['eudr', 'organic'],
      items: [
        { buyer_product: 1, volume: 10, unit: 'kg', line_number: 1, external_id: 'A', trace: { traced_origins: [4, 5] } },
        { buyer_product: 3, volume: 20, unit: 'kg', line_number: 2, external_id: 'B' },
      ],
    });
    expect(units[2].payload.items).toBeUndefined();
  });

  it('maps product per kind', () => {
    const sale = planImport(csv('external_id,type,order_created_at,product\nS-1,order,2025-01-01,7'), 'sale');
    expect(sale[0].payload.items).toEqual([{ seller_product: 7 }]);
    const batch = planImport(csv('external_id,type,order_created_at,company_id,tags,product\nB-1,produced_batch,2025-01-01,1,x,7'), 'batch');
    expect(batch[0].payload.items).toEqual([{ buyer_product: 7, seller_product: 7 }]);
  });

  it('gives a batch without tags an empty list (the API requires the field, not a tag)', () => {
    const blank = planImport(csv('external_id,type,order_created_at,company_id,tags\nB-1,produced_batch,2025-01-01,1,\nB-2,order,2025-01-01,1,a|b'), 'batch');
    expect(blank.map((u) => u.payload.tags)).toEqual([[], ['a', 'b']]);
    const noColumn = planImport(csv('external_id,type,order_created_at,company_id\nB-1,produced_batch,2025-01-01,1'), 'batch');
    expect(noColumn[0].payload.tags).toEqual([]);
    const purchase = planImport(csv('external_id,type,order_created_at\nP-1,order,2025-01-01'), 'purchase');
    expect(purchase[0].payload).not.toHaveProperty('tags');
  });

  it('reports every bad cell with its line and column, in line order', () => {
    const e = usage(() =>
      planImport(
        csv(`external_id,type,order_created_at,seller_company_id,product,volume
PO-1,order,2025-01-02,101,1,ten
PO-1,produced_batch,2025-01-02,101,1,5
PO-2,ordr,2025-02-30,x,1,5
,order,2025-01-02,101,1,5
PO-3,,2025-01-02,101,-4,5`),
        'purchase',
      ),
    );
    expect(e.message).toBe('orders.csv: 5 invalid rows; nothing was sent');
    expect(Object.keys(e.fields)).toEqual([
      'line 2, volume',
      'line 3, type',
      'line 4, seller_company_id',
      'line 4, type',
      'line 4, order_created_at',
      'line 5, external_id',
      'line 6, product',
      'line 6, type',
    ]);
    expect(e.fields['line 3, type'][0]).toContain('conflicts with line 2');
    expect(e.fields['line 6, type']).toEqual([REQUIRED]);
  });

  it('names nested item errors by the line of the item', () => {
    const e = usage(() => planImport(csv('external_id,type,order_created_at,product,traced_orders\nPO-1,order,2025-01-01,1,\nPO-1,,,2,3|x'), 'purchase'));
    expect(Object.keys(e.fields)).toEqual(['line 3, traced_orders']);
  });

  it('refuses unknown columns and columns of another kind', () => {
    expect(usage(() => planImport(csv('external_id,colour\nA,red'), 'purchase')).message).toContain('unknown column colour');
    const e = usage(() => planImport(csv('external_id,company_id\nA,1'), 'sale'));
    expect(e.hint).toContain('company_id is not part of a sale order');
    expect(usage(() => planImport(csv('external_id,product,buyer_product\nA,1,2'), 'purchase')).message).toContain('keep one');
  });

  it('a column named like an Object property (constructor, toString) is an unknown column, not silently dropped', () => {
    expect(usage(() => planImport(csv('external_id,constructor,tostring\nA,x,y'), 'purchase')).message).toContain('unknown columns constructor, tostring');
  });
});

/** A file read as `orders import` reads a quote-free one: its scattered orders noted, then its orders made as their rows come. */
function readAsStreamed(file: CsvFile): { units: OrderFromFile[]; errors: RowErrors } {
  const scattered = new ScatteredOrders();
  for (const row of file.rows) scattered.note(row);
  scattered.done();
  const header: FileHeader = { name: file.name, columns: file.columns, numbers: file.numbers, lineByLine: true };
  const units: OrderFromFile[] = [];
  const orders = ordersAsRead(header, 'purchase', scattered, (u) => units.push(u));
  for (const row of file.rows) orders.add(row);
  const errors = new RowErrors(file.name);
  orders.end(errors);
  return { units, errors };
}

describe('orders made as their rows come (a quote-free file, read line by line)', () => {
  it('hands on each order when its rows are in, in the order of their first lines, as the whole file makes them', () => {
    const file = csv(`external_id,type,order_created_at,seller_company_id,product,volume
A,order,2025-01-02,101,1,10
B,order,2025-01-03,102,2,5
A,,,,3,20
C,order,2025-01-04,103,4,1
C,,,,5,2
,order,2025-01-04,103,4,1
B,,,,6,7
D,order,2025-01-05,104,7,3`);
    const scattered = new ScatteredOrders();
    for (const row of file.rows) scattered.note(row);
    // Only the orders whose rows are apart are remembered, with their last lines.
    expect([...scattered.done().lastLine]).toEqual([['A', 4], ['B', 8]]);
    const streamed = readAsStreamed(file);
    const whole = planImport(file, 'purchase', new RowErrors(file.name));
    expect(streamed.units.map((u) => u.key)).toEqual(['A', 'B', 'C', 'D']);
    expect(streamed.units).toEqual(whole);
  });

  it('makes the same orders and finds the same errors as the whole file, whatever the rows (property)', () => {
    const ids = fc.constantFrom('A', 'B', 'C', 'D', '');
    const row = fc.record({
      id: ids,
      type: fc.constantFrom('order', '', 'ordr'),
      created: fc.constantFrom('2025-01-02', '', '2025-02-30'),
      seller: fc.constantFrom('101', '', '102', 'x'),
      product: fc.constantFrom('1', '2', '', '-4'),
      volume: fc.constantFrom('10', '5.5', '', 'ten'),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 12 }), (rows) => {
        const file = csv(['external_id,type,order_created_at,seller_company_id,product,volume', ...rows.map((r) => [r.id, r.type, r.created, r.seller, r.product, r.volume].join(','))].join('\n'));
        const streamed = readAsStreamed(file);
        const errors = new RowErrors(file.name);
        const whole = planImport(file, 'purchase', errors);
        expect(streamed.units).toEqual(whole);
        expect(streamed.errors.outcomes()).toEqual(errors.outcomes());
      }),
      { numRuns: 300 },
    );
  });
});
