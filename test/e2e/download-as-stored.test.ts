// A file that is itself compressed is downloaded as its store holds it. A `.tar.gz` that a
// storage service keeps with `Content-Encoding: gzip` (as S3 and GCS serve an object whose
// metadata says so) is saved as the gzip it is, byte for byte, as curl and a browser's download
// save it, not inflated (64 MB here) under its `.tar.gz` name. The built sct against a server
// on 127.0.0.1 that plays the API and the storage.
import { beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runSct } from '../helpers/sct.js';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';

/** 64 MB of zeros, about 64 kB as gzip: what the file is, on the store. */
const STORED = gzipSync(Buffer.alloc(64 * 1024 * 1024));
const asked: Array<string | undefined> = [];

const server = useLocalServer((req, res) => {
  const base = `http://127.0.0.1:${req.socket.localPort}`;
  req.resume();
  if (req.url === '/api/documents/1') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ id: 1, name: 'backup.tar.gz', content_type: 'application/gzip' }));
  }
  if (req.url === '/api/documents/1/download') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ url: `${base}/store/backup.tar.gz?sig=abc` }));
  }
  if (req.url?.startsWith('/store/')) {
    asked.push(req.headers['accept-encoding'] as string | undefined);
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-encoding': 'gzip', 'content-length': STORED.length });
    return res.end(STORED);
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"detail":"Not found."}');
});

const run = useServerEnv(server);

beforeEach(() => {
  asked.length = 0;
});

describe('a download is saved as stored', () => {
  it('a .tar.gz served with Content-Encoding: gzip is saved as that gzip, byte for byte', async () => {
    const r = await runSct(['documents', 'download', '1', '--out', join(run.dir, 'out') + '/'], { env: run.env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const saved = readFileSync(join(run.dir, 'out', 'backup.tar.gz'));
    expect(saved.length).toBe(STORED.length);
    expect(saved.equals(STORED)).toBe(true);
    // Asked as every request asks (cli-spec.md, "Compression").
    expect(asked).toEqual(['gzip, deflate, br']);
  });
});
