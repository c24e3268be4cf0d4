// Profiles as a user meets them: a named profile that does not exist is a typo said as one
// (exit 2, the profiles listed, nothing sent), `config profiles` lists them, and a refused
// SCT_TOKEN is named as the cause rather than sending the user to `auth login`.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });

describe('profiles', () => {
  it('a token stored with no base URL (a file written by hand) goes to no URL set after it; config says so', async () => {
    const dir = join(t.dir, `handwritten-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { token: OWNER } } }), { mode: 0o600 });
    const env = { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined, SCT_BASE_URL: undefined };
    const set = await t.sct(['config', 'set', 'base_url', t.sb.url], { env });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toContain(`profile "default"'s token was stored for no URL: it is not sent to ${t.sb.url}`);
    const before = t.sb.requests.length;
    const who = await t.sct(['whoami'], { env });
    expect(who.exitCode).toBe(4);
    expect(t.sb.requests.length).toBe(before);
    const list = await t.sct(['config', 'profiles'], { env });
    expect(list.stdout).toMatch(/default\s+\S+\s+config file \(stored for another URL: not sent\)/);
  });

  it('config set base_url to a URL holding a password names no login to copy that would log in as "***"', async () => {
    const dir = join(t.dir, `masked-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { adm: { base_url: t.sb.url, token: OWNER, token_base_url: t.sb.url } } }), { mode: 0o600 });
    const set = await t.sct(['--profile', 'adm', 'config', 'set', 'base_url', 'http://u:pw@127.0.0.1:9/api'], { env: { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toContain('it is not sent to http://***@127.0.0.1:9/api; run `sct auth login --profile adm --base-url URL` with that URL to log in there');
    expect(set.stderr).not.toContain('pw@');
    // A URL it can repeat, quoted as a shell reads it back.
    const spaced = await t.sct(['--profile', 'adm', 'config', 'set', 'base_url', 'http://127.0.0.1:9/a b/api'], { env: { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(spaced.stderr).toContain("run `sct auth login --profile adm --base-url 'http://127.0.0.1:9/a b/api'` to log in there");
  });

  it('not logged in at a plain http URL of another host: the login hint names its https form, not one sct refuses', async () => {
    const dir = join(t.dir, `plain-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    const r = await t.sct(['whoami', '--base-url', 'http://sct.test:443/api'], { env: { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('run `sct auth login --base-url https://sct.test:443/api`');
    // Loopback over http is let through: the hint keeps the URL given.
    const local = await t.sct(['whoami', '--base-url', 'http://127.0.0.1:9/api'], { env: { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(local.stderr).toContain('run `sct auth login --base-url http://127.0.0.1:9/api`');
    // As a shell reads it back: an & in a gateway's path quoted.
    const amp = await t.sct(['whoami', '--base-url', 'http://sct.test/a&b/api'], { env: { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(amp.stderr).toContain("run `sct auth login --base-url 'https://sct.test/a&b/api'`");
    // A gateway's user and password are never dropped into an https form to copy, nor shown.
    const creds = await t.sct(['whoami', '--base-url', 'http://u:pw@sct.test/api'], { env: { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(creds.exitCode).toBe(4);
    expect(creds.stderr).not.toContain('https://sct.test/api');
    expect(creds.stderr).not.toContain('pw@');
    // Nor left out, which would log in to the profile's own service: asked for in words.
    expect(creds.stderr).toContain('run `sct auth login --base-url URL` with the base URL you gave or set SCT_TOKEN');
  });

  it('a --profile or SCT_PROFILE naming no profile is exit 2 naming it and the profiles, nothing sent', async () => {
    const empty = await t.sct(['whoami', '--profile', 'other']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('error: no profile "other" (--profile): the profiles are default\n');
    expect((await t.sct(['config', 'set', 'output', 'json', '--profile', 'work'])).exitCode).toBe(0);
    const flag = await t.sct(['orders', 'list', '--buying', '--profile', 'nope']);
    expect(flag.exitCode, flag.stderr).toBe(2);
    // The default profile is one of them, as `config profiles` lists it, entry or not.
    expect(flag.stderr).toContain('error: no profile "nope" (--profile): the profiles are default, work\n');
    expect(flag.stderr).toContain('sct auth login --profile nope');
    const env = await t.sct(['auth', 'status'], { env: { SCT_PROFILE: 'nope' } });
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toContain('error: no profile "nope" (SCT_PROFILE)');
    // Listing the profiles too: it would show one that is not there as the current one.
    // config path too: the path is the same whatever the profile, but the name is a typo.
    const path = await t.sct(['config', 'path', '--profile', 'nope']);
    expect(path.exitCode).toBe(2);
    expect(path.stderr).toContain('error: no profile "nope" (--profile)');
    const list = await t.sct(['config', 'profiles'], { env: { SCT_PROFILE: 'nope' } });
    expect(list.exitCode).toBe(2);
    expect(list.stderr).toContain('error: no profile "nope" (SCT_PROFILE): the profiles are default, work\n');
    expect(t.sb.requests).toHaveLength(0);
    // The default profile needs no entry: the environment alone is enough.
    expect((await t.sct(['whoami'])).exitCode).toBe(0);
  });

  it('the default profile needs no entry when named either: --profile default, SCT_PROFILE=default', async () => {
    expect((await t.sct(['whoami', '--profile', 'default'])).exitCode).toBe(0);
    expect((await t.sct(['whoami'], { env: { SCT_PROFILE: 'default' } })).exitCode).toBe(0);
    expect((await t.sct(['config', 'set', 'output', 'json', '--profile', 'work'])).exitCode).toBe(0);
    const named = await t.sct(['whoami', '--profile', 'default']);
    expect(named.exitCode, named.stderr).toBe(0);
  });

  it('a base URL that is not http or https is exit 2, "invalid base URL", whatever token the profile holds', async () => {
    const login = await t.sct(['auth', 'login', '--with-token', '--base-url', t.sb.url, '--insecure-storage'], { input: OWNER + '\n', env: { SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(login.exitCode, login.stderr).toBe(0);
    t.sb.requests.length = 0;
    for (const [args, env] of [
      [['whoami', '--base-url', 'ftp://x.test/api'], {}],
      [['whoami'], { SCT_BASE_URL: 'file:///etc/passwd' }],
    ] as const) {
      const r = await t.sct([...args], { env: { SCT_TOKEN: undefined, SCT_BASE_URL: undefined, ...env } });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('invalid base URL');
      expect(r.stderr).not.toContain('not logged in');
    }
    expect(t.sb.requests).toHaveLength(0);
  });

  it('nothing configured (no base URL, no token) is "not logged in", exit 4, with the login that works', async () => {
    const fresh = { SCT_TOKEN: undefined, SCT_BASE_URL: undefined };
    for (const args of [['whoami'], ['orders', 'list', '--buying'], ['auth', 'status']]) {
      const r = await t.sct(args, { env: fresh });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toContain('not logged in');
      expect(r.stderr).toContain('sct auth login --base-url https://…/api');
    }
    // A token but no base URL is a setting missing, not a login: exit 2.
    const token = await t.sct(['whoami'], { env: { SCT_BASE_URL: undefined } });
    expect(token.exitCode).toBe(2);
    expect(token.stderr).toContain('no base URL configured');
  });

  it('auth login and config set create the profile they name', async () => {
    const login = await t.sct(['auth', 'login', '--with-token', '--profile', 'ci', '--base-url', t.sb.url], { input: OWNER + '\n', env: { SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(login.exitCode, login.stderr).toBe(0);
    const set = await t.sct(['config', 'set', 'base_url', 'http://x.test/api', '--profile', 'other']);
    expect(set.exitCode, set.stderr).toBe(0);

    const list = await t.sct(['config', 'profiles', '--profile', 'ci', '-o', 'json']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'ci', current: true, base_url: t.sb.url, token_storage: 'config file', token_held_back: false },
      { name: 'other', current: false, base_url: 'http://x.test/api', token_storage: 'none', token_held_back: false },
      // There without an entry, as the "no profile" error says.
      { name: 'default', current: false, base_url: null, token_storage: 'none', token_held_back: false },
    ]);
    const table = await t.sct(['config', 'profiles'], { env: { SCT_PROFILE: 'other' } });
    expect(table.stdout).toMatch(/^\*\s+other\s+http:\/\/x\.test\/api\s+none$/m);
    expect(table.stdout).toMatch(/^\s+ci\s+/m);
  });

  it("the hints to log in name the profile in use, so following them logs that profile in", async () => {
    expect((await t.sct(['config', 'set', 'base_url', t.sb.url, '--profile', 'staging'])).exitCode).toBe(0);
    const none = await t.sct(['whoami', '--profile', 'staging'], { env: { SCT_TOKEN: undefined } });
    expect(none.exitCode).toBe(4);
    expect(none.stderr).toContain('run `sct auth login --profile staging` or set SCT_TOKEN');
    const status = await t.sct(['auth', 'status', '--profile', 'staging'], { env: { SCT_TOKEN: undefined } });
    expect(status.exitCode).toBe(4);
    expect(status.stderr).toContain('sct auth login --profile staging');

    const login = await t.sct(['auth', 'login', '--with-token', '--profile', 'revoked', '--base-url', t.sb.url], { input: OWNER + '\n', env: { SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(login.exitCode, login.stderr).toBe(0);
    // The stored token refused later (revoked): the profile is named in the hint too.
    const cfg = await t.sct(['config', 'path']);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const path = cfg.stdout.trim();
    writeFileSync(path, readFileSync(path, 'utf8').replace(OWNER, 'sct_revoked_token_000'));
    const refused = await t.sct(['whoami', '--profile', 'revoked'], { env: { SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain('the token was rejected: run `sct auth login --profile revoked`');
  });

  it('a token from SCT_TOKEN that the service refuses: the hint names SCT_TOKEN, not auth login', async () => {
    const r = await t.sct(['orders', 'list', '--buying'], { env: { SCT_TOKEN: 'sct_not_a_real_token' } });
    expect(r.exitCode).toBe(4);
    // This profile stores no token: unsetting the variable alone would leave none.
    expect(r.stderr).toContain('the token in SCT_TOKEN was rejected: set SCT_TOKEN to a valid token, or unset it and run `sct auth login` (the profile stores no token for this base URL)');
    const stored = await t.sct(['auth', 'login', '--with-token', '--profile', 'keeps', '--base-url', t.sb.url, '--insecure-storage'], { input: OWNER + '\n', env: { SCT_TOKEN: undefined, SCT_BASE_URL: undefined } });
    expect(stored.exitCode, stored.stderr).toBe(0);
    const over = await t.sct(['orders', 'list', '--buying', '--profile', 'keeps'], { env: { SCT_TOKEN: 'sct_not_a_real_token' } });
    expect(over.exitCode).toBe(4);
    expect(over.stderr).toContain("the token in SCT_TOKEN was rejected: set SCT_TOKEN to a valid token, or unset it to use the profile's stored token");
    expect(over.stderr).not.toContain('auth login');
    // Stored for another origin than the one in force: unsetting SCT_TOKEN would not send it.
    const elsewhere = await t.sct(['orders', 'list', '--buying', '--profile', 'keeps'], { env: { SCT_TOKEN: 'sct_not_a_real_token', SCT_BASE_URL: t.sb.url.replace('127.0.0.1', 'localhost') } });
    expect(elsewhere.exitCode).toBe(4);
    expect(elsewhere.stderr).toContain('or unset it and run `sct auth login --profile keeps` (the profile stores no token for this base URL)');
    // Given as --base-url, the login that helps names it (without, it would log in to the profile's own).
    const other = t.sb.url.replace('127.0.0.1', 'localhost');
    const flag = await t.sct(['orders', 'list', '--buying', '--profile', 'keeps', '--base-url', other], { env: { SCT_TOKEN: 'sct_not_a_real_token' } });
    expect(flag.exitCode).toBe(4);
    expect(flag.stderr).toContain(`or unset it and run \`sct auth login --profile keeps --base-url ${other}\` (the profile stores no token for this base URL)`);
  });

  it('not logged in with a --base-url given: the login to run names it (without, it would have no base URL)', async () => {
    const r = await t.sctBin(['whoami', '--base-url', t.sb.url], { env: { SCT_TOKEN: undefined } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(`hint: run \`sct auth login --base-url ${t.sb.url}\` or set SCT_TOKEN`);
  });

  it('config profiles lists the default profile whichever is current, as the "no profile" error names it', async () => {
    expect((await t.sct(['config', 'set', 'output', 'json', '--profile', 'work'])).exitCode).toBe(0);
    const r = await t.sctBin(['config', 'profiles', '--profile', 'work', '--json', 'name,current']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ name: 'work', current: true }, { name: 'default', current: false }]);
  });
});

describe('config and auth token output as the flags ask', () => {
  it('config get and config path filter with --jq; a field they do not print is exit 2, as on every command', async () => {
    const dir = join(t.dir, `shaped-${Date.now()}`);
    const env = { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined };
    expect((await t.sct(['config', 'set', 'output', 'csv'], { env })).exitCode).toBe(0);
    const bogus = await t.sct(['config', 'get', 'output', '--jq', '.bogus'], { env });
    expect([bogus.exitCode, bogus.stdout]).toEqual([0, 'null\n']);
    expect((await t.sct(['config', 'get', 'output', '--jq', '.output'], { env })).stdout).toBe('csv\n');
    expect((await t.sct(['config', 'path', '--jq', '.path | length'], { env })).stdout).toBe(`${join(dir, 'config.json').length}\n`);
    for (const args of [['config', 'get', 'output', '--json', 'base_url'], ['config', 'get', 'output', '--json', 'token'], ['config', 'list', '--json', 'bogus'], ['auth', 'token', '--json', 'bogus']]) {
      const r = await t.sct(args, { env: { ...env, SCT_TOKEN: args[0] === 'auth' ? OWNER : undefined } });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).not.toContain('`sct config get token`');
    }
    // -o csv of one setting: its one column.
    expect((await t.sct(['config', 'get', 'output', '-o', 'csv'], { env })).stdout).toBe('output\ncsv\n');
  });
});

describe('a config file that is not a file', () => {
  it('a FIFO at config.json is an error at once, never a wait that Ctrl-C cannot end', async () => {
    const { execFileSync } = await import('node:child_process');
    const { join } = await import('node:path');
    execFileSync('mkfifo', [join(t.dir, 'config.json')]);
    const started = Date.now();
    const r = await t.sctBin(['config', 'list'], { timeout: 10_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/cannot read the config file .*config\.json: not a regular file/);
    expect(r.stderr).toContain('fix the file, or move it away to start over');
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(t.sb.requests).toHaveLength(0);
  });
});

describe('a config file as editors leave it', () => {
  it('a UTF-8 byte-order mark (Notepad) is read past, an empty file is one with no profiles', async () => {
    const { join } = await import('node:path');
    const { readFileSync, writeFileSync } = await import('node:fs');
    const file = join(t.dir, 'config.json');
    writeFileSync(file, `\uFEFF${JSON.stringify({ profiles: { default: { output: 'json' } } })}`, { mode: 0o600 });
    const bom = await t.sctBin(['config', 'get', 'output']);
    expect(bom.exitCode, bom.stderr).toBe(0);
    expect(bom.stdout.trim()).toBe('json');
    writeFileSync(file, '', { mode: 0o600 });
    const login = await t.sctBin(['auth', 'login', '--with-token', '--base-url', t.sb.url, '--insecure-storage'], { input: OWNER, env: { SCT_TOKEN: undefined } });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.base_url).toBe(t.sb.url);
  });
});

describe('a config file sct can read but not use', () => {
  it('is exit 2 ("invalid file"), naming the file and what is wrong; doctor still prints every line', async () => {
    const { join } = await import('node:path');
    const { writeFileSync } = await import('node:fs');
    const file = join(t.dir, 'config.json');
    for (const [text, said] of [
      ['{"profiles":{"default":{"base_url":"http://x"', /cannot read the config file .*config\.json: not valid JSON/],
      // A trailing comma on line 3, as a hand edit leaves one: where it is, not a byte offset.
      ['{\n  "profiles": {\n    "default": {"output": "json",}\n  }\n}\n', /cannot read the config file .*config\.json: not valid JSON at line 3, column 34 /],
      ['{"profiles":{"default":{"base_url":42,"token":"sct_demo_owner_cacao"}}}', /the config file .*config\.json is not valid: profile "default" has a base_url that is a number, not text/],
      // A token kept in another shape (a newer sct's, a hand edit's) is never printed.
      ['{"profiles":{"default":{"base_url":"http://x","token":{"value":"sct_live_SUPERSECRET123"}}}}', /the config file .*config\.json is not valid: profile "default" has a token that is an object, not text/],
      ['{"profiles":{"default":{"base_url":"http://x","token":["sct_live_SUPERSECRET123"]}}}', /profile "default" has a token that is a list, not text/],
      ['[1,2]', /the config file .*config\.json is not valid: not a JSON object/],
      // A profile that is no object is never read as an empty one (a later write would drop it).
      ['{"profiles":{"default":["a","b"]}}', /the config file .*config\.json is not valid: profile "default" is not an object/],
    ] as const) {
      writeFileSync(file, text, { mode: 0o600 });
      const r = await t.sctBin(['whoami']);
      expect(r.exitCode, `${text}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(said);
      expect(r.stderr).not.toContain('SUPERSECRET');
      expect((await t.sctBin(['doctor', '-o', 'json'])).stdout).not.toContain('SUPERSECRET');
      expect(r.stderr).toContain('fix the file, or move it away to start over');
      expect(r.stderr).not.toContain('is not a function');
    }
    // An output this sct does not know (a newer sct's `yaml`, a typo) stops only what would use
    // it: -o wins, and config set/unset mend it; the file is never to be moved away, token and all.
    writeFileSync(file, JSON.stringify({ profiles: { default: { base_url: t.sb.url, token: 'sct_demo_owner_cacao', output: 'yaml' } } }), { mode: 0o600 });
    const unknown = await t.sctBin(['whoami'], { env: { SCT_TOKEN: undefined } });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('error: the profile "default" has output "yaml" (in the config file), which is not one of table, json, ndjson, csv');
    expect(unknown.stderr).toContain('hint: give -o FORMAT, or set it: sct config set output table');
    expect((await t.sctBin(['whoami', '-o', 'json'], { env: { SCT_TOKEN: undefined } })).exitCode).toBe(0);
    // Refused before anything is sent: a write whose output came after it would be made, then fail.
    t.sb.requests.length = 0;
    const write = await t.sctBin(['products', 'create', '--name', 'Yaml product', '--commodity', 'cocoa'], { env: { SCT_TOKEN: undefined } });
    expect(write.exitCode).toBe(2);
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    // doctor says it as a check, with the others.
    const checks = await t.sctBin(['doctor'], { env: { SCT_TOKEN: undefined } });
    expect(checks.exitCode).toBe(1);
    expect(checks.stdout).toMatch(/^fail\s+config\s+the profile "default" has output "yaml" \(in the config file\), which is not one of table, json, ndjson, csv: sct config set output table$/m);
    expect(checks.stdout).toMatch(/^ok\s+token\s/m);
    expect((await t.sctBin(['config', 'get', 'output'], { env: { SCT_TOKEN: undefined } })).stdout).toBe('yaml\n');
    // Commands that never print with the profile's output run as ever.
    expect((await t.sctBin(['auth', 'token'], { env: { SCT_TOKEN: undefined } })).stdout).toBe('sct_demo_owner_cacao\n');
    expect((await t.sctBin(['completion', 'bash'], { env: { SCT_TOKEN: undefined } })).exitCode).toBe(0);
    expect((await t.sctBin(['api', '/accounts/me'], { env: { SCT_TOKEN: undefined } })).exitCode).toBe(0);
    // The way out names the profile it is for.
    writeFileSync(file, JSON.stringify({ profiles: { default: { base_url: t.sb.url, token: 'sct_demo_owner_cacao' }, other: { base_url: t.sb.url, token: 'sct_demo_owner_cacao', output: 'yaml' } } }), { mode: 0o600 });
    expect((await t.sctBin(['--profile', 'other', 'whoami'], { env: { SCT_TOKEN: undefined } })).stderr).toContain('hint: give -o FORMAT, or set it: sct --profile other config set output table');
    expect((await t.sctBin(['config', 'profiles', '-o', 'json'], { env: { SCT_TOKEN: undefined } })).exitCode).toBe(0);
    expect((await t.sctBin(['config', 'unset', 'output'], { env: { SCT_TOKEN: undefined } })).exitCode).toBe(0);
    expect((await t.sctBin(['config', 'set', 'output', 'json'], { env: { SCT_TOKEN: undefined } })).exitCode).toBe(0);
    expect((await t.sctBin(['whoami'], { env: { SCT_TOKEN: undefined } })).exitCode).toBe(0);
    // An output written in capitals by hand is the format it names, as `-o JSON` is.
    writeFileSync(file, JSON.stringify({ profiles: { default: { base_url: t.sb.url, token: 'sct_demo_owner_cacao', output: 'JSON' } } }), { mode: 0o600 });
    const upper = await t.sctBin(['whoami'], { env: { SCT_TOKEN: undefined } });
    expect(upper.exitCode, upper.stderr).toBe(0);
    expect(() => JSON.parse(upper.stdout)).not.toThrow();
    t.sb.requests.length = 0;
    writeFileSync(file, '[1,2]', { mode: 0o600 });
    // config path still says where the file is, to mend it.
    const where = await t.sctBin(['config', 'path']);
    expect(where.exitCode, where.stderr).toBe(0);
    expect(where.stdout.trim()).toBe(file);
    const doctor = await t.sctBin(['doctor', '-o', 'json']);
    const lines = JSON.parse(doctor.stdout) as Array<{ name: string; level: string }>;
    expect(lines.find((l) => l.name === 'config')?.level).toBe('fail');
    expect(lines.map((l) => l.name)).toEqual(expect.arrayContaining(['node', 'config', 'proxy', 'base_url', 'token']));
    expect(t.sb.requests).toHaveLength(0);
  });

  it('a relative XDG_CONFIG_HOME or XDG_CACHE_HOME is ignored (XDG base directories are absolute): no token file under the current directory', async () => {
    const home = join(t.dir, 'home');
    const project = join(t.dir, 'project');
    mkdirSync(project, { recursive: true });
    const env = { SCT_CONFIG_DIR: undefined, HOME: home, XDG_CONFIG_HOME: 'relcfg', XDG_CACHE_HOME: 'relcache', SCT_TOKEN: undefined };
    const login = await t.sctBin(['auth', 'login', '--with-token', '--base-url', t.sb.url, '--insecure-storage'], { env, input: OWNER, cwd: project });
    expect(login.exitCode, login.stderr).toBe(0);
    const where = await t.sctBin(['config', 'path'], { env, cwd: project });
    expect(where.stdout.trim()).toBe(join(home, '.config', 'sct', 'config.json'));
    expect((await t.sctBin(['whoami'], { env, cwd: project })).exitCode).toBe(0);
    expect(existsSync(join(project, 'relcfg'))).toBe(false);
    expect(existsSync(join(project, 'relcache'))).toBe(false);
  });

  it('an SCT_CONFIG_DIR of blanks is unset, and one starting with a ~ no shell expanded is under the home: never a token file under the current directory', async () => {
    const home = join(t.dir, 'home-tilde');
    const project = join(t.dir, 'project-tilde');
    mkdirSync(project, { recursive: true });
    for (const [given, expected] of [[' ', join(home, '.config', 'sct')], ['~/sct-conf', join(home, 'sct-conf')], ['~', home]] as const) {
      const env = { SCT_CONFIG_DIR: given, HOME: home, XDG_CONFIG_HOME: undefined, SCT_TOKEN: undefined };
      const where = await t.sctBin(['config', 'path'], { env, cwd: project });
      expect(where.stdout.trim(), JSON.stringify(given)).toBe(join(expected, 'config.json'));
    }
    // `~user/…` is no home sct can find: refused, never a directory of that name here.
    const other = await t.sctBin(['config', 'set', 'output', 'json'], { env: { SCT_CONFIG_DIR: '~root/sctx', HOME: home }, cwd: project });
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('SCT_CONFIG_DIR "~root/sctx": only ~ and ~/… are taken as the home');
    const login = await t.sctBin(['auth', 'login', '--with-token', '--base-url', t.sb.url, '--insecure-storage'], { env: { SCT_CONFIG_DIR: '~/sct-conf', HOME: home, SCT_TOKEN: undefined }, input: OWNER, cwd: project });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(readdirSync(project)).toEqual([]);
  });

  it('auth logout of a profile whose token a newer sct keeps elsewhere removes nothing and says so, never "token removed"', async () => {
    const { writeFileSync, readFileSync } = await import('node:fs');
    const file = join(t.dir, 'config.json');
    const stored = { base_url: t.sb.url, token_storage: 'credential-helper', token_account: `default@${t.sb.url}` };
    writeFileSync(file, JSON.stringify({ profiles: { default: stored } }), { mode: 0o600 });
    const r = await t.sctBin(['auth', 'logout'], { env: { SCT_TOKEN: undefined } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('profile "default" keeps its token in "credential-helper", which this version of sct does not know: nothing was removed');
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual(stored);
    // A login over it says the earlier token stays where that sct put it.
    const login = await t.sctBin(['auth', 'login', '--base-url', t.sb.url, '--with-token', '--insecure-storage'], { env: { SCT_TOKEN: undefined }, input: OWNER });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toContain('warning: profile "default" kept its earlier token in "credential-helper", which this version of sct does not know: that token stays there');
  });

  it('an empty or relative HOME is no home: the system\'s record of the user is, as when HOME is unset — never the current directory', async () => {
    const project = join(t.dir, 'project-home');
    mkdirSync(project, { recursive: true });
    const passwd = userInfo().homedir;
    for (const HOME of ['', 'relhome']) {
      const env = { SCT_CONFIG_DIR: undefined, HOME, XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined, SCT_TOKEN: undefined };
      const where = await t.sctBin(['config', 'path'], { env, cwd: project });
      expect(where.exitCode, where.stderr).toBe(0);
      expect(where.stdout.trim()).toBe(join(passwd, '.config', 'sct', 'config.json'));
      // The code cache too (`config path` loads the hot file, whose cache is written after it).
      expect(readdirSync(project)).toEqual([]);
    }
  });
});

describe('a config directory sct cannot make', () => {
  it('reads need none: the environment alone runs a command, and nothing is created for a read', async () => {
    const file = t.writeFile('a-file', 'x');
    const blocked = join(file, 'sct');
    const env = { SCT_CONFIG_DIR: blocked, SCT_TOKEN: OWNER };
    const list = await t.sctBin(['orders', 'list', '--buying', '--limit', '1', '-o', 'json'], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    // Roles asked of the service are used even when they cannot be kept (a read-only mount).
    const invite = await t.sctBin(['invitations', 'create', '--email', 'ro@example.com', '--role', 'admin', '--dry-run', '-o', 'json'], { env });
    expect(invite.exitCode, invite.stderr).toBe(0);
    expect(invite.stdout).toContain('"auth_group":2');
    // A write says where it could not go.
    const set = await t.sctBin(['config', 'set', 'output', 'json'], { env });
    expect(set.exitCode).toBe(2);
    expect(set.stderr).toContain(`the config directory ${blocked} cannot be made`);
    const fresh = join(t.dir, 'never', 'made');
    expect((await t.sctBin(['orders', 'get', '1'], { env: { SCT_CONFIG_DIR: fresh, SCT_TOKEN: OWNER } })).exitCode).toBe(0);
    expect(existsSync(fresh)).toBe(false);
  });

  it('a relative SCT_CONFIG_DIR in a directory that was removed is an error at once, never a hang', async () => {
    const { execa } = await import('execa');
    const script = `mkdir -p gone && cd gone && rmdir ../gone && exec '${process.execPath}' '${BIN}' config set output json`;
    const r = await execa('bash', ['-c', script], { cwd: t.dir, reject: false, timeout: 15_000, env: { SCT_CONFIG_DIR: 'rel/cfg', HOME: t.dir } });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('the current directory no longer exists');
  });
});
