// Tracing one order item to other orders and to origins: read the order, change that item's
// trace, and PATCH the order with every item so nothing else changes.
//
// Decisions where the API documents are silent:
// - The per-kind endpoint to PATCH follows the side the company is on: purchase when it is the
//   buyer (and not the seller), sale when it is the seller (and not the buyer), batch otherwise
//   (a batch is recorded by the company for itself: it is on both sides or on neither). The
//   company comes from GET /accounts/me; --purchase/--sale/--batch skip that guess.
// - --to-order/--to-origin add to the item's current trace; --replace makes them replace it
//   (and an empty value then clears the list). A list that is not given stays as it is.
// - The PATCH carries each item's writable fields as the GET returned them, so the result is
//   the same whether the service merges nested items or replaces them; the other items go
//   without their trace, which is left as it is: it may name orders of the counterparty that
//   this company cannot see, and the service would reject them as unknown.
// - The API has no precondition for a write and the PATCH sends the whole item list, so the
//   company is looked up before the order is read (the read and the write are one round trip
//   apart), and the read and the write hold a lock of the order in the config directory: two
//   sct processes of this user tracing one order take turns instead of dropping each other's
//   trace. Across machines the last writer still wins.
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { SctError, UsageError } from '../../errors.js';
import { COLUMNS, type Column } from '../../output/columns.js';
import { writeOne } from '../../output/format.js';
import { asMe } from '../../api/me.js';
import { withObjectLock } from '../../config/lock.js';
import { ORDER_UPDATE_SCHEMAS, orderResponseSchema, type OrderItemBody, type OrderResponse } from '../../api/schemas/orders.js';
import { type OrderKindName } from '../../api/enums.js';
import { validate } from '../shared/body.js';
import { parseIdList, parseInteger } from '../shared/flags.js';
import { orderKind } from './filters.js';
import type { TraceFlags } from './options.js';

export interface TracePlan {
  orderId: number;
  itemId: number;
  toOrders?: number[];
  toOrigins?: number[];
  replace: boolean;
  kind?: OrderKindName;
}

/** Every flag checked before the first request. */
export function tracePlan(orderIdArg: string, flags: TraceFlags): TracePlan {
  const orderId = parseInteger(orderIdArg, 'ORDER_ID')!;
  if (flags.item === undefined) throw new UsageError('--item ITEM_ID is required: the id of the order item to trace');
  const itemId = parseInteger(flags.item, '--item')!;
  if (flags.toOrder === undefined && flags.toOrigin === undefined) {
    throw new UsageError('give --to-order IDS and/or --to-origin IDS: what the item is traced to');
  }
  const ids = (value: string | undefined, flag: string) => {
    if (value === undefined) return undefined;
    // With --replace an empty list clears the trace; adding nothing is a mistake.
    if (flags.replace && value.trim() === '') return [];
    return [...new Set(parseIdList(value, flag))];
  };
  const toOrders = ids(flags.toOrder, '--to-order');
  if (toOrders?.includes(orderId)) throw new UsageError(`--to-order: order ${orderId} cannot be traced to itself`);
  return { orderId, itemId, toOrders, toOrigins: ids(flags.toOrigin, '--to-origin'), replace: Boolean(flags.replace), kind: orderKind(flags, false) };
}

/** The per-kind endpoint for a company's order: see the decision at the top of this file. */
export function kindFor(order: OrderResponse, companyId: number): OrderKindName {
  const buyer = order.buyer_company_id === companyId;
  const seller = order.seller_company_id === companyId;
  if (buyer && !seller) return 'purchase';
  if (seller && !buyer) return 'sale';
  return 'batch';
}

const union = (a: number[], b: number[]) => [...new Set([...a, ...b])];

/** The items to PATCH: the traced one changed, every other one as it was. */
export function tracedItems(order: OrderResponse, plan: TracePlan): OrderItemBody[] {
  const target = order.items.find((it) => it.id === plan.itemId);
  if (!target) {
    const ids = order.items.map((it) => it.id);
    // Found only after reading the order, so not a usage error (exit 2 promises nothing was sent).
    const err = new SctError(`item ${plan.itemId} is not an item of order ${plan.orderId}`);
    err.hint = ids.length ? `its items: ${ids.join(', ')}` : 'the order has no items';
    throw err;
  }
  const current = target.trace ?? undefined;
  const count = (v: unknown) => Number(v ?? 0) || 0;
  if (!plan.replace && !current && (count(target.traced_order_count) > 0 || count(target.traced_origin_count) > 0)) {
    // Without the current lists an "add" would silently drop what is already traced.
    throw new SctError(`the service did not return item ${plan.itemId}'s current trace, so sct cannot add to it; pass --replace to set the whole list`);
  }
  const orders = current?.traced_orders ?? [];
  const origins = current?.traced_origins ?? [];
  const trace = {
    traced_orders: plan.toOrders === undefined ? orders : plan.replace ? plan.toOrders : union(orders, plan.toOrders),
    traced_origins: plan.toOrigins === undefined ? origins : plan.replace ? plan.toOrigins : union(origins, plan.toOrigins),
  };
  // Each item by its id alone, the traced one with its trace: what the service holds of the
  // others (and of the traced one's own fields) is kept, a colleague's edit since the read too,
  // as sync sends the items it does not change.
  return order.items.map((it) => (it.id === plan.itemId ? { id: it.id, trace } : { id: it.id }));
}

const TRACE_COLUMNS: Column[] = [
  ...COLUMNS.orderItem,
  // What the trace changes: kept at a narrow terminal before most of the item's own columns.
  { header: 'TRACED TO ORDERS', path: 'trace.traced_orders', priority: 4 },
  { header: 'TRACED TO ORIGINS', path: 'trace.traced_origins', priority: 4 },
];

export async function traceItem(ctx: Context, orderIdArg: string, flags: TraceFlags): Promise<void> {
  const plan = tracePlan(orderIdArg, flags);
  const client = ctx.client();
  // Which company this is, before the order is read: its read and its write are then one round
  // trip apart, and nothing a colleague adds in between is long enough to be lost.
  const companyId = plan.kind ? undefined : await myCompanyId(ctx);
  // The item list is sent whole: two traces of one order at once (a script's loop in the
  // background) would each write what it read, and the last would drop the other's trace.
  const { items, updated } = await lockedUnlessDryRun(
    ctx,
    [client.baseUrl, 'order', String(plan.orderId)],
    async () => {
      const raw = await client.get(PATHS.order(plan.orderId));
      const parsed = orderResponseSchema.safeParse(raw);
      if (!parsed.success) throw new SctError(`unexpected answer from GET ${PATHS.order(plan.orderId)}: not an order`);
      const order = parsed.data;
      const items = tracedItems(order, plan);
      const kind = plan.kind ?? kindFor(order, companyId!);
      const body = validate(ORDER_UPDATE_SCHEMAS[kind], { items }, `${kind} order`);
      return { items, updated: await client.patch<Record<string, unknown>>(PATHS.orderOfKind(kind, plan.orderId), body) };
    },
  );
  const item = (Array.isArray(updated?.items) ? (updated.items as Record<string, unknown>[]) : []).find((it) => it.id === plan.itemId);
  const t = items.find((it) => it.id === plan.itemId)!.trace!;
  ctx.io.info(
    `${ctx.io.colorErr.green('✓')} Item ${plan.itemId} of order ${plan.orderId} is traced to ${t.traced_orders!.length} order(s) and ${t.traced_origins!.length} origin(s)`,
  );
  await writeOne(ctx.io, item ?? updated, { ...ctx.output(TRACE_COLUMNS), detail: TRACE_COLUMNS });
}

/** A dry run writes nothing, so it takes no lock (and makes no directory for one). */
function lockedUnlessDryRun<T>(ctx: Context, object: readonly string[], fn: () => Promise<T>): Promise<T> {
  return ctx.dryRun ? fn() : withObjectLock(ctx.config().dir, object, fn, ctx.signal);
}

async function myCompanyId(ctx: Context): Promise<number> {
  const me = asMe(await ctx.client().get(PATHS.me));
  const companyId = me ? (me.company?.id ?? (me as { user_company?: { company_id?: number } }).user_company?.company_id) : undefined;
  if (companyId === undefined) throw new SctError('cannot tell which company you act for; pass --purchase, --sale or --batch');
  return companyId;
}
