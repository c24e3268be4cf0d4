// Answers that look like success but are not: empty or cached answers where JSON was expected,
// pagination that never ends or repeats itself, downloads that are cut short, not a ZIP, or
// raced by another download, and a proxy that will not connect. Each is checked against a small
// server on 127.0.0.1 built for the case; each ends in an error naming the request, never exit 0.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { closeSync, lstatSync, mkdirSync, openSync, read, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { strToU8, zipSync } from 'fflate';
import { until, useSandbox } from '../helpers/sandbox.js';
import { BIN, sctFor, spawnSctFor, type InProcessOptions, type RunOptions } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';
import { startRelay } from '../helpers/relay.js';

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
      // The service did answer: a script tells that from "nothing came back" by the status.
      expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ status, exit_code: 1 });
    }
  });

  it('a GET of one object answered 200 with an empty body, null, a list or a string is an error naming the request, nothing on stdout', async () => {
    for (const [body, what] of [['', 'an empty body or null'], ['null', 'an empty body or null'], ['[1,2]', 'a list'], ['"x"', 'a string']]) {
      const f = await fake((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      });
      for (const args of [['products', 'get', '7', '-o', 'json'], ['orders', 'get', '7'], ['dds', 'get', '7']]) {
        const r = await sctAt(f, args);
        expect(r.exitCode, `${body} ${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(r.stdout).toBe('');
        const path = args[0] === 'dds' ? 'due-diligence-statements' : args[0];
        expect(r.stderr).toContain(`error: GET /${path}/7: the service answered 200 OK without the object (${what})`);
      }
      // The service answered: -o json's error says with what status, and so for a list answered so.
      for (const args of [['products', 'get', '7', '-o', 'json'], ['products', 'list', '-o', 'json']]) {
        const r = await sctAt(f, args);
        expect(r.exitCode).toBe(1);
        expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!), `${body} ${args.join(' ')}`).toMatchObject({ status: 200, exit_code: 1 });
      }
    }
  });

  it('-v shows the body of an answer that failed (a 500\'s page, its reference), bounded; without -v the error line alone', async () => {
    const f = await fake((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(`<html><body><h1>Server Error</h1><p>upstream db timeout ref=ABC123 \u001b[31m${'z'.repeat(5000)}</p></body></html>`);
    });
    const r = await sctAt(f, ['orders', 'get', '6', '-v', '--max-wait', '0']);
    expect(r.exitCode).toBe(1);
    const body = r.stderr.split('\n').find((l) => l.includes('ref=ABC123'))!;
    expect(body).toMatch(/^< GET \/orders\/6: body <html>/);
    expect(body).toMatch(/… \([\d,]+ more characters\)$/);
    expect(body).not.toContain('\u001b');
    const plain = await sctAt(f, ['orders', 'get', '6', '--max-wait', '0']);
    expect(plain.stderr).not.toContain('ref=ABC123');
    // A page of megabytes (a stack trace) shows its head too.
    const big = await fake((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`Traceback ref=BIG42 ${'x'.repeat(3_000_000)}`);
    });
    const r2 = await sctAt(big, ['orders', 'get', '6', '-v', '--max-wait', '0']);
    expect(r2.exitCode).toBe(1);
    expect(r2.stderr).toMatch(/^< GET \/orders\/6: body Traceback ref=BIG42 x+… \([\d,]+ more characters\)$/m);
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
      // The items it served again are the fault named, not a list that changed while it was read.
      expect(r.stderr).not.toContain('came twice');
      const rows = format === 'json' ? JSON.parse(r.stdout) : r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(rows.map((x: { id: number }) => x.id)).toEqual([1, 2, 3, 4, 5]);
    }
    const api = await sctAt(f, ['api', '/products', '--paginate']);
    expect(api.exitCode, api.stderr).toBe(1);
    expect(api.stderr).toContain('does not advance');
    expect(api.stderr).not.toContain('came twice');
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
    // The first page, and the pages already in flight (--parallel 4) when the repeat was seen;
    // none after. (Counted once the server has read them all: a request sent just before the
    // end reaches it a moment later.)
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(f.hits.length).toBeGreaterThanOrEqual(2);
    expect(f.hits.length).toBeLessThanOrEqual(5);
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

  it('a list whose count moves while it is read (items deleted, a workspace switched elsewhere) is said to have changed, at the end', async () => {
    // 9 at first; from the second page on the service counts 5 (and serves what is left).
    const f = await fake((req, res, me) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset') ?? 0);
      const count = offset === 0 ? 9 : 5;
      json(res, { count, next: offset + 3 < count ? `${me.url}/products?limit=3&offset=${offset + 3}` : null, results: ids(offset === 0 ? 1 : 20 + offset, offset === 0 ? 3 : 2) });
    });
    for (const args of [
      ['products', 'list', '--all', '--page-size', '3', '--parallel', '1', '-o', 'json'],
      ['api', '/products?limit=3', '--paginate'],
    ]) {
      const r = await sctAt(f, args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(/warning: the list changed while it was read \(9 \w+ at its first page, 5 at its last\): some may be missing or repeated; run it again for a consistent copy/);
    }
    const steady = await fake((req, res, me) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset') ?? 0);
      json(res, { count: 6, next: offset + 3 < 6 ? `${me.url}/products?limit=3&offset=${offset + 3}` : null, results: ids(offset + 1, 3) });
    });
    const r = await sctAt(steady, ['products', 'list', '--all', '--page-size', '3', '-o', 'json']);
    expect(r.stderr).not.toContain('changed');
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

// --- downloads ----------------------------------------------------------------------------------

const PDF = Buffer.from('%PDF-1.4 ' + 'x'.repeat(20_000) + '\n');

/** Reads `length` bytes from a descriptor (a FIFO this process also holds open for writing, so no end comes). */
function readBytes(fd: number, length: number): Promise<Buffer> {
  const out = Buffer.alloc(length);
  return new Promise((resolve, reject) => {
    const more = (at: number): void => {
      if (at === length) return resolve(out);
      read(fd, out, at, length - at, null, (err, n) => (err ? reject(err) : more(at + n)));
    };
    more(0);
  });
}
const ZIP = Buffer.from(zipSync({ 'RA-7/README.txt': strToU8('evidence\n'), 'RA-7/geolocation/plots.geojson': strToU8('{"type":"FeatureCollection","features":[]}') }));
const EVIDENCE = '/api/compliance/risk-assessments/1/evidence-downloads';

/** A document service: document 1 is `same.pdf`, its file served by `file` (at /files/1). */
async function documentServer(file: (res: ServerResponse) => void): Promise<Fake> {
  return fake((req, res, me) => {
    const path = req.url!.split('?')[0];
    if (path === '/api/documents/1') return json(res, { id: 1, name: 'same.pdf', content_type: 'application/pdf' });
    if (path === '/api/documents/1/download') return json(res, { url: `${new URL(me.url).origin}/files/1` });
    if (path === '/files/1') return file(res);
    json(res, { detail: 'Not found.' }, 404);
  });
}

/** Holds the answers given to it until released; `waiting` is how many are held. */
function gate() {
  const held: Array<() => void> = [];
  return {
    hold: (then: () => void) => void held.push(then),
    get waiting() {
      return held.length;
    },
    release: () => held.splice(0).forEach((go) => go()),
  };
}

/** The headers and the first bytes at once, the rest when released. */
const sendPdf = (res: ServerResponse, g?: ReturnType<typeof gate>) => {
  res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
  res.write(PDF.subarray(0, 100));
  if (g) g.hold(() => res.end(PDF.subarray(100)));
  else res.end(PDF.subarray(100));
};

const partFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.part'));

describe('documents download: the final name is claimed, never taken over', () => {
  it('two downloads of the same name into one directory: one file, one "already exists" error', async () => {
    const g = gate();
    const f = await documentServer((res) => sendPdf(res, g));
    const out = join(t.dir, 'docs');
    mkdirSync(out);
    const both = [0, 1].map(() => sctFor(f.url, OWNER, t.dir)(['documents', 'download', '1', '--out', out + '/']));
    await until(() => g.waiting === 2, 'both downloads under way');
    g.release();
    const runs = await Promise.all(both);
    expect(runs.map((r) => r.exitCode).sort()).toEqual([0, 1]);
    const failed = runs.find((r) => r.exitCode === 1)!;
    expect(failed.stderr).toContain(`${join(out, 'same.pdf')} already exists: another process created it while the download ran; nothing was replaced`);
    expect(readdirSync(out)).toEqual(['same.pdf']);
    expect(readFileSync(join(out, 'same.pdf'))).toEqual(PDF);
  });

  it('a file another process creates meanwhile is never replaced, --force or not; --force replaces the file that was there', async () => {
    const g = gate();
    const f = await documentServer((res) => sendPdf(res, g));
    const target = join(t.dir, 'report.pdf');
    for (const force of [[], ['--force']]) {
      rmSync(target, { force: true });
      if (force.length) writeFileSync(target, 'the old report\n');
      const run = sctAt(f, ['documents', 'download', '1', '--out', target, ...force]);
      await until(() => g.waiting === 1, 'the download under way');
      // Another process puts its own file under the name (a new file, not the one --force was given).
      rmSync(target, { force: true });
      writeFileSync(target, 'written meanwhile\n');
      g.release();
      const r = await run;
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain(`${target} already exists: another process created it while the download ran`);
      expect(readFileSync(target, 'utf8')).toBe('written meanwhile\n');
      expect(partFiles(t.dir)).toEqual([]);
    }
    writeFileSync(target, 'the old report\n');
    const forced = sctAt(f, ['documents', 'download', '1', '--out', target, '--force']);
    await until(() => g.waiting === 1, 'the download under way');
    g.release();
    const r = await forced;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(target)).toEqual(PDF);
  });

  it('an existing device or FIFO is written into, never replaced; --out - writes to stdout', async () => {
    const f = await documentServer((res) => sendPdf(res));
    // A device node of our own (the same device as /dev/null): root only.
    const device = join(t.dir, 'null');
    if (process.getuid?.() === 0) {
      execFileSync('mknod', [device, 'c', '1', '3']);
      const r = await sctAt(f, ['documents', 'download', '1', '--out', device, '--force']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(lstatSync(device).isCharacterDevice()).toBe(true);
    } else {
      console.warn('not root: the device node case is left out (mknod needs root)');
    }
    const fifo = join(t.dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    // Opened for reading before sct runs (read and write, which does not wait for a writer): a
    // reader whose open was still queued in the thread pool of a loaded machine was no reader yet.
    const fd = openSync(fifo, 'r+');
    const reader = readBytes(fd, PDF.length);
    const r = await sctAt(f, ['documents', 'download', '1', '--out', fifo]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await reader).toEqual(PDF);
    closeSync(fd);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(partFiles(t.dir)).toEqual([]);

    const stdout = await sctFor(f.url, OWNER, t.dir)(['documents', 'download', '1', '--out', '-']);
    expect(stdout.exitCode, stdout.stderr).toBe(0);
    expect(stdout.stdout).toBe(PDF.toString());
    expect(stdout.stderr).toContain('Saved 20 kB to standard output');
    // --jq and --json shape a JSON record, which --out - does not write: refused before any request.
    for (const flag of [['--jq', '.path'], ['--json', 'path'], ['-o', 'json'], ['--columns', 'name']]) {
      f.hits.length = 0;
      const shaped = await sctFor(f.url, OWNER, t.dir)(['documents', 'download', '1', '--out', '-', ...flag]);
      expect(shaped.exitCode, flag[0]).toBe(2);
      expect(shaped.stderr).toContain(`${flag[0] === '-o' ? '-o json' : flag[0]} shapes the record of a download, and --out - writes the file's bytes instead`);
      expect(f.hits).toEqual([]);
    }
  });

  it('a FIFO no process reads is refused at once, never waited on', async () => {
    const f = await documentServer((res) => sendPdf(res));
    const fifo = join(t.dir, 'unread');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    // A process: a thread of this one left waiting on the FIFO would outlive the test.
    const r = await sctFor(f.url, OWNER, t.dir)(['documents', 'download', '1', '--out', fifo], { timeout: 20_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${fifo} is a FIFO that no process reads`);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(partFiles(t.dir)).toEqual([]);
  });

  it('a full disk: exit 1 naming the file, and neither the file nor a temporary file is left', async (ctx) => {
    const mnt = join(t.dir, 'small');
    mkdirSync(mnt);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8k', 'tmpfs', mnt], { stdio: 'ignore' });
    } catch {
      console.warn('cannot mount a small tmpfs here (root and mount rights needed): the full-disk case is skipped');
      return ctx.skip();
    }
    try {
      const f = await documentServer((res) => sendPdf(res));
      const r = await sctAt(f, ['documents', 'download', '1', '--out', mnt + '/']);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`error: writing ${join(mnt, 'same.pdf')}: .*no space left on device`, 'i'));
      expect(readdirSync(mnt)).toEqual([]);
    } finally {
      execFileSync('umount', [mnt]);
    }
  });
});

describe('risk evidence: a complete ZIP or nothing', () => {
  const evidenceServer = (answer: (res: ServerResponse) => void) =>
    fake((req, res) => (req.method === 'POST' && req.url === EVIDENCE ? answer(res) : json(res, { detail: 'Not found.' }, 404)));
  const zipHeaders = { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="RA-7.zip"' };

  it('a complete ZIP is saved, its entries counted', async () => {
    const f = await evidenceServer((res) => {
      res.writeHead(200, { ...zipHeaders, 'content-length': String(ZIP.length) });
      res.end(ZIP);
    });
    const out = join(t.dir, 'ok');
    const r = await sctAt(f, ['risk', 'evidence', '1', '--out', out + '/']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`(2 entries) to ${join(out, 'RA-7.zip')}`);
    expect(readFileSync(join(out, 'RA-7.zip'))).toEqual(ZIP);
  });

  const broken: Array<[string, (res: ServerResponse) => void, RegExp]> = [
    [
      'an HTML page answered 200',
      (res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!DOCTYPE html><html><body>Sign in</body></html>');
      },
      /error: POST \/compliance\/risk-assessments\/1\/evidence-downloads: the evidence package is not a complete ZIP/,
    ],
    [
      'a 206 partial answer',
      (res) => {
        res.writeHead(206, { ...zipHeaders, 'content-range': `bytes 0-99/${ZIP.length}`, 'content-length': '100' });
        res.end(ZIP.subarray(0, 100));
      },
      /error: POST \/compliance\/risk-assessments\/1\/evidence-downloads: the service answered 206 Partial Content: only part of the file/,
    ],
    [
      'a body cut off on a connection without Content-Length',
      (res) => {
        res.writeHead(200, { ...zipHeaders, connection: 'close' });
        res.end(ZIP.subarray(0, ZIP.length - 40));
      },
      /error: POST \/compliance\/risk-assessments\/1\/evidence-downloads: the evidence package is not a complete ZIP/,
    ],
    [
      'a chunked body whose connection breaks',
      (res) => {
        res.writeHead(200, zipHeaders);
        res.write(ZIP.subarray(0, 60));
        setTimeout(() => res.socket?.destroy(), 30);
      },
      /error: POST \/compliance\/risk-assessments\/1\/evidence-downloads: the connection broke while reading the answer/,
    ],
    [
      'a body shorter than its Content-Length',
      (res) => {
        res.writeHead(200, { ...zipHeaders, 'content-length': String(ZIP.length) });
        res.write(ZIP.subarray(0, 60));
        setTimeout(() => res.socket?.destroy(), 30);
      },
      /error: POST \/compliance\/risk-assessments\/1\/evidence-downloads: (the connection broke while reading the answer|the answer was cut off)/,
    ],
  ];
  for (const [what, answer, message] of broken) {
    it(`${what}: exit 1, an error naming the request, no file kept`, async () => {
      const f = await evidenceServer(answer);
      const out = join(t.dir, 'ev');
      mkdirSync(out);
      const r = await sctAt(f, ['risk', 'evidence', '1', '--out', out + '/']);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/^error: aborted$/m);
      expect(readdirSync(out)).toEqual([]);
    });
  }

  it('to standard output or a FIFO, a ZIP that is not complete is not written at all', async () => {
    const f = await evidenceServer((res) => {
      res.writeHead(200, { ...zipHeaders, connection: 'close' });
      res.end(ZIP.subarray(0, ZIP.length - 40));
    });
    const r = await sctFor(f.url, OWNER, t.dir)(['risk', 'evidence', '1', '--out', '-']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
  });
});

describe('interrupted downloads leave nothing behind', () => {
  it('Ctrl-C during the body stops it: exit 130, no file and no part file', async () => {
    const g = gate();
    const f = await documentServer((res) => sendPdf(res, g));
    const out = join(t.dir, 'int');
    mkdirSync(out);
    const ctrlC = new AbortController();
    const run = sctAt(f, ['documents', 'download', '1', '--out', out + '/'], { signal: ctrlC.signal });
    await until(() => g.waiting === 1, 'the download under way');
    await until(() => partFiles(out).length === 1, 'the part file');
    ctrlC.abort();
    const r = await run;
    g.release();
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).not.toContain('Saved');
    expect(readdirSync(out)).toEqual([]);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} to the process during the body: exit ${code}, no part file`, async () => {
      const g = gate();
      const f = await documentServer((res) => sendPdf(res, g));
      const out = join(t.dir, 'sig');
      mkdirSync(out);
      const child = spawnSctFor(f.url, OWNER, t.dir)(['documents', 'download', '1', '--out', out + '/']);
      await until(() => partFiles(out).length === 1, 'the part file', 20_000);
      child.kill(signal);
      const r = await child;
      g.release();
      expect(r.exitCode, String(r.stderr)).toBe(code);
      expect(readdirSync(out)).toEqual([]);
    });
  }
});

describe('a download whose body breaks on the way is asked for again, from its first byte', () => {
  const zipHeaders = { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="RA-7.zip"' };
  /** The evidence endpoint: the first `broken` answers go through `breaking`, the next is the whole ZIP. */
  const evidenceServer = (broken: number, breaking: (res: ServerResponse) => void) => {
    const keys: string[] = [];
    return fake((req, res, me) => {
      if (req.method !== 'POST' || req.url !== EVIDENCE) return json(res, { detail: 'Not found.' }, 404);
      keys.push(String(req.headers['idempotency-key']));
      if (me.hits.length <= broken) return breaking(res);
      res.writeHead(200, { ...zipHeaders, 'content-length': String(ZIP.length) });
      res.end(ZIP);
    }).then((f) => Object.assign(f, { keys }));
  };
  /** Headers and the first bytes, then the connection reset. */
  const resetMidBody = (res: ServerResponse) => {
    res.writeHead(200, { ...zipHeaders, 'content-length': String(ZIP.length) });
    res.write(ZIP.subarray(0, 60));
    setTimeout(() => res.socket?.resetAndDestroy(), 30);
  };

  it('risk evidence cut mid-body: retried under the same Idempotency-Key, the whole ZIP saved, "retry 1/3" with -v', async () => {
    const f = await evidenceServer(1, resetMidBody);
    const out = join(t.dir, 'ev');
    const r = await sctAt(f, ['-v', 'risk', 'evidence', '1', '--out', out + '/']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\* POST \/compliance\/risk-assessments\/1\/evidence-downloads \(key [0-9a-f]{8}\): the connection broke while reading the answer \(connection reset by the server\): retry 1\/3/);
    expect(f.hits).toHaveLength(2);
    expect(new Set(f.keys).size).toBe(1);
    expect(readdirSync(out)).toEqual(['RA-7.zip']);
    expect(readFileSync(join(out, 'RA-7.zip'))).toEqual(ZIP);
  });

  it('to standard output, evidence held until complete: the retried ZIP written once', async () => {
    const f = await evidenceServer(1, resetMidBody);
    const r = await sctFor(f.url, OWNER, t.dir)(['risk', 'evidence', '1', '--out', '-']);
    expect(r.exitCode, r.stderr).toBe(0);
    // Decoded as the harness decodes it: the ZIP's bytes once, nothing of the cut attempt.
    expect(r.stdout).toBe(ZIP.toString());
    expect(f.hits).toHaveLength(2);
  });

  it('a body cut each time: exit 1 after 4 attempts, no file; a complete body that is no ZIP is not asked for again', async () => {
    const f = await evidenceServer(99, resetMidBody);
    const out = join(t.dir, 'ev');
    mkdirSync(out);
    const r = await sctAt(f, ['risk', 'evidence', '1', '--out', out + '/']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('error: POST /compliance/risk-assessments/1/evidence-downloads: the connection broke while reading the answer (connection reset by the server) (after 4 attempts)');
    expect(f.hits).toHaveLength(4);
    expect(readdirSync(out)).toEqual([]);

    const html = await evidenceServer(99, (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>Sign in</body></html>');
    });
    const notZip = await sctAt(html, ['risk', 'evidence', '1', '--out', out + '/']);
    expect(notZip.exitCode, notZip.stderr).toBe(1);
    expect(notZip.stderr).toContain('the evidence package is not a complete ZIP');
    expect(html.hits).toHaveLength(1);
    expect(readdirSync(out)).toEqual([]);
  });

  it('documents download whose signed link answers short of its Content-Length: asked for again, the part file made anew', async () => {
    let files = 0;
    const f = await documentServer((res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
      // The first answer: 5,000 bytes of another version of the file, then the connection closed (a FIN, not a reset).
      if (++files === 1) return void res.write(Buffer.alloc(5_000, 'y'), () => res.socket?.end());
      res.end(PDF);
    });
    const out = join(t.dir, 'docs');
    const r = await sctAt(f, ['-v', 'documents', 'download', '1', '--out', out + '/']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\* GET \S+: (the answer was cut off after 5000 of its 20010 bytes \(Content-Length\)|the connection broke while reading the answer .*): retry 1\/3/);
    expect(files).toBe(2);
    expect(readdirSync(out)).toEqual(['same.pdf']);
    expect(readFileSync(join(out, 'same.pdf'))).toEqual(PDF);
  });

  it('documents download --out -: bytes already on standard output are never followed by a second attempt\'s', async () => {
    const f = await documentServer((res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
      res.write(PDF.subarray(0, 100));
      setTimeout(() => res.socket?.resetAndDestroy(), 30);
    });
    const r = await sctFor(f.url, OWNER, t.dir)(['documents', 'download', '1', '--out', '-']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: GET http:\/\/127\.0\.0\.1:\d+\/files\/….*the connection broke while reading the answer/);
    expect(r.stderr).toContain('not asked for again: its first 100 bytes are on standard output already');
    expect(f.hits.filter((h) => h.url === '/files/1')).toHaveLength(1);
  });

  /** A document whose first `stalling` answers send 2,500 bytes and then nothing, the connection left open; the next is whole. */
  const stallingDocument = async (stalling: number) => {
    let files = 0;
    const f = await documentServer((res) => {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
      if (++files <= stalling) return void res.write(PDF.subarray(0, 2_500));
      res.end(PDF);
    });
    return Object.assign(f, { files: () => files });
  };

  it('a body that stalls: cut after 10s with no byte (at the default --timeout 30s), asked for again and saved; the trace says how long nothing came', async () => {
    const f = await stallingDocument(1);
    const out = join(t.dir, 'stalled');
    const started = Date.now();
    const r = await sctAt(f, ['-v', 'documents', 'download', '1', '--out', out + '/'], { timeout: 40_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\* GET \S+: nothing came for 10s after the first 2,500 bytes: the connection seems to have stalled: retry 1\/3/);
    expect(r.stderr).not.toContain('still arriving');
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(f.files()).toBe(2);
    expect(readFileSync(join(out, 'same.pdf'))).toEqual(PDF);
  }, 45_000);

  it('a body that stalls until --timeout each time: said as a stall (how long nothing came, run it again), not "still arriving"; retried, no file', async () => {
    const f = await stallingDocument(99);
    const out = join(t.dir, 'stalled');
    mkdirSync(out);
    const r = await sctAt(f, ['documents', 'download', '1', '--out', out + '/', '--timeout', '2s'], { timeout: 25_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: GET http:\/\/127\.0\.0\.1:\d+\/files\/…: no complete answer within 2s \(--timeout\), and nothing came for its last [\d.]+m?s, after the first 2,500 bytes: the connection seems to have stalled \(after 4 attempts\)/);
    expect(r.stderr).toMatch(/hint: run it again/);
    expect(r.stderr).not.toContain('still arriving');
    expect(f.files()).toBe(4);
    expect(readdirSync(out)).toEqual([]);
  });

  it('a body still arriving at --timeout is not asked for again: the hint is a longer --timeout', async () => {
    let files = 0;
    const f = await documentServer((res) => {
      files++;
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
      const tick = setInterval(() => res.write(PDF.subarray(0, 10)), 50);
      res.on('close', () => clearInterval(tick));
    });
    const out = join(t.dir, 'slow');
    mkdirSync(out);
    const r = await sctAt(f, ['documents', 'download', '1', '--out', out + '/', '--timeout', '1s']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/no complete answer within 1s \(--timeout\)\n/);
    expect(r.stderr).toContain('hint: the file was still arriving: give it longer with --timeout');
    expect(files).toBe(1);
    expect(readdirSync(out)).toEqual([]);
  });

  it('a gzip body cut on an answer that ends with its connection (no Content-Length) is asked for again; a damaged one is not', async () => {
    const doc = Buffer.from('%PDF-1.4 ' + randomBytes(150_000).toString('hex') + '\n');
    const zipped = gzipSync(doc);
    /** The document gzipped, told apart from its end only by the connection closing; the first `cut` answers stop after 100 kB. */
    const gzipServer = (cut: number, bytes = zipped) => {
      let files = 0;
      return documentServer((res) => {
        res.useChunkedEncodingByDefault = false;
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-encoding': 'gzip', connection: 'close' });
        res.end(++files <= cut ? bytes.subarray(0, 100_000) : bytes);
      }).then((f) => Object.assign(f, { files: () => files }));
    };
    const f = await gzipServer(1);
    const out = join(t.dir, 'gz');
    const r = await sctAt(f, ['-v', 'documents', 'download', '1', '--out', out + '/']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\* GET \S+: the answer was cut off after 100,000 bytes: the connection closed before its gzip data ended: retry 1\/3/);
    expect(f.files()).toBe(2);
    expect(readFileSync(join(out, 'same.pdf'))).toEqual(doc);

    // Bytes that are no gzip (not an early end) are the file's, whatever the connection did.
    const damaged = Buffer.from(zipped);
    damaged.fill(7, 5_000, 6_000);
    const bad = await gzipServer(0, damaged);
    mkdirSync(join(t.dir, 'bad'));
    const r2 = await sctAt(bad, ['documents', 'download', '1', '--out', join(t.dir, 'bad') + '/']);
    expect(r2.exitCode, r2.stderr).toBe(1);
    expect(r2.stderr).toMatch(/the answer could not be decoded \(gzip: [^)]+\)/);
    expect(bad.files()).toBe(1);
    expect(readdirSync(join(t.dir, 'bad'))).toEqual([]);
  });

  it('a reader that is behind is no stall: `--out -` into a pipe whose reader sleeps past --timeout is "still arriving", asked for once', async () => {
    const big = Buffer.alloc(300_000, 'p');
    let files = 0;
    const f = await documentServer((res) => {
      files++;
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(big.length) });
      res.end(big);
    });
    // The whole file is sent at once; the pipe fills, and sct waits for its reader, not the server.
    const r = await execa('bash', ['-c', '$SCT documents download 1 --out - --timeout 3s | (sleep 5; wc -c >/dev/null); exit ${PIPESTATUS[0]}'], {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: 'true', SCT: `${process.execPath} ${BIN}`, SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: f.url, SCT_TOKEN: OWNER },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: GET http:\/\/127\.0\.0\.1:\d+\/files\/…: no complete answer within 3s \(--timeout\)\n/);
    expect(r.stderr).toContain('hint: the file was still arriving: give it longer with --timeout');
    expect(r.stderr).not.toContain('stalled');
    expect(files).toBe(1);
  });

  it('Ctrl-C during the second attempt\'s body stops it at once: exit 130, no file', async () => {
    const g = gate();
    let files = 0;
    const f = await documentServer((res) => {
      if (++files === 1) {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(PDF.length) });
        res.write(PDF.subarray(0, 100));
        return void setTimeout(() => res.socket?.resetAndDestroy(), 30);
      }
      sendPdf(res, g);
    });
    const out = join(t.dir, 'int');
    mkdirSync(out);
    const ctrlC = new AbortController();
    const run = sctAt(f, ['documents', 'download', '1', '--out', out + '/'], { signal: ctrlC.signal });
    await until(() => g.waiting === 1, 'the second attempt under way');
    await until(() => partFiles(out).length === 1, 'its part file');
    const stopped = Date.now();
    ctrlC.abort();
    const r = await run;
    g.release();
    expect(r.exitCode, r.stderr).toBe(130);
    expect(Date.now() - stopped).toBeLessThan(2_000);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('a signed link that storage no longer serves', () => {
  it('410 Gone (expired between two attempts) is said as an expired link, hint: run the command again, as a 403 is', async () => {
    for (const status of [403, 410]) {
      const f = await documentServer((res) => json(res, { detail: 'Request has expired' }, status));
      const out = join(t.dir, `gone-${status}`);
      mkdirSync(out);
      const r = await sctAt(f, ['documents', 'download', '1', '--out', out + '/']);
      expect(r.exitCode, `${status}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^error: Request has expired \\(${status} [A-Za-z ]+ on GET http://127\\.0\\.0\\.1:\\d+/files/…\\): the storage the service's link points to refused it \\(the link may have expired\\)$`, 'm'));
      expect(r.stderr).toContain('hint: run the command again: it asks the service for a new link');
      expect(readdirSync(out)).toEqual([]);
    }
  });
});

describe('a proxy that will not connect', () => {
  const via = (proxy: string, args: string[], o: InProcessOptions = {}) =>
    sctFor('https://sct.test/api', OWNER, t.dir, { inProcess: true })(args, { env: { HTTPS_PROXY: proxy }, timeout: 20_000, ...o });

  it('a plain HTTP server on the proxy port (it closes CONNECT): exit 1 at once, the proxy named, never its credentials', async () => {
    let connections = 0;
    const f = await fake((_req, res) => res.end('not a proxy'));
    const port = new URL(f.url).port;
    // Counted on the server behind the fake's handler: a CONNECT never reaches the handler.
    const server = createNetServer((socket) => {
      connections++;
      socket.on('data', () => socket.destroy());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(() => server.close());
    const proxyPort = (server.address() as AddressInfo).port;
    for (const proxy of [`http://user:s3cret@127.0.0.1:${proxyPort}`, `http://user:s3cret@127.0.0.1:${port}`]) {
      connections = 0;
      const r = await via(proxy, ['products', 'list', '--timeout', '5s']);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^error: GET \/products: the proxy http:\/\/127\.0\.0\.1:\d+ did not open a tunnel \(CONNECT\): it closed the connection/m);
      expect(r.stderr).not.toContain('s3cret');
    }
    expect(connections).toBeLessThanOrEqual(4);
  });

  it('a proxy that refuses CONNECT (407, 403): exit 1, not retried, the proxy and its answer named, never its credentials', async () => {
    for (const [status, text] of [[407, 'Proxy Authentication Required'], [403, 'Forbidden']] as const) {
      let connects = 0;
      const server = createNetServer((socket) => {
        socket.on('error', () => undefined);
        socket.once('data', () => {
          connects++;
          socket.end(`HTTP/1.1 ${status} ${text}\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n`);
        });
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      servers.push(() => server.close());
      const port = (server.address() as AddressInfo).port;
      const r = await via(`http://puser:ppass@127.0.0.1:${port}`, ['products', 'list']);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain(`error: GET /products: the proxy http://127.0.0.1:${port} did not open a tunnel (CONNECT): it answered ${status} ${text}`);
      // A 407 to the credentials of the proxy URL says they were refused; without them, where they go.
      if (status === 407) expect(r.stderr).toContain('it refused the user name and password of the proxy URL');
      else expect(r.stderr).not.toContain('user name and password');
      expect(r.stderr).not.toContain('ppass');
      expect(connects).toBe(1);
      if (status === 407) {
        const bare = await via(`http://127.0.0.1:${port}`, ['products', 'list']);
        expect(bare.stderr).toContain('it wants a user name and password: give them in the proxy URL, before its host');
        // A user name alone is never sent: said so, not "give them".
        const half = await via(`http://alice@127.0.0.1:${port}`, ['products', 'list']);
        expect(half.stderr).toContain('the proxy URL gives only one of them, and none is sent without the other');
        // The other variable's URL, not used for an https service, is not the one judged.
        const other = await sctFor('https://sct.test/api', OWNER, t.dir, { inProcess: true })(['products', 'list'], { env: { HTTPS_PROXY: `http://127.0.0.1:${port}`, HTTP_PROXY: 'http://alice@127.0.0.1:9' }, timeout: 20_000 });
        expect(other.stderr).toContain('it wants a user name and password: give them in the proxy URL, before its host');
      }
    }
  });

  it('a proxy whose host is not found: said as such, as a service host is', async () => {
    const r = await via('http://proxy.invalid:3128', ['products', 'list', '--timeout', '5s']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('the proxy http://proxy.invalid:3128 did not open a tunnel (CONNECT): its host was not found (is HTTPS_PROXY/HTTP_PROXY right?)');
    expect(r.stderr).not.toContain('ENOTFOUND');
  });

  it('a proxy port where nothing listens: the proxy named, connection refused', async () => {
    const server = createNetServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    const r = await via(`http://127.0.0.1:${port}`, ['products', 'list']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`the proxy http://127.0.0.1:${port} did not open a tunnel (CONNECT): connection refused`);
  });

  it('a proxy that takes the connection and never answers its CONNECT: the timeout names the proxy, never its credentials', async () => {
    const server = createNetServer((socket) => socket.on('error', () => undefined));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(() => {
      server.close();
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    const port = (server.address() as AddressInfo).port;
    const r = await via(`http://bob:s3cret@127.0.0.1:${port}`, ['products', 'list', '--timeout', '300ms']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`no complete answer within 300ms (--timeout) through the proxy http://127.0.0.1:${port} (HTTPS_PROXY/HTTP_PROXY), which may not have answered`);
    expect(r.stderr).not.toContain('s3cret');
  });

  it('a proxy that opens the tunnel and then says nothing: the process ends with its error, not seconds later', async () => {
    const server = createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.write('HTTP/1.1 200 Connection established\r\n\r\n'));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(() => server.close());
    const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A process: what keeps it alive after the command is done is the point.
    const child = spawnSctFor('https://sct.test/api', OWNER, t.dir)(['products', 'list', '--timeout', '300ms'], { env: { HTTPS_PROXY: proxy }, timeout: 30_000 });
    let erredAt = 0;
    child.stderr!.on('data', (d: Buffer) => {
      if (String(d).includes('error:')) erredAt ||= Date.now();
    });
    const r = await child;
    const exitedAt = Date.now();
    expect(r.exitCode, String(r.stderr)).toBe(1);
    expect(String(r.stderr)).toContain('error: GET /products: no complete answer within 300ms (--timeout)');
    // The proxy did its part: the service behind the tunnel is what was slow, not the proxy.
    expect(String(r.stderr)).toContain(`through the proxy ${proxy} (HTTPS_PROXY/HTTP_PROXY), which opened the tunnel to the service`);
    // The TLS handshakes inside the tunnels waited for undici's own 10 s connect limit.
    expect(exitedAt - erredAt).toBeLessThan(2000);
  });

  it('a proxy that never answers CONNECT: --timeout ends each try, and Ctrl-C ends the run at once', async () => {
    let connections = 0;
    const server = createNetServer((socket) => {
      connections++;
      socket.on('error', () => undefined);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(() => server.close());
    const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const timedOut = await via(proxy, ['products', 'list', '--timeout', '300ms'], { clientOptions: { retryBaseMs: 1 } });
    expect(timedOut.exitCode, timedOut.stderr).toBe(1);
    expect(timedOut.stderr).toContain('error: GET /products: no complete answer within 300ms (--timeout)');

    const ctrlC = new AbortController();
    connections = 0;
    const run = via(proxy, ['products', 'list', '--timeout', '60s'], { signal: ctrlC.signal });
    await until(() => connections > 0, 'the connection to the proxy');
    ctrlC.abort();
    const r = await run;
    expect(r.exitCode, r.stderr).toBe(130);
  });
});

describe('a bulk request refused for want of permission', () => {
  it('is one error for the run (exit 1, the rows not sent, the service\'s words), not every row rejected', async () => {
    const f = await fake((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/api/accounts/me')) return json(res, { id: 7, company: { id: 3, name: 'Co' }, auth_group: { id: 1, name: 'OWNER' }, active_user_company_id: 3 });
      json(res, { detail: 'You do not have permission to perform this action.' }, 403);
    });
    const people = join(t.dir, 'people-403.csv');
    writeFileSync(people, 'email,auth_group\na@perm.example,1\nb@perm.example,1\n');
    const bulk = await sctAt(f, ['invitations', 'bulk-create', '--file', people, '--fresh', '-o', 'json']);
    expect(bulk.exitCode, bulk.stderr).toBe(1);
    expect((JSON.parse(bulk.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['not_sent', 'not_sent']);
    expect(bulk.stderr).toContain('You do not have permission to perform this action. (403 Forbidden on POST /accounts/user-invitations/bulk-create)');
    expect(bulk.stderr).not.toContain('fix the rejected rows');
    // Whose token was refused, and where its role is seen.
    expect(bulk.stderr).toMatch(/refused to the user of this token \([^)]*\): `sct auth status` says who that is and their role/);
    // Not when the refused request is the user's own profile, which that status asks too.
    const me = await fake((_req, res) => json(res, { detail: 'You do not have permission to perform this action.' }, 403));
    const whoami = await sctAt(me, ['whoami']);
    expect(whoami.exitCode).toBe(1);
    expect(whoami.stderr).not.toContain('sct auth status');
    // However `sct api` spells that path: a query, a trailing slash.
    for (const path of ['/accounts/me?x=1', '/accounts/me/', 'accounts/me', '/accounts/./me']) {
      const api = await sctAt(me, ['api', path]);
      expect(api.exitCode, path).toBe(1);
      expect(api.stderr, path).not.toContain('sct auth status');
    }
    // A --base-url holding a password cannot be repeated in a command: asked for in words, never
    // left out (the profile's own service would answer for another user).
    const hidden = await sctAt(f, ['products', 'list', '--base-url', f.url.replace('://', '://u:p@')]);
    expect(hidden.exitCode).toBe(1);
    expect(hidden.stderr).toContain('`sct auth status --base-url URL` with the base URL you gave says who that is');
    expect(hidden.stderr).not.toContain(':p@');
    // A base URL with a space in its path, quoted as a shell reads it back.
    const spaced = await sctAt(f, ['products', 'list', '--base-url', `${f.url.replace(/\/api$/, '')}/a b/api`]);
    expect(spaced.stderr).toContain(`\`sct auth status --base-url '${f.url.replace(/\/api$/, '')}/a b/api'\` says who that is`);

    const origins = join(t.dir, 'origins-403.csv');
    writeFileSync(origins, 'name,country_code,latitude,longitude\nA,CI,6.8,-5.2\nB,CI,6.9,-5.3\nC,CI,7.0,-5.4\n');
    f.hits.length = 0;
    const each = await sctAt(f, ['origins', 'import', '--file', origins, '--fresh', '--concurrency', '1', '-o', 'json']);
    expect(each.exitCode, each.stderr).toBe(1);
    expect((JSON.parse(each.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['not_sent', 'not_sent', 'not_sent']);
    // The first refusal stops the run: the others would be refused the same way.
    expect(f.hits.filter((h) => h.method === 'POST')).toHaveLength(1);
  });
});

describe('a failure on the way names where, and how often it was tried', () => {
  it('a refused connection names the host; a certificate not trusted says where its CA goes; a 502 after the retries says so', async () => {
    const refused = await sctFor('http://127.0.0.1:1/api', OWNER, t.dir, { inProcess: true })(['orders', 'get', '5'], { clientOptions: { retryBaseMs: 1 } });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('error: GET /orders/5: connection refused (127.0.0.1:1) (is the base URL right and the service up?)');
    const relay = await startRelay(t.sb.port, { tls: true });
    try {
      const tls = await sctFor(relay.url, OWNER, t.dir, { inProcess: true })(['orders', 'get', '5']);
      expect(tls.exitCode).toBe(1);
      expect(tls.stderr).toMatch(new RegExp(`error: GET /orders/5: the TLS certificate of 127\\.0\\.0\\.1:${new URL(relay.url).port} is not trusted \\(self-signed certificate\\): behind a corporate TLS proxy, give its CA certificate in NODE_EXTRA_CA_CERTS`));
    } finally {
      await relay.close();
    }
    const f = await fake((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    const bad = await sctAt(f, ['orders', 'get', '5'], { clientOptions: { retryBaseMs: 1 } });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('error: 502 Bad Gateway (HTML page) on GET /orders/5 (after 4 attempts)');
  });
});

describe('an anonymous request refused 401', () => {
  it('invitations public sends no token: the hint does not send the user to log in', async () => {
    const f = await fake((req, res) => json(res, { detail: 'Authentication credentials were not provided.', auth: req.headers.authorization ?? 'none' }, 401));
    const r = await sctAt(f, ['invitations', 'public', '3f2b8c1e-1111-4111-8111-111111111111']);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('hint: this request is sent without a token (the endpoint is public): logging in does not change its answer');
    expect(r.stderr).not.toContain('auth login');
  });
});

describe('a bulk request refused for what it is, not for its rows', () => {
  it('a 404 or 405 on the endpoint, a 413 or 415 from a proxy: the run stops (exit 1, the rows not sent), not every row rejected', async () => {
    for (const [status, body] of [[404, { detail: 'Not found.' }], [405, { detail: 'Method "POST" not allowed.' }], [413, '<html><body>413 Request Entity Too Large</body></html>'], [415, { detail: 'Unsupported media type.' }]] as const) {
      const f = await fake((req, res) => {
        if (req.method === 'GET' && req.url?.startsWith('/api/accounts/me')) return json(res, { id: 7, company: { id: 3, name: 'Co' }, auth_group: { id: 1, name: 'OWNER' }, active_user_company_id: 3 });
        if (typeof body === 'string') {
          res.writeHead(status, { 'content-type': 'text/html' });
          return void res.end(body);
        }
        json(res, body, status);
      });
      const origins = join(t.dir, `origins-${status}.csv`);
      writeFileSync(origins, 'name,country_code,latitude,longitude\nA,CI,6.8,-5.2\nB,CI,6.9,-5.3\nC,CI,7.0,-5.4\n');
      const r = await sctAt(f, ['origins', 'import', '--file', origins, '--fresh', '--concurrency', '1', '-o', 'json']);
      expect(r.exitCode, `${status}: ${r.stderr}`).toBe(1);
      expect((JSON.parse(r.stdout) as Array<{ status: string }>).map((x) => x.status), String(status)).toEqual(['not_sent', 'not_sent', 'not_sent']);
      expect(f.hits.filter((h) => h.method === 'POST'), String(status)).toHaveLength(1);
      expect(r.stderr).not.toContain('fix the rejected rows');
    }
  });
});

describe('attempts counted in an error', () => {
  it('a redirect followed is no attempt: one request redirected then refused says none, one retried after a redirect counts its tries', async () => {
    const f = await fake((req, res) => {
      const p = new URL(req.url!, 'http://x').pathname;
      if (p === '/api/r301') {
        res.writeHead(301, { location: '/api/nf/' });
        return res.end();
      }
      if (p === '/api/r307') {
        res.writeHead(307, { location: '/api/reset' });
        return res.end();
      }
      if (p === '/api/reset') return req.socket.destroy();
      json(res, { detail: 'Not found.' }, 404);
    });
    const once = await sctAt(f, ['api', '/r301']);
    expect(once.exitCode, once.stderr).toBe(1);
    expect(once.stderr).toContain('404 Not Found on GET /nf/');
    expect(once.stderr).not.toContain('attempts');
    const retried = await sctAt(f, ['api', '/r307']);
    expect(retried.exitCode, retried.stderr).toBe(1);
    expect(retried.stderr).toContain('(after 4 attempts)');
    expect(f.hits.filter((h) => h.url === '/api/reset')).toHaveLength(4);
  });
});

describe('a bulk write answered 204 No Content', () => {
  it('is named as the creates name it: the status, and what the answer lacks', async () => {
    const f = await fake((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/api/accounts/me')) return json(res, { id: 7, company: { id: 3, name: 'Co' }, auth_group: { id: 1, name: 'OWNER' }, active_user_company_id: 3 });
      res.writeHead(204);
      res.end();
    });
    const files = {
      invitations: ['people-204.csv', 'email,auth_group\nw1@example.com,2\n'],
      'info-requests': ['requests-204.csv', 'order_id,value_chain_id\n217,1\n'],
      dds: ['pairs-204.csv', 'dds_id,order_id\n1,217\n'],
    } as const;
    const runs: Array<[string[], string]> = [
      [['invitations', 'bulk-create'], files.invitations[0]],
      [['info-requests', 'send'], files['info-requests'][0]],
      [['dds', 'trace'], files.dds[0]],
    ];
    for (const [name, content] of Object.values(files)) writeFileSync(join(t.dir, name), content);
    for (const [command, file] of runs) {
      const r = await sctAt(f, [...command, '--file', join(t.dir, file), '--fresh']);
      expect(r.exitCode, `${command.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr, command.join(' ')).toMatch(/: the service answered 204 No Content without (per-row )?results/);
    }
  });
});

describe('a bulk request refused whole with errors by position', () => {
  it('gives each row its own errors (operations[1] is the second row), and the others are not sent, not rejected', async () => {
    const f = await fake((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/api/accounts/me')) return json(res, { id: 7, company: { id: 3, name: 'Co' }, auth_group: { id: 1, name: 'OWNER' }, active_user_company_id: 3 });
      json(res, { operations: [{}, { email: ['Enter a valid email address.'] }] }, 400);
    });
    const people = join(t.dir, 'people-400.csv');
    writeFileSync(people, 'email,auth_group\na@pos.example,1\nb@pos.example,1\n');
    const r = await sctAt(f, ['invitations', 'bulk-create', '--file', people, '--fresh', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    const rows = JSON.parse(r.stdout) as Array<{ key: string; status: string; fields: Record<string, string[]> | null }>;
    expect(rows.map((x) => [x.key, x.status])).toEqual([['a@pos.example', 'not_sent'], ['b@pos.example', 'rejected']]);
    expect(rows[1].fields).toEqual({ email: ['Enter a valid email address.'] });
    expect(r.stderr).toContain('invitations: 0 created, 1 rejected, 1 not sent');
  });
});

describe('ids past what a double holds', () => {
  it('two orders whose ids differ past 2^53 are two orders, in a page and in an --all export, not one "came twice"', async () => {
    const body = '{"count":2,"next":null,"previous":null,"results":[{"id":12345678901234567891,"external_id":"BIG-1"},{"id":12345678901234567892,"external_id":"BIG-2"}]}';
    const f = await fake((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    for (const args of [['orders', 'list', '--buying', '-o', 'json'], ['orders', 'list', '--buying', '--all', '-o', 'ndjson']]) {
      const r = await sctAt(f, args);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('BIG-1');
      expect(r.stdout).toContain('BIG-2');
      expect(r.stderr).not.toContain('came twice');
    }
  });
});

describe('a compressed JSON answer cut on the way is asked for again', () => {
  /** Products with names gzip cannot shrink much: the gzipped page is some 60 kB. */
  const products = Array.from({ length: 400 }, (_, i) => ({ id: i + 1, name: `P${i + 1} ${randomBytes(48).toString('hex')}` }));
  const page = { count: products.length, next: null, previous: null, results: products };
  /**
   * A server whose answers are gzipped and told apart from their end only by the connection
   * closing (no Content-Length, not chunked); the first `cut` answers to each method and path
   * stop half-way through their gzip data. Each request's Idempotency-Key is kept.
   */
  const cutServer = async (cut: number) => {
    const seen = new Map<string, number>();
    const keys: string[] = [];
    const f = await fake((req, res) => {
      const route = `${req.method} ${new URL(req.url!, 'http://x').pathname}`;
      const n = (seen.get(route) ?? 0) + 1;
      seen.set(route, n);
      if (req.method === 'POST') keys.push(String(req.headers['idempotency-key']));
      const body = route === 'GET /api/products' ? page : route === 'GET /api/orders/5' ? { id: 5, external_id: 'PO-5', padding: randomBytes(30_000).toString('hex') } : { id: 9, name: 'Cut plot', padding: randomBytes(30_000).toString('hex') };
      const zipped = gzipSync(JSON.stringify(body));
      res.useChunkedEncodingByDefault = false;
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-encoding': 'gzip', connection: 'close' });
      res.end(n <= cut ? zipped.subarray(0, Math.floor(zipped.length / 2)) : zipped);
    });
    return Object.assign(f, { keys, count: (route: string) => seen.get(route) ?? 0 });
  };

  it('a GET cut once (a page, an --all export, orders get, sct api) is asked for again: exit 0 with the data', async () => {
    const runs: Array<[string[], string, (out: string) => void]> = [
      [['products', 'list', '-o', 'json'], 'GET /api/products', (out) => expect(JSON.parse(out)).toEqual(products.slice(0, 10))],
      [['products', 'list', '--all', '-o', 'json'], 'GET /api/products', (out) => expect(JSON.parse(out)).toHaveLength(400)],
      [['orders', 'get', '5', '-o', 'json'], 'GET /api/orders/5', (out) => expect(JSON.parse(out)).toMatchObject({ id: 5, external_id: 'PO-5' })],
      [['api', '/products'], 'GET /api/products', (out) => expect(JSON.parse(out).results).toHaveLength(400)],
    ];
    for (const [args, route, check] of runs) {
      const f = await cutServer(1);
      const r = await sctAt(f, ['-v', ...args], { clientOptions: { retryBaseMs: 1 } });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(/\* GET \S+: the answer was cut off after [\d,]+ bytes: the connection closed before its gzip data ended: retry 1\/3/);
      expect(r.stderr).not.toContain('could not be decoded');
      expect(f.count(route), args.join(' ')).toBe(2);
      check(r.stdout);
    }
  });

  it('a GET cut every time: after the retries, said to be cut (never "could not be decoded"), exit 1 as a connection reset is', async () => {
    const f = await cutServer(99);
    const r = await sctAt(f, ['orders', 'get', '5'], { clientOptions: { retryBaseMs: 1 } });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^error: GET \/orders\/5: the answer was cut off after [\d,]+ bytes: the connection closed before its gzip data ended \(after 4 attempts\)$/m);
    expect(r.stderr).not.toContain('could not be decoded');
    expect(r.stdout).toBe('');
    expect(f.count('GET /api/orders/5')).toBe(4);
  });

  it('a POST whose answer is cut arrived: sent again under its same Idempotency-Key, as one whose connection broke; cut every time, the hint gives the key', async () => {
    const once = await cutServer(1);
    const r = await sctAt(once, ['api', '-X', 'POST', '/origins', '-f', 'name=Cut plot'], { clientOptions: { retryBaseMs: 1 } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 9, name: 'Cut plot' });
    expect(once.keys).toHaveLength(2);
    expect(once.keys[1]).toBe(once.keys[0]);

    const always = await cutServer(99);
    const r2 = await sctAt(always, ['api', '-X', 'POST', '/origins', '-f', 'name=Cut plot'], { clientOptions: { retryBaseMs: 1 } });
    expect(r2.exitCode, r2.stderr).toBe(1);
    expect(r2.stderr).toMatch(/^error: POST \/origins: the answer was cut off after [\d,]+ bytes: the connection closed before its gzip data ended \(after 4 attempts\)$/m);
    expect(new Set(always.keys).size).toBe(1);
    expect(r2.stderr).toContain(`hint: it may have been done (its answer never came): run the same command with -H 'Idempotency-Key: ${always.keys[0]}' to get its outcome without doing it twice`);
  });
});
