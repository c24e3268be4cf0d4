// The order filters `orders list` and `orders stats` share: the perspective (--buying or
// --selling, which the API requires) and the named filter flags, mapped to the API's query
// parameters. Everything is checked here, before a request is made.
import { ORDER_FILTERS } from '../../api/filters/orders.js';
import { setNamedFilters } from '../shared/filters.js';
import type { OptionsOf } from '../shared/options.js';
import { UsageError } from '../../errors.js';
import { COMMODITIES } from '../../api/enums.js';
import { ORDER_KINDS, type OrderAction, type OrderKindName } from '../../api/enums.js';
import { filterEnumList, parseInteger } from '../shared/flags.js';
import { setOneOrIn } from '../shared/list.js';

/** --buying or --selling: the side orders list and stats read from (the API requires one). */
export const PERSPECTIVE_OPTIONS = [
  { flags: '--buying', description: 'orders your company buys (you are the buyer)' },
  { flags: '--selling', description: 'orders your company sells (you are the seller)' },
] as const;

export type PerspectiveFlags = OptionsOf<typeof PERSPECTIVE_OPTIONS>;

/** The perspective, then the named filters of orders list (its table), for a command that is no list of it (stats). */
export const ORDER_FILTER_OPTIONS = [...PERSPECTIVE_OPTIONS, { filters: ORDER_FILTERS, flagsOnly: true }] as const;

export type OrderFilterFlags = OptionsOf<typeof ORDER_FILTER_OPTIONS>;

/** Exactly one of --buying/--selling: the API requires order_action. */
export function orderAction(flags: PerspectiveFlags): OrderAction {
  if (flags.buying && flags.selling) throw new UsageError('choose one of --buying or --selling, not both');
  if (flags.buying) return 'buying';
  if (flags.selling) return 'selling';
  throw new UsageError('--buying or --selling is required', {}, 'orders are listed from one side: `--buying` (you are the buyer) or `--selling`');
}

/** Exactly one of --purchase/--sale/--batch. */
export function orderKind(flags: { purchase?: boolean; sale?: boolean; batch?: boolean }, required = true): OrderKindName | undefined {
  const given = ORDER_KINDS.filter((k) => flags[k]);
  if (given.length > 1) throw new UsageError(`choose one of --purchase, --sale or --batch, not ${given.map((k) => `--${k}`).join(' and ')}`);
  if (given.length === 0 && required) throw new UsageError('one of --purchase, --sale or --batch is required');
  return given[0];
}

/** --purchase, --sale or --batch: which endpoint a write goes through; `what` begins each description. */
export const kindOptions = (what: string) =>
  [
    { flags: '--purchase', description: `${what} a purchase order (your company is the buyer)` },
    { flags: '--sale', description: `${what} a sale order (your company is the seller)` },
    { flags: '--batch', description: `${what} a batch (your company records it for itself)` },
  ] as const;

/** The named filters as query parameters (order_action included). */
export function orderFilterQuery(flags: OrderFilterFlags, query = new URLSearchParams()): URLSearchParams {
  const action = orderAction(flags);
  if (flags.hasDds && flags.dds === false) throw new UsageError('choose one of --has-dds or --no-dds, not both');
  query.set('order_action', action);
  setNamedFilters(query, ORDER_FILTERS, flags);
  const valueChain = parseInteger(flags.valueChain, '--value-chain');
  if (valueChain !== undefined) query.set('value_chain', String(valueChain));
  // The commodity of the products on our own side of the order: what we buy, or what we sell.
  const side = action === 'buying' ? 'buyer_product' : 'seller_product';
  setOneOrIn(query, `items__${side}__commodity`, filterEnumList(flags.commodity, '--commodity', COMMODITIES));
  if (flags.hasDds || flags.dds === true) query.set('due_diligence_statements__isnull', 'false');
  if (flags.dds === false) query.set('due_diligence_statements__isnull', 'true');
  return query;
}
