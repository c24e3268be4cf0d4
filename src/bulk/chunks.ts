// Bulk endpoints that take many rows in one request and answer per row (bulk invitation create,
// trace-orders, the legacy information requests): the rows of a file go out in chunks of N with
// bounded concurrency, and each row gets its own outcome in the usual report.
//
// Rerun safety, per row as in runImport: after each chunk's answer every row is journaled
// (accepted as done, rejected as failed), so a rerun sends only the rows not yet accepted. A
// chunk's Idempotency-Key is derived from its rows, their content, how often each was rejected
// before, and the journal's generation:
// - a chunk whose answer was lost (Ctrl-C, crash, dropped connection) is rebuilt from the same
//   rows on the rerun and sent under the same key: the service replays its answer and acts
//   only once;
// - a rejected row sent again is a new attempt under a new key, because a rejection inside a
//   successful (2xx) bulk answer is exactly what an idempotent replay would repeat.
import type { Context } from '../context.js';
import type { ApiClient } from '../api/client.js';
import type { FieldErrors } from '../errors.js';
import type { Journal } from './journal.js';
import { withBulkRun } from './open.js';
import { chunk, runUnits, type Outcome, type RunResult, type Unit } from './runner.js';
import { finishBulk } from './report.js';
import { idempotencyKey } from './idempotency.js';
import { announceRun, warnIfBudgetShort } from './import.js';

export interface ChunkRow<T> {
  /** Stable identity across reruns and in the report ("dds 5 order 17"). */
  key: string;
  /** The journal's identity when the report key is not the stable one (an e-mail in any case). */
  journalKey?: string;
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
  /** The rows --skip-invalid left out, for the report. */
  invalid?: Outcome[];
  /**
   * Sends one chunk; answers one result per payload, in order. `keyFor` gives the chunk's
   * Idempotency-Key (a send that retries with fewer rows asks for the key of those).
   * Throwing fails every row of the chunk with that error.
   */
  send: (payloads: T[], keyFor: (payloads: T[]) => string, client: ApiClient) => Promise<RowResult[]>;
}

const idOf = (r: ChunkRow<unknown>) => r.journalKey ?? r.key;

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

/**
 * The requests of a run. A chunk of the file none of whose rows an earlier run touched is sent
 * exactly as before (same rows, same key: a lost answer is replayed); rows an earlier run left
 * rejected, or a chunk it only partly recorded, are packed into new chunks, so a rerun of a few
 * failures costs few requests.
 */
export function planChunks<T>(rows: ChunkRow<T>[], size: number, journal: Journal, group?: (payload: T) => string | number): ChunkRow<T>[][] {
  const untouched = (r: ChunkRow<T>) => !journal.get(idOf(r)) && journal.failedAttempts(idOf(r)) === 0;
  const chunks: ChunkRow<T>[][] = [];
  const leftovers: ChunkRow<T>[] = [];
  for (const rowsOfChunk of chunkRows(rows, size, group)) {
    if (rowsOfChunk.every(untouched)) chunks.push(rowsOfChunk);
    else leftovers.push(...rowsOfChunk.filter((r) => !journal.get(idOf(r))));
  }
  chunks.push(...chunkRows(leftovers, size, group));
  return chunks.sort((a, b) => a[0].line - b[0].line);
}

export function chunkKey<T>(command: string, generation: string, rows: ChunkRow<T>[], journal: Journal): string {
  return idempotencyKey(command, generation, ...rows.map((r) => `${idOf(r)}#${journal.failedAttempts(idOf(r))}\u0001${JSON.stringify(r.payload)}`));
}

export function sendInChunks<T>(ctx: Context, run: ChunkRun<T>): Promise<void> {
  return withBulkRun(ctx, run, (client, journal) => sendRows(ctx, client, journal, run));
}

async function sendRows<T>(ctx: Context, client: ApiClient, journal: Journal, run: ChunkRun<T>): Promise<void> {
  const generation = journal.generation();
  // Keys are computed before the chunk's rows are journaled, so a retried send keys the same.
  const rowOf = new Map<T, ChunkRow<T>>(run.rows.map((r) => [r.payload, r]));
  // A payload the send built itself (not one of the rows') is keyed by its content alone.
  const keyFor = (payloads: T[]) => chunkKey(run.command, generation, payloads.map((p) => rowOf.get(p) ?? { key: JSON.stringify(p), line: 0, payload: p }), journal);

  const skipped: Outcome[] = [];
  for (const row of run.rows) {
    const earlier = journal.get(idOf(row));
    if (earlier) skipped.push({ key: row.key, lines: [row.line], status: 'skipped', id: earlier.id });
  }
  const plan = planChunks(run.rows, run.size, journal, run.group);
  const pending = plan.reduce((n, rows) => n + rows.length, 0);
  const unknown = run.rows.filter((r) => journal.wasUnknown(idOf(r))).length;
  announceRun(ctx, { total: run.rows.length, pending, unknown, requests: plan.length, noun: run.noun, verb: run.verb, concurrency: run.concurrency, rateLimit: client.rateLimit });

  const units: Unit<ChunkRow<T>[]>[] = plan.map((rows) => ({
    key: `lines ${rows[0].line}-${rows[rows.length - 1].line}`,
    lines: rows.map((r) => r.line),
    payload: rows,
  }));

  const answers = new Map<Unit<ChunkRow<T>[]>, RowResult[]>();
  const spinner = await ctx.spinner(`Sending ${run.noun}… 0/${pending}`);
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
        journal.recordAll(
          unit.payload.map((row, i) => {
            const r = results[i];
            return r.ok ? { key: idOf(row), status: 'done', id: r.id } : { key: idOf(row), status: 'failed', error: r.error };
          }),
        );
        answers.set(unit, results);
        rowsDone += payloads.length;
        spinner.update(`Sending ${run.noun}… ${rowsDone}/${pending}`);
        return {};
      },
    });
  } finally {
    spinner.stop();
  }

  const outcomes: Outcome[] = [...skipped];
  units.forEach((unit, i) => rowOutcomes(unit, result.outcomes[i], answers.get(unit), outcomes));
  outcomes.sort((a, b) => a.lines[0] - b.lines[0]);
  // Rows sent without an answer are noted, so the rerun can say it resends them under their key.
  const unanswered = outcomes.filter((o) => o.status === 'unknown');
  if (unanswered.length > 0) {
    const byLine = new Map(run.rows.map((r) => [r.line, r]));
    journal.recordAll(unanswered.map((o) => ({ key: idOf(byLine.get(o.lines[0])!), status: 'unknown' as const, error: o.error })));
  }
  await finishBulk(ctx, { ...result, outcomes }, { noun: run.noun, verb: run.verb, report: run.report, journalPath: journal.path, fresh: run.fresh, invalid: run.invalid });
}

/** A chunk's outcome as one outcome per row, added to `out`: the row's own answer, else the chunk's fate. */
function rowOutcomes<T>(unit: Unit<ChunkRow<T>[]>, chunkOutcome: Outcome, answer: RowResult[] | undefined, out: Outcome[]): void {
  // The chunk as a whole was refused (a 4xx), went missing (unknown) or never left (not_sent).
  const fate = chunkOutcome.status === 'skipped' || chunkOutcome.status === 'created' ? 'not_sent' : chunkOutcome.status;
  unit.payload.forEach((row, i) => {
    const r = answer?.[i];
    // Object literals of one shape, not spreads: a run of 10,000 rows builds 10,000 of them.
    if (!r) out.push({ key: row.key, lines: [row.line], status: fate, error: chunkOutcome.error, fields: chunkOutcome.fields });
    else if (r.ok) out.push({ key: row.key, lines: [row.line], status: 'created', id: r.id });
    else out.push({ key: row.key, lines: [row.line], status: 'rejected', error: r.error, fields: r.fields });
  });
}
