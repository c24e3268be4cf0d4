import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { PATHS } from '../api/paths.js';
import { STATISTICS_DELIMIT_BY, STATISTICS_GROUP_BY } from '../api/enums.js';
import { addListOptions } from './shared/list.js';
import { addIdempotencyKeyOption, deleteOne, parseId } from './shared/crud.js';
import { addBulkRunOptions, addTemplateOption } from './shared/bulk.js';
import { addDryRunOption } from './shared/dry-run.js';
import { appendList, collect, enumOption } from './shared/flags.js';
import { addKindOptions, addOrderFilterOptions, addPerspectiveOptions } from './orders/filters.js';
import { listOrders, orderStats, showOrder, type ListOrdersFlags, type StatsFlags } from './orders/view.js';
import { addOrderFields, type OrderFieldFlags } from './orders/fields.js';
import type { TraceFlags } from './orders/trace.js';
import type { ImportFlags } from './orders/import.js';
import { orderColumnsHelp } from './orders/columns.js';
import type { SyncOrdersFlags } from './orders/sync.js';
import { prints } from './shared/output-facts.js';
import { ORDER_FILTERS } from '../api/filters/orders.js';
import { filteredBy } from './shared/filters.js';

// Each action loads its own code (schemas, CSV reading, planning) when it runs: `orders get`
// and `orders list` load neither zod nor csv-parse.
export function register(program: Command, f: Factory): void {
  const orders = program.command('orders').description('List, create, import and trace orders');

  if (f.leaf('list')) addExamples(addListOptions(
    filteredBy(addPerspectiveOptions(prints(orders.command('list'), 'order')), ORDER_FILTERS).description('List orders you buy (--buying) or sell (--selling)'),
  ),
    ["sct orders list --buying --assessment-status failing,pending --created-from 2025-01-01", "sct orders list --selling --commodity cocoa --no-dds --all -o csv > orders.csv"]
    )
    .action(f.action<ListOrdersFlags>((ctx, opts) => listOrders(ctx, opts)));

  if (f.leaf('get')) addExamples(
    prints(orders.command('get'), 'order')
    .argument('<id>', 'order id')
    .description('Show one order and its items'),
    ['sct orders get 217', 'sct orders get 217 --json id,external_id,items'],
  ).action(f.action((ctx, _o, [id]) => showOrder(ctx, parseId(id))));

  if (f.leaf('create')) addDryRunOption(addIdempotencyKeyOption(addOrderFields(prints(orders.command('create'), 'order').description('Create a purchase order, sale order or batch'), 'create'))).action(
    f.action<OrderFieldFlags>(async (ctx, opts) => (await import('./orders/save.js')).saveOrder(ctx, opts)),
  );
  if (f.leaf('update')) addDryRunOption(addOrderFields(
    prints(orders.command('update'), 'order').argument('<id>', 'order id').description('Update an order (only the fields given)'),
    'update',
  )).action(f.action<OrderFieldFlags>(async (ctx, opts, [id]) => (await import('./orders/save.js')).saveOrder(ctx, opts, parseId(id))));

  if (f.leaf('delete')) addExamples(
    addDryRunOption(orders
    .command('delete')
    .argument('<id>', 'order id')
    .description('Delete an order (asks for confirmation unless --yes)')),
    ['sct orders delete 217', 'sct orders delete 217 --yes'],
  ).action(f.action((ctx, _o, [id]) => deleteOrder(ctx, parseId(id))));

  if (f.leaf('stats')) addExamples(
    addOrderFilterOptions(orders.command('stats').description('Count orders, grouped and by period'))
    .addOption(enumOption('--group-by <fields>', (v) => `group the counts, comma-separated or repeated (${v.join(', ')})`, STATISTICS_GROUP_BY, appendList))
    .addOption(enumOption('--delimit-by <period>', (v) => `count per period: ${v.join(', ')}`, STATISTICS_DELIMIT_BY))
    .option('--search <text>', 'free-text search (external ids and tags)')
    .option('--filter <key=value>', 'any documented query filter, passed through (repeatable)', collect),
    ['sct orders stats --buying --group-by assessment_status --delimit-by monthly --created-from 2025-01-01', 'sct orders stats --selling --group-by type'],
  ).action(f.action<StatsFlags>((ctx, opts) => orderStats(ctx, opts)));

  if (f.leaf('trace')) addExamples(
    addDryRunOption(addKindOptions(
    orders
      .command('trace')
      .argument('<order-id>', 'the order holding the item')
      .description("Trace an order item to other orders and origins (adds to the item's trace)")
      .option('--item <id>', 'the order item to trace (required)')
      .option('--to-order <ids>', 'order ids the item comes from, comma-separated or repeated', appendList)
      .option('--to-origin <ids>', 'origin ids the item comes from, comma-separated or repeated', appendList)
      .option('--replace', 'replace the traced lists given instead of adding to them (an empty value clears one)'),
    'the order is',
  ))
    .addHelpText(
      'after',
      `
The order is updated through the purchase endpoint when your company is its buyer, the sale
endpoint when it is the seller, and the batch endpoint otherwise; --purchase/--sale/--batch
choose it yourself. Every other item of the order is sent back unchanged.`,
    ),
    ['sct orders trace 217 --item 416 --to-origin 24,18', 'sct orders trace 217 --item 416 --to-order 195 --replace'],
  ).action(f.action<TraceFlags>(async (ctx, opts, [id]) => (await import('./orders/trace.js')).traceItem(ctx, id, opts)));

  if (f.leaf('import')) addExamples(
    addBulkRunOptions(
    addTemplateOption(addKindOptions(orders.command('import').description('Create orders from a CSV file (rows sharing external_id are one order)'), 'import as').option(
      '--file <file>',
      'the CSV file or .xlsx/.ods workbook (- for stdin)',
    )),
    { concurrency: true, dryRun: true },
  )
    .addHelpText(
      'after',
      `
${orderColumnsHelp()}

Every row is checked before anything is sent (exit 2 names each bad line and column). A rerun
of the same file skips the orders already created; exit 3 when some orders were rejected.`,
    ),
    ['sct orders import --purchase --file purchases.csv --dry-run', 'sct orders import --purchase --file purchases.csv --report result.csv'],
  ).action(
    f.action<ImportFlags>(async (ctx, opts) => {
      const { importOrders, writeOrderTemplate } = await import('./orders/import.js');
      if (!(await writeOrderTemplate(ctx, opts))) await importOrders(ctx, opts);
    }),
  );

  if (f.leaf('sync')) addExamples(addBulkRunOptions(
    addTemplateOption(addKindOptions(orders.command('sync').description('Make the service match a CSV file: plan creates and updates, then apply them'), 'sync as').option(
      '--file <file>',
      'the CSV file or .xlsx/.ods workbook, with the columns of orders import (- for stdin)',
    )),
    { concurrency: true, dryRun: true, reads: true },
  )
    .addHelpText(
      'after',
      `
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
    ),
      ["sct orders sync --purchase --file erp-purchases.csv --dry-run", "sct orders sync --purchase --file erp-purchases.csv --yes --report sync.csv"]
    )
    .action(
      f.action<SyncOrdersFlags>(async (ctx, opts) => {
        if (!(await (await import('./orders/import.js')).writeOrderTemplate(ctx, opts))) await (await import('./orders/sync.js')).syncOrders(ctx, opts);
      }),
    );
}

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
  await deleteOne(ctx, PATHS.order(id), what);
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
