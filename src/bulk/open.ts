// The start of every bulk run, before its first row is sent: the file's run lock, then who the
// token acts for (one GET /accounts/me, while the connections of the run's requests in flight
// are opened), then the journal of that user and workspace. The connection that GET takes is
// opened sooner still, as the command starts (src/bulk/connect.ts).
import type { ApiClient } from '../api/client.js';
import type { Context } from '../context.js';
import { PATHS } from '../api/paths.js';
import { asMe } from '../api/me.js';
import { AnswerError, ApiError, InterruptedError, NetworkError, RateLimitError, SctError } from '../errors.js';
import { fileIdentity, Journal, lockRun } from './journal.js';
import { BULK_CLIENT } from './connect.js';

export interface OpenRun {
  command: string;
  file: string;
  fresh?: boolean;
  /**
   * The most requests the run will have out at once: their connections are opened while it
   * waits for GET /accounts/me, so the first of them do not wait a round trip after it.
   */
  connections?: number;
  /** The workspace the profile was switched to (`workspaces switch`), when its own token is used. */
  recorded?: { profile: string; workspace: string };
  /**
   * Reports a run that stopped once it held the file's lock, before its first row went out
   * (Ctrl-C, SIGTERM, or GET /accounts/me failing as reportsStopBeforeSending says): the report,
   * the summary and the rerun hint, every row not sent. Not for a run refused the lock: the
   * report is the other run's.
   */
  stoppedBeforeSending?: (err: unknown) => Promise<void>;
}

/**
 * Whether a run stopped by err before its first row went out reports every row not sent, with
 * the rerun hint: stopped by a signal, or by a failure a rerun gets past (the service down or
 * slow, its rate limit, an answer lost or unreadable). Not a bad file (its report is written
 * already), a refused token or a switched workspace: rerunning as is would not help.
 */
export function reportsStopBeforeSending(err: unknown): boolean {
  return (
    err instanceof InterruptedError ||
    err instanceof NetworkError ||
    err instanceof RateLimitError ||
    err instanceof AnswerError ||
    (err instanceof ApiError && (err.status >= 500 || err.status === 408))
  );
}

/**
 * How a run stopped before its first row went out ends: as the signal's, or with the error.
 * Its finishBulk is given no `fresh`: the new generation of a --fresh run begins when the journal
 * opens, which it did not, so the rerun hint keeps --fresh.
 */
export function stoppedEarly(err: unknown): { interrupted: boolean; fatal?: Error } {
  if (err instanceof InterruptedError) return { interrupted: true };
  return { interrupted: false, fatal: err instanceof Error ? err : new Error(String(err)) };
}

/** Whom a run's token acts for: the user and workspace its journal is kept under, and the workspace's company. */
export interface ActingIn {
  user: string | number;
  workspace: string | number;
  company?: number;
}

/** The membership the token acts in (a switch changes it); the company stands in where a service does not say. */
async function actingIn(client: ApiClient, signal?: AbortSignal): Promise<ActingIn> {
  // A read, before anything is sent: Ctrl-C abandons it at once (the run's writes, once sent,
  // are let finish so their outcome is known; this one has none).
  const me = asMe((await client.request({ path: PATHS.me, signal })).data);
  if (!me) throw new AnswerError(`GET ${PATHS.me}: the answer is not a user profile, so sct cannot tell whose run this is`);
  return { user: me.id, workspace: me.active_user_company_id ?? (me.company ? `company ${me.company.id}` : 'none'), company: me.company?.id };
}

/**
 * Throws when the token acts in another workspace than `before`: the service keeps one active
 * workspace per user, which the web app or another terminal may have switched while a plan
 * waited for its answer, and the run would write into another company.
 */
export async function checkStillActingIn(client: ApiClient, before: ActingIn, signal?: AbortSignal): Promise<void> {
  const now = await actingIn(client, signal);
  if (now.workspace === before.workspace) return;
  const name = (a: ActingIn) => String(a.company ?? a.workspace);
  const e = new SctError(`the service now acts in workspace ${name(now)}, not ${name(before)} as when the plan was made (switched elsewhere meanwhile): nothing was sent`);
  e.hint = `run \`sct workspaces switch ${name(before)}\` and run this again, or run it again as it is to plan in workspace ${name(now)}`;
  throw e;
}

interface OpenedRun {
  journal: Journal;
  /** Whom the token acts for as the run opened. */
  acting: ActingIn;
  /** Gives the file's lock back; call it when the run is over, however it ended. */
  release: () => void;
}

async function openRun(configDir: string, client: ApiClient, o: OpenRun, signal?: AbortSignal): Promise<OpenedRun> {
  // Worked out once: the lock and the journal name the file alike.
  const identity = fileIdentity(configDir, o.file);
  const release = lockRun(configDir, { command: o.command, file: o.file, baseUrl: client.baseUrl, identity });
  try {
    void client.preconnect(o.connections ?? 1);
    const acting = await actingIn(client, signal);
    const { user, workspace, company } = acting;
    // The service keeps one active workspace per user: switched elsewhere since (the web app,
    // another profile of the same user), the run would write into another company.
    // (A workspace is a company id, as `workspaces switch` takes it; the profile's `company` is the active one.)
    if (o.recorded && company !== undefined && String(company) !== o.recorded.workspace) {
      const e = new SctError(`profile "${o.recorded.profile}" is switched to workspace ${o.recorded.workspace}, but the service acts in workspace ${company} (switched since, elsewhere): nothing was sent`);
      e.hint = `run \`sct workspaces switch ${o.recorded.workspace}\` and run this again, or \`sct config unset workspace\` to work in ${company}`;
      throw e;
    }
    const journal = Journal.open(configDir, { command: o.command, file: o.file, baseUrl: client.baseUrl, identity, user, workspace }, o.fresh);
    return { journal, release, acting };
  } catch (err) {
    try {
      if (reportsStopBeforeSending(err)) await o.stoppedBeforeSending?.(err);
    } finally {
      release();
    }
    throw err;
  }
}

/**
 * Runs a bulk run's body with its client and journal, the lock held throughout. Ctrl-C stops
 * new units while one already sent finishes, so the report says what became of it.
 */
export async function withBulkRun(
  ctx: Context,
  run: OpenRun,
  body: (client: ApiClient, journal: Journal, acting: ActingIn) => Promise<void>,
): Promise<void> {
  const client = ctx.client(BULK_CLIENT);
  const s = ctx.settings();
  const recorded = s.tokenSource === 'profile' && s.workspace !== undefined ? { profile: s.profile, workspace: s.workspace } : undefined;
  const { journal, release, acting } = await openRun(ctx.config().dir, client, { ...run, recorded }, ctx.signal);
  try {
    if (journal.repaired) ctx.io.warn(journal.repaired);
    await body(client, journal, acting);
  } finally {
    release();
  }
}
