// Bulk endpoints that take many rows in one request and answer per row (trace-orders, the
// legacy information requests): the rows of a file go out in chunks of N with bounded
// concurrency, and each row gets its own outcome in the usual report.
//
// Rerun safety, as for imports: after each chunk's answer every row is written to the journal
// (accepted rows as done, rejected ones as failed), so a rerun sends only the rows not yet
// accepted. A chunk's Idempotency-Key is derived from its rows' content and the journal's
// generation: a rerun after a crash between the answer and the journal lines rebuilds the same
// chunk, sends the same key, and the service replays its answer instead of acting twice.
import type { Context } from '../context.js';
import type { ApiClient } from '../api/client.js';
import type { FieldErrors } from '../errors.js';
import { Journal } from './journal.js';
import { chunk, runUnits, type Outcome, type RunResult, type Unit } from './runner.js';
import { finishBulk } from './report.js';
import { idempotencyKey } from './idempotency.js';
import { warnIfBudgetShort } from './import.js';

export interface ChunkRow<T> {
  /** Stable identity across reruns and in the report ("dds 5 order 17"). */
  key: string;
  /** The input line. */
  line: number;
  payload: T;
}

/** What the service said about one row of a chunk. */
export type RowResult = { ok: true; id?: string | number } | { ok: false; error: string; fields?: FieldErrors };

export interface ChunkRun<T> {
  /** Names the journal and the keys. */
  command: string;
  file: string;
  rows: ChunkRow<T>[];
  /** Rows per request. */
  size: number;
  /** Rows share a request only with rows of the same group (trace: one statement per request). */
  group?: (payload: T) => string | number;
  /** What a row is, plural ("information requests"), and what happens to it ("sent"). */
  noun: string;
  verb: string;
  concurrency: number;
  fresh?: boolean;
  report?: string;
  /**
   * Sends one chunk; answers one result per payload, in order. `keyFor` gives the chunk's
   * Idempotency-Key (a send that retries with fewer rows asks for the key of those).
   * Throwing fails every row of the chunk with that error.
   */
  send: (payloads: T[], keyFor: (payloads: T[]) => string, client: ApiClient) => Promise<RowResult[]>;
}

/** Chunks of at most `size` rows, in file order, never mixing groups. */
export function chunkRows<T>(rows: ChunkRow<T>[], size: number, group?: (payload: T) => string | number): ChunkRow<T>[][] {
  if (!group) return chunk(rows, size);
  const groups = new Map<string | number, ChunkRow<T>[]>();
  for (const row of rows) {
    const g = group(row.payload);
    const list = groups.get(g);
    if (list) list.push(row);
    else groups.set(g, [row]);
  }
  return [...groups.values()].flatMap((list) => chunk(list, size));
}

export async function sendInChunks<T>(ctx: Context, run: ChunkRun<T>): Promise<void> {
  // Ctrl-C stops new chunks; one already sent finishes, so its rows are reported as they went.
  const client = ctx.client({ finishInFlight: true });
  const journal = Journal.open(ctx.config().dir, { command: run.command, file: run.file, baseUrl: client.baseUrl, profile: ctx.settings().profile }, run.fresh);
  const generation = journal.generation();
  const keyFor = (payloads: T[]) => idempotencyKey(run.command, generation, JSON.stringify(payloads));

  const skipped: Outcome[] = [];
  const pending: ChunkRow<T>[] = [];
  for (const row of run.rows) {
    const earlier = journal.get(row.key);
    if (earlier) skipped.push({ key: row.key, lines: [row.line], status: 'skipped', id: earlier.id });
    else pending.push(row);
  }
  if (skipped.length) ctx.io.info(`${skipped.length} of ${run.rows.length} ${run.noun} went through in an earlier run and are skipped (--fresh to forget it)`);

  const units: Unit<ChunkRow<T>[]>[] = chunkRows(pending, run.size, run.group).map((rows) => ({
    key: `lines ${rows[0].line}-${rows[rows.length - 1].line}`,
    lines: rows.map((r) => r.line),
    payload: rows,
  }));
  if (ctx.io.stderrIsTTY && units.length > 1) {
    const rl = client.rateLimit;
    ctx.io.info(
      `Sending ${pending.length} ${run.noun} in ${units.length} requests, ${Math.min(run.concurrency, units.length)} at a time` +
        (rl.remaining !== undefined ? ` (rate limit: ${rl.remaining} left this hour)` : ''),
    );
  }

  const answers = new Map<Unit<ChunkRow<T>[]>, RowResult[]>();
  const spinner = await ctx.spinner(`Sending ${run.noun}… 0/${pending.length}`);
  let rowsDone = 0;
  let sent = 0;
  let result: RunResult;
  try {
    result = await runUnits(units, {
      concurrency: run.concurrency,
      signal: ctx.signal,
      work: async (unit) => {
        const payloads = unit.payload.map((r) => r.payload);
        const results = await run.send(payloads, keyFor, client);
        if (results.length !== payloads.length) throw new Error(`the service answered ${results.length} results for ${payloads.length} rows`);
        if (++sent === 1) warnIfBudgetShort(ctx, client.rateLimit, units.length - 1);
        unit.payload.forEach((row, i) => {
          const r = results[i];
          journal.record(r.ok ? { key: row.key, status: 'done', id: r.id } : { key: row.key, status: 'failed', error: r.error });
        });
        answers.set(unit, results);
        rowsDone += payloads.length;
        spinner.update(`Sending ${run.noun}… ${rowsDone}/${pending.length}`);
        return {};
      },
    });
  } finally {
    spinner.stop();
  }

  const outcomes = [...skipped, ...units.flatMap((unit, i) => rowOutcomes(unit, result.outcomes[i], answers.get(unit)))];
  outcomes.sort((a, b) => a.lines[0] - b.lines[0]);
  await finishBulk(ctx, { ...result, outcomes }, { noun: run.noun, verb: run.verb, report: run.report, journalPath: journal.path });
}

/** A chunk's outcome as one outcome per row: the row's own answer, else the chunk's fate. */
function rowOutcomes<T>(unit: Unit<ChunkRow<T>[]>, chunkOutcome: Outcome, answer: RowResult[] | undefined): Outcome[] {
  return unit.payload.map((row, i): Outcome => {
    const base = { key: row.key, lines: [row.line] };
    const r = answer?.[i];
    if (r) return r.ok ? { ...base, status: 'created', id: r.id } : { ...base, status: 'failed', error: r.error, fields: r.fields };
    if (chunkOutcome.status === 'failed') return { ...base, status: 'failed', error: chunkOutcome.error, fields: chunkOutcome.fields };
    return { ...base, status: 'not_sent' };
  });
}
