// dds list/get/create/update/delete/wait, available-orders and trace: due diligence statements.
// Creating and updating are in dds/save.ts, waiting in dds/wait.ts, tracing in dds/trace.ts.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, DETAILS } from '../output/columns.js';
import { DDS_STATUSES } from '../api/enums.js';
import { UsageError } from '../errors.js';
import {
  addListOptions,
  listQuery,
  runList,
  type ListFlags,
} from './shared/list.js';
import { addIdempotencyKeyOption, deleteOne, parseId, showOne } from './shared/crud.js';
import { addBulkRunOptions, addTemplateOption } from './shared/bulk.js';
import { addDryRunOption } from './shared/dry-run.js';
import { appendList, DATE_RE, enumOption, parseDate } from './shared/flags.js';
import { addStatementFields, type CreateFlags, type UpdateFlags } from './dds/fields.js';
import { addWaitTimeoutOption, waitCommand, type WaitFlags } from './dds/wait.js';
import { listAvailableOrders, traceOrders, type AvailableOrdersFlags, type TraceFlags } from './dds/trace.js';
import { prints } from './shared/output-facts.js';
import { DDS_FILTERS } from '../api/filters/dds.js';
import type { NamedFlags } from '../api/filters/keys.js';
import { filteredBy, setNamedFilters } from './shared/filters.js';

export interface ListStatementsOptions extends ListFlags, NamedFlags<typeof DDS_FILTERS> {}

export function register(program: Command, f: Factory): void {
  const dds = program.command('dds').description('Due diligence statements: list, create, wait for, and trace orders to them');

  // Options are added in the order help lists them.
  const list = filteredBy(prints(dds.command('list'), 'statement'), DDS_FILTERS)
    .description('List due diligence statements');
  addExamples(addListOptions(list)
    .addHelpText(
      'after',
      `
Ordering fields: id, name, type, status, dds_identifier, created_at, updated_at.`,
    ),
      ["sct dds list --type EUDR --status in_progress,failed", "sct dds list --order 17 --all -o json"]
    )
    .action(f.action<ListStatementsOptions>((ctx, opts) => listStatements(ctx, opts)));

  addExamples(
    prints(dds.command('get'), 'statement')
    .argument('<id>', 'statement id')
    .description('Show one statement with its attached orders and products'),
    ['sct dds get 1', 'sct dds get 1 --json status,dds_identifier'],
  ).action(f.action((ctx, _o, [id]) => showOne(ctx, PATHS.statement(parseId(id)), COLUMNS.statement, DETAILS.statement).then(() => undefined)));

  const create = addExamples(addDryRunOption(addWaitTimeoutOption(
    addIdempotencyKeyOption(addStatementFields(prints(dds.command('create'), 'statement').description('Create a statement (the creation rules of its type are checked first)')))
      .option('--wait', 'wait until the service has finished the statement (complete: exit 0, failed: exit 1)'),
  )).addHelpText(
    'after',
    `
Creation rules, checked before anything is sent:
  EUDR with --dds-identifier   retrieves a statement already filed in the EU registry
  EUDR without identifier      filed by the service; needs --assessment-run-id
  PPWR                         needs --assessment-run-id and --dds-identifier; created as draft
  EUTR                         the identifier is generated; assessment runs are ignored`,
  ),
    ["sct dds create --type EUDR --dds-identifier 25BE3XKQ9M4T2N --order 17,18 --wait", "sct dds create --type EUDR --assessment-run-id 18eb63a8-fa5f-46a6-9c6d-71699ba2a3f3 --name \"Cocoa Q3\""]
  );
  create.action(f.action<CreateFlags>(async (ctx, opts) => (await import('./dds/save.js')).createStatement(ctx, opts, create)));

  addExamples(
    addDryRunOption(prints(dds.command('update'), 'statement')
    .argument('<id>', 'statement id')
    .description('Change the status or the name of a statement (nothing else can change)')
    .addOption(enumOption('--status <status>', (v) => v.join(', '), DDS_STATUSES))
    .option('--name <text>', 'the statement name')),
    ['sct dds update 31 --name "PPWR Q1 2025"', 'sct dds update 31 --status complete'],
  ).action(f.action<UpdateFlags>(async (ctx, opts, [id]) => (await import('./dds/save.js')).updateStatement(ctx, parseId(id), opts)));

  addExamples(
    addDryRunOption(dds
    .command('delete')
    .argument('<id>', 'statement id')
    .description('Delete a statement (asks for confirmation unless --yes)')
    .option('--withdraw', 'also withdraw it from the EU registry (EUDR statements the service filed)')),
    ['sct dds delete 31', 'sct dds delete 31 --yes'],
  ).action(
      f.action<{ withdraw?: boolean }>((ctx, opts, [id]) =>
        deleteOne(
          ctx,
          PATHS.statement(parseId(id)),
          opts.withdraw ? `statement ${id} and withdraw it from the EU registry` : `statement ${id}`,
          opts.withdraw ? { has_withdraw_request: 'true' } : undefined,
        ),
      ),
    );

  const wait = addWaitTimeoutOption(
    prints(dds.command('wait'), 'statement')
      .argument('<id>', 'statement id')
      .description('Wait until a statement is complete (exit 0) or failed (exit 1, with the reason)'),
  );
  addExamples(wait, ['sct dds wait 1 --timeout 5m && sct dds get 1 -o json']);
  wait.action(f.action<WaitFlags>((ctx, _o, [id]) => waitCommand(ctx, parseId(id), wait)));

  addExamples(
    addListOptions(
    dds
      .command('available-orders')
      .description('List the orders you buy that can be traced to statements')
      .option('--exclude-dds <ids>', 'leave out orders already traced to these statements, comma-separated or repeated', appendList),
  )
    .addHelpText('after', '\nOrdering fields: id, order_created_at, type, buyer_external_id, seller_external_id.'),
    ['sct dds available-orders', 'sct dds available-orders --exclude-dds 1 --columns id,buyer_external_id,type'],
  ).action(f.action<AvailableOrdersFlags>((ctx, opts) => listAvailableOrders(ctx, opts)));

  addExamples(addDryRunOption(addBulkRunOptions(
    addTemplateOption(dds
      .command('trace'))
      .description('Trace orders to statements (adds to the orders already attached)')
      .option('--dds <ids>', 'statement ids, comma-separated or repeated', appendList)
      .option('--order <ids>', 'order ids traced to every statement given, comma-separated or repeated', appendList)
      .option('--file <file>', 'a CSV file or .xlsx/.ods workbook of pairs, columns dds_id and order_id (- for stdin)'),
    { concurrency: true, only: 'with --file: ' },
  ))
    .addHelpText(
      'after',
      `
With --dds and --order every order is traced to every statement (in requests of at most 100
ids each).
Columns of --file (CSV, header row, names case-insensitive): dds_id and order_id (whole numbers;
another column is an error naming the closest). Each row traces one order to one statement; the rows of a statement go
in requests of 100, every row is checked before the first is sent, a rerun skips the rows that
went through, and exit 3 says some rows were rejected.`,
    ),
      ["sct dds trace --dds 5 --order 17,18", "sct dds trace --file pairs.csv --report traced.csv"]
    )
    .action(f.action<TraceFlags>((ctx, opts) => traceOrders(ctx, opts)));
}

/**
 * A --created-from/--created-to value for the API's date-time filters: a date-time as given, a
 * date as the start or (for `to`) the end of that day in UTC, so a range of days is inclusive.
 */
export function dateTimeBound(value: string | undefined, flag: string, end: 'from' | 'to'): string | undefined {
  if (value === undefined) return undefined;
  if (DATE_RE.test(value)) return `${parseDate(value, flag)}T${end === 'from' ? '00:00:00' : '23:59:59.999999'}Z`;
  if (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))) return value;
  throw new UsageError(`invalid ${flag} "${value}": expected YYYY-MM-DD or an ISO 8601 date-time (2025-03-01T14:30:00Z)`);
}

export function statementListQuery(opts: ListStatementsOptions): URLSearchParams {
  const query = listQuery(opts);
  setNamedFilters(query, DDS_FILTERS, opts);
  const bounds: Array<[string | undefined, string, 'from' | 'to', string]> = [
    [opts.createdFrom, '--created-from', 'from', 'created_at__gte'],
    [opts.createdTo, '--created-to', 'to', 'created_at__lte'],
    [opts.updatedFrom, '--updated-from', 'from', 'updated_at__gte'],
    [opts.updatedTo, '--updated-to', 'to', 'updated_at__lte'],
  ];
  for (const [value, flag, end, param] of bounds) {
    const bound = dateTimeBound(value, flag, end);
    if (bound) query.set(param, bound);
  }
  for (const [from, to, what] of [[opts.createdFrom, opts.createdTo, 'created'], [opts.updatedFrom, opts.updatedTo, 'updated']] as const) {
    if (from && to && Date.parse(query.get(`${what}_at__gte`)!) > Date.parse(query.get(`${what}_at__lte`)!)) {
      throw new UsageError(`--${what}-from ${from} is after --${what}-to ${to}: the range is empty`);
    }
  }
  return query;
}

export async function listStatements(ctx: Context, opts: ListStatementsOptions): Promise<void> {
  const query = statementListQuery(opts);
  await runList(ctx, { path: PATHS.statements, query, flags: opts, columns: COLUMNS.statement, noun: 'statements' });
}
