// Runs the units of a bulk command with bounded concurrency. A unit the API rejects is
// recorded and the run goes on; Ctrl-C or an error that would fail every later unit too
// (401, exhausted rate limit, service unreachable) stops new units from starting, lets the
// ones in flight finish, and leaves the rest marked not_sent — nothing is lost.
import type { Journal } from './journal.js';
import { ApiError, AuthError, InterruptedError, NetworkError, RateLimitError, type FieldErrors } from '../errors.js';

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

export type Status = 'created' | 'failed' | 'skipped' | 'not_sent';

export interface Outcome {
  key: string;
  lines: number[];
  status: Status;
  id?: string | number;
  error?: string;
  fields?: FieldErrors;
}

export interface RunOptions<T> {
  concurrency: number;
  signal: AbortSignal;
  journal?: Journal;
  /** Sends one unit; resolves with the created object's id. */
  work: (unit: Unit<T>) => Promise<{ id?: string | number }>;
  onProgress?: (done: number, total: number, failed: number) => void;
}

export interface RunResult {
  outcomes: Outcome[];
  interrupted: boolean;
  /** The error that stopped the run early, if any. */
  fatal?: Error;
}

function isFatal(err: unknown): boolean {
  return err instanceof AuthError || err instanceof RateLimitError || err instanceof NetworkError || (err instanceof ApiError && err.status === 401);
}

export async function runUnits<T>(units: Unit<T>[], o: RunOptions<T>): Promise<RunResult> {
  const outcomes: Outcome[] = new Array(units.length);
  let next = 0;
  let done = 0;
  let failed = 0;
  let fatal: Error | undefined;
  let interrupted = false;

  const worker = async () => {
    for (;;) {
      if (o.signal.aborted) interrupted = true;
      if (interrupted || fatal) return;
      const i = next++;
      if (i >= units.length) return;
      const unit = units[i];
      const journalKey = unit.journalKey ?? unit.key;
      const earlier = o.journal?.get(journalKey);
      if (earlier) {
        outcomes[i] = { key: unit.key, lines: unit.lines, status: 'skipped', id: earlier.id };
      } else {
        try {
          const { id } = await o.work(unit);
          outcomes[i] = { key: unit.key, lines: unit.lines, status: 'created', id };
          o.journal?.record({ key: journalKey, status: 'done', id });
        } catch (err) {
          if (err instanceof InterruptedError) {
            interrupted = true;
            return; // left as not_sent: the idempotency key makes resending it safe
          }
          if (isFatal(err)) {
            fatal ??= err as Error;
            return;
          }
          const e = err as Error & { fields?: FieldErrors };
          failed++;
          outcomes[i] = { key: unit.key, lines: unit.lines, status: 'failed', error: e.message, fields: e.fields };
          o.journal?.record({ key: journalKey, status: 'failed', error: e.message });
        }
      }
      done++;
      o.onProgress?.(done, units.length, failed);
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, units.length)) }, worker));
  for (let i = 0; i < units.length; i++) {
    outcomes[i] ??= { key: units[i].key, lines: units[i].lines, status: 'not_sent' };
  }
  return { outcomes, interrupted, fatal };
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
