// The retry policy: which failures are tried again, the backoff between attempts, the waits the
// service asks for (429, Retry-After, X-RateLimit-*) and the --max-wait bound on them.
import type { Headers } from './transport.js';
import type { TimeLimit } from './request.js';
import { InterruptedError, MAX_PLAUSIBLE_WAIT_MS, WaitBeyondLimitError, WaitTooLongError, isAbortError } from '../errors.js';
import { credentialsInText } from '../util/redact.js';
import { formatDuration, formatWait } from '../util/format.js';

export const RETRYABLE_STATUS = new Set([502, 503, 504]);
/** A 429's wait, a Retry-After's, or the pause sct makes itself when the budget is spent (no 429 was sent for it). */
/** What a wait is for: a 429's reset (`rate-limit-untold`: a 429 that gave no time, sct's own back-off), a 503's Retry-After, the budget at 0. */
type WaitReason = 'rate-limit' | 'rate-limit-untold' | 'retry-after' | 'budget';

/**
 * Why a rate-limit wait is made, as its countdown says it: the budget at 0 (sct's pause, or a
 * 429 with an X-RateLimit-Reset), a 429 with a Retry-After alone, a 429 that gave no time.
 */
export type RateLimitCause = 'budget' | 'retry-after' | 'untold';

export interface RateLimitState {
  limit?: number;
  remaining?: number;
  /** Unix seconds. */
  reset?: number;
}

/** A wait that Ctrl-C ends with an InterruptedError; its abort listener is removed either way. */
export const abortableSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new InterruptedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The client's settings and clocks a request's retries run by. */
export interface RetryPolicy {
  maxRetries: number;
  retryBaseMs: number;
  /** Longest total wait on the service's say-so (rate limit, Retry-After) for one request. */
  maxWaitMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  random: () => number;
  trace?: (line: string) => void;
  /** Sleeps `ms`, with a countdown on a terminal; `asked` is the service's own figure, for the words. */
  onRateLimitWait?: (ms: number, asked: number, cause: RateLimitCause, signal?: AbortSignal) => Promise<void>;
}

/**
 * One request's retries and waits: the attempts made, the 429s in a row and the time waited on
 * the service's say-so, which --max-wait bounds. Errors thrown here (WaitTooLongError, an
 * InterruptedError from a wait) are the caller's to mark with whether the request may have landed.
 */
export class Retries {
  private attempt = 0;
  private throttled = 0;
  private waited = 0;
  /** Requests that went out: a 429's, a wait's and a back-off's included, as `attempt` does not count them all. */
  private sentCount = 0;
  /** Redirects followed: their hops went out, and are no attempts. */
  private hops = 0;

  constructor(
    private readonly policy: RetryPolicy,
    /** The request, as messages name it ("GET /orders"). */
    private readonly where: () => string,
    /** The request, as the --verbose trace names it (its query too: Call.traced). */
    private readonly traced: () => string,
    private readonly signal: AbortSignal | undefined,
    private readonly onWait?: (why: 'rate-limit' | 'retry-after', ms: number) => void,
    /** The command's own limit, which no wait may outlast (`dds create --wait --timeout`). */
    private readonly limit?: TimeLimit,
  ) {}

  /** A request goes out (an attempt, or the next hop of a redirect). */
  sending(): void {
    this.sentCount++;
  }

  /** A redirect is followed: its next hop goes out within the same attempt. */
  redirected(): void {
    this.hops++;
  }

  /** How many attempts went out. */
  get sent(): number {
    return this.sentCount - this.hops;
  }

  /** Whether an earlier attempt of this request was made. */
  get retried(): boolean {
    return this.attempt > 0;
  }

  /** " (after 4 attempts)" once the request was sent more than once, for the error that ends it; else "". */
  get attemptsSaid(): string {
    return this.sent > 1 ? ` (after ${this.sent} attempts)` : '';
  }

  /** Whether a failed attempt may be tried again. */
  get left(): boolean {
    return this.attempt < this.policy.maxRetries;
  }

  /**
   * A wait the service asked for, counted against --max-wait. `asked` is the service's own figure,
   * which messages say and the limits are judged by; `ms` may add sct's margin to it (throttle).
   * `byRetryAfter`: a 429's Retry-After alone gave it, no reset of the budget.
   */
  async wait(ms: number, why: WaitReason, asked = ms, byRetryAfter = false): Promise<void> {
    // Slept out, it would only end at the limit as a request that got no answer, which it had.
    if (this.limit && this.policy.now() + asked > this.limit.at) throw this.beyondLimit(asked, why);
    // The margin is sct's: where it alone would reach past the limit, the wait is the service's figure.
    if (this.limit && this.policy.now() + ms > this.limit.at) ms = asked;
    if (this.waited + asked > this.policy.maxWaitMs) throw new WaitTooLongError(why, asked, this.policy.now(), this.where(), this.waited, byRetryAfter);
    this.waited += asked;
    this.onWait?.(why === 'retry-after' ? 'retry-after' : 'rate-limit', asked);
    this.policy.trace?.(
      `* ${this.traced()}: ` +
        (why === 'budget'
          ? `rate limit: none left, waiting ${formatWait(asked)} for the reset`
          : why === 'rate-limit-untold'
            ? `rate limit: the service gave no reset time, waiting ${formatWait(asked)} before trying again`
            : `${why === 'rate-limit' ? 'rate limit' : 'service unavailable'}: waiting ${formatWait(asked)} as the service asks`),
    );
    if (why !== 'retry-after' && this.policy.onRateLimitWait) {
      await this.policy.onRateLimitWait(ms, asked, why === 'rate-limit-untold' ? 'untold' : byRetryAfter ? 'retry-after' : 'budget', this.signal);
    }
    else await this.policy.sleep(ms, this.signal);
  }

  private beyondLimit(ms: number, why: WaitReason): WaitBeyondLimitError {
    const asked =
      why === 'budget'
        ? `the rate limit has no request left until its reset in ${formatWait(ms)}`
        : `the service answered ${why === 'retry-after' ? '503 Service Unavailable' : '429 Too Many Requests'} and ${why === 'rate-limit-untold' ? `gave no reset time: sct's next try would be in ${formatWait(ms)}` : `asked sct to wait ${formatWait(ms)}`}`;
    return new WaitBeyondLimitError(`${this.where()}: ${asked}, more than is left of --timeout ${formatDuration(this.limit!.ms)}${this.attemptsSaid}`, why === 'budget' ? null : why === 'retry-after' ? 503 : 429, ms);
  }

  /** After a 429: waits as the service asks, or longer with each 429 in a row when it does not say. */
  throttle(headers: Headers): Promise<void> {
    const { ms, asked, told, byRetryAfter } = throttleWait(headers, this.throttled++, this.policy.now());
    return this.wait(ms, told ? 'rate-limit' : 'rate-limit-untold', asked, byRetryAfter);
  }

  /**
   * Exponential backoff with full jitter before a retry; a Retry-After from the service wins when
   * longer, and then counts against --max-wait like any wait the service asks for.
   */
  async backoff(reason: string, serverHintMs?: number): Promise<void> {
    const attempt = this.attempt++;
    const ceiling = this.policy.retryBaseMs * 2 ** attempt;
    const jittered = Math.min(Math.round(ceiling / 2 + (this.policy.random() * ceiling) / 2), 60_000);
    this.policy.trace?.(`* ${this.traced()}: ${reason}: retry ${attempt + 1}/${this.policy.maxRetries}`);
    if (serverHintMs !== undefined && serverHintMs > jittered) return this.wait(serverHintMs, 'retry-after');
    await this.policy.sleep(jittered, this.signal);
  }
}

/** Records the X-RateLimit-* headers of an answer into `state`. */
export function recordRateLimit(state: RateLimitState, headers: Headers, now: number): void {
  const num = (k: string) => {
    const v = headers[k];
    const n = Number(Array.isArray(v) ? v[0] : v);
    return v !== undefined && Number.isFinite(n) ? n : undefined;
  };
  const limit = num('x-ratelimit-limit');
  const remaining = num('x-ratelimit-remaining');
  const reset = resetTime(headers, now);
  if (limit !== undefined) state.limit = limit;
  // Answers to requests in flight come in any order: within one window (the same reset) the
  // budget only goes down, and an older answer's higher Remaining never undoes a newer 0.
  const sameWindow = reset !== undefined && reset === state.reset && state.remaining !== undefined;
  if (remaining !== undefined) state.remaining = sameWindow ? Math.min(state.remaining!, remaining) : remaining;
  if (reset !== undefined) state.reset = reset;
}

/** Remaining hit 0: how long to wait for the reset rather than provoke a 429 (0: no wait). */
export function budgetPauseMs(state: RateLimitState, now: number, inFlight = 0): number {
  const { remaining, reset } = state;
  // Requests sent and not yet answered each spend one of what the last answer said was left.
  if (remaining === undefined || remaining - inFlight > 0 || reset === undefined) return 0;
  return Math.max(reset * 1000 - now, 0);
}

/**
 * How long to wait after a 429: the later of Retry-After and X-RateLimit-Reset (a client clock
 * running ahead sees the reset already past, and Retry-After still holds), plus a margin;
 * without either, a backoff that grows with each 429 in a row, so a 429 is never hammered.
 * `asked`: the figure messages say, the service's own without the margin; `told`: whether it gave
 * one; `byRetryAfter`: whether only a Retry-After gave it (no reset).
 */
function throttleWait(headers: Headers, inARow: number, now: number): { ms: number; asked: number; told: boolean; byRetryAfter: boolean } {
  const reset = resetTime(headers, now);
  const fromReset = reset !== undefined ? reset * 1000 - now : undefined;
  const fromRetryAfter = retryAfterMs(headers, now);
  const told = Math.max(fromReset ?? -1, fromRetryAfter ?? -1);
  // A 429 with a reset still to come is the budget's; without one (or with one already past, a
  // clock ahead) its Retry-After is the service asking.
  const byRetryAfter = fromRetryAfter !== undefined && (fromReset === undefined || fromReset <= 0);
  if (told > 0) return { ms: Math.ceil(told) + 250, asked: told, told: true, byRetryAfter };
  const floor = Math.min(1000 * 2 ** inARow, 60_000);
  // A time already come (Retry-After: 0, a date past) asks for no wait: the back-off is sct's own.
  return { ms: floor, asked: floor, told: false, byRetryAfter: false };
}

/**
 * How long a 503 asks sct to wait: with a Retry-After, the later of it and X-RateLimit-Reset (as
 * after a 429); without one, nothing (the retry backs off as after a 502), since a reset alone is
 * the rate limit's, which a 503 does not speak of, and may be an hour away.
 */
export function unavailableWaitMs(headers: Headers, now: number): number | undefined {
  const fromRetryAfter = retryAfterMs(headers, now);
  if (fromRetryAfter === undefined) return undefined;
  const reset = resetTime(headers, now);
  return Math.max(fromRetryAfter, reset !== undefined ? Math.min(reset * 1000 - now, MAX_PLAUSIBLE_WAIT_MS) : 0);
}

/** Retry-After in ms from now: delay-seconds or an HTTP date. Nonsense (negative, unparsable) is ignored. */
function retryAfterMs(headers: Headers, now: number): number | undefined {
  const v = headers['retry-after'];
  if (v === undefined) return undefined;
  const s = String(Array.isArray(v) ? v[0] : v).trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.min(Number(s) * 1000, MAX_PLAUSIBLE_WAIT_MS);
  const date = Date.parse(s);
  return Number.isFinite(date) ? Math.min(Math.max(date - now - serviceClockAhead(headers, now), 0), MAX_PLAUSIBLE_WAIT_MS) : undefined;
}

/**
 * X-RateLimit-Reset as Unix seconds, on this machine's clock. Small values are read as seconds
 * from now (some services send a delay there); a time further out than a year, or not a number,
 * is no time at all.
 */
function resetTime(headers: Headers, now: number): number | undefined {
  const v = headers['x-ratelimit-reset'];
  if (v === undefined) return undefined;
  const n = Number(Array.isArray(v) ? v[0] : v);
  if (!Number.isFinite(n) || n < 0) return undefined;
  const seconds = n < 1e9 ? now / 1000 + n : n - serviceClockAhead(headers, now) / 1000;
  return seconds * 1000 - now > MAX_PLAUSIBLE_WAIT_MS ? undefined : seconds;
}

/**
 * How far the service's clock runs ahead of this one (ms; behind is negative), by the Date of
 * the answer: a time it gives (a reset, a Retry-After date) is its clock's, and a laptop's clock
 * a day off turned a reset ten seconds away into a wait of a day. Within 2 s it is none: Date
 * has whole seconds, and the answer took time to come.
 */
function serviceClockAhead(headers: Headers, now: number): number {
  const v = headers.date;
  const date = Date.parse(String(Array.isArray(v) ? v[0] : (v ?? '')));
  if (!Number.isFinite(date)) return 0;
  const ahead = date - now;
  return Math.abs(ahead) < 2000 ? 0 : ahead;
}

const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

export function isRetryableError(err: unknown): boolean {
  if (isAbortError(err)) return false;
  const code = errorCode(err);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

/** Errors that mean no byte of the request reached the service. */
export function neverConnected(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENETUNREACH' || code === 'EHOSTUNREACH' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

/** An error's message on one line, without the credentials a URL in it may carry. */
const oneLineOf = (err: unknown) => credentialsInText(((err as Error)?.message ?? String(err)).replace(/\s*\n\s*/g, ' ').trim());

/**
 * A failure on the way to the service, in words: `host` (the request's, host:port) names where a
 * connection could not be made, as the base URL may come from a profile or a variable the user
 * does not have in mind.
 */
export function describeError(err: unknown, host?: string): string {
  const code = errorCode(err);
  const at = host ? ` (${host})` : '';
  if (code && CERTIFICATE_ERRORS.has(code)) {
    // Node 24 adds advice for whoever runs `node` itself ("; if the root CA is installed locally,
    // try running Node.js with --use-system-ca"): sct's user runs sct, and is told what to do below.
    const why = oneLineOf(err).replace(/;[^;]*\bNode\.js\b.*$/, '').replace(/:$/, '');
    const what = code === 'CERT_HAS_EXPIRED' ? 'has expired' : code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? 'is for another name' : `is not trusted (${why})`;
    return `the TLS certificate of ${host ?? 'the server'} ${what}: behind a corporate TLS proxy, give its CA certificate in NODE_EXTRA_CA_CERTS=/path/to/ca.pem (sct doctor checks it)`;
  }
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused${at} (is the base URL right and the service up?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found${at}`;
    case 'ETIMEDOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timed out (see --timeout)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset by the server';
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      // OpenSSL's own words name its source file; what they mean is that no TLS came back.
      if (/wrong version number|packet length too long|http request/i.test((err as Error)?.message ?? '')) {
        return 'the server answered without TLS: is the address plain http:// (as the sandbox\'s is)?';
      }
      return `TLS failed: ${oneLineOf(err)}`;
    default:
      // A library's message may name a URL with its credentials (a proxy's).
      return oneLineOf(err);
  }
}

/** Node's and OpenSSL's codes for a certificate the connection refused. */
const CERTIFICATE_ERRORS = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
