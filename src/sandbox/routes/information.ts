// Information requests to suppliers: the legacy bulk call (1..100 elements, per-element results)
// and its replacement that selects orders by filter.
//
// Choices where the documents are silent:
// - An element names an order it buys (order_id), one of its value chains (value_chain_id) or
//   both; anything else, a repeated element, an unknown or foreign id fails that element only.
// - invitation_action: "request_sent" when the supplier already shares data (value chain active
//   or the supplier has a workspace), "reminder_sent" when it was invited before,
//   "invitation_sent" otherwise (the value chain then becomes "invited").
// - POST /information-requests/bulk-create takes {order_action?: "buying", filters?: {order list
//   filters}} and sends one request per matching order, same response shape.
// - Both answer 201.
import * as z from 'zod';
import { ID_MAX } from '../../util/numbers.js';
import { nowIso, type Order, type ValueChain } from '../data.js';
import { paramsFromObject, query } from '../filters.js';
import { created, type Ctx, type Router } from '../router.js';
import { parseBody } from '../validate.js';
import { myCompany } from './common.js';
import { orderSpec, visibleTo } from './orders.js';

interface Processed {
  index: number;
  order_id: number | null;
  value_chain_id: number | null;
  invitation_action: string;
}
interface Failed {
  index: number;
  data: unknown;
  error: string;
}

function send(ctx: Ctx, order: Order | null, chain: ValueChain | null): string {
  const supplier = order?.seller_company_id != null ? ctx.store.companies.get(order.seller_company_id) : undefined;
  if (chain?.status === 'active' || supplier?.tenant) return 'request_sent';
  if (chain?.status === 'invited') return 'reminder_sent';
  if (chain) {
    chain.status = 'invited';
    chain.updated_at = nowIso();
  }
  return 'invitation_sent';
}

function respond(total: number, processed: Processed[], failed: Failed[]) {
  return created({
    message: `Processed ${processed.length} of ${total} information request(s).`,
    results: { summary: { total_information_requests: total, processed: processed.length, failed: failed.length }, processed, failed },
  });
}

function legacyBulk(ctx: Ctx) {
  const b = parseBody(ctx, z.object({ information_requests: z.array(z.unknown()).min(1).max(100) }));
  const me = myCompany(ctx);
  const seen = new Map<string, number>();
  const processed: Processed[] = [];
  const failed: Failed[] = [];
  b.information_requests.forEach((data, index) => {
    const fail = (error: string) => failed.push({ index, data, error });
    const el = (data ?? {}) as Record<string, unknown>;
    const isId = (v: unknown) => v === undefined || v === null || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= ID_MAX);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('Each element must be an object with order_id or value_chain_id.');
    if (!isId(el.order_id) || !isId(el.value_chain_id)) return fail('order_id and value_chain_id must be integers.');
    const orderId = (el.order_id as number | null | undefined) ?? null;
    const chainId = (el.value_chain_id as number | null | undefined) ?? null;
    if (orderId === null && chainId === null) return fail('Provide order_id or value_chain_id.');
    const key = `${orderId}:${chainId}`;
    if (seen.has(key)) return fail(`Duplicate of element ${seen.get(key)}.`);
    seen.set(key, index);
    const order = orderId !== null ? ctx.store.orders.get(orderId) : undefined;
    if (orderId !== null && (!visibleTo(order, me) || order.buyer_company_id !== me)) return fail(`Order ${orderId} does not exist or is not bought by your company.`);
    const chain = chainId !== null ? ctx.store.valueChains.get(chainId) : undefined;
    if (chainId !== null && (!chain || chain.deleted_at || chain.company_id !== me)) return fail(`Value chain ${chainId} does not exist.`);
    const vc = chain ?? (order?.value_chain != null ? ctx.store.valueChains.get(order.value_chain) : undefined) ?? null;
    processed.push({ index, order_id: orderId, value_chain_id: chainId ?? vc?.id ?? null, invitation_action: send(ctx, order ?? null, vc) });
  });
  return respond(b.information_requests.length, processed, failed);
}

function bulkByFilter(ctx: Ctx) {
  const b = parseBody(ctx, z.object({ order_action: z.enum(['buying']).optional(), filters: z.record(z.string(), z.unknown()).optional() }));
  const me = myCompany(ctx);
  const rows = [...ctx.store.orders.values()].filter((o) => !o.deleted_at && o.buyer_company_id === me);
  const matched = query(rows, orderSpec(ctx), paramsFromObject(b.filters ?? {}));
  const processed = matched.map((o, index) => {
    const vc = o.value_chain != null ? (ctx.store.valueChains.get(o.value_chain) ?? null) : null;
    return { index, order_id: o.id, value_chain_id: vc?.id ?? null, invitation_action: send(ctx, o, vc) };
  });
  return respond(matched.length, processed, []);
}

export function registerInformationRequests(r: Router): void {
  r.post('/information-requests/bulk', legacyBulk);
  r.post('/information-requests/bulk-create', bulkByFilter);
}
