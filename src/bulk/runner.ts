// Runs the units of a bulk command with bounded concurrency. A unit the service rejects (its
// 4xx verdict on that unit) is recorded and the run goes on. Anything else — Ctrl-C, a lost or
// unreadable answer, a rate-limit wait too long, a service down, a 401 — is no verdict on the
// unit: the run stops starting units, lets the ones in flight finish, and each unit ends as
// not_sent (the service never acted on it) or unknown (it may have: a rerun resends it under
// the same Idempotency-Key). A fault never turns a unit into `rejected`.
//
// Units are sent up to `concurrency` at a time, and their outcomes are kept in the units' order
// (the file's), whatever order the answers come in; journal records are written as answers
// come, which the journal's reader does not mind (it keys them by unit). Before a unit's request
// goes out, the journal holds it as `unknown` (on disk, fsynced), so a run killed while the request
// is out leaves the rerun knowing it may exist; its answer's record replaces that one, written
// with the record of the worker's next unit in one write (one fsync per request, not two).
import { JournalWriteError, type Journal, type JournalEntry } from './journal.js';
import type { RateLimitState } from '../api/retry.js';
import { ApiError, ConflictError, InterruptedError, RejectedError, SctError, type FieldErrors } from '../errors.js';
import { turnTheLoop } from '../util/process.js';

export interface Unit<T> {
  /** Stable identity across reruns (an external_id, an e-mail, a chunk's first line). */
  key: string;
  /** The input lines this unit came from. */
  lines: number[];
  payload: T;
  /**
   * The journal's identity of the unit when the display key is not stable across edits of the
   * file (a "line N" key shifts when rows are removed); defaults to key.
   */
  journalKey?: string;
}

/** `invalid`: a row refused by sct's own checks, never sent (--skip-invalid, or in the report of a refused file). */
export type Status = 'created' | 'updated' | 'rejected' | 'conflict' | 'skipped' | 'not_sent' | 'unknown' | 'invalid';

export interface Outcome {
  key: string;
  lines: number[];
  status: Status;
  id?: string | number;
  error?: string;
  fields?: FieldErrors;
}

type Entry = Omit<JournalEntry, 'at'>;

/**
 * What the journal is told of a unit. By default the unit is one record, under its journalKey; a
 * unit of many rows (a chunk) gives one record per row instead.
 */
export interface UnitRecords<T> {
  /** Written (fsynced) before the unit's request leaves: the unit as sent, its outcome `unknown`. */
  sending(unit: Unit<T>): Entry[];
  /**
   * A unit that ended without an answer to keep: `unknown` (it may have been carried out),
   * `cleared` (it never reached the service, or a conflict stopped it first), `rejected` (the
   * service refused the unit).
   */
  ended(unit: Unit<T>, how: 'unknown' | 'cleared' | 'rejected', error?: string): Entry[];
}

export interface RunOptions<T> {
  concurrency: number;
  signal: AbortSignal;
  journal?: Journal;
  records?: UnitRecords<T>;
  /** The Idempotency-Key a unit goes out under, put on record with it as sent (see Journal.sentKeyOf). */
  keyOf?: (unit: Unit<T>) => string;
  /**
   * Sends one unit; resolves with the created object's id (status: 'updated' for a unit that
   * changed an existing object), and the records of its answer when not the unit as done.
   */
  work: (unit: Unit<T>) => Promise<{ id?: string | number; status?: 'created' | 'updated'; records?: Entry[] }>;
  onProgress?: (done: number, total: number, rejected: number) => void;
  /** At the first stop signal while requests are out: how many, as the run waits for their answers. */
  onStopping?: (inFlight: number) => void;
  /**
   * The rate limit as the client last heard it. While it has fewer requests left than
   * `concurrency`, units are sent one at a time: requests in flight spend the budget before
   * their answers say so, and one at a time the pause at Remaining 0 comes before a 429 would.
   */
  rateLimit?: RateLimitState;
}

/**
 * Outcomes as the summary and the report read them: once or a few times over, in the file's
 * order. An array is one; a chunked run makes each as it is read (RowOutcomes).
 */
export interface Outcomes extends Iterable<Outcome> {
  readonly length: number;
}

export interface RunResult {
  outcomes: Outcome[];
  interrupted: boolean;
  /** The error that stopped the run early, if any. */
  fatal?: Error;
}

/**
 * The service's own verdict on this unit: a 4xx other than 401 and 403 (the token's, the same for
 * every row: the run stops at the first, the rows not sent) and 429 (a wait). Nor is a request
 * refused for what it is rather than for its rows: a 404 or 405 on a POST (a path the service
 * does not have: a wrong base URL, an endpoint gone), a 413 or 415 (a proxy's limit, a type).
 */
function isRejection(err: unknown): boolean {
  if (err instanceof RejectedError) return true;
  // A write the service may have carried out (the GET its redirect led to was refused) has no verdict.
  if (err instanceof SctError && err.delivery === 'unknown') return false;
  if (!(err instanceof ApiError) || err.status < 400 || err.status >= 500) return false;
  if (err.status === 401 || err.status === 403 || err.status === 429 || err.status === 413 || err.status === 415) return false;
  return !((err.status === 404 || err.status === 405) && err.method === 'POST');
}

/**
 * Writes outcomes to the journal. A journal that cannot be written (a full disk) stops the run:
 * what this run does after that could not be known to the rerun. Whatever was sent so far is
 * still reported, and the rerun resends unjournaled units under their original keys.
 */
function journalRecord(journal: Journal, entries: Parameters<Journal['recordAll']>[0]): void {
  try {
    journal.recordAll(entries);
  } catch (err) {
    throw new JournalWriteError(journal.path, err as Error);
  }
}

/** The key a unit is on record under in the journal: its journalKey, else its key. */
export const journalKeyOf = (unit: { key: string; journalKey?: string }): string => unit.journalKey ?? unit.key;

/** A unit an earlier run sent without an answer, which this run stopped before sending again. */
export const SENT_BY_AN_EARLIER_RUN = 'sent by an earlier run, which did not learn what became of it; not sent again by this run';

/** What became of a unit whose request failed without a verdict. */
function deliveryOf(err: unknown): 'not_sent' | 'unknown' {
  if (err instanceof SctError && err.delivery) return err.delivery;
  // Ctrl-C outside a request (between units) sent nothing; any other failure may hide a success.
  return err instanceof InterruptedError ? 'not_sent' : 'unknown';
}

/** One record per unit, under its journalKey (its key when it has none); as sent, with its Idempotency-Key. */
function unitRecords<T>(keyOf?: (unit: Unit<T>) => string): UnitRecords<T> {
  const key = journalKeyOf;
  return {
    sending: (unit) => [{ key: key(unit), status: 'unknown', sent: keyOf?.(unit) }],
    ended: (unit, how, error) => {
      if (how === 'rejected') return [{ key: key(unit), status: 'failed', error }];
      if (how === 'unknown') return [{ key: key(unit), status: 'unknown', error, sent: keyOf?.(unit) }];
      return [{ key: key(unit), status: 'cleared' }];
    },
  };
}

export async function runUnits<T>(units: Unit<T>[], o: RunOptions<T>): Promise<RunResult> {
  const records = o.records ?? unitRecords<T>(o.keyOf);
  const outcomes: Outcome[] = new Array(units.length);
  let next = 0;
  let done = 0;
  let rejected = 0;
  let fatal: Error | undefined;
  let interrupted = false;

  // An outcome is set before it is journaled: a journal that fails does not unmake it, it stops the run.
  const record = (entries: Entry[]): boolean => {
    if (!o.journal || entries.length === 0) return true;
    // A unit an earlier run sent without an answer stays on record as sent whatever this run
    // learnt of its own attempt: that this one never reached the service says nothing of the
    // first, which may have been carried out (a later edit of the row would then go out under
    // another key and be done twice).
    const journal = o.journal;
    const kept = entries.filter((e) => !(e.status === 'cleared' && journal.wasUnknown(e.key)));
    if (kept.length === 0) return true;
    try {
      journalRecord(journal, kept);
      return true;
    } catch (err) {
      fatal ??= err as Error;
      return false;
    }
  };

  // Units whose request is out, and the units waiting for a turn while the budget is short, in
  // the order they came (the file's): a turn is handed over, so none is overtaken.
  let inFlight = 0;
  const queue: (() => void)[] = [];
  const budgetShort = () => o.rateLimit?.remaining !== undefined && o.rateLimit.remaining < o.concurrency;
  const takeTurn = (): Promise<void> | void => {
    if (queue.length === 0 && (inFlight === 0 || !budgetShort())) {
      inFlight++;
      return;
    }
    return new Promise<void>((resolve) => queue.push(resolve));
  };
  const endTurn = () => {
    inFlight--;
    while (queue.length > 0 && (inFlight === 0 || !budgetShort())) {
      inFlight++;
      queue.shift()!();
    }
  };

  // A unit on record as done is skipped; units of many rows are planned without such rows.
  const doneBefore = (unit: Unit<T>) => (o.records ? undefined : o.journal?.get(journalKeyOf(unit)));
  // A unit an earlier run sent without learning its outcome: not sent by this run, it is still
  // unknown, never not_sent (units of many rows say it of each row: src/bulk/chunks.ts).
  const sentBefore = (unit: Unit<T>) => !o.records && o.journal?.wasUnknown(journalKeyOf(unit)) === true;
  // The units of the first requests, put on record as sent in one write before the workers start:
  // each in its own fsync would delay the last of them by the others' (a few ms each on a busy disk).
  const firstWave = new Set<number>();

  const worker = async () => {
    // The record of this worker's last answer, written with its next unit's record of being sent
    // (nothing is awaited in between), or when the worker stops or waits.
    let answered: Entry[] = [];
    const flush = (entries: Entry[] = []): boolean => {
      const all = [...answered, ...entries];
      answered = [];
      return record(all);
    };
    try {
      for (;;) {
        if (o.signal.aborted) interrupted = true;
        if (interrupted || fatal) return;
        const i = next++;
        if (i >= units.length) return;
        const unit = units[i];
        const journalKey = journalKeyOf(unit);
        const earlier = doneBefore(unit);
        if (earlier) {
          outcomes[i] = { key: unit.key, lines: unit.lines, status: 'skipped', id: earlier.id };
        } else {
          const turn = takeTurn();
          if (turn) {
            // A wait (the budget is short) is no time to hold an answer's record back.
            if (!flush()) return;
            await turn;
          }
          // What happened while this unit waited stops it as it would have before: it is not sent.
          if (o.signal.aborted) interrupted = true;
          if (interrupted || fatal) return endTurn();
          // On disk before the request leaves; a journal that cannot be written sends nothing more.
          if (!flush(firstWave.delete(i) ? [] : records.sending(unit))) return endTurn();
          try {
            const { id, status = 'created', records: answer } = await o.work(unit);
            outcomes[i] = { key: unit.key, lines: unit.lines, status, id };
            answered = answer ?? [{ key: journalKey, status: 'done', id, sent: o.keyOf?.(unit) }];
          } catch (err) {
            if (err instanceof ConflictError) {
              // Nothing was sent: the rerun plans this unit again (still as sent, under its
              // earlier key, when an earlier run may have carried it out).
              outcomes[i] = { key: unit.key, lines: unit.lines, status: 'conflict', id: err.id, error: err.message };
              answered = err.madeAs !== undefined ? [{ key: journalKey, status: 'done', id: err.madeAs }] : records.ended(unit, err.sentBefore ? 'unknown' : 'cleared', err.sentBefore ? err.message : undefined);
            } else if (!isRejection(err)) {
              if (err instanceof InterruptedError) interrupted = true;
              else fatal ??= err as Error;
              const delivery = deliveryOf(err);
              const status = sentBefore(unit) ? 'unknown' : delivery;
              const error = status === 'unknown' ? (delivery === 'not_sent' ? `${SENT_BY_AN_EARLIER_RUN}: ${(err as Error).message}` : (err as Error).message) : undefined;
              outcomes[i] = { key: unit.key, lines: unit.lines, status, error };
              answered = records.ended(unit, status === 'unknown' ? 'unknown' : 'cleared', error);
              return;
            } else {
              const e = err as Error & { fields?: FieldErrors };
              rejected++;
              outcomes[i] = { key: unit.key, lines: unit.lines, status: 'rejected', error: e.message, fields: e.fields };
              answered = records.ended(unit, 'rejected', e.message);
            }
          } finally {
            endTurn();
          }
        }
        done++;
        o.onProgress?.(done, units.length, rejected);
      }
    } finally {
      flush();
    }
  };

  // A signal that came during the synchronous work before (a file read, its rows made into
  // units) reaches its handler before the first request, which it then stops: nothing is sent.
  await turnTheLoop();
  if (o.journal && !budgetShort() && !o.signal.aborted) {
    for (let i = 0; i < units.length && firstWave.size < o.concurrency; i++) if (!doneBefore(units[i])) firstWave.add(i);
    record([...firstWave].flatMap((i) => records.sending(units[i])));
  }
  const onStop = () => {
    if (inFlight > 0) o.onStopping?.(inFlight);
  };
  o.signal.addEventListener('abort', onStop, { once: true });
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, units.length)) }, worker));
  } finally {
    o.signal.removeEventListener('abort', onStop);
  }
  // Put on record as sent with the first, but never sent (the run stopped first).
  if (firstWave.size > 0) record([...firstWave].flatMap((i) => records.ended(units[i], 'cleared')));
  // Units the run never reached: one an earlier run carried out is still skipped, with its id.
  for (let i = 0; i < units.length; i++) {
    const earlier = doneBefore(units[i]);
    outcomes[i] ??= earlier
      ? { key: units[i].key, lines: units[i].lines, status: 'skipped', id: earlier.id }
      : sentBefore(units[i])
        ? { key: units[i].key, lines: units[i].lines, status: 'unknown', error: SENT_BY_AN_EARLIER_RUN }
        : { key: units[i].key, lines: units[i].lines, status: 'not_sent' };
  }
  return { outcomes, interrupted, fatal };
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
