// A service that acted on a request and then answered badly: a 500 after the create went
// through, a bulk answer that leaves rows out. Such rows are `unknown` (sent: they may exist),
// never `not_sent` or `rejected`, and the rerun sends them again under the key they went under,
// so the service replays its answer and nothing is created twice (cli-spec.md, Bulk runs).
import { describe, expect, it } from 'vitest';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';
import { sctFor } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });

type Rewrite = (method: string, path: string, status: number, body: Buffer) => { status: number; body: string } | undefined;

/**
 * A server in front of the sandbox: every request goes through to it, and `rewrite` may change
 * the answer it gave, until `passAll()`. The rerun goes through it too: a journal belongs to its
 * base URL.
 */
async function inFront(rewrite: Rewrite): Promise<{ url: string; server: Server; passAll: () => void }> {
  let rewriting = true;
  const upstream = new URL(t.sb.url);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers };
      delete headers['accept-encoding'];
      const up = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer: IncomingMessage) => {
        const got: Buffer[] = [];
        answer.on('data', (c: Buffer) => got.push(c));
        answer.on('end', () => {
          const changed = rewriting && rewrite(req.method ?? 'GET', (req.url ?? '').split('?')[0]!, answer.statusCode ?? 0, Buffer.concat(got));
          if (changed) return void res.writeHead(changed.status, { 'content-type': 'application/json' }).end(changed.body);
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(Buffer.concat(got).length) }).end(Buffer.concat(got));
        });
      });
      up.end(Buffer.concat(chunks));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, server, passAll: () => (rewriting = false) };
}

const report = (path: string) => (parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[]).map((r) => [r.line, r.status]);
const keysOf = (path: string) => t.sb.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.headers['idempotency-key']);

describe('a create the service carried out, answered 500', () => {
  it('is unknown, not not_sent; the row edited and run again is a conflict, never a second origin', async () => {
    const file = t.writeFile('g500.csv', 'name,country_code,external_id,latitude,longitude\nFarm,CI,G500-1,6.500000,-5.200000\n');
    const front = await inFront((method, path) => (method === 'POST' && path === '/api/origins' ? { status: 500, body: '{"detail":"Internal server error."}' } : undefined));
    try {
      const out = join(t.dir, 'g500-report.csv');
      const r = await sctFor(front.url, OWNER, t.dir)(['origins', 'import', '--file', file, '--report', out]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(report(out)).toEqual([['2', 'unknown']]);
      // The farm renamed in the file, as anyone would after a failure: the service has the first.
      front.passAll();
      const edited = t.writeFile('g500.csv', 'name,country_code,external_id,latitude,longitude\nFarm renamed,CI,G500-1,6.500000,-5.200000\n');
      const again = await sctFor(front.url, OWNER, t.dir)(['origins', 'import', '--file', edited]);
      expect(again.stderr).not.toMatch(/1 created/);
      expect(again.exitCode, again.stderr).toBe(3);
    } finally {
      front.server.close();
    }
    const listed = await t.sct(['origins', 'list', '--all', '-o', 'json', '--columns', 'external_id']);
    expect((JSON.parse(listed.stdout) as { external_id: string }[]).filter((o) => o.external_id === 'G500-1')).toHaveLength(1);
  });
});

describe('a bulk answer that leaves rows out', () => {
  it('invitations: the rows it says nothing of are unknown, and the rerun replays the request under its key', async () => {
    const file = t.writeFile('left-out.csv', 'email,auth_group\nleft.one@example.com,member\nleft.two@example.com,member\n');
    const path = '/api/accounts/user-invitations/bulk-create';
    const front = await inFront((method, p) => (method === 'POST' && p === path ? { status: 201, body: '{"results":[]}' } : undefined));
    const out = join(t.dir, 'left-out-report.csv');
    try {
      const r = await sctFor(front.url, OWNER, t.dir)(['invitations', 'bulk-create', '--file', file, '--report', out]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(report(out)).toEqual([['2', 'unknown'], ['3', 'unknown']]);
      front.passAll();
      const again = await sctFor(front.url, OWNER, t.dir)(['invitations', 'bulk-create', '--file', file, '--report', out, '--force']);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(report(out)).toEqual([['2', 'created'], ['3', 'created']]);
    } finally {
      front.server.close();
    }
    // One request, sent twice under one key: the service replayed what it did the first time.
    const keys = keysOf(path);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('information requests: a row missing from `processed` and `failed` is unknown, and is not sent again under a new key', async () => {
    const orders = JSON.parse((await t.sct(['orders', 'list', '--buying', '--limit', '2', '-o', 'json', '--columns', 'id'])).stdout) as { id: number }[];
    const file = t.writeFile('irm.csv', `order_id,value_chain_id\n${orders[0]!.id},\n${orders[1]!.id},\n`);
    const path = '/api/information-requests/bulk';
    const front = await inFront((method, p, status, body) => {
      if (method !== 'POST' || p !== path || status >= 300) return undefined;
      // The service's answer with the second row's result taken out.
      const answer = JSON.parse(body.toString('utf8')) as { results: { processed: { index: number }[]; failed: { index: number }[] } };
      answer.results.processed = answer.results.processed.filter((x) => x.index !== 1);
      answer.results.failed = answer.results.failed.filter((x) => x.index !== 1);
      return { status, body: JSON.stringify(answer) };
    });
    const out = join(t.dir, 'irm-report.csv');
    try {
      const r = await sctFor(front.url, OWNER, t.dir)(['info-requests', 'send', '--file', file, '--report', out]);
      expect(r.exitCode, r.stderr).toBe(1);
      const first = report(out).map(([, status]) => status);
      expect(first[1]).toBe('unknown');
      front.passAll();
      const again = await sctFor(front.url, OWNER, t.dir)(['info-requests', 'send', '--file', file, '--report', out, '--force']);
      // The first row as it was; the second as the service answered it the first time.
      expect(report(out).map(([, status]) => status)).toEqual([first[0] === 'created' ? 'skipped' : first[0], expect.stringMatching(/^(created|rejected)$/)]);
      expect(again.exitCode).not.toBe(1);
    } finally {
      front.server.close();
    }
    const keys = keysOf(path);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
  });
});
