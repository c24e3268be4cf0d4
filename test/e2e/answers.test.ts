// Answers that look like success but are not: empty or cached answers where JSON was expected,
// pagination that never ends or repeats itself, downloads that are cut short, not a ZIP, or
// raced by another download, and a proxy that will not connect. Each is checked against a small
// server on 127.0.0.1 built for the case; each ends in an error naming the request, never exit 0.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { useSandbox } from '../helpers/sandbox.js';
import { sctFor, type InProcessOptions, type RunOptions } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });

interface Fake {
  /** Base URL ending in /api. */
  url: string;
  hits: Array<{ method: string; url: string }>;
}
const servers: Array<() => void> = [];
afterEach(() => {
  for (const close of servers.splice(0)) close();
});

/** A server on 127.0.0.1 answering every request with `handle`; closed after the test. */
async function fake(handle: (req: IncomingMessage, res: ServerResponse, f: Fake) => void): Promise<Fake> {
  const f: Fake = { url: '', hits: [] };
  const server = createServer((req, res) => {
    f.hits.push({ method: req.method ?? '', url: req.url ?? '' });
    handle(req, res, f);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  server.unref();
  servers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  f.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return f;
}

const json = (res: ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** sct in-process against a fake server, with the test's config dir. */
const sctAt = (f: Fake, args: string[], opts: RunOptions & InProcessOptions = {}) => sctFor(f.url, OWNER, t.dir, { inProcess: true })(args, { timeout: 20_000, ...opts });

describe('answers that carry nothing', () => {
  it('a GET answered 204, 205 or 304 is an error naming the request, never `null` and exit 0', async () => {
    for (const status of [204, 205, 304]) {
      const f = await fake((_req, res) => {
        res.writeHead(status);
        res.end();
      });
      const r = await sctAt(f, ['products', 'get', '7', '-o', 'json']);
      expect(r.exitCode, `${status}: ${r.stderr}`).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^error: GET /products/7: the service answered ${status} `, 'm'));
    }
  });

  it('a DELETE answered 300 or 304 is an error, a DELETE answered 204 is "Deleted"', async () => {
    for (const status of [300, 304]) {
      const f = await fake((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end();
      });
      const r = await sctAt(f, ['products', 'delete', '7', '--yes']);
      expect(r.exitCode, `${status}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`error: DELETE /products/7: the service answered ${status} `));
      expect(r.stderr).not.toContain('Deleted');
    }
    const ok = await fake((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const r = await sctAt(ok, ['products', 'delete', '7', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Deleted');
  });

  it('a 3xx without a Location to follow is an error naming the request', async () => {
    const f = await fake((_req, res) => {
      res.writeHead(302);
      res.end();
    });
    const r = await sctAt(f, ['products', 'list', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^error: GET \/products: the service answered 302 Found without a redirect sct can follow/m);
  });
});

describe('--all never loops', () => {
  const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `P${from + i}` }));

  it('next links that differ only by a token, over the same items: exit 1 after the first page, each item once', async () => {
    let token = 0;
    const f = await fake((req, res, me) => json(res, { count: 10, next: `${me.url}/products?cursor=${++token}`, results: ids(1, 5) }));
    for (const format of ['json', 'ndjson']) {
      const r = await sctAt(f, ['products', 'list', '--all', '-o', format]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/error: the server's pagination does not advance on GET \/products: a page holds only items already read/);
      const rows = format === 'json' ? JSON.parse(r.stdout) : r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(rows.map((x: { id: number }) => x.id)).toEqual([1, 2, 3, 4, 5]);
    }
  });

  it('new items without end: stops at more than twice the count, exit 1', async () => {
    let page = 0;
    const f = await fake((_req, res, me) => json(res, { count: 10, next: `${me.url}/products?cursor=${page + 1}`, results: ids(1 + 5 * page++, 5) }));
    const r = await sctAt(f, ['products', 'list', '--all', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('more items than twice the 10 the list counts');
    expect(f.hits.length).toBeLessThanOrEqual(6);
    expect(JSON.parse(r.stdout).length).toBeLessThanOrEqual(25);
  });

  it('a server that answers page 1 to every offset: exit 1, page 1 written once', async () => {
    const f = await fake((req, res, me) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset'));
      json(res, { count: 10, next: offset + 2 < 10 ? `${me.url}/products?limit=2&offset=${offset + 2}` : null, results: ids(1, 2) });
    });
    const r = await sctAt(f, ['products', 'list', '--all', '--page-size', '2', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).map((x: { id: number }) => x.id)).toEqual([1, 2]);
    expect(f.hits).toHaveLength(2);
  });

  it('an item served on two pages (the list changed meanwhile) is written once, with one warning at the end', async () => {
    const pages = [ids(1, 3), ids(3, 3), ids(6, 2), ids(7, 1)];
    const f = await fake((req, res, me) => {
      const n = Number(new URL(req.url!, 'http://x').searchParams.get('offset') ?? 0) / 3;
      json(res, { count: 8, next: n + 1 < pages.length ? `${me.url}/products?limit=3&offset=${(n + 1) * 3}` : null, results: pages[n] });
    });
    for (const args of [
      ['products', 'list', '--all', '--page-size', '3', '-o', 'json'],
      ['products', 'list', '--all', '--page-size', '3', '-o', 'csv', '--columns', 'id'],
      ['api', '/products?limit=3', '--paginate'],
    ]) {
      const r = await sctAt(f, args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const got = args.includes('csv') ? r.stdout.trim().split('\n').slice(1).map(Number) : JSON.parse(r.stdout).map((x: { id: number }) => x.id);
      expect(got).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(r.stderr.match(/came twice/g)).toHaveLength(1);
      expect(r.stderr).toMatch(/warning: 2 \w+ came twice \(the list changed while it was read\): each was written once/);
    }
  });

  it('sct api --paginate stops the same way on a repeating token', async () => {
    let token = 0;
    const f = await fake((_req, res, me) => json(res, { count: 10, next: `${me.url}/products?cursor=${++token}`, results: ids(1, 5) }));
    const r = await sctAt(f, ['api', '/products', '--paginate']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toHaveLength(5);
    expect(f.hits).toHaveLength(2);
  });
});
