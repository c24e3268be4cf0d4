// dds list/get/create/update/delete/wait, available-orders and trace: due diligence statements.
// Creating and updating are in dds/save.ts, waiting in dds/wait.ts, tracing in dds/trace.ts.
import type { Context } from '../context.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, DETAILS } from '../output/columns.js';
import { UsageError } from '../errors.js';
import { LIST_OPTIONS, listQuery, runList } from './shared/list.js';
import { deleteOne, parseId, showOne } from './shared/crud.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { DATE_RE, parseDate } from './shared/flags.js';
import { CREATE_OPTIONS, UPDATE_OPTIONS, WAIT_TIMEOUT_OPTION } from './dds/fields.js';
import { waitCommand } from './dds/wait.js';
import { AVAILABLE_ORDERS_OPTIONS, TRACE_OPTIONS, listAvailableOrders, traceOrders } from './dds/trace.js';
import { DDS_FILTERS } from '../api/filters/dds.js';
import { setNamedFilters } from './shared/filters.js';
import { hasOffset, instantOf, WIDEST_OFFSET_MS } from '../util/dates.js';

const LIST_STATEMENTS_OPTIONS = [{ filters: DDS_FILTERS }, ...LIST_OPTIONS] as const;

export type ListStatementsOptions = OptionsOf<typeof LIST_STATEMENTS_OPTIONS>;

const idArg = [{ name: '<id>', description: 'statement id' }];

export const register = registerOf({
  name: 'dds',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List due diligence statements',
      prints: 'statement',
      options: LIST_STATEMENTS_OPTIONS,
      help: '\nOrdering fields: id, name, type, status, dds_identifier, created_at, updated_at.',
      examples: ['sct dds list --type EUDR --status in_progress,failed', 'sct dds list --order 17 --all -o json'],
      run: (ctx, opts) => listStatements(ctx, opts),
    }),
    defineLeaf({
      name: 'get',
      summary: 'Show one statement with its attached orders and products',
      prints: 'statement',
      args: idArg,
      examples: ['sct dds get 1', 'sct dds get 1 --json status,dds_identifier'],
      run: (ctx, _o, [id]) => showOne(ctx, PATHS.statement(parseId(id)), COLUMNS.statement, DETAILS.statement).then(() => undefined),
    }),
    defineLeaf({
      name: 'create',
      summary: 'Create a statement (the creation rules of its type are checked first)',
      prints: 'statement',
      options: CREATE_OPTIONS,
      help: `
Creation rules, checked before anything is sent:
  EUDR with --dds-identifier   retrieves a statement already filed in the EU registry
  EUDR without identifier      filed by the service; needs --assessment-run-id
  PPWR                         needs --assessment-run-id and --dds-identifier; created as draft
  EUTR                         the identifier is generated; assessment runs are ignored`,
      examples: ['sct dds create --type EUDR --dds-identifier 25BE3XKQ9M4T2N --order 17,18 --wait', 'sct dds create --type EUDR --assessment-run-id 18eb63a8-fa5f-46a6-9c6d-71699ba2a3f3 --name "Cocoa Q3"'],
      run: async (ctx, opts, _args, cmd) => (await import('./dds/save.js')).createStatement(ctx, opts, cmd),
    }),
    defineLeaf({
      name: 'update',
      summary: 'Change the status or the name of a statement (nothing else can change)',
      prints: 'statement',
      args: idArg,
      options: UPDATE_OPTIONS,
      examples: ['sct dds update 31 --name "PPWR Q1 2025"', 'sct dds update 31 --status complete'],
      run: async (ctx, opts, [id]) => (await import('./dds/save.js')).updateStatement(ctx, parseId(id), opts),
    }),
    defineLeaf({
      name: 'delete',
      summary: 'Delete a statement (asks for confirmation unless --yes)',
      args: idArg,
      options: [{ flags: '--withdraw', description: 'also withdraw it from the EU registry (EUDR statements the service filed)' }, DRY_RUN_OPTION],
      examples: ['sct dds delete 23', 'sct dds delete 23 --yes'],
      run: (ctx, opts, [id]) =>
        deleteOne(
          ctx,
          PATHS.statement(parseId(id)),
          `statement ${id}`,
          `sct dds get ${parseId(id)}`,
          opts.withdraw ? { has_withdraw_request: 'true' } : undefined,
          opts.withdraw ? { ask: 'and withdraw it from the EU registry', done: 'and asked the EU registry to withdraw it' } : undefined,
        ),
    }),
    defineLeaf({
      name: 'wait',
      summary: 'Wait until a statement is complete (exit 0) or failed (exit 1, with the reason)',
      prints: 'statement',
      args: idArg,
      options: [WAIT_TIMEOUT_OPTION],
      examples: ['sct dds wait 1 --timeout 5m && sct dds get 1 -o json'],
      run: (ctx, _o, [id], cmd) => waitCommand(ctx, parseId(id), cmd),
    }),
    defineLeaf({
      name: 'available-orders',
      summary: 'List the orders you buy that can be traced to statements',
      prints: 'availableOrder',
      options: AVAILABLE_ORDERS_OPTIONS,
      help: '\nOrdering fields: id, order_created_at, type, buyer_external_id, seller_external_id.',
      examples: ['sct dds available-orders', 'sct dds available-orders --exclude-dds 1 --columns id,buyer_external_id,type'],
      run: (ctx, opts) => listAvailableOrders(ctx, opts),
    }),
    defineLeaf({
      name: 'trace',
      summary: 'Trace orders to statements (adds to the orders already attached)',
      bulk: true,
      options: TRACE_OPTIONS,
      help: `
With --dds and --order every order is traced to every statement (in requests of at most 100
ids each).

Columns of --file (CSV, header row, names case-insensitive): dds_id and order_id (whole numbers;
another column is an error naming the closest). Each row traces one order to one statement; the rows of a statement go
in requests of 100, every row is checked before the first is sent, a rerun skips the rows that
went through, and exit 3 says some rows were rejected.`,
      examples: ['sct dds trace --dds 5 --order 17,18', 'sct dds trace --file pairs.csv --report traced.csv'],
      run: (ctx, opts) => traceOrders(ctx, opts),
    }),
  ],
});

/**
 * A --created-from/--created-to value for the API's date-time filters: a date-time as given, a
 * date as the start or (for `to`) the end of that day in UTC, so a range of days is inclusive.
 */
export function dateTimeBound(value: string | undefined, flag: string, end: 'from' | 'to'): string | undefined {
  if (value === undefined) return undefined;
  if (DATE_RE.test(value)) return `${parseDate(value, flag)}T${end === 'from' ? '00:00:00' : '23:59:59.999999'}Z`;
  if (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(instantOf(value))) return value;
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
    const [gte, lte] = [query.get(`${what}_at__gte`)!, query.get(`${what}_at__lte`)!];
    // An offset-less bound beside one with an offset: empty only if it is so in every zone the service may read it in.
    const slack = from && to && hasOffset(gte) !== hasOffset(lte) ? WIDEST_OFFSET_MS : 0;
    if (from && to && instantOf(gte) > instantOf(lte) + slack) {
      throw new UsageError(`--${what}-from ${from} is after --${what}-to ${to}: the range is empty`);
    }
  }
  return query;
}

export async function listStatements(ctx: Context, opts: ListStatementsOptions): Promise<void> {
  const query = statementListQuery(opts);
  await runList(ctx, { path: PATHS.statements, query, flags: opts, columns: COLUMNS.statement, noun: 'statements' });
}
