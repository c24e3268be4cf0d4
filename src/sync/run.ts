// One sync, whatever the resource: read the service, plan, print the plan and its cost, ask,
// and apply the writes through the bulk runner (journal, Idempotency-Keys, report, exit 3 on
// rejections, 130 on Ctrl-C).
//
// Why a rerun converges: the plan is made from the service's state each time, never from a
// journal, so whatever an interrupted run got through is found on the service and not planned
// again. The journal only keeps the Idempotency-Keys stable: a create whose answer was lost is
// planned again (if the service's list does not show it) and resent under the key it went out
// with, so the service replays it instead of creating a second object. A create that went
// through in an earlier run and is planned again (the object was deleted since) gets a new
// attempt number, hence a new key: a replay would answer with the deleted object.
import type { Context } from '../context.js';
import type { ApiClient } from '../api/client.js';
import type { Journal } from '../bulk/journal.js';
import { checkStillActingIn, reportsStopBeforeSending, stoppedEarly, withBulkRun } from '../bulk/open.js';
import { runUnits, type Outcome, type Unit } from '../bulk/runner.js';
import { finishBulk, invalidCount } from '../bulk/report.js';
import { announceRun, nameItemLines, sayStopping, unitKey } from '../bulk/import.js';
import { ApiError, CancelledError, ConflictError, PartialFailureError } from '../errors.js';
import { endDryRun, RowErrors } from '../bulk/csv.js';
import { fileLabel } from '../util/files.js';
import { countOf } from '../util/format.js';
import { addObjectProblems, Planner, snapshotOf, unchangedSince, uncreatable, writesOf, type FileObjects, type ObjectProblems, type Plan, type Snapshot, type SyncSpec } from './plan.js';
import { readService, type ServiceSource, type ServiceState } from './read.js';
import { same } from './normalise.js';
import { costLines, planObject, planWriter, type PlanObject } from './render.js';
import { addsItems } from '../api/schemas/orders.js';
import { savedObject } from '../api/answers.js';

export interface SyncRun {
  /** Names the journal, the lock and the keys ("orders-sync-purchase"). */
  command: string;
  file: string;
  /** What is synced, plural ("purchase orders"). */
  noun: string;
  objects: FileObjects;
  spec: SyncSpec;
  source: ServiceSource;
  createPath: string;
  updatePath: (id: number) => string;
  /** Where one object is read again right before it is written. */
  readPath: (id: number) => string;
  dryRun?: boolean;
  concurrency: number;
  /** Pages of the listing under way at once (--parallel). */
  parallel: number;
  fresh?: boolean;
  report?: string;
  /** The rows --skip-invalid left out, for the report. */
  invalid?: Outcome[];
  skipInvalid?: boolean;
}

type Write = { action: 'create'; body: Record<string, unknown> } | { action: 'update'; id: number; body: Record<string, unknown>; planned: Snapshot };

/**
 * Whether a sync's plan is to be applied: not a dry run, and --yes or a terminal to ask at.
 * Without a terminal and without --yes the plan is shown, then exit 2.
 */
function appliesPlan(ctx: Context, dryRun: boolean | undefined): boolean {
  return !dryRun && (ctx.flags.yes || ctx.io.canPrompt());
}

/**
 * Whether a sync keeps its file's objects: a plan to apply sends its creates, and a plan written
 * as one JSON document lists them; else the file is read again as the plan is made, and none is
 * held (FileObjects).
 */
export function holdsObjects(ctx: Context, dryRun: boolean | undefined): boolean {
  return appliesPlan(ctx, dryRun) || ctx.format() === 'json';
}

export async function runSync(ctx: Context, run: SyncRun): Promise<void> {
  // A plan that is only shown takes no lock and asks nobody who the token is: it costs the
  // reads and nothing else.
  const applying = appliesPlan(ctx, run.dryRun);
  const name = run.file === '-' ? 'the file' : run.file;
  const unit = run.objects.unit ?? 'row';
  if (!applying) {
    const { plan } = await readAndPlan(ctx, run, false);
    if (!run.dryRun && writesOf(plan) > 0) await confirm(ctx, plan);
    if (run.dryRun) endDryRun(name, run.invalid, unit);
    // Nothing to write for the valid rows, and rows left out: exit 3, as the same file with
    // --yes or --dry-run ends.
    if (run.invalid?.length) throw new PartialFailureError(`${name}: ${invalidCount(run.invalid.length, unit)} left out (--skip-invalid); the valid ${unit}s need no change`);
    return;
  }
  // Stopped (Ctrl-C, SIGTERM, a read that failed) before the first write (while the service was
  // read, or at the question after the plan): nothing was sent, and the summary, the report and
  // the rerun hint say so of every row. With -o json, stdout is the plan's object with its
  // `results`, or `{"results": …}` where no plan was made.
  const stoppedBeforeSending = async (err: unknown, planned?: (results: object[]) => object) => {
    const outcomes: Outcome[] = [];
    // A row --skip-invalid left out (found once the service was read, too) is reported invalid, once.
    const leftOut = new Set(run.invalid?.map((o) => o.lines[0]));
    await run.objects.each((o) => void (leftOut.has(o.lines[0]!) || outcomes.push({ key: o.key, lines: o.lines, status: 'not_sent' })));
    const document = planned ?? (ctx.format() === 'json' ? (results: object[]) => ({ results }) : undefined);
    return finishBulk(ctx, { outcomes, ...stoppedEarly(err) }, { noun: run.noun, verb: 'created', report: run.report, invalid: run.invalid, unit, document, replans: true });
  };
  // The file's lock is held from the reads to the last write: a second sync of the same file
  // cannot plan from a state the first is changing.
  await withBulkRun(ctx, { command: run.command, file: run.file, fresh: run.fresh, stoppedBeforeSending }, async (writer, journal, acting) => {
    const { plan, json, state } = await readAndPlan(ctx, run, true).catch(async (err: unknown) => {
      if (reportsStopBeforeSending(err)) await stoppedBeforeSending(err);
      throw err;
    });
    settleFoundCreates(ctx, journal, run, state);
    // With -o json, stdout is the plan as step 3 prints it, the run's results in it (`results`).
    const document = json && ((results: object[]) => ({ ...json, results }));
    if (writesOf(plan) === 0) {
      ctx.io.info(run.invalid?.length ? `nothing to do for the valid ${unit}s: the service matches them (${invalidCount(run.invalid.length, unit)} left out)` : `nothing to do: the service matches ${name}`);
      // A script reading the results gets an empty list (and --report an empty report), as
      // from any run that wrote nothing.
      if (ctx.format() !== 'table' || run.report || run.invalid?.length) {
        await finishBulk(ctx, { outcomes: [], interrupted: false }, { noun: run.noun, verb: 'created', report: run.report, invalid: run.invalid, document, unit, replans: true });
      }
      return;
    }
    // Stopped at the question (Ctrl-C) or by the read after it: still before the first write,
    // reported as a stop during the reads is (a "no" is no stop: nothing to rerun).
    let appeared: ReadonlyMap<string, number>;
    try {
      await confirm(ctx, plan);
      // A question may wait for minutes: the workspace may have been switched elsewhere (the
      // plan was made in another company), and what a colleague created meanwhile is not created
      // again. (Objects to update are each read again before their PATCH, asked or not.)
      if (!ctx.flags.yes) await checkStillActingIn(ctx.client(), acting, ctx.signal);
      appeared = !ctx.flags.yes && plan.creates > 0 ? await createdSincePlan(ctx, run, plan) : new Map<string, number>();
    } catch (err) {
      if (reportsStopBeforeSending(err)) await stoppedBeforeSending(err, document);
      throw err;
    }
    await apply(ctx, writer, journal, run, plan, appeared, document);
  });
}

async function confirm(ctx: Context, plan: Plan): Promise<void> {
  const what = [plan.creates && `create ${plan.creates}`, plan.update.length && `update ${plan.update.length}`].filter(Boolean).join(' and ');
  if (!(await ctx.confirm(`Apply the plan (${what})?`))) throw new CancelledError('cancelled: nothing was sent');
}

/**
 * The plan, shown; applying with -o json, its JSON object is returned instead of written: it is
 * written with the results once the plan is applied.
 */
async function readAndPlan(ctx: Context, run: SyncRun, applying: boolean): Promise<{ plan: Plan; json?: PlanObject; state: ServiceState }> {
  // The reads go through the ordinary client: Ctrl-C drops a read in flight, which costs nothing.
  const reader = ctx.client();
  const profile = ctx.env.SCT_SYNC_PROFILE ? { start: process.cpuUsage() } : undefined;
  const spinner = await ctx.spinner(`Reading ${run.noun} from the service…`);
  let state: ServiceState;
  try {
    state = await readService(reader, run.source, run.spec, run.objects.keys, {
      signal: ctx.signal,
      parallel: run.parallel,
      onPage: (fetched, count) => spinner.update(`Reading ${run.noun} from the service… ${fetched}${count !== null ? ` of ${count}` : ''}`),
    });
  } finally {
    spinner.stop();
  }
  const read = profile && process.cpuUsage(profile.start);
  const left = await settleInvalid(ctx, run, state);
  for (const [key, ids] of state.duplicates) {
    ctx.io.warn(`${key} is on ${ids.length} ${run.noun} of the service (ids ${ids.join(', ')}): the sync compares the file with ${ids[0]} and leaves the others alone`);
  }
  const notes = state.others > 0 && run.source.othersNote ? [run.source.othersNote(state.others)] : [];
  const format = ctx.format();
  const data = !(applying && format !== 'table');
  const shown = { noun: run.noun, reads: state.reads, rateLimit: reader.rateLimit, notes, data };
  // The file's objects are planned as they are read again, and each create is written as it is
  // planned: a plan that is only shown (a dry run) holds none of its creates, so a file of a
  // million new orders is planned in what the service's objects take. A plan to apply keeps them.
  const planner = new Planner(run.spec, state, holdsObjects(ctx, run.dryRun));
  const out = planWriter(ctx, shown);
  await run.objects.each((o) => {
    if (left.has(o.key)) return;
    const create = planner.add(o);
    if (create) out.create(create);
  }, out.afterEach);
  const plan = planner.done();
  if (profile && read) {
    // SCT_SYNC_PROFILE: the CPU of reading (HTTP, JSON, snapshots) and of planning (matching
    // and diffing, and writing the plan's creates as they are planned), for bench/sync.mjs.
    const planned = process.cpuUsage(profile.start);
    const s = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1e6).toFixed(3);
    const diffing = { user: planned.user - read.user, system: planned.system - read.system };
    ctx.io.error(`sync profile: read ${s(read)} s CPU in ${state.reads} requests, plan ${s(diffing)} s CPU, process ${s(process.cpuUsage())} s CPU so far`);
  }
  // Before the plan is printed, as every invalid row: exit 2 with no plan on stdout (a script
  // would take a plan without the row for the whole), or with --skip-invalid left out of it.
  if (planner.lossy.length) settleProblems(ctx, run, planner.lossy);
  await out.end(plan);
  // After the plan's table, as its summary: inside the pager when one shows the table.
  for (const line of costLines({ writes: writesOf(plan), reads: state.reads, checks: checksOf(run, plan), rateLimit: reader.rateLimit, now: ctx.now(), maxWaitMs: reader.maxWaitMs })) await ctx.io.note(line);
  return { plan, json: applying && format === 'json' ? planObject(plan, shown, ctx.now()) : undefined, state };
}

/**
 * The objects found invalid once the service has been read: those to create that lack a field
 * only a create needs, and what the file's own reader checks against the service's state. They
 * are invalid rows as any other (exit 2 with nothing written, or with --skip-invalid left out of
 * the plan and reported); the other rows are not held up by them. Returns their keys, for the
 * plan to leave out.
 */
async function settleInvalid(ctx: Context, run: SyncRun, state: ServiceState): Promise<Set<string>> {
  const found = [...(await uncreatable(run.objects, state)), ...((await run.objects.againstService?.(state.byKey)) ?? [])];
  if (found.length) settleProblems(ctx, run, found);
  return new Set(found.map((c) => c.key));
}

/** Objects found invalid after the file's own reading: exit 2 with nothing written, or with --skip-invalid left out and reported. */
function settleProblems(ctx: Context, run: SyncRun, found: ObjectProblems[]): void {
  const errors = new RowErrors(fileLabel(run.file), run.objects.unit);
  for (const c of found.sort((a, b) => a.lines[0]! - b.lines[0]!)) {
    if (run.objects.unit === 'feature') errors.name(c.lines[0]!, c.key);
    addObjectProblems(errors, c, c.problems);
  }
  const invalid = errors.settle(ctx, { skipInvalid: run.skipInvalid, report: run.report });
  run.invalid = [...(run.invalid ?? []), ...invalid].sort((a, b) => a.lines[0] - b.lines[0]);
}

/**
 * The journal key of one write: the action, the key and an attempt number, the first one this
 * journal has not seen go through. An interrupted write keeps its number (same Idempotency-Key
 * on the rerun); a write that went through in an earlier sync makes the next one a new attempt.
 */
function attemptKey(journal: Journal, action: string, key: string): string {
  let n = 0;
  while (journal.get(`${action}:${key}#${n}`)) n++;
  return `${action}:${key}#${n}`;
}

/**
 * Creates an earlier run sent without learning their outcome that the service now holds went
 * through: on record as done, so that the key's next create (the object deleted since) is a new
 * attempt under a new Idempotency-Key. Under the old one the service replays its first answer,
 * and the sync reported the deleted object "created" with nothing made.
 */
function settleFoundCreates(ctx: Context, journal: Journal, run: SyncRun, state: ServiceState): void {
  const found: string[] = [];
  for (const journalKey of journal.unknownKeys()) {
    if (!journalKey.startsWith('create:')) continue;
    const key = journalKey.slice('create:'.length, journalKey.lastIndexOf('#'));
    const id = state.byKey.get(key)?.id;
    if (id === undefined) continue;
    journal.record({ key: journalKey, status: 'done', id });
    found.push(`${key} (id ${id})`);
  }
  if (found.length === 0) return;
  ctx.io.info(`${countOf(found.length, run.noun)} an earlier run sent without learning the outcome ${found.length === 1 ? 'is' : 'are'} on the service: ${found.join(', ')}`);
}

/** The keys of the planned creates that the service now holds: one listing, as the plan's. */
/** The creates' keys the service holds now, with the id of the object under each. */
async function createdSincePlan(ctx: Context, run: SyncRun, plan: Plan): Promise<ReadonlyMap<string, number>> {
  const state = await readService(ctx.client(), run.source, run.spec, new Set(plan.create.map((c) => c.key)), { signal: ctx.signal, parallel: run.parallel });
  return new Map([...state.byKey].map(([key, s]) => [key, s.id]));
}

async function apply(ctx: Context, writer: ApiClient, journal: Journal, run: SyncRun, plan: Plan, appeared: ReadonlyMap<string, number>, document?: (results: object[]) => object): Promise<void> {
  // In the file's order, so the writes go out and are reported as every bulk run's rows are.
  const units: Unit<Write>[] = [
    ...plan.create.map((c) => ({ key: c.key, lines: c.lines, journalKey: attemptKey(journal, 'create', c.key), payload: { action: 'create' as const, body: c.body } })),
    ...plan.update.map((u) => ({ key: u.key, lines: u.lines, journalKey: attemptKey(journal, 'update', u.key), payload: { action: 'update' as const, id: u.id, body: u.body, planned: u.planned } })),
  ].sort((a, b) => a.lines[0] - b.lines[0]);
  // Beside the payloads, not in them: a create's content makes its key.
  const itemLinesOf = new Map<string, ReadonlyArray<number | undefined> | undefined>([...plan.create.map((c) => [c.key, c.itemLines] as const), ...plan.update.map((u) => [u.key, u.itemLines] as const)]);
  // Only a create carries an Idempotency-Key to resend under; a PATCH is simply sent again.
  const unknown = units.filter((u) => u.payload.action === 'create' && journal.wasUnknown(u.journalKey!)).length;
  announceRun(ctx, { total: units.length, pending: units.length, unknown, requests: units.length + checksOf(run, plan), noun: run.noun, verb: 'written', concurrency: run.concurrency, rateLimit: writer.rateLimit });

  const spinner = await ctx.spinner(`Syncing ${run.noun}… 0/${units.length}`);
  let result;
  try {
    result = await runUnits(units, {
      concurrency: run.concurrency,
      signal: ctx.signal,
      journal,
      rateLimit: writer.rateLimit,
      work: async (unit) => {
        const w = unit.payload;
        if (w.action === 'create') {
          const made = appeared.get(unit.key);
          if (made !== undefined) throw new ConflictError(`${unit.key} was created on the service since the plan (id ${made}): not created again`, { id: made });
          // Read again right before the write (and before a retry after a 503, a wait for the
          // rate limit), as an update's object is: one created meanwhile (a colleague, another
          // sync) is not created a second time under its key.
          let id;
          try {
            const res = await writer.request<{ id?: number } | null>({
              method: 'POST',
              path: run.createPath,
              body: w.body,
              idempotencyKey: unitKey(journal, unit),
              expect: 'created',
              beforeSend: (refusedBefore) => checkNotCreated(writer, run, unit.key, refusedBefore ? w.body : undefined),
            });
            id = res.data?.id;
          } catch (err) {
            if (err instanceof WrittenMeanwhile) return { id: err.id };
            nameItemLines(err, itemLinesOf.get(unit.key));
            throw takenKey(err, run, unit.key);
          }
          // Sent again under the key of an earlier run that never learnt its outcome: the answer
          // may be the service's replay of that run's create, whose object is gone since.
          if (id !== undefined && journal.wasUnknown(unit.journalKey!)) await checkStillThere(writer, run, unit.key, id);
          return { id };
        }
        // The plan may be minutes old (it waited for a "y"): a PATCH made from it would undo
        // what a colleague changed meanwhile (an item list sent back without their new item
        // deletes it). What changed since is not written; the rerun plans from the new state.
        // Read right before each attempt: a 503's back-off or a wait for the rate limit is time
        // for a colleague too. Items without an id are made by the PATCH: sent twice, they would
        // be made twice.
        let res;
        try {
          res = await writer.request({
            method: 'PATCH',
            path: run.updatePath(w.id),
            body: w.body,
            onceOnly: addsItems(w.body),
            beforeSend: (refusedBefore) => checkUnchanged(writer, run, w.id, w.planned, refusedBefore ? w.body : undefined),
          });
        } catch (err) {
          if (err instanceof WrittenMeanwhile) return { id: w.id, status: 'updated' };
          nameItemLines(err, itemLinesOf.get(unit.key));
          throw err;
        }
        // As `orders update` reads its answer: a list or a bare value is no sign the change was made (unknown, not "updated").
        savedObject(res, 'PATCH', run.updatePath(w.id), run.noun.replace(/s$/, ''));
        return { id: w.id, status: 'updated' };
      },
      onProgress: (done, all, rejected) => spinner.update(`Syncing ${run.noun}… ${done}/${all}${rejected ? ` (${rejected} rejected)` : ''}`),
      onStopping: sayStopping(ctx, writer),
    });
  } finally {
    spinner.stop();
  }
  await finishBulk(ctx, result, { noun: run.noun, verb: 'created', report: run.report, journalPath: journal.path, fresh: run.fresh, invalid: run.invalid, document, unit: run.objects.unit, replans: true });
}

/**
 * A create the service refused because its key is taken (DRF's unique check: `external_id:
 * order with this external id already exists`): created since the plan by someone else, which
 * is a conflict the rerun plans from, not a row to fix. Any other error is itself.
 */
function takenKey(err: unknown, run: SyncRun, key: string): unknown {
  if (!(err instanceof ApiError) || err.status !== 400) return err;
  const said = err.fields[run.source.keyField]?.find((m) => /already exists/i.test(m));
  return said ? new ConflictError(`${key} was created on the service since the plan: not created again (${said})`) : err;
}

/** The reads right before the writes: each update's object, and each create's key where the listing can be asked for one. */
function checksOf(run: SyncRun, plan: Plan): number {
  return plan.update.length + (run.source.keyFilter ? plan.creates : 0);
}

/** Throws ConflictError when the service now holds an object under `key` (where the listing can be asked by key). */
async function checkNotCreated(client: ApiClient, run: SyncRun, key: string, refusedBody?: Record<string, unknown>): Promise<void> {
  const filter = run.source.keyFilter;
  if (!filter) return;
  const page = await client.get<{ results?: Array<{ id?: unknown } & Record<string, unknown>> } | null>(run.source.path, { ...run.source.query, [filter]: key, limit: '1' });
  const found = page?.results?.[0];
  if (!found) return;
  if (refusedBody && typeof found.id === 'number' && holds(run, refusedBody, found)) throw new WrittenMeanwhile(found.id);
  throw new ConflictError(`${key} was created on the service since the plan (id ${String(found.id)})${refusedBody ? MAYBE_THIS_WRITE : ''}: not created again`, { id: objectId(found.id) });
}

/**
 * What a write's recheck found when an earlier attempt was answered 503 and the service now holds
 * what the write sends: the write went through (a proxy passed it on, then answered 503 for the
 * service), and is not sent again. Not an SctError: the client hands it to the caller as it is.
 */
class WrittenMeanwhile extends Error {
  constructor(readonly id: number) {
    super('written meanwhile');
  }
}

/** An id as the service gave it, where it is one (a number or a string), for a result's `id`. */
function objectId(id: unknown): string | number | undefined {
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

const MAYBE_THIS_WRITE = ' (perhaps by this very write: the service answered an attempt 503, which a proxy in front of it may say after passing the write on)';

/**
 * Whether the object holds every value of a write's body that can be compared: the items of an
 * order cannot be (their ids are the service's), so a body with items never holds.
 */
function holds(run: SyncRun, body: Record<string, unknown>, obj: Record<string, unknown>): boolean {
  const now = snapshotOf(run.spec, run.source.keyField, obj);
  return Object.entries(body).every(([field, value]) => {
    if (field === run.spec.items?.field) return false;
    const how = run.spec.fields[field];
    return field === run.source.keyField || how === undefined || !Object.hasOwn(now, field) || same(how, value, now[field]);
  });
}

/**
 * Throws ConflictError when the object a resent create answered with is not on the service: the
 * earlier run created it and it was deleted since (its key found nothing before the resend). The
 * create is on record as done, so the next run creates the row anew, under a new key.
 */
async function checkStillThere(client: ApiClient, run: SyncRun, key: string, id: number): Promise<void> {
  try {
    await client.get(run.readPath(id));
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    throw new ConflictError(`${key}: the earlier run created it (id ${id}), and it is no longer on the service (deleted since): not created again; the next run creates it anew`, { madeAs: id });
  }
}

/** Reads the object again; throws ConflictError when it is gone or differs from what the plan read. */
async function checkUnchanged(client: ApiClient, run: SyncRun, id: number, planned: Snapshot, refusedBody?: Record<string, unknown>): Promise<void> {
  let now: Record<string, unknown> | null;
  try {
    now = await client.get<Record<string, unknown> | null>(run.readPath(id));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw new ConflictError(`${run.noun.replace(/s$/, '')} ${id} was deleted on the service since the plan: not written`, { id });
    throw err;
  }
  if (!now || !unchangedSince(planned, snapshotOf(run.spec, run.source.keyField, now))) {
    if (now && refusedBody && holds(run, refusedBody, now)) throw new WrittenMeanwhile(id);
    throw new ConflictError(`${run.noun.replace(/s$/, '')} ${id} changed on the service since the plan${refusedBody ? MAYBE_THIS_WRITE : ''}: not written`, { id });
  }
}
