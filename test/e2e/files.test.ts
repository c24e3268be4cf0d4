// Documents (upload through a signed URL with confirm, download through a signed URL), data
// exchange runs and risk assessments with their evidence ZIP, against the sandbox: what is sent
// (never the token to a signed URL), what lands on disk (only complete files, never outside the
// target, never over an existing file without --force).
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN, sctFor } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({ statementDelayMs: 50 }, { inProcess: true });
const sent = () => t.sb.requests.map((q) => `${q.method} ${q.path.replace(/_(uploads|downloads)\/[^/]+$/, '_$1/…')}`);

/**
 * How to run sct as a user the file system refuses: root reads and writes anything, so as root it
 * runs without the capabilities that let it (setpriv), still the owner of the checkout it runs
 * from, wherever that is (a `mktemp -d` clone only its owner may enter).
 */
const refused = process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search'] : [];
const canBeRefused = process.platform !== 'win32' && (refused.length === 0 || existsSync('/usr/bin/setpriv'));

describe('documents', () => {
  it('uploads: create, PUT the bytes to the signed URL without the token, confirm', async () => {
    const file = t.writeFile('certificate.pdf', '%PDF-1.4 fake certificate\n');
    const r = await t.sct(['documents', 'upload', file, '--tag', 'fsc', '--description', 'FSC 2025', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sent()).toEqual(['POST /api/documents', 'PUT /_uploads/…', expect.stringMatching(/^POST \/api\/documents\/\d+\/confirm_upload$/)]);
    expect(t.bodyOf(0)).toEqual({ name: 'certificate.pdf', size: 26, description: 'FSC 2025', tags: ['fsc'] });
    const put = t.sb.requests[1];
    expect(put.headers.authorization).toBeUndefined();
    expect(put.headers['content-length']).toBe('26');
    // As the service typed the document (a signed URL may be signed for that type).
    expect(put.headers['content-type']).toBe('application/pdf');
    expect(put.body).toBe('%PDF-1.4 fake certificate\n');
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ name: 'certificate.pdf', status: 'uploaded', size: 26, tags: ['fsc'] });
    expect(r.stderr).toContain(`Uploaded certificate.pdf (26 B) as document ${doc.id}`);
  });

  it('a file whose bytes are not the size it had (a /proc file, one still being written) is never sent past its Content-Length: an error saying so', async () => {
    // /proc files say size 0 and hold bytes: what a file growing under the upload looks like.
    const r = await t.sct(['documents', 'upload', '/proc/self/status', '--name', 'status.txt']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: /proc/self/status changed while it was uploaded (0 B when the upload began): its file was not stored');
    expect(r.stderr).toMatch(/hint: document \d+ was created for its earlier size and has no file: upload the file again once it is complete/);
    const puts = t.sb.requests.filter((q) => q.method === 'PUT');
    // Nothing past the length said went out (a second request parsed from the extra bytes was a 400).
    expect(puts.every((q) => q.body.length === Number(q.headers['content-length']))).toBe(true);
    expect(t.sb.requests.filter((q) => q.status === 400)).toEqual([]);
  });

  it("'-' is no file to upload: said so (a document's size is sent before its bytes), exit 2", async () => {
    const r = await t.sct(['documents', 'upload', '-'], { input: 'x' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: documents upload reads a file, not stdin (its size goes to the service before its bytes): save it to a file first');
  });

  it('a --content-type that is no media type is exit 2 before the document is created', async () => {
    const file = t.writeFile('typed.txt', 'x');
    for (const bad of ['not a type', 'téxt/plain', 'text/plain\r\nX-Evil: 1']) {
      const r = await t.sct(['documents', 'upload', file, '--content-type', bad]);
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr).toContain('content_type: expected a media type such as application/pdf');
    }
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    const good = await t.sct(['documents', 'upload', file, '--content-type', 'text/plain; charset=utf-8']);
    expect(good.exitCode, good.stderr).toBe(0);
  });

  it("an uploaded file's name is stripped of control characters on the terminal, as the service's strings are", async () => {
    const file = t.writeFile('evil\x1b]0;TITLE\x07.txt', 'x');
    const r = await t.sct(['documents', 'upload', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Uploaded evil.txt (1 B)');
    expect(r.stderr).not.toContain('\x1b');
  });

  it('downloads to a directory under the document name, refuses to overwrite without --force', async () => {
    const file = t.writeFile('lab-report.csv', 'sample,result\nA,ok\n');
    const up = await t.sct(['documents', 'upload', file, '--name', 'lab report.csv', '-o', 'json']);
    const id = JSON.parse(up.stdout).id as number;
    const out = join(t.dir, 'downloads') + '/';
    t.sb.requests.length = 0;
    const r = await t.sct(['documents', 'download', String(id), '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(join(t.dir, 'downloads', 'lab report.csv'));
    expect(readFileSync(join(out, 'lab report.csv'), 'utf8')).toBe('sample,result\nA,ok\n');
    expect(sent()).toEqual([`GET /api/documents/${id}`, `GET /api/documents/${id}/download`, 'GET /_downloads/…']);
    expect(t.sb.requests[2].headers.authorization).toBeUndefined();
    expect(t.sb.requests[2].headers.accept).toBe('text/csv, application/json');

    // Again: refused before the signed URL is even asked for; --force replaces it.
    t.sb.requests.length = 0;
    const again = await t.sct(['documents', 'download', String(id), '--out', out]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already exists: pass --force to overwrite it');
    expect(sent()).toEqual([`GET /api/documents/${id}`]);
    writeFileSync(join(out, 'lab report.csv'), 'stale');
    const forced = await t.sct(['documents', 'download', String(id), '--out', out, '--force', '-o', 'json']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toEqual({ id, path: join(out, 'lab report.csv'), bytes: 19 });
    expect(readFileSync(join(out, 'lab report.csv'), 'utf8')).toBe('sample,result\nA,ok\n');
    expect(readdirSync(out)).toEqual(['lab report.csv']);
    // -o csv is a header and a row, as every format; --columns picks among id, path, bytes.
    const csv = await t.sct(['documents', 'download', String(id), '--out', join(t.dir, 'again.csv'), '-o', 'csv']);
    expect(csv.exitCode, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(`id,path,bytes\n${id},${join(t.dir, 'again.csv')},19\n`);
    const picked = await t.sct(['documents', 'download', String(id), '--out', join(t.dir, 'picked.csv'), '--columns', 'bytes', '-o', 'csv']);
    expect(picked.stdout).toBe('bytes\n19\n');
  });

  it('a part file a download killed with -9 left is removed by the next download of that name; one of a running process is kept', async () => {
    const file = t.writeFile('killed.csv', 'a,b\n1,2\n');
    const id = JSON.parse((await t.sct(['documents', 'upload', file, '-o', 'json'])).stdout).id as number;
    const out = join(t.dir, 'k9');
    mkdirSync(out);
    // pid 2^22+1 is beyond Linux's pid_max: no process runs under it; the test's parent process runs.
    const dead = join(out, `.killed.csv.${2 ** 22 + 1}.part`);
    const alive = join(out, `.killed.csv.${process.ppid}.part`);
    writeFileSync(dead, 'a,b\n');
    writeFileSync(alive, 'a,');
    const r = await t.sct(['documents', 'download', String(id), '--out', out + '/']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual([`.killed.csv.${process.ppid}.part`, 'killed.csv']);
  });

  it('--out /dev/stdout writes the bytes to standard output (never replacing the link), and a directory where the file would go is exit 2 before the download', async () => {
    const file = t.writeFile('notes.txt', 'line one\nline two\n');
    const id = JSON.parse((await t.sct(['documents', 'upload', file, '-o', 'json'])).stdout).id as number;
    const r = await t.sctBin(['documents', 'download', String(id), '--out', '/dev/stdout']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('line one\nline two\n');
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);

    const dir = join(t.dir, 'in-the-way');
    mkdirSync(join(dir, 'notes.txt'), { recursive: true });
    t.sb.requests.length = 0;
    for (const force of [[], ['--force']]) {
      const r2 = await t.sct(['documents', 'download', String(id), '--out', dir + '/', ...force]);
      expect(r2.exitCode, r2.stderr).toBe(2);
      expect(r2.stderr).toContain(`${join(dir, 'notes.txt')} is a directory`);
    }
    expect(sent()).toEqual([`GET /api/documents/${id}`, `GET /api/documents/${id}`]);
  });

  it('a download the disk refuses names the file; a path through a file is exit 2 before the download', async () => {
    const file = t.writeFile('full.txt', 'some bytes\n');
    const id = JSON.parse((await t.sct(['documents', 'upload', file, '-o', 'json'])).stdout).id as number;
    const full = await t.sct(['documents', 'download', String(id), '--out', '/dev/full']);
    expect(full.exitCode).toBe(1);
    expect(full.stderr).toContain('error: writing /dev/full: ENOSPC');

    const blocker = t.writeFile('a-file', 'x');
    t.sb.requests.length = 0;
    const through = await t.sct(['documents', 'download', String(id), '--out', join(blocker, 'sub', 'x.txt')]);
    expect(through.exitCode, through.stderr).toBe(2);
    expect(through.stderr).toContain(`cannot make ${join(blocker, 'sub')}: ${blocker} is not a directory`);
    expect(sent()).toEqual([`GET /api/documents/${id}`]);
  });

  it('lists and shows documents', async () => {
    const list = await t.sct(['documents', 'list', '--limit', '3']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout.split('\n')[0].split('\t')).toEqual(['ID', 'NAME', 'TYPE', 'SIZE', 'STATUS', 'CREATED']);
    const id = (await t.api('/documents?limit=1')).results[0].id;
    const one = await t.sct(['documents', 'get', String(id), '-o', 'json']);
    expect(JSON.parse(one.stdout).id).toBe(id);
  });

  it('checks its input before sending anything', async () => {
    await t.expectUsageErrors([
      [['documents', 'upload', join('/nonexistent', 'x.pdf')], 'cannot read /nonexistent/x.pdf: no such file'],
      [['documents', 'upload', '/tmp'], 'not a regular file'],
      [['documents', 'upload', '/etc/hostname', '--name', 'n'.repeat(256)], /name: /],
      [['documents', 'download', 'abc'], 'invalid ID'],
    ]);
    // An --out DIR/ that a file stands in the way of: exit 2 before the request, for both downloads.
    const file = t.writeFile('afile', 'not a directory');
    await t.expectUsageErrors([
      [['documents', 'download', '4', '--out', `${file}/`], `--out ${file}/: not a directory (a file is in the way)`],
      [['risk', 'evidence', '7', '--out', `${file}/`], `--out ${file}/: not a directory (a file is in the way)`],
    ]);
    // A link to nothing where the directory would be made: named, before the request.
    const link = join(t.dir, 'dangling');
    symlinkSync(join(t.dir, 'not-yet'), link);
    await t.expectUsageErrors([
      [['documents', 'download', '4', '--out', `${link}/`], `--out ${link}/: ${link} is a symbolic link (to ${join(t.dir, 'not-yet')}) that leads to no file or directory`],
      [['risk', 'evidence', '7', '--out', `${link}/`], `--out ${link}/: ${link} is a symbolic link (to ${join(t.dir, 'not-yet')}) that leads to no file or directory`],
      [['risk', 'evidence', '7', '--out', `${link}/sub/x.zip`], `--out ${link}/sub/x.zip: ${link} is a symbolic link (to ${join(t.dir, 'not-yet')}) that leads to no file or directory`],
    ]);
    // A link to a link to nothing, and a link to itself: each leads to nothing.
    const chain = join(t.dir, 'chain');
    const loop = join(t.dir, 'loop');
    symlinkSync(link, chain);
    symlinkSync(loop, loop);
    await t.expectUsageErrors([
      [['documents', 'download', '4', '--out', `${chain}/x.pdf`], `--out ${chain}/x.pdf: ${chain} is a symbolic link (to ${link}) that leads to no file or directory`],
      [['documents', 'download', '4', '--out', `${loop}/`], `--out ${loop}/: ${loop} is a symbolic link (to ${loop}) in a loop of links: it leads to no file or directory`],
    ]);
  });

  it.skipIf(!canBeRefused)('a file sct may not read is exit 2 before the document is created: nothing left on the service; a directory it may not write in is said in words', async () => {
    const dir = mkdtempSync(join(t.dir, 'refused-'));
    const env = { PATH: process.env.PATH ?? '', HOME: dir, SCT_CONFIG_DIR: join(dir, 'cfg'), XDG_CACHE_HOME: join(dir, 'cache'), SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, NO_COLOR: '1' };
    const run = (args: string[]) => execa(refused[0] ?? process.execPath, [...refused.slice(1), ...(refused.length ? [process.execPath] : []), BIN, ...args], { env, extendEnv: false, reject: false, timeout: 20_000 });
    const file = join(dir, 'noperm.pdf');
    writeFileSync(file, 'secret');
    chmodSync(file, 0o000);
    t.sb.requests.length = 0;
    const r = await run(['documents', 'upload', file]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`cannot read ${file}: permission denied`);
    expect(t.sb.requests).toHaveLength(0);
    // A directory it may not write in is said in words too, not as Node's code.
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    const down = await run(['documents', 'download', '4', '--out', `${ro}/`]);
    expect(down.exitCode, down.stderr).toBe(2);
    expect(down.stderr).toContain(`cannot write in ${ro}: permission denied`);
  });
});

describe('risk assessments', () => {
  it('creates one from flags, with the ids in scope', async () => {
    // An id given twice is sent once, as dds create sends it.
    const r = await t.sct(['risk', 'create', '--identifier', 'RA-E2E-1', '--origin', '5', '--origin', '9', '--origin', '5', '--order', '4,4', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.bodyOf()).toEqual({ identifier: 'RA-E2E-1', origins: [5, 9], orders: [4] });
    expect(JSON.parse(r.stdout)).toMatchObject({ identifier: 'RA-E2E-1', status: 'in_progress' });
    t.sb.requests.length = 0;
    await t.expectUsageErrors([
      [['risk', 'create', '--name', 'x'], 'identifier: This field is required.'],
      [['risk', 'create', '--identifier', 'X', '--origin', '5,x'], 'invalid --origin "x"'],
      // The service trims it, then refuses it blank: refused here, nothing sent.
      [['risk', 'create', '--identifier', '   '], 'identifier: must not be spaces alone'],
    ]);
  });

  it('saves the evidence ZIP as <identifier>.zip in the current directory, complete, and never over a file', async () => {
    const ra = (await t.api('/compliance/risk-assessments?limit=1')).results[0];
    const cwd = join(t.dir, 'work');
    mkdirSync(cwd);
    t.sb.requests.length = 0;
    const r = await t.sct(['risk', 'evidence', String(ra.id)], { cwd });
    expect(r.exitCode, r.stderr).toBe(0);
    const file = join(cwd, `${ra.identifier}.zip`);
    expect(r.stdout.trim()).toBe(file);
    expect(sent()).toEqual([`POST /api/compliance/risk-assessments/${ra.id}/evidence-downloads`]);
    expect(t.sb.requests[0].headers.accept).toBe('application/zip, application/json');
    const entries = Object.keys(unzipSync(readFileSync(file)));
    expect(entries).toContain(`${ra.identifier}/README.txt`);
    expect(entries.some((e) => e.startsWith(`${ra.identifier}/geolocation/`))).toBe(true);
    expect(readdirSync(cwd)).toEqual([`${ra.identifier}.zip`]);

    const again = await t.sct(['risk', 'evidence', String(ra.id)], { cwd });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`${file} already exists: pass --force`);
    const named = await t.sct(['risk', 'evidence', String(ra.id), '--out', join(cwd, 'copy.zip')]);
    expect(named.exitCode, named.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'copy.zip'))).toEqual(readFileSync(file));

    // A named file that exists is refused before the request.
    t.sb.requests.length = 0;
    const refused = await t.sct(['risk', 'evidence', String(ra.id), '--out', join(cwd, 'copy.zip')]);
    expect(refused.exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
    expect((await t.sct(['risk', 'evidence', String(ra.id), '--out', join(cwd, 'copy.zip'), '--force'])).exitCode).toBe(0);
  });

  it('identifiers with a slash (EU/2025/001, US/2025/001) are saved apart, the slashes as _', async () => {
    const cwd = join(t.dir, 'slashes');
    mkdirSync(cwd);
    for (const identifier of ['EU/2025/001', 'US/2025/001']) {
      const ra = JSON.parse((await t.sct(['risk', 'create', '--identifier', identifier, '-o', 'json'])).stdout);
      const r = await t.sct(['risk', 'evidence', String(ra.id)], { cwd });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    expect(readdirSync(cwd).sort()).toEqual(['EU_2025_001.zip', 'US_2025_001.zip']);
  });

  it('leaves nothing behind when the download breaks half-way', async () => {
    // A service that sends the headers and part of the ZIP, then drops the connection.
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '100000', 'content-disposition': 'attachment; filename="RA-BROKEN.zip"' });
      res.write(Buffer.alloc(1000, 1));
      setTimeout(() => res.destroy(), 50);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
      const out = join(t.dir, 'broken');
      mkdirSync(out);
      const r = await sctFor(url, OWNER, t.dir)(['risk', 'evidence', '1', '--out', out + '/']);
      expect(r.exitCode).toBe(1);
      expect(readdirSync(out)).toEqual([]);
      expect(existsSync(join(out, 'RA-BROKEN.zip'))).toBe(false);
      // Directories the download made for its file go with it; the one that was there stays.
      const deep = await sctFor(url, OWNER, t.dir)(['risk', 'evidence', '1', '--out', join(out, 'a', 'b', 'c') + '/']);
      expect(deep.exitCode).toBe(1);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('--timeout bounds a download as a whole: a file trickled byte by byte is cut off, nothing left behind', async () => {
    // Headers at once, then a byte every 100 ms: never silent, never done (cli-spec.md, Timeouts).
    const server = createServer((req, res) => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (req.url === '/api/documents/7') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 7, name: 'slow.pdf' }));
      if (req.url === '/api/documents/7/download') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: `${url}/_downloads/slow` }));
      const name = req.url === '/_downloads/slow' ? 'slow.pdf' : 'RA-SLOW.zip';
      res.writeHead(200, { 'content-type': req.url === '/_downloads/slow' ? 'application/pdf' : 'application/zip', 'content-length': '100000', 'content-disposition': `attachment; filename="${name}"` });
      const tick = setInterval(() => res.write(Buffer.alloc(1, 1)), 100);
      res.on('close', () => clearInterval(tick));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
      const out = join(t.dir, 'trickled');
      mkdirSync(out);
      // The signed link is shown without its last segment (its credential).
      const cases: [string[], string][] = [
        [['documents', 'download', '7'], `GET ${url.replace(/\/api$/, '')}/_downloads/…`],
        [['risk', 'evidence', '1'], 'POST /compliance/risk-assessments/1/evidence-downloads'],
      ];
      for (const [args, request] of cases) {
        const started = Date.now();
        const r = await sctFor(url, OWNER, t.dir)([...args, '--out', out + '/', '--timeout', '1s'], { timeout: 15_000 });
        expect(r.exitCode, r.stderr).toBe(1);
        expect(r.stderr).toContain(`error: ${request}: no complete answer within 1s (--timeout)`);
        expect(r.stderr).toMatch(/hint: .*--timeout/);
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(readdirSync(out)).toEqual([]);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('lists risk assessments with their level', async () => {
    const r = await t.sct(['risk', 'list', '--limit', '2']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0].split('\t')).toEqual(['ID', 'IDENTIFIER', 'NAME', 'STATUS', 'RISK LEVEL', 'CREATED']);
  });
});

describe('imports', () => {
  it('creates a run from an uploaded document, then lists and shows it', async () => {
    const doc = JSON.parse((await t.sct(['documents', 'upload', t.writeFile('orders.csv', 'external_id\nA\nB\n'), '-o', 'json'])).stdout);
    t.sb.requests.length = 0;
    const r = await t.sct(['imports', 'create', '--type', 'orders', '--source', 'csv', '--document', String(doc.id), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.bodyOf()).toEqual({ type: 'orders', source: 'csv', document: doc.id });
    const run = JSON.parse(r.stdout);
    expect(run).toMatchObject({ type: 'orders', status: 'running', document: doc.id });
    const got = await t.sct(['imports', 'get', String(run.id), '-o', 'json']);
    expect(JSON.parse(got.stdout).id).toBe(run.id);
    const list = await t.sct(['imports', 'list', '--limit', '1', '--ordering', '-id', '-o', 'csv']);
    // CSV carries every field of the run (the header from the first page).
    expect(list.stdout.split('\n')[0]).toMatch(/^id,name,type,source,document,status,/);
    t.sb.requests.length = 0;
    await t.expectUsageErrors([[['imports', 'create', '--document', 'x'], 'invalid --document "x"']]);
  });
});
