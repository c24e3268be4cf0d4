// The only place sct talks HTTP: src/api. This file is the client, its verbs, and one request
// from its first attempt to its answer (auth, idempotency, redirects, timeouts, the --verbose
// trace). Its other jobs are files beside it: retry.ts (retries, rate limits, waits), answers.ts
// (what an answer must be), pagination.ts, call.ts (a request's state across attempts),
// endpoint.ts (the base URL, token and proxy checked), transport.ts (the wire). Redaction is
// src/util/redact.ts.
import { setMaxListeners } from 'node:events';
import { isUtf8 } from 'node:buffer';
import type { Dispatcher } from 'undici';
import {
  ACCEPT_ENCODING,
  DecodeError,
  UnknownEncodingError,
  isCompressed,
  decodeBody,
  discardBody,
  dispatcherTransport,
  nodeTransport,
  proxyTransport,
  type DecodedBody,
  type Headers,
  type Transport,
  type EarlyConnection,
  type WireResponse,
} from './transport.js';
import type { Readable } from 'node:stream';
import { AnswerError, ApiError, AuthError, BrokenBodyError, LinkRefusedError, NetworkError, PlainLinkError, SctError, InterruptedError, UsageError } from '../errors.js';
import { apiErrorFrom, said, statusText } from './errors.js';
import { stripControl } from '../util/sanitize.js';
import { scanListPage } from './json-page.js';
import { bytesWithoutToken, credentialsInText, maskToken, redactSignedUrl, redactUrl, valueWithoutToken, withoutCredentials, withoutSignedUrl, withoutToken } from '../util/redact.js';
import { USER_AGENT } from '../version.js';
import { formatDuration } from '../util/format.js';
import { toSearchParams, writtenJson, type Method, type Query, type RequestOptions, type TimeLimit } from './request.js';
import {
  MAX_JSON_BYTES,
  checkedBody,
  answerUtf8,
  contentType,
  createdIdProblem,
  looksLikeHtml,
  mediaType,
  parseAnswer,
  parseLoose,
  RawAnswer,
  saysJson,
  readCappedBytes,
  parseErrorBody,
  readErrorText,
  unusableAnswer,
  type AnswerMode,
} from './answers.js';
import {
  RETRYABLE_STATUS,
  abortableSleep,
  budgetPauseMs,
  describeError,
  isRetryableError,
  neverConnected,
  recordRateLimit,
  unavailableWaitMs,
  type RateLimitCause,
  type RateLimitState,
  type RetryPolicy,
} from './retry.js';
import { checkPlainHttp, checkToken, missingApiPrefix, parseBaseUrl, rejectedTokenHint } from './endpoint.js';
import { isLoopback, proxyFor, proxyFromEnv, proxyProblem, type ProxySettings } from './proxy-env.js';
import { paginate, type Page, type PageOptions } from './pagination.js';
import { AGAIN, Call, displayPath } from './call.js';
import { isPlainObject } from '../util/objects.js';
import { ASSUMED_PATHS, PATHS } from './paths.js';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  /** Where the token came from ("SCT_TOKEN"), for the message when it cannot be sent. */
  tokenSource?: string;
  /** The login of this profile, quoted for the hint of a 401 (settings.ts loginHint: `` `sct auth login --profile p` ``). */
  loginHint?: string;
  /** The `auth status` that says who this token's user is, quoted for a hint (settings.ts statusCommand). */
  statusCommand?: string;
  /** Whether the profile keeps a token for this base URL, which SCT_TOKEN set is used instead of. */
  profileHasToken?: boolean;
  /** A base URL without /api was already warned of: a 404 does not hint it again. */
  baseUrlPrefixSaid?: boolean;
  timeoutMs?: number;
  /** Longest rate-limit wait sct sleeps through; longer ones stop the run (RateLimitError). */
  maxWaitMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  env?: NodeJS.ProcessEnv;
  /** An undici dispatcher to send through instead of Node's http (tests: a MockAgent). */
  dispatcher?: Dispatcher;
  /** A connection opened as sct started (src/cli/early-connection.ts), for the first request to its origin. */
  early?: EarlyConnection;
  signal?: AbortSignal;
  /**
   * false: the signal stops waits (backoff, rate-limit pauses) but lets a request already on
   * the wire finish, so a bulk run interrupted with Ctrl-C knows the outcome of every unit it sent.
   */
  abortInFlight?: boolean;
  /**
   * With abortInFlight false: how long after the signal a request already on the wire is given
   * for its answer before it is let go (its outcome then unknown, resent under its key by a rerun).
   */
  inFlightGraceMs?: number;
  /** --verbose: one line per call. */
  trace?: (line: string) => void;
  /** A warning for stderr (a token sent over plain http because SCT_ALLOW_HTTP=1 allows it). */
  warn?: (message: string) => void;
  /**
   * --dry-run: every request but a GET is recorded here instead of being sent. The reads a write
   * is built from (the order an update starts from, a role looked up by name) still go out.
   */
  dryRun?: PlannedRequest[];
  /** Called before a rate-limit pause, so a TTY can show a countdown. Resolves when the wait is over. */
  onRateLimitWait?: (ms: number, asked: number, cause: RateLimitCause, signal?: AbortSignal) => Promise<void>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /**
   * The size from which a list page's items are kept as the service's bytes (the page scanner,
   * json-page.ts) rather than parsed; an --all export's pages always are. Below it JSON.parse is cheaper: the scanner only overtakes it
   * once V8 has optimised it, over hundreds of KB, and a one-page command would otherwise also
   * wait at exit for that optimisation to finish on another thread. Default SCAN_FROM_BYTES.
   */
  scanFromBytes?: number;
}

/** The shortest silence in a download's body taken for a stall (streamAnswer): a third of --timeout when that is longer. */
const STALL_MS = 10_000;

/** About where the scanner overtakes JSON.parse on a cold start (bench notes: docs/decisions/startup.md). */
const SCAN_FROM_BYTES = 1024 * 1024;

/** A request a dry run would have sent: its path relative to the base URL, with its query. */
export interface PlannedRequest {
  method: Method;
  path: string;
  body: unknown;
}

/**
 * Thrown by a dry run's client at a write whose answer the command would go on with: the run ends
 * there, and the requests recorded so far are what it prints. Not an error: the command wrapper
 * catches it.
 */
export class DryRunEnd extends Error {
  constructor() {
    super('dry run: stopped at the first write');
    this.name = 'DryRunEnd';
  }
}

/**
 * How long a bulk run stopped by a signal waits for the answers to requests already sent (at
 * most --timeout): long enough for a service's usual answer, short enough that the report is
 * written before the kill that follows a stop (execa 5 s after its SIGTERM, GitHub Actions 7.5 s
 * after its SIGINT, Docker 10 s). A request let go is unknown, and a rerun resends it under its key.
 */
export const IN_FLIGHT_GRACE_MS = 3_000;

/** A signal aborted `ms` after `signal` is. */
function afterGrace(signal: AbortSignal | undefined, ms: number): AbortSignal | undefined {
  if (!signal) return undefined;
  const late = new AbortController();
  // The reason is what a row let go says in the report.
  signal.addEventListener('abort', () => setTimeout(() => late.abort(new InterruptedError(`interrupted: no answer within ${formatDuration(ms)} of the stop`)), ms).unref(), { once: true });
  return late.signal;
}

/** The error of a call stopped on the wire: the grace's own words when its time ran out (afterGrace). */
function stopped(call: Call): InterruptedError {
  const reason: unknown = call.wireSignal?.reason;
  return reason instanceof InterruptedError ? new InterruptedError(reason.message) : new InterruptedError();
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
  /** A write's 301/302/303, when this is the answer to the GET of where it pointed (`sct api`). */
  redirectedBy?: number;
}

export interface StreamResponse {
  status: number;
  headers: Headers;
  body: Readable;
}

/** What send() resolves with: a parsed body, or for 'stream' the body to read. */
interface Answer {
  status: number;
  headers: Headers;
  data?: unknown;
  /** See ApiResponse. */
  redirectedBy?: number;
  /** An export page's data, made from its bytes when asked for (see deferredPage). */
  later?: () => Promise<unknown>;
  body?: Readable;
}

const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** How much of a failed answer's body -v shows. */
const TRACED_BODY_MAX = 2_000;

export class ApiClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly token?: string;
  private readonly tokenSource?: string;
  private readonly loginHint?: string;
  private readonly statusCommand?: string;
  private readonly profileHasToken?: boolean;
  private readonly baseUrlPrefixSaid: boolean;
  private readonly opts: Required<Pick<ClientOptions, 'timeoutMs' | 'maxWaitMs' | 'maxRetries' | 'retryBaseMs' | 'scanFromBytes'>>;
  /** Made at the first request: undici, when it is needed at all, is loaded only then. */
  private transport?: Promise<Transport>;
  /** Connections preconnect() has opened so far. */
  private preconnected = 0;
  private readonly makeTransport: () => Promise<Transport>;
  private readonly now: () => number;
  private readonly trace?: (line: string) => void;
  private readonly retryPolicy: RetryPolicy;
  private pausedCount = 0;
  private readonly signal?: AbortSignal;
  private readonly requestSignal?: AbortSignal;
  private readonly dryRun?: PlannedRequest[];
  readonly rateLimit: RateLimitState = {};
  /** Requests on the wire whose answer has not come: each will spend one of rateLimit.remaining. */
  private unanswered = 0;
  /** The Date header of the service's last answer, whatever its status (doctor's clock check). */
  serverDate?: string;
  /** Requests sent, retries included (benchmarks and the bulk summary report it). */
  requestCount = 0;
  /** The environment's proxy settings, when a proxy is set (--verbose says which requests go through it). */
  private readonly proxy: ProxySettings | null;
  private proxySaid = false;

  constructor(options: ClientOptions) {
    const base = parseBaseUrl(options.baseUrl);
    if (options.token !== undefined) checkPlainHttp(base, options.env ?? {}, options.warn);
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.origin = base.origin;
    if (options.token !== undefined) checkToken(options.token, options.tokenSource ?? 'the configuration');
    this.token = options.token;
    this.tokenSource = options.tokenSource;
    this.loginHint = options.loginHint;
    this.statusCommand = options.statusCommand;
    this.profileHasToken = options.profileHasToken;
    this.baseUrlPrefixSaid = options.baseUrlPrefixSaid === true;
    this.opts = {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxWaitMs: options.maxWaitMs ?? 600_000,
      maxRetries: options.maxRetries ?? 3,
      retryBaseMs: options.retryBaseMs ?? 500,
      scanFromBytes: options.scanFromBytes ?? SCAN_FROM_BYTES,
    };
    const dispatcher = options.dispatcher;
    const proxy = dispatcher ? null : proxyFromEnv(options.env ?? {}, base);
    // A proxy variable that names no proxy would be undici's "Invalid URL" at the first request.
    const problem = proxy && proxyProblem(options.env ?? {});
    if (problem) throw new UsageError(`${problem}: fix it, or unset it to connect directly`);
    this.proxy = proxy;
    this.makeTransport = dispatcher
      ? () => dispatcherTransport(dispatcher)
      : proxy
        ? () => proxyTransport(proxy)
        : async () => nodeTransport(options.early);
    this.now = options.now ?? Date.now;
    // A token the user typed into a path, a field or a header (`sct api "/echo?t=$SCT_TOKEN"`) is
    // masked in the trace as the Authorization header is.
    const trace = options.trace;
    this.trace = trace && ((line) => trace(withoutToken(line, this.token)));
    const sleep = options.sleep ?? abortableSleep;
    const onRateLimitWait = options.onRateLimitWait;
    this.retryPolicy = {
      maxRetries: this.opts.maxRetries,
      retryBaseMs: this.opts.retryBaseMs,
      maxWaitMs: this.opts.maxWaitMs,
      sleep: (ms, signal) => this.paused(sleep(ms, signal)),
      now: this.now,
      random: options.random ?? Math.random,
      trace: this.trace,
      onRateLimitWait: onRateLimitWait && ((ms, asked, cause, signal) => this.paused(onRateLimitWait(ms, asked, cause, signal))),
    };
    this.signal = options.signal;
    this.requestSignal = options.abortInFlight !== false ? options.signal : options.inFlightGraceMs === undefined ? undefined : afterGrace(options.signal, options.inFlightGraceMs);
    // Each request in flight listens to the run's signal while it is out (up to --concurrency 16,
    // with their waits): as many listeners as that are no leak for Node to warn of mid-run.
    for (const s of [this.signal, this.requestSignal]) if (s) setMaxListeners(64, s);
    this.dryRun = options.dryRun;
  }

  /**
   * Requests of this client waiting to be sent again (a back-off, a rate limit): none of theirs
   * is on the wire, and a stop ends them at once.
   */
  get pausedRequests(): number {
    return this.pausedCount;
  }

  private paused(wait: Promise<void>): Promise<void> {
    this.pausedCount++;
    return wait.finally(() => this.pausedCount--);
  }

  /** --max-wait: the longest wait on the service's say-so this client sleeps through. */
  get maxWaitMs(): number {
    return this.opts.maxWaitMs;
  }

  async close(): Promise<void> {
    if (this.transport) await (await this.transport).close();
  }

  /**
   * Opens connections to the service for requests about to go out together (a bulk run's
   * requests in flight), while something else is awaited: up to `count` in all, counting those
   * an earlier call opened. Not through a proxy (undici opens its own) nor in a dry run.
   * Resolves once they are being opened (never rejects: a connection that fails is dropped), so
   * a caller about to load code for a while can let the connect start first.
   */
  preconnect(count: number): Promise<void> {
    const more = count - this.preconnected;
    if (this.dryRun || more < 1) return Promise.resolve();
    this.preconnected = count;
    return (this.transport ??= this.makeTransport()).then((t) => t.preconnect?.(new URL(this.baseUrl), more), () => {});
  }

  /**
   * A JSON request; resolves with the parsed body (null for 204). The answer is read whole
   * within --timeout and at most MAX_JSON_BYTES; a 2xx answer that is not JSON is an error.
   */
  async request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>> {
    const res = await this.send(options, 'json');
    return { status: res.status, headers: res.headers, data: res.data as T, redirectedBy: res.redirectedBy };
  }

  /**
   * A request whose body is streamed to the caller (file downloads). --timeout bounds it as a
   * whole, to the body's last byte, as every request (cli-spec.md, Timeouts).
   */
  async stream(options: RequestOptions): Promise<StreamResponse> {
    const res = await this.send(options, 'stream');
    return { status: res.status, headers: res.headers, body: res.body! };
  }

  /**
   * A file download: `save` reads the streamed body (as `stream` gives it) to its end. A body that
   * breaks on the way (cut, reset, short of its Content-Length, stalled) is asked for again from
   * its first byte, within the request's retries and backoff as any request's connection error;
   * `save` is then called again with the new answer and starts over (a part file made anew). What
   * `save` throws otherwise (a file that is no ZIP, a refused target, Ctrl-C) ends the download.
   */
  async download<T>(options: RequestOptions, save: (res: StreamResponse) => Promise<T>): Promise<T> {
    try {
      const call = await this.newCall(options, 'stream');
      if (!(call instanceof Call)) return await save({ status: call.status, headers: call.headers, body: call.body! });
      for (;;) {
        const answer = await this.attempt(call);
        if (answer === AGAIN) continue;
        try {
          return await save({ status: answer.status, headers: answer.headers, body: answer.body! });
        } catch (err) {
          if (!(err instanceof BrokenBodyError)) throw err;
          call.mayHaveArrived = true;
          if (!call.mayRetry) {
            err.message += call.retries.attemptsSaid;
            call.fail(err);
          }
          await call.retry(err.reason);
        }
      }
    } catch (err) {
      throw this.withoutTokenIn(err);
    }
  }

  get<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.request<T>({ path, query }).then((r) => r.data);
  }
  /**
   * One object (`get ID`): an answer that is none (an empty body, null, a list) is an error
   * naming the request, not an empty record and exit 0.
   */
  async getObject(path: string): Promise<Record<string, unknown>> {
    const { status, data } = await this.request({ path });
    if (isPlainObject(data)) return data;
    const what = data === null ? 'an empty body or null' : Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    throw new AnswerError(`GET ${path}: the service answered ${status} ${statusText(status)} without the object (${what})`, status);
  }
  post<T = unknown>(path: string, body?: unknown, extra: Partial<RequestOptions> = {}): Promise<T> {
    return this.request<T>({ ...extra, method: 'POST', path, body }).then((r) => r.data);
  }
  patch<T = unknown>(path: string, body?: unknown): Promise<T> {
    return this.request<T>({ method: 'PATCH', path, body }).then((r) => r.data);
  }
  delete(path: string, query?: Query): Promise<unknown> {
    return this.request({ method: 'DELETE', path, query }).then((r) => r.data);
  }

  /**
   * Pages through a list endpoint by following `next`. Yields page by page so callers can
   * stream; the next page is requested while the caller handles the current one. With `all`
   * and `parallel` above 1, when the next link pages by limit and offset, the pages after it are
   * requested too, up to `parallel` at a time, and still yielded in order (see pagesAhead).
   */
  async *paginate<T = unknown>(path: string, query: Query = {}, options: PageOptions = {}): AsyncGenerator<Page<T>> {
    const fetch =
      options.asJsonText && !options.unwrap
        ? (query: URLSearchParams, signal: AbortSignal) => this.send({ path, query, signal }, options.all ? 'export-page' : 'page').then((r) => ({ status: r.status, headers: r.headers, data: r.data, later: r.later }))
        : (query: URLSearchParams, signal: AbortSignal) => this.request<unknown>({ path, query, signal, anyAnswer: options.anyAnswer });
    yield* paginate<T>({ baseUrl: this.baseUrl, fetch, remaining: () => this.rateLimit.remaining }, path, query, options);
  }

  /**
   * Sends one logical request: retries, rate-limit waits and redirects included. In 'json' mode
   * the answer is read and parsed inside the attempt, so --timeout covers it to the last byte
   * and a connection that breaks half-way through the answer is retried like any other.
   *
   * Every error thrown for a request that changes something says whether the service may have
   * carried it out (`delivery`, see Call.fail).
   */
  private async send(options: RequestOptions, mode: AnswerMode): Promise<Answer> {
    try {
      return await this.sendUnmasked(options, mode);
    } catch (err) {
      throw this.withoutTokenIn(err);
    }
  }

  /**
   * An error names its request, and the request may carry the token the user typed into its
   * path or a field: it is masked there, as in the service's own words about it.
   */
  private withoutTokenIn(err: unknown): unknown {
    if (!(err instanceof SctError) || this.token === undefined) return err;
    err.message = withoutToken(err.message, this.token);
    if (err.hint) err.hint = withoutToken(err.hint, this.token);
    for (const [field, messages] of Object.entries(err.fields)) {
      const masked = withoutToken(field, this.token);
      const list = messages.map((m) => withoutToken(m, this.token));
      if (masked !== field) delete err.fields[field];
      err.fields[masked] = list;
    }
    return err;
  }

  private async sendUnmasked(options: RequestOptions, mode: AnswerMode): Promise<Answer> {
    // The whole command's limit ends this request's attempts and waits as the caller's own
    // signal would; what it ends is then said as the timeout it is (below).
    const limit = options.timeLimit && this.limitSignal(options.timeLimit);
    const signal = limit && options.signal ? AbortSignal.any([options.signal, limit.signal]) : (limit?.signal ?? options.signal);
    let call: Call | Answer | undefined;
    try {
      call = await this.newCall({ ...options, signal }, mode);
      if (!(call instanceof Call)) return call;
      for (;;) {
        const answer = await this.attempt(call);
        if (answer !== AGAIN) return answer;
      }
    } catch (err) {
      // Ended by the limit, not by a stop (Ctrl-C, the caller's giving up): a timeout (exit 1),
      // named as the user gave it, and as likely to have been carried out as the stop found it.
      if (call instanceof Call && limit?.signal.aborted && err instanceof InterruptedError && !this.signal?.aborted && !options.signal?.aborted) {
        // Ended before its first attempt went out: no answer was awaited, and nothing was done.
        if (call.retries.sent === 0) call.fail(new NetworkError(`${call.where()}: not sent: --timeout ${formatDuration(options.timeLimit!.ms)} ran out before it could go`), false);
        call.fail(new NetworkError(`${call.where()}: ${this.timeoutReason(options.timeLimit!.ms)}${call.retries.attemptsSaid}`), err.delivery === 'unknown');
      }
      throw err;
    } finally {
      limit?.clear();
    }
  }

  /** A request's state across its attempts, checked before the first goes; a dry run's write is planned instead (its answer). */
  private async newCall(options: RequestOptions, mode: AnswerMode): Promise<Call | Answer> {
    const method = options.method ?? 'GET';
    const url = this.resolve(options.path, options.query);
    // A JSON body is written once, before anything goes out (a dry run's plan included), and
    // every attempt sends that text as it is.
    const body = options.body;
    const json = body !== undefined && options.rawBody === undefined && options.bodyAsIs === undefined ? writtenJson(`${method} ${displayPath(url, this.baseUrl)}`, () => JSON.stringify(body)) : undefined;
    if (this.dryRun && method !== 'GET' && method !== 'HEAD') return this.plan(options, method, url);
    // A key the caller chose (`sct api -H 'Idempotency-Key: K'`, `create --idempotency-key K`) is
    // sent unchanged: only then does a rerun of the same write find the first one's outcome.
    // node:crypto is loaded by the first POST that needs a key of its own: a GET never does.
    const idempotencyKey =
      method === 'POST' ? (options.idempotencyKey ?? headerValue(options.headers, 'idempotency-key') ?? (await import('node:crypto')).randomUUID()) : undefined;
    const call = new Call(json === undefined ? options : { ...options, bodyAsIs: json }, mode, url, this.baseUrl, idempotencyKey, this.retryPolicy, { client: this.signal, clientWire: this.requestSignal });
    // A link the service handed out (an upload's, a download's) that is plain http while the
    // service is reached over https: the file would go unencrypted, open to anyone on the way.
    if (call.signed && this.origin.startsWith('https:') && url.protocol === 'http:' && !isLoopback(url.hostname)) {
      throw new PlainLinkError(`${call.where()}: the service (over https) handed out a plain http link: not used, the file would go unencrypted`);
    }
    return call;
  }

  /** A command's time limit as a signal: aborted when it ends, at once when it has. */
  private limitSignal(limit: TimeLimit): { signal: AbortSignal; clear: () => void } {
    const controller = new AbortController();
    const left = limit.at - this.now();
    if (left <= 0) controller.abort();
    const timer = left > 0 ? setTimeout(() => controller.abort(), left) : undefined;
    return { signal: controller.signal, clear: () => clearTimeout(timer) };
  }

  /** One attempt of a call, from the rate-limit budget to the answer read: AGAIN when another is due. */
  private async attempt(call: Call): Promise<Answer | typeof AGAIN> {
    // Nothing new leaves after a stop: not a retry, not a redirect's next request, not a write
    // after its read (a bulk run's client lets only what is already on the wire finish).
    if (call.waitSignal?.aborted) call.fail(new InterruptedError());
    await this.waitForBudget(call);
    if (call.options.beforeSend && !call.mayHaveArrived) {
      try {
        await call.options.beforeSend(call.refusedBefore);
      } catch (err) {
        // The read's failure is this write's, and the write never left: not sent.
        if (err instanceof SctError) call.fail(err, false);
        throw err;
      }
      // A stop that came while the read was out: the write does not follow it.
      if (call.waitSignal?.aborted) call.fail(new InterruptedError());
      // The read may have spent the budget's last request: the write waits as any request does,
      // never sent into a 429.
      await this.waitForBudget(call);
    }
    const deadline = this.deadline(call.wireSignal);
    const res = await this.sendAttempt(call, deadline);
    if (res === AGAIN) return AGAIN;
    // Counted out as its Remaining is read (takeAnswer's first step, in the same turn).
    this.unanswered--;
    try {
      return await this.takeAnswer(call, res, deadline);
    } catch (err) {
      // A failure once an answer came (its status, a redirect not followed, a body sct cannot
      // use) carries that answer for `sct api -i`, which prints a failure's whole: its status and
      // headers, and its body where it was read (failWithErrorAnswer, parseBody).
      if (err instanceof SctError && !(err instanceof InterruptedError)) err.answer ??= { status: res.statusCode, headers: res.headers, text: '' };
      throw err;
    }
  }

  /** An attempt's answer, from its headers: followed, waited on, failed, or read and parsed. */
  private async takeAnswer(call: Call, res: WireResponse, deadline: Deadline): Promise<Answer | typeof AGAIN> {
    this.recordAnswer(res.headers);
    if (await this.followOrWait(call, res, deadline)) return AGAIN;
    const status = res.statusCode;
    if (status === 404 && call.target.method === 'DELETE' && call.retries.retried && call.mayHaveArrived && call.arrivedAt === call.target.url.href) {
      // An earlier attempt reached the server and deleted the resource, and only its answer
      // was lost: the resource is gone, which is what was asked. After attempts that cannot have
      // reached it (503s, refused connections) a 404 is the service's: there is no such id.
      await drain(res, deadline);
      this.trace?.(`* ${call.traced()}: 404 on a retried DELETE: an earlier attempt already deleted it`);
      return { status: 204, headers: res.headers, data: null };
    }
    if (status >= 400) return this.failWithErrorAnswer(call, res, deadline);
    // `sct api` takes an answer with no body as it is: nothing to print.
    const unusable = call.options.anyAnswer && (status === 204 || status === 205) ? undefined : unusableAnswer(status, call.method, call.mode);
    if (unusable) {
      await drain(res, deadline);
      const err = new AnswerError(`${call.where()}: ${unusable}`, status);
      // A redirect that leads nowhere answers a rerun under the same key the same way.
      if (status >= 300 && status < 400 && status !== 304 && call.method !== 'GET' && call.method !== 'HEAD') err.afterRedirect = `the service answered with a redirect (${status} ${statusText(status)}) that names no place`;
      call.fail(err, true);
    }
    if (call.mode === 'stream') return this.streamAnswer(call, res, deadline);
    // One that ends with its connection is decoded as it comes: only its decoding can tell that it
    // was cut, and a deferred page is past its attempt's retries.
    if (call.mode === 'export-page' && isCompressed(res.headers) && !endsWithConnection(res.headers)) return this.deferredPage(call, res, deadline);
    // A HEAD's answer names the encoding and length its GET would have, and has no body to decode.
    const bytes = call.method === 'HEAD' ? await discardBody(res.body).then(() => Buffer.alloc(0)) : await this.readBody(call, res).catch((err: unknown) => this.brokenAnswer(call, err, deadline));
    if (bytes === AGAIN) return AGAIN;
    deadline.clear();
    return { status, headers: res.headers, data: this.parseBody(call, status, res.headers, bytes), redirectedBy: call.readAfter };
  }

  /** Remaining hit 0: waits for the reset rather than provoke a 429. */
  private async waitForBudget(call: Call): Promise<void> {
    const budgetMs = budgetPauseMs(this.rateLimit, this.now(), this.unanswered);
    if (budgetMs <= 0) return;
    await call.retries.wait(budgetMs, 'budget').catch((err) => call.fail(err));
    this.rateLimit.remaining = undefined;
  }

  /** Sends the attempt and waits for the answer's headers; a failure on the way is retried when it may be. */
  private async sendAttempt(call: Call, deadline: Deadline): Promise<WireResponse | typeof AGAIN> {
    this.unanswered++;
    const sentBefore = call.retries.sent;
    try {
      return await this.once(call, deadline.signal);
    } catch (err) {
      this.unanswered--;
      deadline.clear();
      const timedOut = deadline.expired();
      // Stopped before the HTTP stack had it (the limit, Ctrl-C), the attempt left nothing behind.
      const handedOver = call.retries.sent > sentBefore;
      if (handedOver && (timedOut || !neverConnected(err))) call.mayHaveArrived = true;
      // Stopped (Ctrl-C, a signal) once it may have gone out: a write that may have been done.
      if (err instanceof InterruptedError || (!timedOut && call.wireSignal?.aborted)) call.fail(stopped(call));
      // The body could not be sent as said (a file that changed under an upload): its own error, not retried.
      if (err instanceof SctError && !(err instanceof NetworkError)) call.fail(err, false);
      const reason = timedOut ? this.timeoutReason() + (await this.throughProxy(call.target.url)) : describeError(err, call.target.url.host);
      if (call.mayRetry && (timedOut || isRetryableError(err))) return call.retry(reason);
      return call.fail(new NetworkError(`${call.where()}: ${reason}${call.retries.attemptsSaid}`, { cause: err }));
    }
  }

  /** A redirect, a 429 or a gateway's 5xx: true when the call is to be sent again (where the redirect leads). */
  private async followOrWait(call: Call, res: WireResponse, deadline: Deadline): Promise<boolean> {
    const status = res.statusCode;
    if (REDIRECT_STATUS.has(status) && res.headers.location !== undefined) {
      await drain(res, deadline);
      this.redirect(call, status, res.headers.location);
      return true;
    }
    if (status === 429) {
      // Never a rejection: the service has not looked at the request. Wait as it asks. Its
      // body (read as an error's is, within the same cap) is the answer of a wait too long,
      // which `sct api -i` prints; a stop during the wait is no failure of this answer's.
      const text = withoutToken(await readErrorText(res), this.token);
      deadline.clear();
      await call.retries.throttle(res.headers).catch((e: SctError) => call.fail(e instanceof InterruptedError ? e : Object.assign(e, { answer: { status, headers: res.headers, text } })));
      this.rateLimit.remaining = undefined;
      return true;
    }
    // A gateway's 502/504 may come after the service did the work; a 503 is a refusal to start.
    if (RETRYABLE_STATUS.has(status) && status !== 503) call.mayHaveArrived = true;
    if (status === 503) call.refusedBefore = true;
    if (RETRYABLE_STATUS.has(status) && call.mayRetry) {
      await drain(res, deadline);
      const hint = status === 503 ? unavailableWaitMs(res.headers, this.now()) : undefined;
      await call.retry(`${status} ${statusText(status)}`, hint);
      return true;
    }
    return false;
  }

  /** Points the call at where a redirect leads, or fails it when sct does not follow there. */
  private redirect(call: Call, status: number, location: string | string[]): void {
    // A write answered with a 301, 302 or 303 reached the service, and may have been carried out
    // (a redirect after the write, "created: see there"): whatever follows, its outcome is never
    // "not sent", and the checks made before sending it (a sync's "not created since") are not
    // made again. A 307 or 308 asks for the write itself to be sent there: nothing was done yet.
    const wrote = call.target.method !== 'GET' && call.target.method !== 'HEAD';
    const doneHere = wrote && status !== 307 && status !== 308;
    if (doneHere) call.mayHaveArrived = true;
    // Stopped here, a write answered so (now, or on an earlier hop) has an unknown outcome.
    const unknownIfStopped = doneHere || call.readAfter !== undefined;
    if (++call.redirects > MAX_REDIRECTS) call.fail(new NetworkError(`${call.where()}: too many redirects (more than ${MAX_REDIRECTS})`));
    call.retries.redirected();
    const from = call.target.url;
    // A Location holding the token is followed masked, as the headers have it: a service that
    // puts the token in a URL never gets it sent there. But one that leaves it where the user
    // typed it (`sct api "/x?key=$SCT_TOKEN"` answered with a trailing slash's 301) is followed as
    // it came: the same URL on the base URL's origin, the token masked in both, but for a
    // trailing slash. Anywhere else (`/echo/$SCT_TOKEN`), the token would be sent somewhere new.
    const asSent = redirectTarget(call.sentLocation ?? location, from);
    const shape = (u: URL) => withoutToken(`${u.origin}${u.pathname.replace(/\/+$/, '')}${u.search}`, this.token);
    const target = asSent?.origin === this.origin && shape(asSent) === shape(from) ? asSent : redirectTarget(location, from);
    if (!target) {
      const to = String(Array.isArray(location) ? location[0] : location).slice(0, 300);
      call.fail(
        notFollowed(
          new NetworkError(
            `${call.where()}: the service redirected (${status} ${statusText(status)}) from ${call.offOrigin() ? redactSignedUrl(from.href) : withoutCredentials(from.href)} to ${JSON.stringify(credentialsInText(to))}, which is not an http or https URL: not followed`,
          ),
          unknownIfStopped,
        ),
      );
    }
    // Followed, such a redirect would drop the token and end in a 401 that blames the
    // token; it means the base URL is not the service's own address, which is what to say.
    // A signed link (a download the service handed out) is followed wherever it leads, as a
    // browser follows it: its own credential is in it, and the token goes to the base URL's
    // origin only, whichever request carries it (requestParts). So is a file download's
    // redirect to the storage that holds the file.
    // Not followed, a write's redirect still came from the service, which may have acted on it:
    // its outcome is unknown, never "not sent" (a bulk row then goes again under its own key).
    if (from.origin === this.origin && target.origin !== this.origin && !call.signed && !call.file) {
      const err = notFollowed(this.leavingOrigin(call.where(), status, from, target), unknownIfStopped);
      // "The service lives there now" is no word on what it did with this write.
      if (err.afterRedirect !== undefined && err.hint !== undefined) err.hint = `the ${call.method} may have been carried out (${err.afterRedirect}): see whether it was before you send it again; ${err.hint}`;
      call.fail(err);
    }
    // Followed elsewhere (a signed link, a download's storage), never from https down to plain
    // http: what comes back would come unencrypted, open to anyone on the way.
    if (from.protocol === 'https:' && target.protocol === 'http:' && !isLoopback(target.hostname)) {
      call.fail(notFollowed(new NetworkError(`${call.where()}: the service redirected (${status} ${statusText(status)}) from https to plain http (${redactSignedUrl(target.href)}): not followed, the answer would come unencrypted`), unknownIfStopped));
    }
    // A write answered 301, 302 or 303 is never written a second time where it points (a DELETE
    // sent on would delete another object); only a 307 or 308 sends the write again. Nor is what
    // a GET there answers its outcome: a trailing slash's 301 leads back to the object the DELETE
    // was for, still there; a 302 to a profile, a list or a sign-in page answers 200 whatever was
    // done. So only `sct api` reads it with a GET (and prints it, as gh does), and a file
    // download the service answers with its storage's link; any other write so answered has an
    // unknown outcome (docs/decisions/token.md).
    if (doneHere) {
      const to = target.origin === this.origin ? displayPath(target, this.baseUrl) : redactSignedUrl(target.href);
      if (call.signed) {
        call.fail(notFollowed(new NetworkError(`${call.where()}: the storage answered the upload with a redirect (${status} ${statusText(status)}) to ${to}: not followed, the file was not taken`), true));
      }
      if (!call.options.anyAnswer && !call.file) {
        call.fail(notFollowed(new NetworkError(`${call.where()}: the service answered with a redirect (${status} ${statusText(status)}) to ${to}: not followed, as what is there says nothing of what became of the ${call.target.method}`), true));
      }
      call.readAfter ??= status;
      call.target = { url: target, method: 'GET', withBody: false };
    } else {
      call.target = { ...call.target, url: target, method: status === 303 && call.target.method !== 'HEAD' ? 'GET' : call.target.method };
    }
  }

  /** An error answer (4xx, or a 5xx no longer retried): the service's message, as the error thrown. */
  private async failWithErrorAnswer(call: Call, res: WireResponse, deadline: Deadline): Promise<never> {
    const status = res.statusCode;
    // A service echoing the token in its error (a detail, a field) never gets it printed.
    const echoed = withoutToken(await readErrorText(res), this.token);
    // A storage service's error page may repeat the signed link it refused: never its credential.
    const text = call.offOrigin() ? withoutSignedUrl(echoed, call.target.url.href) : echoed;
    deadline.clear();
    // The error line names the answer by its status; what the page says (a gateway's reference,
    // "upstream timeout") is for -v, as gh api --verbose shows it: one line, bounded.
    if (text.trim() !== '') this.trace?.(`< ${call.traced()}: body ${said(text, TRACED_BODY_MAX)}`);
    // A 500 may come after the service did the work (it failed writing its answer, or after its
    // commit), as a gateway's 502/504 may: only a 503 (a refusal to start) and a 501 (a method it
    // does not have) say nothing was done. A row so answered is unknown, and goes again under its key.
    if (status >= 500 && status !== 503 && status !== 501) call.mayHaveArrived = true;
    // The method sent: after a redirect, a GET of where a write's answer pointed.
    const err = apiErrorFrom(status, parseErrorBody(text, res.headers), call.target.method, call.shown());
    err.message += call.retries.attemptsSaid;
    err.answer = { status, headers: res.headers, text };
    // Every request 404s when the base URL lacks the /api prefix: say so where it shows (unless
    // a warning of this run said it already), and make no other guess at the cause.
    const noPrefix = status === 404 && call.target.url.origin === this.origin ? missingApiPrefix(this.baseUrl) : undefined;
    if (noPrefix && !this.baseUrlPrefixSaid) err.hint = noPrefix;
    if (status === 404 && !noPrefix && ASSUMED_PATHS.has(call.options.path)) {
      err.hint = `${call.options.path} is a path the API documents do not show, which sct assumes: this service may not have it, or have it under another path`;
    }
    // Storage refusing the link it was sent to (an expired or refused signature) says nothing of
    // the token: exit 1, not 4, and a new link is one run away. A 410 Gone is how some storage
    // answers a link that expired (between two attempts of a download, say).
    if ((status === 401 || status === 403 || status === 410) && call.offOrigin()) {
      return call.fail(new LinkRefusedError(`${err.message}: the storage the service's link points to refused it (the link may have expired)`, status), false);
    }
    // The GET of where a write's redirect pointed failed (`sct api`, which reads it): the write's
    // own outcome is unknown, whatever the GET was answered (a 404, a sign-in page's 401): never
    // the write's rejection, nor the token's, nor a path of the write's that the service lacks.
    if (call.readAfter !== undefined) {
      // A 401 there is a sign-in page's, or the token's for a page the write did not need: exit 1, not 4.
      const unknown = status === 401 ? Object.assign(new ApiError(err.message, 401, err.fields, err.body, 1), { method: err.method, answer: err.answer }) : err;
      // The hints above are of the write's path, not of where its redirect led.
      unknown.hint = undefined;
      unknown.afterRedirect = `the service answered with a redirect (${call.readAfter} ${statusText(call.readAfter)}), and the GET of where it pointed answered ${status}`;
      return call.fail(unknown, true);
    }
    // An anonymous request (`invitations public`) carried no token: logging in changes nothing.
    const sentToken = call.options.auth !== false && Boolean(this.token) && call.target.url.origin === this.origin;
    // Refused to this token's user: which token, and where its role is seen (several profiles
    // and SCT_TOKEN make "you" unclear).
    // Not for the user's own profile (what `auth status`, `whoami` and a login ask): that status
    // is the request that was refused.
    if (status === 403 && sentToken && !isOwnProfile(call.options.path)) {
      err.hint = `refused to the user of this token (${this.tokenSource ?? 'the configuration'}): ${this.statusCommand ?? '`sct auth status`'} says who that is and their role in the workspace`;
    }
    if (status === 401 && !sentToken) err.hint = 'this request is sent without a token (the endpoint is public): logging in does not change its answer';
    else if (status === 401) {
      call.fail(Object.assign(new AuthError(err.message, 401, rejectedTokenHint(this.token, this.tokenSource, this.loginHint, this.profileHasToken)), { answer: err.answer }), false);
    }
    // A 4xx says the request it answers was not carried out (a write a 307 or 308 sent again
    // included: the answer is its own).
    return call.fail(err, status >= 500 ? call.mayHaveArrived : false);
  }

  /**
   * A download: the body is the caller's to read, checked and decoded as it streams. The time
   * limit runs on until the caller has read it or stops: a server that trickles a file is cut
   * off like one that is silent, and the file goes nowhere (src/output/download.ts).
   */
  private async streamAnswer(call: Call, res: WireResponse, deadline: Deadline): Promise<Answer> {
    const where = call.where();
    const timeoutMs = this.opts.timeoutMs;
    let received = 0;
    // The stall rule counts only time in which the reader was ready and nothing came: whether the
    // body is held for its reader (backpressure) is kept as it goes, because at the limit Node's
    // own abort of the request resumes the body to drop it, before the limit is looked at here.
    let readerBehind = false;
    // The last byte, or the reader ready again after it was behind.
    let waitingSince = this.now();
    // "Nothing came for 10s after the first 2,500 bytes: the connection seems to have stalled."
    const stalled = (silentMs: number, within = '') => {
      const after = received > 0 ? `after the first ${received.toLocaleString('en-US')} bytes` : 'after its headers';
      const err = new BrokenBodyError(where, `${within ? `${within}, and nothing came for its last ${formatDuration(silentMs)}, ` : `nothing came for ${formatDuration(silentMs)} `}${after}: the connection seems to have stalled`);
      err.hint = 'run it again: a new connection may not stall';
      return err;
    };
    // At the limit, a body that got nothing in the last third of it stalled (a network fault,
    // asked for again); one whose bytes kept coming was slow, and would be as slow again.
    const tooLate = () => {
      if (!deadline.expired()) return undefined;
      const silentMs = this.now() - waitingSince;
      if (silentMs >= timeoutMs / 3 && !readerBehind) return stalled(silentMs, this.timeoutReason());
      const err = new NetworkError(`${where}: ${this.timeoutReason()}`);
      err.hint = `the file was still arriving: give it longer with --timeout (e.g. --timeout 10m)`;
      return err;
    };
    const onExpiry = () => {
      const err = tooLate();
      if (err) res.body.destroy(err);
    };
    deadline.signal.addEventListener('abort', onExpiry, { once: true });
    // Content-Length counts the bytes on the wire, checked before they are decoded.
    const checked = checkedBody(res.body, res.headers, where, call.wireSignal, tooLate);
    // A stall is cut before the limit (no byte for STALL_MS or a third of --timeout, whichever is
    // longer): at --timeout 10m a dead connection would hold the download for the rest of it. A
    // reader that is behind (the body paused for it: a slow disk, a pager) is no stall.
    const stallMs = Math.max(STALL_MS, timeoutMs / 3);
    const stall = setTimeout(() => {
      if (readerBehind) return void stall.refresh();
      res.body.destroy(stalled(this.now() - waitingSince));
    }, stallMs);
    stall.unref();
    res.body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      waitingSince = this.now();
      stall.refresh();
    });
    // A stop or the limit resumes the body only to drop it: the reader was no readier for that.
    res.body.on('pause', () => {
      if (!deadline.signal.aborted) readerBehind = true;
    });
    res.body.on('resume', () => {
      // (Its event comes a tick after resume(): a pause() meanwhile leaves the reader behind.)
      if (deadline.signal.aborted || !readerBehind || res.body.isPaused()) return;
      readerBehind = false;
      waitingSince = this.now();
      stall.refresh();
    });
    checked.once('close', () => {
      clearTimeout(stall);
      deadline.signal.removeEventListener('abort', onExpiry);
      deadline.clear();
    });
    if (call.options.fileName !== undefined && isCompressedFile(call.options.fileName, res.headers['content-type'])) {
      return { status: res.statusCode, headers: res.headers, body: checked };
    }
    // Bytes that do not decode are the file's.
    const decodeFailure = (e: DecodeError) => cutOff(where, res.headers, e, received) ?? new AnswerError(`${where}: ${e.message}`, res.statusCode);
    const decoded = await decodeBody(checked, res.headers, decodeFailure).catch((err: Error) =>
      call.fail(new AnswerError(`${where}: ${err.message}`, res.statusCode), true),
    );
    if (!decoded.encoding) return { status: res.statusCode, headers: res.headers, body: decoded.body };
    decoded.body.once('end', () => this.traceDecoded(call, decoded));
    // The caller reads the decoded bytes: the wire's length says nothing of how many they are.
    const headers = { ...res.headers };
    delete headers['content-length'];
    return { status: res.statusCode, headers, body: decoded.body };
  }

  /**
   * A compressed page of an --all export: read as it came over the wire (a seventh of its size
   * for JSON), and decoded and scanned only when the pages before it have been written. With
   * pages in flight, those waiting their turn are held compressed: a page of 1,000 orders is
   * about 1 MB so, 6.6 MB decoded. The cap, the decoding and their errors are those of any answer.
   */
  private async deferredPage(call: Call, res: WireResponse, deadline: Deadline): Promise<Answer | typeof AGAIN> {
    const raw = await readCappedBytes(res.body, res.headers, MAX_JSON_BYTES).catch((err: unknown) => this.brokenAnswer(call, err, deadline));
    if (raw === AGAIN) return AGAIN;
    deadline.clear();
    const { statusCode: status, headers } = res;
    const later = async () => {
      const { Readable } = await import('node:stream');
      const bytes = await this.readBody(call, { statusCode: status, headers, body: Readable.from([raw]) }).catch((err: unknown) => {
        failUnreadable(call, err);
        throw err;
      });
      return this.parseBody(call, status, headers, bytes);
    };
    return { status, headers, later };
  }

  /** The answer's bytes, decoded, at most MAX_JSON_BYTES of them. */
  private async readBody(call: Call, res: WireResponse): Promise<Buffer> {
    // (The decoder fails only once data flows, after decodeBody has returned.)
    const decoded: DecodedBody = await decodeBody(res.body, res.headers, (e) => cutOff(call.where(), res.headers, e, decoded.wireBytes()) ?? e);
    const bytes = await readCappedBytes(decoded.body, decoded.encoding ? {} : res.headers, MAX_JSON_BYTES);
    if (decoded.encoding) this.traceDecoded(call, decoded);
    return bytes;
  }

  /** An answer that could not be read: retried when the connection broke, else the call's error. */
  private async brokenAnswer(call: Call, err: unknown, deadline: Deadline): Promise<typeof AGAIN> {
    const timedOut = deadline.expired();
    deadline.clear();
    // The stop first: a body cut short by it may end with the stop's own error as its reason
    // (undici's, when a proxy variable is set), which is no unreadable answer.
    if (!timedOut && call.wireSignal?.aborted) call.fail(stopped(call), true);
    // Cut on the way, it is the connection's fault, not the answer's: asked for again as a reset is.
    if (!(err instanceof BrokenBodyError)) failUnreadable(call, err);
    call.mayHaveArrived = true;
    const reason = timedOut ? this.timeoutReason() : err instanceof BrokenBodyError ? err.reason : `the connection broke while reading the answer (${describeError(err)})`;
    if (call.mayRetry) return call.retry(reason);
    return call.fail(new NetworkError(`${call.where()}: ${reason}${call.retries.attemptsSaid}`, { cause: err }));
  }

  /** A 2xx answer's bytes as data: a list page kept as the service's bytes, JSON, or for other hosts anything. */
  private parseBody(call: Call, status: number, headers: Headers, bytes: Buffer): unknown {
    const { options } = call;
    // A file upload or a signed link is not the API: its answer may be anything.
    const apiAnswer = options.accept === undefined && options.rawBody === undefined && !call.signed;
    // A page of an --all export, or a large list page, that the scanner vouches for keeps its
    // items as the service's bytes; any other answer is parsed.
    // The token the service may echo is masked in what sct shows of the answer (a file a
    // download writes is not an API answer, and is left as sent).
    if (options.anyAnswer && apiAnswer && bytes.length > 0 && !saysJson(headers) && !looksLikeHtml(bytes.toString('utf8', 0, 1024), headers)) {
      return new RawAnswer(bytesWithoutToken(bytes, this.token), mediaType(headers));
    }
    // A write the service said it did (`sct api`'s 2xx) is not failed as one that may have been
    // done for an answer that is not JSON, nor text in its charset: the answer is kept as it came,
    // for the command to say.
    const kept = options.anyAnswer && call.method !== 'GET' && call.method !== 'HEAD';
    // As UTF-8 first: a token in an answer sent in UTF-16 is masked as one sent in UTF-8.
    if (apiAnswer && kept) {
      try {
        bytes = bytesWithoutToken(answerUtf8(headers, bytes), this.token);
      } catch (err) {
        return new RawAnswer(bytesWithoutToken(bytes, this.token), mediaType(headers), (err as Error).message);
      }
    } else if (apiAnswer) bytes = bytesWithoutToken(asUtf8(call, headers, bytes), this.token);
    // `sct api` prints what came: an answer with no body at all (chunked and empty, or an empty
    // gzip) is nothing, not a JSON null the service never sent.
    if (options.anyAnswer && bytes.length === 0) return undefined;
    const pageToScan = call.mode === 'export-page' || (call.mode === 'page' && (bytes.length >= this.opts.scanFromBytes || mayNotRoundTrip(bytes)));
    const scan = pageToScan && apiAnswer && !contentType(headers).includes('html');
    const scanned = scan ? scanListPage(bytes) : undefined;
    const parse = (text: string) =>
      apiAnswer
        ? parseAnswer(text, status, headers, () => call.where(), (e, what) => (kept ? new RawAnswer(bytes, mediaType(headers), what) : call.fail(Object.assign(e, { answer: { status, headers, text } }), true)))
        : parseLoose(text);
    const data = scanned ?? parse(bytes.toString('utf8'));
    const noId = options.expect === 'created' ? (createdIdProblem(data) ?? otherObject(options.body, data)) : undefined;
    if (noId) {
      const err = new AnswerError(`${call.where()}: the service answered ${status} ${statusText(status)} ${noId}: it may or may not have been created`, status);
      // Its key would get this same answer again: the list says whether it is there.
      err.hint = 'list them to see whether it was created before running the command again';
      call.fail(err, true);
    }
    return data;
  }
  /** The whole-request time limit of one attempt: connecting, sending, and the answer to its last byte. */
  private deadline(outer: AbortSignal | undefined): Deadline {
    const controller = new AbortController();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      controller.abort(new Error(this.timeoutReason()));
    }, this.opts.timeoutMs);
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener('abort', onAbort, { once: true });
    return {
      signal: controller.signal,
      clear: () => {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
      },
      expired: () => expired,
    };
  }

  private timeoutReason(ms = this.opts.timeoutMs): string {
    return `no complete answer within ${formatDuration(ms)} (--timeout)`;
  }

  /**
   * A request that timed out before its answer began went through the proxy, when one is used:
   * a proxy that takes the connection and never answers its CONNECT is where to look, not the
   * service. Named without its credentials.
   */
  private async throughProxy(url: URL): Promise<string> {
    const proxy = this.proxy && proxyFor(url, this.proxy);
    if (!proxy) return '';
    const u = new URL(proxy);
    const named = ` through the proxy ${u.protocol}//${u.host} (HTTPS_PROXY/HTTP_PROXY)`;
    // A proxy that opened a tunnel has done its part: the service behind it is what was slow.
    const opened = (await this.transport?.catch(() => undefined))?.lastTunnelOpened?.() ?? false;
    return opened ? `${named}, which opened the tunnel to the service` : `${named}, which may not have answered`;
  }

  /** One attempt on the wire, as the call's target says: resolves with the answer's headers, its body still to read. */
  private async once(call: Call, signal: AbortSignal): Promise<WireResponse> {
    const { url, method } = call.target;
    const { headers, body } = this.requestParts(call);
    this.requestCount++;
    const started = this.now();
    this.traceRequest(call, headers, body);
    const transport = await (this.transport ??= this.makeTransport());
    const res = await transport.send(url, { method, headers, body, signal, idleTimeoutMs: this.opts.timeoutMs, onSend: () => call.retries.sending() });
    call.sentLocation = res.headers.location;
    this.maskTokenInHeaders(res.headers);
    this.traceAnswer(res, started, call);
    return res;
  }

  /**
   * A service that echoes the token in a header (a redirect's Location, a file name, a debugging
   * header) never gets it shown, followed or saved: every header value holding it is masked, as
   * the body's are, and every name (which Node gives in lower case, so looked for so).
   */
  private maskTokenInHeaders(headers: Headers): void {
    const token = this.token;
    if (token === undefined) return;
    const lower = token.toLowerCase();
    for (const [k, v] of Object.entries(headers)) {
      const value = typeof v === 'string' ? withoutToken(v, token) : Array.isArray(v) ? v.map((x) => withoutToken(x, token)) : v;
      const name = lower.length >= 8 && k.includes(lower) ? k.replaceAll(lower, () => maskToken(token)) : k;
      if (name !== k) delete headers[k];
      headers[name] = value;
    }
  }

  /** An attempt's headers and body; a raw body is opened again for each attempt. */
  private requestParts(call: Call): { headers: Record<string, string>; body: string | Buffer | Readable | undefined } {
    const { options } = call;
    const { url, withBody } = call.target;
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      accept: options.accept ?? 'application/json',
      // Over a real link the bytes cost more than the CPU to inflate them (bench/results.md).
      'accept-encoding': ACCEPT_ENCODING,
      ...lowerKeys(options.headers ?? {}),
    };
    // A GET a write's redirect made carries none of the write's body headers, nor its key (a
    // service that checks keys would take it for the key reused on another request).
    if (!withBody) for (const name of ['content-length', 'content-type', 'content-encoding', 'idempotency-key']) delete headers[name];
    // The token goes to the configured origin only: never to a redirect target or a signed
    // upload/download URL on another host.
    const sendAuth = options.auth !== false && this.token && url.origin === this.origin;
    if (sendAuth) headers.authorization = `Bearer ${this.token}`;
    // The key is the service's: storage a download's redirect led to has no use for it.
    if (call.keySent) headers['idempotency-key'] = call.keySent;
    if (withBody && options.rawBody) return { headers, body: options.rawBody() };
    if (withBody && options.bodyAsIs !== undefined) {
      headers['content-type'] ??= 'application/json';
      return { headers, body: options.bodyAsIs };
    }
    // "Requests send Content-Type: application/json" (the API document), a body or not; a
    // signed URL on another host is no request of the API's.
    if (url.origin === this.origin) headers['content-type'] ??= 'application/json';
    return { headers, body: undefined };
  }

  /** --verbose: the request line, its headers (the token masked) and a JSON body. */
  private traceRequest(call: Call, headers: Record<string, string>, body: unknown): void {
    if (!this.trace) return;
    const { url, method } = call.target;
    if (this.proxy && !this.proxySaid && proxyFor(url, this.proxy)) {
      this.proxySaid = true;
      this.trace('* through the proxy from the environment (HTTPS_PROXY/HTTP_PROXY; NO_PROXY honoured)');
    }
    this.trace(`> ${method} ${call.offOrigin() ? redactSignedUrl(url.href) : withoutCredentials(url.href)}${call.keyTraced()}`);
    for (const [k, v] of Object.entries(headers)) {
      this.trace(`> ${k}: ${k === 'authorization' ? `Bearer ${maskToken(this.token ?? '')}` : stripControl(v)}`);
    }
    // A body may carry the service's own strings back (an order's items, as `orders trace` sends
    // them): JSON escapes C0 controls, not C1 ones, which a terminal acts on.
    if (typeof body === 'string') this.trace(`> ${stripControl(body.length > 2000 ? body.slice(0, 2000) + '…' : body)}`);
  }

  /**
   * --verbose: the status, the time it took and the headers that say what came back. The status
   * line names its request: with requests in flight together (--concurrency, --parallel) the
   * `>` lines it answers are not the ones just before it. Its headers follow it at once.
   */
  private traceAnswer(res: WireResponse, started: number, call: Call): void {
    if (!this.trace) return;
    this.trace(`< ${call.traced()}: ${res.statusCode} ${statusText(res.statusCode)} (${this.now() - started} ms)`);
    for (const k of ['content-type', 'content-encoding', 'content-length', 'content-disposition', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'location']) {
      // The service's headers are untrusted text bound for a terminal, C1 controls included.
      if (res.headers[k] !== undefined) this.trace(`< ${k}: ${stripControl(k === 'location' ? this.shownLocation(String(res.headers[k]), call) : String(res.headers[k]))}`);
    }
  }

  /** A redirect's target as the trace shows it: off the base URL's origin (storage), as a signed link, whose credential may be its last path segment. */
  private shownLocation(location: string, call: Call): string {
    const target = redirectTarget(location, call.target.url);
    return target && (call.offOrigin() || target.origin !== this.origin) ? redactSignedUrl(target.href) : redactUrl(location);
  }

  /** --verbose: what an encoded answer weighed on the wire and once decoded (said once it is read, after other answers' lines). */
  private traceDecoded(call: Call, d: DecodedBody): void {
    this.trace?.(`* ${call.traced()}: content-encoding ${d.encoding}: ${d.wireBytes().toLocaleString('en-US')} bytes received, ${d.decodedBytes().toLocaleString('en-US')} decoded`);
  }

  /** A redirect away from the base URL's origin, as an error naming both URLs. */
  private leavingOrigin(where: string, status: number, from: URL, to: URL): NetworkError {
    const what = from.protocol !== to.protocol ? 'scheme' : from.hostname !== to.hostname ? 'host' : 'port';
    // The base URL the redirect points to: its path less the request's own part under the base
    // (`/r1/api/orders/5` → `/api/orders/5` is `/api`); the old base path when it keeps none
    // (`https://moved.example/` for `/api/accounts/me`). A redirect whose path keeps neither
    // (`/bucket/…?X-Amz-Signature=…`: storage) is no service that moved, and its URL may be a
    // signed link: shown as one, with no advice to send the token there.
    const basePath = new URL(this.baseUrl).pathname.replace(/\/+$/, '');
    const own = from.pathname.startsWith(basePath) ? from.pathname.slice(basePath.length) : '';
    const moved = own !== '' && to.pathname.replace(/\/+$/, '').endsWith(own.replace(/\/+$/, ''));
    const sameRoot = to.pathname === '/' || to.pathname === '';
    const err = new NetworkError(
      `${where}: the service redirected (${status} ${statusText(status)}) from ${withoutCredentials(from.href)} to ${moved || sameRoot ? redactUrl(to.href) : redactSignedUrl(to.href)}, another ${what}: sct does not follow a redirect away from the base URL`,
    );
    if (!moved && !sameRoot) return err;
    const newBase = moved ? to.pathname.replace(/\/+$/, '').slice(0, -own.replace(/\/+$/, '').length).replace(/\/+$/, '') : basePath;
    err.hint = `if the service lives there now, use that address as the base URL: --base-url ${to.origin}${newBase} (and sct auth login --base-url ${to.origin}${newBase} for a stored token)`;
    return err;
  }

  /**
   * A dry run's write: recorded as the user would read it, never the token or another header.
   * A signed link shows without its credential; a path as the API documents write it, so a
   * placeholder a command fills in for an answer it has not got (`/documents/{id}/…`,
   * `{upload_url}`) reads as one.
   */
  private plan(options: RequestOptions, method: Method, url: URL): { status: number; headers: Headers; data: unknown } {
    const path = /^https?:\/\//i.test(options.path)
      ? redactSignedUrl(url.href)
      : options.path.startsWith('/')
        ? decodeURI(displayPath(url, this.baseUrl)) + url.search
        : options.path;
    const body = options.rawBody ? (options.dryRunBody ?? '(raw bytes)') : options.bodyAsIs !== undefined ? shownAsIs(options.bodyAsIs) : (options.body ?? null);
    // The token the user may have typed into a field or the path: never printed, as anywhere else.
    this.dryRun!.push({ method, path: withoutToken(path, this.token), body: valueWithoutToken(body, this.token) });
    if (!('dryRunAnswer' in options)) throw new DryRunEnd();
    return { status: 0, headers: {}, data: options.dryRunAnswer };
  }

  private resolve(path: string, query?: Query): URL {
    const url = /^https?:\/\//i.test(path) ? new URL(path) : new URL(this.baseUrl + (path.startsWith('/') ? path : '/' + path));
    // Added after a query the path already has, which stays as written (searchParams would
    // write it again its own way: `b` as `b=`, `%E9` as U+FFFD).
    const added = query ? toSearchParams(query).toString() : '';
    if (added) url.search = url.search.length > 1 ? `${url.search}&${added}` : `?${added}`;
    return url;
  }

  /** Keeps what every answer says of the rate limit, and its Date (doctor's clock check). */
  private recordAnswer(headers: Headers): void {
    const date = Array.isArray(headers.date) ? headers.date[0] : headers.date;
    if (date) this.serverDate = date;
    recordRateLimit(this.rateLimit, headers, this.now());
  }
}

/**
 * Whether a page may hold a number that JSON.parse and JSON.stringify would not give back as
 * written: more than 15 significant digits (an id beyond 2^53), a trailing zero after the point,
 * an exponent. Such a page keeps its items as the service's bytes (the scanner), as an --all
 * export always does, so `-o json` writes the service's numbers. A match inside a string only
 * costs the scanner's time.
 */
function mayNotRoundTrip(bytes: Buffer): boolean {
  return UNSAFE_NUMBER.test(bytes.toString('latin1'));
}
const UNSAFE_NUMBER = /[:[,]\s*-?(?:\d{16}|\d+\.\d{16}|\d+\.\d*0(?=\s*[,}\]])|\d+(?:\.\d+)?[eE][+-]?\d)/;

/** The whole-request time limit of one attempt (ApiClient.deadline). */
interface Deadline {
  signal: AbortSignal;
  clear: () => void;
  expired: () => boolean;
}

/** An answer's text as UTF-8 (answerUtf8): bytes that are not the text they claim are the call's error. */
function asUtf8(call: Call, headers: Headers, bytes: Buffer): Buffer {
  try {
    return answerUtf8(headers, bytes);
  } catch (err) {
    return call.fail(new AnswerError(`${call.where()}: the answer is ${(err as Error).message}`), true);
  }
}

/** A body that is not what its encoding says, or too large, is the same however often it is asked for: the call's error. */
function failUnreadable(call: Call, err: unknown): void {
  // An encoding the user asked for (`sct api -H 'Accept-Encoding: zstd'`) was asked for.
  if (err instanceof UnknownEncodingError && headerValue(call.options.headers, 'accept-encoding') !== undefined) {
    call.fail(new AnswerError(`${call.where()}: the answer is encoded as "${err.encoding}", as -H Accept-Encoding asked, which sct cannot decode (it decodes gzip, deflate and br)`), true);
  }
  if (err instanceof SctError || err instanceof DecodeError || err instanceof UnknownEncodingError) call.fail(new AnswerError(`${call.where()}: ${err.message}`), true);
}

/** An answer that ends with its connection (no Content-Length, not chunked): nothing else says it came whole. */
function endsWithConnection(headers: Headers): boolean {
  return headers['content-length'] === undefined && !/chunked/i.test(String(headers['transfer-encoding'] ?? ''));
}

/**
 * Compressed data that ended early in an answer that ends with its connection was cut on the way,
 * as a body short of its Content-Length is: a BrokenBodyError, asked for again. Undefined for any
 * other decoding failure, which is the answer's and the same however often it is asked for.
 */
function cutOff(where: string, headers: Headers, e: DecodeError, received: number): BrokenBodyError | undefined {
  if (!e.endedEarly || !endsWithConnection(headers)) return undefined;
  return new BrokenBodyError(where, `the answer was cut off after ${received.toLocaleString('en-US')} bytes: the connection closed before its ${e.encoding} data ended`);
}

/** Reads what is left of an answer sct does not use, so the connection can be reused, and ends the attempt's time limit. */
async function drain(res: WireResponse, deadline: Deadline): Promise<void> {
  await discardBody(res.body);
  deadline.clear();
}

/** A header of the caller's, whatever the case of its name. */
function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  return Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Where a redirect leads, or undefined when its Location is not an http(s) URL. */
/**
 * Whether a request is for the user's own profile (what `auth status`, `whoami` and a login ask),
 * however `sct api` wrote its path: a query, a trailing slash.
 */
function isOwnProfile(path: string): boolean {
  // As sent: `/accounts/./me` is `/accounts/me`.
  const sent = new URL(path.replace(/^\/*/, '/'), 'http://sct.invalid').pathname;
  return sent.replace(/\/+$/, '') === PATHS.me.replace(/\/+$/, '');
}

function redirectTarget(location: string | string[], from: URL): URL | undefined {
  try {
    const url = new URL(String(Array.isArray(location) ? location[0] : location), from);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A body sent as it is, as a dry run shows it: its JSON as an object when reading it changes no
 * number (no run of 16 digits or more), else its text, which is what would be sent.
 */
function shownAsIs(body: string | Buffer): unknown {
  if (typeof body !== 'string') {
    // A text body (`--input rows.csv -H 'Content-Type: text/csv'`) is shown as the text it is;
    // bytes that are not UTF-8 text, by their count.
    const text = isUtf8(body) ? body.toString('utf8') : undefined;
    return text !== undefined && !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text) ? text : `(${body.length.toLocaleString('en-US')} bytes)`;
  }
  if (/\d{16}/.test(body)) return body;
  return parseLoose(body);
}

/** A file compressed in itself, by its name or its type: its Content-Encoding is no transport's. */
function isCompressedFile(name: string, contentType: string | string[] | undefined): boolean {
  return /\.(gz|tgz|br)$/i.test(name) || /^application\/(x-)?gzip\b/i.test(String(contentType ?? ''));
}

/**
 * A create answered with an object whose external_id is not the one sent (another object's, a
 * service mixing up answers): said as such, never recorded as this row's creation.
 */
function otherObject(sent: unknown, answer: unknown): string | undefined {
  const mine = sent && typeof sent === 'object' ? (sent as { external_id?: unknown }).external_id : undefined;
  const theirs = answer && typeof answer === 'object' ? (answer as { external_id?: unknown }).external_id : undefined;
  if (typeof mine !== 'string' || typeof theirs !== 'string' || mine.trim() === theirs.trim()) return undefined;
  return `with the object of external_id ${JSON.stringify(theirs.slice(0, 100))}, not ${JSON.stringify(mine.slice(0, 100))}`;
}

/** A write's redirect sct does not follow: marked so that no hint offers a rerun to learn its outcome. */
function notFollowed(err: NetworkError, unknownOutcome: boolean): NetworkError {
  if (unknownOutcome) err.afterRedirect = 'the service answered with a redirect sct does not follow';
  return err;
}
