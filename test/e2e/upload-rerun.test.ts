// An upload whose file did not reach the storage (a 403 from the signed URL, a failed
// confirmation) leaves a document waiting for its file: the hint gives the create's
// Idempotency-Key, and the same command run with it gives that document its file instead of
// creating a second one. The built sct against a server on 127.0.0.1 that plays the API (which
// replays a create under a key it has seen) and the storage.
import { beforeEach, describe, expect, it } from 'vitest';
import { runSct } from '../helpers/sct.js';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

const created = new Map<string, number>();
let puts = 0;
let failPuts = 0;
let status = 'pending_upload';
let noUrl = false;

const server = useLocalServer((req, res) => {
  const base = `http://127.0.0.1:${req.socket.localPort}`;
  const json = (code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  req.resume();
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/api/documents') {
      const key = String(req.headers['idempotency-key']);
      if (!created.has(key)) created.set(key, 100 + created.size);
      return json(201, { id: created.get(key), name: 'c.pdf', status: 'pending_upload', upload_url: noUrl ? undefined : `${base}/store/${created.get(key)}` });
    }
    if (req.method === 'PUT' && req.url?.startsWith('/store/')) {
      puts++;
      if (failPuts-- > 0) {
        res.writeHead(403, { 'content-type': 'application/xml' });
        return res.end('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
      }
      status = 'uploaded';
      res.writeHead(200);
      return res.end();
    }
    if (req.method === 'GET' && /^\/api\/documents\/\d+$/.test(req.url ?? '')) return json(200, { id: Number(req.url!.split('/').pop()), name: 'c.pdf', status });
    if (req.method === 'POST' && /confirm_upload$/.test(req.url ?? '')) return json(200, { id: Number(req.url!.split('/')[3]), name: 'c.pdf', status: 'uploaded' });
    json(404, { detail: 'Not found.' });
  });
});

const run = useServerEnv(server);

beforeEach(() => {
  created.clear();
  puts = 0;
  failPuts = 0;
  status = 'pending_upload';
  noUrl = false;
});

describe('an upload whose file did not reach the storage', () => {
  it('the hint gives the key, and the same command with it gives the same document its file', async () => {
    const file = join(run.dir, 'c.pdf');
    writeFileSync(file, '%PDF-1.4 certificate\n');
    failPuts = 1;
    const r = await runSct(['documents', 'upload', file], { env: run.env() });
    expect(r.exitCode).toBe(1);
    const [, id, key] = /hint: document (\d+) was created but has no file yet: run the same command with --idempotency-key (\S+) to upload its file to it/.exec(r.stderr) ?? [];
    expect(key, r.stderr).toBeDefined();
    expect(r.stderr).not.toContain('delete it');
    // The storage's XML error said as its code and message, not as an HTML page.
    expect(r.stderr).toContain('error: AccessDenied: Request has expired (403 Forbidden on PUT');
    const again = await runSct(['documents', 'upload', file, '--idempotency-key', key!, '-o', 'json'], { env: run.env() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: Number(id), status: 'uploaded' });
    expect(created.size).toBe(1);
    expect(puts).toBe(2);
  });

  it('a create answered without an upload URL names the document made, and offers no rerun (its key replays the same answer)', async () => {
    const file = join(run.dir, 'c.pdf');
    writeFileSync(file, '%PDF-1.4 certificate\n');
    noUrl = true;
    const r = await runSct(['documents', 'upload', file], { env: run.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/no upload_url \(document 100 was created\)/);
    expect(r.stderr).toContain('hint: document 100 has no file, and no rerun gives it one (its key gets the same answer again): `sct documents get 100` shows it');
    expect(r.stderr).not.toContain('--idempotency-key');
  });
});
