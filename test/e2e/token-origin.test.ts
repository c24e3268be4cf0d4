// Where a token may go. A stored token belongs to the base URL it was stored with and goes to
// that origin only; a token never travels over plain http except to loopback; a redirect to
// another scheme or host is an error naming both URLs; secrets in URLs and control characters
// in headers never reach the terminal; the sandbox's request log masks tokens.
//
// "Another origin" here is a hostile proxy (test/helpers/hostile.ts) on another port of
// 127.0.0.1, in front of the same sandbox: a token that leaked would be accepted there, and its
// log shows every request that reached it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { answer, startHostile, type Hostile } from '../helpers/hostile.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });
const noEnvToken = { SCT_TOKEN: undefined, SCT_BASE_URL: undefined };
let other: Hostile;

beforeAll(async () => {
  other = await startHostile(t.sb.url);
});
afterAll(async () => {
  await other.close();
});
beforeEach(() => other.reset());

/** A profile as an earlier sct stored it: base URL and token, nothing else. */
function storedProfile(profile: Record<string, string>): void {
  writeFileSync(join(t.dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
}

async function login(): Promise<void> {
  const r = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token', '--insecure-storage'], { input: OWNER, env: noEnvToken });
  expect(r.exitCode, r.stderr).toBe(0);
}

function expectNotLoggedInTo(r: { exitCode: number; stderr: string }, url: string): void {
  expect(r.exitCode, r.stderr).toBe(4);
  expect(r.stderr).toContain(`error: not logged in to ${url}`);
  expect(r.stderr).toContain(`sct auth login --base-url ${url}`);
  expect(r.stderr).toContain('SCT_TOKEN');
}

describe('a stored token goes to its own origin only', () => {
  it('--base-url or SCT_BASE_URL naming another origin: exit 4 "not logged in to", nothing sent there', async () => {
    await login();
    expect((await t.sct(['whoami'], { env: noEnvToken })).exitCode).toBe(0);
    expectNotLoggedInTo(await t.sct(['whoami', '--base-url', other.url], { env: noEnvToken }), other.url);
    expectNotLoggedInTo(await t.sct(['orders', 'list', '--buying'], { env: { ...noEnvToken, SCT_BASE_URL: other.url } }), other.url);
    expectNotLoggedInTo(await t.sct(['auth', 'token', '--base-url', other.url], { env: noEnvToken }), other.url);
    const status = await t.sct(['auth', 'status', '--base-url', other.url], { env: noEnvToken });
    expectNotLoggedInTo(status, other.url);
    expect(status.stdout + status.stderr).not.toContain(OWNER);
    expect(other.log).toEqual([]);
    // A base URL with a password: shown masked, and no masked command to copy.
    const secret = await t.sct(['whoami', '--base-url', other.url.replace('http://', 'http://alice:pw@')], { env: noEnvToken });
    expect(secret.exitCode).toBe(4);
    expect(secret.stderr).toContain('not logged in to http://***@');
    expect(secret.stderr).toContain('run `sct auth login --base-url URL` with the base URL you gave');
    expect(secret.stderr).not.toContain(':pw@');
  });

  it('an empty --base-url (a script\'s unset variable) is exit 2, never the profile\'s service with its token', async () => {
    await login();
    const before = t.sb.requests.length;
    for (const flag of [['--base-url', ''], ['--base-url', '   '], ['--base-url=']]) {
      const r = await t.sct(['whoami', ...flag], { env: noEnvToken });
      expect(r.exitCode, flag.join(' ')).toBe(2);
      expect(r.stderr).toContain('--base-url is empty');
      expect(r.stdout).toBe('');
    }
    expect(t.sb.requests.length).toBe(before);
  });

  it('a base URL in force that is invalid gets no stored token: auth token and status are exit 2 "invalid base URL" as every command, nothing printed', async () => {
    await login();
    const cases: Array<[string[], Record<string, string | undefined>]> = [
      [['auth', 'token', '--base-url', 'staging.example.com/api'], noEnvToken],
      [['auth', 'token'], { ...noEnvToken, SCT_BASE_URL: 'staging.example.com/api' }],
      [['auth', 'token', '--base-url', 'ftp://x/api', '-o', 'json'], noEnvToken],
      [['auth', 'token', '--base-url', `${t.sb.url}?x=1`], noEnvToken],
      [['auth', 'status', '--base-url', 'ftp://x/api'], noEnvToken],
      [['auth', 'status', '--base-url', 'staging.example.com/api', '-o', 'json'], noEnvToken],
      [['whoami', '--base-url', 'staging.example.com/api'], noEnvToken],
      // SCT_TOKEN with it: the same exit 2, as for every command.
      [['auth', 'token', '--base-url', 'junk'], { SCT_TOKEN: 'x', SCT_BASE_URL: undefined }],
    ];
    for (const [args, env] of cases) {
      const r = await t.sct(args, { env });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('error: invalid base URL: ');
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr).not.toContain(OWNER.slice(0, 4));
    }
  });

  it('an invalid base URL never reads the keyring: auth token, whoami and doctor', async () => {
    const bus = createServer((socket) => socket.destroy());
    let connections = 0;
    bus.on('connection', () => connections++);
    const path = join(t.dir, 'bus');
    await new Promise<void>((r) => bus.listen(path, r));
    try {
      const account = `default@${t.sb.url}`;
      storedProfile({ base_url: t.sb.url, token_storage: 'keyring', token_account: account });
      const env = { ...noEnvToken, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` };
      // The keyring is asked where the base URL is the one its token was stored for.
      expect((await t.sct(['auth', 'token'], { env })).exitCode).toBe(4);
      expect(connections).toBeGreaterThan(0);
      connections = 0;
      for (const args of [['auth', 'token', '--base-url', 'junk'], ['whoami', '--base-url', 'ftp://x/api']]) {
        const r = await t.sct(args, { env });
        expect(r.exitCode, r.stderr).toBe(2);
        expect(r.stderr).toContain('error: invalid base URL: ');
      }
      const doctor = await t.sct(['doctor', '--base-url', 'junk', '-o', 'json'], { env });
      const token = JSON.parse(doctor.stdout).find((c: { name: string }) => c.name === 'token');
      expect(token).toEqual({ name: 'token', level: 'warn', detail: 'not checked: no stored token goes to an invalid base URL (base_url)' });
      expect(connections).toBe(0);
    } finally {
      await new Promise((r) => bus.close(r));
    }
  });

  it('auth logout with a base URL of another origin keeps the token: exit 4 "not logged in to", the hint says how to log out of the stored one', async () => {
    await login();
    const config = () => JSON.parse(readFileSync(join(t.dir, 'config.json'), 'utf8')).profiles.default;
    const cases: Array<[string[], Record<string, string | undefined>, string]> = [
      [['auth', 'logout', '--base-url', other.url], noEnvToken, 'run `sct auth logout` without --base-url to remove it'],
      [['auth', 'logout'], { ...noEnvToken, SCT_BASE_URL: other.url }, 'unset SCT_BASE_URL and run `sct auth logout` to remove it'],
      // SCT_TOKEN set changes nothing: the profile's token is not this base URL's.
      [['auth', 'logout', '--base-url', other.url], { SCT_TOKEN: OWNER, SCT_BASE_URL: undefined }, 'run `sct auth logout` without --base-url to remove it'],
    ];
    for (const [args, env, hint] of cases) {
      const r = await t.sct(args, { env });
      expect(r.exitCode, r.stderr).toBe(4);
      expect(r.stderr).toContain(`error: not logged in to ${other.url}`);
      expect(r.stderr).toContain(`hint: profile "default" holds a token for ${t.sb.url}, which stays: ${hint}`);
      expect(r.stderr).not.toContain('Logged out');
      expect(config()).toEqual({ base_url: t.sb.url, token: OWNER });
    }
    // A base URL with a password is shown masked.
    const secret = await t.sct(['auth', 'logout', '--base-url', other.url.replace('http://', 'http://alice:pw@')], { env: noEnvToken });
    expect(secret.exitCode).toBe(4);
    expect(secret.stderr).toContain('not logged in to http://***@');
    expect(secret.stderr).not.toContain(':pw@');
    expect(config()).toEqual({ base_url: t.sb.url, token: OWNER });
    // The token's own origin, however its path is written: logged out.
    const same = await t.sct(['auth', 'logout', '--base-url', `${t.sb.origin}/api/`], { env: noEnvToken });
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stderr).toContain('Logged out of profile "default" (token removed from the config file).');
    expect(config()).toEqual({ base_url: t.sb.url });

    // The profile's own base URL moved to another origin (config set): a logout without --base-url still removes its token.
    await login();
    expect((await t.sct(['config', 'set', 'base_url', other.url], { env: noEnvToken })).exitCode).toBe(0);
    const own = await t.sct(['auth', 'logout'], { env: noEnvToken });
    expect(own.exitCode, own.stderr).toBe(0);
    expect(config().token).toBeUndefined();
    expect(other.log).toEqual([]);
  });

  it('another scheme or port is another origin too', async () => {
    await login();
    const https = t.sb.url.replace('http:', 'https:');
    expectNotLoggedInTo(await t.sct(['whoami', '--base-url', https], { env: noEnvToken }), https);
    // Same origin, another path: still the service the token was stored for.
    const r = await t.sct(['whoami', '--base-url', `${t.sb.origin}/api/`], { env: noEnvToken });
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it('a profile stored before this rule: its base_url is the one its token was stored with', async () => {
    storedProfile({ base_url: t.sb.url, token: OWNER });
    expect((await t.sct(['whoami'], { env: noEnvToken })).exitCode).toBe(0);
    expectNotLoggedInTo(await t.sct(['whoami', '--base-url', other.url], { env: noEnvToken }), other.url);
    expect(other.log).toEqual([]);
  });

  it('config set base_url to another origin keeps the token bound to the one it was stored with', async () => {
    storedProfile({ base_url: t.sb.url, token: OWNER });
    expect((await t.sct(['config', 'set', 'base_url', other.url], { env: noEnvToken })).exitCode).toBe(0);
    expectNotLoggedInTo(await t.sct(['whoami'], { env: noEnvToken }), other.url);
    expect(other.log).toEqual([]);
    // Back to where it was stored: it is used again.
    expect((await t.sct(['config', 'set', 'base_url', t.sb.url], { env: noEnvToken })).exitCode).toBe(0);
    expect((await t.sct(['whoami'], { env: noEnvToken })).exitCode).toBe(0);
    // A new login binds it to the new base URL.
    expect((await t.sct(['auth', 'login', '--base-url', other.url, '--with-token', '--insecure-storage'], { input: OWNER, env: noEnvToken })).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(t.dir, 'config.json'), 'utf8')).profiles.default).toEqual({ base_url: other.url, token: OWNER });
    expect((await t.sct(['whoami'], { env: noEnvToken })).exitCode).toBe(0);
  });

  it('SCT_TOKEN goes to whatever base URL is in force', async () => {
    await login();
    const r = await t.sct(['whoami', '--base-url', other.url], { env: { SCT_TOKEN: OWNER } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(other.log.map((l) => l.authorization)).toEqual([`Bearer ${OWNER}`]);
  });

  it('doctor says whose token it is and sends it nowhere else; config profiles and invitations public need none', async () => {
    await login();
    const doctor = await t.sct(['doctor', '--base-url', other.url, '-o', 'json'], { env: noEnvToken });
    const token = JSON.parse(doctor.stdout).find((c: { name: string }) => c.name === 'token');
    expect(token).toMatchObject({ level: 'fail' });
    expect(token.detail).toContain(`not logged in to ${other.url}`);
    expect(other.log.every((l) => l.authorization === undefined)).toBe(true);

    const profiles = await t.sct(['config', 'profiles', '--base-url', other.url, '-o', 'json'], { env: noEnvToken });
    expect(profiles.exitCode, profiles.stderr).toBe(0);
    expect(JSON.parse(profiles.stdout)).toEqual([{ name: 'default', current: true, base_url: t.sb.url, token_storage: 'config file', token_held_back: false }]);

    other.reset();
    const invitation = JSON.parse((await t.sct(['invitations', 'create', '--email', 'public.view@invited.example', '--role', '3', '-o', 'json'])).stdout);
    other.reset();
    const pub = await t.sct(['invitations', 'public', invitation.id, '--base-url', other.url], { env: noEnvToken });
    expect(pub.exitCode, pub.stderr).toBe(0);
    expect(other.log).toHaveLength(1);
    expect(other.log[0].authorization).toBeUndefined();
  });
});

describe('plain http', () => {
  /** A TCP listener standing in for a proxy: it counts connections and closes them. */
  let proxy: Server;
  let connections = 0;
  beforeAll(async () => {
    proxy = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxy.unref();
  });
  afterAll(() => new Promise<void>((r) => proxy.close(() => r())));
  beforeEach(() => void (connections = 0));
  const viaProxy = () => ({ HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });

  it('a token is never sent over http:// to a host that is not loopback: exit 2, no connection made', async () => {
    const r = await t.sct(['whoami', '--base-url', 'http://sct-test.invalid/api'], { env: viaProxy() });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('http://sct-test.invalid');
    expect(r.stderr).toContain('https://');
    expect(r.stderr).toContain('SCT_ALLOW_HTTP=1');
    expect(connections).toBe(0);
    // auth login too: the token is checked with the service before it is stored.
    const login = await t.sct(['auth', 'login', '--base-url', 'http://sct-test.invalid/api', '--with-token'], { input: OWNER, env: { ...noEnvToken, ...viaProxy() } });
    expect(login.exitCode, login.stderr).toBe(2);
    expect(connections).toBe(0);
  });

  it('SCT_ALLOW_HTTP=1 lets it through, with a warning on each command', async () => {
    // Spawned: a proxy that drops every connection keeps an in-process proxy agent reconnecting.
    const r = await t.sctBin(['whoami', '--base-url', 'http://sct-test.invalid/api', '--timeout', '2s'], { env: { ...viaProxy(), SCT_ALLOW_HTTP: '1' } });
    expect(r.stderr).toMatch(/warning: .*plain http.*sct-test\.invalid.*SCT_ALLOW_HTTP/);
    expect(r.exitCode).toBe(1);
    expect(connections).toBeGreaterThan(0);
  });

  it('SCT_ALLOW_HTTP set to anything but 1 is said to be so: it allows nothing', async () => {
    const r = await t.sct(['whoami', '--base-url', 'http://sct-test.invalid/api'], { env: { ...viaProxy(), SCT_ALLOW_HTTP: 'true' } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('(it is "true": only 1 allows it)');
    expect(connections).toBe(0);
  });

  it('loopback is exempt: 127.0.0.0/8, localhost and ::1', async () => {
    const port = t.sb.port;
    for (const host of ['127.0.0.2', 'localhost', '[::1]', '[::ffff:127.0.0.1]']) {
      const r = await t.sct(['whoami', '--base-url', `http://${host}:${port}/api`, '--timeout', '5s']);
      expect(r.exitCode, `${host}: ${r.stderr}`).not.toBe(2);
      expect(r.stderr).not.toContain('SCT_ALLOW_HTTP');
    }
  });
});

describe('redirects', () => {
  // To another host, whose service would answer 401 to a request without the token; to https.
  it.each([
    ['another host', 302, () => `http://localhost:${t.sb.port}/api/accounts/me`],
    ['http → https', 301, () => `${other.url.replace('http:', 'https:')}/accounts/me`],
  ])('a redirect to %s is an error naming both URLs, not followed, never "the token was rejected"', async (_what, status, target) => {
    other.on('GET /api/accounts/me', answer(status, { location: target() }, {}));
    const r = await t.sct(['whoami', '--base-url', other.url]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${other.url}/accounts/me`);
    expect(r.stderr).toContain(target());
    expect(r.stderr).not.toContain('rejected');
    expect(other.log).toHaveLength(1);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('the hint names the base URL the redirect leads to, its path as the redirect has it', async () => {
    other.on('GET /api/accounts/me', answer(301, { location: 'https://moved.example/v2/api/accounts/me' }, {}));
    const r = await t.sct(['whoami', '--base-url', other.url]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('hint: if the service lives there now, use that address as the base URL: --base-url https://moved.example/v2/api ');
  });
});

describe('secrets in URLs, controls in headers', () => {
  it('a signed download URL is masked in the error when the download fails', async () => {
    const signed = `${t.sb.origin}/signed/SIGNATURE-IN-PATH?X-Signature=SIGNATURE-IN-QUERY`;
    other.on('GET /api/documents/4', answer(200, {}, { id: 4, name: 'report.pdf', content_type: 'application/pdf' }));
    other.on('GET /api/documents/4/download', answer(200, {}, { url: signed }));
    const r = await t.sct(['documents', 'download', '4', '--out', join(t.dir, 'x.pdf'), '--base-url', other.url, '-v']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`${t.sb.origin}/signed/`);
    expect(r.stderr).not.toContain('SIGNATURE-IN');
  });

  it("a storage service's error page repeating the signed upload URL never shows its credential", async () => {
    const signed = `${new URL(other.url).origin}/bucket/SIGNATURE-IN-PATH-123?X-Amz-Signature=SIGNATURE-IN-QUERY-456`;
    other.on('POST /api/documents', answer(201, {}, { id: 5, name: 'f.txt', upload_url: signed }));
    other.on('PUT /bucket/SIGNATURE-IN-PATH-123', (req, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(`<Error>denied for http://${req.headers.host}${req.url}</Error>`);
    });
    const file = join(t.dir, 'f.txt');
    writeFileSync(file, 'hello\n');
    const r = await t.sct(['documents', 'upload', file, '--base-url', other.url, '-v']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('denied for');
    expect(r.stderr).not.toContain('SIGNATURE-IN');
    // The same key would replay this very link: the way out is a new document.
    expect(r.stderr).toContain('if its link has expired, that key gives the same link again: run the command without it (a new document; 5 stays without a file)');
  });

  it("a storage service's error page repeating a signed link's signature alone never shows it", async () => {
    // As S3's SignatureDoesNotMatch: the parameter's value, without the rest of the link.
    const signed = `${new URL(other.url).origin}/bucket/report.pdf?X-Sig=QUERYSECRET88&expires=1`;
    other.on('GET /api/documents/8', answer(200, {}, { id: 8, name: 'report.pdf', content_type: 'application/pdf' }));
    other.on('GET /api/documents/8/download', answer(200, {}, { url: signed }));
    other.on('GET /bucket/report.pdf', (_req, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<Error><Code>SignatureDoesNotMatch</Code><SignatureProvided>QUERYSECRET88</SignatureProvided></Error>');
    });
    for (const json of [[], ['-o', 'json']]) {
      const r = await t.sct(['documents', 'download', '8', '--out', join(t.dir, 'r.pdf'), '--base-url', other.url, ...json]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('SignatureDoesNotMatch');
      expect(r.stderr + r.stdout).not.toContain('QUERYSECRET88');
    }
  });

  it("a signed link on the API's host that redirects to storage elsewhere is followed, without the token", async () => {
    // Storage on another port of this machine: another origin, which the token must not reach.
    const seen: (string | undefined)[] = [];
    const storageServer = createHttpServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('lot,weight\n');
    });
    storageServer.listen(0, '127.0.0.1');
    await once(storageServer, 'listening');
    const storage = `http://127.0.0.1:${(storageServer.address() as AddressInfo).port}/cdn/10`;
    other.on('GET /api/documents/10', answer(200, {}, { id: 10, name: 'lab.txt', content_type: 'text/plain' }));
    other.on('GET /api/documents/10/download', answer(200, {}, { url: `${other.url}/files/10?X-Sig=APISIGSECRET10` }));
    other.on('GET /api/files/10', answer(302, { location: storage }, {}));
    const out = join(t.dir, 'lab.txt');
    const r = await t.sct(['documents', 'download', '10', '--out', out, '--base-url', other.url, '-v']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('lot,weight\n');
    expect(seen).toEqual([undefined]);
    expect(r.stderr).not.toContain('APISIGSECRET10');
    storageServer.close();
  });

  it('a signed link whose storage redirects again: -v shows the next link without its credential, in the location line too', async () => {
    const storageServer = createHttpServer((req, res) => {
      if (req.url!.startsWith('/dl/')) {
        res.writeHead(302, { location: `http://127.0.0.1:${(storageServer.address() as AddressInfo).port}/blob/SECONDSIGNEDSEGMENT777` });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok\n');
    });
    storageServer.listen(0, '127.0.0.1');
    await once(storageServer, 'listening');
    try {
      const port = (storageServer.address() as AddressInfo).port;
      other.on('GET /api/documents/11', answer(200, {}, { id: 11, name: 'a.txt', content_type: 'text/plain' }));
      other.on('GET /api/documents/11/download', answer(200, {}, { url: `http://127.0.0.1:${port}/dl/FIRSTSIGNEDSEGMENT999` }));
      const r = await t.sct(['documents', 'download', '11', '--out', join(t.dir, 'a11.txt'), '--base-url', other.url, '-v']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain('< location: ');
      expect(r.stderr).not.toContain('SIGNEDSEGMENT');
    } finally {
      storageServer.close();
    }
  });

  it('a download endpoint that redirects to storage on another host is followed without the token; storage refusing the link is no "not authenticated"', async () => {
    const seen: (string | undefined)[] = [];
    const sent: { method?: string; key?: string | string[] }[] = [];
    let refuse = false;
    const storageServer = createHttpServer((req, res) => {
      seen.push(req.headers.authorization);
      sent.push({ method: req.method, key: req.headers['idempotency-key'] });
      if (refuse) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(`{"detail":"Signature expired for ${req.url}"}`);
      }
      res.writeHead(200, { 'content-type': 'application/zip' });
      res.end(Buffer.from('504b0506000000000000000000000000000000000000', 'hex'));
    });
    storageServer.listen(0, '127.0.0.1');
    await once(storageServer, 'listening');
    try {
      const storage = `http://127.0.0.1:${(storageServer.address() as AddressInfo).port}/bucket/SECRETPATHSEGMENT0123?X-Amz-Signature=SIG12345678`;
      // A 302 to a POST is a GET there, as curl and browsers send it; the Idempotency-Key stays with the service.
      other.on('POST /api/compliance/risk-assessments/1/evidence-downloads', answer(302, { location: storage }, {}));
      const r = await t.sct(['risk', 'evidence', '1', '--out', join(t.dir, 'ev1.zip'), '--base-url', other.url, '-v']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(seen).toEqual([undefined]);
      expect(sent).toEqual([{ method: 'GET', key: undefined }]);
      expect(r.stderr).not.toMatch(/SECRETPATHSEGMENT|SIG12345678/);
      refuse = true;
      for (const json of [[], ['-o', 'json']]) {
        const refused = await t.sct(['risk', 'evidence', '1', '--out', join(t.dir, 'ev2.zip'), '--base-url', other.url, '-v', ...json]);
        expect(refused.exitCode, refused.stderr).toBe(1);
        expect(refused.stderr).toContain('Signature expired');
        expect(refused.stderr).toContain('the link may have expired');
        expect(refused.stderr).not.toContain('public');
        expect(refused.stderr).not.toMatch(/SECRETPATHSEGMENT|SIG12345678/);
      }
    } finally {
      storageServer.close();
    }
  });

  it("documents download: the link's endpoint answering with a redirect to storage is refused, the link masked, and no advice to log in there", async () => {
    other.on('GET /api/documents/2', answer(200, {}, { id: 2, name: 'x.pdf' }));
    other.on('GET /api/documents/2/download', answer(302, { location: 'http://127.0.0.1:9/bucket/SECRETPATHSEGMENT0123?X-Amz-Signature=SIG12345678' }, {}));
    const r = await t.sct(['documents', 'download', '2', '--out', join(t.dir, 'x2.pdf'), '--base-url', other.url]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('sct does not follow a redirect away from the base URL');
    expect(r.stderr).not.toMatch(/SECRETPATHSEGMENT|SIG12345678/);
    expect(r.stderr).not.toContain('auth login');
  });

  it('risk evidence: a url in the answer that is no http(s) URL is refused, nothing requested with it', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', '//evil.example/x', '/api/evil']) {
      other.reset();
      other.on('POST /api/compliance/risk-assessments/1/evidence-downloads', answer(200, {}, { url }));
      const r = await t.sct(['risk', 'evidence', '1', '--out', join(t.dir, 'never.zip'), '--base-url', other.url]);
      expect(r.exitCode, `${url}: ${r.stderr}`).toBe(1);
      expect(r.stderr, url).toContain('its url is no http(s) URL');
      expect(other.log, url).toHaveLength(1);
    }
  });

  it('credentials in the base URL are masked in -v, errors and doctor', async () => {
    const withCredentials = other.url.replace('http://', 'http://someone:hunter2@');
    const v = await t.sct(['whoami', '--base-url', withCredentials, '-v']);
    expect(v.stderr).toContain('> GET http://');
    expect(v.stderr).not.toContain('hunter2');
    // whoami's own table names the base URL too.
    expect(v.stdout).toContain('Base URL');
    expect(v.stdout).not.toContain('hunter2');
    other.on('GET /api/accounts/me', answer(500, {}, { detail: 'boom' }));
    const failed = await t.sct(['whoami', '--base-url', withCredentials, '--timeout', '2s']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).not.toContain('hunter2');
    const doctor = await t.sct(['doctor', '--base-url', withCredentials]);
    expect(doctor.stdout).toContain('base_url');
    expect(doctor.stdout + doctor.stderr).not.toContain('hunter2');
    // Stored in a profile: config list and profiles show it masked, as the token beside it
    // (config get base_url, which asks for the value itself, prints it whole).
    expect((await t.sct(['config', 'set', 'base_url', withCredentials, '--profile', 'creds'])).exitCode).toBe(0);
    for (const args of [['config', 'list', '--profile', 'creds'], ['config', 'list', '--profile', 'creds', '-o', 'json'], ['config', 'profiles'], ['config', 'profiles', '-o', 'json']]) {
      const r = await t.sct(args);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout, args.join(' ')).toContain('***@');
      expect(r.stdout, args.join(' ')).not.toContain('hunter2');
    }
    expect((await t.sct(['config', 'get', 'base_url', '--profile', 'creds'])).stdout).toContain('hunter2');
  });

  it('SCT_CONFIG_DIR naming a file is exit 2 saying so, not mkdir\'s EEXIST', async () => {
    const file = t.writeFile('not-a-dir', 'x');
    const r = await t.sct(['whoami'], { env: { SCT_CONFIG_DIR: file } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: the config directory ${file} cannot be made: a file is there, not a directory`);
  });

  it('a rerun hint and an unknown --token=VALUE never repeat a secret typed on the command line', async () => {
    const withCredentials = t.sb.url.replace('http://', 'http://someone:hunter2@');
    const people = t.writeFile('hint-people.csv', 'email,auth_group\nhint.a@creds.example,3\nhint.b@creds.example,zz\n');
    const r = await t.sct(['invitations', 'bulk-create', '--file', people, '--skip-invalid', '--base-url', withCredentials]);
    expect(r.stderr).toContain('--base-url');
    expect(r.stderr).not.toContain('hunter2');
    for (const args of [['whoami', '--token=sct_secret_value_123'], ['whoami', '--token=sct_secret_value_123', '-o', 'json'], ['orders', 'list', '--token', 'sct_secret_value_123'], ['whoami', '--tokn=sct_secret_value_123'], ['whoami', '--bearer=sct_secret_value_123', '-o', 'json'], ['whoami', '--api-key=sct_secret_value_123'], ['orders', 'list', '-xsct_secret_value_123'], ['orders', 'list', '-qxsct_secret_value_123'], ['orders', 'list', "--tokn=ab'sct_secret_value_123"]]) {
      const bad = await t.sct(args);
      expect(bad.exitCode, args.join(' ')).toBe(2);
      expect(bad.stderr, args.join(' ')).not.toContain('sct_secret_value_123');
      // The option is named, as gh names an unknown flag; what followed its = is not repeated.
      expect(bad.stderr, args.join(' ')).toMatch(/--(token|tokn|bearer|api-key)|'-x'/);
    }
  });

  it('proxy credentials are masked in -v and in errors', async () => {
    // A host that is not this machine's (a loopback one is never proxied); the proxy refuses at once.
    const r = await t.sct(['whoami', '-v', '--timeout', '2s', '--base-url', 'https://sct.test/api'], { env: { HTTPS_PROXY: 'http://proxyuser:proxysecret@127.0.0.1:1' } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('proxysecret');
  });

  it('C1 control characters in response headers never reach the terminal through -v', async () => {
    other.on('GET /api/accounts/me', (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json\u009b2J\u0085', 'x-ratelimit-limit': '1000\u009d0;title\u009c' });
      res.end('{"detail":"no"}');
    });
    const r = await t.sct(['whoami', '--base-url', other.url, '-v']);
    expect(r.stderr).toContain('< content-type: application/json');
    expect(r.stderr).not.toMatch(/[\u0080-\u009f]/);
  });

  it("the sandbox's request log masks tokens, wherever a request repeats its own (query, another header, body)", async () => {
    expect((await t.sct(['whoami'])).exitCode).toBe(0);
    await fetch(`${t.sb.url}/products?t=${OWNER}`, { headers: { Authorization: `Bearer ${OWNER}`, 'X-Debug': OWNER } });
    await fetch(`${t.sb.url}/products`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: OWNER }) });
    const log = await (await fetch(`${t.sb.origin}/_sandbox/requests`)).text();
    expect(log).toContain('"authorization"');
    expect(log).not.toContain(OWNER);
  });
});
