// The sandbox: a local emulator of the Supply Chain Transparency service on node:http.
// This file owns everything between the socket and a route handler: request logging, fault
// injection, authentication, rate limiting, idempotent replay, the admin surface and the signed
// file URLs. Resources live in routes/*, the list engine in filters.ts, demo data in data.ts.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { buildDemo, Rng, type Store } from './data.js';
import { MAX_PAGE_SIZE } from './filters.js';
import { ApiError, Router, type Auth, type Ctx, type Reply, type ResolvedOptions } from './router.js';
import { registerAccounts } from './routes/accounts.js';
import { registerCatalog } from './routes/catalog.js';
import { fileRoute, registerFiles } from './routes/files.js';
import { registerInformationRequests } from './routes/information.js';
import { registerInvitations } from './routes/invitations.js';
import { registerOrders } from './routes/orders.js';
import { registerStatements } from './routes/statements.js';
import { maskAuthorization, withoutToken } from '../util/redact.js';

export { MAX_PAGE_SIZE };

export interface FaultOptions {
  latencyMs?: number; // added delay before each response
  failureRate?: number; // 0..1 share of requests answered 503 (deterministic PRNG seeded by `seed`)
  rateLimitBurst?: number; // the next N requests are answered 429 with X-RateLimit-Reset = now+resetSeconds
  dropRate?: number; // 0..1 share of requests whose socket is destroyed without a response
  failFirst?: number; // the next N requests answered 503 (deterministic, for retry tests)
  dropFirst?: number; // the next N requests have their socket destroyed
  /** resetSeconds of rateLimitBurst (default 1), so retry tests wait briefly; negative: a reset already past (a client clock ahead). */
  rateLimitResetSeconds?: number;
  /** Retry-After of rateLimitBurst's 429s (default: the seconds until the reset, at least 0). */
  rateLimitRetryAfterSeconds?: number;
  /** Faults hit only requests with these methods (default: every method), e.g. ["POST"] to spare reads. */
  methods?: string[];
  /** Dropped requests are processed first and only their response is lost (tests idempotent retries). */
  dropAfterProcessing?: boolean;
}

export interface SandboxOptions {
  port?: number; // default 0 = free port
  host?: string; // default '127.0.0.1'
  seed?: number; // PRNG seed for demo data (default 1)
  orders?: number; // number of demo orders (default 300); 100000 loads in about a second
  rateLimit?: number; // requests per hour per token (default 1000)
  rateLimitWindowSeconds?: number; // default 3600
  statementDelayMs?: number; // delay before EUDR in_progress -> complete/failed (default 2000)
  faults?: FaultOptions;
  log?: (line: string) => void; // one line per request if given
  /**
   * The encodings the sandbox compresses with when the request's Accept-Encoding allows one, in
   * its order of preference (default gzip, br, deflate, as a proxy with gzip and brotli on);
   * false: never compressed.
   */
  compression?: Encoding[] | false;
}

type Encoding = 'gzip' | 'br' | 'deflate';

interface DemoToken {
  token: string;
  user: string;
  email: string;
  company: string;
  companyId: number;
  role: string;
}

interface RequestRecord {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status: number;
  /** /api requests being handled when this one arrived, itself included: how many a client kept in flight. */
  inFlight: number;
}

export interface Sandbox {
  url: string; // base URL ending in /api, e.g. http://127.0.0.1:43123/api
  origin: string; // http://127.0.0.1:43123
  port: number;
  /** The address the system bound, whatever --host spelled it ('0.0.0.0' and '::' for every interface). */
  address: string;
  tokens: DemoToken[];
  requests: RequestRecord[]; // every request received (admin endpoints excluded), for tests to assert on
  store: Store; // the data behind the answers, for tests that compare the two
  setFaults(f: FaultOptions): void;
  /**
   * Runs before each /api request is handled (after authentication and faults), and may change
   * the store first: for tests of a client that acts on what it read earlier. Undefined: none.
   */
  setBeforeHandle(hook: BeforeHandle | undefined): void;
  /** As SandboxOptions.compression, from now on (undefined: the default). */
  setCompression(encodings: Encoding[] | false | undefined): void;
  /**
   * Resolves when no /api request is being handled, the answers of clients that have gone
   * included (a handler goes on, faults and latency and all, after its client was killed):
   * tests wait for it before the next test's faults, so a request of the one before cannot use them.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

type BeforeHandle = (request: { method: string; path: string; query: string }) => void | Promise<void>;

const REQUEST_LOG_LIMIT = 10_000;
const IDEMPOTENCY_LIMIT = 10_000;
const BODY_LIMIT = 100 * 1024 * 1024;

/** How deep a request body's arrays and objects may nest. */
const MAX_NESTING = 100;

/** A host name, an IPv4 address or a bracketed IPv6 address, and an optional port. */
const VALID_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Whether a parsed body nests deeper than `limit` (walked without recursion: the body may be absurd). */
function nestingOver(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
/** Request bodies kept in the log are cut here so uploads do not fill memory. */
const LOGGED_BODY_LIMIT = 64 * 1024;

function buildRouter(): Router {
  const r = new Router();
  registerAccounts(r);
  registerCatalog(r);
  registerOrders(r);
  registerStatements(r);
  registerInformationRequests(r);
  registerInvitations(r);
  registerFiles(r);
  return r;
}

/** The first request sent with one token and Idempotency-Key, and its outcome once known. */
interface IdempotentEntry {
  method: string;
  path: string;
  /** The request body as canonical JSON. */
  body: string;
  outcome: Promise<StoredReply>;
}

/** JSON with object keys sorted, so the same body sent with another key order or spacing is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(obj[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? '';
}

/** A response body: one buffer, or parts sent one after the other. */
type Payload = Buffer | readonly Buffer[];

interface StoredReply {
  status: number;
  headers: Record<string, string>;
  payload: Payload;
  path: string;
}

/** Serialises a handler's reply once; idempotent replays resend exactly these bytes. */
function serialise(reply: Reply): { headers: Record<string, string>; payload: Payload } {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.raw) return { headers, payload: reply.raw };
  if (reply.status === 204 || reply.body === undefined) return { headers, payload: Buffer.alloc(0) };
  headers['Content-Type'] ??= 'application/json';
  return { headers, payload: Buffer.from(JSON.stringify(reply.body)) };
}

const DEFAULT_ENCODINGS: Encoding[] = ['gzip', 'br', 'deflate'];
/** What a proxy compresses: text and JSON, not files that are compressed already (ZIP, PDF, images). */
const COMPRESSIBLE = /^(text\/|application\/(json|geo\+json|xml|javascript)|image\/svg\+xml)/i;
/** nginx's gzip_min_length: smaller answers would only grow. */
const MIN_COMPRESSED_BYTES = 20;

/** The first of `offered` that an Accept-Encoding header accepts (q=0 refuses), or undefined. */
function chooseEncoding(accept: string | string[] | undefined, offered: readonly Encoding[]): Encoding | undefined {
  const accepted = new Set<string>();
  for (const part of String(accept ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';').map((x) => x.trim());
    if (!name || params.some((p) => /^q=0(\.0*)?$/.test(p))) continue;
    accepted.add(name);
  }
  return offered.find((e) => accepted.has(e) || accepted.has('*'));
}

/**
 * The payload compressed as a proxy in front of the service would: its fastest levels (nginx's
 * gzip_comp_level 1; brotli at 4, about gzip's speed), so the answer's time is the link's.
 */
function compress(encoding: Encoding, body: Buffer): Buffer {
  if (encoding === 'br') return zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  return encoding === 'gzip' ? zlib.gzipSync(body, { level: 1 }) : zlib.deflateSync(body, { level: 1 });
}

const sleep = (ms: number) => new Promise<void>((res) => setTimeout(res, ms).unref());

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  // An IPv6 address as a URL writes it (`[::1]`, as the sandbox prints its own) is listened on without the brackets.
  const host = (opts.host ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  const seed = opts.seed ?? 1;
  const rateLimit = opts.rateLimit ?? 1000;
  const windowMs = (opts.rateLimitWindowSeconds ?? 3600) * 1000;
  const options: ResolvedOptions = { statementDelayMs: opts.statementDelayMs ?? 2000 };
  const { store, tokens: tokenSpecs } = buildDemo(seed, opts.orders ?? 300);
  const router = buildRouter();
  const requests: RequestRecord[] = [];
  const faultRng = new Rng(seed ^ 0x5eed);
  let faults: Required<FaultOptions> = normaliseFaults(opts.faults);
  const windows = new Map<string, { start: number; count: number }>();
  const idempotent = new Map<string, IdempotentEntry>();
  const log = opts.log;
  let beforeHandle: BeforeHandle | undefined;
  let apiInFlight = 0;
  // Handlers still running, whether or not their client is still there (Sandbox.settled).
  let handling = 0;
  let whenSettled: (() => void)[] = [];
  const handled = () => {
    if (--handling > 0) return;
    const waiting = whenSettled;
    whenSettled = [];
    for (const resolve of waiting) resolve();
  };
  let encodings = opts.compression === undefined ? DEFAULT_ENCODINGS : opts.compression;

  function record(req: http.IncomingMessage, url: URL, body: Buffer, status: number, started: number, inFlight: number): void {
    // A signed link's token is its credential, masked as the Authorization header is; so is a
    // public invitation's UUID ("the only credential", accounts.md), but for its first 8 digits.
    const path = url.pathname
      .replace(/^\/(_uploads|_downloads)\/[^/]+/, '/$1/…')
      .replace(/(\/user-invitations\/public\/)([0-9a-f]{8})[^/]*/i, '$1$2…');
    // The log is served at /_sandbox/requests to anyone who asks: tokens are masked in it, the
    // request's own wherever it repeats it (a query, another header, the body).
    const token = req.headers.authorization?.split(/\s+/, 2)[1];
    const masked = (text: string) => withoutToken(text, token);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v === undefined ? v : Array.isArray(v) ? v.map(masked) : masked(v)]));
    if (req.headers.authorization !== undefined) headers.authorization = maskAuthorization(req.headers.authorization);
    const query = masked(url.search.replace(/^\?/, ''));
    requests.push({
      method: req.method ?? 'GET',
      path: masked(path),
      query,
      headers,
      body: masked(body.subarray(0, LOGGED_BODY_LIMIT).toString('utf8')),
      status,
      inFlight,
    });
    if (requests.length > REQUEST_LOG_LIMIT) requests.splice(0, requests.length - REQUEST_LOG_LIMIT);
    log?.(`${req.method} ${masked(path)}${query ? `?${query}` : ''} ${status === 0 ? 'dropped' : status} ${Date.now() - started}ms`);
  }

  function send(res: http.ServerResponse, status: number, headers: Record<string, string>, payload: Payload): void {
    if (res.destroyed) return;
    let parts = Buffer.isBuffer(payload) ? [payload] : payload;
    const size = parts.reduce((n, part) => n + part.length, 0);
    const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    const encoding = encodings && size >= MIN_COMPRESSED_BYTES && COMPRESSIBLE.test(type) ? chooseEncoding(res.req.headers['accept-encoding'], encodings) : undefined;
    if (encoding) {
      parts = [compress(encoding, parts.length === 1 ? parts[0]! : Buffer.concat(parts, size))];
      headers = { ...headers, 'Content-Encoding': encoding, Vary: 'Accept-Encoding' };
    }
    res.writeHead(status, { ...headers, 'Content-Length': String(parts.reduce((n, part) => n + part.length, 0)) });
    // Corked, the parts go to the socket in one write.
    res.cork();
    for (const part of parts) res.write(part);
    res.uncork();
    res.end();
  }

  const json = (body: unknown) => Buffer.from(JSON.stringify(body));
  const JSON_TYPE = { 'Content-Type': 'application/json' };

  /** Fixed window per token; every authenticated /api response carries the headers, 429s included. */
  function consumeRate(key: string): { headers: Record<string, string>; exceeded: boolean } {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now >= w.start + windowMs) windows.set(key, (w = { start: now, count: 0 }));
    w.count++;
    return {
      exceeded: w.count > rateLimit,
      headers: {
        'X-RateLimit-Limit': String(rateLimit),
        'X-RateLimit-Remaining': String(Math.max(0, rateLimit - w.count)),
        'X-RateLimit-Reset': String(Math.ceil((w.start + windowMs) / 1000)),
      },
    };
  }

  /** Who the request speaks for, or the 401 detail DRF's token authentication would give. */
  function authenticate(header: string | undefined): { auth: Auth } | { auth: null; detail: string } {
    const [scheme, ...credentials] = (header ?? '').trim().split(/\s+/);
    // Another scheme is not ours to judge, so it counts as no credentials at all.
    if (scheme?.toLowerCase() !== 'bearer') return { auth: null, detail: 'Authentication credentials were not provided.' };
    if (credentials.length === 0) return { auth: null, detail: 'Invalid token header. No credentials provided.' };
    if (credentials.length > 1) return { auth: null, detail: 'Invalid token header. Token string should not contain spaces.' };
    const token = credentials[0]!;
    const userId = store.tokens.get(token);
    const user = userId !== undefined ? store.users.get(userId) : undefined;
    const membership = user && (store.membershipOf(user.id, user.active_company_id) ?? [...store.memberships.values()].find((x) => x.user_id === user.id));
    if (!user || !membership) return { auth: null, detail: 'Invalid token.' };
    return { auth: { token, user, membership, company: store.companies.get(membership.company_id)! } };
  }

  /** Fault injection, authentication, the rate limit of authenticated requests, then the route. Returns the status logged. */
  async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: Buffer): Promise<number> {
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    const faulty = faults.methods.length === 0 || faults.methods.includes(req.method ?? 'GET');
    const drop = faulty && (faults.dropFirst > 0 || (faults.dropRate > 0 && faultRng.next() < faults.dropRate));
    if (drop && faults.dropFirst > 0) faults.dropFirst--;
    // A dropped request is either never seen by the service or processed with its answer lost.
    const deliver = (status: number, headers: Record<string, string>, payload: Payload): number => {
      if (drop) {
        req.socket.destroy();
        return 0;
      }
      send(res, status, headers, payload);
      return status;
    };
    if (drop && !faults.dropAfterProcessing) return deliver(0, {}, Buffer.alloc(0));

    // Only requests with a valid token spend the budget, so nobody can use up another's.
    const authn = authenticate(req.headers.authorization);
    const rate = authn.auth ? consumeRate(authn.auth.token) : null;
    const rateHeaders = rate?.headers ?? {};
    const throttled = (reset: number, retryAfter = Math.max(0, reset - Math.floor(Date.now() / 1000))) =>
      deliver(
        429,
        {
          ...JSON_TYPE,
          'X-RateLimit-Limit': String(rateLimit),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(reset),
          'Retry-After': String(retryAfter),
        },
        json({ detail: 'Request was throttled.' }),
      );
    if (rate?.exceeded) return throttled(Number(rate.headers['X-RateLimit-Reset']));
    if (faulty && faults.rateLimitBurst > 0) {
      faults.rateLimitBurst--;
      const reset = Math.ceil(Date.now() / 1000) + faults.rateLimitResetSeconds;
      return faults.rateLimitRetryAfterSeconds >= 0 ? throttled(reset, faults.rateLimitRetryAfterSeconds) : throttled(reset);
    }
    if (faulty && (faults.failFirst > 0 || (faults.failureRate > 0 && faultRng.next() < faults.failureRate))) {
      if (faults.failFirst > 0) faults.failFirst--;
      return deliver(503, { ...JSON_TYPE, ...rateHeaders }, json({ detail: 'Service temporarily unavailable, try again later.' }));
    }

    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/^\/api/, '').replace(/\/+$/, '') || '/';
    await beforeHandle?.({ method, path, query: url.search.replace(/^\?/, '') });
    const reply = await dispatch(method, path, url, req, raw, authn);
    return deliver(reply.status, { ...reply.headers, ...rateHeaders }, reply.payload);
  }

  async function dispatch(
    method: string,
    path: string,
    url: URL,
    req: http.IncomingMessage,
    raw: Buffer,
    authn: ReturnType<typeof authenticate>,
  ): Promise<StoredReply> {
    const error = (status: number, body: unknown, headers: Record<string, string> = {}): StoredReply => ({ status, headers: { ...JSON_TYPE, ...headers }, payload: json(body), path });
    const match = router.match(method, path);
    if (!match) return error(404, { detail: 'Not found.' });
    // As DRF: authentication and permissions come before the method check, so a request without
    // a valid token gets 401 even for a method the path does not take.
    if (match.auth && !authn.auth) return error(401, { detail: authn.detail }, { 'WWW-Authenticate': 'Bearer realm="api"' });
    if ('allowed' in match) return error(405, { detail: `Method "${method}" not allowed.` }, { Allow: match.allowed.join(', ') });
    const auth = authn.auth;

    let body: unknown;
    if (raw.length && method !== 'GET' && method !== 'DELETE') {
      // As DRF's JSONParser: a body is JSON, said so by its Content-Type, in UTF-8.
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json' && !type.endsWith('+json')) {
        return error(415, { detail: `Unsupported media type "${req.headers['content-type'] ?? ''}" in request.` });
      }
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
      } catch {
        return error(400, { detail: 'JSON parse error - the body is not valid UTF-8' });
      }
      try {
        body = JSON.parse(text);
      } catch (e) {
        return error(400, { detail: `JSON parse error - ${(e as Error).message}` });
      }
      // Nesting the service's parser would give up on, and the answer could not be written back.
      if (nestingOver(body, MAX_NESTING)) return error(400, { detail: `JSON parse error - nested more than ${MAX_NESTING} levels deep` });
    }

    const run = async (): Promise<StoredReply> => {
      const ctx: Ctx = {
        path, params: match.params, query: url.searchParams, body,
        auth: auth as Auth, store, origin: `http://${req.headers.host ?? `${urlHost(host)}:${port}`}`, options,
      };
      try {
        const reply = await match.handler(ctx);
        return { status: reply.status, ...serialise(reply), path };
      } catch (e) {
        if (e instanceof ApiError) return error(e.status, e.body);
        log?.(`sandbox error on ${method} ${path}: ${(e as Error).stack ?? e}`);
        return error(500, { detail: 'A server error occurred.' });
      } finally {
        // Cached answers go stale with any write, even one that failed after changing something.
        if (method !== 'GET') store.version++;
      }
    };

    const key = req.headers['idempotency-key'];
    if (method !== 'POST' || typeof key !== 'string' || !key || !auth) return run();
    const k = `${auth.token}\u0000${key}`;
    const bodyJson = canonicalJson(body);
    // A key in use waits for its first request; only a kept outcome answers the retry.
    for (let prior = idempotent.get(k); prior; prior = idempotent.get(k)) {
      const stored = await prior.outcome;
      if (idempotent.get(k) !== prior) continue;
      if (prior.method !== method || prior.path !== path) return error(422, { detail: 'Idempotency-Key was already used for a different endpoint.' });
      if (prior.body !== bodyJson) return error(422, { detail: 'Idempotency-Key was already used with a different request body.' });
      return { ...stored, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' } };
    }
    const entry: IdempotentEntry = {
      method,
      path,
      body: bodyJson,
      outcome: run().then((stored) => {
        // Only a success is an outcome: after a 4xx the client corrects the body and retries with
        // the same key, after a 5xx it deserves a fresh attempt.
        if (stored.status >= 400 && idempotent.get(k) === entry) idempotent.delete(k);
        return stored;
      }),
    };
    idempotent.set(k, entry);
    if (idempotent.size > IDEMPOTENCY_LIMIT) idempotent.delete(idempotent.keys().next().value!);
    return entry.outcome;
  }

  function handleAdmin(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: Buffer): void {
    const reply = (status: number, body?: unknown) => send(res, status, body === undefined ? {} : JSON_TYPE, body === undefined ? Buffer.alloc(0) : json(body));
    const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
    switch (route) {
      case 'GET /_sandbox/health':
        return reply(200, { status: 'ok', orders: store.orders.size, tokens: tokens.length });
      case 'GET /_sandbox/requests':
        return reply(200, requests);
      case 'DELETE /_sandbox/requests':
        requests.length = 0;
        return reply(204);
      case 'GET /_sandbox/tokens':
        return reply(200, tokens);
      case 'GET /_sandbox/faults':
        return reply(200, faults);
      case 'POST /_sandbox/faults': {
        let f: unknown;
        try {
          f = raw.length ? JSON.parse(raw.toString('utf8')) : {};
        } catch {
          return reply(400, { detail: 'Body must be a JSON object of fault options.' });
        }
        if (typeof f !== 'object' || f === null || Array.isArray(f)) return reply(400, { detail: 'Body must be a JSON object of fault options.' });
        faults = normaliseFaults(f as FaultOptions);
        return reply(200, faults);
      }
      default:
        return reply(404, { detail: 'Not found.' });
    }
  }

  const server = http.createServer((req, res) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) {
        send(res, 413, JSON_TYPE, json({ detail: 'Request body too large.' }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let url: URL;
      try {
        url = requestTarget(req.url, host);
      } catch {
        // Node's parser lets through a request target the URL parser refuses (`http://[`).
        send(res, 400, JSON_TYPE, json({ detail: 'Malformed request target.' }));
        log?.(`${req.method} (malformed request target) 400`);
        return;
      }
      // The Host header is copied into the answer's links: one that is no host is refused, as
      // Django refuses a host it does not know ("Bad Request (400)").
      if (req.headers.host !== undefined && !VALID_HOST.test(req.headers.host)) {
        send(res, 400, JSON_TYPE, json({ detail: 'Bad Request: invalid Host header.' }));
        log?.(`${req.method} (invalid Host header) 400`);
        return;
      }
      let inFlight = 0;
      const done = (status: number) => record(req, url, raw, status, started, inFlight);
      // One request is never the end of the sandbox: whatever a handler or a header throws is a 500.
      const fail = (e: unknown) => {
        log?.(`sandbox error: ${(e as Error).stack ?? e}`);
        if (!res.headersSent) send(res, 500, JSON_TYPE, json({ detail: 'A server error occurred.' }));
        else res.destroy();
        done(500);
      };
      try {
        if (url.pathname.startsWith('/_sandbox/')) return handleAdmin(req, res, url, raw);
        if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
          // Counted until the answer is handed over (or the socket dropped): what the client had in flight.
          inFlight = ++apiInFlight;
          res.once('close', () => apiInFlight--);
          handling++;
          handleApi(req, res, url, raw).then(done, fail).finally(handled);
          return;
        }
        const file = fileRoute(store, req.method ?? 'GET', url.pathname, raw);
        send(res, file.status, file.headers, file.payload);
        done(file.status);
      } catch (e) {
        fail(e);
      }
    });
  });
  server.keepAliveTimeout = 5_000;

  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const displayHost = urlHost(host);
  const origin = `http://${displayHost}:${port}`;

  const tokens: DemoToken[] = tokenSpecs.map((t) => {
    const user = store.users.get(t.userId)!;
    const company = store.companies.get(t.companyId)!;
    const m = store.membershipOf(t.userId, t.companyId)!;
    return {
      token: t.token,
      user: `${user.first_name} ${user.last_name}`,
      email: user.email,
      company: company.name,
      companyId: company.id,
      role: store.authGroups.get(m.auth_group_id)!.name,
    };
  });

  return {
    url: `${origin}/api`,
    address,
    origin,
    port,
    tokens,
    requests,
    store,
    setFaults(f: FaultOptions) {
      faults = normaliseFaults(f);
    },
    setBeforeHandle(hook) {
      beforeHandle = hook;
    },
    settled() {
      return handling === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenSettled.push(resolve));
    },
    setCompression(e) {
      encodings = e === undefined ? DEFAULT_ENCODINGS : e;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
    },
  };
}

function normaliseFaults(f: FaultOptions = {}): Required<FaultOptions> {
  const share = (x: number | undefined) => Math.min(1, Math.max(0, Number(x) || 0));
  const count = (x: number | undefined) => Math.max(0, Math.floor(Number(x) || 0));
  return {
    latencyMs: count(f.latencyMs),
    failureRate: share(f.failureRate),
    rateLimitBurst: count(f.rateLimitBurst),
    dropRate: share(f.dropRate),
    failFirst: count(f.failFirst),
    dropFirst: count(f.dropFirst),
    rateLimitResetSeconds: f.rateLimitResetSeconds === undefined ? 1 : Math.trunc(Number(f.rateLimitResetSeconds) || 0),
    rateLimitRetryAfterSeconds: f.rateLimitRetryAfterSeconds === undefined ? -1 : Math.max(0, Number(f.rateLimitRetryAfterSeconds) || 0),
    methods: Array.isArray(f.methods) ? f.methods.map((m) => String(m).toUpperCase()) : [],
    dropAfterProcessing: f.dropAfterProcessing === true,
  };
}

/** A host as a URL writes it: an IPv6 address in brackets (`[::1]`). */
function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The URL a request asks for, on the host the sandbox listens on. Throws for a target the URL
 * parser refuses (Node's own lets `http://[` through).
 */
export function requestTarget(target: string | undefined, host: string): URL {
  return new URL(target ?? '/', `http://${urlHost(host)}`);
}
