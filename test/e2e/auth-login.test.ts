// `sct auth login` checks the token with GET /accounts/me before storing it, through the same
// client as every other command: --verbose traces it (token masked), --timeout bounds it and
// --max-wait refuses a rate-limit wait longer than asked.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { useSandbox } from '../helpers/sandbox.js';
import { answer, startHostile, type Hostile } from '../helpers/hostile.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });
const noEnvToken = { SCT_TOKEN: undefined, SCT_BASE_URL: undefined };
let h: Hostile;
let silent: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
  h = await startHostile(t.sb.url);
  // Takes the connection and never answers.
  silent = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await h.close();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});
beforeEach(() => h.reset());

const login = (baseUrl: string, ...flags: string[]) =>
  t.sct(['auth', 'login', '--base-url', baseUrl, '--with-token', '--insecure-storage', ...flags], { input: OWNER, env: noEnvToken, clientOptions: { retryBaseMs: 1 } });

describe('auth login goes through the client every command uses', () => {
  it('--verbose traces the check of the token, the token masked', async () => {
    const r = await login(t.sb.url, '--verbose');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/accounts\/me/m);
    expect(r.stderr).toContain('> authorization: Bearer sct_…****');
    expect(r.stderr).not.toContain(OWNER);
  });

  it('stores the base URL as config set does: a paste\'s spaces and a trailing slash left out', async () => {
    const r = await login(` ${t.sb.url}/ `);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Logged in to ${t.sb.url} as`);
    expect(JSON.parse(readFileSync(join(t.dir, 'config.json'), 'utf8')).profiles.default.base_url).toBe(t.sb.url);
  });

  it('--timeout bounds each attempt', async () => {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`;
    const r = await login(url, '--timeout', '1');
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('no complete answer within 1s (--timeout)');
    expect(existsSync(join(t.dir, 'config.json')) ? readFileSync(join(t.dir, 'config.json'), 'utf8') : '').not.toContain(OWNER);
  }, 20_000);

  it('--max-wait refuses a rate-limit wait longer than it', async () => {
    h.on('GET /api/accounts/me', answer(429, { 'retry-after': '30' }), { times: 1 });
    const started = Date.now();
    const r = await login(h.url, '--max-wait', '1s');
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('longer than --max-wait');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('a login beside a config set', () => {
  it('a `config set base_url` made while the login asks the service is kept; the token is recorded for the URL it was checked against', async () => {
    expect((await t.sct(['config', 'set', 'base_url', h.url], { env: noEnvToken })).exitCode).toBe(0);
    // While the login's GET /accounts/me is out, the user points the profile elsewhere.
    h.on('GET /api/accounts/me', async (_req, res, _body, forward) => {
      expect((await t.sct(['config', 'set', 'base_url', t.sb.url], { env: noEnvToken })).exitCode).toBe(0);
      const up = await forward();
      res.writeHead(up.status, up.headers);
      res.end(up.body);
    }, { times: 1 });
    const r = await t.sct(['auth', 'login', '--with-token', '--insecure-storage'], { input: OWNER, env: noEnvToken });
    expect(r.exitCode, r.stderr).toBe(0);
    const profile = JSON.parse(readFileSync(join(t.dir, 'config.json'), 'utf8')).profiles.default;
    expect(profile.base_url).toBe(t.sb.url);
    expect(profile.token_base_url).toBe(h.url);
  });
});

describe('a base URL with a query or a fragment', () => {
  it('is exit 2 wherever it is given, nothing sent: sct adds the paths and queries itself', async () => {
    const bad = `${t.sb.url}?x=1`;
    t.sb.requests.length = 0;
    await t.expectUsageErrors(
      [
        [['whoami', '--base-url', bad], 'invalid base URL: ' + bad + ' (no query or fragment: sct adds the paths and queries)'],
        [['orders', 'list', '--buying', '--base-url', `${t.sb.url}#frag`], '(no query or fragment'],
        [['config', 'set', 'base_url', `${t.sb.url}?x=1#f`], '(no query or fragment'],
        [['auth', 'login', '--with-token', '--base-url', bad], '(no query or fragment', OWNER],
      ],
      { inProcess: true },
    );
    const env = await t.sct(['whoami'], { env: { SCT_BASE_URL: bad } });
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toContain('(no query or fragment');
    expect(t.sb.requests).toHaveLength(0);
  });
});

describe('a token given as a flag', () => {
  it('is refused with the way to give it instead, the token never echoed, nothing sent', async () => {
    const r = await t.sct(['auth', 'login', '--token', 'sct_flag_token_123', '--base-url', t.sb.url]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('the token is never taken from a flag');
    expect(r.stderr).toContain('--with-token < token.txt');
    expect(r.stderr).not.toContain('sct_flag_token_123');
    expect(t.sb.requests).toHaveLength(0);
  });
});

describe('a token given as an argument', () => {
  it('is a usage error with the way to give it, the token never echoed', async () => {
    const r = await t.sct(['auth', 'login', '--with-token', 'sct_arg_token_456', '--base-url', t.sb.url]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('hint: a token is never an argument');
    expect(r.stderr).not.toContain('sct_arg_token_456');
    expect(t.sb.requests).toHaveLength(0);
  });
});
