// Bulk endpoints that take many rows in one request and answer per row (bulk invitation create,
// trace-orders, the legacy information requests): the rows of a file go out in chunks of N with
// bounded concurrency, and each row gets its own outcome in the usual report.
//
// Rerun safety, per row as in runImport: before a chunk leaves its rows are journaled as sent,
// and after its answer each row again (accepted as done, rejected as failed, with the key of the
// request that carried it), so a rerun skips a chunk all of whose rows were accepted. Chunks are formed from the whole file,
// whatever the journal says, and a chunk's Idempotency-Key is derived from the journal's
// identity and generation, its rows, their content and how often each was rejected before:
// - a chunk whose answer, or the journal lines of it, were lost (Ctrl-C, a crash, a dropped
//   connection, a journal torn or deleted) is sent again whole under the same key: the service
//   replays its answer and acts only once;
// - a rejected row sent again is a new attempt under a new key, because a rejection inside a
//   successful (2xx) bulk answer is exactly what an idempotent replay would repeat. Such rows,
//   and rows whose chunk was sent under another key (the file changed), are packed together,
//   without the rows already accepted, so those are never sent under a new key.
import type { Context } from '../context.js';
import type { ApiClient } from '../api/client.js';
import type { FieldErrors } from '../errors.js';
import type { Journal } from './journal.js';
import { stoppedEarly, withBulkRun } from './open.js';
import { chunk, journalKeyOf, runUnits, SENT_BY_AN_EARLIER_RUN, type Outcome, type Outcomes, type RunResult, type Status, type Unit, type UnitRecords } from './runner.js';
import { EDITED_SINCE_SENT, finishBulk } from './report.js';
import { announceRun, editedSinceSent, sayStopping, warnIfBudgetShort } from './import.js';

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
/**
 * A row's outcome in a bulk answer. `unknown`: the answer says nothing of the row (left out of
 * it), though the request carrying it went through: the service may have acted on it, so it is
 * neither created nor rejected, and the rerun sends its request again under the same key.
 */
export type RowResult = { ok: true; id?: string | number } | { ok: false; error: string; fields?: FieldErrors; unknown?: boolean };

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

const idOf = journalKeyOf;

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
 * The requests of a run: each chunk of the file that still has rows to send is sent whole, as in
 * the run that first sent it (same rows, same key: a lost answer is replayed), unless a row of
 * it was rejected or went out in another request; the rows left to send of those chunks are
 * packed into new chunks, so a rerun of a few failures costs few requests.
 */
export function planChunks<T>(rows: ChunkRow<T>[], size: number, journal: Journal, group?: (payload: T) => string | number): ChunkRow<T>[][] {
  // A first run sends every chunk of the file as it is.
  if (journal.blank) return byFirstLine(chunkRows(rows, size, group));
  const chunks: ChunkRow<T>[][] = [];
  const leftovers: ChunkRow<T>[] = [];
  // A request whose answer did not come back for some of its rows goes out again with the rows it
  // had (those on record as done in it too), under its key, wherever the file has moved them
  // since: a service that carried it out replays it rather than refusing the rows as there.
  const open = new Set<string>();
  for (const row of rows) {
    const key = journal.get(idOf(row)) ? undefined : journal.sentKeyOf(idOf(row));
    if (key !== undefined) open.add(key);
  }
  // A request the file still holds as it was (the same rows under the same chunking) goes again
  // whole: a damaged journal may keep only some of its rows as sent, and those alone would be
  // another body under its key, which the service refuses.
  const whole = new Set<ChunkRow<T>>();
  if (open.size > 0) {
    for (const chunk of chunkRows(rows, size, group)) {
      if (!open.delete(chunkKey(journal, chunk))) continue;
      chunks.push(chunk);
      for (const row of chunk) whole.add(row);
    }
  }
  const resent = new Map<string, ChunkRow<T>[]>();
  const others: ChunkRow<T>[] = [];
  for (const row of rows) {
    if (whole.has(row)) continue;
    const key = open.size > 0 ? sentIn(journal, row) : undefined;
    if (key === undefined || !open.has(key)) others.push(row);
    else if (resent.has(key)) resent.get(key)!.push(row);
    else resent.set(key, [row]);
  }
  for (const chunk of resent.values()) chunks.push(chunk);
  for (const rowsOfChunk of chunkRows(others, size, group)) {
    const pending = rowsOfChunk.filter((r) => !journal.get(idOf(r)));
    if (pending.length === 0) continue;
    // The key only where a row of the chunk is done: a first run (every chunk) needs none here,
    // and each is worked out as its chunk is sent, while the others are on the wire.
    let key: string | undefined;
    const asBefore = rowsOfChunk.every((r) => {
      const done = journal.get(idOf(r));
      return done ? done.sent === (key ??= chunkKey(journal, rowsOfChunk)) : journal.failedAttempts(idOf(r)) === 0;
    });
    if (asBefore) chunks.push(rowsOfChunk);
    else leftovers.push(...pending);
  }
  // One by one, not push(...): a rerun may leave more chunks than a call takes arguments.
  for (const chunk of chunkRows(leftovers, size, group)) chunks.push(chunk);
  return byFirstLine(chunks);
}

const byFirstLine = <T>(chunks: ChunkRow<T>[][]) => chunks.sort((a, b) => a[0].line - b[0].line);

export function chunkKey<T>(journal: Journal, rows: ChunkRow<T>[]): string {
  return journal.key(...rows.map((r) => `${idOf(r)}#${journal.failedAttempts(idOf(r))}\u0001${JSON.stringify(r.payload)}`));
}

/** The key of the request an earlier run sent a row in: with its answer (done) or without (unknown). */
function sentIn<T>(journal: Journal, row: ChunkRow<T>): string | undefined {
  return journal.get(idOf(row))?.sent ?? journal.sentKeyOf(idOf(row));
}

/** Whether every row went in one earlier request, that of `key`. */
const allSentIn = <T>(journal: Journal, rows: ChunkRow<T>[], key: string) => rows.every((r) => sentIn(journal, r) === key);

/** The key a chunk goes out under: that of the earlier request its rows all went in, or its own. */
function sendingKey<T>(journal: Journal, rows: ChunkRow<T>[]): string {
  const earlier = sentIn(journal, rows[0]!);
  return earlier !== undefined && allSentIn(journal, rows, earlier) ? earlier : chunkKey(journal, rows);
}

export function sendInChunks<T>(ctx: Context, run: ChunkRun<T>): Promise<void> {
  const connections = Math.max(1, Math.min(run.concurrency, Math.ceil(run.rows.length / run.size)));
  return withBulkRun(
    ctx,
    {
      ...run,
      connections,
      stoppedBeforeSending: (err) => stoppedBeforeChunks(ctx, run, err),
    },
    (client, journal) => sendRows(ctx, client, journal, run),
  );
}

/**
 * How a chunked run ends when stopped before its first row went out (as reportsStopBeforeSending
 * says): every row not sent, the report, the summary and the rerun hint. Also for what a command
 * asks the service before its run opens (the role names of invitations).
 */
export function stoppedBeforeChunks<T>(ctx: Context, run: Pick<ChunkRun<T>, 'rows' | 'noun' | 'verb' | 'report' | 'invalid'>, err: unknown): Promise<void> {
  // Every row not sent: a RowOutcomes starts so.
  return finishBulk(ctx, { outcomes: new RowOutcomes(run.rows), ...stoppedEarly(err) }, { noun: run.noun, verb: run.verb, report: run.report, invalid: run.invalid });
}

async function sendRows<T>(ctx: Context, client: ApiClient, journal: Journal, run: ChunkRun<T>): Promise<void> {
  const outcomes = new RowOutcomes(run.rows);
  // Rows done before this run: reported as skipped, never journaled again, even when their
  // chunk is sent again whole for the others' sake.
  let pending = run.rows.length;
  let unknown = 0;
  // A first run (a blank journal) has nothing to look up.
  if (!journal.blank) {
    for (const row of run.rows) {
      const earlier = journal.get(idOf(row));
      if (earlier) {
        outcomes.set(row, 'skipped', earlier.id);
        pending--;
      }
      if (journal.wasUnknown(idOf(row))) unknown++;
    }
  }
  const doneBefore = (row: ChunkRow<T>) => outcomes.statusOf(row) === 'skipped';
  const plan = planChunks(run.rows, run.size, journal, run.group);
  announceRun(ctx, { total: run.rows.length, pending, unknown, requests: plan.length, noun: run.noun, verb: run.verb, concurrency: run.concurrency, rateLimit: client.rateLimit });

  const units: Unit<ChunkRow<T>[]>[] = plan.map((rows) => ({
    key: `lines ${rows[0].line}-${rows[rows.length - 1].line}`,
    lines: rows.map((r) => r.line),
    payload: rows,
  }));

  // The units whose answer came: their rows' outcomes are set from it, when it comes.
  const answered = new Set<Unit<ChunkRow<T>[]>>();
  // Each row is on record for itself (the runner writes what these give, see UnitRecords): as
  // sent in its chunk before the chunk leaves, then with its own answer or the chunk's fate.
  const toSend = (unit: Unit<ChunkRow<T>[]>) => unit.payload.filter((row) => !doneBefore(row));
  // Each unit's key, worked out once: on record with its rows as sent, and on the request.
  const keys = new Map<Unit<ChunkRow<T>[]>, string>();
  const keyOfUnit = (unit: Unit<ChunkRow<T>[]>) => {
    let key = keys.get(unit);
    if (key === undefined) keys.set(unit, (key = sendingKey(journal, unit.payload)));
    return key;
  };
  const records: UnitRecords<ChunkRow<T>[]> = {
    sending: (unit) => toSend(unit).map((row) => ({ key: idOf(row), status: 'unknown', sent: keyOfUnit(unit) })),
    // A chunk refused whole is not a rejection of its rows one by one: sent again, it goes out
    // under the same key, as before the rows were on record as sent.
    ended: (unit, how, error) =>
      toSend(unit).map((row) => (how === 'unknown' ? { key: idOf(row), status: 'unknown', error, sent: keyOfUnit(unit) } : { key: idOf(row), status: 'cleared' })),
  };
  const spinner = await ctx.spinner(`Sending ${run.noun}… 0/${pending}`);
  let rowsDone = 0;
  let sent = 0;
  let result: RunResult;
  try {
    result = await runUnits(units, {
      concurrency: run.concurrency,
      signal: ctx.signal,
      journal,
      records,
      rateLimit: client.rateLimit,
      onStopping: sayStopping(ctx, client),
      work: async (unit) => {
        // Keys are computed before the chunk's rows are journaled, so a retried send keys the
        // same. A payload the send built itself (not one of the rows') is keyed by its content alone.
        const rowOf = new Map(unit.payload.map((r) => [r.payload, r]));
        const payloads = unit.payload.map((r) => r.payload);
        const key = keyOfUnit(unit);
        const keyFor = (some: T[]) =>
          some.length === payloads.length && some.every((p, i) => p === payloads[i]) ? key : chunkKey(journal, some.map((p) => rowOf.get(p) ?? { key: JSON.stringify(p), line: 0, payload: p }));
        // Rows sent before without an answer, edited since: the service keeps the first request.
        const sentBefore = allSentIn(journal, unit.payload, key);
        const results = await run.send(payloads, keyFor, client).catch((err: unknown) => {
          throw sentBefore ? editedSinceSent(err, unit.key, true) : err;
        });
        if (results.length !== payloads.length) throw new Error(`the service answered ${results.length} results for ${payloads.length} rows`);
        if (++sent === 1) warnIfBudgetShort(ctx, client.rateLimit, units.length - 1);
        const rows = unit.payload.map((row, i) => ({ row, r: results[i] })).filter(({ row }) => !doneBefore(row));
        // The answer is kept first: rows that went through are reported so even when the journal fails.
        for (const { row, r } of rows) {
          if (r.ok) outcomes.set(row, 'created', r.id);
          else outcomes.set(row, r.unknown ? 'unknown' : 'rejected', undefined, r.error, r.fields);
        }
        answered.add(unit);
        rowsDone += rows.length;
        spinner.update(`Sending ${run.noun}… ${rowsDone}/${pending}`);
        return {
          records: rows.map(({ row, r }) =>
            r.ok ? { key: idOf(row), status: 'done', id: r.id, sent: key } : { key: idOf(row), status: r.unknown ? 'unknown' : 'failed', error: r.error, sent: key },
          ),
        };
      },
    });
  } finally {
    spinner.stop();
  }

  units.forEach((unit, i) => {
    if (answered.has(unit)) return;
    // The chunk as a whole was refused (a 4xx), went missing (unknown) or never left (not_sent).
    const chunkOutcome = result.outcomes[i];
    const fate = chunkOutcome.status === 'skipped' || chunkOutcome.status === 'created' ? 'not_sent' : chunkOutcome.status;
    const byRow = fate === 'rejected' ? errorsByPosition(chunkOutcome.fields, unit.payload.length) : undefined;
    unit.payload.forEach((row, position) => {
      if (doneBefore(row)) return;
      if (byRow) {
        const own = byRow.get(position);
        if (own) outcomes.set(row, 'rejected', undefined, chunkOutcome.error, own);
        else outcomes.set(row, 'not_sent', undefined, REFUSED_FOR_OTHERS);
        return;
      }
      // Sent by an earlier run without an answer: this run not getting it through leaves it so.
      if (fate === 'not_sent' && journal.wasUnknown(idOf(row))) outcomes.set(row, 'unknown', undefined, chunkOutcome.error ?? SENT_BY_AN_EARLIER_RUN);
      else outcomes.set(row, fate, undefined, chunkOutcome.error, chunkOutcome.fields);
    });
  });
  await finishBulk(ctx, { ...result, outcomes }, { noun: run.noun, verb: run.verb, report: run.report, journalPath: journal.path, fresh: run.fresh, invalid: run.invalid, conflicts: EDITED_SINCE_SENT });
}

const REFUSED_FOR_OTHERS = 'the service refused its request for errors of other rows in it: not created; sent again with them';

/**
 * A request refused whole with errors keyed by a row's place in it (`operations[1].email`, as
 * DRF answers a list): each row's own errors, by position, or undefined when they are not all
 * so keyed (the error is then every row's).
 */
function errorsByPosition(fields: FieldErrors | undefined, count: number): Map<number, FieldErrors> | undefined {
  const keys = Object.keys(fields ?? {});
  if (keys.length === 0) return undefined;
  const byRow = new Map<number, FieldErrors>();
  let list: string | undefined;
  for (const key of keys) {
    const m = /^(\w+)\[(\d+)\](?:\.(.+))?$/.exec(key);
    if (!m || (list ??= m[1]) !== m[1] || Number(m[2]) >= count) return undefined;
    const own = byRow.get(Number(m[2])) ?? {};
    own[m[3] ?? 'non_field_errors'] = fields![key]!;
    byRow.set(Number(m[2]), own);
  }
  return byRow;
}

const STATUSES: readonly Status[] = ['not_sent', 'created', 'updated', 'rejected', 'conflict', 'skipped', 'unknown', 'invalid'];

/**
 * The outcome of each row of a chunked run, in the file's order, made into an Outcome only as
 * the summary and the report read it. A run of a million rows held an object and an array of
 * lines for each (about 100 bytes a row) to the end; here a row costs a status byte and a slot
 * for its id, and only rows with an error hold one. A row never set is `not_sent`.
 */
export class RowOutcomes<T> implements Outcomes {
  private readonly statuses: Uint8Array;
  private readonly ids: (string | number | undefined)[] = [];
  private readonly errors = new Map<number, { error?: string; fields?: FieldErrors }>();

  private readonly rows: readonly ChunkRow<T>[];

  /** `rows` are a file's, each line once; the outcomes are read in line order. */
  constructor(rows: readonly ChunkRow<T>[]) {
    const inOrder = rows.every((row, i) => i === 0 || rows[i - 1].line < row.line);
    this.rows = inOrder ? rows : [...rows].sort((a, b) => a.line - b.line);
    this.statuses = new Uint8Array(rows.length);
    // Filled one by one: an array made at its full length of a million is a dictionary, not a list.
    for (let i = 0; i < rows.length; i++) this.ids.push(undefined);
  }

  get length(): number {
    return this.rows.length;
  }

  set(row: ChunkRow<T>, status: Status, id?: string | number, error?: string, fields?: FieldErrors): void {
    const i = this.indexOf(row);
    this.statuses[i] = STATUSES.indexOf(status);
    this.ids[i] = id;
    if (error !== undefined || fields !== undefined) this.errors.set(i, { error, fields });
    else this.errors.delete(i);
  }

  statusOf(row: ChunkRow<T>): Status {
    return STATUSES[this.statuses[this.indexOf(row)]];
  }

  *[Symbol.iterator](): Iterator<Outcome> {
    for (let i = 0; i < this.rows.length; i++) {
      const row = this.rows[i];
      const e = this.errors.get(i);
      yield { key: row.key, lines: [row.line], status: STATUSES[this.statuses[i]], id: this.ids[i], error: e?.error, fields: e?.fields };
    }
  }

  /** A row's place, found by its line (the rows are in line order). */
  private indexOf(row: ChunkRow<T>): number {
    let lo = 0;
    let hi = this.rows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const line = this.rows[mid].line;
      if (line === row.line) return mid;
      if (line < row.line) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new Error(`line ${row.line} is not a row of this run`);
  }
}
