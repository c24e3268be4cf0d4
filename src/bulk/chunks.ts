// Bulk endpoints that take many rows in one request and answer row by row (bulk invitation
// create; statement tracing and information requests work the same way): rows are validated,
// journaled and reported one by one, while the requests carry chunks of up to `chunkSize` rows.
//
// Rerun safety, per row as in runImport: rows the journal records as done are skipped. Each
// request's Idempotency-Key is derived from its rows, their content, how often each was rejected
// before and the journal generation, so:
// - a chunk whose answer was lost (Ctrl-C, crash, dropped connection) is rebuilt from the same
//   rows on the rerun and sent under the same key: the service replays its answer and creates
//   nothing twice;
// - a rejected row sent again is a new attempt under a new key, because a rejection inside a
//   successful (2xx) bulk answer is exactly what an idempotent replay would repeat.
import type { Context } from '../context.js';
import type { FieldErrors } from '../errors.js';
import { idempotencyKey } from './idempotency.js';
import { announceRun, openRunJournal, warnIfBudgetShort } from './import.js';
import type { Journal } from './journal.js';
import { finishBulk } from './report.js';
import { chunk, runUnits, type Outcome, type RunResult, type Unit } from './runner.js';

/** What the service answered for one row of a chunk. */
export type RowResult = { ok: true; id?: string | number } | { ok: false; error: string; fields?: FieldErrors };

export interface ChunkRun<T> {
  /** Names the journal and the keys, as in runImport. */
  command: string;
  file: string;
  units: Unit<T>[];
  /** What is created, plural ("invitations"). */
  noun: string;
  path: string;
  chunkSize: number;
  concurrency: number;
  fresh?: boolean;
  report?: string;
  /** The request body for the payloads of one chunk, in row order. */
  body: (payloads: T[]) => unknown;
  /** The outcome of each of the chunk's `count` rows, in row order, read from the service's answer. */
  results: (answer: unknown, count: number) => RowResult[];
}

const journalKey = (u: Unit<unknown>) => u.journalKey ?? u.key;

/**
 * The requests of a run. A chunk of the file none of whose rows an earlier run touched is sent
 * exactly as before (same rows, same key: a lost answer is replayed); rows an earlier run left
 * rejected, or a chunk it only partly recorded, are packed into new chunks so a rerun of a few
 * failures costs few requests.
 */
export function planChunks<T>(units: Unit<T>[], size: number, journal: Journal): Unit<T>[][] {
  const untouched = (u: Unit<T>) => !journal.get(journalKey(u)) && journal.failedAttempts(journalKey(u)) === 0;
  const chunks: Unit<T>[][] = [];
  const leftovers: Unit<T>[] = [];
  for (const rows of chunk(units, size)) {
    if (rows.every(untouched)) chunks.push(rows);
    else leftovers.push(...rows.filter((u) => !journal.get(journalKey(u))));
  }
  chunks.push(...chunk(leftovers, size));
  return chunks.sort((a, b) => a[0].lines[0] - b[0].lines[0]);
}

export function chunkKey<T>(command: string, generation: string, rows: Unit<T>[], journal: Journal): string {
  return idempotencyKey(
    command,
    generation,
    ...rows.map((u) => `${journalKey(u)}#${journal.failedAttempts(journalKey(u))}\u0001${JSON.stringify(u.payload)}`),
  );
}

export async function runChunks<T>(ctx: Context, run: ChunkRun<T>): Promise<void> {
  // Ctrl-C stops new chunks; one already sent finishes, so its rows are reported as they ended.
  const client = ctx.client({ finishInFlight: true });
  const { journal, generation } = openRunJournal(ctx, run, client.baseUrl);
  const plan = planChunks(run.units, run.chunkSize, journal);
  const pending = plan.reduce((n, rows) => n + rows.length, 0);
  announceRun(ctx, { total: run.units.length, pending, requests: plan.length, noun: run.noun, concurrency: run.concurrency, rateLimit: client.rateLimit });

  const rowOutcomes = new Map<Unit<T>, Outcome>();
  const spinner = await ctx.spinner(`Creating ${run.noun}… 0/${pending}`);
  let sentRows = 0;
  let rejected = 0;
  let requests = 0;
  let result: RunResult;
  try {
    result = await runUnits(
      plan.map((rows) => ({ key: `lines ${rows[0].lines[0]}-${rows[rows.length - 1].lines.at(-1)}`, lines: rows.flatMap((u) => u.lines), payload: rows })),
      {
        concurrency: run.concurrency,
        signal: ctx.signal,
        work: async ({ payload: rows }) => {
          try {
            const res = await client.request({
              method: 'POST',
              path: run.path,
              body: run.body(rows.map((u) => u.payload)),
              idempotencyKey: chunkKey(run.command, generation, rows, journal),
            });
            if (++requests === 1) warnIfBudgetShort(ctx, client.rateLimit, plan.length - 1);
            const answers = run.results(res.data, rows.length);
            rows.forEach((u, i) => {
              const a = answers[i];
              const base = { key: u.key, lines: u.lines };
              if (a.ok) {
                rowOutcomes.set(u, { ...base, status: 'created', id: a.id });
                journal.record({ key: journalKey(u), status: 'done', id: a.id });
              } else {
                rejected++;
                rowOutcomes.set(u, { ...base, status: 'failed', error: a.error, fields: a.fields });
                journal.record({ key: journalKey(u), status: 'failed', error: a.error });
              }
            });
            return {};
          } finally {
            sentRows += rows.length;
          }
        },
        onProgress: () => spinner.update(`Creating ${run.noun}… ${sentRows}/${pending}${rejected ? ` (${rejected} rejected)` : ''}`),
      },
    );
  } finally {
    spinner.stop();
  }

  // A chunk the service refused as a whole (a 403, a 400 on the body) fails each of its rows.
  const chunkOutcome = new Map<Unit<T>, Outcome>();
  result.outcomes.forEach((o, i) => plan[i].forEach((u) => chunkOutcome.set(u, o)));
  const outcomes: Outcome[] = run.units.map((u) => {
    const own = rowOutcomes.get(u);
    if (own) return own;
    const whole = chunkOutcome.get(u);
    if (!whole) return { key: u.key, lines: u.lines, status: 'skipped', id: journal.get(journalKey(u))?.id };
    if (whole.status === 'failed') journal.record({ key: journalKey(u), status: 'failed', error: whole.error });
    return { key: u.key, lines: u.lines, status: whole.status, error: whole.error, fields: whole.fields };
  });
  await finishBulk(ctx, { ...result, outcomes }, { noun: run.noun, verb: 'created', report: run.report, journalPath: journal.path });
}
