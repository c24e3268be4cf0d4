// The wire under the client: one request out, status, headers and a body stream back. The
// client (client.ts) owns every decision — retries, waits, caps, errors; this only moves bytes.
//
// Node's own http/https carry requests by default. undici is loaded only when a proxy is set in
// the environment (its EnvHttpProxyAgent speaks CONNECT and honours NO_PROXY) or a caller hands
// the client an undici dispatcher (tests' MockAgent): loading undici and compiling its llhttp
// WebAssembly cost a one-request command more than the request itself (bench/results.md).
import type { Agent as HttpAgent, AgentOptions as HttpAgentOptions, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { Readable } from 'node:stream';
import { statusText } from './errors.js';
import { hostAndPort, type ProxySettings } from './proxy-env.js';

export type Headers = Record<string, string | string[] | undefined>;

interface WireRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
  /** Aborts the request, and the body while it is read. */
  signal: AbortSignal;
  /** The longest silence, waiting for the answer or between chunks of its body. */
  idleTimeoutMs: number;
  /** Called as the request is handed to the HTTP stack: stopped before that, nothing of it went out. */
  onSend?: () => void;
}

export interface WireResponse {
  statusCode: number;
  headers: Headers;
  body: Readable;
}

export interface Transport {
  send(url: URL, req: WireRequest): Promise<WireResponse>;
  close(): Promise<void>;
  /**
   * Opens up to `count` connections to `url`'s origin for the requests about to be sent. A
   * hint: one that fails is dropped, and a request then opens its own. Resolves once they are
   * being opened.
   */
  preconnect?(url: URL, count: number): Promise<void>;
  /** Through a proxy: whether the latest CONNECT it was sent was answered with a tunnel. */
  lastTunnelOpened?(): boolean;
}

/**
 * A connection opened as sct started, before the command's code was loaded (src/cli/early-connection.ts):
 * a plain TCP socket to the base URL's host, which the first request to that origin takes (over
 * https, with its TLS handshake made then, by the agent, as for any connection of its own).
 */
export interface EarlyConnection {
  /** The socket, once, to the first request to its origin; undefined for any other, or once it failed. */
  take(url: URL): Socket | undefined;
  /** Closes it unused (the command sent nothing, or sent elsewhere). */
  close(): void;
}

/** An idle connection is closed before a server's usual 5 s keep-alive can close it under a request. */
const KEEP_ALIVE_MS = 4_000;

/** node:http and node:https, one keep-alive agent per protocol, created when first used. */
export function nodeTransport(early?: EarlyConnection): Transport {
  const agents = new Map<string, WarmAgent>();
  const agentFor = async (protocol: string): Promise<{ agent: WarmAgent; request: typeof import('node:http').request }> => {
    const mod = protocol === 'https:' ? await import('node:https') : await import('node:http');
    let agent = agents.get(protocol);
    if (!agent) {
      // NODE_EXTRA_CA_CERTS is read by Node's TLS layer at start-up, so https honours it.
      agent = warmAgent(mod.Agent, { keepAlive: true, timeout: KEEP_ALIVE_MS });
      agents.set(protocol, agent);
    }
    return { agent, request: mod.request as typeof import('node:http').request };
  };
  // The connection opened as sct started, given to the agent of its origin's protocol: it is
  // one of the connections a preconnect asks for, or the first request's.
  const adoptEarly = (agent: WarmAgent, url: URL): number => {
    const socket = early?.take(url);
    if (socket) agent.adopt(url, socket);
    return socket ? 1 : 0;
  };
  return {
    preconnect(url, count) {
      return agentFor(url.protocol).then(({ agent }) => agent.warm(url, count - adoptEarly(agent, url)), () => {});
    },
    async send(url, w) {
      const { agent, request } = await agentFor(url.protocol);
      adoptEarly(agent, url);

      return new Promise<WireResponse>((resolve, reject) => {
        if (w.signal.aborted) return reject(w.signal.reason);
        w.onSend?.();
        const req = request(url, { method: w.method, headers: w.headers, agent, signal: w.signal });
        // Silence on the socket, before the answer or inside its body: the same error either way.
        req.setTimeout(w.idleTimeoutMs, () => req.destroy(timeoutError(w.idleTimeoutMs)));
        req.once('error', reject);
        req.once('response', (res: IncomingMessage) => {
          req.off('error', reject);
          // An error after the answer began reaches whoever reads the body.
          req.on('error', (err) => res.destroy(err));
          resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
        });
        if (w.body instanceof Readable) {
          w.body.once('error', (err) => req.destroy(err));
          w.body.pipe(req);
        } else {
          // As bytes: node:http joins a string body with the request's headers into one string,
          // which a body near a string's limit (a 512 MB --input) would take past it.
          req.end(typeof w.body === 'string' ? Buffer.from(w.body) : w.body);
        }
        // The decoder a compressed answer needs is loaded while the request is on the wire,
        // when the process has nothing else to do, rather than once the answer is here.
        if (w.headers['accept-encoding'] !== undefined) setImmediate(loadDecoders);
      });
    },
    async close() {
      for (const agent of agents.values()) agent.destroy();
      early?.close();
    },
  };
}

interface WarmAgent extends HttpAgent {
  warm(url: URL, count: number): void;
  /** Takes a plain TCP socket already connected (or connecting) to url's origin as its next connection. */
  adopt(url: URL, socket: Socket): void;
}

/**
 * A keep-alive agent that can open connections before the requests that will use them:
 * `warm(url, n)` connects n sockets (with the TLS handshake, for https), and the agent's next
 * new connections to that host take them instead of connecting then. Over a far link a
 * connection costs a round trip (two with TLS) before its first request can leave; a bulk run
 * opens its connections while it waits for GET /accounts/me (src/bulk/open.ts).
 */
function warmAgent(Base: typeof HttpAgent, options: HttpAgentOptions): WarmAgent {
  type Options = Parameters<HttpAgent['createConnection']>[0];
  type Callback = Parameters<HttpAgent['createConnection']>[1];
  const keyOf = (host: string | null | undefined, port: number | string | null | undefined) => `${host}:${port}`;
  class Warm extends Base implements WarmAgent {
    private readonly ready = new Map<string, Socket[]>();
    private readonly drops = new Map<Socket, () => void>();

    /** A plain TCP socket still to be wrapped in TLS when taken (an adopted one, for https). */
    private readonly plain = new WeakSet<Socket>();

    warm(url: URL, count: number): void {
      const { host, port } = hostAndPort(url);
      // As the agent itself would connect (its own createConnection: TLS, the session cache).
      for (let i = 0; i < count; i++) this.keep(host, port, super.createConnection({ ...options, host, port, servername: isIP(host) ? undefined : host } as Options) as Socket);
    }

    adopt(url: URL, socket: Socket): void {
      if (url.protocol === 'https:') this.plain.add(socket);
      const { host, port } = hostAndPort(url);
      this.keep(host, port, socket);
    }

    /** Keeps a socket for the next new connection to host:port, dropped if it fails or idles first. */
    private keep(host: string, port: number, socket: Socket): void {
      const key = keyOf(host, port);
      const ready = this.ready.get(key) ?? [];
      this.ready.set(key, ready);
      const drop = () => {
        const at = ready.indexOf(socket);
        if (at >= 0) ready.splice(at, 1);
        this.drops.delete(socket);
        socket.destroy();
      };
      this.drops.set(socket, drop);
      // Its idle timeout (the agent's, in the options) closes it as the agent closes a free socket.
      socket.setTimeout(KEEP_ALIVE_MS);
      socket.once('error', drop).once('close', drop).once('timeout', drop);
      // Waiting unused, it keeps no process alive (as the agent's free sockets).
      socket.unref();
      ready.push(socket);
    }

    override createConnection(o: Options, cb?: Callback): ReturnType<HttpAgent['createConnection']> {
      const socket = this.ready.get(keyOf(o.host, o.port))?.shift();
      if (!socket) return super.createConnection(o, cb);
      const drop = this.drops.get(socket)!;
      this.drops.delete(socket);
      socket.off('error', drop).off('close', drop).off('timeout', drop);
      socket.ref();
      // Over https, the agent makes its TLS connection on the socket, as on one it opens itself
      // (whose idle timeout is then the one that counts).
      if (this.plain.has(socket)) return super.createConnection({ ...o, socket: socket.setTimeout(0) } as Options, cb);
      return socket;
    }

    override destroy(): void {
      for (const ready of this.ready.values()) for (const s of ready.splice(0)) s.destroy();
      super.destroy();
    }
  }
  return new Warm(options);
}

/** Through the environment's proxy (undici's EnvHttpProxyAgent: CONNECT, NO_PROXY), closed with the client. */
export async function proxyTransport(proxy: ProxySettings): Promise<Transport> {
  const undici = await loadUndici();
  /**
   * The connection to the proxy. undici takes a proxy that closes the connection instead of
   * answering CONNECT for a passing socket error and tries again at once, without end — thousands
   * of times a second, deaf to the request's time limit and to Ctrl-C. A failed CONNECT fails
   * the request here instead, with the proxy named (never its credentials).
   */
  // The tunnels the proxy opened: a TLS handshake inside one that the far end never answers is
  // not ended by the agent's destroy(), and held the process for undici's 10 s connect limit
  // after the run was over. Closing the transport ends them.
  const tunnels = new Set<Socket>();
  // Whether the latest CONNECT was answered with a tunnel: a timeout after it is the service's
  // doing, one while it waits (or after one left unanswered) may be the proxy's.
  let lastOpened = false;
  class ProxyConnection extends undici.Pool {
    private readonly proxyName: string;
    constructor(url: string | URL, options: ConstructorParameters<typeof undici.Pool>[1]) {
      super(url, options);
      const u = new URL(url);
      this.proxyName = `${u.protocol}//${u.host}`;
    }
    override connect(options: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData>;
    override connect(options: Dispatcher.ConnectOptions, callback: (err: Error | null, data: Dispatcher.ConnectData) => void): void;
    override connect(options: Dispatcher.ConnectOptions, callback?: (err: Error | null, data: Dispatcher.ConnectData) => void): Promise<Dispatcher.ConnectData> | void {
      if (callback) return super.connect(options, callback);
      lastOpened = false;
      const failed = (why: string, cause?: Error) =>
        Object.assign(new Error(`the proxy ${this.proxyName} did not open a tunnel (CONNECT): ${why}`, { cause }), { code: 'SCT_PROXY_CONNECT' });
      return super.connect(options).then(
        (data) => {
          if (data.statusCode === 200) {
            const tunnel = data.socket as Socket;
            lastOpened = true;
            tunnels.add(tunnel);
            tunnel.once('close', () => tunnels.delete(tunnel));
            return data;
          }
          // A refusal (407 wants credentials, 403 a forbidden host) is the proxy's answer, named
          // as such; undici's own words do not say which proxy.
          data.socket.on('error', () => {}).destroy();
          // 407: the proxy wants a user and password, which its URL carries (never a flag).
          const sent = Object.keys((options.headers ?? {}) as Record<string, unknown>).some((h) => h.toLowerCase() === 'proxy-authorization');
          const credentials =
            data.statusCode !== 407
              ? ''
              : sent
                ? ' (it refused the user name and password of the proxy URL)'
                : halfCredentials(proxy, this.proxyName)
                  ? ' (it wants a user name and password; the proxy URL gives only one of them, and none is sent without the other)'
                  : ' (it wants a user name and password: give them in the proxy URL, before its host)';
          throw failed(`it answered ${data.statusCode}${statusText(data.statusCode) ? ` ${statusText(data.statusCode)}` : ''}${credentials}`);
        },
        (err: Error) => {
          throw failed(proxyFailure(err), err);
        },
      );
    }
  }
  const agent = new undici.EnvHttpProxyAgent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    ...proxy,
    clientFactory: (url: URL | string, options: object) => new ProxyConnection(url, options),
  } as ConstructorParameters<typeof undici.EnvHttpProxyAgent>[0]);
  const transport = undiciTransport(undici, agent, true);
  return {
    ...transport,
    async close() {
      await transport.close();
      for (const tunnel of tunnels) tunnel.destroy();
    },
    lastTunnelOpened: () => lastOpened,
  };
}

/**
 * Whether the URL of the proxy named (`http://host:port`, as ProxyConnection names it) gives a
 * user name without a password, or a password without a user name.
 */
function halfCredentials(proxy: ProxySettings, proxyName: string): boolean {
  return [proxy.httpsProxy, proxy.httpProxy].some((url) => {
    try {
      const u = new URL(url ?? '');
      return `${u.protocol}//${u.host}` === proxyName && Boolean(u.username) !== Boolean(u.password);
    } catch {
      return false;
    }
  });
}

function proxyFailure(err: Error): string {
  const code = (err as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host was not found (is HTTPS_PROXY/HTTP_PROXY right?)';
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return 'it closed the connection';
  return err.message;
}

/** Through a caller's undici dispatcher (a test's MockAgent), which the caller closes. */
export async function dispatcherTransport(dispatcher: Dispatcher): Promise<Transport> {
  return undiciTransport(await loadUndici(), dispatcher, false);
}

/**
 * undici is CommonJS: loaded dynamically from the bundle it is the module's default export,
 * while TypeScript (and Node run from source) see its named exports.
 */
async function loadUndici(): Promise<typeof import('undici')> {
  const mod = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
  return mod.default ?? mod;
}

function undiciTransport(undici: typeof import('undici'), d: Dispatcher, owned: boolean): Transport {
  return {
    async send(url, w) {
      if (w.signal.aborted) throw w.signal.reason;
      w.onSend?.();
      const res = await untilAborted(undici.request(url, {
        method: w.method as Dispatcher.HttpMethod,
        headers: w.headers,
        body: w.body,
        dispatcher: d,
        signal: w.signal,
        headersTimeout: w.idleTimeoutMs,
        bodyTimeout: w.idleTimeoutMs,
      }), w.signal);
      return { statusCode: res.statusCode, headers: res.headers, body: res.body };
    },
    async close() {
      // Not close(), which waits for requests still under way: one given up on (its time limit,
      // Ctrl-C) may wait for a proxy that never answers.
      if (owned) await d.destroy();
    },
  };
}

/**
 * A request that ends when its signal aborts (the time limit, Ctrl-C), whatever the dispatcher
 * is still doing about it; an answer that comes later is dropped.
 */
function untilAborted(request: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    request.then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) res.body.destroy();
        resolve(res);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Reads and drops what is left of a body so its connection can carry the next request; a body
 * longer than a short error page is not worth reading, and its connection is closed instead.
 */
export async function discardBody(body: Readable, limit = 256 * 1024): Promise<void> {
  let seen = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > limit) {
        body.destroy();
        return;
      }
    }
  } catch {
    /* a body that breaks while dropped is dropped all the same */
  }
}

function timeoutError(ms: number): Error {
  return Object.assign(new Error(`no data for ${ms} ms`), { code: 'ETIMEDOUT' });
}

/** What sct asks every answer to be compressed with: each of them Node's zlib decodes. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The encodings decodeBody decodes. */
const DECODED = new Set(['gzip', 'deflate', 'br']);

/** An answer's Content-Encoding, lower-case, x-gzip as gzip; '' for none. */
function contentEncoding(headers: Headers): string {
  return String(headers['content-encoding'] ?? '').trim().toLowerCase();
}

/**
 * The codings of a Content-Encoding in the order the server applied them (`gzip, br`: gzipped,
 * then brotli over that), `identity` left out; `x-gzip` is gzip.
 */
function codingsOf(encoding: string): string[] {
  return encoding
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity')
    .map((c) => (c === 'x-gzip' ? 'gzip' : c));
}

/** Whether an answer comes in an encoding decodeBody decodes. */
export function isCompressed(headers: Headers): boolean {
  const codings = codingsOf(contentEncoding(headers));
  return codings.length > 0 && codings.every((c) => DECODED.has(c));
}

/** A Content-Encoding sct cannot decode (no answer to `Accept-Encoding: gzip, deflate, br` should have one). */
export class UnknownEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`the answer is encoded as "${encoding}", which sct did not ask for and cannot decode`);
  }
}

/** A body that is not what its Content-Encoding says (corrupt, or cut inside the compressed data). */
export class DecodeError extends Error {
  /** The compressed data stopped before its end (zlib's "unexpected end of file"): cut short, not damaged. */
  readonly endedEarly: boolean;
  constructor(
    readonly encoding: string,
    cause: Error,
  ) {
    super(`the answer could not be decoded (${encoding}: ${cause.message})`, { cause });
    this.endedEarly = (cause as { code?: string }).code === 'Z_BUF_ERROR';
  }
}

const DECODED_CHUNK = 128 * 1024;

/** A compressed answer up to this size on the wire is decoded in one call once it has all come… */
const AT_ONCE_WIRE_BYTES = 64 * 1024;
/** …into at most this much; past it, as a stream. */
const AT_ONCE_DECODED_BYTES = 8 * 1024 * 1024;

/** `bytes` decoded whole, or undefined when they inflate past AT_ONCE_DECODED_BYTES or do not decode. */
function decodedAtOnce(zlib: typeof import('node:zlib'), encoding: string, bytes: Buffer): Buffer | undefined {
  const o = { maxOutputLength: AT_ONCE_DECODED_BYTES };
  try {
    return encoding === 'gzip' ? zlib.gunzipSync(bytes, o) : encoding === 'br' ? zlib.brotliDecompressSync(bytes, o) : zlibWrapped(bytes) ? zlib.inflateSync(bytes, o) : zlib.inflateRawSync(bytes, o);
  } catch {
    return undefined;
  }
}

/** "deflate" is meant as zlib-wrapped deflate, yet some servers send it raw: the first bytes tell. */
function zlibWrapped(first: Buffer): boolean {
  return (first[0]! & 0x0f) === 8 && ((first[0]! << 8) | (first[1] ?? 0)) % 31 === 0;
}

function loadDecoders(): void {
  void import('node:zlib');
}

export interface DecodedBody {
  body: Readable;
  /** The Content-Encoding decoded, undefined when the body came as it is. */
  encoding?: string;
  /** Bytes that came over the wire so far (the encoded size). */
  wireBytes(): number;
  /** Bytes decoded so far. */
  decodedBytes(): number;
}

/**
 * The body as its Content-Encoding says to read it, decoded as it streams (Node's zlib: gzip,
 * deflate, brotli): memory holds a chunk at a time whatever the answer inflates to, so a cap on
 * the decoded bytes is counted by whoever reads `body`. Errors of the connection pass through as
 * they are; the decoder's own are a DecodeError. Whoever stops reading `body` closes the connection.
 */
export async function decodeBody(raw: Readable, headers: Headers, wrap: (err: DecodeError) => Error = (e) => e): Promise<DecodedBody> {
  const encoding = contentEncoding(headers);
  const codings = codingsOf(encoding);
  let wire = 0;
  let decoded = 0;
  if (codings.length === 0) return { body: raw, wireBytes: () => wire, decodedBytes: () => decoded };
  // One Node has no decoder for: refused before a byte is read.
  if (!codings.every((c) => DECODED.has(c))) {
    raw.destroy();
    throw new UnknownEncodingError(encoding);
  }
  // Codings stacked (`gzip, br`, which RFC 9110 allows) are undone last first, always as streams.
  const single = codings.length === 1 ? codings[0] : undefined;
  const zlib = await import('node:zlib');
  const { PassThrough } = await import('node:stream');
  const out = new PassThrough();
  let decoder: import('node:stream').Transform | undefined;
  const start = (first: Buffer) => {
    // Output in 128 KB pieces rather than zlib's 16 KB: a 7 MB page costs half the CPU to inflate
    // (each piece is a trip to the thread pool), as little as zlib's one-shot gunzipSync.
    const o = { chunkSize: DECODED_CHUNK };
    // Only the outermost coding's first bytes are at hand to tell raw deflate from wrapped.
    const make = (coding: string, outermost: boolean) =>
      coding === 'gzip' ? zlib.createGunzip(o) : coding === 'br' ? zlib.createBrotliDecompress(o) : !outermost || zlibWrapped(first) ? zlib.createInflate(o) : zlib.createInflateRaw(o);
    const chain = [...codings].reverse().map((c, i) => make(c, i === 0));
    for (const d of chain) d.once('error', (err) => out.destroy(wrap(new DecodeError(encoding, err))));
    const last = chain.reduce((from, to) => from.pipe(to));
    // Counted beside the pipe, which keeps the decoder flowing anyway.
    last.on('data', (chunk: Buffer) => (decoded += chunk.length));
    last.pipe(out);
    out.once('close', () => chain.forEach((d) => d.destroy()));
    decoder = chain[0];
    return decoder;
  };
  // The decoder's output waits for the reader, and the wire for the decoder: one wait at a time
  // (held pieces fed in a row each find the decoder full).
  let waiting = false;
  const feed = (chunk: Buffer) => {
    const d = decoder ?? start(chunk);
    if (!d.write(chunk) && !waiting) {
      waiting = true;
      raw.pause();
      d.once('drain', () => {
        waiting = false;
        raw.resume();
      });
    }
  };
  // A small answer is held until it has all come, then decoded in one call: a decoding stream
  // costs a first answer about 2 ms more than the request itself (bench/results.md).
  let held: Buffer[] | undefined = !single || Number(headers['content-length']) > AT_ONCE_WIRE_BYTES ? undefined : [];
  let heldBytes = 0;
  const stream = () => {
    const chunks = held!;
    held = undefined;
    for (const c of chunks) feed(c);
  };
  raw.on('data', (chunk: Buffer) => {
    wire += chunk.length;

    if (held === undefined) return feed(chunk);
    held.push(chunk);
    heldBytes += chunk.length;
    if (heldBytes > AT_ONCE_WIRE_BYTES) stream();
  });
  raw.once('end', () => {
    const all = single && held && heldBytes > 0 ? decodedAtOnce(zlib, single, Buffer.concat(held)) : undefined;
    if (all) {
      decoded = all.length;

      out.end(all);
      return;
    }
    // Past AT_ONCE_DECODED_BYTES (a bomb, say) it goes as a stream, a piece at a time under the
    // reader's cap; and bytes that do not decode fail as the stream fails on them, the same error.
    if (held) stream();
    (decoder ?? start(Buffer.alloc(0))).end();
  });
  raw.once('error', (err) => out.destroy(err));
  out.once('close', () => {
    raw.destroy();
    decoder?.destroy();
  });
  return { body: out, encoding, wireBytes: () => wire, decodedBytes: () => decoded };
}
