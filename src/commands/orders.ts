import type { Context } from '../context.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import { PATHS } from '../api/paths.js';
import { deleteOne, parseId } from './shared/crud.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { listOrders, orderStats, showOrder } from './orders/view.js';
import { CREATE_ORDER_OPTIONS, ITEMS_HELP, ORDER_EXAMPLES, UPDATE_ORDER_OPTIONS } from './orders/fields.js';
import { IMPORT_OPTIONS, LIST_ORDERS_OPTIONS, STATS_OPTIONS, SYNC_OPTIONS, TRACE_OPTIONS } from './orders/options.js';
import { orderColumnsHelp } from './orders/columns.js';

const idArg = [{ name: '<id>', description: 'order id' }];

// Each run loads its own code (schemas, CSV reading, planning) when it runs: `orders get`
// and `orders list` load neither zod nor csv-parse.
export const register = registerOf({
  name: 'orders',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List orders you buy (--buying) or sell (--selling)',
      prints: 'order',
      options: LIST_ORDERS_OPTIONS,
      examples: ['sct orders list --buying --assessment-status failing,pending --created-from 2025-01-01', 'sct orders list --selling --commodity cocoa --no-dds --all -o csv > orders.csv'],
      run: (ctx, opts) => listOrders(ctx, opts),
    }),
    defineLeaf({
      name: 'get',
      summary: 'Show one order and its items',
      prints: 'order',
      args: idArg,
      examples: ['sct orders get 217', 'sct orders get 217 --json id,external_id,items'],
      run: (ctx, _o, [id]) => showOrder(ctx, parseId(id)),
    }),
    defineLeaf({
      name: 'create',
      summary: 'Create a purchase order, sale order or batch',
      prints: 'order',
      options: CREATE_ORDER_OPTIONS,
      help: ITEMS_HELP,
      examples: ORDER_EXAMPLES.create,
      run: async (ctx, opts) => (await import('./orders/save.js')).saveOrder(ctx, opts),
    }),
    defineLeaf({
      name: 'update',
      summary: 'Update an order (only the fields given)',
      prints: 'order',
      args: idArg,
      options: UPDATE_ORDER_OPTIONS,
      help: ITEMS_HELP,
      examples: ORDER_EXAMPLES.update,
      run: async (ctx, opts, [id]) => (await import('./orders/save.js')).saveOrder(ctx, opts, parseId(id)),
    }),
    defineLeaf({
      name: 'delete',
      summary: 'Delete an order (asks for confirmation unless --yes)',
      args: idArg,
      options: [DRY_RUN_OPTION],
      examples: ['sct orders delete 229', 'sct orders delete 229 --yes'],
      run: (ctx, _o, [id]) => deleteOrder(ctx, parseId(id)),
    }),
    defineLeaf({
      name: 'stats',
      summary: 'Count orders, grouped and by period',
      prints: 'orderStatistics',
      options: STATS_OPTIONS,
      examples: ['sct orders stats --buying --group-by assessment_status --delimit-by monthly --created-from 2025-01-01', 'sct orders stats --selling --group-by type'],
      run: (ctx, opts) => orderStats(ctx, opts),
    }),
    defineLeaf({
      name: 'trace',
      summary: "Trace an order item to other orders and origins (adds to the item's trace)",
      prints: 'orderItem',
      args: [{ name: '<order-id>', description: 'the order holding the item' }],
      options: TRACE_OPTIONS,
      help: `
The order is updated through the purchase endpoint when your company is its buyer, the sale
endpoint when it is the seller, and the batch endpoint otherwise; --purchase/--sale/--batch
choose it yourself. Every other item of the order is sent back unchanged.`,
      examples: ['sct orders trace 217 --item 416 --to-origin 24,18', 'sct orders trace 217 --item 416 --to-order 195 --replace'],
      run: async (ctx, opts, [id]) => (await import('./orders/trace.js')).traceItem(ctx, id, opts),
    }),
    defineLeaf({
      name: 'import',
      summary: 'Create orders from a CSV file (rows sharing external_id are one order)',
      bulk: true,
      prints: 'bulkOutcome',
      options: IMPORT_OPTIONS,
      help: () => `
${orderColumnsHelp()}

Every row is checked before anything is sent (exit 2 names each bad line and column). A rerun
of the same file skips the orders already created; exit 3 when some orders were rejected.`,
      examples: ['sct orders import --purchase --file purchases.csv --dry-run', 'sct orders import --purchase --file purchases.csv --report purchases-result.csv'],
      run: async (ctx, opts) => {
        const { importOrders, writeOrderTemplate } = await import('./orders/import.js');
        if (!(await writeOrderTemplate(ctx, opts))) await importOrders(ctx, opts);
      },
    }),
    defineLeaf({
      name: 'sync',
      summary: 'Make the service match a CSV file: plan creates and updates, then apply them',
      options: SYNC_OPTIONS,
      help: () => `
Reads your orders of that side from the service (as few requests as the server allows), matches
them with the file's by external_id and plans: create (not on the service), update (only the
fields that differ; items matched by line_number), unchanged, and only on the service (listed,
never deleted). An empty cell is no value: never compared, never sent; a row that updates needs
only external_id and the fields that change (type and order_created_at only to create). The plan
is shown with its cost in requests, then applied after a confirmation (--yes without a terminal;
--dry-run only plans). A second sync of the same file sends nothing; an interrupted one is
finished by running it again (--fresh only gives the creates new Idempotency-Keys: the plan
always comes from the service).

${orderColumnsHelp()}`,
      examples: ['sct orders sync --purchase --file erp-purchases.csv --dry-run', 'sct orders sync --purchase --file erp-purchases.csv --yes --report sync.csv'],
      run: async (ctx, opts) => {
        if (!(await (await import('./orders/import.js')).writeOrderTemplate(ctx, opts))) await (await import('./orders/sync.js')).syncOrders(ctx, opts);
      },
    }),
  ],
});

/**
 * `orders delete ID`: the question names the order as people know it, "Delete purchase order 17
 * (PO-2025-0017)?", from one GET first. Only when someone is asked: --yes sends the DELETE alone,
 * and the refusal without a terminal sends nothing.
 */
export async function deleteOrder(ctx: Context, id: number): Promise<void> {
  let what = `order ${id}`;
  if (!ctx.flags.yes && ctx.io.canPrompt()) {
    what = describeOrder(await ctx.client().get<Record<string, unknown> | null>(PATHS.order(id)), id);
  }
  await deleteOne(ctx, PATHS.order(id), what, `sct orders get ${id}`);
}

/** "purchase order 17 (PO-2025-0017)": the kind as the recording company sees it, and its external id. */
export function describeOrder(order: Record<string, unknown> | null, id: number): string {
  const company = order?.company_id;
  const buyer = company != null && order?.buyer_company_id === company;
  const seller = company != null && order?.seller_company_id === company;
  const kind = company == null ? 'order' : buyer && !seller ? 'purchase order' : seller && !buyer ? 'sale order' : 'batch';
  const external = typeof order?.external_id === 'string' && order.external_id !== '' ? ` (${order.external_id})` : '';
  return `${kind} ${id}${external}`;
}
