// The foundation as a user meets it, against the sandbox on 127.0.0.1: the built bin/sct.js for
// the version, help, exit codes and Ctrl-C; every other command in-process.
import { describe, it, expect } from 'vitest';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { execa } from 'execa';
import { runSct, runSctIn } from '../helpers/sct.js';
import { useSandbox } from '../helpers/sandbox.js';
import { OWNER } from '../sandbox/helpers.js';
import { csvColumnsOfCommand } from '../helpers/printed.js';
import { ConfigStore } from '../../src/config/config.js';

const t = useSandbox({}, { inProcess: true });

const lastJsonLine = (s: string) => JSON.parse(s.trim().split('\n').pop()!);
/** Retries as many, after a 1 ms backoff instead of 0.5–3.5 s (the backoff itself: test/unit/client.test.ts). */
const FAST_RETRIES = { clientOptions: { retryBaseMs: 1 } };

describe('basics', () => {
  it('prints the version and help', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const v = await runSct(['--version']);
    expect(v).toMatchObject({ exitCode: 0, stdout: `${pkg.version}\n` });
    const h = await runSct(['--help']);
    expect(h.exitCode).toBe(0);
    for (const word of ['auth', 'orders', 'origins', 'api', 'doctor', '--output', 'Exit codes']) expect(h.stdout).toContain(word);
    // Every group is listed once, under its heading, the headings in this order.
    const headings = h.stdout.split('\n').filter((l) => /^\S.*commands:$/.test(l));
    expect(headings).toEqual(['Supply chain commands:', 'Due diligence commands:', 'Workspace and people commands:', 'Setup and other commands:']);
    const { GROUPS } = await import('../../src/cli/groups.js');
    for (const g of GROUPS) expect(h.stdout.match(new RegExp(`^  ${g.name} `, 'gm')), g.name).toHaveLength(1);
  });

  it('exits 2 on usage errors, with commander suggestions', async () => {
    const r = await runSct(['--bogus']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--bogus'");
    const r2 = await runSct(['auth', 'stauts']);
    expect(r2.exitCode).toBe(2);
    expect(r2.stderr).toContain('status');
    const r3 = await runSct(['-o', 'xml', 'whoami']);
    expect(r3.exitCode).toBe(2);
  });

  it('exits 4 with a hint when not logged in, sending nothing', async () => {
    const r = await t.sctBin(['whoami'], { env: { SCT_TOKEN: undefined } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: not logged in/m);
    expect(r.stderr).toContain('sct auth login');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('exits 4 when the service answers 401', async () => {
    const r = await t.sctBin(['whoami'], { env: { SCT_TOKEN: 'not-a-real-token' } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('401');
  });

  it('exits 2 without a base URL', async () => {
    const r = await t.sctBin(['whoami'], { env: { SCT_BASE_URL: undefined } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no base URL');
  });
});

describe('auth and config', () => {
  const noEnvToken = { SCT_TOKEN: undefined, SCT_BASE_URL: undefined };

  it('logs in with --with-token after verifying, stores the token at mode 0600', async () => {
    const r = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token'], { input: OWNER + '\n', env: noEnvToken });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Logged in');
    expect(r.stderr).toContain('Amélie Janssens');
    expect(r.stdout + r.stderr).not.toContain(OWNER);
    const file = join(t.dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ base_url: t.sb.url, token: OWNER });
    expect(t.sb.requests.map((q) => q.path)).toEqual(['/api/accounts/me']);

    const status = await t.sct(['auth', 'status'], { env: noEnvToken });
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toMatch(/Token\s+sct_…\*+ \(from profile\)/);
    expect(status.stdout).not.toContain(OWNER);

    const token = await t.sct(['auth', 'token'], { env: noEnvToken });
    expect(token.stdout).toBe(OWNER + '\n');

    const me = await t.sct(['whoami', '-o', 'json'], { env: noEnvToken });
    expect(JSON.parse(me.stdout)).toMatchObject({ id: 1, company: { id: 1 } });

    const out = await t.sct(['auth', 'logout'], { env: noEnvToken });
    expect(out.exitCode).toBe(0);
    const after = await t.sct(['auth', 'status'], { env: noEnvToken });
    expect(after.exitCode).toBe(4);
  });

  it('refuses a token the service rejects and stores nothing', async () => {
    const r = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token'], { input: 'wrong-token', env: noEnvToken });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('rejected');
    const token = await t.sct(['auth', 'token'], { env: noEnvToken });
    expect(token.exitCode).toBe(4);
  });

  it('a token with a newline or control character is a usage error saying where it came from, nothing sent', async () => {
    const env = await t.sct(['whoami'], { env: { SCT_TOKEN: OWNER + '\r' } });
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toMatch(/^error: the token from SCT_TOKEN contains invalid characters/m);
    const stdin = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token'], { input: 'sct_demo\nowner\n', env: noEnvToken });
    expect(stdin.exitCode).toBe(2);
    expect(stdin.stderr).toMatch(/the token from standard input \(--with-token\) contains invalid characters/);
    await new ConfigStore(t.dir).setMany('default', { base_url: t.sb.url, token: 'sct\u0001demo' });
    const stored = await t.sct(['products', 'list'], { env: { SCT_TOKEN: undefined } });
    expect(stored.exitCode).toBe(2);
    expect(stored.stderr).toContain('the token from profile "default"');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('a token pasted with its "Bearer " or in quotes is named as such, nothing sent', async () => {
    const bearer = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token'], { input: `Bearer ${OWNER}\n`, env: noEnvToken });
    expect(bearer.exitCode).toBe(2);
    expect(bearer.stderr).toContain('the token from standard input (--with-token) starts with "Bearer "');
    expect(bearer.stderr).toContain('give the token alone');
    for (const quoted of [`"${OWNER}"`, `'${OWNER}'`]) {
      const r = await t.sct(['whoami'], { env: { SCT_TOKEN: quoted } });
      expect(r.exitCode, quoted).toBe(2);
      expect(r.stderr).toContain('the token from SCT_TOKEN is in quotes');
    }
    expect(t.sb.requests).toHaveLength(0);
  });

  it('auth token with -o json (or --json) is one JSON object; without, the bare token', async () => {
    const bare = await t.sct(['auth', 'token'], { env: { SCT_TOKEN: OWNER } });
    expect(bare.stdout).toBe(`${OWNER}\n`);
    for (const flags of [['-o', 'json'], ['--json']]) {
      const r = await t.sct(['auth', 'token', ...flags], { env: { SCT_TOKEN: OWNER } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ token: OWNER });
    }
  });

  it('needs --with-token without a terminal', async () => {
    const r = await t.sct(['auth', 'login', '--base-url', t.sb.url], { env: noEnvToken });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--with-token');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('reports where the token comes from with SCT_TOKEN', async () => {
    const r = await t.sct(['auth', 'status', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ token_source: 'SCT_TOKEN', base_url_source: 'env', user: { id: 1 } });
  });

  it('auth status with the service down still shows the local configuration, then exits 1', async () => {
    const r = await t.sct(['auth', 'status'], { env: { SCT_BASE_URL: 'http://127.0.0.1:9/api' }, ...FAST_RETRIES });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^Profile\s+default$/m);
    expect(r.stdout).toMatch(/^Base URL\s+http:\/\/127\.0\.0\.1:9\/api \(from env\)$/m);
    expect(r.stdout).toMatch(/^Token\s+sct_…\*+ \(from SCT_TOKEN\)$/m);
    expect(r.stdout + r.stderr).not.toContain(OWNER);
    expect(r.stderr).toMatch(/^error: GET \/accounts\/me: connection refused/m);
  });

  it('config get and path with -o json print JSON; set takes an output format in any case and trims a base URL', async () => {
    expect((await t.sct(['config', 'set', 'output', 'NDJSON'])).exitCode).toBe(0);
    expect((await t.sct(['config', 'get', 'output'])).stdout).toBe('ndjson\n');
    expect((await t.sct(['config', 'set', 'base_url', '  http://x.test/api  '])).exitCode).toBe(0);
    expect((await t.sct(['config', 'get', 'base_url'])).stdout).toBe('http://x.test/api\n');
    expect(JSON.parse((await t.sct(['config', 'get', 'base_url', '-o', 'json'])).stdout)).toEqual({ base_url: 'http://x.test/api' });
    expect(JSON.parse((await t.sct(['config', 'get', 'workspace', '--json'])).stdout)).toEqual({ workspace: null });
    expect(JSON.parse((await t.sct(['config', 'path', '-o', 'json'])).stdout)).toEqual({ path: join(t.dir, 'config.json') });
    for (const id of ['0', '99999999999999999999', '-5', '1.5']) {
      const r = await t.sct(['config', 'set', 'workspace', id]);
      expect(r.exitCode, id).toBe(2);
      expect(r.stderr).toContain(`invalid workspace "${id}"`);
    }
  });

  it('config set/get/unset/list/path, per profile', async () => {
    expect((await t.sct(['config', 'set', 'output', 'json'])).exitCode).toBe(0);
    expect((await t.sct(['config', 'get', 'output'])).stdout).toBe('json\n');
    expect((await t.sct(['config', 'set', 'base_url', 'http://x.test/api/', '--profile', 'work'])).exitCode).toBe(0);
    expect((await t.sct(['config', 'get', 'base_url'], { env: { SCT_PROFILE: 'work' } })).stdout).toBe('http://x.test/api\n');
    // The key as the flag spells it (--base-url) is the same key.
    expect((await t.sct(['config', 'set', 'base-url', 'http://y.test/api', '--profile', 'work'])).exitCode).toBe(0);
    expect((await t.sct(['config', 'get', 'base-url', '--profile', 'work'])).stdout).toBe('http://y.test/api\n');
    const list = await t.sct(['config', 'list', '-o', 'json']);
    expect(JSON.parse(list.stdout)).toMatchObject({ profile: 'default', output: 'json', token: null });
    expect((await t.sct(['config', 'path'])).stdout).toBe(join(t.dir, 'config.json') + '\n');
    // The profile's default output applies when -o is not given.
    const me = await t.sct(['whoami']);
    expect(JSON.parse(me.stdout).id).toBe(1);
    expect((await t.sct(['config', 'unset', 'output'])).exitCode).toBe(0);
    // As `gh config get`: a known key that is unset prints nothing and exits 0; an unknown key is a usage error.
    expect(await t.sct(['config', 'get', 'output'])).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect((await t.sct(['config', 'get', 'colour'])).exitCode).toBe(2);
  });

  it('a base URL without /api: a warning where it is given, and a hint on the 404', async () => {
    const origin = t.sb.url.replace(/\/api$/, '');
    const meant = `did you mean ${origin}/api?`;
    const set = await t.sct(['config', 'set', 'base_url', origin]);
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toMatch(new RegExp(`^warning: the base URL ${origin} does not end in /api`, 'm'));
    expect(set.stderr).toContain(meant);

    // Given with --base-url: the warning says it once; the 404 does not say it again.
    const flag = await t.sct(['whoami', '--base-url', origin]);
    expect(flag.exitCode).toBe(1);
    expect(flag.stderr).toMatch(/^warning: the base URL .* does not end in \/api/m);
    expect(flag.stderr).toMatch(/^error: .*404 Not Found on GET \/accounts\/me/m);
    expect(flag.stderr.split(meant)).toHaveLength(2);
    // Nor does it guess at another cause (a path the documents do not show).
    expect(flag.stderr).not.toContain('the API documents do not show');
    // From the profile (no warning on this run): the 404's hint says it.
    const stored = await t.sct(['whoami'], { env: { SCT_BASE_URL: undefined } });
    expect(stored.exitCode).toBe(1);
    expect(stored.stderr).toMatch(new RegExp(`^hint: .*${meant.replace(/[?.]/g, '\\$&')}`, 'm'));

    // /API for /api: the path as the API has it, not /API/api.
    const upper = await t.sct(['whoami', '--base-url', `${origin}/API`]);
    expect(upper.exitCode).toBe(1);
    expect(upper.stderr).toContain(`does not end in /api, as the API's base URL does: did you mean ${origin}/api?`);

    const login = await t.sct(['auth', 'login', '--base-url', origin, '--with-token'], { input: OWNER, env: noEnvToken });
    expect(login.exitCode).toBe(1);
    expect(login.stderr).toContain(meant);
    expect(new ConfigStore(t.dir).profile('default').token).toBeUndefined();

    // With /api nothing is said.
    const ok = await t.sct(['config', 'set', 'base_url', t.sb.url]);
    expect(ok.stderr).toBe('');
  });

  it('https to a plain-http server says so on one line, not in OpenSSL\'s words', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--base-url', t.sb.url.replace('http://', 'https://'), '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("error: GET /orders: the server answered without TLS: is the address plain http:// (as the sandbox's is)?");
    expect(r.stderr).not.toMatch(/openssl|ssl3_get_record/i);
    const last = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(last.error).not.toContain('\n');
  });

  it('config rejects the token, unknown keys and bad values with exit 2', async () => {
    for (const args of [
      ['config', 'set', 'token', 'abc'],
      ['config', 'set', 'colour', 'x'],
      ['config', 'set', 'output', 'xml'],
      ['config', 'set', 'base_url', 'not a url'],
    ]) {
      const r = await t.sct(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /m);
    }
    const set = await t.sct(['config', 'set', 'token', 'abc']);
    expect(set.stderr).toContain('the token is set with `sct auth login`');
    const unset = await t.sct(['config', 'unset', 'token']);
    expect(unset.exitCode).toBe(2);
    expect(unset.stderr).toContain('the token is forgotten with `sct auth logout`');
  });

  it('repairs a loosened config file mode on write, and doctor flags it', async () => {
    await t.sct(['config', 'set', 'output', 'table']);
    const file = join(t.dir, 'config.json');
    chmodSync(file, 0o644);
    const doc = await t.sct(['doctor']);
    expect(doc.exitCode).toBe(1);
    expect(doc.stdout).toMatch(/^fail\s+config\s+.*mode 644/m);
    await t.sct(['config', 'set', 'output', 'json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('doctor', () => {
  it('reports every check ok against the sandbox', async () => {
    await t.sct(['config', 'set', 'output', 'table']);
    const r = await t.sct(['doctor']);
    expect(r.exitCode).toBe(0);
    for (const name of ['node', 'config', 'proxy', 'ca', 'base_url', 'token', 'clock', 'rate_limit']) {
      expect(r.stdout).toMatch(new RegExp(`^ok\\s+${name}\\s`, 'm'));
    }
    expect(r.stdout).not.toContain(OWNER);
  });

  it('says a proxy is configured without printing its URL', async () => {
    const r = await t.sct(['doctor', '-o', 'json'], { env: { HTTPS_PROXY: 'http://user:pw@proxy.internal:3128', NO_PROXY: '127.0.0.1' } });
    const checks = JSON.parse(r.stdout);
    expect(checks.find((c: { name: string }) => c.name === 'proxy').detail).toContain('proxy is configured');
    expect(r.stdout + r.stderr).not.toContain('proxy.internal');
  });

  it('fails when the service is unreachable', async () => {
    const r = await t.sct(['doctor'], { env: { SCT_BASE_URL: 'http://127.0.0.1:9/api' }, ...FAST_RETRIES });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^fail\s+base_url/m);
  });
});

describe('errors', () => {
  it('prints error: with field errors, and a JSON object under -o json', async () => {
    const r = await t.sct(['api', '/orders', '-X', 'GET', '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: the request was rejected \(400 Bad Request on GET \/orders\)/m);
    expect(r.stderr).toMatch(/^ {2}order_action: This field is required\.$/m);
    expect(lastJsonLine(r.stderr)).toEqual({
      error: 'the request was rejected (400 Bad Request on GET /orders)',
      status: 400,
      fields: { order_action: ['This field is required.'] },
      exit_code: 1,
    });
    expect(r.stdout).toBe('');
  });

  it('-o JSON in any case, and the last -o of several, decide the JSON object as they decide the output', async () => {
    for (const args of [['-o', 'JSON'], ['-oNDJSON'], ['--output=Json'], ['-o', 'table', '-o', 'json']]) {
      const r = await t.sct(['products', 'get', '999999', ...args]);
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(lastJsonLine(r.stderr), args.join(' ')).toMatchObject({ status: 404, exit_code: 1 });
    }
    const table = await t.sct(['products', 'get', '999999', '-o', 'json', '-o', 'table']);
    expect(table.stderr).not.toMatch(/^\{/m);
  });

  it('prints the JSON object too when the output format comes from the profile', async () => {
    expect((await t.sct(['config', 'set', 'output', 'json'])).exitCode).toBe(0);
    const r = await t.sct(['products', 'get', '999999']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: .*404/m);
    expect(lastJsonLine(r.stderr)).toMatchObject({ status: 404, exit_code: 1 });
    const usage = await t.sct(['products', 'list', '--limit', 'ten']);
    expect(lastJsonLine(usage.stderr)).toMatchObject({ status: null, exit_code: 2 });
  });

  it('404 exits 1 with the API detail', async () => {
    const r = await t.sct(['products', 'get', '999999']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('404');
  });

  it('never prints the token in the --verbose trace', async () => {
    const r = await t.sct(['whoami', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('> GET ');
    expect(r.stderr).toContain('authorization: Bearer');
    expect(r.stderr).not.toContain(OWNER);
    expect(r.stdout).not.toContain(OWNER);
  });
});

describe('HTTP behaviour against real sockets', () => {
  it('retries 503s and dropped connections, then succeeds', async () => {
    t.sb.setFaults({ failFirst: 2 });
    const r = await t.sct(['whoami', '-o', 'json', '--verbose'], FAST_RETRIES);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('* GET /accounts/me: 503 Service Unavailable: retry 1/3');
    t.sb.setFaults({ dropFirst: 1 });
    const r2 = await t.sct(['whoami', '-o', 'json']);
    expect(r2.exitCode).toBe(0);
  });

  it('--verbose names the request of each answer and retry line: pages in flight together are told apart', async () => {
    t.sb.setFaults({ dropFirst: 1 });
    const r = await t.sct(['orders', 'list', '--buying', '--all', '--page-size', '20', '--parallel', '3', '-o', 'json', '--verbose'], FAST_RETRIES);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    // As each `>` line names it, the base URL left out: the query tells one page from another.
    const sent = lines.filter((l) => l.startsWith('> GET ')).map((l) => `GET ${l.slice('> GET '.length).replace(t.sb.url, '')}`);
    expect(new Set(sent).size).toBeGreaterThan(3);
    const answered = lines.filter((l) => l.startsWith('< ') && !/^< [a-z-]+: /.test(l));
    for (const l of answered) expect(l).toMatch(/^< GET \/orders\?order_action=buying&limit=20&offset=\d+: 200 OK \(\d+ ms\)$/);
    expect(new Set(answered.map((l) => l.slice(2).replace(/: 200 OK.*/, '')))).toEqual(new Set(sent));
    expect(r.stderr).toMatch(/^\* GET \/orders\?order_action=buying&limit=20&offset=0: connection reset by the server: retry 1\/3$/m);
    // A page's decoding is said once its body is read, after other pages' lines: named too.
    expect(r.stderr).toMatch(/^\* GET \/orders\?order_action=buying&limit=20&offset=\d+: content-encoding gzip: [\d,]+ bytes received/m);
  });

  it('--verbose names a write by its Idempotency-Key: the POSTs a bulk run has in flight together are told apart', async () => {
    t.sb.setFaults({ dropFirst: 2, methods: ['POST'] });
    const rows = Array.from({ length: 8 }, (_, i) => `Verbose plot ${i},GH,VERBOSE-${i}-${Date.now()}`);
    const file = t.writeFile('verbose-origins.csv', ['name,country_code,external_id', ...rows].join('\n') + '\n');
    const r = await t.sct(['origins', 'import', '--file', file, '--concurrency', '4', '-v'], FAST_RETRIES);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    const keys = lines.filter((l) => l.startsWith('> idempotency-key: ')).map((l) => l.slice('> idempotency-key: '.length));
    // Its `>` line carries the key's first 8 characters, and so does every line of its answer and retries.
    const sent = lines.filter((l) => l.startsWith('> POST ')).map((l) => /^> POST \S+\/origins \(key ([0-9a-f]{8})\)$/.exec(l)?.[1] ?? l);
    expect(sent).toEqual(keys.map((k) => k.slice(0, 8)));
    const answered = lines.filter((l) => l.startsWith('< POST ')).map((l) => /^< POST \/origins \(key ([0-9a-f]{8})\): 201 Created \(\d+ ms\)$/.exec(l)?.[1] ?? l);
    expect(new Set(answered)).toEqual(new Set(sent));
    expect(answered).toHaveLength(8);
    const retried = lines.filter((l) => / retry \d\/3$/.test(l)).map((l) => /^\* POST \/origins \(key ([0-9a-f]{8})\): connection reset by the server: retry 1\/3$/.exec(l)?.[1] ?? l);
    expect(retried).toHaveLength(2);
    for (const key of retried) expect(sent.filter((k) => k === key)).toHaveLength(2);
  });

  it('retries a POST with the same Idempotency-Key and creates one object', async () => {
    t.sb.setFaults({ failFirst: 1 });
    const r = await t.sct(['api', '-X', 'POST', '/origins', '-f', 'name=Retry plot', '-f', 'country_code=GH']);
    expect(r.exitCode).toBe(0);
    const posts = t.sb.requests.filter((q) => q.method === 'POST' && q.path === '/api/origins');
    expect(posts).toHaveLength(2);
    expect(posts[0].headers['idempotency-key']).toBeTruthy();
    expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
    const list = await t.sct(['api', '/origins', '-X', 'GET', '-f', 'search=Retry plot']);
    expect(JSON.parse(list.stdout).count).toBe(1);
  });

  it('a DELETE whose answer was lost is retried, and the 404 of the retry counts as done', async () => {
    const created = await t.sct(['api', '-X', 'POST', '/origins', '-f', 'name=Short-lived plot', '-f', 'country_code=GH']);
    const id = JSON.parse(created.stdout).id;
    t.sb.requests.length = 0;
    t.sb.setFaults({ dropFirst: 1, dropAfterProcessing: true });
    const r = await t.sct(['api', '-X', 'DELETE', `/origins/${id}`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests.map((q) => [q.method, q.status])).toEqual([
      ['DELETE', 0],
      ['DELETE', 404],
    ]);
    expect((await t.sct(['api', `/origins/${id}`])).exitCode).toBe(1);
  });

  it('waits out a 429 and retries', async () => {
    t.sb.setFaults({ rateLimitBurst: 1, rateLimitResetSeconds: 1 });
    const r = await t.sct(['whoami', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('rate limit');
    expect(t.sb.requests.map((q) => q.status)).toEqual([429, 200]);
  });

  it('stops with exit 1 and the reset time when the wait exceeds --max-wait', async () => {
    t.sb.setFaults({ rateLimitBurst: 1, rateLimitResetSeconds: 120 });
    const r = await t.sct(['whoami', '--max-wait', '5s']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/rate limit exhausted: the budget resets at \d{4}-/);
  });

});

describe('lists and pagination', () => {
  it('a --filter pair the command would not send as given is exit 2, nothing sent', async () => {
    await t.expectUsageErrors(
      [
        [['orders', 'list', '--buying', '--filter', 'limit=5'], '--filter limit: sct pages the list itself; use --limit (or --page-size)'],
        [['products', 'list', '--filter', 'offset=5'], '--filter offset: sct pages the list itself; use --offset'],
        [['orders', 'list', '--buying', '--filter', 'order_action=selling'], "--filter order_action=selling: the command's own flags set order_action too (buying); give it one way"],
        [['orders', 'list', '--buying', '--filter', 'type=order', '--type', 'produced_batch'], '--filter type=order: the command'],
        [['orders', 'list', '--buying', '--search', 'PO', '--filter', 'search=BATCH'], "--filter search=BATCH: the command's own flags set search too (PO); give it one way"],
        [['dds', 'list', '--ordering=-id', '--filter', 'ordering=id'], "--filter ordering=id: the command's own flags set ordering too (-id); give it one way"],
      ],
      { inProcess: true },
    );
    const passed = await t.sct(['orders', 'list', '--buying', '--filter', 'type=order', '--limit', '1']);
    expect(passed.exitCode, passed.stderr).toBe(0);
    expect(t.queryOf()).toMatchObject({ type: 'order' });
  });

  it('a --filter key given twice is exit 2 saying how to ask for several values, nothing sent; a key the documents say repeats goes', async () => {
    await t.expectUsageErrors(
      [
        [['orders', 'list', '--buying', '--filter', 'id__in=217', '--filter', 'id__in=195'], '--filter id__in given twice: the service reads only the last value (195); for any of them give one: --filter id__in=217,195'],
        [['orders', 'list', '--buying', '--filter', 'type=order', '--filter', 'type=produced_batch'], '--filter type given twice: the service reads only the last value (produced_batch); for any of them give one: --filter type__in=order,produced_batch'],
        // The list offered holds each value once.
        [['orders', 'list', '--buying', '--filter', 'id__in=1,2', '--filter', 'id__in=2,1,3'], 'for any of them give one: --filter id__in=1,2,3'],
        // With a named flag of the same key too: the repetition is said, not "own flags set type too ()".
        [['orders', 'list', '--buying', '--type', 'order', '--filter', 'type=order', '--filter', 'type=produced_batch'], '--filter type given twice'],
        [['origins', 'list', '--filter', 'name__icontains=farm', '--filter', 'name__icontains=plot'], '--filter name__icontains given twice: the service reads only the last value (plot); give it once'],
        [['products', 'list', '--filter', 'sku=A', '--filter', 'sku=B'], '--filter sku given twice: the service reads only the last value (B); give it once'],
      ],
      { inProcess: true },
    );
    // The same value twice asks for nothing more; invitations' status repeats (any of them).
    const same = await t.sct(['orders', 'list', '--buying', '--filter', 'type=order', '--filter', 'type=order', '--limit', '1']);
    expect(same.exitCode, same.stderr).toBe(0);
    t.sb.requests.length = 0;
    const statuses = await t.sct(['invitations', 'list', '--filter', 'status=pending', '--filter', 'status=expired', '-o', 'json']);
    expect(statuses.exitCode, statuses.stderr).toBe(0);
    expect(t.searchParamsOf().getAll('status')).toEqual(['pending', 'expired']);
  });

  it('--limit is the total, --page-size per request', async () => {
    const r = await t.sct(['products', 'list', '--limit', '15', '--page-size', '6', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(15);
    const queries = t.sb.requests.map((q) => new URLSearchParams(q.query));
    expect(queries.map((q) => [q.get('limit'), q.get('offset')])).toEqual([
      ['6', '0'],
      ['6', '6'],
      ['3', '12'],
    ]);
  });

  it('defaults to 10 items; --all streams every page as one JSON array', async () => {
    const ten = await t.sct(['products', 'list', '-o', 'json']);
    expect(JSON.parse(ten.stdout)).toHaveLength(10);
    t.sb.requests.length = 0;
    const all = await t.sct(['products', 'list', '--all', '--page-size', '7', '-o', 'json']);
    const count = JSON.parse((await t.sct(['api', '/products', '-X', 'GET', '-f', 'limit=1'])).stdout).count;
    const rows = JSON.parse(all.stdout);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r: { id: number }) => r.id)).size).toBe(count);
  });

  it('--all stops with exit 1 when a server\'s next link never advances', async () => {
    // A broken server, not the sandbox: every page links to itself.
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ count: 1000, next: `http://internal.test/api/products?limit=2&offset=2`, results: [{ id: 1 }, { id: 2 }] }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
      const r = await t.sct(['products', 'list', '--all', '-o', 'json'], { env: { SCT_BASE_URL: base }, timeout: 20_000 });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/^error: the server's pagination does not advance on GET \/products: the next link leads to a page already fetched/m);
      expect(JSON.parse(r.stdout)).toHaveLength(2);
    } finally {
      server.close();
    }
  });

  it('passes --ordering, --search and --filter through', async () => {
    await t.sct(['products', 'list', '--ordering', '-name,id', '--search', 'cocoa', '--filter', 'commodity__in=cocoa,coffee', '--filter', 'composition=simple']);
    const q = new URLSearchParams(t.sb.requests[0].query);
    expect(q.get('ordering')).toBe('-name,id');
    expect(q.get('search')).toBe('cocoa');
    expect(q.get('commodity__in')).toBe('cocoa,coffee');
    expect(q.get('composition')).toBe('simple');
  });

  it('a flag value may start with a dash (--ordering -created_at)', async () => {
    const r = await t.sct(['products', 'list', '--ordering', '-created_at', '--search', '-o', '--json']);
    expect(r.exitCode).toBe(0);
    const q = new URLSearchParams(t.sb.requests[0].query);
    expect(q.get('ordering')).toBe('-created_at');
    expect(q.get('search')).toBe('-o');
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('rejects bad list flags before sending anything', async () => {
    for (const args of [['--limit', 'ten'], ['--limit', '0'], ['--all', '--limit', '5'], ['--filter', 'novalue'], ['--page-size', '-1']]) {
      const r = await t.sct(['products', 'list', ...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
    }
    expect(t.sb.requests).toHaveLength(0);
  });

  it('ndjson and csv output are machine-readable', async () => {
    const nd = await t.sct(['products', 'list', '--limit', '3', '-o', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toHaveLength(3);
    const csv = await t.sct(['products', 'list', '--limit', '3', '-o', 'csv', '--columns', 'id,name,commodity']);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('id,name,commodity');
    expect(lines).toHaveLength(4);
  });
});

describe('strings from the API', () => {
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  const hostileName = 'Plot \u009b2J\u0085\u001b]0;pwned\u0007\u202Etxt.exe';

  async function hostileOrigin(): Promise<number> {
    const body = t.writeFile('origin.json', JSON.stringify({ name: hostileName, country_code: 'GH' }));
    const r = await t.sct(['api', '-X', 'POST', '/origins', '--input', body]);
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout).id;
  }

  it('on a terminal, -o json, ndjson and sct api strip control characters, escapes and bidi controls', async () => {
    const id = await hostileOrigin();
    for (const args of [
      ['origins', 'get', String(id), '-o', 'json'],
      ['origins', 'list', '--search', 'Plot', '--all', '-o', 'json'],
      ['origins', 'list', '--search', 'Plot', '--all', '-o', 'ndjson'],
      ['api', `/origins/${id}`],
    ]) {
      const r = await t.sctIn(args, { tty: true });
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(CONTROL);
      const data = args.includes('ndjson') ? r.stdout.trim().split('\n').map((l) => JSON.parse(l)) : JSON.parse(r.stdout);
      const found = Array.isArray(data) ? data.find((o: { id: number }) => o.id === id) : data;
      expect(found?.name, args.join(' ')).toBe('Plot txt.exe');
    }
  });

  it('into a pipe, -o json keeps the data as returned', async () => {
    const id = await hostileOrigin();
    const r = await t.sct(['origins', 'get', String(id), '-o', 'json']);
    expect(JSON.parse(r.stdout).name).toBe(hostileName);
  });
});

describe('csv of an empty list', () => {
  it('prints the header row: the documented fields, or --columns', async () => {
    const r = await t.sct(['products', 'list', '--search', 'no product is called this', '-o', 'csv']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe((await csvColumnsOfCommand('products list'))!.join(',') + '\n');
    expect(r.stdout).toMatch(/^id,company_id,sku,name,/);
    const c = await t.sct(['products', 'list', '--search', 'no product is called this', '-o', 'csv', '--columns', 'id,name']);
    expect(c.stdout).toBe('id,name\n');
  });
});

describe('csv of booleans', () => {
  it('writes true and false, so false and an empty value stay apart and read back', async () => {
    const me = await t.api('/accounts/me');
    const r = await t.sct(['whoami', '-o', 'csv', '--columns', 'id,is_staff,is_mfa_enrolled']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`id,is_staff,is_mfa_enrolled\n${me.id},${me.is_staff},${me.is_mfa_enrolled}\n`);
    expect(r.stdout.trim().split('\n')[1]).toMatch(/^\d+,(true|false),(true|false)$/);
    const list = await t.sct(['config', 'profiles', '-o', 'csv', '--columns', 'name,current']);
    expect(list.stdout.trim().split('\n').slice(1).every((l) => /,(true|false)$/.test(l))).toBe(true);
  });
});

describe('sct api', () => {
  it('GET with fields as query parameters, POST with fields as a JSON body', async () => {
    const r = await t.sct(['api', '/accounts/me']);
    expect(JSON.parse(r.stdout).id).toBe(1);
    const g = await t.sct(['api', '-X', 'GET', '/products', '-f', 'limit=2']);
    expect(JSON.parse(g.stdout).results).toHaveLength(2);
    // As gh: -f is always a string; an array is built with key[]= (here -F, typed, would do the same).
    const p = await t.sct(['api', '/products', '-f', 'name=Api product', '-f', 'commodity=coffee', '-f', 'tags[]=x']);
    expect(p.exitCode).toBe(0);
    const post = t.sb.requests.find((q) => q.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ name: 'Api product', commodity: 'coffee', tags: ['x'] });
  });

  it('--input sends a JSON file; --paginate prints one array', async () => {
    const body = t.writeFile('body.json', JSON.stringify({ name: 'From file', country_code: 'CI' }));
    const r = await t.sct(['api', '-X', 'POST', '/origins', '--input', body]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).name).toBe('From file');
    const all = await t.sct(['api', '/accounts/countries?limit=10', '--paginate']);
    const countries = JSON.parse(all.stdout);
    expect(Array.isArray(countries)).toBe(true);
    expect(countries.length).toBeGreaterThan(10);
  });

  it('rejects full URLs and bad methods', async () => {
    expect((await t.sct(['api', 'http://evil.test/api/x'])).exitCode).toBe(2);
    expect((await t.sct(['api', '-X', 'BREW', '/x'])).exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
  });
});

describe('completion', () => {
  it('prints bash, zsh and fish scripts generated from the command tree', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await runSctIn(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('orders');
      expect(r.stdout).toContain('--buying');
    }
    expect((await runSctIn(['completion', 'bash'])).stdout).toContain('complete -F _sct sct');
    expect((await runSctIn(['completion', 'powershell'])).exitCode).toBe(2);
    // The shell from $SHELL when not named.
    expect((await runSctIn(['completion'], { env: { SHELL: '/usr/bin/zsh' } })).stdout).toMatch(/^#compdef sct\n/);
    expect((await runSctIn(['completion'], { env: { SHELL: '/bin/tcsh' } })).exitCode).toBe(2);
    const help = (await runSct(['completion', '--help'])).stdout;
    for (const file of ['completions/sct', '~/.zfunc/_sct', '~/.config/fish/completions/sct.fish']) expect(help).toContain(file);
  });

  it('bash completes command groups, subcommands, options and format values', async () => {
    const script = (await runSctIn(['completion', 'bash'])).stdout;
    // What bash would offer for each command line, the cursor on the last word.
    const complete = async (...words: string[]) => {
      const line = words.map((w) => `'${w}'`).join(' ');
      const r = await execa('bash', ['-c', `${script}\nCOMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _sct; printf '%s\\n' "\${COMPREPLY[@]}"`], { reject: false });
      return r.stdout.split('\n').filter(Boolean);
    };
    expect(await complete('sct', 'in')).toEqual(['info-requests', 'invitations']);
    expect(await complete('sct', 'orders', 'l')).toEqual(['list']);
    expect(await complete('sct', 'dds', 'create', '--ty')).toEqual(['--type']);
    // -o geojson where it is taken: origins list and get.
    expect(await complete('sct', 'orders', 'list', '-o', '')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(await complete('sct', 'origins', 'list', '-o', '')).toEqual(['table', 'json', 'ndjson', 'csv', 'geojson']);
    expect(await complete('sct', 'origins', 'get', '1', '--output', 'g')).toEqual(['geojson']);
    expect(await complete('sct', 'risk', 'evidence', '1', '--')).toContain('--force');
    // Subcommands first, flags only after a "-"; the shells; config keys; enum values.
    expect(await complete('sct', 'dds', '')).toEqual(['list', 'get', 'create', 'update', 'delete', 'wait', 'available-orders', 'trace']);
    expect(await complete('sct', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete('sct', 'config', 'get', '')).toEqual(['base_url', 'workspace', 'output']);
    expect(await complete('sct', 'orders', 'list', '--commodity', 'c')).toEqual(['cattle', 'cocoa', 'coffee']);
    expect(await complete('sct', 'orders', 'create', '--buyer-status', 'w')).toEqual(['waiting_for_supplier']);
    expect(await complete('sct', 'orders', 'update', '1', '--seller-status', 'p')).toEqual(['pending', 'passing']);
    expect(await complete('sct', 'api', '-X', 'P')).toEqual(['POST', 'PUT', 'PATCH']);
    // help: a group or a topic.
    expect(await complete('sct', 'he')).toEqual(['help']);
    expect(await complete('sct', 'help', 'e')).toEqual(['environment', 'exit-codes']);
    expect(await complete('sct', 'help', 'or')).toEqual(['orders', 'origins']);
    // More, in bash, zsh and fish: test/e2e/completion.test.ts.
  });

  it('matches the scripts shipped in completions/', async () => {
    for (const [shell, file] of [['bash', 'sct.bash'], ['zsh', '_sct'], ['fish', 'sct.fish']]) {
      const shipped = readFileSync(new URL(`../../completions/${file}`, import.meta.url), 'utf8');
      expect((await runSctIn(['completion', shell])).stdout, `completions/${file} is stale: npm run completions`).toBe(shipped);
    }
  });
});

// Last: a slow response outlives its test (the sandbox logs it when it finally answers).
describe('slow responses', () => {
  it('Ctrl-C during a request exits 130', async () => {
    t.sb.setFaults({ latencyMs: 5000 });
    const child = t.spawnSct(['whoami', '--verbose']);
    // The trace line says the request is on its way: from then on sct is waiting on the network.
    await new Promise<void>((resolve) => child.stderr!.on('data', (d: Buffer) => d.toString().includes('> GET') && resolve()));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr)).toContain('interrupted');
  });

  it('times out slow responses with --timeout and says so', async () => {
    t.sb.setFaults({ latencyMs: 1500 });
    const r = await t.sct(['whoami', '--timeout', '300ms'], FAST_RETRIES);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: GET /accounts/me: no complete answer within 300ms (--timeout)');
  }, 30_000);
});
