// The order filters `orders list` and `orders stats` share: the perspective (--buying or
// --selling, which the API requires) and the named filter flags, mapped to the API's query
// parameters. Everything is checked here, before a request is made.
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { ASSESSMENT_STATUSES, COMMODITIES } from '../../api/enums.js';
import { BUYER_STATUSES, ORDER_KINDS, ORDER_TYPES, SELLER_STATUSES, type OrderAction, type OrderKindName } from '../../api/enums.js';
import { appendList, enumOption, filterEnumList, parseDate, parseIdList, parseInteger } from '../shared/flags.js';
import { setOneOrIn } from '../shared/list.js';

export interface PerspectiveFlags {
  buying?: boolean;
  selling?: boolean;
}

export interface OrderFilterFlags extends PerspectiveFlags {
  type?: string;
  buyerStatus?: string;
  sellerStatus?: string;
  assessmentStatus?: string;
  createdFrom?: string;
  createdTo?: string;
  arrivalFrom?: string;
  arrivalTo?: string;
  valueChain?: string;
  tag?: string;
  commodity?: string;
  hasDds?: boolean;
  /** false with --no-dds (commander's negation of the hidden --dds). */
  dds?: boolean;
  tracedOrigin?: string;
}

export function addPerspectiveOptions(cmd: Command): Command {
  return cmd
    .option('--buying', 'orders your company buys (you are the buyer)')
    .option('--selling', 'orders your company sells (you are the seller)');
}

export function addOrderFilterOptions(cmd: Command): Command {
  return (
    addPerspectiveOptions(cmd)
      .addOption(enumOption('--type <list>', (v) => `order type, comma-separated or repeated (${v.join(', ')})`, ORDER_TYPES, appendList))
      .addOption(enumOption('--buyer-status <list>', (v) => `buyer status, comma-separated or repeated (${v.join(', ')})`, BUYER_STATUSES, appendList))
      .addOption(enumOption('--seller-status <list>', (v) => `seller status, comma-separated or repeated (${v.join(', ')})`, SELLER_STATUSES, appendList))
      .addOption(enumOption('--assessment-status <list>', (v) => `assessment status, comma-separated or repeated (${v.join(', ')})`, ASSESSMENT_STATUSES, appendList))
      .option('--created-from <date>', 'order created on or after YYYY-MM-DD')
      .option('--created-to <date>', 'order created on or before YYYY-MM-DD')
      .option('--arrival-from <date>', 'arrival on or after YYYY-MM-DD')
      .option('--arrival-to <date>', 'arrival on or before YYYY-MM-DD')
      .option('--value-chain <id>', 'value chain id')
      .option('--tag <names>', 'tag name; comma-separated or repeated for any of several', appendList)
      .addOption(enumOption('--commodity <list>', (v) => `commodity of your side's products, comma-separated or repeated (${v.join(', ')})`, COMMODITIES, appendList))
      .option('--has-dds', 'only orders with at least one due diligence statement')
      // A hidden positive twin keeps `dds` undefined unless --no-dds is given (commander would
      // otherwise default a lone --no-dds to true).
      .addOption(new Option('--dds').hideHelp())
      .option('--no-dds', 'only orders without a due diligence statement')
      .option('--traced-origin <ids>', 'orders with an item traced to this origin (ids comma-separated or repeated: any of them)', appendList)
  );
}

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

export function addKindOptions(cmd: Command, what: string): Command {
  return cmd
    .option('--purchase', `${what} a purchase order (your company is the buyer)`)
    .option('--sale', `${what} a sale order (your company is the seller)`)
    .option('--batch', `${what} a batch (your company records it for itself)`);
}

/** The named filters as query parameters (order_action included). */
export function orderFilterQuery(flags: OrderFilterFlags, query = new URLSearchParams()): URLSearchParams {
  const action = orderAction(flags);
  if (flags.hasDds && flags.dds === false) throw new UsageError('choose one of --has-dds or --no-dds, not both');
  query.set('order_action', action);
  setOneOrIn(query, 'type', filterEnumList(flags.type, '--type', ORDER_TYPES));
  setOneOrIn(query, 'buyer_company_status', filterEnumList(flags.buyerStatus, '--buyer-status', BUYER_STATUSES));
  setOneOrIn(query, 'seller_company_status', filterEnumList(flags.sellerStatus, '--seller-status', SELLER_STATUSES));
  setOneOrIn(query, 'assessment_status', filterEnumList(flags.assessmentStatus, '--assessment-status', ASSESSMENT_STATUSES));
  const range: Array<[string | undefined, string, string]> = [
    [flags.createdFrom, '--created-from', 'order_created_at__gte'],
    [flags.createdTo, '--created-to', 'order_created_at__lte'],
    [flags.arrivalFrom, '--arrival-from', 'order_arrival_at__gte'],
    [flags.arrivalTo, '--arrival-to', 'order_arrival_at__lte'],
  ];
  for (const [value, flag, param] of range) {
    const d = parseDate(value, flag);
    if (d) query.set(param, d);
  }
  if (flags.createdFrom && flags.createdTo && flags.createdFrom > flags.createdTo) {
    throw new UsageError(`--created-from ${flags.createdFrom} is after --created-to ${flags.createdTo}`);
  }
  if (flags.arrivalFrom && flags.arrivalTo && flags.arrivalFrom > flags.arrivalTo) {
    throw new UsageError(`--arrival-from ${flags.arrivalFrom} is after --arrival-to ${flags.arrivalTo}`);
  }
  const valueChain = parseInteger(flags.valueChain, '--value-chain');
  if (valueChain !== undefined) query.set('value_chain', String(valueChain));
  if (flags.tag !== undefined) {
    const names = flags.tag.split(',').map((s) => s.trim()).filter(Boolean);
    if (names.length === 0) throw new UsageError('--tag needs a tag name');
    setOneOrIn(query, 'tags__name', names);
  }
  // The commodity of the products on our own side of the order: what we buy, or what we sell.
  const side = action === 'buying' ? 'buyer_product' : 'seller_product';
  setOneOrIn(query, `items__${side}__commodity`, filterEnumList(flags.commodity, '--commodity', COMMODITIES));
  if (flags.hasDds || flags.dds === true) query.set('due_diligence_statements__isnull', 'false');
  if (flags.dds === false) query.set('due_diligence_statements__isnull', 'true');
  if (flags.tracedOrigin !== undefined) setOneOrIn(query, 'items__traced_origins', parseIdList(flags.tracedOrigin, '--traced-origin'));
  return query;
}
