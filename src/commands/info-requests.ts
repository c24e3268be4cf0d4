// `sct info-requests send --file requests.csv`: the legacy bulk information requests to
// suppliers, 100 rows per call, each row reported with the service's own verdict.
//
// requests.csv: columns order_id and/or value_chain_id (whole numbers; header names
// case-insensitive); each row names an order, a value chain or both; another column is an
// error naming the closest known one; the same row twice is an error (the service would reject the second).
import type { Context } from '../context.js';
import { cleanCell } from '../util/sanitize.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import type { ApiClient } from '../api/client.js';
import { PATHS } from '../api/paths.js';
import { withoutResults } from '../api/answers.js';
import { SctError, UsageError } from '../errors.js';
import { informationRequestsResponseSchema, type InformationRequest } from '../api/schemas/statements.js';
import { endDryRun, idCell, readCsv, RowErrors, refuseUnknownColumns } from '../bulk/csv.js';
import type { Outcome } from '../bulk/runner.js';
import { checkReportPath } from '../bulk/report.js';
import { parseConcurrency } from './shared/flags.js';
import { bulkRunOptions, fileOptions, writeTemplateIf, type BulkRunFlags, type FileTemplate } from './shared/bulk.js';
import { chunkRows, sendInChunks, type ChunkRow, type RowResult } from '../bulk/chunks.js';

/** The legacy call takes 1..100 elements. */
export const INFO_REQUEST_CHUNK = 100;
const COLUMNS = ['order_id', 'value_chain_id'] as const;
const TEMPLATE: FileTemplate = { columns: COLUMNS, example: { order_id: '217', value_chain_id: '1' } };

const SEND_OPTIONS = [
  ...fileOptions('the CSV file or .xlsx/.ods workbook: columns order_id and/or value_chain_id (- for stdin)'),
  ...bulkRunOptions({ concurrency: true }),
  DRY_RUN_OPTION,
] as const;

export type SendFlags = OptionsOf<typeof SEND_OPTIONS>;

export const register = registerOf({
  name: 'info-requests',
  leaves: [
    defineLeaf({
      name: 'send',
      summary: 'Send information requests from a CSV file (legacy bulk call, 100 per request)',
      bulk: true,
      prints: 'bulkOutcome',
      options: SEND_OPTIONS,
      help: `
Columns (header row, any order, names case-insensitive): order_id (an order you buy) and/or
value_chain_id (one of your value chains); each row names one or both.
Every row is checked before the first request; the service answers per row, and exit 3 says
some rows were rejected. A rerun of the same file sends only the rows not yet accepted.`,
      examples: ['sct info-requests send --file requests.csv --dry-run', 'sct info-requests send --file requests.csv --report sent.csv'],
      run: async (ctx, opts) => {
        if (!(await writeTemplateIf(ctx, opts, () => TEMPLATE))) await sendInformationRequests(ctx, opts as SendFlags & { file: string });
      },
    }),
  ],
});

/** Every row checked (exit 2 naming each bad line), as chunk rows. */
export async function readRequests(ctx: Context, file: string, flags: BulkRunFlags = {}): Promise<{ rows: ChunkRow<InformationRequest>[]; invalid: Outcome[] }> {
  let errors: RowErrors | undefined;
  const seen = new Map<string, number>();
  const rows: ChunkRow<InformationRequest>[] = [];
  // Each row becomes its request as it is read: a file of a million rows is not held twice.
  await readCsv(file, ctx.io.stdin, [], {
    ...flags,
    signal: ctx.signal,
    known: COLUMNS,
    takeRows: (header) => {
      if (!COLUMNS.some((c) => header.columns.includes(c))) {
        throw new UsageError(`${header.name}: needs a column order_id or value_chain_id (found: ${header.columns.join(', ') || 'none'})`);
      }
      refuseUnknownColumns(header, COLUMNS);
      const found = (errors = new RowErrors(header.name));
      return (row) => {
        const given = COLUMNS.filter((c) => row.values[c]?.trim());
        if (given.length === 0) {
          found.add(row.line, undefined, 'needs an order_id or a value_chain_id');
          return;
        }
        const request: InformationRequest = {};
        for (const c of given) {
          const id = idCell(row.values[c], row.line, c, found);
          if (id !== undefined) request[c] = id;
        }
        if (Object.keys(request).length !== given.length) return;
        const key = [request.order_id !== undefined && `order ${request.order_id}`, request.value_chain_id !== undefined && `value chain ${request.value_chain_id}`]
          .filter(Boolean)
          .join(' ');
        const first = seen.get(key);
        if (first !== undefined) {
          found.add(row.line, undefined, `the same request (${key}) is also on line ${first}`);
          return;
        }
        seen.set(key, row.line);
        rows.push({ key, line: row.line, payload: request });
      };
    },
  });
  const invalid = errors!.settle(ctx, flags);
  const bad = errors!.lines();
  return { rows: bad.size ? rows.filter((r) => !bad.has(r.line)) : rows, invalid };
}

export async function sendInformationRequests(ctx: Context, opts: SendFlags & { file: string }): Promise<void> {
  checkReportPath(opts.report, opts.force, opts.file);
  const concurrency = parseConcurrency(opts.concurrency);
  const { rows, invalid } = await readRequests(ctx, opts.file, opts);
  if (ctx.dryRun) {
    // The requests a first run of the file sends; no journal, lock or report.
    const client = ctx.client();
    for (const part of chunkRows(rows, INFO_REQUEST_CHUNK)) await sendChunk(client, part.map((r) => r.payload));
    return endDryRun(opts.file, invalid);
  }
  const actions = new Map<string, number>();
  try {
    await sendInChunks(ctx, {
      command: 'info-requests-send',
      file: opts.file,
      rows,
      invalid,
      size: INFO_REQUEST_CHUNK,
      noun: 'information requests',
      verb: 'sent',
      concurrency,
      fresh: opts.fresh,
      report: opts.report,
      send: async (requests, keyFor, client) => {
        const results = await sendChunk(client, requests, keyFor(requests));
        for (const r of results) if (r.ok && r.id !== undefined) actions.set(String(r.id), (actions.get(String(r.id)) ?? 0) + 1);
        return results;
      },
    });
  } finally {
    // The actions are the service's words.
    if (actions.size) ctx.io.info(`what was sent: ${[...actions].map(([action, n]) => `${n} ${cleanCell(action)}`).join(', ')}`);
  }
}

/**
 * One call. The service answers which elements it processed and which failed, by index; an
 * accepted row's id in the report is what the service did (invitation_sent, reminder_sent,
 * request_sent), as there is no object id to show.
 */
async function sendChunk(client: ApiClient, requests: InformationRequest[], idempotencyKey?: string): Promise<RowResult[]> {
  // A dry run goes on to the next chunk as if this one had been answered with nothing done.
  const res = await client.request({
    method: 'POST',
    path: PATHS.informationRequestsBulk,
    body: { information_requests: requests },
    idempotencyKey,
    dryRunAnswer: { results: { processed: [], failed: [] } },
  });
  const parsed = informationRequestsResponseSchema.safeParse(res.data);
  if (!parsed.success) throw new SctError(`unexpected answer from POST ${PATHS.informationRequestsBulk}: ${withoutResults(res.status, res.data, 'per-row results')}`);
  const results: RowResult[] = requests.map(() => ({ ok: false, unknown: true, error: 'the service did not report on this row: it may have acted on it' }));
  // A result is this row's when the order and value chain it names (where it names them) are
  // the row's: one that names another's (indexes the service mixed up) leaves the row unknown,
  // as one said both processed and failed does, never another row's outcome recorded.
  // (A row that names only its order gets the order's value chain from the service, and the reverse.)
  const differs = (given: number | null | undefined, named: unknown) => typeof given === 'number' && typeof named === 'number' && named !== given;
  const other = (i: number, order: unknown, chain: unknown) => differs(requests[i]!.order_id, order) || differs(requests[i]!.value_chain_id, chain);
  const mixedUp = (i: number, order: unknown, chain: unknown): RowResult => ({
    ok: false,
    unknown: true,
    error: `the result for this row names order ${String(order)}, value chain ${String(chain)}: it may have acted on it`,
  });
  const processed = new Set<number>();
  for (const p of parsed.data.results.processed) {
    if (!results[p.index]) continue;
    processed.add(p.index);
    results[p.index] = other(p.index, p.order_id, p.value_chain_id) ? mixedUp(p.index, p.order_id, p.value_chain_id) : { ok: true, id: p.invitation_action ?? undefined };
  }
  for (const f of parsed.data.results.failed) {
    if (!results[f.index]) continue;
    const data = (f.data && typeof f.data === 'object' ? f.data : {}) as { order_id?: unknown; value_chain_id?: unknown };
    if (processed.has(f.index)) {
      results[f.index] = { ok: false, unknown: true, error: 'the answer says this row was both processed and failed: it may have acted on it' };
    } else if (other(f.index, data.order_id, data.value_chain_id)) {
      results[f.index] = mixedUp(f.index, data.order_id, data.value_chain_id);
    } else results[f.index] = { ok: false, error: typeof f.error === 'string' ? f.error : JSON.stringify(f.error) };
  }
  return results;
}
