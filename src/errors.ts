// Every failure sct reports is one of these classes; main() maps them to the spec's exit codes
// in one place (exitCodeFor), so commands only ever throw.
import { formatWait } from './util/format.js';

export type FieldErrors = Record<string, string[]>;

/**
 * What became of a request that changes something and failed without the service's verdict:
 * `not_sent` when sct knows the service did not act on it (refused connection, 429, Ctrl-C
 * before sending), `unknown` when it may have (the answer was lost, cut or unreadable).
 */
export type Delivery = 'not_sent' | 'unknown';

export class SctError extends Error {
  readonly exitCode: number = 1;
  /** HTTP status when the error came from the API, else null. */
  readonly status: number | null = null;
  readonly fields: FieldErrors = {};
  /** Extra lines printed under the message (hints). */
  hint?: string;
  /** Set by the API client on a failed POST, PATCH or DELETE. */
  delivery?: Delivery;
  /** A POST that may have been carried out (`delivery` unknown): the key that learns its outcome without doing it again. */
  idempotencyKey?: string;
  /**
   * A write the service answered with a redirect (not followed, or whose GET failed): why its
   * outcome is unknown. Sent again, with its key or not, it gets the same redirect, so no rerun
   * learns its outcome.
   */
  afterRedirect?: string;
  /**
   * The answer the failure came with, as it came (the token masked): its status, its headers,
   * and its body where it was read. `sct api -i` prints it.
   */
  answer?: { status: number; headers: Record<string, string | string[] | undefined>; text: string };
}

/** Bad flag, missing option, invalid file: found before anything was sent. */
/** The config file exists but cannot be read (not JSON, not sct's shape): doctor reports it as its config check. */
export class ConfigFileError extends SctError {
  // An invalid file, found before anything was sent (the exit codes' "invalid file").
  override readonly exitCode = 2;
}

export class UsageError extends SctError {
  override readonly exitCode = 2;
  override readonly fields: FieldErrors;
  constructor(message: string, fields: FieldErrors = {}, hint?: string) {
    super(message);
    this.name = 'UsageError';
    this.fields = fields;
    this.hint = hint;
  }
}

/** No token, or the service answered 401. */
export class AuthError extends SctError {
  override readonly exitCode = 4;
  override readonly status: number | null;
  constructor(message: string, status: number | null = null, hint?: string) {
    super(message);
    this.name = 'AuthError';
    this.status = status;
    this.hint = hint;
  }
}

/** The API answered with an error status (after retries where they apply). */
export class ApiError extends SctError {
  override readonly exitCode: number;
  override readonly status: number;
  override readonly fields: FieldErrors;
  readonly body: unknown;
  /** The request's method ("POST"), as apiErrorFrom names it. */
  method?: string;
  /** `exitCode`: a 401 is the token's (4), but for a page a write's redirect led to (1). */
  constructor(message: string, status: number, fields: FieldErrors, body: unknown, exitCode = status === 401 ? 4 : 1) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
    this.body = body;
    this.exitCode = exitCode;
  }
}

/** Connection refused/reset, DNS failure, timeout — after retries. */
export class NetworkError extends SctError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/**
 * A file's body that broke on the way: the connection cut or reset, fewer bytes than its
 * Content-Length, a stall. A fault of the network, not of the file: the client asks for the file
 * again from its first byte while the request has retries left (ApiClient.download). `reason` is
 * the message without the request, as a retry's trace line says it.
 */
export class BrokenBodyError extends NetworkError {
  constructor(
    where: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${where}: ${reason}`, options);
    this.name = 'BrokenBodyError';
  }
}

/**
 * A wait the service asks for (429 until the rate limit resets, a 503's Retry-After) longer than
 * what is left of --max-wait: sct stops rather than sleep, and says when to resume.
 */
export class RateLimitError extends SctError {
  /** 429 or 503 as the service answered; null when sct paused on its own, Remaining being 0. */
  override readonly status: number | null;
  readonly resetAt: Date;
  constructor(resetAt: Date, waitMs: number, o: { rateLimit?: boolean; where?: string; answered?: boolean; waited?: number; untold?: boolean; byRetryAfter?: boolean } = {}) {
    const when = formatWhen(resetAt, waitMs);
    // Waits add up against --max-wait: one that alone fits is too long after earlier ones.
    const total = o.waited ? `; with the ${formatWait(o.waited)} waited already, longer than --max-wait` : ', longer than --max-wait';
    super(
      (o.rateLimit === false
        ? `the service is unavailable and asks sct to retry ${when}`
        : o.untold
          ? `rate limit exhausted, and the service gave no reset time: sct's next try would be ${when}`
          : o.byRetryAfter
            ? `rate limit reached: the service asks sct to retry ${when}`
            : `rate limit exhausted: the budget resets ${when}`) + `${total}${o.where ? ` (${o.where})` : ''}`,
    );
    this.name = 'RateLimitError';
    this.status = o.answered === false ? null : o.rateLimit === false ? 503 : 429;
    this.resetAt = resetAt;
    this.hint = 'rerun the command after that time, or allow a longer --max-wait (bulk commands resume where they stopped)';
  }
}

/** The wait of `ms` from `now` that would exceed --max-wait. */
export class WaitTooLongError extends RateLimitError {
  /** `byRetryAfter`: a 429's Retry-After alone asked for the wait (no budget's reset). */
  constructor(why: 'rate-limit' | 'rate-limit-untold' | 'retry-after' | 'budget', ms: number, now: number, where: string, waited = 0, byRetryAfter = false) {
    super(new Date(now + ms), ms, { rateLimit: why !== 'retry-after', where, answered: why !== 'budget', waited, untold: why === 'rate-limit-untold', byRetryAfter });
  }
}

/**
 * A wait that would outlast the command's own --timeout (`dds create --wait`): said at once
 * rather than slept out to the limit. `status` is the answer that asked for it (429, 503), null
 * for sct's own pause at a rate limit with none left.
 */
export class WaitBeyondLimitError extends SctError {
  override readonly status: number | null;
  /** `waitMs`: the wait asked for, which a longer limit must outlast. */
  constructor(
    message: string,
    status: number | null,
    readonly waitMs: number,
  ) {
    super(message);
    this.name = 'WaitBeyondLimitError';
    this.status = status;
  }
}

/** A wait the service asks for beyond this is not a time but a mistake: it is said as "more than a year". */
export const MAX_PLAUSIBLE_WAIT_MS = 366 * 24 * 3_600_000;

function formatWhen(at: Date, waitMs: number): string {
  // Held at a year and a day, the time is sct's, not the service's: never told as its.
  if (waitMs >= MAX_PLAUSIBLE_WAIT_MS) return 'more than a year from now';
  // Whole seconds, rounded up: a wait told as shorter than it is would be retried too early.
  const inText = formatWait(waitMs);
  return Number.isFinite(at.getTime()) ? `at ${at.toISOString()} (in ${inText})` : `in ${inText}`;
}

/** A 2xx answer that is not what the API sends (an HTML page, no JSON, a create without an id). */
export class AnswerError extends SctError {
  override readonly status: number | null;
  /** `status`: the HTTP status of the answer that could not be used, where the service answered. */
  constructor(message: string, status: number | null = null) {
    super(message);
    this.name = 'AnswerError';
    this.status = status;
  }
}

/**
 * --jq could not filter the document (jq's own error, a document too large for it): the document
 * itself is sound, and a write's answer is written without the filter (`sct api`).
 */
export class JqError extends SctError {
  constructor(message: string) {
    super(message);
    this.name = 'JqError';
  }
}

/**
 * A bulk endpoint answered 2xx but rejected the operation sct sent (its per-operation error):
 * the request failed as surely as a 4xx would, so exit 1, with the service's field errors.
 */
export class RejectedError extends SctError {
  override readonly fields: FieldErrors;
  constructor(message: string, fields: FieldErrors) {
    super(message);
    this.name = 'RejectedError';
    this.fields = fields;
  }
}

/**
 * Storage refused the signed link the service handed out (401, 403 or 410 off the base URL's
 * origin: an expired or refused signature). Exit 1: it says nothing of the token.
 */
export class LinkRefusedError extends SctError {
  /** Storage's own status (401, 403 or 410), for -o json's error object. */
  override readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'LinkRefusedError';
    this.status = status;
    this.hint = 'run the command again: it asks the service for a new link';
  }
}

/** A plain http link handed out by a service reached over https: never used to send or fetch a file. */
export class PlainLinkError extends SctError {
  constructor(message: string) {
    super(message);
    this.name = 'PlainLinkError';
  }
}

/**
 * A write decided on an earlier reading of an object that has changed since: it is not sent,
 * and the unit ends as `conflict` (a rerun reads and decides again).
 */
export class ConflictError extends SctError {
  /** The unit went out in an earlier run and may have been carried out: it stays on record as sent (unknown), so no later run sends it under another key. */
  readonly sentBefore: boolean;
  /**
   * The unit went through in an earlier run as this object, gone from the service since: on
   * record as done, so a later run sends it anew under a new key (under the old one the service
   * would only replay its first answer).
   */
  readonly madeAs?: string | number;
  /** The object on the service the conflict is about, where sct knows it: the row's `id`. */
  readonly id?: string | number;
  constructor(message: string, o: { sentBefore?: boolean; madeAs?: string | number; id?: string | number } = {}) {
    super(message);
    this.name = 'ConflictError';
    this.sentBefore = o.sentBefore ?? false;
    this.madeAs = o.madeAs;
    this.id = o.id ?? o.madeAs;
  }
}

/** Some rows of a bulk command were rejected, the others went through. */
export class PartialFailureError extends SctError {
  override readonly exitCode = 3;
  override readonly fields: FieldErrors;
  constructor(message: string, fields: FieldErrors = {}) {
    super(message);
    this.name = 'PartialFailureError';
    this.fields = fields;
  }
}

/** Ctrl-C. */
export class InterruptedError extends SctError {
  override readonly exitCode = 130;
  constructor(message = 'interrupted') {
    super(message);
    this.name = 'InterruptedError';
  }
}

/**
 * Standard output could not be written (a full disk, an I/O error): what the command wrote is cut
 * short, so it never ends with exit 0.
 */
export class OutputError extends SctError {
  constructor(cause: Error) {
    super(`writing output: ${cause.message}`, { cause });
    this.name = 'OutputError';
  }
}

/**
 * The reader of standard output has gone (`sct … | head`): there is nobody left to write to, so
 * the command ends quietly. A bulk run catches it and still ends as its rows make it.
 */
export class ClosedPipeError extends SctError {
  override readonly exitCode = 0;
  constructor() {
    super('the reader of standard output has gone');
    this.name = 'ClosedPipeError';
  }
}

/**
 * The user answered no to a confirmation: nothing was sent. Exit 2, as gh does for a cancelled
 * prompt — a script can tell it from success and from a failed request.
 */
export class CancelledError extends SctError {
  override readonly exitCode = 2;
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof SctError) return err.exitCode;
  if (isAbortError(err)) return 130;
  return 1;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR');
}
