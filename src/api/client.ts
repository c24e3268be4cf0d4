// The only place sct talks HTTP. Auth, retries, rate limits, idempotency, redirects,
// timeouts, pagination, error mapping and the --verbose trace all live here, once.
import type { Dispatcher } from 'undici';
import { Transform, type Readable } from 'node:stream';
import {
  ACCEPT_ENCODING,
  DecodeError,
  UnknownEncodingError,
  decodeBody,
  discardBody,
  dispatcherTransport,
  nodeTransport,
  proxyTransport,
  type DecodedBody,
  type Headers,
  type ProxySettings,
  type Transport,
  type WireResponse,
} from './transport.js';
import { AnswerError, AuthError, NetworkError, SctError, UsageError, InterruptedError, WaitTooLongError, isAbortError } from '../errors.js';
import { apiErrorFrom, statusText, HTML_PAGE } from './errors.js';
import { stripControl } from '../output/sanitize.js';
import { JsonText, leadingNumericId, scanListPage } from './json-page.js';
import { credentialsInText, maskToken, redactSignedUrl, redactUrl, withoutCredentials } from '../output/redact.js';
import { USER_AGENT } from '../version.js';
import { formatBytes, formatDuration } from '../util/format.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | null | Array<string | number>;
export type Query = URLSearchParams | Record<string, QueryValue>;

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  /** Where the token came from ("SCT_TOKEN"), for the message when it cannot be sent. */
  tokenSource?: string;
  timeoutMs?: number;
  /** Longest rate-limit wait sct sleeps through; longer ones stop the run (RateLimitError). */
  maxWaitMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  env?: NodeJS.ProcessEnv;
  /** An undici dispatcher to send through instead of Node's http (tests: a MockAgent). */
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  /**
   * false: the signal stops waits (backoff, rate-limit pauses) but lets a request already on
   * the wire finish, so a bulk run interrupted with Ctrl-C knows the outcome of every unit it sent.
   */
  abortInFlight?: boolean;
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
  onRateLimitWait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

export interface RequestOptions {
  method?: Method;
  /** Relative to the base URL ("/orders"), or an absolute URL (a signed upload/download link). */
  path: string;
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Raw body (file upload); a function so a retry can re-open the file. */
  rawBody?: () => Readable | Buffer;
  headers?: Record<string, string>;
  accept?: string;
  /** false for anonymous endpoints and signed URLs. */
  auth?: boolean;
  /** Reused by every retry of this call; generated for each POST when not given. */
  idempotencyKey?: string;
  /** 'created': the answer must be the created object (a JSON object with an id), else it is an error. */
  expect?: 'created';
  /** Gives up on this request (a page requested ahead that is no longer wanted): an InterruptedError. */
  signal?: AbortSignal;
  /** On a dry run, what a raw body stands for, as printed ("the 6 bytes of a.pdf"). */
  dryRunBody?: string;
  /**
   * On a dry run: the answer this write pretends to get, so the command goes on to its next
   * request (the next chunk of a bulk write). Without it a dry run ends at the write (DryRunEnd):
   * what follows would act on an answer that never came.
   */
  dryRunAnswer?: unknown;
}

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

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

export interface StreamResponse {
  status: number;
  headers: Headers;
  body: Readable;
}

export interface Page<T> {
  results: T[];
  count: number | null;
  /** Requests made so far for this listing (1 for the first page). */
  request: number;
  /** Items left out so far because an earlier page already held them (same id). */
  duplicates: number;
}

export interface PageOptions {
  /** Items in total; ignored with all. Default 10, as the API. */
  limit?: number;
  all?: boolean;
  /** Items per request. Default 100, or the server's maximum with all. */
  pageSize?: number;
  offset?: number;
  /**
   * For a list whose results are not the items themselves but wrappers holding them
   * (available-orders: `[{count, results: [...]}]`): the items of one wrapper. --limit then
   * counts items, not wrappers.
   */
  unwrap?: (element: unknown) => unknown[];
  /**
   * The items of a page as JsonText (the service's own bytes, checked to be JSON) when the page
   * allows it (see json-page.ts), else parsed as always: for output that prints them unchanged.
   */
  asJsonText?: boolean;
  /**
   * With all: how many pages may be under way at once when the next links page by limit and
   * offset (default 1, one at a time). See PagesAhead.
   */
  parallel?: number;
}

export interface RateLimitState {
  limit?: number;
  remaining?: number;
  /** Unix seconds. */
  reset?: number;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);
/**
 * The largest JSON answer sct reads (a page of 1,000 orders is about 7 MB): 256 MB counted as
 * every size sct prints is, in powers of 1,000, so the message names the limit the spec states.
 */
export const MAX_JSON_BYTES = 256_000_000;
/** An error answer is only read for its message. */
const MAX_ERROR_BYTES = 1024 * 1024;
/** A wait the service asks for beyond this is not a time but a mistake. */
const MAX_PLAUSIBLE_WAIT_MS = 366 * 24 * 3_600_000;
type WaitReason = 'rate-limit' | 'retry-after';
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** With --all and no --page-size sct asks for this many; the server clamps it to its maximum. */
export const ALL_PAGE_SIZE = 10_000;
export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_LIMIT = 10;

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

export function proxyFromEnv(env: NodeJS.ProcessEnv): ProxySettings | null {
  const httpProxy = env.HTTP_PROXY || env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY || env.https_proxy || httpProxy;
  if (!httpProxy && !httpsProxy) return null;
  return { httpProxy, httpsProxy, noProxy: env.NO_PROXY ?? env.no_proxy };
}

export class ApiClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly token?: string;
  private readonly tokenSource?: string;
  private readonly opts: Required<Pick<ClientOptions, 'timeoutMs' | 'maxWaitMs' | 'maxRetries' | 'retryBaseMs'>>;
  /** Made at the first request: undici, when it is needed at all, is loaded only then. */
  private transport?: Promise<Transport>;
  private readonly makeTransport: () => Promise<Transport>;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly trace?: (line: string) => void;
  private readonly onRateLimitWait?: ClientOptions['onRateLimitWait'];
  private readonly signal?: AbortSignal;
  private readonly requestSignal?: AbortSignal;
  private readonly dryRun?: PlannedRequest[];
  readonly rateLimit: RateLimitState = {};
  /** The Date header of the service's last answer, whatever its status (doctor's clock check). */
  serverDate?: string;
  /** Requests sent, retries included (benchmarks and the bulk summary report it). */
  requestCount = 0;
  readonly usesProxy: boolean;

  constructor(options: ClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new UsageError(`invalid base URL: ${credentialsInText(options.baseUrl)}`, {}, 'it looks like https://host/api');
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') {
      throw new UsageError(`invalid base URL: ${withoutCredentials(options.baseUrl)} (http or https only)`);
    }
    if (options.token !== undefined) checkPlainHttp(base, options.env ?? {}, options.warn);
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.origin = base.origin;
    if (options.token !== undefined) checkToken(options.token, options.tokenSource ?? 'the configuration');
    this.token = options.token;
    this.tokenSource = options.tokenSource;
    this.opts = {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxWaitMs: options.maxWaitMs ?? 600_000,
      maxRetries: options.maxRetries ?? 3,
      retryBaseMs: options.retryBaseMs ?? 500,
    };
    const dispatcher = options.dispatcher;
    const proxy = dispatcher ? null : proxyFromEnv(options.env ?? {});
    this.usesProxy = proxy !== null;
    this.makeTransport = dispatcher
      ? () => dispatcherTransport(dispatcher)
      : proxy
        ? () => proxyTransport(proxy)
        : async () => nodeTransport();
    this.sleep = options.sleep ?? abortableSleep;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.trace = options.trace;
    this.onRateLimitWait = options.onRateLimitWait;
    this.signal = options.signal;
    this.requestSignal = options.abortInFlight === false ? undefined : options.signal;
    this.dryRun = options.dryRun;
    if (this.usesProxy) this.trace?.('* using the proxy from the environment (HTTPS_PROXY/HTTP_PROXY; NO_PROXY honoured)');
  }

  /** --max-wait: the longest wait on the service's say-so this client sleeps through. */
  get maxWaitMs(): number {
    return this.opts.maxWaitMs;
  }

  async close(): Promise<void> {
    if (this.transport) await (await this.transport).close();
  }

  /**
   * A JSON request; resolves with the parsed body (null for 204). The answer is read whole
   * within --timeout and at most MAX_JSON_BYTES; a 2xx answer that is not JSON is an error.
   */
  async request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>> {
    const res = await this.send(options, 'json');
    return { status: res.status, headers: res.headers, data: res.data as T };
  }

  /**
   * A request whose body is streamed to the caller (file downloads). --timeout bounds the wait
   * for the headers and then each silence of the body: a file of any size may take its time.
   */
  async stream(options: RequestOptions): Promise<StreamResponse> {
    const res = await this.send(options, 'stream');
    return { status: res.status, headers: res.headers, body: res.body! };
  }

  get<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.request<T>({ path, query }).then((r) => r.data);
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
    const total = options.all ? Infinity : (options.limit ?? DEFAULT_LIMIT);
    const pageSize = Math.min(options.pageSize ?? (options.all ? ALL_PAGE_SIZE : DEFAULT_PAGE_SIZE), total);
    const params = toSearchParams(query);
    params.set('limit', String(pageSize));
    params.set('offset', String(options.offset ?? 0));
    const parallel = options.all ? Math.max(1, Math.floor(options.parallel ?? 1)) : 1;

    let fetched = 0;
    let requests = 1;
    // Every page asked for: a next link that leads back to one of them would loop forever.
    const asked = new Set([pageKey(params)]);
    // Ids written so far: a list that changes while it is read shifts items across pages, and
    // an item is written once however often it is served.
    const seen = new Set<string | number>();
    let duplicates = 0;
    let received = 0;
    let firstCount: number | null | undefined;
    // Requests still under way when the listing ends (an error, a stuck link, the caller
    // stopping) are given up on, never left to retry in the background.
    const stop = new AbortController();
    const get = (query: URLSearchParams): PendingPage => {
      const signal = stop.signal;
      const answer =
        options.asJsonText && !options.unwrap
          ? this.send({ path, query, signal }, 'page').then((r) => ({ data: r.data }))
          : this.request<unknown>({ path, query, signal });
      answer.catch(() => undefined); // surfaced when awaited; never an unhandled rejection meanwhile
      return { query, key: pageKey(query), answer };
    };
    let pending = get(params);
    // Pages requested beyond the next one, in order: predicted from an offset link.
    const ahead = new PagesAhead(parallel, () => this.rateLimit.remaining);
    try {
      for (;;) {
        const { data } = await pending.answer;
        const page = asPage<T>(data, path);
        firstCount ??= page.count;
        const items = options.unwrap ? (page.results.flatMap(options.unwrap) as T[]) : page.results;
        received += items.length;
        const fresh = items.filter((item) => {
          const id = itemId(item);
          if (id === undefined) return true;
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        });
        duplicates += items.length - fresh.length;
        const results = fresh.slice(0, total - fetched);
        fetched += results.length;

        let next: PendingPage | null = null;
        let stuck: string | undefined;
        if (page.next && fetched < total) {
          // Only the next link's query is used, on our own base URL: a server behind a proxy often
          // builds links with an internal host or scheme, and the token must not follow those.
          const nextParams = new URL(page.next, this.baseUrl + '/').searchParams;
          if (page.results.length === 0) stuck = 'an empty page links to a next one';
          else if (asked.has(pageKey(nextParams))) stuck = 'the next link leads to a page already fetched';
          asked.add(pageKey(nextParams));
          const remaining = total - fetched;
          if (remaining < Number(nextParams.get('limit') ?? Infinity)) nextParams.set('limit', String(remaining));
          // Links that differ only by a token say nothing: what the pages hold does.
          if (!stuck && items.length > 0 && fresh.length === 0) stuck = 'a page holds only items already read (the same page again)';
          if (!stuck && firstCount !== null && received > 2 * Math.max(firstCount, 1)) stuck = `more items than twice the ${firstCount} the list counts`;
          if (!stuck) {
            next = ahead.take(pageKey(nextParams)) ?? get(nextParams);
            ahead.fill(pending.query, nextParams, firstCount, get);
          }
        }
        if (!next) ahead.drop();
        yield { results, count: page.count, request: requests, duplicates };
        if (stuck) {
          // Following such a link would never end (--all) or return the same items again.
          throw new SctError(`the server's pagination does not advance on GET ${path}: ${stuck} (stopped after ${fetched} items in ${requests} requests)`);
        }
        if (!next) return;
        pending = next;
        requests++;
      }
    } finally {
      stop.abort();
    }
  }

  /**
   * Sends one logical request: retries, rate-limit waits and redirects included. In 'json' mode
   * the answer is read and parsed inside the attempt, so --timeout covers it to the last byte
   * and a connection that breaks half-way through the answer is retried like any other.
   *
   * Every error thrown for a request that changes something says whether the service may have
   * carried it out (`delivery`): a bulk run reports such a row as unknown, never as rejected.
   */
  private async send(options: RequestOptions, mode: 'json' | 'page' | 'stream'): Promise<{ status: number; headers: StreamResponse['headers']; data?: unknown; body?: StreamResponse['body'] }> {
    const method = options.method ?? 'GET';
    let url = this.resolve(options.path, options.query);
    if (this.dryRun && method !== 'GET') return this.plan(options, method, url);
    // A key the caller chose (`sct api -H 'Idempotency-Key: K'`, `create --idempotency-key K`) is
    // sent unchanged: only then does a rerun of the same write find the first one's outcome.
    // node:crypto is loaded by the first POST that needs a key of its own: a GET never does.
    const idempotencyKey =
      method === 'POST' ? (options.idempotencyKey ?? headerValue(options.headers, 'idempotency-key') ?? (await import('node:crypto')).randomUUID()) : undefined;
    // A signed link (an absolute URL the service handed out) carries its credential in its path
    // or query: messages and the trace show where it goes, never the secret.
    const signed = /^https?:\/\//i.test(options.path);
    const shown = () => (signed ? redactSignedUrl(url.href) : displayPath(url, this.baseUrl));
    const where = () => `${method} ${shown()}`;
    let attempt = 0;
    let throttled = 0;
    let redirects = 0;
    let currentMethod: Method = method;
    let withBody = true;
    // Time spent waiting on the service's say-so (rate limit, Retry-After): bounded by --max-wait.
    let waited = 0;
    // Whether an attempt may have reached the service and been carried out, its answer lost.
    let mayHaveArrived = false;
    // Annotated so the compiler knows a call never returns.
    const fail: (err: SctError, arrived?: boolean) => never = (err, arrived = mayHaveArrived) => {
      if (method !== 'GET') err.delivery = arrived ? 'unknown' : 'not_sent';
      throw err;
    };
    // A caller's own signal (a page no longer wanted) ends the request's waits and its attempt on the wire.
    const waitSignal = joinSignals(this.signal, options.signal);
    const wireSignal = joinSignals(this.requestSignal, options.signal);
    const wait = async (ms: number, why: WaitReason) => {
      if (waited + ms > this.opts.maxWaitMs) fail(new WaitTooLongError(why, ms, this.now(), where()));
      waited += ms;
      await this.rateLimitPause(ms, why, waitSignal);
    };

    for (;;) {
      if (options.signal?.aborted) fail(new InterruptedError());
      const budgetMs = this.budgetPauseMs();
      if (budgetMs > 0) {
        await wait(budgetMs, 'rate-limit').catch((err) => fail(err));
        this.rateLimit.remaining = undefined;
      }
      const deadline = this.deadline(wireSignal);
      let res: WireResponse;
      try {
        res = await this.once(currentMethod, url, options, withBody, idempotencyKey, deadline.signal);
      } catch (err) {
        deadline.clear();
        const timedOut = deadline.expired();
        if (err instanceof InterruptedError || (!timedOut && wireSignal?.aborted)) fail(new InterruptedError());
        if (timedOut || !neverConnected(err)) mayHaveArrived = true;
        const reason = timedOut ? this.timeoutReason() : describeError(err);
        if (attempt < this.opts.maxRetries && (timedOut || isRetryableError(err))) {
          await this.backoffOrStop(attempt++, reason, undefined, wait, waitSignal).catch((e) => fail(e));
          continue;
        }
        fail(new NetworkError(`${where()}: ${reason}`, { cause: err }));
      }
      this.recordRateLimit(res.headers);
      const status = res.statusCode;
      const drain = async () => {
        await discardBody(res.body);
        deadline.clear();
      };

      if (REDIRECT_STATUS.has(status) && res.headers.location !== undefined) {
        await drain();
        if (++redirects > MAX_REDIRECTS) fail(new NetworkError(`${where()}: too many redirects (more than ${MAX_REDIRECTS})`));
        const target = redirectTarget(res.headers.location, url);
        if (!target) fail(new NetworkError(`${where()}: the server redirected (${status}) to an invalid or non-HTTP location`));
        // Followed, such a redirect would drop the token and end in a 401 that blames the
        // token; it means the base URL is not the service's own address, which is what to say.
        if (url.origin === this.origin && target.origin !== this.origin) fail(this.leavingOrigin(where(), status, url, target));
        url = target;
        if (status === 303) {
          currentMethod = 'GET';
          withBody = false;
        }
        continue;
      }
      if (status === 429) {
        // Never a rejection: the service has not looked at the request. Wait as it asks.
        await drain();
        await wait(this.throttleWaitMs(res.headers, throttled++), 'rate-limit').catch((e) => fail(e));
        this.rateLimit.remaining = undefined;
        continue;
      }
      if (RETRYABLE_STATUS.has(status) && attempt < this.opts.maxRetries) {
        await drain();
        // A gateway's 502/504 may come after the service did the work; a 503 is a refusal to start.
        if (status !== 503) mayHaveArrived = true;
        const hint = status === 503 ? retryAfterMs(res.headers, this.now()) : undefined;
        await this.backoffOrStop(attempt++, `${status} ${statusText(status)}`, hint, wait, waitSignal).catch((e) => fail(e));
        continue;
      }
      if (status === 404 && method === 'DELETE' && attempt > 0) {
        // An earlier attempt reached the server and deleted the resource, and only its answer
        // was lost: the resource is gone, which is what was asked.
        await drain();
        this.trace?.('* 404 on a retried DELETE: an earlier attempt already deleted it');
        return { status: 204, headers: res.headers, data: null };
      }
      if (status >= 400) {
        let text = '';
        try {
          text = await readCapped((await decodeBody(res.body, res.headers)).body, res.headers, MAX_ERROR_BYTES);
        } catch {
          /* an error answer cut short still has its status to report */
        }
        deadline.clear();
        if (RETRYABLE_STATUS.has(status) && status !== 503) mayHaveArrived = true;
        const err = apiErrorFrom(status, parseErrorBody(text, res.headers), method, shown());
        // Every request 404s when the base URL lacks the /api prefix: say so where it shows.
        if (status === 404 && url.origin === this.origin) err.hint = missingApiPrefix(this.baseUrl);
        if (status === 401) {
          fail(new AuthError(err.message, 401, rejectedTokenHint(this.token, this.tokenSource)), false);
        }
        fail(err, status >= 500 ? mayHaveArrived : false);
      }
      const unusable = unusableAnswer(status, method, mode);
      if (unusable) {
        await drain();
        fail(new AnswerError(`${where()}: ${unusable}`), true);
      }
      if (mode === 'stream') {
        // The body is the caller's to read; the transport's idle timeout still cuts a silent one.
        deadline.clear();
        // Content-Length counts the bytes on the wire, checked before they are decoded.
        const checked = checkedBody(res.body, res.headers, where(), wireSignal);
        let decoded: DecodedBody;
        try {
          decoded = await decodeBody(checked, res.headers, (e) => new AnswerError(`${where()}: ${e.message}`));
        } catch (err) {
          fail(new AnswerError(`${where()}: ${(err as Error).message}`), true);
        }
        if (!decoded.encoding) return { status, headers: res.headers, body: decoded.body };
        decoded.body.once('end', () => this.traceDecoded(decoded));
        // The caller reads the decoded bytes: the wire's length says nothing of how many they are.
        const headers = { ...res.headers };
        delete headers['content-length'];
        return { status, headers, body: decoded.body };
      }

      let bytes: Buffer;
      try {
        const decoded = await decodeBody(res.body, res.headers);
        bytes = await readCappedBytes(decoded.body, decoded.encoding ? {} : res.headers, MAX_JSON_BYTES);
        if (decoded.encoding) this.traceDecoded(decoded);
      } catch (err) {
        const timedOut = deadline.expired();
        deadline.clear();
        // A body that is not what its encoding says is the same however often it is asked for.
        if (err instanceof SctError || err instanceof DecodeError || err instanceof UnknownEncodingError) fail(new AnswerError(`${where()}: ${err.message}`), true);
        if (!timedOut && wireSignal?.aborted) fail(new InterruptedError(), true);
        mayHaveArrived = true;
        const reason = timedOut ? this.timeoutReason() : `the connection broke while reading the answer (${describeError(err)})`;
        if (attempt < this.opts.maxRetries) {
          await this.backoffOrStop(attempt++, reason, undefined, wait, waitSignal).catch((e) => fail(e));
          continue;
        }
        fail(new NetworkError(`${where()}: ${reason}`, { cause: err }));
      }
      deadline.clear();
      // A file upload or a signed link is not the API: its answer may be anything.
      const apiAnswer = options.accept === undefined && options.rawBody === undefined && !/^https?:\/\//i.test(options.path);
      // A list page the scanner vouches for keeps its items as the service's bytes; any other answer is parsed.
      let data: unknown = mode === 'page' && apiAnswer && !contentType(res.headers).includes('html') ? scanListPage(bytes) : undefined;
      if (data === undefined) {
        const text = bytes.toString('utf8');
        data = apiAnswer ? parseAnswer(text, status, res.headers, where, (e) => fail(e, true)) : parseLoose(text);
      }
      if (options.expect === 'created' && !hasId(data)) {
        fail(new AnswerError(`${where()}: the service answered ${status} ${statusText(status)} without the created object (no id): it may or may not have been created`), true);
      }
      return { status, headers: res.headers, data };
    }
  }

  /** The whole-request time limit of one attempt: connecting, sending, and the answer to its last byte. */
  private deadline(outer: AbortSignal | undefined): { signal: AbortSignal; clear: () => void; expired: () => boolean } {
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

  private timeoutReason(): string {
    return `no complete answer within ${formatDuration(this.opts.timeoutMs)} (--timeout)`;
  }

  private async once(
    method: Method,
    url: URL,
    options: RequestOptions,
    withBody: boolean,
    idempotencyKey: string | undefined,
    signal: AbortSignal,
  ): Promise<WireResponse> {
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      accept: options.accept ?? 'application/json',
      // Over a real link the bytes cost more than the CPU to inflate them (bench/results.md).
      'accept-encoding': ACCEPT_ENCODING,
      ...lowerKeys(options.headers ?? {}),
    };
    // The token goes to the configured origin only: never to a redirect target or a signed
    // upload/download URL on another host.
    const sendAuth = options.auth !== false && this.token && url.origin === this.origin;
    if (sendAuth) headers.authorization = `Bearer ${this.token}`;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let body: string | Buffer | Readable | undefined;
    if (withBody && options.rawBody) {
      body = options.rawBody();
    } else if (withBody && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }

    this.requestCount++;
    const started = this.now();
    if (this.trace) {
      const signed = /^https?:\/\//i.test(options.path);
      this.trace(`> ${method} ${signed ? redactSignedUrl(url.href) : url.origin === this.origin ? withoutCredentials(url.href) : redactUrl(url.href)}`);
      for (const [k, v] of Object.entries(headers)) {
        this.trace(`> ${k}: ${k === 'authorization' ? `Bearer ${maskToken(this.token ?? '')}` : stripControl(v)}`);
      }
      if (typeof body === 'string') this.trace(`> ${body.length > 2000 ? body.slice(0, 2000) + '…' : body}`);
    }
    const transport = await (this.transport ??= this.makeTransport());
    const res = await transport.send(url, { method, headers, body, signal, idleTimeoutMs: this.opts.timeoutMs });
    if (this.trace) {
      this.trace(`< ${res.statusCode} ${statusText(res.statusCode)} (${this.now() - started} ms)`);
      for (const k of ['content-type', 'content-encoding', 'content-length', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'location']) {
        // The service's headers are untrusted text bound for a terminal, C1 controls included.
        if (res.headers[k] !== undefined) this.trace(`< ${k}: ${stripControl(k === 'location' ? redactUrl(String(res.headers[k])) : String(res.headers[k]))}`);
      }
    }
    return res;
  }

  /** --verbose: what an encoded answer weighed on the wire and once decoded. */
  private traceDecoded(d: DecodedBody): void {
    this.trace?.(`* content-encoding ${d.encoding}: ${d.wireBytes().toLocaleString('en-US')} bytes received, ${d.decodedBytes().toLocaleString('en-US')} decoded`);
  }

  /** A redirect away from the base URL's origin, as an error naming both URLs. */
  private leavingOrigin(where: string, status: number, from: URL, to: URL): NetworkError {
    const what = from.protocol !== to.protocol ? 'scheme' : from.hostname !== to.hostname ? 'host' : 'port';
    const err = new NetworkError(
      `${where}: the service redirected (${status} ${statusText(status)}) from ${withoutCredentials(from.href)} to ${redactUrl(to.href)}, another ${what}: sct does not follow a redirect away from the base URL`,
    );
    const basePath = new URL(this.baseUrl).pathname.replace(/\/+$/, '');
    err.hint = `if the service lives there now, use that address as the base URL: --base-url ${to.origin}${basePath} (and sct auth login --base-url ${to.origin}${basePath} for a stored token)`;
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
    this.dryRun!.push({ method, path, body: options.rawBody ? (options.dryRunBody ?? '(raw bytes)') : (options.body ?? null) });
    if (!('dryRunAnswer' in options)) throw new DryRunEnd();
    return { status: 0, headers: {}, data: options.dryRunAnswer };
  }

  private resolve(path: string, query?: Query): URL {
    const url = /^https?:\/\//i.test(path) ? new URL(path) : new URL(this.baseUrl + (path.startsWith('/') ? path : '/' + path));
    if (query) {
      for (const [k, v] of toSearchParams(query)) url.searchParams.append(k, v);
    }
    return url;
  }

  private recordRateLimit(headers: Headers): void {
    const num = (k: string) => {
      const v = headers[k];
      const n = Number(Array.isArray(v) ? v[0] : v);
      return v !== undefined && Number.isFinite(n) ? n : undefined;
    };
    const date = Array.isArray(headers.date) ? headers.date[0] : headers.date;
    if (date) this.serverDate = date;
    const limit = num('x-ratelimit-limit');
    const remaining = num('x-ratelimit-remaining');
    const reset = resetTime(headers['x-ratelimit-reset'], this.now());
    if (limit !== undefined) this.rateLimit.limit = limit;
    if (remaining !== undefined) this.rateLimit.remaining = remaining;
    if (reset !== undefined) this.rateLimit.reset = reset;
  }

  /** Remaining hit 0: how long to wait for the reset rather than provoke a 429 (0: no wait). */
  private budgetPauseMs(): number {
    const { remaining, reset } = this.rateLimit;
    if (remaining !== 0 || reset === undefined) return 0;
    return Math.max(reset * 1000 - this.now(), 0);
  }

  /**
   * How long to wait after a 429: the later of Retry-After and X-RateLimit-Reset (a client clock
   * running ahead sees the reset already past, and Retry-After still holds), plus a margin;
   * without either, a backoff that grows with each 429 in a row, so a 429 is never hammered.
   */
  private throttleWaitMs(headers: Headers, inARow: number): number {
    const now = this.now();
    const reset = resetTime(headers['x-ratelimit-reset'], now);
    const fromReset = reset !== undefined ? reset * 1000 - now : undefined;
    const fromRetryAfter = retryAfterMs(headers, now);
    const told = Math.max(fromReset ?? -1, fromRetryAfter ?? -1);
    const floor = Math.min(1000 * 2 ** inARow, 60_000);
    return told > 0 ? Math.ceil(told) + 250 : floor;
  }

  private async rateLimitPause(ms: number, why: WaitReason, signal: AbortSignal | undefined): Promise<void> {
    this.trace?.(`* ${why === 'rate-limit' ? 'rate limit' : 'service unavailable'}: waiting ${Math.ceil(ms / 1000)}s as the service asks`);
    if (why === 'rate-limit' && this.onRateLimitWait) await this.onRateLimitWait(ms, signal);
    else await this.sleep(ms, signal);
  }

  /**
   * Exponential backoff with full jitter before a retry; a Retry-After from the service wins when
   * longer, and then counts against --max-wait like any wait the service asks for.
   */
  private async backoffOrStop(
    attempt: number,
    reason: string,
    serverHintMs: number | undefined,
    wait: (ms: number, why: WaitReason) => Promise<void>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const ceiling = this.opts.retryBaseMs * 2 ** attempt;
    const jittered = Math.min(Math.round(ceiling / 2 + (this.random() * ceiling) / 2), 60_000);
    this.trace?.(`* ${reason}: retry ${attempt + 1}/${this.opts.maxRetries}`);
    if (serverHintMs !== undefined && serverHintMs > jittered) return wait(serverHintMs, 'retry-after');
    await this.sleep(jittered, signal);
  }
}

function joinSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}

/**
 * What to do about a 401. While SCT_TOKEN is set it wins over the profile, so `sct auth login`
 * could not help: the hint names the variable.
 */
function rejectedTokenHint(token: string | undefined, source: string | undefined): string {
  if (!token) return 'run `sct auth login`';
  if (source === 'SCT_TOKEN') return "the token in SCT_TOKEN was rejected: set a valid one, or unset SCT_TOKEN to use the profile's (sct auth login)";
  return 'the token was rejected: run `sct auth login`';
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * A token over plain http can be read by anyone on the way: only loopback (the sandbox, a local
 * tunnel) is spared. SCT_ALLOW_HTTP=1 is the user accepting it, said on every command that does.
 */
function checkPlainHttp(base: URL, env: NodeJS.ProcessEnv, warn?: (message: string) => void): void {
  if (base.protocol !== 'http:' || isLoopback(base.hostname)) return;
  const origin = base.origin;
  if (env.SCT_ALLOW_HTTP === '1') {
    warn?.(`the token goes over plain http to ${origin}, unencrypted (SCT_ALLOW_HTTP=1)`);
    return;
  }
  const secure = `https://${base.host}${base.pathname.replace(/\/+$/, '')}`;
  throw new UsageError(
    `the token is never sent over plain http to a host other than this machine (${origin})`,
    {},
    `use ${secure}, or set SCT_ALLOW_HTTP=1 to send it unencrypted all the same`,
  );
}

/**
 * The API documents' base URL ends in /api, and paths are relative to it. A base URL without
 * it (`http://host:8080`) is still used as given — a gateway may mount the API elsewhere — but
 * this says what is most likely meant. Undefined when the path ends in /api.
 */
export function missingApiPrefix(baseUrl: string): string | undefined {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api')) return undefined;
  return `the base URL ${u.origin}${path} does not end in /api, as the API's base URL does: did you mean ${u.origin}${path}/api?`;
}

/**
 * A token goes into a header: a newline or other control character (a token file with a
 * trailing CRLF, a paste gone wrong) would make the request fail in the HTTP library. Said
 * here, before anything is sent, with where the token came from.
 */
export function checkToken(token: string, source: string): void {
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError(
      `the token from ${source} contains invalid characters (control characters, spaces or non-ASCII)`,
      {},
      'a token is printable ASCII on one line: check for a trailing newline or carriage return',
    );
  }
}

interface PendingPage {
  query: URLSearchParams;
  key: string;
  answer: Promise<{ data: unknown }>;
}

/**
 * The pages requested beyond the next one. When a next link says "the same query, `offset`
 * moved on by `limit`", the pages after it are known too: offset + limit, + 2 × limit, … up to
 * the count of the first page. They are requested so that, with the next page, at most
 * `parallel` are under way or waiting to be handed over, and handed over only when the
 * service's own next link names them — so the order, the number of requests and what stops
 * the listing are those of one page at a time. A link that names another page (the list
 * changed while it was read) drops them and is followed as it says. While the rate limit has
 * fewer requests left than `parallel`, no page is requested ahead.
 */
class PagesAhead {
  private readonly queue: PendingPage[] = [];
  /** The offset and limit of the last page requested by prediction or link, and the query around them. */
  private last?: OffsetStep;

  constructor(
    private readonly parallel: number,
    private readonly remaining: () => number | undefined,
  ) {}

  /** The page the next link names, when it was requested ahead; anything else ahead is dropped. */
  take(key: string): PendingPage | undefined {
    if (this.queue[0]?.key === key) return this.queue.shift();
    this.drop();
    return undefined;
  }

  drop(): void {
    // Their answers are not awaited: each has its catch, and the listing's end aborts them.
    this.queue.length = 0;
    this.last = undefined;
  }

  /** Requests pages after `next` (the link just followed from `current`), up to `parallel` - 1 ahead of it. */
  fill(current: URLSearchParams, next: URLSearchParams, count: number | null | undefined, get: (q: URLSearchParams) => PendingPage): void {
    if (this.parallel <= 1 || count === null || count === undefined) return;
    const remaining = this.remaining();
    if (remaining !== undefined && remaining < this.parallel) return;
    if (!this.last) {
      const step = offsetStep(current, next);
      if (!step) return;
      this.last = step;
    }
    while (this.queue.length < this.parallel - 1) {
      const offset: number = this.last.offset + this.last.limit;
      if (offset >= count) return;
      const params: URLSearchParams = new URLSearchParams(this.last.params);
      params.set('offset', String(offset));
      this.last = { limit: this.last.limit, offset, params };
      this.queue.push(get(params));
    }
  }
}

/**
 * The offset and limit of a next link that pages by limit and offset: the current page's query
 * with only `offset` moved on, by the link's `limit`. Undefined for any other link (a cursor, a
 * page number, other filters), which is followed one page at a time.
 */
interface OffsetStep {
  offset: number;
  limit: number;
  params: URLSearchParams;
}

function offsetStep(current: URLSearchParams, next: URLSearchParams): OffsetStep | undefined {
  const int = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);
  const offset = int(next.get('offset'));
  const limit = int(next.get('limit'));
  const was = int(current.get('offset')) ?? 0;
  if (offset === undefined || limit === undefined || limit === 0 || offset <= was) return undefined;
  const rest = (q: URLSearchParams) => {
    const r = new URLSearchParams(q);
    r.delete('offset');
    r.delete('limit');
    return pageKey(r);
  };
  if (rest(current) !== rest(next)) return undefined;
  return { offset, limit, params: new URLSearchParams(next) };
}

function asPage<T>(data: unknown, path: string): { results: T[]; count: number | null; next: string | null } {
  if (Array.isArray(data)) return { results: data as T[], count: data.length, next: null };
  if (data && typeof data === 'object' && Array.isArray((data as { results?: unknown }).results)) {
    const d = data as { results: T[]; count?: number; next?: string | null };
    return { results: d.results, count: typeof d.count === 'number' ? d.count : null, next: d.next ?? null };
  }
  throw new NetworkError(`unexpected response from GET ${path}: not a paginated list`);
}

/**
 * An item's id, or undefined when it has none. Items passed through as JsonText are not parsed
 * when their id comes first, as list endpoints write it; only an item that starts otherwise is.
 */
function itemId(item: unknown): string | number | undefined {
  if (item instanceof JsonText) {
    const id = leadingNumericId(item);
    if (id !== undefined) return id;
    item = JSON.parse(Buffer.from(item.bytes).toString('utf8'));
  }
  const id = item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

/** A page's query with its parameters in order, so the same page reads the same. */
function pageKey(params: URLSearchParams): string {
  const sorted = new URLSearchParams(params);
  sorted.sort();
  return sorted.toString();
}

export function toSearchParams(query: Query): URLSearchParams {
  if (query instanceof URLSearchParams) return new URLSearchParams(query);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    params.append(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return params;
}

/** A header of the caller's, whatever the case of its name. */
function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  return Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
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

function isRetryableError(err: unknown): boolean {
  if (isAbortError(err)) return false;
  const code = errorCode(err);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

function describeError(err: unknown): string {
  const code = errorCode(err);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the base URL right and the service up?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ETIMEDOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timed out (see --timeout)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset by the server';
    default:
      // A library's message may name a URL with its credentials (a proxy's).
      return credentialsInText((err as Error)?.message ?? String(err));
  }
}

/** Retry-After in ms from now: delay-seconds or an HTTP date. Nonsense (negative, unparsable) is ignored. */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const v = headers['retry-after'];
  if (v === undefined) return undefined;
  const s = String(Array.isArray(v) ? v[0] : v).trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.min(Number(s) * 1000, MAX_PLAUSIBLE_WAIT_MS);
  const date = Date.parse(s);
  return Number.isFinite(date) ? Math.min(Math.max(date - now, 0), MAX_PLAUSIBLE_WAIT_MS) : undefined;
}

/**
 * X-RateLimit-Reset as Unix seconds. Small values are read as seconds from now (some services
 * send a delay there); a time further out than a year, or not a number, is no time at all.
 */
export function resetTime(v: string | string[] | undefined, now: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(Array.isArray(v) ? v[0] : v);
  if (!Number.isFinite(n) || n < 0) return undefined;
  const seconds = n < 1e9 ? now / 1000 + n : n;
  return seconds * 1000 - now > MAX_PLAUSIBLE_WAIT_MS ? undefined : seconds;
}

/** An answer's body as text, within the same cap as readCappedBytes. */
async function readCapped(body: Readable, headers: Headers, max: number): Promise<string> {
  return (await readCappedBytes(body, headers, max)).toString('utf8');
}

/**
 * Reads an answer's body, refusing more than `max` bytes: a Content-Length above it is
 * refused before a byte is read, and a body without one is counted as it streams, so an
 * endless or enormous answer costs at most `max` bytes of memory, never a crash.
 */
async function readCappedBytes(body: Readable, headers: Headers, max: number): Promise<Buffer> {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    body.destroy();
    throw new SctError(`answer too large (${formatBytes(declared)}, more than the ${formatBytes(max)} sct reads)`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new SctError(`answer too large (more than the ${formatBytes(max)} sct reads)`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function contentType(headers: Headers): string {
  const v = headers['content-type'];
  return String(Array.isArray(v) ? v[0] : (v ?? '')).toLowerCase();
}

function looksLikeHtml(text: string, headers: Headers): boolean {
  return contentType(headers).includes('html') || /^\s*<(!doctype|html|head|body|\?xml)/i.test(text);
}

/** An error answer's body: JSON when it is, a marker for an HTML page, else its text. */
function parseErrorBody(text: string, headers: Headers): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return looksLikeHtml(text, headers) ? HTML_PAGE : text;
  }
}

/** A 2xx answer's body: JSON, or nothing (204, an empty body). Anything else is not the API speaking. */
function parseAnswer(text: string, status: number, headers: Headers, where: () => string, fail: (e: SctError) => never): unknown {
  if (!text.trim()) return null;
  if (!looksLikeHtml(text, headers)) {
    try {
      return JSON.parse(text);
    } catch {
      /* named below */
    }
  }
  const type = contentType(headers).split(';')[0] || 'no content type';
  return fail(
    new AnswerError(
      `${where()}: the answer is not JSON (${status} ${statusText(status)}, ${looksLikeHtml(text, headers) ? 'an HTML page' : type}): ` +
        'a proxy, captive portal or wrong base URL may be in the way',
    ),
  );
}

function parseLoose(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function hasId(data: unknown): boolean {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
  const id = (data as { id?: unknown }).id;
  return (typeof id === 'number' && Number.isFinite(id)) || (typeof id === 'string' && id !== '');
}

/** Where a redirect leads, or undefined when its Location is not an http(s) URL. */
function redirectTarget(location: string | string[], from: URL): URL | undefined {
  try {
    const url = new URL(String(Array.isArray(location) ? location[0] : location), from);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why an answer that is neither an error nor a followed redirect still cannot be used, or
 * undefined when it can. A 204 is the whole answer to a change (a DELETE), never to a read: a
 * GET or a download answered with nothing would print `null` or save an empty file as if it were
 * the result. sct sends no conditional or range request, so a 304 or 206 is never its answer.
 */
function unusableAnswer(status: number, method: Method, mode: 'json' | 'page' | 'stream'): string | undefined {
  const answered = `the service answered ${status} ${statusText(status)}`;
  const expected = mode === 'stream' ? 'a file' : 'JSON';
  if (status === 304) return `${answered}, though sct asked for no cached copy: there is no answer to use`;
  if (status >= 300) return `${answered} without a redirect sct can follow`;
  if (status === 205 || (status === 204 && (method === 'GET' || mode === 'stream'))) return `${answered} where ${expected} was expected`;
  if (status === 206 && mode === 'stream') return `${answered}: only part of the file, though sct asked for all of it`;
  return undefined;
}

/**
 * A streamed body that ends as it should, or with an error naming the request: a connection cut
 * mid-way (Node says only "aborted"), a body shorter than its Content-Length, or Ctrl-C, which
 * stops a download however long its body takes.
 */
function checkedBody(body: Readable, headers: Headers, where: string, signal: AbortSignal | undefined): Readable {
  const declared = contentLength(headers);
  let seen = 0;
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      if (declared !== undefined && seen < declared) done(new NetworkError(`${where}: the answer was cut off after ${seen} of its ${declared} bytes (Content-Length)`));
      else done();
    },
  });
  const onAbort = () => body.destroy(new InterruptedError());
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  body.once('error', (err) => {
    checked.destroy(err instanceof SctError ? err : new NetworkError(`${where}: the connection broke while reading the answer (${describeError(err)})`, { cause: err }));
  });
  // Whoever reads it stops (done, or failed writing): the connection goes with it.
  checked.once('close', () => {
    signal?.removeEventListener('abort', onAbort);
    body.destroy();
  });
  body.pipe(checked);
  return checked;
}

function contentLength(headers: Headers): number | undefined {
  const v = headers['content-length'];
  const n = Number(Array.isArray(v) ? v[0] : v);
  return v !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Errors that mean no byte of the request reached the service. */
function neverConnected(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENETUNREACH' || code === 'EHOSTUNREACH' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

/** A path relative to the base URL for messages, or the URL without its query for other hosts. */
function displayPath(url: URL, baseUrl: string): string {
  return url.href.startsWith(baseUrl + '/') ? url.pathname.slice(new URL(baseUrl).pathname.replace(/\/$/, '').length) : redactUrl(url.href);
}
