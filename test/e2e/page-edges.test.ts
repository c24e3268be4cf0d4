// Lists from a server that pages, counts and encodes in ways the sandbox does not: fields that
// only later pages carry, a count that one page already passes, codings stacked on one answer,
// and statuses sct has no table entry of its own for. The built sct against a server on
// 127.0.0.1 that answers every path with 45 items of a kind its first path segment names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { removeDir, sctFor, tempDir } from '../helpers/sct.js';
import { runAtTerminal } from '../helpers/terminal.js';

const N = 45;
let server: Server;
let base = '';
let dir = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const mode = u.pathname.split('/')[1];
    const limit = Number(u.searchParams.get('limit') ?? 10);
    const offset = Number(u.searchParams.get('offset') ?? 0);
    // An array nested deeper than any document (and than a stack can walk): in an item, or in a 401's body.
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    if (mode === 'deep401') {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end(`{"detail":${deep(5000)}}`);
    }
    if (mode === 'deep') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(`{"count":1,"next":null,"previous":null,"results":[{"id":1,"name":${deep(12000)}}]}`);
    }
    // A list whose items are not all objects: a null among them, or no objects at all.
    if (mode === 'nullitem' || mode === 'scalars') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const items = mode === 'nullitem' ? [{ id: 1, name: 'one' }, null] : [1, 'x', null];
      return res.end(JSON.stringify({ count: items.length, next: null, previous: null, results: items }));
    }
    // An id past 2^53, and a name with a bidi override and a C1 control as raw characters.
    if (mode === 'bigid') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"count":1,"next":null,"previous":null,"results":[{"id":9007199254740993,"name":"evil\u202egnp.exe\u009b31m"}]}');
    }
    if (mode === 'unimplemented') {
      res.writeHead(501, { 'content-type': 'application/json' });
      return res.end('{"detail":"not here"}');
    }
    const results = [];
    for (let i = offset; i < Math.min(offset + limit, N); i++) {
      results.push({ id: i + 1, name: `item ${i + 1}`, ...(mode === 'extra' && i >= 20 ? { extra: `E${i + 1}`, nested: { deep: i } } : {}) });
    }
    // One item again on the second page, as a list that changed while it was read serves it.
    if (mode === 'repeat' && offset > 0 && offset < 20) results.unshift({ id: 1, name: 'item 1' });
    const port = (server.address() as { port: number }).port;
    const next =
      mode === 'badlink' ? 'http://[::1'
      : mode === 'filelink' ? 'file:///etc/passwd?limit=10&offset=10'
      : mode === 'numlink' ? 5
      : mode === 'noquery' ? `http://127.0.0.1:${port}/${mode}/api/x`
      // A link that leaves out the request's own filter (a search): followed, it would list everything.
      : mode === 'dropfilter' && offset === 0 ? `http://127.0.0.1:${port}/${mode}/api/x?limit=${limit}&offset=${offset + limit}`
      : mode === 'droppage' ? `http://127.0.0.1:${port}/${mode}/api/x?page=2`
      : offset + limit < N ? `http://127.0.0.1:${(server.address() as { port: number }).port}/${mode}/api/x?limit=${limit}&offset=${offset + limit}` : null;
    let body = Buffer.from(JSON.stringify({ count: mode === 'countlow' ? 5 : N, next, previous: null, results }));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (mode === 'stacked') {
      body = brotliCompressSync(gzipSync(body));
      headers['content-encoding'] = 'gzip, br';
    }
    res.writeHead(200, headers);
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  server.unref();
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  dir = tempDir();
});
afterAll(() => {
  server.close();
  removeDir(dir);
});

const sct = (mode: string, args: string[]) => sctFor(`${base}/${mode}/api`, 'sct_demo_owner_cacao', dir)(args);

describe('lists from a server of its own ways', () => {
  it('-o csv names the fields that first came after its header, which has no column for them', async () => {
    const paged = await sct('extra', ['risk', 'list', '--all', '--page-size', '10', '-o', 'csv']);
    expect(paged.exitCode, paged.stderr).toBe(0);
    expect(paged.stdout.split('\n')[0]).toBe('id,name');
    expect(paged.stdout.trim().split('\n')).toHaveLength(N + 1);
    expect(paged.stderr).toContain('warning: -o csv: the fields "extra" (in 25 rows), "nested.deep" (in 25 rows) first came after the header was written');
    expect(paged.stderr).toContain('-o json keeps every field');
    // One page that has them all: its header has their columns, and nothing is said.
    const whole = await sct('extra', ['risk', 'list', '--all', '--page-size', '45', '-o', 'csv']);
    expect(whole.exitCode, whole.stderr).toBe(0);
    expect(whole.stdout.split('\n')[0]).toBe('id,name,extra,nested.deep');
    expect(whole.stderr).not.toContain('warning');
  });

  it('--all stops with exit 1 when one page holds more than twice the count, as it does across pages', async () => {
    for (const pageSize of ['45', '20']) {
      const r = await sct('countlow', ['risk', 'list', '--all', '--page-size', pageSize, '-o', 'ndjson']);
      expect(r.exitCode, `--page-size ${pageSize}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain('more items than twice the 5 the list counts');
    }
    const one = await sct('countlow', ['risk', 'list', '--all', '--page-size', '45', '-o', 'ndjson']);
    expect(one.stderr).toContain(`(stopped after ${N} items in 1 request)`);
  });

  it('an answer with codings stacked (gzip, then br over it) is decoded, last coding first', async () => {
    const r = await sct('stacked', ['risk', 'list', '--limit', '3', '-o', 'json', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { id: number }) => x.id)).toEqual([1, 2, 3]);
    expect(r.stderr).toMatch(/\* GET \/compliance\/risk-assessments\S*: content-encoding gzip, br: [\d,]+ bytes received, [\d,]+ decoded/);
  });

  it('a next link that is no URL: the page that came is written, then the link is named (exit 1)', async () => {
    const r = await sct('badlink', ['risk', 'list', '--all', '--page-size', '10', '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toHaveLength(10);
    expect(r.stderr).toContain('error: GET /compliance/risk-assessments: the answer\'s next link is no URL ("http://[::1")');
    expect(r.stderr).not.toContain('Invalid URL');
  });

  it('a next link that is no http(s) URL is named too, not followed for its query alone', async () => {
    const r = await sct('filelink', ['risk', 'list', '--all', '--page-size', '10', '-o', 'ndjson']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(10);
    expect(r.stderr).toContain('error: GET /compliance/risk-assessments: the answer\'s next link is no http(s) URL ("file:///etc/passwd?limit=10&offset=10")');
  });

  it('a next link that is no text, or that leaves out the request\'s own filters, is named, not followed', async () => {
    const num = await sct('numlink', ['risk', 'list', '--all', '--page-size', '10', '-o', 'ndjson']);
    expect(num.exitCode).toBe(1);
    expect(num.stdout.trim().split('\n')).toHaveLength(10);
    expect(num.stderr).toContain('the answer\'s next link is no URL (5)');
    const dropped = await sct('dropfilter', ['risk', 'list', '--all', '--page-size', '10', '--search', 'item', '-o', 'ndjson']);
    expect(dropped.exitCode).toBe(1);
    expect(dropped.stdout.trim().split('\n')).toHaveLength(10);
    expect(dropped.stderr).toContain('the answer\'s next link leaves out the request\'s search=item');
    const paged = await sct('droppage', ['risk', 'list', '--all', '--page-size', '10', '--search', 'item', '-o', 'ndjson']);
    expect(paged.exitCode).toBe(1);
    expect(paged.stderr).toContain('the answer\'s next link leaves out the request\'s search=item');
    const bare = await sct('noquery', ['risk', 'list', '--all', '--page-size', '10', '-o', 'ndjson']);
    expect(bare.exitCode).toBe(1);
    expect(bare.stderr).toContain('the answer\'s next link names no page');
  });

  it('nesting deeper than a stack: a 401 stays exit 4 with its status; -o json stays one document', async () => {
    const denied = await sct('deep401', ['risk', 'list', '-o', 'json']);
    expect(denied.exitCode, denied.stderr).toBe(4);
    expect(denied.stderr).toContain('401 Unauthorized');
    expect(denied.stderr).toContain('"status":401');
    expect(denied.stderr).not.toContain('Maximum call stack');
    const nested = await sct('deep', ['risk', 'list', '-o', 'json']);
    expect(nested.exitCode).toBe(1);
    // Nothing of the list was written, or a whole document: never a closing bracket alone.
    if (nested.stdout.trim() !== '') expect(() => JSON.parse(nested.stdout)).not.toThrow();
    expect(nested.stderr).not.toContain('Maximum call stack');
    expect(nested.stderr).toContain('nested too deeply');
    const filtered = await sct('deep', ['risk', 'list', '--jq', '.[].id']);
    expect(filtered.exitCode).toBe(1);
    expect(filtered.stderr).toContain('error: the data is nested too deeply to handle');
  });

  it('a list item that is no object (null, a number, a string) is an answer error naming the request, never a blank row', async () => {
    for (const [mode, args] of [
      ['nullitem', ['risk', 'list']],
      ['nullitem', ['risk', 'list', '-o', 'json']],
      ['nullitem', ['risk', 'list', '-o', 'csv', '--all']],
      ['scalars', ['risk', 'list', '-o', 'ndjson']],
      ['scalars', ['risk', 'list', '--jq', 'length']],
    ] as const) {
      const r = await sct(mode, [...args]);
      expect(r.exitCode, `${mode} ${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(/error: unexpected answer from GET \/compliance\/risk-assessments: result \d of the page is (null|a number|a string), not an object/);
      expect(r.stderr).not.toContain('Cannot read properties');
    }
    // sct api --paginate prints whatever a list holds: no shape of its own to expect.
    const raw = await sct('scalars', ['api', '/x', '--paginate']);
    expect(raw.exitCode, raw.stderr).toBe(0);
    expect(JSON.parse(raw.stdout)).toEqual([1, 'x', null]);
  });

  it('-o json and ndjson at a terminal keep an id past 2^53 as sent, its strings stripped of bidi and C1 controls as ever', async () => {
    for (const format of ['json', 'ndjson']) {
      const { exitCode, screen } = await runAtTerminal({ dir, url: `${base}/bigid/api` }, ['risk', 'list', '-o', format], [], { SCT_TOKEN: 'sct_demo_owner_cacao', SCT_PAGER: 'cat' });
      expect(exitCode, screen).toBe(0);
      expect(screen).toContain('"id":9007199254740993');
      expect(screen).toContain('"name":"evilgnp.exe"');
      expect(screen).not.toMatch(/[\u202e\u009b]/);
    }
    // Into a pipe, the bytes as sent.
    const piped = await sct('bigid', ['risk', 'list', '-o', 'json']);
    expect(piped.stdout).toContain('"id":9007199254740993');
    expect(piped.stdout).toContain('evil\u202egnp.exe\u009b31m');
  });

  it('a status is named with its reason phrase, and one item that came twice is one', async () => {
    const r = await sct('unimplemented', ['risk', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('501 Not Implemented');
    const repeat = await sct('repeat', ['risk', 'list', '--all', '--page-size', '10', '-o', 'ndjson']);
    expect(repeat.exitCode, repeat.stderr).toBe(0);
    expect(repeat.stdout.trim().split('\n')).toHaveLength(N);
    expect(repeat.stderr).toContain('warning: 1 risk assessment came twice (the list changed while it was read): it was written once');
  });
});
