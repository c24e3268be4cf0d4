// `sct orders sync --purchase|--sale|--batch --file orders.csv`: make the service's orders of
// one side match a file that a system of record exports every night (the columns of `orders
// import`, read by the same function). The plan and the run are src/sync/; this file says what
// an order sync reads, compares and writes.
//
// Which orders a sync manages (the API's list is per side, `order_action`, and has no kind):
// - purchase: the buying side's orders the company recorded itself (company_id is the buyer's)
//   and that are not batches (the seller is another company, or none);
// - sale: the selling side's orders the company recorded itself, not batches;
// - batch: the buying side's orders the company recorded with itself on both sides.
// Orders a counterparty recorded (a supplier's sale naming this company as buyer) are its
// supplier's to change: they are neither matched nor listed, only counted.
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import type { OrderKindName } from '../../api/enums.js';
import { ordersToSync } from './import.js';
import type { SyncOrdersFlags } from './options.js';
import { ITEM_COLUMNS, ORDER_COLUMNS } from './columns.js';
import { ITEM_METADATA_KEYS } from '../../api/schemas/fields.js';
import { checkObject, type SyncSpec } from '../../sync/plan.js';
import type { Compare } from '../../sync/normalise.js';
import type { ServiceSource } from '../../sync/read.js';
import { holdsObjects, runSync } from '../../sync/run.js';
import { parseParallel } from '../shared/flags.js';

/** The flags of `orders import`: one file format, one set of bulk options. */
/** Columns whose text the service stores in a form of its own. */
const ORDER_FIELD_COMPARE: Record<string, Compare> = {
  order_created_at: 'date',
  order_arrival_at: 'date',
  signed_off_at: 'datetime',
  border_cross_country_code: 'upper',
};
const BY_CONVERSION: Record<string, Compare> = { text: 'text', datetime: 'datetime', int: 'number', number: 'number', bool: 'text', list: 'set', idlist: 'set' };

/** What an order sync compares: every column of `orders import`, each as the service stores it. */
export function orderSyncSpec(kind: OrderKindName): SyncSpec {
  const fields: Record<string, Compare> = {};
  for (const [column, conv] of Object.entries(ORDER_COLUMNS[kind])) fields[column] = ORDER_FIELD_COMPARE[column] ?? BY_CONVERSION[conv];
  const items: Record<string, Compare> = {};
  for (const [column, [field, conv]] of Object.entries(ITEM_COLUMNS)) {
    if (field === 'line_number') continue;
    if (field === 'product') continue; // read into buyer_product and/or seller_product, which have their own entries
    items[field === 'trace' ? `trace.${column}` : field] = BY_CONVERSION[conv];
  }
  // The items column (`-o csv`'s JSON) carries each item's metadata too.
  for (const key of ITEM_METADATA_KEYS) items[`metadata.${key}`] = 'text';
  return { fields, items: { field: 'items', key: 'line_number', fields: items } };
}

type Obj = Record<string, unknown>;

/** The listing of one kind's side, and which of its orders the sync manages (see the top). */
export function orderSource(kind: OrderKindName): ServiceSource {
  const recordedBy = (o: Obj, side: 'buyer_company_id' | 'seller_company_id') => o.company_id === undefined || o.company_id === null || o.company_id === o[side];
  const bothSides = (o: Obj) => o.buyer_company_id === o.seller_company_id;
  const manages: Record<OrderKindName, (o: Obj) => boolean> = {
    purchase: (o) => recordedBy(o, 'buyer_company_id') && !bothSides(o),
    sale: (o) => recordedBy(o, 'seller_company_id') && !bothSides(o),
    batch: (o) => recordedBy(o, 'buyer_company_id') && bothSides(o),
  };
  const side = kind === 'sale' ? 'selling' : 'buying';
  return {
    path: PATHS.orders,
    query: { order_action: side },
    keyField: 'external_id',
    manages: manages[kind],
    summary: (o) => ({ external_id: o.external_id ?? null, id: o.id }),
    outside: (o) => {
      // On this side the company is the buyer (or the seller, selling): it recorded the order if it is that party.
      if (!recordedBy(o, side === 'selling' ? 'seller_company_id' : 'buyer_company_id')) {
        return `order ${String(o.id)} on the service has this external_id and was recorded by another company: not yours to sync`;
      }
      const its: OrderKindName = bothSides(o) ? 'batch' : side === 'selling' ? 'sale' : 'purchase';
      return `order ${String(o.id)} on the service has this external_id and is a ${its}, not a ${kind}: sync it with --${its}`;
    },
    othersNote: (n) => `${n} other order${n === 1 ? '' : 's'} of the ${side} side (recorded by another company, or not ${kind === 'batch' ? 'batches' : `${kind}s`}) ${n === 1 ? 'is' : 'are'} not part of this sync`,
  };
}

export async function syncOrders(ctx: Context, flags: SyncOrdersFlags): Promise<void> {
  const parallel = parseParallel(flags.parallel);
  // The same bodies `orders import` would send: one reading of the file format for both.
  let spec: SyncSpec | undefined;
  const { kind, file, concurrency, objects, invalid } = await ordersToSync(ctx, flags, (k, o) => checkObject((spec ??= orderSyncSpec(k)), o), holdsObjects(ctx, flags.dryRun));
  spec ??= orderSyncSpec(kind);
  await runSync(ctx, {
    // The kind is part of the run's identity, as for imports: the same file synced as sales is other orders.
    command: `orders-sync-${kind}`,
    file,
    noun: `${kind} orders`,
    objects,
    spec,
    source: orderSource(kind),
    createPath: PATHS.ordersOfKind(kind),
    updatePath: (id) => PATHS.orderOfKind(kind, id),
    readPath: (id) => PATHS.order(id),
    dryRun: flags.dryRun,
    concurrency,
    parallel,
    fresh: flags.fresh,
    report: flags.report,
    invalid,
    skipInvalid: flags.skipInvalid,
  });
}
