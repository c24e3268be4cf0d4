// Due diligence statements: the documented state machine, tracing orders to statements and the
// orders available for tracing.
//
// Background work is computed lazily: a statement that waits for the registry carries
// `pending.at`, and every read settles it once the clock has passed that instant. No timers run,
// so nothing keeps the process alive and tests only need a small statementDelayMs.
//
// Choices where the documents are silent:
// - A registry retrieval (EUDR with dds_identifier) fails when the identifier starts with "FAIL";
//   dds_data then holds {reason}. Filing (EUDR without identifier) always succeeds and sets a
//   registry reference like "26BE…". Both finish statementDelayMs after creation.
// - The `status` given on create is validated but the state machine decides the initial status.
// - available-orders answers the usual paginated envelope over the orders the company buys;
//   `results` holds one element {count, results: [orders of this page]}.
// - trace-orders takes at most 100 statement ids and 100 order ids per call.
// - Withdrawing needs has_withdraw_request=true on an EUDR statement the service filed; the
//   outcome is recorded as metadata.withdrawal and eu_registry_status WITHDRAWN.
import * as z from 'zod';
import {
  DDS_STATUSES, DDS_TYPES, nowIso, registryData,
  type DdsStatus, type Order, type Statement,
} from '../data.js';
import { paginate, paramsFromQuery, parseBool, query, withLookups, type ListSpec } from '../filters.js';
import { badRequest, created, fieldError, intParam, noContent, ok, type Ctx, type Router } from '../router.js';
import { id, idList, parseBody, rejectUnknown, uuid } from '../validate.js';
import { productObject } from './catalog.js';
import { isOwned, listReply, myCompany, owned, ownedRows, refErrors, timestampFields } from './common.js';

function statementObject(s: Statement) {
  return {
    id: s.id,
    company_id: s.company_id,
    type: s.type,
    name: s.name,
    status: s.status,
    dds_identifier: s.dds_identifier,
    dds_data: s.dds_data,
    orders: s.orders,
    products: s.products,
    assessment_run_ids: s.assessment_run_ids,
    metadata: s.metadata,
    assessment_summary: s.assessment_summary,
    excluded_propagation_identifiers: s.excluded_propagation_identifiers,
    assessment_status: s.assessment_status,
    pulse_params: `dds:${s.id}`,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

function statementDetail(ctx: Ctx, s: Statement) {
  const orders = s.orders.map((oid) => ctx.store.orders.get(oid)).filter((o): o is Order => !!o && !o.deleted_at);
  const products = s.products.map((pid) => ctx.store.products.get(pid)).filter((p) => p && !p.deleted_at);
  return {
    ...statementObject(s),
    orders_detail: orders.map((o) => ({
      id: o.id,
      type: o.type,
      buyer_external_id: o.buyer_external_id,
      seller_external_id: o.seller_external_id,
      border_cross_country_code: o.border_cross_country_code,
      buyer_company_id: o.buyer_company_id,
      seller_company_id: o.seller_company_id,
      order_created_at: o.order_created_at,
      order_arrival_at: o.order_arrival_at,
      buyer_company_status: o.buyer_company_status,
      seller_company_status: o.seller_company_status,
      assessment_status: o.assessment_status,
    })),
    products_detail: products.map((p) => productObject(p)),
  };
}

/** The statement list filters of api/supply-chain.md. */
const STATEMENT_FILTERS = [
  ...withLookups('created_at', 'gte', 'lte'),
  ...withLookups('updated_at', 'gte', 'lte'),
  ...withLookups('dds_identifier', 'icontains', 'in'),
  ...withLookups('id', 'in', 'exclude_in'),
  ...withLookups('name', 'icontains', 'in'),
  'object_pulse_identifier',
  'orders__in',
  'products__in',
  ...withLookups('status', 'in'),
  ...withLookups('type', 'in'),
];

const statementSpec: ListSpec<Statement> = {
  fields: {
    id: { type: 'int', get: (s) => s.id },
    name: { type: 'string', get: (s) => s.name },
    dds_identifier: { type: 'string', get: (s) => s.dds_identifier },
    status: { type: 'enum', values: DDS_STATUSES, get: (s) => s.status },
    type: { type: 'enum', values: DDS_TYPES, get: (s) => s.type },
    orders: { type: 'int', get: (s) => s.orders },
    products: { type: 'int', get: (s) => s.products },
    object_pulse_identifier: { type: 'string', get: (s) => [`dds:${s.id}`, ...s.orders.map((o) => `order:${o}`), ...s.products.map((p) => `product:${p}`)] },
    ...timestampFields<Statement>(),
  },
  filters: STATEMENT_FILTERS,
  search: (s) => [s.name, s.dds_identifier],
  ordering: {
    id: (s) => s.id, name: (s) => s.name, type: (s) => s.type, status: (s) => s.status,
    dds_identifier: (s) => s.dds_identifier, created_at: (s) => s.created_at, updated_at: (s) => s.updated_at,
  },
  defaultOrdering: ['-created_at', '-id'],
};

const createBody = z.object({
  type: z.enum(DDS_TYPES),
  name: z.string().trim().max(255).nullable().optional(),
  status: z.enum(DDS_STATUSES).optional(),
  dds_identifier: z.string().trim().max(255).optional(),
  orders: idList().optional(),
  products: idList().optional(),
  assessment_run_ids: z.array(uuid()).optional(),
  excluded_propagation_identifiers: z.unknown().optional(),
});

/** Only orders the company buys may be attached (and traced) to its statements. */
function boughtOrder(ctx: Ctx, oid: number): boolean {
  const o = ctx.store.orders.get(oid);
  return !!o && !o.deleted_at && o.buyer_company_id === myCompany(ctx);
}

function registryCountry(ctx: Ctx): string {
  return ctx.auth.company.country;
}

function createStatement(ctx: Ctx) {
  const b = parseBody(ctx, createBody);
  const errors: Record<string, string[]> = refErrors({
    orders: [b.orders, (o) => boughtOrder(ctx, o)],
    products: [b.products, (p) => isOwned(ctx, ctx.store.products, p)],
  });
  const runs = b.assessment_run_ids ?? [];
  const ident = b.dds_identifier ?? '';
  if ((b.type === 'PPWR' || (b.type === 'EUDR' && !ident)) && !runs.length)
    errors.assessment_run_ids = [b.type === 'PPWR' ? 'This field is required for PPWR statements.' : 'This field is required for EUDR statements without dds_identifier.'];
  if (b.type === 'PPWR' && !ident) errors.dds_identifier = ['This field is required for PPWR statements.'];
  if (Object.keys(errors).length) throw badRequest(errors);

  const now = Date.now();
  const at = now + ctx.options.statementDelayMs;
  const sid = ctx.store.nextId('statement');
  const country = registryCountry(ctx);
  const s: Statement = {
    id: sid, company_id: myCompany(ctx), type: b.type, name: b.name ?? null, status: 'draft', dds_identifier: ident,
    dds_data: {}, orders: [...new Set(b.orders ?? [])], products: [...new Set(b.products ?? [])],
    assessment_run_ids: b.type === 'EUTR' ? [] : runs,
    metadata: { eu_registry_status: 'NOT_SUBMITTED', eu_registry_status_observed_at: null, submitted_at: null, was_filed: false },
    assessment_status: 'pending', assessment_summary: null, excluded_propagation_identifiers: b.excluded_propagation_identifiers ?? null,
    created_at: nowIso(), updated_at: nowIso(), deleted_at: null,
  };
  if (b.type === 'EUTR') {
    s.status = 'complete';
    s.dds_identifier = `EUTR-${country}-${sid.toString(36).toUpperCase().padStart(8, '0')}`;
  } else if (b.type === 'EUDR' && ident) {
    const fails = ident.toUpperCase().startsWith('FAIL');
    s.status = 'in_progress';
    s.metadata.eu_registry_status = 'RETRIEVING';
    s.pending = fails
      ? { at, status: 'failed', dds_data: { reason: `Registry retrieval failed: reference number ${ident} was not found in the EU Information System.` }, registry_status: 'NOT_FOUND' }
      : { at, status: 'complete', dds_data: registryData(ident, country), registry_status: 'AVAILABLE' };
  } else if (b.type === 'EUDR') {
    const reference = `26${country}${sid.toString(36).toUpperCase().padStart(10, '0')}`;
    s.status = 'in_progress';
    s.metadata = { ...s.metadata, eu_registry_status: 'SUBMITTED', submitted_at: nowIso(), was_filed: true };
    s.pending = { at, status: 'complete', dds_identifier: reference, dds_data: registryData(reference, country), registry_status: 'AVAILABLE' };
  }
  ctx.store.statements.set(sid, s);
  return created(statementObject(s));
}

const TRANSITIONS: Record<Statement['type'], Partial<Record<DdsStatus, DdsStatus[]>>> = {
  EUDR: { draft: ['in_progress'], in_progress: ['complete', 'failed'] },
  PPWR: { draft: ['complete'] },
  EUTR: {},
};

function updateStatement(ctx: Ctx) {
  const s = ctx.store.settle(owned(ctx, ctx.store.statements, intParam(ctx)));
  rejectUnknown(ctx, ['status', 'name'], 'This field cannot be changed; only status and name can be updated.');
  const b = parseBody(ctx, z.object({ status: z.enum(DDS_STATUSES).optional(), name: z.string().trim().max(255).nullable().optional() }));
  if (b.status !== undefined && b.status !== s.status) {
    if (s.type === 'EUTR') throw fieldError('status', 'The status of an EUTR statement cannot change.');
    if (b.status === 'draft') throw fieldError('status', 'A statement cannot return to draft.');
    if (s.status === 'complete' || s.status === 'failed') throw fieldError('status', `${s.status} is a final status.`);
    if (!TRANSITIONS[s.type][s.status]?.includes(b.status)) throw fieldError('status', `Cannot change the status of a ${s.type} statement from ${s.status} to ${b.status}.`);
    delete s.pending;
    s.status = b.status;
    if (s.type === 'PPWR' && b.status === 'complete') {
      // The aggregate assessment is refreshed and cascaded to the linked products.
      const linked = s.products.map((p) => ctx.store.products.get(p)).filter((p) => !!p);
      s.assessment_status = linked.some((p) => p.assessment_status === 'failing') ? 'failing' : 'passing';
      for (const p of linked) p.assessment_status = s.assessment_status;
    }
    if (s.type === 'EUDR' && b.status === 'complete') s.assessment_status = 'in_progress';
    if (s.type === 'EUDR' && b.status === 'in_progress') s.metadata = { ...s.metadata, submitted_at: nowIso() };
  }
  if (b.name !== undefined) s.name = b.name;
  s.updated_at = nowIso();
  return ok(statementObject(s));
}

function deleteStatement(ctx: Ctx) {
  const s = ctx.store.settle(owned(ctx, ctx.store.statements, intParam(ctx)));
  const raw = ctx.query.get('has_withdraw_request');
  const withdraw = raw ? parseBool('has_withdraw_request', raw) : false;
  if (withdraw) {
    if (s.type !== 'EUDR' || !s.metadata.was_filed)
      throw fieldError('has_withdraw_request', 'Only an EUDR statement filed by the service can be withdrawn.');
    s.metadata = { ...s.metadata, eu_registry_status: 'WITHDRAWN', withdrawal: { requested_at: nowIso(), outcome: 'withdrawn' } };
  }
  s.deleted_at = nowIso();
  return noContent();
}

const availableSpec: ListSpec<Order> = {
  fields: {},
  search: (o) => [o.external_id, o.buyer_external_id, o.seller_external_id],
  ordering: {
    id: (o) => o.id, order_created_at: (o) => o.order_created_at, type: (o) => o.type,
    buyer_external_id: (o) => o.buyer_external_id, seller_external_id: (o) => o.seller_external_id,
  },
  defaultOrdering: ['-order_created_at', '-id'],
};

function availableOrders(ctx: Ctx) {
  const raw = ctx.query.get('exclude_dds') ?? '';
  const ids = raw.split(',').map((x) => x.trim()).filter(Boolean);
  if (ids.some((x) => !/^\d+$/.test(x))) throw fieldError('exclude_dds', 'Enter a whole number or a comma-separated list of them.');
  const excluded = new Set<number>();
  for (const x of ids) {
    const s = ctx.store.statements.get(Number(x));
    if (s && s.company_id === myCompany(ctx) && !s.deleted_at) for (const o of s.orders) excluded.add(o);
  }
  const me = myCompany(ctx);
  const rows = function* () {
    for (const o of ctx.store.orders.values()) if (!o.deleted_at && o.buyer_company_id === me && !excluded.has(o.id)) yield o;
  };
  const page = paginate(ctx, query(rows(), availableSpec, paramsFromQuery(ctx.query)), (o) => ({
    id: o.id,
    buyer_external_id: o.buyer_external_id,
    seller_external_id: o.seller_external_id,
    order_created_at: o.order_created_at,
    type: o.type,
  }));
  return ok({ ...page, results: page.results.length ? [{ count: page.results.length, results: page.results }] : [] });
}

const oneOrMany = () => z.union([id(), z.array(id()).min(1).max(100)]);

function traceOrders(ctx: Ctx) {
  const b = parseBody(ctx, z.object({ dds_id: oneOrMany(), order_id: oneOrMany() }));
  const ddsIds = [...new Set(Array.isArray(b.dds_id) ? b.dds_id : [b.dds_id])];
  const orderIds = [...new Set(Array.isArray(b.order_id) ? b.order_id : [b.order_id])];
  const errors = refErrors({
    dds_id: [ddsIds, (d) => isOwned(ctx, ctx.store.statements, d)],
    order_id: [orderIds, (o) => boughtOrder(ctx, o)],
  });
  if (Object.keys(errors).length) throw badRequest(errors);
  let added = 0;
  const results = ddsIds.map((d) => {
    const s = ctx.store.statements.get(d)!;
    const attached = new Set(s.orders);
    const fresh = orderIds.filter((o) => !attached.has(o));
    s.orders = [...s.orders, ...fresh];
    if (fresh.length) s.updated_at = nowIso();
    added += fresh.length;
    return {
      dds_id: d,
      added_orders: fresh,
      total_orders: s.orders.length,
      message: fresh.length ? `${fresh.length} order(s) added to the statement.` : 'All orders were already attached to the statement.',
    };
  });
  return ok({ results, summary: { total_dds_processed: ddsIds.length, total_orders_added: added } });
}

export function registerStatements(r: Router): void {
  const base = '/due-diligence-statements';
  r.get(base, (ctx) => {
    const rows = [...ownedRows(ctx, ctx.store.statements)].map((s) => ctx.store.settle(s));
    return listReply(ctx, rows, statementSpec, statementObject);
  });
  r.post(base, createStatement);
  r.get(`${base}/available-orders`, availableOrders);
  r.post(`${base}/trace-orders`, traceOrders);
  r.get(`${base}/:id`, (ctx) => ok(statementDetail(ctx, ctx.store.settle(owned(ctx, ctx.store.statements, intParam(ctx))))));
  r.patch(`${base}/:id`, updateStatement);
  r.delete(`${base}/:id`, deleteStatement);
}
