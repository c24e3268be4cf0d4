// One logical request across its attempts: where it goes now (a redirect moves it), what its
// attempts have learnt (whether one may have landed), and how its errors are marked.
import type { SctError } from '../errors.js';
import { redactSignedUrl, redactUrl, withoutCredentials } from '../util/redact.js';
import { stripControl } from '../util/sanitize.js';
import type { AnswerMode } from './answers.js';
import type { Method, RequestOptions } from './request.js';
import { Retries, type RetryPolicy } from './retry.js';

/** An attempt's outcome when the request is to be sent again (a retry, a wait, a redirect). */
export const AGAIN = Symbol('again');

/** Where the next attempt goes and how: a 303 turns it into a GET without the body. */
interface Target {
  url: URL;
  method: Method;
  withBody: boolean;
}

export class Call {
  /** The method asked for, which decides how errors are marked; `target.method` is the one sent. */
  readonly method: Method;
  /** A signed link (an absolute URL the service handed out) carries its credential in its path or query. */
  readonly signed: boolean;
  /**
   * A file to save (a stream that accepts the file's type): its redirect to storage on another
   * host is followed, without the token, as a signed link's is (cli-spec.md: "a redirect … on
   * another host gets no Authorization header").
   */
  readonly file: boolean;
  /** The base URL's origin, where the token and the service are. */
  private readonly baseOrigin: string;
  target: Target;
  redirects = 0;
  /**
   * A write the service answered with a redirect that turns it into a GET (a 303, or a 301 or
   * 302 to anything but a GET), read where it points (`sct api`, a file download): the write
   * itself may have been carried out. Its status, for messages.
   */
  readAfter?: number;
  /**
   * The latest answer's Location as it came: the answer's headers have the token masked, and
   * redirect() alone may need it back.
   */
  sentLocation?: string | string[];

  /**
   * An earlier attempt of this write was answered 503: a refusal to start by the service's
   * rule, but a proxy in front of it (Envoy's "reset before headers") may have passed it on.
   */
  refusedBefore = false;

  private arrived = false;
  /** The URL of the last attempt that may have reached the service: a 404 there, once retried, is its own doing. */
  arrivedAt?: string;

  /** Whether an attempt may have reached the service and been carried out, its answer lost. */
  get mayHaveArrived(): boolean {
    return this.arrived;
  }

  set mayHaveArrived(value: boolean) {
    this.arrived = value;
    if (value) this.arrivedAt = this.target.url.href;
  }

  readonly retries: Retries;
  /** Ends the request's waits: the client's signal or the caller's own (a page no longer wanted). */
  readonly waitSignal?: AbortSignal;
  /** Ends an attempt on the wire; without the client's signal when it lets requests in flight finish. */
  readonly wireSignal?: AbortSignal;

  constructor(
    readonly options: RequestOptions,
    readonly mode: AnswerMode,
    url: URL,
    private readonly baseUrl: string,
    readonly idempotencyKey: string | undefined,
    policy: RetryPolicy,
    signals: { client?: AbortSignal; clientWire?: AbortSignal },
  ) {
    this.method = options.method ?? 'GET';
    this.signed = /^https?:\/\//i.test(options.path);
    this.file = mode === 'stream' && options.accept !== undefined;
    this.baseOrigin = new URL(baseUrl).origin;
    this.target = { url, method: this.method, withBody: true };
    this.waitSignal = joinSignals(signals.client, options.signal);
    this.wireSignal = joinSignals(signals.clientWire, options.signal);
    this.retries = new Retries(policy, () => this.where(), () => this.traced(), this.waitSignal, options.onWait, options.timeLimit ?? options.waitLimit);
  }

  /**
   * The Idempotency-Key an attempt carries now: a POST's to the service (storage a download's
   * redirect led to has no use for it, and a GET a redirect made carries none).
   */
  get keySent(): string | undefined {
    return this.target.method === 'POST' && this.target.url.origin === this.baseOrigin ? this.idempotencyKey : undefined;
  }

  /**
   * The request as the --verbose trace names it on the lines of its answer, its retries and its
   * waits: as its `>` line shows it (a signed link's secret left out), without the base URL, so
   * that the requests a bulk run or an export has in flight together can be told apart. Writes
   * to one path differ only by their key: its first 8 characters name them, as on the `>` line.
   */
  traced(): string {
    const { url, method } = this.target;
    const href = this.offOrigin() ? redactSignedUrl(url.href) : withoutCredentials(url.href);
    const base = withoutCredentials(this.baseUrl) + '/';
    return `${method} ${href.startsWith(base) ? href.slice(base.length - 1) : href}${this.keyTraced()}`;
  }

  /** " (key 3f2b8c1e)" for a request that carries a key, as the trace names it; else "". */
  keyTraced(): string {
    const key = this.keySent;
    return key === undefined ? '' : ` (key ${stripControl(key.slice(0, 8))})`;
  }

  /** Where the request goes now, as messages and the trace show it: never a signed link's secret. */
  shown(): string {
    return this.offOrigin() ? redactSignedUrl(this.target.url.href) : displayPath(this.target.url, this.baseUrl);
  }

  /** Whether it goes elsewhere than the base URL's origin now: a signed link, or where a download's redirect led (storage, whose links carry their credential). */
  offOrigin(): boolean {
    return this.signed || this.target.url.origin !== this.baseOrigin;
  }

  /** The request as messages name it: "GET /orders". */
  where(): string {
    // The method sent: a 303 (or a download's 302) turned a POST into a GET.
    return `${this.target.method} ${this.shown()}`;
  }

  /**
   * Throws `err`, saying for a request that changes something whether the service may have
   * carried it out (`delivery`): a bulk run reports such a row as unknown, never as rejected.
   */
  fail(err: SctError, arrived: boolean = this.mayHaveArrived): never {
    if (this.method !== 'GET' && this.method !== 'HEAD') err.delivery = arrived ? 'unknown' : 'not_sent';
    // Whatever failed after a write's redirect was read (a timeout, an answer sct cannot read), a
    // rerun gets the same redirect: no hint may offer one to learn the outcome.
    if (arrived && this.readAfter !== undefined) err.afterRedirect ??= `the service answered with a redirect (${this.readAfter}), and what it led to failed`;
    if (arrived && this.idempotencyKey) err.idempotencyKey = this.idempotencyKey;
    throw err;
  }

  /** Whether another attempt may go: retries left, and none that could do twice what a first did. */
  get mayRetry(): boolean {
    return this.retries.left && !(this.options.onceOnly && this.mayHaveArrived);
  }

  /** Backs off before the next attempt (a wait that stops the request fails it). */
  async retry(reason: string, serverHintMs?: number): Promise<typeof AGAIN> {
    await this.retries.backoff(reason, serverHintMs).catch((e) => this.fail(e));
    return AGAIN;
  }
}

function joinSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}

/** A path relative to the base URL for messages, or the URL without its query for other hosts. */
export function displayPath(url: URL, baseUrl: string): string {
  return url.href.startsWith(baseUrl + '/') ? url.pathname.slice(new URL(baseUrl).pathname.replace(/\/$/, '').length) : redactUrl(url.href);
}
