// `sct dds wait ID` and `sct dds create … --wait`: polls a statement until the service has
// finished it. complete → exit 0, failed → exit 1 with the reason from dds_data, still running
// at the deadline → exit 1 naming the last status (after a create, the statement as last seen is
// printed all the same). Every poll goes through the API client, so
// rate-limit pauses and retries apply; Ctrl-C stops at once (exit 130).
import type { Command } from 'commander';
import { DEFAULT_MAX_WAIT_MS, type Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { TimeLimit } from '../../api/request.js';
import { PATHS } from '../../api/paths.js';
import { COLUMNS, DETAILS } from '../../output/columns.js';
import { writeOne } from '../../output/format.js';
import { InterruptedError, SctError, WaitBeyondLimitError } from '../../errors.js';
import { cleanCell, stripControl } from '../../util/sanitize.js';
import { colorStatus } from '../../output/iostreams.js';
import { FINAL_DDS_STATUSES, statementResponseSchema, type DdsStatus, type StatementResponse } from '../../api/schemas/statements.js';
import { parseDuration } from '../shared/flags.js';
import { formatDuration, formatWait } from '../../util/format.js';
import { DEFAULT_WAIT_MS } from './fields.js';

/** The first poll follows the create at once; then 1 s, growing by half each time up to 15 s. */
const FIRST_INTERVAL_MS = 1000;
const MAX_INTERVAL_MS = 15_000;

/**
 * The wait's length: a waiting command's --timeout bounds the whole command (a create's request
 * included). The global --timeout (seconds per request) has the same name, and commander hands
 * the value to whichever option the program defines first — the global one — so on a waiting
 * command a --timeout the user typed is read as the wait's length, and each request keeps the
 * default per-request timeout within it.
 */
export function waitLength(ctx: Context, cmd: Command): number {
  let ms = DEFAULT_WAIT_MS;
  if (cmd.getOptionValueSourceWithGlobals('timeout') === 'cli') {
    ms = parseDuration(String(ctx.flags.timeout), '--timeout');
    ctx.flags.timeout = undefined;
  }
  return ms;
}

/** A limit of `ms` from now. */
export function limitFrom(ctx: Context, ms: number): TimeLimit {
  return { at: ctx.now() + ms, ms };
}

export async function waitCommand(ctx: Context, id: number, cmd: Command): Promise<void> {
  const statement = await pollStatement(ctx, id, limitFrom(ctx, waitLength(ctx, cmd)));
  await finish(ctx, statement);
}

/** After a create with --wait: a statement already final (EUTR) or draft (PPWR) needs no polling. */
export async function waitAfterCreate(ctx: Context, created: unknown, limit: TimeLimit): Promise<void> {
  const s = asStatement(created, 'POST');
  if (s.status === 'draft') {
    ctx.io.info(`statement ${s.id} is a ${statusOnStderr(ctx, 'draft')}: nothing to wait for (it changes only with \`sct dds update ${s.id} --status …\`)`);
    await writeOne(ctx.io, s, { ...ctx.output(COLUMNS.statement), detail: DETAILS.statement });
    return;
  }
  if (FINAL_DDS_STATUSES.includes(s.status as DdsStatus)) return finish(ctx, s);
  // The statement exists whatever the wait comes to: stopped short of a final status (the
  // deadline, Ctrl-C, an error), the command still prints it as last seen, as it prints a failed
  // one, so a script reading its id from stdout does not create another on a rerun.
  let latest = s;
  let final: StatementResponse;
  try {
    final = await pollStatement(ctx, s.id, limit, (seen) => (latest = seen));
  } catch (err) {
    await writeOne(ctx.io, latest, { ...ctx.output(COLUMNS.statement), detail: DETAILS.statement });
    // Stopped (Ctrl-C, SIGTERM from a CI's timeout) or failed while waiting: the error names the
    // statement made, as the deadline's does, so a retry waits for it rather than creating another.
    // (The deadline's own error names it already.)
    if (err instanceof SctError && !err.hint?.includes(`sct dds wait ${s.id}`)) {
      err.message = `${err.message} (statement ${s.id} was created; it was ${cleanCell(String(latest.status))})`;
      const wait = `keep waiting with \`sct dds wait ${s.id}\`; running this create again makes another statement`;
      err.hint = err.hint ? `${err.hint}; then ${wait}` : wait;
    }
    throw err;
  }
  await finish(ctx, final);
}

/** Prints the final statement; a failed one then fails the command with its reason. */
async function finish(ctx: Context, s: StatementResponse): Promise<void> {
  await writeOne(ctx.io, s, { ...ctx.output(COLUMNS.statement), detail: DETAILS.statement });
  if (s.status === 'failed') {
    throw new SctError(`statement ${s.id} failed: ${failureReason(s.dds_data)}`);
  }
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Statement ${s.id} is ${statusOnStderr(ctx, 'complete')}${s.dds_identifier ? ` (${cleanCell(s.dds_identifier)})` : ''}`);
}

async function pollStatement(ctx: Context, id: number, limit: TimeLimit, seen?: (s: StatementResponse) => void): Promise<StatementResponse> {
  const client = ctx.client();
  const started = ctx.now();
  const { at: deadline, ms: timeoutMs } = limit;
  const spinner = await ctx.spinner(`Waiting for statement ${id}…`);
  let interval = FIRST_INTERVAL_MS;
  try {
    let last: string | undefined;
    for (;;) {
      const s = asStatement(await pollOnce(ctx, client, id, limit, (asked) => timedOut(id, timeoutMs, last, asked)), 'GET', id);
      last = s.status;
      seen?.(s);
      if (FINAL_DDS_STATUSES.includes(s.status as DdsStatus)) return s;
      if (s.status === 'draft') {
        const err = new SctError(`statement ${id} is a draft: it does not change by itself, so there is nothing to wait for`);
        err.hint = `move it on with \`sct dds update ${id} --status …\``;
        throw err;
      }
      const left = deadline - ctx.now();
      if (left <= 0) throw timedOut(id, timeoutMs, s.status);
      spinner.update(`Statement ${id} is ${statusOnStderr(ctx, stripControl(s.status))}… ${formatDuration(ctx.now() - started)}`);
      if (ctx.signal.aborted) throw new InterruptedError();
      try {
        await ctx.sleep(Math.min(interval, left), ctx.signal);
      } catch {
        throw new InterruptedError();
      }
      interval = Math.min(Math.round(interval * 1.5), MAX_INTERVAL_MS);
    }
  } finally {
    spinner.stop();
  }
}

/**
 * A status in a message, coloured as tables colour it when stderr has colour. Error messages
 * stay plain: their text is also the `error` of the JSON error object.
 */
function statusOnStderr(ctx: Context, status: string): string {
  return colorStatus(ctx.io.colorErr, status);
}

function asStatement(data: unknown, method: string, id?: number): StatementResponse {
  const where = `unexpected answer from ${method} ${id === undefined ? PATHS.statements : PATHS.statement(id)}`;
  const parsed = statementResponseSchema.safeParse(data);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    throw new SctError(`${where}: not a statement${typeof field === 'string' ? ` (${(data as Record<string, unknown>)[field] === undefined ? 'no' : 'a bad'} ${field})` : ''}`);
  }
  // Another statement's answer must not end the wait for this one (a script's `wait 1 && submit`).
  if (id !== undefined && parsed.data.id !== id) throw new SctError(`${where}: statement ${parsed.data.id}, not ${id}`);
  // The object as the API sent it (zod's copy would reorder the fields in the output).
  return data as StatementResponse;
}

/** What dds_data says about a failure: its reason (or message, error, detail), else the whole of it. */
export function failureReason(data: unknown): string {
  if (typeof data === 'string' && data.trim()) return stripControl(data);
  if (data && typeof data === 'object') {
    for (const k of ['reason', 'message', 'error', 'detail']) {
      const v = (data as Record<string, unknown>)[k];
      if (typeof v === 'string' && v.trim()) return stripControl(v);
    }
    if (Object.keys(data).length) return stripControl(JSON.stringify(data));
  }
  return 'the service gave no reason';
}

function timedOut(id: number, timeoutMs: number, status: string | undefined, asked?: AskedWait): SctError {
  // The deadline may come while sct waits as the service asked (a 429, a 503's Retry-After):
  // that is what held it, not a statement that does not answer.
  const why = asked
    ? `the service asked sct to wait ${formatWait(asked.ms)} (${asked.why === 'rate-limit' ? 'rate limit reached' : 'service unavailable'}) before asking about statement ${id} again`
    : `statement ${id} ${status === undefined ? 'did not answer' : `is still ${stripControl(status)}`}`;
  const err = new SctError(`timed out after ${formatDuration(timeoutMs)}: ${why}`);
  err.hint = waitLonger(id, asked?.ms);
  return err;
}

/**
 * The rerun with a longer limit: 30 minutes, or past the wait the service asked for (with 5
 * minutes for the statement to finish after it); a wait past a day is no limit to give.
 */
function waitLonger(id: number, askedMs?: number): string {
  if (askedMs !== undefined && askedMs > DAY_MS) return `the service asks for a wait of more than a day: ask again later with \`sct dds wait ${id}\``;
  const minutes = askedMs === undefined ? 30 : Math.max(30, Math.ceil(askedMs / 60_000) + 5);
  // A wait past --max-wait's default is refused by it before the limit: the rerun allows both.
  const maxWait = askedMs !== undefined && askedMs > DEFAULT_MAX_WAIT_MS ? ` --max-wait ${minutes}m` : '';
  return `wait longer with \`sct dds wait ${id} --timeout ${minutes}m${maxWait}\``;
}

const DAY_MS = 86_400_000;

/** How long the poll made at the deadline may take. */
const LAST_POLL_MS = 1_000;

/** A wait the service asked for (a 429's or a 503's Retry-After) during a poll. */
interface AskedWait {
  why: 'rate-limit' | 'retry-after';
  ms: number;
}

/**
 * One GET of the statement, ended when the wait's deadline passes: a service that does not answer
 * would otherwise hold a poll for the per-request timeout and its retries, minutes past a
 * `--timeout 2s`. A wait the service asks for that would outlast the deadline is said at once
 * (waitLimit), as the create's is, rather than announced and slept to the deadline.
 */
async function pollOnce(ctx: Context, client: ApiClient, id: number, limit: TimeLimit, late: (asked?: AskedWait) => SctError): Promise<unknown> {
  const poll = new AbortController();
  let asked: AskedWait | undefined;
  const stop = () => poll.abort();
  // The poll made at the deadline still gets a moment to answer (it may say complete).
  const timer = setTimeout(stop, Math.max(LAST_POLL_MS, limit.at - ctx.now()));
  // Ctrl-C reaches the request through the client, which has the run's signal too.
  try {
    return (await client.request({ path: PATHS.statement(id), signal: poll.signal, waitLimit: limit, onWait: (why, ms) => (asked = { why, ms }) })).data;
  } catch (err) {
    if (poll.signal.aborted && !ctx.signal.aborted) throw late(asked);
    if (err instanceof WaitBeyondLimitError) err.hint = waitLonger(id, err.waitMs);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
