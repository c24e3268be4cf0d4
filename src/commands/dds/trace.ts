// dds available-orders and dds trace: which orders can be traced to statements, and tracing
// them — every order to every statement given by flags, or one pair per row of a CSV file.
//
// pairs.csv: columns dds_id and order_id (whole numbers; header names case-insensitive), one
// pair per row; another column is an error naming the closest known one; a pair repeated in the file is an
// error. The service traces every order_id of a request to every dds_id of it, so the rows go
// out grouped by statement: one statement and at most 100 of its orders per request.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import { PATHS } from '../../api/paths.js';
import { withoutResults } from '../../api/answers.js';
import { COLUMNS } from '../../output/columns.js';
import { writeList } from '../../output/format.js';
import { ApiError, PartialFailureError, SctError, UsageError } from '../../errors.js';
import { traceOrdersResponseSchema, type TraceOrdersResponse } from '../../api/schemas/statements.js';
import { endDryRun, idCell, readCsv, RowErrors, refuseUnknownColumns } from '../../bulk/csv.js';
import type { Outcome } from '../../bulk/runner.js';
import { chunk } from '../../bulk/runner.js';
import { checkReportPath } from '../../bulk/report.js';
import { chunkRows, sendInChunks, type ChunkRow, type RowResult } from '../../bulk/chunks.js';
import { appendList, parseConcurrency, parseIdList } from '../shared/flags.js';
import { bulkRunOptions, TEMPLATE_OPTION, writeTemplateIf, type BulkRunFlags, type FileTemplate } from '../shared/bulk.js';
import { LIST_OPTIONS, listQuery, runList } from '../shared/list.js';
import { DRY_RUN_OPTION } from '../shared/dry-run.js';
import type { OptionsOf } from '../shared/options.js';
import { AVAILABLE_ORDER_FILTERS } from '../../api/filters/dds.js';

/** The service takes at most this many statement ids and order ids in one request. */
const TRACE_CHUNK = 100;

export const AVAILABLE_ORDERS_OPTIONS = [{ filters: AVAILABLE_ORDER_FILTERS }, ...LIST_OPTIONS] as const;

export type AvailableOrdersFlags = OptionsOf<typeof AVAILABLE_ORDERS_OPTIONS>;

export const TRACE_OPTIONS = [
  TEMPLATE_OPTION,
  { flags: '--dds <ids>', description: 'statement ids, comma-separated or repeated', parse: appendList },
  { flags: '--order <ids>', description: 'order ids traced to every statement given, comma-separated or repeated', parse: appendList },
  { flags: '--file <file>', description: 'a CSV file or .xlsx/.ods workbook of pairs, columns dds_id and order_id (- for stdin)' },
  ...bulkRunOptions({ concurrency: true, only: 'with --file: ' }),
  DRY_RUN_OPTION,
] as const;

export type TraceFlags = OptionsOf<typeof TRACE_OPTIONS>;

/** The columns of pairs.csv, and the example row of `--template`. */
const PAIR_TEMPLATE: FileTemplate = { columns: ['dds_id', 'order_id'], example: { dds_id: '1', order_id: '217' } };

interface TracePair {
  dds_id: number;
  order_id: number;
}

export async function listAvailableOrders(ctx: Context, opts: AvailableOrdersFlags): Promise<void> {
  const query = listQuery(opts);
  if (opts.excludeDds !== undefined) query.set('exclude_dds', parseIdList(opts.excludeDds, '--exclude-dds').join(','));
  await runList(ctx, {
    path: PATHS.statementAvailableOrders,
    query,
    flags: opts,
    columns: COLUMNS.availableOrder,
    noun: 'orders',
    unwrap: ordersOf,
  });
}

/**
 * The orders in one element of an available-orders page. The service wraps them
 * (`{"count": n, "results": [orders]}`); an element that is an order itself is taken as one.
 */
export function ordersOf(element: unknown): unknown[] {
  const inner = (element as { results?: unknown } | null)?.results;
  return Array.isArray(inner) ? inner : [element];
}

export async function traceOrders(ctx: Context, opts: TraceFlags): Promise<void> {
  if (opts.template && (opts.dds !== undefined || opts.order !== undefined)) throw new UsageError('--template prints a pairs file to start from: give it without --dds and --order');
  if (await writeTemplateIf(ctx, opts, () => PAIR_TEMPLATE, { required: false })) return;
  if (opts.file !== undefined) {
    if (opts.dds !== undefined || opts.order !== undefined) throw new UsageError('give either --file or --dds with --order, not both');
    return traceFile(ctx, opts as TraceFlags & { file: string });
  }
  // What only a file run reads is refused rather than ignored.
  const fileOnly = { report: '--report', force: '--force', concurrency: '--concurrency', fresh: '--fresh', skipInvalid: '--skip-invalid', encoding: '--encoding', delimiter: '--delimiter', decimalComma: '--decimal-comma', sheet: '--sheet' } as const;
  for (const [key, flag] of Object.entries(fileOnly) as [keyof typeof fileOnly, string][]) {
    if (opts[key] !== undefined) throw new UsageError(`${flag} goes with --file`);
  }
  if (opts.dds === undefined || opts.order === undefined) {
    throw new UsageError('--dds and --order are both required (or --file pairs.csv)', {}, 'e.g. sct dds trace --dds 5 --order 17,18');
  }
  const ddsIds = [...new Set(parseIdList(opts.dds, '--dds'))];
  const orderIds = [...new Set(parseIdList(opts.order, '--order'))];
  const client = ctx.client();
  const results: TraceOrdersResponse['results'] = [];
  let added = 0;
  const spinner = await ctx.spinner('Tracing orders…');
  const requests = chunk(ddsIds, TRACE_CHUNK).flatMap((dds) => chunk(orderIds, TRACE_CHUNK).map((orders) => ({ dds_id: dds, order_id: orders })));
  let done = 0;
  const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;
  try {
    for (const body of requests) {
      const answer = await postTrace(client, body);
      for (const result of answer.results) results.push(result);
      added += answer.summary?.total_orders_added ?? answer.results.reduce((n, r) => n + r.added_orders.length, 0);
      done++;
    }
  } catch (err) {
    // A request after others went through: what they added stays added, and is shown; the run
    // is partial (exit 3) when the service refused the rest, else the failure's own code.
    if (done === 0 || ctx.dryRun) throw err;
    spinner.stop();
    await writeList(ctx.io, results, ctx.output(COLUMNS.traceResult));
    const failed = requests[done]!;
    // Sent, and no answer says what became of it (a redirect, a timeout, a 502): it may have traced them.
    const fate = err instanceof SctError && err.delivery === 'unknown' ? 'may have gone through (no answer says whether)' : 'failed';
    const went = `${done} of ${requests.length} requests went through (${orders(added)} added); the one of ${orders(failed.order_id.length)} from ${failed.order_id[0]} to statement${failed.dds_id.length === 1 ? '' : 's'} ${failed.dds_id.join(',')} ${fate}${requests.length - done > 1 ? `, and ${requests.length - done - 1} more were not sent` : ''}`;
    if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.exitCode === 1) {
      const partial = new PartialFailureError(`${went}: ${err.message}`, err.fields);
      partial.hint = 'fix or leave out the order the service refused and run it again: an order already traced to a statement is not added twice';
      throw partial;
    }
    ctx.io.info(went);
    // Tracing an order already traced adds nothing: the same command sends the rest safely (not
    // after a redirect, which the rerun would meet again).
    if (err instanceof SctError && err.afterRedirect === undefined) {
      err.hint = [err.hint, 'to send the rest, run the same command again: an order already traced to a statement is not added twice'].filter(Boolean).join('; ');
    }
    throw err;
  } finally {
    spinner.stop();
  }
  if (ctx.dryRun) return;
  await writeList(ctx.io, results, ctx.output(COLUMNS.traceResult));
  ctx.io.info(`${ctx.io.colorErr.green('✓')} ${orders(added)} added to ${ddsIds.length} statement${ddsIds.length === 1 ? '' : 's'}`);
}

async function postTrace(client: ApiClient, body: { dds_id: number | number[]; order_id: number[] }, idempotencyKey?: string): Promise<TraceOrdersResponse> {
  // A dry run goes on to the next chunk as if this one had added nothing.
  const res = await client.request({ method: 'POST', path: PATHS.statementTraceOrders, body, idempotencyKey, dryRunAnswer: { results: [] } });
  const parsed = traceOrdersResponseSchema.safeParse(res.data);
  if (!parsed.success) throw new SctError(`unexpected answer from POST ${PATHS.statementTraceOrders}: ${withoutResults(res.status, res.data, 'results')}`);
  return parsed.data;
}

/** Every row of pairs.csv checked (exit 2 naming each bad line, or left out with --skip-invalid), as chunk rows. */
async function readPairs(ctx: Context, file: string, flags: BulkRunFlags = {}): Promise<{ rows: ChunkRow<TracePair>[]; invalid: Outcome[] }> {
  let errors: RowErrors | undefined;
  // The line of each pair seen, by statement then order: numbers, not a string per pair.
  const seen = new Map<number, Map<number, number>>();
  const rows: PairRow[] = [];
  // Each row becomes its pair as it is read: a file of a million pairs is not held twice.
  await readCsv(file, ctx.io.stdin, [...PAIR_TEMPLATE.columns], {
    ...flags,
    signal: ctx.signal,
    takeRows: (header) => {
      refuseUnknownColumns(header, PAIR_TEMPLATE.columns);
      const found = (errors = new RowErrors(header.name));
      return (row) => {
        const dds = idCell(row.values.dds_id, row.line, 'dds_id', found);
        const order = idCell(row.values.order_id, row.line, 'order_id', found);
        if (dds === undefined || order === undefined) return;
        let orders = seen.get(dds);
        if (!orders) seen.set(dds, (orders = new Map()));
        const first = orders.get(order);
        if (first !== undefined) {
          found.add(row.line, undefined, `the pair dds_id ${dds}, order_id ${order} is also on line ${first}`);
          return;
        }
        orders.set(order, row.line);
        rows.push(new PairRow(row.line, { dds_id: dds, order_id: order }));
      };
    },
  });
  const invalid = errors!.settle(ctx, flags);
  const bad = errors!.lines();
  return { rows: bad.size ? rows.filter((r) => !bad.has(r.line)) : rows, invalid };
}

/** One pair of the file; its key ("dds 5 order 17") made when asked for. */
class PairRow implements ChunkRow<TracePair> {
  constructor(
    readonly line: number,
    readonly payload: TracePair,
  ) {}

  get key(): string {
    return `dds ${this.payload.dds_id} order ${this.payload.order_id}`;
  }
}

async function traceFile(ctx: Context, opts: TraceFlags & { file: string }): Promise<void> {
  checkReportPath(opts.report, opts.force, opts.file);
  const concurrency = parseConcurrency(opts.concurrency);
  const { rows, invalid } = await readPairs(ctx, opts.file, opts);
  if (ctx.dryRun) {
    // The requests a first run of the file sends; no journal, lock or report.
    const client = ctx.client();
    for (const part of chunkRows(rows, TRACE_CHUNK, (p) => p.dds_id)) await postTrace(client, traceBody(part.map((r) => r.payload)));
    return endDryRun(opts.file, invalid);
  }
  await sendInChunks(ctx, {
    command: 'dds-trace',
    file: opts.file,
    rows,
    invalid,
    size: TRACE_CHUNK,
    group: (p) => p.dds_id,
    noun: 'pairs',
    verb: 'traced',
    concurrency,
    fresh: opts.fresh,
    report: opts.report,
    send: (pairs, keyFor, client) => sendPairs(pairs, keyFor, client),
  });
}

/** One statement's pairs as one request. */
const traceBody = (pairs: TracePair[]) => ({ dds_id: pairs[0].dds_id, order_id: pairs.map((p) => p.order_id) });

/**
 * One statement's pairs. The service refuses the whole request when one order is not one the
 * company buys, naming it (DRF: `Invalid pk "99" - object does not exist.`): those rows fail
 * with that message and the others are sent again without them, so one bad row does not fail
 * a hundred good ones.
 */
async function sendPairs(pairs: TracePair[], keyFor: (p: TracePair[]) => string, client: ApiClient): Promise<RowResult[]> {
  try {
    const answer = await postTrace(client, traceBody(pairs), keyFor(pairs));
    // The answer reports per statement: one that says nothing of this one (no results, another
    // statement's) is no sign its orders were traced, nor that they were not.
    const dds = pairs[0]!.dds_id;
    if (!answer.results.some((r) => r.dds_id === dds)) {
      return pairs.map(() => ({ ok: false, unknown: true, error: `the answer holds no result for statement ${dds}: it may have traced these orders` }));
    }
    return pairs.map(() => ({ ok: true }));
  } catch (err) {
    const rejected = rejectedOrders(err);
    if (!rejected || ![...rejected.keys()].some((o) => pairs.some((p) => p.order_id === o))) throw err;
    const rest = pairs.filter((p) => !rejected.has(p.order_id));
    const restResults = rest.length ? await sendPairs(rest, keyFor, client) : [];
    return pairs.map((p) => {
      const message = rejected.get(p.order_id);
      return message !== undefined ? { ok: false, error: `order_id: ${message}` } : restResults[rest.indexOf(p)];
    });
  }
}

/** The order ids a 400 names as invalid, each with its message; undefined when it names none. */
function rejectedOrders(err: unknown): Map<number, string> | undefined {
  if (!(err instanceof ApiError) || err.status !== 400) return undefined;
  const found = new Map<number, string>();
  for (const [field, messages] of Object.entries(err.fields)) {
    if (field.startsWith('dds_id')) return undefined;
    if (!field.startsWith('order_id')) continue;
    for (const m of messages) {
      const id = /Invalid pk "(\d+)"/.exec(m)?.[1];
      if (id !== undefined) found.set(Number(id), m);
    }
  }
  return found.size ? found : undefined;
}
