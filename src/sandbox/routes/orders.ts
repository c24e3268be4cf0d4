// Orders and their items: the list with every documented filter, statistics, the create/update
// bodies per kind (purchase, sale, batch), the deprecated per-kind and order item endpoints.
//
// Choices where the documents are silent:
// - PATCH with `items` replaces the item list by the given one: an element with an `id` updates
//   that item (fields not given keep their values), one without `id` creates an item, items not
//   listed are removed. Without `items` the items stay as they are. (`orders sync` sends every
//   item, the unchanged ones as `{id}`, so its updates keep every line.)
// - external_id is unique per recording company and kind (the side it records from) among the
//   orders not deleted, on create and on PATCH: a sync that lost its journal cannot double an
//   order. Other companies and other kinds may reuse it.
// - Nested item fields are all optional (volume defaults to 0, unit to "kg", line_number to the
//   position, external_id to "<order external_id>-L<n>"); buyer_product must be a product of the
//   buyer company, seller_product one of the seller company, traced orders must be visible and
//   traced origins the company's own.
// - A purchase order body takes the sale body's fields mirrored: buyer_company_status instead of
//   seller_company_status, seller_company_id instead of buyer_company_id; purchase and sale bodies
//   also accept tags.
// - A batch belongs to the recording company on both sides unless buyer/seller_company_id say
//   otherwise; buyer_external_id (purchase) or seller_external_id (sale) default to external_id.
// - Visibility: an order is seen by its buyer, its seller and the company that created it; only
//   the creator may delete it (403 for the counterparty). PATCH goes through the per-kind
//   endpoint whose side the company is on (purchase: buyer, sale: seller, batch: creator).
// - Statistics rows carry every documented key; a key is null unless grouped by it, date is null
//   without delimit_by.
import * as z from 'zod';
import {
  ASSESSMENT_STATUSES, BUYER_STATUSES, COMMODITIES, COMPOSITIONS, ORDER_TYPES, SELLER_STATUSES, nowIso, slugify, summarize,
  type Order, type OrderItem, type OrderKind, type Product, type Statement, type Store,
} from '../data.js';
import { pageJson, paginate, paramsFromQuery, query, withLookups, type FieldSpec, type ListSpec, type Params } from '../filters.js';
import { ApiError, badRequest, created, fieldError, forbidden, intParam, noContent, notFound, ok, okJson, type Ctx, type Reply, type Router } from '../router.js';
import { bool, date, dateTime, id, idList, int, invalidPk, nonEmptyStrings, num, parseBody, str } from '../validate.js';
import { embeddedStatement, productObject, valueChainObject } from './catalog.js';
import { companyObject, countryObject, isOwned, myCompany, once, pulseParams, refErrors, timestampFields } from './common.js';

const ORDER_ACTIONS = ['buying', 'selling'] as const;

export function visibleTo(o: Order | undefined, company: number): o is Order {
  return !!o && !o.deleted_at && (o.buyer_company_id === company || o.seller_company_id === company || o.company_id === company);
}

/** Active statements per order id, built once per request: lists render and filter by it. */
const statementIndexCache = new WeakMap<Ctx, Map<number, Statement[]>>();
function statementIndex(ctx: Ctx): Map<number, Statement[]> {
  let idx = statementIndexCache.get(ctx);
  if (idx) return idx;
  idx = new Map();
  for (const s of ctx.store.statements.values()) {
    if (s.deleted_at) continue;
    for (const oid of s.orders) {
      const l = idx.get(oid);
      if (l) l.push(s);
      else idx.set(oid, [s]);
    }
  }
  statementIndexCache.set(ctx, idx);
  return idx;
}

function itemObject(ctx: Ctx, it: OrderItem) {
  const products = ctx.store.products;
  const bp = it.buyer_product !== null ? products.get(it.buyer_product) : undefined;
  const sp = it.seller_product !== null ? products.get(it.seller_product) : undefined;
  return {
    id: it.id,
    order: it.order,
    buyer_product: it.buyer_product,
    seller_product: it.seller_product,
    buyer_product_detail: bp ? once(ctx, `p${bp.id}`, () => productObject(bp)) : null,
    seller_product_detail: sp ? once(ctx, `p${sp.id}`, () => productObject(sp)) : null,
    volume: it.volume,
    unit: it.unit,
    line_number: it.line_number,
    external_id: it.external_id,
    metadata: it.metadata,
    trace: it.trace,
    is_complete_match: !!bp && !!sp && bp.commodity === sp.commodity,
    seller_traced_suggestions: {},
    traced_order_count: String(it.trace.traced_orders.length),
    traced_origin_count: String(it.trace.traced_origins.length),
    pulse_params: `order_item:${it.id}`,
    created_at: it.created_at,
    updated_at: it.updated_at,
    assessment_summary: summarize([it.assessment_status]),
    assessment_status: it.assessment_status,
    excluded_propagation_identifiers: it.excluded_propagation_identifiers,
  };
}

const embedCompany = (ctx: Ctx, id: number | null) => (id === null ? null : once(ctx, `c${id}`, () => companyObject(ctx.store.companies.get(id))));

export function orderObject(ctx: Ctx, o: Order) {
  return {
    id: o.id,
    company_id: o.company_id,
    type: o.type,
    external_id: o.external_id,
    buyer_external_id: o.buyer_external_id,
    seller_external_id: o.seller_external_id,
    order_created_at: o.order_created_at,
    order_arrival_at: o.order_arrival_at,
    buyer_company_status: o.buyer_company_status,
    seller_company_status: o.seller_company_status,
    assessment_status: o.assessment_status,
    value_chain: o.value_chain,
    value_chain_detail: o.value_chain !== null ? once(ctx, `v${o.value_chain}`, () => valueChainObject(ctx.store.valueChains.get(o.value_chain!))) : null,
    buyer_company_id: o.buyer_company_id,
    seller_company_id: o.seller_company_id,
    company: embedCompany(ctx, o.company_id),
    buyer_company: embedCompany(ctx, o.buyer_company_id),
    seller_company: embedCompany(ctx, o.seller_company_id),
    items: o.items.map((it) => itemObject(ctx, it)),
    signed_off_at: o.signed_off_at,
    due_diligence_statements: (statementIndex(ctx).get(o.id) ?? []).map((s) => embeddedStatement(ctx.store.settle(s))),
    assessment_summary: o.assessment_summary,
    excluded_propagation_identifiers: o.excluded_propagation_identifiers,
    border_cross_country_code: o.border_cross_country_code,
    border_cross_country: countryObject(o.border_cross_country_code),
    pulse_params: pulseParams('order', o.id),
    tags: o.tags,
    created_at: o.created_at,
    updated_at: o.updated_at,
  };
}

/**
 * Orders as JSON, each serialised once and reused by every page and GET that shows it: a
 * 1,000-order page is 6–7 MB, and JSON.stringify of it on every request was most of the time
 * the sandbox spent on a page. An order's JSON embeds other objects (products, companies, value
 * chains, statements), so any write empties the cache (the store's version changes) instead of
 * naming the orders it touched. An order with a statement whose registry work is still running is
 * never kept: its JSON changes when that work finishes, with no write. Past ORDER_JSON_BUDGET
 * bytes the least recently used go first.
 */
const ORDER_JSON_BUDGET = 64 * 1024 * 1024;
interface OrderJsonCache {
  version: number;
  bytes: number;
  /** In order of use, the most recent last. */
  byId: Map<number, Buffer>;
}
const orderJsonCaches = new WeakMap<Store, OrderJsonCache>();

function orderJson(ctx: Ctx, o: Order): Buffer {
  let cache = orderJsonCaches.get(ctx.store);
  if (cache?.version !== ctx.store.version) orderJsonCaches.set(ctx.store, (cache = { version: ctx.store.version, bytes: 0, byId: new Map() }));
  const kept = cache.byId.get(o.id);
  if (kept) {
    cache.byId.delete(o.id);
    cache.byId.set(o.id, kept);
    return kept;
  }
  const json = Buffer.from(JSON.stringify(orderObject(ctx, o)));
  if ((statementIndex(ctx).get(o.id) ?? []).some((s) => s.pending)) return json;
  cache.byId.set(o.id, json);
  cache.bytes += json.length;
  for (const [id, old] of cache.byId) {
    if (cache.bytes <= ORDER_JSON_BUDGET) break;
    cache.byId.delete(id);
    cache.bytes -= old.length;
  }
  return json;
}

// --- list filters ---------------------------------------------------------------------------

function productFields(ctx: Ctx, side: 'buyer_product' | 'seller_product'): Record<string, FieldSpec<Order>> {
  const products = ctx.store.products;
  const of = (o: Order): Array<Product | undefined> => o.items.map((i) => (i[side] === null ? undefined : products.get(i[side]!)));
  const p = `items__${side}`;
  return {
    [p]: { type: 'int', get: (o) => o.items.map((i) => i[side]) },
    [`${p}__sku`]: { type: 'string', get: (o) => of(o).map((x) => x?.sku ?? null) },
    [`${p}__name`]: { type: 'string', get: (o) => of(o).map((x) => x?.name ?? null) },
    [`${p}__commodity`]: { type: 'enum', values: COMMODITIES, get: (o) => of(o).map((x) => x?.commodity ?? null) },
    [`${p}__composition`]: { type: 'enum', values: COMPOSITIONS, get: (o) => of(o).map((x) => x?.composition ?? null) },
  };
}

const productFilters = (side: 'buyer_product' | 'seller_product') => [
  ...withLookups(`items__${side}`, 'in', 'isnull'),
  ...withLookups(`items__${side}__sku`, 'icontains', 'startswith', 'endswith'),
  ...withLookups(`items__${side}__name`, 'icontains', 'startswith', 'endswith'),
  ...withLookups(`items__${side}__commodity`, 'in'),
  ...withLookups(`items__${side}__composition`, 'in'),
];

/** The order list filters of api/supply-chain.md (the statistics and bulk information requests take them too). */
const ORDER_FILTERS = [
  ...withLookups('type', 'in'),
  ...withLookups('buyer_company_status', 'in'),
  ...withLookups('seller_company_status', 'in'),
  ...withLookups('assessment_status', 'in'),
  ...withLookups('order_created_at', 'gte', 'lte'),
  ...withLookups('order_arrival_at', 'gte', 'lte'),
  'value_chain',
  ...withLookups('border_cross_country_code', 'in'),
  ...withLookups('id', 'in', 'exclude_in'),
  'due_diligence_statements__isnull',
  ...withLookups('tags__name', 'icontains', 'in'),
  ...withLookups('tags__slug', 'in'),
  ...productFilters('buyer_product'),
  ...productFilters('seller_product'),
  ...withLookups('items__external_id', 'icontains', 'startswith', 'endswith', 'in'),
  'items__unit',
  ...withLookups('items__volume', 'gte', 'lte'),
  ...withLookups('items__traced_origins', 'in'),
  'passing_percentage_gte',
  'failing_percentage_gte',
];

export function orderSpec(ctx: Ctx): ListSpec<Order> {
  const dds = statementIndex(ctx);
  return {
    fields: {
      id: { type: 'int', get: (o) => o.id },
      type: { type: 'enum', values: ORDER_TYPES, get: (o) => o.type },
      buyer_company_status: { type: 'enum', values: BUYER_STATUSES, get: (o) => o.buyer_company_status },
      seller_company_status: { type: 'enum', values: SELLER_STATUSES, get: (o) => o.seller_company_status },
      assessment_status: { type: 'enum', values: ASSESSMENT_STATUSES, get: (o) => o.assessment_status },
      order_created_at: { type: 'date', get: (o) => o.order_created_at },
      order_arrival_at: { type: 'date', get: (o) => o.order_arrival_at },
      value_chain: { type: 'int', get: (o) => o.value_chain },
      border_cross_country_code: { type: 'string', get: (o) => o.border_cross_country_code },
      due_diligence_statements: { type: 'int', get: (o) => (dds.get(o.id) ?? []).map((s) => s.id) },
      tags__name: { type: 'string', get: (o) => o.tags },
      tags__slug: { type: 'string', get: (o) => o.tags.map(slugify) },
      ...productFields(ctx, 'buyer_product'),
      ...productFields(ctx, 'seller_product'),
      items__external_id: { type: 'string', get: (o) => o.items.map((i) => i.external_id) },
      items__unit: { type: 'string', get: (o) => o.items.map((i) => i.unit) },
      items__volume: { type: 'number', get: (o) => o.items.map((i) => i.volume) },
      items__traced_origins: { type: 'int', get: (o) => o.items.flatMap((i) => i.trace.traced_origins) },
      passing_percentage: { type: 'number', min: 0, max: 100, get: (o) => o.assessment_summary?.passing_percentage ?? 0 },
      failing_percentage: { type: 'number', min: 0, max: 100, get: (o) => o.assessment_summary?.failing_percentage ?? 0 },
    },
    filters: ORDER_FILTERS,
    aliases: { passing_percentage_gte: 'passing_percentage__gte', failing_percentage_gte: 'failing_percentage__gte' },
    reserved: ['order_action', 'group_by', 'delimit_by'],
    search: (o) => [o.buyer_external_id, o.seller_external_id, ...o.tags],
    ordering: {
      id: (o) => o.id, external_id: (o) => o.external_id, buyer_external_id: (o) => o.buyer_external_id,
      seller_external_id: (o) => o.seller_external_id, order_created_at: (o) => o.order_created_at,
      order_arrival_at: (o) => o.order_arrival_at, type: (o) => o.type, buyer_company_status: (o) => o.buyer_company_status,
      seller_company_status: (o) => o.seller_company_status, assessment_status: (o) => o.assessment_status,
      value_chain: (o) => o.value_chain, created_at: (o) => o.created_at, updated_at: (o) => o.updated_at,
      signed_off_at: (o) => o.signed_off_at,
    },
    defaultOrdering: ['-order_created_at', '-id'],
  };
}

function orderAction(ctx: Ctx): (typeof ORDER_ACTIONS)[number] {
  const a = ctx.query.get('order_action');
  if (!a) throw fieldError('order_action', 'This field is required.');
  if (!(ORDER_ACTIONS as readonly string[]).includes(a))
    throw fieldError('order_action', `Select a valid choice. ${a} is not one of the available choices.`);
  return a as (typeof ORDER_ACTIONS)[number];
}

function* actionRows(ctx: Ctx, action: 'buying' | 'selling'): Iterable<Order> {
  const me = myCompany(ctx);
  for (const o of ctx.store.orders.values()) {
    if (o.deleted_at) continue;
    if (action === 'buying' ? o.buyer_company_id === me : o.seller_company_id === me) yield o;
  }
}

/**
 * Filtered and ordered rows of an order list, remembered per query so that paging through a
 * 100,000-order export filters and sorts once, not once per page. Any write invalidates.
 */
const listCaches = new WeakMap<Store, Map<string, Order[]>>();
function cachedOrders(ctx: Ctx, scope: string, rows: () => Iterable<Order>, params: Params): Order[] {
  let cache = listCaches.get(ctx.store);
  if (!cache) listCaches.set(ctx.store, (cache = new Map()));
  const q = new URLSearchParams(ctx.query);
  q.delete('limit');
  q.delete('offset');
  q.sort();
  const key = `${ctx.store.version}|${myCompany(ctx)}|${scope}|${q.toString()}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const result = query(rows(), orderSpec(ctx), params);
  cache.set(key, result);
  if (cache.size > 16) cache.delete(cache.keys().next().value!);
  return result;
}

function listOrders(ctx: Ctx, scope: string, rows: () => Iterable<Order>): Reply {
  const result = cachedOrders(ctx, scope, rows, paramsFromQuery(ctx.query));
  return okJson(pageJson(paginate(ctx, result, (o) => orderJson(ctx, o))));
}

// --- statistics -----------------------------------------------------------------------------

const GROUP_BY = ['assessment_status', 'buyer_company_status', 'seller_company_status', 'type', 'value_chain_id'] as const;
const DELIMIT_BY = ['daily', 'monthly', 'yearly'] as const;

function statistics(ctx: Ctx): Reply {
  const action = orderAction(ctx);
  const groupBy = ctx.query.getAll('group_by').flatMap((g) => g.split(',')).map((g) => g.trim()).filter(Boolean);
  const bad = groupBy.filter((g) => !(GROUP_BY as readonly string[]).includes(g));
  if (bad.length) throw badRequest({ group_by: bad.map((g) => `Select a valid choice. ${g} is not one of the available choices.`) });
  const delimit = ctx.query.get('delimit_by') || null;
  if (delimit && !(DELIMIT_BY as readonly string[]).includes(delimit))
    throw fieldError('delimit_by', `Select a valid choice. ${delimit} is not one of the available choices.`);
  const params = paramsFromQuery(ctx.query);
  for (const k of ['limit', 'offset', 'ordering']) params.delete(k);
  const rows = query(actionRows(ctx, action), { ...orderSpec(ctx), ordering: {}, defaultOrdering: [] }, params);
  const bucket = (d: string) => (delimit === 'yearly' ? `${d.slice(0, 4)}-01-01` : delimit === 'monthly' ? `${d.slice(0, 7)}-01` : d);
  const value = (o: Order, g: (typeof GROUP_BY)[number]) => (g === 'value_chain_id' ? o.value_chain : o[g]);
  const groups = new Map<string, { order_count: number; date: string | null; keys: Record<string, unknown> }>();
  for (const o of rows) {
    const keys: Record<string, unknown> = {};
    for (const g of groupBy as Array<(typeof GROUP_BY)[number]>) keys[g] = value(o, g);
    const d = delimit ? bucket(o.order_created_at) : null;
    const k = JSON.stringify([d, keys]);
    const row = groups.get(k);
    if (row) row.order_count++;
    else groups.set(k, { order_count: 1, date: d, keys });
  }
  const out = [...groups.values()].map((g) => ({
    order_count: g.order_count,
    date: g.date,
    type: null,
    buyer_company_status: null,
    seller_company_status: null,
    assessment_status: null,
    value_chain_id: null,
    ...g.keys,
  }));
  out.sort((a, b) => String(a.date).localeCompare(String(b.date)) || JSON.stringify(a).localeCompare(JSON.stringify(b)));
  if (!out.length && !groupBy.length && !delimit) out.push({ order_count: 0, date: null, type: null, buyer_company_status: null, seller_company_status: null, assessment_status: null, value_chain_id: null });
  return ok(out);
}

// --- bodies ---------------------------------------------------------------------------------

const itemBody = z.object({
  id: id().optional(),
  buyer_product: id().nullable().optional(),
  seller_product: id().nullable().optional(),
  volume: num(0).optional(),
  unit: z.string().trim().min(1).max(32).optional(),
  line_number: int(0).optional(),
  external_id: z.string().max(255).optional(),
  metadata: z
    .object({
      percentage_estimation_or_deviation: z.string().optional(),
      supplementary_unit: z.string().optional(),
      supplementary_unit_qualifier: z.string().optional(),
    })
    .optional(),
  trace: z.object({ traced_orders: idList().optional(), traced_origins: idList().optional() }).optional(),
  excluded_propagation_identifiers: z.unknown().optional(),
});
type ItemBody = z.output<typeof itemBody>;

const optStr = () => str().nullable().optional();
const common = {
  type: z.enum(ORDER_TYPES),
  external_id: str(),
  buyer_external_id: optStr(),
  seller_external_id: optStr(),
  order_created_at: date(),
  order_arrival_at: date().nullable().optional(),
  assessment_status: z.enum(ASSESSMENT_STATUSES).optional(),
  value_chain: id().nullable().optional(),
  items: z.array(itemBody).optional(),
  send_information_request: bool().optional(),
  signed_off_at: dateTime().nullable().optional(),
  dds_identifiers: nonEmptyStrings().optional(),
  border_cross_country_code: z.string().trim().max(2).nullable().optional(),
  excluded_propagation_identifiers: z.unknown().optional(),
  tags: nonEmptyStrings().optional(),
};

const bodies = {
  sale: z.object({ ...common, seller_company_status: z.enum(SELLER_STATUSES).optional(), buyer_company_id: id().nullable().optional() }),
  purchase: z.object({ ...common, buyer_company_status: z.enum(BUYER_STATUSES).optional(), seller_company_id: id().nullable().optional() }),
  batch: z.object({
    ...common,
    company_id: id(),
    buyer_company_status: z.enum(BUYER_STATUSES).optional(),
    seller_company_status: z.enum(SELLER_STATUSES).optional(),
    buyer_company_id: id().nullable().optional(),
    seller_company_id: id().nullable().optional(),
    tags: nonEmptyStrings(),
  }),
};
type AnyOrderBody = Partial<z.output<typeof bodies.batch>>;

function assertExternalIdFree(ctx: Ctx, kind: OrderKind, externalId: string, except?: number): void {
  if (ctx.store.ordersWithExternalId(myCompany(ctx), kind, externalId).some((o) => !o.deleted_at && o.id !== except))
    throw badRequest({ external_id: ['order with this external id already exists.'] });
}

/** Builds the new item list, validating every element first so nothing changes on a 400. */
function buildItems(ctx: Ctx, order: Order, given: ItemBody[]): OrderItem[] {
  const store = ctx.store;
  const me = myCompany(ctx);
  const errors: Array<Record<string, unknown>> = given.map(() => ({}));
  let failed = false;
  const fail = (i: number, field: string, msg: unknown) => {
    errors[i]![field] = msg;
    failed = true;
  };
  const productOf = (pid: number, company: number | null) => {
    const p = store.products.get(pid);
    return p && !p.deleted_at && p.company_id === company;
  };
  const current = new Map(order.items.map((it) => [it.id, it]));
  given.forEach((g, i) => {
    if (g.id !== undefined && !current.has(g.id)) fail(i, 'id', [invalidPk(g.id)]);
    if (g.buyer_product != null && !productOf(g.buyer_product, order.buyer_company_id)) fail(i, 'buyer_product', [invalidPk(g.buyer_product)]);
    if (g.seller_product != null && !productOf(g.seller_product, order.seller_company_id)) fail(i, 'seller_product', [invalidPk(g.seller_product)]);
    const trace = refErrors({
      traced_orders: [g.trace?.traced_orders, (oid) => visibleTo(store.orders.get(oid), me) && oid !== order.id],
      traced_origins: [g.trace?.traced_origins, (oid) => isOwned(ctx, store.origins, oid)],
    });
    if (Object.keys(trace).length) fail(i, 'trace', trace);
  });
  if (failed) throw new ApiError(400, { items: errors });
  const now = nowIso();
  return given.map((g, i) => {
    const prev = g.id !== undefined ? current.get(g.id) : undefined;
    const line = g.line_number ?? prev?.line_number ?? i + 1;
    const item: OrderItem = {
      id: prev?.id ?? store.nextId('item'),
      order: order.id,
      buyer_product: g.buyer_product !== undefined ? g.buyer_product : (prev?.buyer_product ?? null),
      seller_product: g.seller_product !== undefined ? g.seller_product : (prev?.seller_product ?? null),
      volume: g.volume ?? prev?.volume ?? 0,
      unit: g.unit ?? prev?.unit ?? 'kg',
      line_number: line,
      external_id: g.external_id ?? prev?.external_id ?? `${order.external_id}-L${line}`,
      metadata: g.metadata ? { ...prev?.metadata, ...g.metadata } : (prev?.metadata ?? {}),
      trace: {
        traced_orders: g.trace?.traced_orders ?? prev?.trace.traced_orders ?? [],
        traced_origins: g.trace?.traced_origins ?? prev?.trace.traced_origins ?? [],
      },
      assessment_status: prev?.assessment_status ?? 'pending',
      excluded_propagation_identifiers: g.excluded_propagation_identifiers !== undefined ? g.excluded_propagation_identifiers : (prev?.excluded_propagation_identifiers ?? null),
      created_at: prev?.created_at ?? now,
      updated_at: now,
    };
    return item;
  });
}

function replaceItems(ctx: Ctx, order: Order, items: OrderItem[]): void {
  ctx.store.setItems(order, items);
  order.assessment_summary = summarize(items.map((i) => i.assessment_status));
}

function checkRefs(ctx: Ctx, b: AnyOrderBody): void {
  if (b.value_chain != null && !isOwned(ctx, ctx.store.valueChains, b.value_chain)) throw fieldError('value_chain', invalidPk(b.value_chain));
  if (b.company_id !== undefined && b.company_id !== myCompany(ctx))
    throw fieldError('company_id', 'Batches can only be recorded for the authenticated company.');
}

/** Copies the scalar order fields a body carries; the sides are fixed by the endpoint. */
function applyOrder(order: Order, b: AnyOrderBody, kind: OrderKind): void {
  const keys = [
    'type', 'external_id', 'buyer_external_id', 'seller_external_id', 'order_created_at', 'order_arrival_at',
    'buyer_company_status', 'seller_company_status', 'assessment_status', 'value_chain', 'signed_off_at',
    'border_cross_country_code', 'excluded_propagation_identifiers', 'tags', 'dds_identifiers',
  ] as const;
  for (const k of keys) if (b[k] !== undefined) (order as unknown as Record<string, unknown>)[k] = b[k];
  if (order.border_cross_country_code) order.border_cross_country_code = order.border_cross_country_code.toUpperCase();
  if (kind !== 'purchase' && b.buyer_company_id !== undefined) order.buyer_company_id = b.buyer_company_id;
  if (kind !== 'sale' && b.seller_company_id !== undefined) order.seller_company_id = b.seller_company_id;
  order.updated_at = nowIso();
}

function createOrder(ctx: Ctx, kind: OrderKind): Reply {
  const b = parseBody(ctx, bodies[kind]) as AnyOrderBody & { external_id: string };
  checkRefs(ctx, b);
  assertExternalIdFree(ctx, kind, b.external_id);
  const me = myCompany(ctx);
  const now = nowIso();
  const order: Order = {
    id: ctx.store.nextId('order'), company_id: me, kind, type: 'order', external_id: b.external_id,
    buyer_external_id: null, seller_external_id: null, order_created_at: '', order_arrival_at: null,
    buyer_company_status: 'draft', seller_company_status: 'draft', assessment_status: 'pending', value_chain: null,
    buyer_company_id: kind === 'sale' ? null : me, seller_company_id: kind === 'purchase' ? null : me,
    items: [], signed_off_at: null, assessment_summary: summarize([]), excluded_propagation_identifiers: null,
    border_cross_country_code: null, dds_identifiers: [], tags: [], created_at: now, updated_at: now, deleted_at: null,
  };
  applyOrder(order, b, kind);
  // The recording company's own reference is the order's external id unless told otherwise.
  if (kind !== 'sale') order.buyer_external_id ??= order.external_id;
  if (kind !== 'purchase') order.seller_external_id ??= order.external_id;
  const items = buildItems(ctx, order, b.items ?? []);
  ctx.store.orders.set(order.id, order);
  ctx.store.indexOrder(order);
  replaceItems(ctx, order, items);
  return created(orderObject(ctx, order));
}

/** The per-kind querysets: which orders each deprecated/per-kind endpoint addresses. */
function inKind(ctx: Ctx, o: Order | undefined, kind: OrderKind): o is Order {
  const me = myCompany(ctx);
  if (!o || o.deleted_at) return false;
  if (kind === 'batch') return o.kind === 'batch' && o.company_id === me;
  if (o.kind === 'batch') return false;
  return kind === 'purchase' ? o.buyer_company_id === me : o.seller_company_id === me;
}

function updateOrder(ctx: Ctx, kind: OrderKind): Reply {
  const order = ctx.store.orders.get(intParam(ctx));
  if (!inKind(ctx, order, kind)) throw notFound();
  const b = parseBody(ctx, bodies[kind].partial()) as AnyOrderBody;
  checkRefs(ctx, b);
  if (b.external_id !== undefined && b.external_id !== order.external_id) assertExternalIdFree(ctx, order.kind, b.external_id, order.id);
  const items = b.items ? buildItems(ctx, order, b.items) : null;
  applyOrder(order, b, kind);
  ctx.store.indexOrder(order);
  if (items) replaceItems(ctx, order, items);
  return ok(orderObject(ctx, order));
}

function deleteOrder(ctx: Ctx, o: Order): Reply {
  if (o.company_id !== myCompany(ctx)) throw forbidden('Only the company that recorded this order can delete it.');
  o.deleted_at = nowIso();
  return noContent();
}

// --- order items (deprecated endpoints) -----------------------------------------------------

const itemSpec: ListSpec<OrderItem> = {
  fields: {
    id: { type: 'int', get: (i) => i.id },
    order: { type: 'int', get: (i) => i.order },
    buyer_product: { type: 'int', get: (i) => i.buyer_product },
    seller_product: { type: 'int', get: (i) => i.seller_product },
    external_id: { type: 'string', get: (i) => i.external_id },
    unit: { type: 'string', get: (i) => i.unit },
    volume: { type: 'number', get: (i) => i.volume },
    line_number: { type: 'int', get: (i) => i.line_number },
    assessment_status: { type: 'enum', values: ASSESSMENT_STATUSES, get: (i) => i.assessment_status },
    traced_origins: { type: 'int', get: (i) => i.trace.traced_origins },
    ...timestampFields<OrderItem>(),
  },
  search: (i) => [i.external_id],
  ordering: { id: (i) => i.id, order: (i) => i.order, line_number: (i) => i.line_number, volume: (i) => i.volume, created_at: (i) => i.created_at },
  defaultOrdering: ['order', 'line_number'],
};

function editableOrder(ctx: Ctx, orderId: number): Order {
  const o = ctx.store.orders.get(orderId);
  if (!visibleTo(o, myCompany(ctx))) throw fieldError('order', invalidPk(orderId));
  return o;
}

function visibleItem(ctx: Ctx): { item: OrderItem; order: Order } {
  const item = ctx.store.item(intParam(ctx));
  const order = item ? ctx.store.orders.get(item.order) : undefined;
  if (!item || !visibleTo(order, myCompany(ctx))) throw notFound();
  return { item, order };
}

export function registerOrders(r: Router): void {
  r.get('/orders', (ctx) => {
    const action = orderAction(ctx);
    return listOrders(ctx, action, () => actionRows(ctx, action));
  });
  r.get('/orders/statistics', statistics);
  r.get('/orders/:id', (ctx) => {
    const o = ctx.store.orders.get(intParam(ctx));
    if (!visibleTo(o, myCompany(ctx))) throw notFound();
    return okJson(orderJson(ctx, o));
  });
  r.delete('/orders/:id', (ctx) => {
    const o = ctx.store.orders.get(intParam(ctx));
    if (!visibleTo(o, myCompany(ctx))) throw notFound();
    return deleteOrder(ctx, o);
  });
  for (const kind of ['purchase', 'sale', 'batch'] as const) {
    r.post(`/orders/${kind}`, (ctx) => createOrder(ctx, kind));
    r.patch(`/orders/${kind}/:id`, (ctx) => updateOrder(ctx, kind));
    r.get(`/orders/${kind}`, (ctx) =>
      listOrders(ctx, kind, function* () {
        for (const o of ctx.store.orders.values()) if (inKind(ctx, o, kind)) yield o;
      }),
    );
    r.get(`/orders/${kind}/:id`, (ctx) => {
      const o = ctx.store.orders.get(intParam(ctx));
      if (!inKind(ctx, o, kind)) throw notFound();
      return okJson(orderJson(ctx, o));
    });
    r.delete(`/orders/${kind}/:id`, (ctx) => {
      const o = ctx.store.orders.get(intParam(ctx));
      if (!inKind(ctx, o, kind)) throw notFound();
      return deleteOrder(ctx, o);
    });
  }

  r.get('/orders-items', (ctx) => {
    const me = myCompany(ctx);
    const rows = function* () {
      for (const o of ctx.store.orders.values()) if (visibleTo(o, me)) yield* o.items;
    };
    return ok(paginate(ctx, query(rows(), itemSpec, paramsFromQuery(ctx.query)), (i) => itemObject(ctx, i)));
  });
  r.post('/orders-items', (ctx) => {
    const b = parseBody(ctx, itemBody.omit({ id: true }).extend({ order: id() }));
    const order = editableOrder(ctx, b.order);
    const { order: _o, ...fields } = b;
    const [item] = buildItemsFor(ctx, order, [...order.items.map((it) => ({ id: it.id })), fields]).slice(-1);
    replaceItems(ctx, order, [...order.items, item!]);
    return created(itemObject(ctx, item!));
  });
  r.get('/orders-items/:id', (ctx) => ok(itemObject(ctx, visibleItem(ctx).item)));
  r.patch('/orders-items/:id', (ctx) => {
    const { item, order } = visibleItem(ctx);
    const b = parseBody(ctx, itemBody.omit({ id: true }));
    const items = buildItemsFor(ctx, order, order.items.map((it) => (it.id === item.id ? { ...b, id: it.id } : { id: it.id })));
    replaceItems(ctx, order, items);
    return ok(itemObject(ctx, items.find((i) => i.id === item.id)!));
  });
  r.delete('/orders-items/:id', (ctx) => {
    const { item, order } = visibleItem(ctx);
    replaceItems(ctx, order, order.items.filter((i) => i.id !== item.id));
    return noContent();
  });
}

/** Item errors of the single-item endpoints are reported without the list nesting. */
function buildItemsFor(ctx: Ctx, order: Order, given: ItemBody[]): OrderItem[] {
  try {
    return buildItems(ctx, order, given);
  } catch (e) {
    if (e instanceof ApiError && Array.isArray((e.body as { items?: unknown }).items)) {
      const errs = (e.body as { items: Array<Record<string, unknown>> }).items.find((x) => Object.keys(x).length);
      throw new ApiError(400, errs ?? e.body);
    }
    throw e;
  }
}

