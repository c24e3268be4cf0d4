// Over a real network (cli-spec "Over a real network"): compressed answers decoded as they stream,
// within the same 256 MB cap on the decoded bytes, and list pages requested several at a time
// (--parallel) when `next` pages by limit and offset, written in order as one document. Against
// the sandbox (which compresses when asked) and the hostile server in front of it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { sctFor } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';
import { answer, compressed, corruptGzip, cursorLinks, gzipBomb, startHostile, withHeaders, type Hostile } from '../helpers/hostile.js';

const t = useSandbox({ orders: 6000, rateLimit: 100_000 }, { inProcess: true });
let h: Hostile;

beforeAll(async () => {
  h = await startHostile(t.sb.url);
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

/** sct through the hostile server, in-process. */
const viaHostile = (args: string[]) => sctFor(h.url, OWNER, t.dir, { inProcess: true })(args, { clientOptions: { retryBaseMs: 1 } });
const listRequests = () => t.sb.requests.filter((r) => r.method === 'GET' && r.path === '/api/orders');
const mostInFlight = () => Math.max(0, ...listRequests().map((r) => r.inFlight));
const EXPORT = ['orders', 'list', '--buying', '--all', '--page-size', '400'];

describe('compressed answers', () => {
  it('every request asks for gzip, deflate or br, and --verbose shows the encoding and both sizes', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '50', '-o', 'json', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests.length).toBeGreaterThan(0);
    for (const q of t.sb.requests) expect(q.headers['accept-encoding']).toBe('gzip, deflate, br');
    // The API document: "Requests send Content-Type: application/json", a GET too.
    for (const q of t.sb.requests) expect(q.headers['content-type']).toBe('application/json');
    expect(r.stderr).toContain('> accept-encoding: gzip, deflate, br');
    expect(r.stderr).toContain('< content-encoding: gzip');
    const [, wire, decoded] = /\* GET \/orders\?\S+: content-encoding gzip: ([\d,]+) bytes received, ([\d,]+) decoded/.exec(r.stderr) ?? [];
    expect(Number(decoded.replace(/,/g, ''))).toBeGreaterThan(3 * Number(wire.replace(/,/g, '')));
    expect(JSON.parse(r.stdout)).toHaveLength(50);
  });

  for (const format of ['json', 'ndjson', 'csv']) {
    it(`-o ${format} is byte for byte the same with gzip, br, deflate and no compression`, async () => {
      const outputs: Record<string, string> = {};
      for (const enc of [false, ['gzip'], ['br'], ['deflate']] as const) {
        t.sb.setCompression(enc === false ? false : [...enc]);
        const r = await t.sct([...EXPORT, '-o', format, '--verbose']);
        expect(r.exitCode, r.stderr).toBe(0);
        if (enc === false) expect(r.stderr).not.toContain('content-encoding');
        else expect(r.stderr).toContain(`< content-encoding: ${enc[0]}`);
        outputs[String(enc)] = r.stdout;
      }
      expect(outputs.false.length).toBeGreaterThan(100_000);
      for (const enc of ['gzip', 'br', 'deflate']) expect(outputs[enc] === outputs.false, enc).toBe(true);
    });
  }

  it('the built sct, 4 pages in flight, each held compressed until its turn: the same bytes as without compression', async () => {
    t.sb.setCompression(false);
    const plain = await t.sctBin([...EXPORT, '-o', 'json']);
    t.sb.setCompression(['gzip']);
    const gz = await t.sctBin([...EXPORT, '-o', 'json', '--parallel', '4', '--verbose']);
    expect(gz.exitCode, gz.stderr).toBe(0);
    expect(plain.exitCode, plain.stderr).toBe(0);
    // One decoding a page, each when it is handed over.
    const pages = (gz.stderr.match(/^< content-encoding: gzip$/gm) ?? []).length;
    expect(pages).toBeGreaterThan(3);
    expect((gz.stderr.match(/^\* GET \/orders\?\S+: content-encoding gzip: [\d,]+ bytes received, [\d,]+ decoded$/gm) ?? []).length).toBe(pages);
    expect(gz.stdout === plain.stdout).toBe(true);
  });

  it('deflate without its zlib wrapper, as some servers send it, is read as well', async () => {
    const plain = await t.sct(['orders', 'get', '1', '-o', 'json']);
    for (const enc of ['deflate-raw', 'br', 'gzip', 'deflate'] as const) {
      h.on('GET /api/orders/1', compressed(enc), { times: 1 });
      const r = await viaHostile(['orders', 'get', '1', '-o', 'json']);
      expect(r.exitCode, `${enc}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe(plain.stdout);
    }
  });

  it('a gzip bomb (2 MB that inflates to 2 GB) is refused as an answer too large, at the 256 MB cap', async () => {
    h.on('GET /api/orders', gzipBomb());
    const r = await viaHostile(['orders', 'list', '--buying', '--all', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('GET /orders: answer too large (more than the 256 MB sct reads)');
    expect(h.log.filter((x) => x.path === '/api/orders')).toHaveLength(1);
  });

  it('a brotli bomb is refused the same way', async () => {
    h.on('GET /api/orders/1', gzipBomb({ encoding: 'br' }));
    const r = await viaHostile(['orders', 'get', '1']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/GET \/orders\/1: answer too large/);
  });

  it('a corrupt gzip body is an error naming the request, not retried', async () => {
    h.on('GET /api/orders', corruptGzip);
    const r = await viaHostile(['orders', 'list', '--buying', '--limit', '100']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/GET \/orders: the answer could not be decoded \(gzip: [^)]+\)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(h.log.filter((x) => x.path === '/api/orders')).toHaveLength(1);
  });

  it('an encoding sct did not ask for is an error naming it', async () => {
    h.on('GET /api/orders/1', answer(200, { 'content-encoding': 'zstd' }, { id: 1 }));
    const r = await viaHostile(['orders', 'get', '1']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('GET /orders/1: the answer is encoded as "zstd", which sct did not ask for and cannot decode');
  });

  it('a document download sent gzipped is saved as its exact bytes', async () => {
    const text = 'lot,weight\n' + Array.from({ length: 5000 }, (_, i) => `L${i},${i * 3}`).join('\n') + '\n';
    const file = t.writeFile('lab report.csv', text);
    const up = await t.sct(['documents', 'upload', file, '-o', 'json']);
    expect(up.exitCode, up.stderr).toBe(0);
    const id = JSON.parse(up.stdout).id;
    const out = join(t.dir, 'got.csv');
    const r = await t.sct(['documents', 'download', String(id), '--out', out, '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\* GET \/documents\/\d+\/download: content-encoding gzip: [\d,]+ bytes received, [\d,]+ decoded/);
    expect(readFileSync(out, 'utf8')).toBe(text);
    const stdout = await t.sct(['documents', 'download', String(id), '--out', '-']);
    expect(stdout.stdout).toBe(text);
  });
});

describe('pages in flight', () => {
  it('--all requests up to 4 pages at a time by default, the same requests and output as one at a time', async () => {
    // Long enough that a loaded machine (this process serves the pages and runs sct) still has
    // every page of a batch asked for before the first is answered.
    t.sb.setFaults({ latencyMs: 120, methods: ['GET'] });
    const results: Record<string, { stdout: string; queries: string[]; most: number }> = {};
    for (const format of ['json', 'ndjson', 'csv']) {
      for (const parallel of ['1', undefined, '8']) {
        t.sb.requests.length = 0;
        const r = await t.sct([...EXPORT, '-o', format, ...(parallel ? ['--parallel', parallel] : [])]);
        expect(r.exitCode, r.stderr).toBe(0);
        results[`${format} ${parallel ?? 'default'}`] = { stdout: r.stdout, queries: listRequests().map((q) => q.query).sort(), most: mostInFlight() };
      }
      const one = results[`${format} 1`];
      expect(one.most).toBe(1);
      expect(one.queries.length).toBeGreaterThan(8);
      expect(results[`${format} default`].most).toBe(4);
      expect(results[`${format} 8`].most).toBeGreaterThan(4);
      for (const p of ['default', '8']) {
        expect(results[`${format} ${p}`].stdout === one.stdout, `${format} ${p}`).toBe(true);
        expect(results[`${format} ${p}`].queries).toEqual(one.queries);
      }
    }
  });

  it('a page failing mid-way stops with the earlier pages written and exit 1, as one at a time does', async () => {
    const outcome: Record<string, { stdout: string; stderr: string; exitCode: number }> = {};
    for (const parallel of ['1', '4']) {
      h.reset();
      h.on('GET /api/orders', answer(500, {}, { detail: 'A server error occurred.' }), { when: (u) => u.searchParams.get('offset') === '800' });
      const r = await viaHostile([...EXPORT, '-o', 'json', '--parallel', parallel]);
      outcome[parallel] = r;
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/500/);
      // With pages in flight, "GET /orders" alone does not say which one failed.
      expect(r.stderr).toContain('(the page at offset 800)');
      const items = JSON.parse(r.stdout) as Array<{ id: number }>;
      expect(items).toHaveLength(800);
    }
    expect(outcome['4'].stdout).toBe(outcome['1'].stdout);
    // --jq's answer is about the whole list: on part of it, it would read as true. Nothing printed.
    const jq = await viaHostile([...EXPORT, '--jq', 'length', '--parallel', '4']);
    expect(jq.exitCode, jq.stderr).toBe(1);
    expect(jq.stdout).toBe('');
    expect(jq.stderr).toContain('(the page at offset 800)');
  });

  it('a compressed page that fails to decode mid-way names its page too, in json as in csv', async () => {
    for (const format of ['json', 'csv']) {
      h.reset();
      h.on('GET /api/orders', corruptGzip, { when: (u) => u.searchParams.get('offset') === '800' });
      const r = await viaHostile([...EXPORT, '-o', format, '--parallel', '4']);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr, format).toMatch(/GET \/orders: the answer could not be decoded \(gzip: [^)]+\) \(the page at offset 800\)/);
    }
  });

  it('a next link that is not limit and offset (a cursor) is followed one page at a time', async () => {
    const plain = await t.sct([...EXPORT, '-o', 'csv', '--parallel', '1']);
    t.sb.setFaults({ latencyMs: 20, methods: ['GET'] });
    t.sb.requests.length = 0;
    h.on('GET /api/orders', cursorLinks);
    const r = await viaHostile([...EXPORT, '-o', 'csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout === plain.stdout).toBe(true);
    expect(listRequests().length).toBeGreaterThan(8);
    expect(mostInFlight()).toBe(1);
  });

  it('with X-RateLimit-Remaining below --parallel, pages go one at a time', async () => {
    t.sb.setFaults({ latencyMs: 20, methods: ['GET'] });
    h.on('GET /api/orders', withHeaders({ 'x-ratelimit-remaining': '3' }));
    const r = await viaHostile([...EXPORT, '-o', 'ndjson']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThan(1600);
    expect(listRequests().length).toBeGreaterThan(8);
    expect(mostInFlight()).toBe(1);
  });

  it('a spent budget sct pauses on by itself, past --max-wait, is an error whose status is null: no 429 came', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    h.on('GET /api/orders', withHeaders({ 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }));
    const r = await viaHostile([...EXPORT, '--parallel', '1', '-o', 'json']);
    expect(r.exitCode).toBe(1);
    const error = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(error).toMatchObject({ status: null, exit_code: 1 });
    expect(error.error).toMatch(/^rate limit exhausted: the budget resets at .*, longer than --max-wait \(GET \/orders\) \(the page at offset \d+\)$/);
    expect(h.log.filter((x) => x.path === '/api/orders')).toHaveLength(1);
  });

  it("sync's reads go several pages at a time, as many reads as one at a time", async () => {
    const product = (await t.api('/products?limit=1')).results[0].id;
    const file = t.writeFile('orders.csv', `external_id,type,order_created_at,seller_company_id,product,volume,unit\nNET-1,order,2025-04-01,101,${product},10,kg\n`);
    t.sb.setFaults({ latencyMs: 30, methods: ['GET'] });
    const reads: Record<string, { count: number; most: number; stdout: string }> = {};
    for (const parallel of ['1', '4']) {
      t.sb.requests.length = 0;
      const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run', '--parallel', parallel, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      reads[parallel] = { count: listRequests().length, most: mostInFlight(), stdout: r.stdout };
    }
    expect(reads['1'].count).toBeGreaterThan(1);
    expect(reads['4'].count).toBe(reads['1'].count);
    expect(reads['1'].most).toBe(1);
    expect(reads['4'].most).toBeGreaterThan(1);
    // The same plan; only what is left of the rate limit differs, spent by the run before.
    const plan = (stdout: string) => stdout.replace(/"remaining": \d+/, '');
    expect(plan(reads['4'].stdout)).toBe(plan(reads['1'].stdout));
  });

  it('--parallel must be a whole number from 1 to 16: exit 2, nothing sent', async () => {
    const file = t.writeFile('o.csv', 'external_id,type,order_created_at,seller_company_id,product,volume,unit\nX,order,2025-04-01,101,1,10,kg\n');
    await t.expectUsageErrors(
      [
        [['orders', 'list', '--buying', '--all', '--parallel', '0'], 'invalid --parallel 0: expected 1..16'],
        [['orders', 'list', '--buying', '--all', '--parallel', '17'], 'invalid --parallel 17: expected 1..16'],
        [['orders', 'list', '--buying', '--all', '--parallel', 'x'], /invalid --parallel "?x"?/],
        [['orders', 'list', '--buying', '--all', '--parallel', '1.5'], /invalid --parallel "?1.5"?/],
        [['products', 'list', '--parallel', '-3'], /--parallel/],
        [['orders', 'sync', '--purchase', '--file', file, '--parallel', '99'], 'invalid --parallel 99: expected 1..16'],
      ],
      { inProcess: true },
    );
  });
});
