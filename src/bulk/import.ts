// One create request per unit of a file (an order and its rows, an origin), the way every
// `… import` command runs: journal, deterministic Idempotency-Keys, bounded concurrency,
// progress, the rate-limit budget said up front, and the per-unit report at the end.
//
// Rerun safety: the journal (in sct's config dir) records each unit as it is created, so a
// rerun skips it. Every Idempotency-Key is derived from the journal's identity, its generation
// and the unit: a rerun after a crash between the POST and the journal line (or after the
// journal was damaged or deleted) sends the same key and the service replays its answer
// instead of creating a duplicate, while --fresh (a new generation) really sends everything
// again.
import type { Context } from '../context.js';
import { IN_FLIGHT_GRACE_MS, type ApiClient } from '../api/client.js';
import type { RateLimitState } from '../api/retry.js';
import type { Journal } from './journal.js';
import { stoppedEarly, withBulkRun } from './open.js';
import { journalKeyOf, runUnits, type Outcome, type RunResult, type Unit } from './runner.js';
import { EDITED_SINCE_SENT, finishBulk, type FileUnit } from './report.js';
import { keyShown } from '../util/sanitize.js';
import { drawsSpinner } from '../output/spinner.js';
import { ApiError, ConflictError } from '../errors.js';
import { countOf, formatDuration } from '../util/format.js';

export interface ImportRun<T> {
  /** Names the journal and the keys: the same file run as another command is another run. */
  command: string;
  file: string;
  units: Unit<T>[];
  /** What is created, plural ("purchase orders"). */
  noun: string;
  path: string;
  concurrency: number;
  fresh?: boolean;
  report?: string;
  /** The rows --skip-invalid left out, for the report. */
  invalid?: Outcome[];
  /** What the file's units are called where they are counted: rows, or a plot file's features. */
  unit?: FileUnit;
  /** Says a rejection in the file's terms (an order's items[N] by its line), before it is reported. */
  placeRejection?: (unit: Unit<T>, err: unknown) => void;
}

/**
 * What a unit sent again under the key an earlier run sent it under, without an answer, fails
 * with: a 422 is the service keeping that key's first request, so the row was edited since (the
 * first may exist). Not sent under another key, which could make it twice: it ends as a conflict
 * and stays on record as sent. Any other error is itself.
 */
export function editedSinceSent(err: unknown, key: string, inRequestOfRows = false): unknown {
  if (!(err instanceof ApiError && err.status === 422)) return err;
  // A request of many rows (a chunk) differs as a whole when any of its rows does: one edited,
  // or one removed from the file, which the replay can no longer send as it was.
  const what = inRequestOfRows
    ? `${key} went out in an earlier run in a request whose answer was lost (it may exist), and that request's rows are not all in the file as they were (one edited or removed)`
    : `${key} went out in an earlier run with other content and its answer was lost (it may exist)`;
  return new ConflictError(`${what}: it is not sent under another key; compare it with the service, or rerun with --fresh to send the file anew`, { sentBefore: true });
}

/**
 * Units an earlier run created whose rows say something else now (an item added, a cell edited):
 * an import creates, and skips what it created, so their change is not sent. Said, not silent.
 */
function warnChangedSinceDone<T>(ctx: Context, journal: Journal, run: ImportRun<T>): void {
  if (journal.blank) return;
  const changed = run.units.filter((u) => {
    const sent = journal.get(journalKeyOf(u))?.sent;
    return sent !== undefined && sent !== unitKey(journal, u);
  });
  if (changed.length === 0) return;
  const named = changed.slice(0, 5).map((u) => keyShown(u.key)).join(', ') + (changed.length > 5 ? ', …' : '');
  ctx.io.warn(
    `${countOf(changed.length, run.noun)} created by an earlier run ${changed.length === 1 ? 'differs' : 'differ'} from the file now (${named}): an import does not change what it created, and skips ${changed.length === 1 ? 'it' : 'them'}; \`sync\` updates what exists`,
  );
}

/** The key of one unit's POST: the same in every run of one journal generation. */
export function unitKey(journal: Journal, unit: Unit<unknown>): string {
  return journal.key(journalKeyOf(unit), JSON.stringify(unit.payload));
}

export function runImport<T>(ctx: Context, run: ImportRun<T>): Promise<void> {
  const connections = Math.max(1, Math.min(run.concurrency, run.units.length));
  const stoppedBeforeSending = (err: unknown) => {
    const outcomes = run.units.map((u): Outcome => ({ key: u.key, lines: u.lines, status: 'not_sent' }));
    return finishBulk(ctx, { outcomes, ...stoppedEarly(err) }, { noun: run.noun, verb: 'created', report: run.report, invalid: run.invalid, unit: run.unit });
  };
  return withBulkRun(ctx, { ...run, connections, stoppedBeforeSending }, (client, journal) => importUnits(ctx, client, journal, run));
}

async function importUnits<T>(ctx: Context, client: ApiClient, journal: Journal, run: ImportRun<T>): Promise<void> {
  const total = run.units.length;
  const pending = run.units.filter((u) => !journal.get(journalKeyOf(u))).length;
  const unknown = run.units.filter((u) => journal.wasUnknown(journalKeyOf(u))).length;
  announceRun(ctx, { total, pending, unknown, requests: pending, noun: run.noun, concurrency: run.concurrency, rateLimit: client.rateLimit });
  warnChangedSinceDone(ctx, journal, run);

  const spinner = await ctx.spinner(`Creating ${run.noun}… 0/${total}`);
  let sent = 0;
  let result: RunResult;
  try {
    // A unit sent before without an answer goes again under the key it went under then, even
    // when its row was edited since: a service that carried it out replays it, never twice.
    const keyOf = (unit: Unit<T>) => journal.sentKeyOf(journalKeyOf(unit)) ?? unitKey(journal, unit);
    result = await runUnits(run.units, {
      concurrency: run.concurrency,
      signal: ctx.signal,
      journal,
      keyOf,
      rateLimit: client.rateLimit,
      work: async (unit) => {
        const sentBefore = journal.sentKeyOf(journalKeyOf(unit)) !== undefined;
        const res = await client
          .request<{ id?: number } | null>({
            method: 'POST',
            path: run.path,
            body: unit.payload,
            idempotencyKey: keyOf(unit),
            expect: 'created',
          })
          .catch((err: unknown) => {
            run.placeRejection?.(unit, err);
            throw sentBefore ? editedSinceSent(err, unit.key) : err;
          });
        // The first answer carries the rate-limit headers the budget warning needs.
        if (++sent === 1) warnIfBudgetShort(ctx, client.rateLimit, pending - 1);
        return { id: res.data?.id };
      },
      onProgress: (done, all, rejected) => spinner.update(`Creating ${run.noun}… ${done}/${all}${rejected ? ` (${rejected} rejected)` : ''}`),
      onStopping: sayStopping(ctx, client),
    });
  } finally {
    spinner.stop();
  }
  await finishBulk(ctx, result, { noun: run.noun, verb: 'created', report: run.report, journalPath: journal.path, fresh: run.fresh, invalid: run.invalid, conflicts: EDITED_SINCE_SENT, unit: run.unit });
}

/**
 * An order's rejected items said with their file lines: the service names an item by its place in
 * the body (`items[0].buyer_product`), which is line-number order, not always the file's.
 */
export function nameItemLines(err: unknown, itemLines: ReadonlyArray<number | undefined> | undefined): void {
  if (!(err instanceof ApiError) || !itemLines) return;
  const named = Object.entries(err.fields).map(([field, messages]) => {
    const line = itemLines[Number(/^items\[(\d+)\]/.exec(field)?.[1] ?? NaN)];
    return [line === undefined ? field : `${field} (line ${line})`, messages] as const;
  });
  for (const field of Object.keys(err.fields)) delete err.fields[field];
  for (const [field, messages] of named) err.fields[field] = messages;
}

/** Before the first request: what an earlier run did, and on a terminal what this one will send. */
export function announceRun(
  ctx: Context,
  o: { total: number; pending: number; unknown: number; requests: number; noun: string; verb?: string; concurrency: number; rateLimit: RateLimitState },
): void {
  const verb = o.verb ?? 'created';
  if (o.pending < o.total) ctx.io.info(`${o.total - o.pending} of ${o.total} ${o.noun} were ${verb} by an earlier run and are skipped (--fresh to forget it)`);
  if (o.unknown > 0) {
    ctx.io.info(`${countOf(o.unknown, o.noun)} an earlier run sent without learning the outcome ${o.unknown === 1 ? 'is' : 'are'} sent again under ${o.unknown === 1 ? 'its' : 'their'} original Idempotency-Key (the service answers as it did, never twice)`);
  }
  if (ctx.io.stderrIsTTY && o.pending > 1) {
    const rl = o.rateLimit;
    ctx.io.info(
      `${o.pending} ${o.noun} to send: ${o.requests} request${o.requests === 1 ? '' : 's'}, ${Math.min(o.concurrency, o.requests)} at a time${rl.remaining !== undefined ? ` (rate limit: ${rl.remaining} left this hour)` : ''}`,
    );
  }
}

/**
 * Said at the first stop signal while requests are out, where no spinner says it (a log, a pipe):
 * the run waits a few seconds for their answers (IN_FLIGHT_GRACE_MS, at most --timeout), so that
 * its journal knows what they did.
 */
export function sayStopping(ctx: Context, client: ApiClient): (inFlight: number) => void {
  return (inFlight) => {
    // Where a spinner is drawn, it says so on its line. Requests waiting to be sent again (a
    // back-off, a rate limit) are not waited for: they end at once.
    const n = inFlight - client.pausedRequests;
    if (drawsSpinner(ctx.io) || n < 1) return;
    const grace = Math.min(ctx.requestLimits().timeoutMs, IN_FLIGHT_GRACE_MS);
    const them = n === 1 ? 'it' : 'them';
    ctx.io.info(
      `stopping: waiting up to ${formatDuration(grace)} for the answer${n === 1 ? '' : 's'} to ${n} request${n === 1 ? '' : 's'} already sent, ` +
        `so the journal knows what became of ${them}; a second signal stops at once`,
    );
  };
}

/** Says up front when the hour's request budget will not cover the run, rather than at the pause. */
export function warnIfBudgetShort(ctx: Context, rl: RateLimitState, left: number): void {
  if (rl.remaining === undefined || rl.remaining >= left) return;
  const at = rl.reset ? ` at ${new Date(rl.reset * 1000).toISOString()}` : '';
  ctx.io.warn(
    `${left} more requests to send but the rate limit has ${rl.remaining} left this hour: ` +
      `sct pauses until the budget resets${at} (or stops if that is longer than --max-wait; rerun to resume)`,
  );
}
