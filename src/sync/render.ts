// The plan as people and scripts read it, and what it costs.
//
// - table (a terminal): one row per create, per changed field of an update (`field: old → new`)
//   and per object only on the service (at a terminal the first 20: a service holds many more
//   objects than a night's file changes; into a pipe all); the unchanged are counted, not listed.
// - json: one object {create, update, unchanged, only_on_service, requests, reads, rate_limit}
//   where `requests` is how many writes the plan needs (cli-spec.md), `reads` what reading the
//   service took.
// - ndjson, csv: one row per object of the file and per object only on the service, with its
//   action.
// The counts, the cost and the rate-limit outlook go to stderr as info lines.
import { tokenOf, type Context } from '../context.js';
import type { RateLimitState } from '../api/retry.js';
import { formatDuration } from '../util/format.js';
import { createListWriter, writeOne, type ListWriter } from '../output/format.js';
import { cleanCell } from '../util/sanitize.js';
import { valueWithoutToken } from '../util/redact.js';
import { stopEvery, stopPoint } from '../util/process.js';
import { lineRanges } from '../bulk/report.js';
import { writesOf, type Change, type Plan, type PlannedCreate } from './plan.js';

const TABLE_ONLY_ON_SERVICE = 20;

const COLUMNS = [
  { header: 'ACTION', path: 'action' },
  { header: 'EXTERNAL ID', path: 'external_id' },
  { header: 'ID', path: 'id' },
  { header: 'CHANGE', path: 'change' },
];

export interface PlanContext {
  /** What is synced, plural ("purchase orders"). */
  noun: string;
  reads: number;
  rateLimit: RateLimitState;
  /**
   * false: the plan is about to be applied in a format for scripts, whose stdout is then the
   * run's results (with -o json inside the plan's object, written once the run is over; one
   * NDJSON or CSV table): the plan is only summarised on stderr here.
   */
  data?: boolean;
  /** Info lines said between the plan and its summary (what the sync left out, and why). */
  notes?: string[];
}

export type PlanObject = ReturnType<typeof planObject>;

export function planObject(plan: Plan, o: PlanContext, now: number) {
  return {
    create: plan.create.map((c) => ({ external_id: c.key, lines: c.lines, body: c.body })),
    update: plan.update.map((u) => ({ external_id: u.key, id: u.id, lines: u.lines, changes: u.changes, body: u.body })),
    unchanged: plan.unchanged.map((u) => ({ external_id: u.key, id: u.id, lines: u.lines })),
    only_on_service: plan.onlyOnService,
    requests: writesOf(plan),
    reads: o.reads,
    rate_limit: {
      limit: o.rateLimit.limit ?? null,
      remaining: o.rateLimit.remaining ?? null,
      resets_at: o.rateLimit.reset !== undefined && o.rateLimit.reset * 1000 > now ? new Date(o.rateLimit.reset * 1000).toISOString() : null,
    },
  };
}

/** Writes a plan as it is made: each create as it is planned (create), the rest once it is made (end). */
export interface PlanWriter {
  create(c: PlannedCreate): void;
  /** Waited for after each object of the file: writes the rows made so far when a batch is full. */
  afterEach: () => Promise<void> | undefined;
  /** The plan made: its other rows, then its notes and summary. */
  end(plan: Plan): Promise<void>;
}

/**
 * The plan's writer. With -o json the plan is one document, written whole at the end (its
 * creates kept for it); in the other formats the creates are written a thousand at a time as
 * they are planned, and the updates, the unchanged and the objects only on the service after
 * them, in the same list: the rows, their order and the table are those of a plan written whole.
 */
export function planWriter(ctx: Context, o: PlanContext): PlanWriter {
  const format = ctx.format();
  const rowsOn = o.data !== false && format !== 'json';
  // The lines as in -o json (an array) in NDJSON; a CSV cell holds them as "2 3" ("2..8001": a range).
  const lines = (l: number[]) => (format === 'csv' ? lineRanges(l, ' ') : l);
  let list: ListWriter | undefined;
  let batch: Array<Record<string, unknown>> = [];
  // With -o json (or no rows shown) nothing is written while planning: a stop point all the same.
  const pause = stopEvery(ctx.signal, PLAN_BATCH);
  // A token in a file's cell (a description it was pasted into) is never printed: the plan shows
  // the file's values, as a dry run's requests do, masked alike.
  const token = tokenOf(ctx);
  const flush = async () => {
    // A plan of a million rows is seconds of output: a stop signal ends it between two batches.
    await stopPoint(ctx.signal);
    const rows = valueWithoutToken(batch, token);
    batch = [];
    list ??= createListWriter(ctx.io, ctx.output(COLUMNS));
    return list.write(rows);
  };
  return {
    create(c) {
      if (!rowsOn) return;
      if (format === 'table') batch.push({ action: 'create', external_id: c.key, id: '', change: Array.isArray(c.body.items) ? `new, ${c.body.items.length} item${c.body.items.length === 1 ? '' : 's'}` : 'new' });
      else batch.push({ action: 'create', external_id: c.key, id: null, lines: lines(c.lines), changes: null });
    },
    afterEach: () => (batch.length >= PLAN_BATCH ? flush() : pause()),
    async end(plan) {
      if (o.data === false) {
        // Nothing on stdout: it carries the results.
      } else if (format === 'json') {
        await stopPoint(ctx.signal);
        await writeOne(ctx.io, valueWithoutToken(planObject(plan, o, ctx.now()), token), ctx.output(COLUMNS));
      } else if (format === 'ndjson' || format === 'csv') {
        for (const u of plan.update) batch.push({ action: 'update', external_id: u.key, id: u.id, lines: lines(u.lines), changes: u.changes });
        for (const u of plan.unchanged) batch.push({ action: 'unchanged', external_id: u.key, id: u.id, lines: lines(u.lines), changes: null });
        for (const s of plan.onlyOnService) batch.push({ action: 'only_on_service', external_id: s.external_id ?? null, id: s.id ?? null, lines: null, changes: null });
        await flush();
        await list!.end();
      } else {
        for (const u of plan.update) {
          u.changes.forEach((ch, i) => batch.push(i === 0 ? { action: 'update', external_id: u.key, id: u.id, change: changeText(ch) } : { change: changeText(ch) }));
        }
        // At a terminal the first 20; into a pipe, as every table there, nothing cut.
        const shown = ctx.io.stdoutIsTTY ? TABLE_ONLY_ON_SERVICE : plan.onlyOnService.length;
        for (const s of plan.onlyOnService.slice(0, shown)) batch.push({ action: 'only on service', external_id: s.external_id, id: s.id, change: s.name ?? '' });
        // A plan of no rows is no table.
        if (batch.length || list) await flush();
        await list?.end();
        const more = plan.onlyOnService.length - shown;
        if (more > 0) await ctx.io.note(`… and ${more} more only on the service (-o json or csv lists them all)`);
      }
      for (const note of o.notes ?? []) await ctx.io.note(note);
      await ctx.io.note(summaryLine(plan, o.noun));
      if (plan.notCompared.length) {
        await ctx.io.note(`not compared, as the service does not return them (sent only with a create): ${plan.notCompared.join(', ')}`);
      }
    },
  };
}

/** Rows of a plan written at a time, as a list's: a million rows' text is never held at once. */
const PLAN_BATCH = 1000;

function summaryLine(plan: Plan, noun: string): string {
  const parts = [`${plan.creates} to create`, `${plan.update.length} to update`, `${plan.unchanged.length} unchanged`];
  if (plan.onlyOnService.length) parts.push(`${plan.onlyOnService.length} only on the service (kept: sync never deletes)`);
  return `plan for ${noun}: ${parts.join(', ')}`;
}

/** `field: old → new`, values as a person reads them. */
export function changeText(ch: Change): string {
  if (ch.old === null && ch.new !== null && typeof ch.new === 'object' && !Array.isArray(ch.new)) return `${ch.field}: new ${valueText(ch.new)}`;
  if (typeof ch.old === 'string' && typeof ch.new === 'string') {
    const alike = alikeText(ch.old, ch.new);
    if (alike) return `${ch.field}: ${alike}`;
  }
  return `${ch.field}: ${valueText(ch.old)} → ${valueText(ch.new)}`;
}

/** Characters a terminal shows as nothing, or as a space in a cell: format and control characters. */
const UNSEEN = /[\p{Cf}\p{Cc}\u2028\u2029]/gu;

/**
 * Two texts a plan's cell would print alike (a zero-width space, a byte-order mark, CR LF for
 * LF, a letter and its accent composed or not): the change said so that it can be judged, or
 * undefined for texts that look different.
 */
function alikeText(old: string, neu: string): string | undefined {
  const seen = (s: string) => cleanCell(s).replace(UNSEEN, '');
  if (seen(old) === seen(neu)) {
    const spelt = (s: string) => s.replace(UNSEEN, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`);
    return `${spelt(old)} → ${spelt(neu)} (they differ in characters a terminal does not show)`;
  }
  if (seen(old).normalize('NFC') === seen(neu).normalize('NFC')) return `${old} → ${neu} (the same letters, composed differently: Unicode normalisation)`;
  return undefined;
}

function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '(none)';
  if (Array.isArray(v)) return `[${v.map(valueText).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${valueText(x)}`)
      .join(', ')}}`;
  }
  return String(v);
}

/** A reset time as the clock on the wall shows it (14:00), with the date when it is not today. */
function clock(ms: number, now: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const hhmm = `${two(d.getHours())}:${two(d.getMinutes())}`;
  // The local calendar's date, as the time is the local clock's (toISOString's is UTC's).
  return d.toDateString() === new Date(now).toDateString() ? hhmm : `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${hhmm}`;
}

/**
 * `3 writes + 64 reads; 933 requests left this hour (resets 14:00)` and, when the writes need
 * more than is left, when the plan would finish and whether sct waits for it or stops.
 */
export function costLines(o: { writes: number; reads: number; checks?: number; rateLimit: RateLimitState; now: number; maxWaitMs: number }): string[] {
  const { writes, reads, rateLimit: rl, now } = o;
  // The object read again right before its write (an update's, an origin create's): one request each.
  const checks = o.checks ?? 0;
  const needed = writes + checks;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const resetMs = rl.reset !== undefined && rl.reset * 1000 > now ? rl.reset * 1000 : undefined;
  const left = rl.remaining === undefined ? 'the service reports no rate limit' : `${plural(rl.remaining, 'request')} left this hour${resetMs ? ` (resets ${clock(resetMs, now)})` : ''}`;
  const lines = [`cost: ${plural(writes, 'write')} + ${plural(reads, 'read')}${checks ? `, and ${plural(checks, 'read')} right before the writes` : ''}; ${left}`];
  if (rl.remaining === undefined || needed <= rl.remaining || resetMs === undefined) return lines;

  // Past this hour's budget, each further hour gives `limit` more requests.
  const perHour = rl.limit && rl.limit > 0 ? rl.limit : Math.max(rl.remaining, 1);
  const resets = Math.ceil((needed - rl.remaining) / perHour);
  const finish = resetMs + (resets - 1) * 3_600_000;
  const firstWait = resetMs - now;
  const longestWait = resets > 1 ? Math.max(firstWait, 3_600_000) : firstWait;
  const what = checks ? `${plural(needed, 'request')} (${plural(writes, 'write')}, ${plural(checks, 'read')} before them)` : plural(writes, 'write');
  const head = `the plan needs ${what} but ${rl.remaining} ${rl.remaining === 1 ? 'is' : 'are'} left this hour: it would finish after ${clock(finish, now)}${resets > 1 ? ` (${resets} budget resets away)` : ''}`;
  const rerun = `(or with a longer --max-wait) to continue — the rerun reads the service again (${plural(reads, 'request')}) and plans only what is left`;
  if (longestWait <= o.maxWaitMs) {
    lines.push(`${head}; sct waits for the budget (${formatDuration(firstWait)}, within --max-wait ${formatDuration(o.maxWaitMs)})`);
  } else if (firstWait <= o.maxWaitMs) {
    // The first reset is waited for; the hour after it is not.
    lines.push(
      `${head}; sct waits for the first reset (${formatDuration(firstWait)}), but the next wait, an hour, is longer than --max-wait (${formatDuration(o.maxWaitMs)}), so the run stops when that budget is spent: ` +
        `rerun after ${clock(resetMs + 3_600_000, now)} ${rerun}`,
    );
  } else {
    lines.push(
      `${head}; waiting ${formatDuration(firstWait)} is longer than --max-wait (${formatDuration(o.maxWaitMs)}), so the run stops when the budget is spent: ` +
        `rerun after ${clock(resetMs, now)} ${rerun}`,
    );
  }
  return lines;
}
