// A hostile server for tests: a proxy on 127.0.0.1 in front of a sandbox that answers a chosen
// route the way a broken network or a confused service would — an HTML page with 200, a body
// trickled a byte a second, a 2 GB answer, absurd rate-limit headers, a bad redirect, a
// connection cut after the headers — and passes everything else through unchanged, so a bulk
// run's other requests still reach real service logic.
//
//   const h = await startHostile(sandbox.url);
//   h.on('POST /api/orders/purchase', htmlPage(200), { times: 1 });
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/**
 * `forward()` sends the request on to the sandbox as it came; `path` sends it to another path
 * and query, `identity` asks for an uncompressed answer (for a behaviour that rewrites it).
 */
export type Forward = (o?: { path?: string; identity?: boolean }) => Promise<Upstream>;
export type Behaviour = (req: IncomingMessage, res: ServerResponse, body: Buffer, forward: Forward) => void | Promise<void>;

export interface Upstream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Hostile {
  /** Base URL ending in /api, as sct expects. */
  url: string;
  /** Every request received: method, path, Idempotency-Key, Authorization and time. */
  log: Array<{ method: string; path: string; key?: string; authorization?: string; at: number }>;
  /**
   * Answers `METHOD /path` (no query) with a behaviour, every time or the next `times` times;
   * with `when`, only requests whose URL it accepts (the others pass through).
   */
  on(route: string, behaviour: Behaviour, o?: { times?: number; when?: (url: URL) => boolean }): void;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A hostile server in front of the test file's sandbox for all its tests, reset before each:
 * `h()` is it (started in beforeAll, so only a test may ask for it).
 */
export function useHostile(sb: () => { url: string }): () => Hostile {
  let h: Hostile | undefined;
  beforeAll(async () => {
    h = await startHostile(sb().url);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h?.reset());
  return () => {
    if (!h) throw new Error('the hostile server starts before the tests');
    return h;
  };
}

export async function startHostile(upstreamApiUrl: string): Promise<Hostile> {
  const upstream = new URL(upstreamApiUrl);
  const routes = new Map<string, { behaviour: Behaviour; times: number; when?: (url: URL) => boolean }>();
  const log: Hostile['log'] = [];
  const sockets = new Set<import('node:net').Socket>();

  const forwardTo = (req: IncomingMessage, body: Buffer): Forward => (o = {}) =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: upstream.host };
      if (o.identity) delete headers['accept-encoding'];
      const r = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: o.path ?? req.url, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end(body);
    });

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? '/').split('?')[0];
    const route = `${req.method} ${path}`;
    log.push({ method: req.method ?? '', path, key: req.headers['idempotency-key'] as string | undefined, authorization: req.headers.authorization, at: Date.now() });
    const forward = forwardTo(req, body);
    const special = routes.get(route);
    if (special && special.times !== 0 && (!special.when || special.when(new URL(req.url ?? '/', 'http://127.0.0.1')))) {
      special.times--;
      try {
        await special.behaviour(req, res, body, forward);
      } catch {
        res.destroy();
      }
      return;
    }
    try {
      const up = await forward();
      const headers = { ...up.headers };
      delete headers['transfer-encoding'];
      delete headers.connection;
      res.writeHead(up.status, headers);
      res.end(up.body);
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // A test that forgets to close it does not keep the runner alive.
  server.unref();
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    log,
    on(route, behaviour, o = {}) {
      routes.set(route, { behaviour, times: o.times ?? -1, when: o.when });
    },
    reset() {
      routes.clear();
      log.length = 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

// --- behaviours ---------------------------------------------------------------------------------

/** A captive portal's or misrouted proxy's page. */
export const htmlPage =
  (status: number): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html>\n<html><head><title>Sign in to the network</title></head><body><h1>Welcome</h1></body></html>\n');
  };

/** Headers at once, then one byte of a JSON list every `everyMs`: never silent long enough for an idle timeout. */
export const trickle =
  (everyMs = 200): Behaviour =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const text = '{"count": 1, "next": null, "previous": null, "results": [' + ' '.repeat(1_000_000);
    let i = 0;
    const t = setInterval(() => {
      if (res.destroyed || i >= text.length) return clearInterval(t);
      res.write(text[i++]);
    }, everyMs);
    res.on('close', () => clearInterval(t));
  };

/**
 * An endless-looking JSON answer of `totalBytes` (default 2 GB), streamed from one reused
 * buffer so the server itself stays small; `declare` sends its Content-Length up front.
 */
export const hugeJson =
  (o: { totalBytes?: number; declare?: boolean } = {}): Behaviour =>
  (_req, res) => {
    const total = o.totalBytes ?? 2 * 1024 ** 3;
    const element = Buffer.from('{"id": 1, "external_id": "PO-0000001", "note": "' + 'x'.repeat(200) + '"},');
    const block = Buffer.alloc(element.length * 4096);
    for (let i = 0; i < 4096; i++) element.copy(block, i * element.length);
    res.writeHead(200, { 'content-type': 'application/json', ...(o.declare ? { 'content-length': String(total) } : {}) });
    let sent = 0;
    res.write('{"count": 1, "next": null, "results": [');
    const pump = () => {
      while (!res.destroyed && sent < total) {
        sent += block.length;
        if (!res.write(block)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end('{}]}');
    };
    res.on('close', () => (sent = total));
    pump();
  };

/** A status with the given headers and a JSON body. */
export const answer =
  (status: number, headers: Record<string, string> = {}, body: unknown = { detail: 'Request was throttled.' }): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

/** The request goes through to the service, which acts on it; the answer's headers arrive, then the connection is cut. */
export const cutAfterHeaders: Behaviour = async (_req, res, _body, forward) => {
  const up = await forward({ identity: true });
  res.writeHead(up.status, { 'content-type': 'application/json', 'content-length': String(up.body.length) });
  res.write(up.body.subarray(0, Math.min(5, up.body.length)));
  setTimeout(() => res.socket?.destroy(), 20);
};

/** The service's answer, its headers changed by `change` (X-RateLimit-Remaining, say). */
export const withHeaders =
  (change: Record<string, string>): Behaviour =>
  async (_req, res, _body, forward) => {
    const up = await forward();
    const headers = { ...up.headers, ...change };
    delete headers['transfer-encoding'];
    delete headers.connection;
    res.writeHead(up.status, headers);
    res.end(up.body);
  };

export type Encoding = 'gzip' | 'br' | 'deflate' | 'deflate-raw';

export function encode(encoding: Encoding, body: Buffer): Buffer {
  if (encoding === 'br') return zlib.brotliCompressSync(body);
  if (encoding === 'gzip') return zlib.gzipSync(body);
  return encoding === 'deflate' ? zlib.deflateSync(body) : zlib.deflateRawSync(body);
}

/** The service's answer compressed here with `encoding` ('deflate-raw': deflate without its zlib wrapper, as some servers send it). */
export const compressed =
  (encoding: Encoding): Behaviour =>
  async (_req, res, _body, forward) => {
    const up = await forward({ identity: true });
    const body = encode(encoding, up.body);
    res.writeHead(up.status, { 'content-type': String(up.headers['content-type'] ?? 'application/json'), 'content-encoding': encoding === 'deflate-raw' ? 'deflate' : encoding, 'content-length': String(body.length) });
    res.end(body);
  };

/**
 * A compression bomb: gzip members of 64 MB of JSON whitespace each, one after the other, about
 * `wireMb` MB on the wire that inflate to 1,000 times as much (2 GB from 2 MB by default); or
 * one brotli stream of 320 MB made of 60 KB.
 */
export const gzipBomb =
  (o: { wireMb?: number; encoding?: 'gzip' | 'br' } = {}): Behaviour =>
  async (_req, res) => {
    const encoding = o.encoding ?? 'gzip';
    const head = Buffer.from('{"count": 1, "next": null, "results": [');
    const member = encoding === 'gzip' ? encode('gzip', Buffer.concat([head, Buffer.alloc(64 * 1024 * 1024, 0x20)])) : await brotliOfSpaces(head, 320);
    const count = encoding === 'gzip' ? Math.max(1, Math.round(((o.wireMb ?? 2) * 1024 * 1024) / member.length)) : 1;
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': String(member.length * count) });
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && sent < count) {
        sent++;
        if (!res.write(member)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    res.on('close', () => (sent = count));
    pump();
  };

/** `head`, then `mb` MB of spaces, brotli-compressed as a stream (never whole in memory). */
async function brotliOfSpaces(head: Buffer, mb: number): Promise<Buffer> {
  const c = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const out: Buffer[] = [];
  c.on('data', (d: Buffer) => out.push(d));
  const ended = new Promise((r) => c.once('end', r));
  c.write(head);
  const block = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < mb; i++) if (!c.write(block)) await new Promise((r) => c.once('drain', r));
  c.end();
  await ended;
  return Buffer.concat(out);
}

/** The service's answer gzipped, then damaged half-way through the compressed bytes. */
export const corruptGzip: Behaviour = async (_req, res, _body, forward) => {
  const up = await forward({ identity: true });
  const body = zlib.gzipSync(up.body);
  for (let i = Math.floor(body.length / 2); i < Math.floor(body.length / 2) + 16 && i < body.length - 8; i++) body[i] ^= 0xa5;
  res.writeHead(up.status, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
  res.end(body);
};

/**
 * Pages linked by an opaque cursor instead of limit and offset: each `next` becomes
 * `?cursor=…` (the sandbox's own query, encoded), and a request with a cursor is sent on with
 * the query it stands for.
 */
export const cursorLinks: Behaviour = async (req, res, _body, forward) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const cursor = url.searchParams.get('cursor');
  const path = cursor ? `${url.pathname}?${Buffer.from(cursor, 'base64url').toString('utf8')}` : undefined;
  const up = await forward({ path, identity: true });
  const page = JSON.parse(up.body.toString('utf8')) as { next: string | null };
  if (page.next) {
    const next = new URL(page.next);
    page.next = `${next.origin}${next.pathname}?cursor=${Buffer.from(next.searchParams.toString()).toString('base64url')}`;
  }
  const headers = { ...up.headers };
  for (const h of ['transfer-encoding', 'connection', 'content-length']) delete headers[h];
  res.writeHead(up.status, headers);
  res.end(JSON.stringify(page));
};
