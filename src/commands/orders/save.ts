// Creating and updating orders of one kind (purchase, sale, batch) from flags, --item specs,
// --set and --file; the body is validated with the kind's schema before it is sent.
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { CancelledError, SctError, UsageError } from '../../errors.js';
import { cleanCell } from '../../util/sanitize.js';
import { addsItems, ORDER_CREATE_SCHEMAS, ORDER_UPDATE_SCHEMAS, type OrderItemBody } from '../../api/schemas/orders.js';
import { type OrderKindName } from '../../api/enums.js';
import { buildBody, canonicalEnums, refuseSetBesideFlags, promptMissing, notAskedReason, validate } from '../shared/body.js';
import { idempotencyKeyOf, withRerunKey, withUnknownOutcome } from '../shared/crud.js';
import { savedObject } from '../../api/answers.js';
import { parseDate, parseInteger } from '../shared/flags.js';
import { ID_MAX } from '../../util/numbers.js';
import { nonObjectIn } from '../../util/objects.js';
import { orderKind } from './filters.js';
import { writeOrder } from './view.js';
import type { OrderFieldFlags } from './fields.js';


/** Flags that name a field the kind's body does not have (the other side sets it). */
const NOT_FOR: Record<OrderKindName, Array<[keyof OrderFieldFlags, string, string]>> = {
  purchase: [
    ['companyId', '--company-id', 'only a batch names its company'],
    ['buyerCompanyId', '--buyer-company-id', 'on a purchase order you are the buyer'],
    ['sellerStatus', '--seller-status', 'the seller sets it'],
  ],
  sale: [
    ['companyId', '--company-id', 'only a batch names its company'],
    ['sellerCompanyId', '--seller-company-id', 'on a sale order you are the seller'],
    ['buyerStatus', '--buyer-status', 'the buyer sets it'],
  ],
  batch: [['sendInformationRequest', '--send-information-request', 'a batch has no counterpart to ask']],
};

const ITEM_KEYS = ['product', 'buyer-product', 'seller-product', 'volume', 'unit', 'line', 'external-id', 'id'] as const;
type ItemKey = (typeof ITEM_KEYS)[number];
const ITEM_ALIASES: Record<string, ItemKey> = { 'line-number': 'line', 'buyer-product-id': 'buyer-product', 'seller-product-id': 'seller-product', 'product-id': 'product' };

/**
 * One --item spec as a nested item body. `product` is the product on your own side: the
 * buyer's on a purchase, the seller's on a sale, and both on a batch (a company records a
 * batch for itself, so it is on both sides).
 */
export function parseItem(spec: string, kind: OrderKindName): OrderItemBody {
  const bad = (why: string) => new UsageError(`invalid --item "${spec}": ${why}`, {}, `an item looks like product=12,volume=2500,unit=kg (keys: ${ITEM_KEYS.join(', ')})`);
  const seen = new Map<ItemKey, string>();
  for (const part of spec.split(',')) {
    if (!part.trim()) continue;
    const i = part.indexOf('=');
    if (i <= 0) throw bad(`"${part.trim()}" is not KEY=VALUE`);
    const raw = part.slice(0, i).trim().toLowerCase().replace(/_/g, '-');
    const key = (ITEM_ALIASES[raw] ?? raw) as ItemKey;
    if (!(ITEM_KEYS as readonly string[]).includes(key)) throw bad(`unknown key "${part.slice(0, i).trim()}"`);
    if (seen.has(key)) throw bad(`${key} is given twice`);
    const value = part.slice(i + 1).trim();
    if (!value) throw bad(`${key} needs a value`);
    seen.set(key, value);
  }
  if (seen.size === 0) throw bad('no fields');
  const int = (key: ItemKey, min = 0) => {
    const v = seen.get(key)!;
    if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > ID_MAX) throw bad(`${key} "${v}" is not a whole number ${min}..${ID_MAX}`);
    return Number(v);
  };
  const item: OrderItemBody = {};
  if (seen.has('id')) item.id = int('id');
  if (seen.has('product')) {
    const own = kind === 'purchase' ? ['buyer-product'] : kind === 'sale' ? ['seller-product'] : ['buyer-product', 'seller-product'];
    const clash = own.find((k) => seen.has(k as ItemKey));
    if (clash) throw bad(`product and ${clash} name the same product: give one of them`);
    const pid = int('product');
    if (kind !== 'sale') item.buyer_product = pid;
    if (kind !== 'purchase') item.seller_product = pid;
  }
  if (seen.has('buyer-product')) item.buyer_product = int('buyer-product');
  if (seen.has('seller-product')) item.seller_product = int('seller-product');
  if (seen.has('volume')) {
    const v = seen.get('volume')!;
    const n = Number(v);
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) || !Number.isFinite(n)) throw bad(`volume "${v}" is not a number`);
    item.volume = n;
  }
  if (seen.has('unit')) item.unit = seen.get('unit');
  if (seen.has('line')) item.line_number = int('line');
  if (seen.has('external-id')) item.external_id = seen.get('external-id');
  return item;
}

/** The named flags as body fields; kind-specific ones are refused for the other kinds. */
export function namedFields(opts: OrderFieldFlags, kind: OrderKindName): Record<string, unknown> {
  for (const [key, flag, why] of NOT_FOR[kind]) {
    if (opts[key] !== undefined) throw new UsageError(`${flag} does not apply to a ${kind} order: ${why}`);
  }
  const int = (v: string | undefined, flag: string) => parseInteger(v, flag);
  return {
    external_id: opts.externalId,
    type: opts.type,
    order_created_at: parseDate(opts.orderCreatedAt, '--order-created-at'),
    order_arrival_at: parseDate(opts.orderArrivalAt, '--order-arrival-at'),
    buyer_external_id: opts.buyerExternalId,
    seller_external_id: opts.sellerExternalId,
    buyer_company_status: opts.buyerStatus,
    seller_company_status: opts.sellerStatus,
    assessment_status: opts.assessmentStatus,
    value_chain: int(opts.valueChain, '--value-chain'),
    buyer_company_id: int(opts.buyerCompanyId, '--buyer-company-id'),
    seller_company_id: int(opts.sellerCompanyId, '--seller-company-id'),
    company_id: int(opts.companyId, '--company-id'),
    border_cross_country_code: opts.borderCrossCountryCode,
    signed_off_at: opts.signedOffAt,
    tags: opts.tag,
    send_information_request: opts.sendInformationRequest,
    items: opts.item?.map((spec) => parseItem(spec, kind)),
  };
}

export async function saveOrder(ctx: Context, opts: OrderFieldFlags, id?: number): Promise<void> {
  const idempotencyKey = id === undefined ? idempotencyKeyOf(opts) : undefined;
  const kind = orderKind(opts, !(id === undefined && ctx.io.canPrompt())) ?? (await askKind(ctx));
  const schema = id === undefined ? ORDER_CREATE_SCHEMAS[kind] : ORDER_UPDATE_SCHEMAS[kind];
  const named = namedFields(opts, kind);
  refuseSetBesideFlags(opts.set, named);
  const body = await buildBody(opts, canonicalEnums(schema, named), ctx.io.stdin, ctx.signal);
  if (id !== undefined && Object.keys(body).length === 0) {
    throw new UsageError('nothing to update: give at least one field flag, --item, --set or --file');
  }
  if (id === undefined) await promptMissing(ctx, schema, body);
  // The API requires a batch's tags: none given (and none asked, without a terminal) is none, as
  // `orders import` sends it.
  if (id === undefined && kind === 'batch' && body.tags === undefined) body.tags = [];
  const valid = validate(schema, body, `${kind} order`, { notAsked: notAskedReason(ctx) });
  if (id !== undefined && Array.isArray(valid.items)) await confirmDroppedItems(ctx, kind, id, valid.items as Item[]);
  const send = ctx.client().request<Record<string, unknown> | null>({
    method: id === undefined ? 'POST' : 'PATCH',
    path: id === undefined ? PATHS.ordersOfKind(kind) : PATHS.orderOfKind(kind, id),
    body: valid,
    // A create answered without the order made (no id) is an error, never "Created".
    expect: id === undefined ? 'created' : undefined,
    idempotencyKey,
    onceOnly: id !== undefined && addsItems(valid),
  });
  const res = await (id === undefined ? withRerunKey(send, undefined, idempotencyKey) : withUnknownOutcome(send, 'updated', `sct orders get ${id}`));
  const [method, path] = id === undefined ? ['POST', PATHS.ordersOfKind(kind)] : ['PATCH', PATHS.orderOfKind(kind, id)];
  const saved = savedObject(res, method, path, `${kind} order`) ?? {};
  ctx.io.info(`${ctx.io.colorErr.green('✓')} ${id === undefined ? 'Created' : 'Updated'} ${kind} order ${cleanCell(String(saved.id ?? id ?? ''))}`.trimEnd());
  await writeOrder(ctx, saved, `${method} ${path}`, true);
}

type Item = Record<string, unknown>;

/** The items of an order as read, each an object: a null among them is the service's fault, said as such. */
function itemsOf(order: unknown, id: number): Item[] {
  const items = order && typeof order === 'object' ? (order as { items?: unknown }).items : undefined;
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw new SctError(`unexpected answer from GET ${PATHS.order(id)}: its items are not a list`);
  const odd = nonObjectIn(items, 'item');
  if (odd) throw new SctError(`unexpected answer from GET ${PATHS.order(id)}: ${odd}`);
  return items as Item[];
}

/**
 * The service replaces an order's item list with the one a PATCH sends, so an item the new list
 * does not name by id is deleted. Those items are named and confirmed first (--yes in scripts).
 */
async function confirmDroppedItems(ctx: Context, kind: OrderKindName, id: number, items: Item[]): Promise<void> {
  const kept = new Set<unknown>(items.map((it) => it.id).filter((x) => x !== undefined));
  const order = await ctx.client().get(PATHS.order(id));
  const dropped = itemsOf(order, id).filter((it) => !kept.has(it.id));
  if (dropped.length === 0) return;
  // A few named, then a count: a question of forty items redraws forty lines at each keystroke.
  const SHOWN = 5;
  const which = [...dropped.slice(0, SHOWN).map(describeItem), ...(dropped.length > SHOWN ? [`and ${dropped.length - SHOWN} more`] : [])].join('; ');
  const question = `Update ${kind} order ${id} and delete ${dropped.length === 1 ? 'the item' : `the ${dropped.length} items`} the new list leaves out (${which})?`;
  // A dry run asks nothing, but says what the PATCH it prints would delete, and that the real
  // run asks (or needs --yes).
  if (ctx.dryRun) {
    ctx.io.warn(`the update would delete ${dropped.length === 1 ? 'the item' : `the ${dropped.length} items`} the new list leaves out (${which}); the real run asks first (--yes in scripts)`);
    return;
  }
  if (!(await ctx.confirm(question))) throw new CancelledError(`cancelled: order ${id} was not updated (to keep an item, name it: --item id=N)`);
  // The question may have waited minutes: an item a colleague added meanwhile would be deleted
  // too, never named. Read again, as sync reads before it writes what was decided earlier
  // (--yes asked nobody, and waited for nothing).
  if (ctx.flags.yes) return;
  const named = new Set(dropped.map((it) => it.id));
  const now = await ctx.client().get(PATHS.order(id));
  const unnamed = itemsOf(now, id).filter((it) => !kept.has(it.id) && !named.has(it.id));
  if (unnamed.length > 0) {
    const err = new SctError(
      `order ${id} changed while the question waited: ${unnamed.slice(0, SHOWN).map(describeItem).join('; ')}${unnamed.length > SHOWN ? `; and ${unnamed.length - SHOWN} more` : ''} would be deleted too; nothing was sent`,
    );
    err.hint = 'run the command again to be asked about the order as it is now';
    throw err;
  }
}

/** "item 416 (line 1, product 12, 100 kg)": what a person can recognise an item by. */
function describeItem(it: Item): string {
  // One line each: a line break in an external_id would draw what looks like another line of sct's.
  const text = (v: unknown) => cleanCell(String(v));
  const product = it.buyer_product ?? it.seller_product;
  const parts = [
    it.line_number != null && `line ${text(it.line_number)}`,
    it.external_id != null && `external_id ${text(it.external_id)}`,
    product != null && `product ${text(typeof product === 'object' ? ((product as Item).name ?? (product as Item).id) : product)}`,
    it.volume != null && `${text(it.volume)}${it.unit != null ? ` ${text(it.unit)}` : ''}`,
  ].filter(Boolean);
  return `item ${text(it.id)}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** `orders create` at a terminal without --purchase, --sale or --batch: which kind to create. */
async function askKind(ctx: Context): Promise<OrderKindName> {
  return ctx.prompter.select<OrderKindName>('Create which kind of order?', [
    { name: 'purchase (your company is the buyer)', value: 'purchase' },
    { name: 'sale (your company is the seller)', value: 'sale' },
    { name: 'batch (your company records it for itself)', value: 'batch' },
  ]);
}
