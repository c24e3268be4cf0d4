// `sct sandbox` as a process: a request it cannot parse, or a stored value that cannot be a
// header, is answered 400 (or refused when stored) and the sandbox goes on serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { runSct, spawnSct } from '../helpers/sct.js';
import { client, OWNER } from '../sandbox/helpers.js';
import type { Sandbox } from '../../src/sandbox/server.js';

let child: ReturnType<typeof spawnSct>;
let url = '';

beforeAll(async () => {
  child = spawnSct(['sandbox', '--port', '0']);
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = /^(http:\/\/\S+)\n/.exec(out);
      if (line) resolve(line[1]);
    });
    child.once('exit', () => reject(new Error(`sct sandbox ended: ${out}`)));
  });
});
afterAll(async () => {
  child.kill('SIGINT');
  await child;
});

/** Sends raw bytes and returns whatever comes back before the server closes or 2 s pass. */
function raw(bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => s.end(bytes));
    let text = '';
    s.on('data', (c) => (text += c.toString()));
    s.on('close', () => resolve(text));
    s.on('error', reject);
    s.setTimeout(2000, () => s.destroy());
  });
}

const alive = async () => (await fetch(url.replace(/\/api$/, '/_sandbox/health'))).status;

describe('sct sandbox never stops on one request', () => {
  it('answers a request line it cannot parse with 400, then goes on', async () => {
    for (const line of ['GET http://[ HTTP/1.1', 'GET http://%zz/ HTTP/1.1', 'POST http://[::1 HTTP/1.1']) {
      const answer = await raw(`${line}\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(answer, line).toMatch(/^HTTP\/1\.1 400 /);
      expect(await alive()).toBe(200);
    }
  });

  it('refuses a content_type that is not one MIME type (a newline in it), and goes on', async () => {
    const c = client({ url } as Sandbox, OWNER);
    for (const contentType of ['text/plain\nX-Injected: 1', 'text/plain\r\nX: 1', 'text/plain; x', 'text/plain\u0000']) {
      const r = await c.post('/documents', { name: 'a.txt', content_type: contentType });
      expect(r.status, JSON.stringify(contentType)).toBe(400);
      expect(r.body).toEqual({ content_type: ['Enter a valid MIME type.'] });
    }
    const ok = await c.post('/documents', { name: 'a.txt', content_type: 'text/plain; charset=utf-8' });
    expect(ok.status).toBe(201);
    expect(await alive()).toBe(200);
  });
});

/** `sct sandbox ARGS` until it prints its URL: the URL, stderr so far, and the process. */
async function started(args: string[]): Promise<{ url: string; stderr: () => string; proc: ReturnType<typeof spawnSct> }> {
  const proc = spawnSct(['sandbox', '--port', '0', ...args]);
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = /^(http:\/\/\S+)\n/.exec(out);
      if (line) resolve(line[1]);
    });
    proc.once('exit', () => reject(new Error(`sct sandbox ended: ${out}${err}`)));
  });
  return { url, stderr: () => err, proc };
}

describe('sct sandbox as a server', () => {
  // Every interface is not listened on here (a test's server is this machine's only): what the
  // sandbox says there is test/unit/sandbox-announcement.test.ts's.
  it('prints the URL sct can use and how to try it; SIGTERM and SIGHUP end it as Ctrl-C does', async () => {
    const sb = await started(['--host', '127.0.0.1']);
    try {
      expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      await new Promise((r) => setTimeout(r, 200));
      expect(sb.stderr()).toContain(`Sandbox listening on ${sb.url}  (max page size 1000; Ctrl-C to stop)`);
      expect(sb.stderr()).not.toContain('every machine');
      expect(sb.stderr()).toContain(`Try: SCT_BASE_URL=${sb.url} `);
      const me = await runSct(['whoami', '-o', 'json'], { env: { SCT_BASE_URL: sb.url, SCT_TOKEN: OWNER } });
      expect(me.exitCode, me.stderr).toBe(0);
      sb.proc.kill('SIGTERM');
      const end = await sb.proc;
      expect(end.exitCode).toBe(0);
      expect(String(end.stderr)).toContain('Sandbox stopped.');
      expect(String(end.stderr)).not.toContain('error:');
    } finally {
      sb.proc.kill('SIGKILL');
    }
    const hup = await started([]);
    try {
      hup.proc.kill('SIGHUP');
      expect((await hup.proc).exitCode).toBe(0);
    } finally {
      hup.proc.kill('SIGKILL');
    }
  });

  it('a port in use, a host that is none, a share that is no number: said, with what to do', async () => {
    const port = new URL(url).port;
    const taken = await runSct(['sandbox', '--port', port]);
    expect(taken.exitCode).toBe(1);
    expect(taken.stderr).toContain(`error: port ${port} on 127.0.0.1 is in use`);
    expect(taken.stderr).toContain('hint: --port 0 picks a free port');
    const host = await runSct(['sandbox', '--host', 'no-such-host.invalid']);
    expect(host.exitCode).toBe(2);
    expect(host.stderr).toContain('invalid --host "no-such-host.invalid"');
    for (const value of [' ', '', '0x1']) {
      const r = await runSct(['sandbox', '--fail-rate', value]);
      expect(r.exitCode, JSON.stringify(value)).toBe(2);
      expect(r.stderr).toContain(`invalid --fail-rate "${value}": expected a number from 0 to 1`);
    }
  });
});
