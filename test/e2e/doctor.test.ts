// sct doctor when the rate limit is spent, and with a base URL missing /api: every check still
// gets its line, and nothing is said twice.
import { describe, it, expect } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ rateLimit: 2 }, { inProcess: true });

describe('doctor with the rate limit spent', () => {
  it('warns rate_limit with the time to the reset and keeps every other check line', async () => {
    // Spend the budget of this token (2 requests per hour).
    for (let i = 0; i < 3; i++) await t.sct(['whoami']);
    const started = Date.now();
    const r = await t.sct(['doctor']);
    expect(Date.now() - started).toBeLessThan(20_000); // it never sleeps through the reset
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^warn\s+rate_limit\s+spent, resets in \d+[hms]( \d+[ms])?$/m);
    expect(r.stdout).toMatch(/^warn\s+token\s+.*not verified, the rate limit is spent$/m);
    expect(r.stdout).toMatch(/^ok\s+clock\s+local clock is \d+s/m);
    // Into a pipe, as every table there: a header, then tab-separated lines (`cut -f2`).
    expect(r.stdout.split('\n')[0]).toBe('LEVEL\tNAME\tDETAIL');
    expect(r.stdout).toMatch(/^ok\tclock\tlocal clock is \d+s/m);
    for (const name of ['node', 'config', 'proxy', 'ca', 'base_url']) expect(r.stdout).toMatch(new RegExp(`^\\w+\\s+${name}\\s`, 'm'));
    expect(r.stdout).not.toMatch(/^fail/m);
    expect(r.stdout + r.stderr).not.toMatch(/\d{4}-\d\d-\d\dT/); // no timestamp with seconds
  });
});

describe('doctor with a base URL that answers with no API (a 204, a sign-in page)', () => {
  it.each([['a 204', 204, ''], ['a sign-in page', 200, '<html>Sign in</html>'], ['text', 200, 'hello']])('%s: the base_url line fails and the token is not verified, never blamed', async (_what, status, body) => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(status, body ? { 'content-type': body.startsWith('<') ? 'text/html' : 'text/plain' } : {});
      res.end(body);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
      const r = await t.sct(['doctor', '--base-url', url]);
      expect(r.stdout).toMatch(/^fail\s+base_url\s/m);
      expect(r.stdout).toMatch(/^warn\s+token\s+.*not verified/m);
      expect(r.stdout).not.toMatch(/^fail\s+token/m);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('doctor with a base URL without /api', () => {
  it('says so once, on the base_url line, which fails: the token is not what is wrong', async () => {
    const bare = t.sb.url.replace(/\/api$/, '');
    const r = await t.sct(['doctor', '--base-url', bare]);
    const sentence = `does not end in /api`;
    expect(r.stdout).toMatch(new RegExp(`^fail\\s+base_url\\s+.*has no API there \\(GET /accounts/me is 404\\): .*${sentence}`, 'm'));
    expect(r.stdout).toMatch(/^warn\s+token\s+.*not verified, the service did not answer it \(base_url\)$/m);
    expect((r.stdout + r.stderr).split(sentence)).toHaveLength(2);
  });
});

describe('doctor with a config file it cannot read', () => {
  it('fails the config line with the reason and still prints every other check', async () => {
    writeFileSync(join(t.dir, 'config.json'), '{"profiles": {', { mode: 0o600 });
    try {
      const r = await t.sct(['doctor']);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toMatch(/^fail\s+config\s+cannot read the config file .*config\.json: .*fix the file, or move it away to start over$/m);
      for (const name of ['node', 'proxy', 'ca']) expect(r.stdout).toMatch(new RegExp(`^ok\\s+${name}\\s`, 'm'));
      for (const name of ['base_url', 'token']) expect(r.stdout).toMatch(new RegExp(`^fail\\s+${name}\\s+not checked: the config file cannot be read$`, 'm'));
    } finally {
      rmSync(join(t.dir, 'config.json'));
    }
  });
});

describe('doctor with the service not answering', () => {
  it('says each check it could not make, never leaves one out', async () => {
    const { createServer } = await import('node:net');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await t.sct(['doctor', '--base-url', `http://127.0.0.1:${port}/api`, '-o', 'json']);
    expect(r.exitCode).toBe(1);
    const checks = JSON.parse(r.stdout) as Array<{ name: string; level: string; detail: string }>;
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(byName.base_url.level).toBe('fail');
    expect(byName.token).toMatchObject({ level: 'warn', detail: expect.stringContaining('not verified, the service did not answer') });
    expect(byName.clock).toMatchObject({ level: 'warn', detail: expect.stringContaining('not checked') });
    expect(byName.rate_limit).toMatchObject({ level: 'warn', detail: expect.stringContaining('not checked') });
  });
});

describe('doctor with a token the service refuses', () => {
  it('says where the token came from and what to do, as every command does', async () => {
    const r = await t.sct(['doctor'], { env: { SCT_TOKEN: 'sct_refused_token_0000' } });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^fail\s+token\s+sct_…\*\*\*\* from SCT_TOKEN: .*SCT_TOKEN/m);
    expect(r.stdout).not.toContain('sct_refused_token_0000');
  });
});

describe('doctor before a login', () => {
  it('the base URL answered, no token: the clock is read from that answer, and each hint is a command that works', async () => {
    const r = await t.sct(['doctor'], { env: { SCT_TOKEN: undefined } });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^ok\s+base_url\s/m);
    expect(r.stdout).toMatch(/^ok\s+clock\s+local clock is \d+s/m);
    expect(r.stdout).toMatch(/^fail\s+token\s+no token: run `sct auth login` or set SCT_TOKEN$/m);
    const none = await t.sct(['doctor'], { env: { SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(none.stdout).toMatch(/^fail\s+token\s+no token: run `sct auth login --base-url https:\/\/…\/api`, or set SCT_TOKEN and SCT_BASE_URL$/m);
    expect(none.stdout).toMatch(/^warn\s+config\s+.*does not exist yet \(run `sct auth login --base-url https:\/\/…\/api`\)$/m);
  });
});
