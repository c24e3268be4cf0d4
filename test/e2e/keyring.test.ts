// Where the token is kept: the OS keyring when there is one, else the 0600 config file.
//
// The normal test environment has no D-Bus session, so no Secret Service: the file fallback.
// The real Secret Service is exercised under `dbus-run-session` with gnome-keyring-daemon (both
// installed by .ci/run in CI); that part is skipped only when either program is missing.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN, removeDir, runSct, tempDir } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });
const noEnvToken = { SCT_TOKEN: undefined, SCT_BASE_URL: undefined };
const storedProfile = (dir: string, name = 'default'): Record<string, string> =>
  JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles[name];

describe('without a keyring (no D-Bus session): the config file', () => {
  it('auth login falls back to the 0600 file with one warning, also under -q; status, profiles, token and logout say and use it', async () => {
    const login = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token'], { input: OWNER, env: noEnvToken });
    expect(login.exitCode, login.stderr).toBe(0);
    const info = login.stderr.split('\n').filter((l) => l.includes('keyring'));
    expect(info).toHaveLength(1);
    expect(info[0]).toMatch(/^warning: the system keyring cannot be used \(no D-Bus session, so no Secret Service\): the token is kept in the config file .*config\.json \(mode 0600\)/);
    expect(login.stdout + login.stderr).not.toContain(OWNER);
    expect(statSync(join(t.dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(storedProfile(t.dir)).toEqual({ base_url: t.sb.url, token: OWNER });
    // Where the secret went is no progress line: -q does not hide it.
    const quiet = await t.sct(['-q', 'auth', 'login', '--base-url', t.sb.url, '--with-token'], { input: OWNER, env: noEnvToken });
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stderr).toMatch(/^warning: the system keyring cannot be used .*: the token is kept in the config file .*\(mode 0600\)/m);

    const status = await t.sct(['auth', 'status'], { env: noEnvToken });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Token storage\s+config file$/m);
    expect(status.stdout).not.toContain(OWNER);
    const json = JSON.parse((await t.sct(['auth', 'status', '--json'], { env: noEnvToken })).stdout);
    expect(json).toMatchObject({ token_source: 'profile', token_storage: 'config file' });

    const profiles = JSON.parse((await t.sct(['config', 'profiles', '--json'], { env: noEnvToken })).stdout);
    expect(profiles).toEqual([{ name: 'default', current: true, base_url: t.sb.url, token_storage: 'config file', token_held_back: false }]);

    expect((await t.sct(['auth', 'token'], { env: noEnvToken })).stdout).toBe(OWNER + '\n');

    const logout = await t.sct(['auth', 'logout'], { env: noEnvToken });
    expect(logout.exitCode).toBe(0);
    expect(logout.stderr).toContain('Logged out of profile "default" (token removed from the config file).');
    expect(storedProfile(t.dir)).toEqual({ base_url: t.sb.url });
    expect((await t.sct(['auth', 'token'], { env: noEnvToken })).exitCode).toBe(4);
  });

  it('a config file holding the token that others may read is warned of when the token is used; 0600 is not', async () => {
    writeFileSync(join(t.dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: t.sb.url, token: OWNER } } }), { mode: 0o600 });
    const quiet = await t.sct(['whoami'], { env: noEnvToken });
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('mode');
    chmodSync(join(t.dir, 'config.json'), 0o644);
    const open = await t.sct(['whoami'], { env: noEnvToken });
    expect(open.exitCode, open.stderr).toBe(0);
    expect(open.stderr).toContain(`warning: ${join(t.dir, 'config.json')} holds the token and has mode 644: other users of this machine may read it; \`chmod 600 "${join(t.dir, 'config.json')}"\``);
    // doctor says it as its own check's failure, not a second time as a warning.
    const doctor = await t.sct(['doctor'], { env: noEnvToken });
    expect(doctor.stdout).toMatch(/^fail\s+config\s.*mode 644/m);
    expect(doctor.stderr).not.toContain('holds the token');
    // SCT_TOKEN is what is sent then: the file's token is not.
    expect((await t.sct(['whoami'], { env: { SCT_TOKEN: OWNER } })).stderr).not.toContain('holds the token');
  });

  it('--insecure-storage chooses the file without a word about the keyring', async () => {
    const login = await t.sct(['auth', 'login', '--insecure-storage', '--base-url', t.sb.url, '--with-token'], { input: OWNER, env: noEnvToken });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).not.toContain('keyring');
    expect(storedProfile(t.dir)).toEqual({ base_url: t.sb.url, token: OWNER });
  });

  it('a profile whose token is in a keyring that cannot be reached is "not logged in", saying why, never a hang', async () => {
    writeFileSync(
      join(t.dir, 'config.json'),
      JSON.stringify({ profiles: { default: { base_url: t.sb.url, token_storage: 'keyring', token_account: `default@${t.sb.url}` } } }),
      { mode: 0o600 },
    );
    const profiles = JSON.parse((await t.sct(['config', 'profiles', '--json'], { env: noEnvToken })).stdout);
    expect(profiles[0]).toMatchObject({ token_storage: 'keyring' });
    const status = await t.sct(['auth', 'status'], { env: noEnvToken });
    expect(status.exitCode).toBe(4);
    expect(status.stderr).toContain('its token is kept in the system keyring, which failed: no D-Bus session');
    const list = await t.sct(['products', 'list'], { env: noEnvToken });
    expect(list.exitCode).toBe(4);
    expect(t.sb.requests).toHaveLength(0);
    // Logout clears the profile, but the secret stays in the keyring it cannot reach: said so,
    // with how to remove it there, and exit 1, never "token removed".
    const logout = await t.sct(['auth', 'logout'], { env: noEnvToken });
    expect(logout.exitCode).toBe(1);
    expect(logout.stderr).toContain('error: logged out of profile "default", but the token is still in the system keyring: it could not be removed (no D-Bus session');
    expect(logout.stderr).toContain(`secret-tool clear service sct account 'default@${t.sb.url}'`);
    expect(logout.stderr).not.toContain('token removed');
    expect(storedProfile(t.dir)).toEqual({ base_url: t.sb.url });
  });

  it("a base URL's password is no part of the keyring entry's name, nor of the command that removes it", async () => {
    const withPassword = t.sb.url.replace('://', '://alice:S3cretPassw0rd@');
    writeFileSync(join(t.dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: withPassword, token_storage: 'keyring' } } }), { mode: 0o600 });
    const logout = await t.sct(['auth', 'logout'], { env: noEnvToken });
    expect(logout.exitCode).toBe(1);
    expect(logout.stderr).toContain(`secret-tool clear service sct account 'default@${t.sb.url}'`);
    expect(logout.stderr).not.toContain('S3cretPassw0rd');
    // An entry an earlier sct named with the password: the command shows it hidden.
    writeFileSync(join(t.dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: withPassword, token_storage: 'keyring', token_account: `default@${withPassword}` } } }), { mode: 0o600 });
    const old = await t.sct(['auth', 'logout'], { env: noEnvToken });
    expect(old.exitCode).toBe(1);
    expect(old.stderr).toContain(`account 'default@${t.sb.url.replace('://', '://***@')}'`);
    expect(old.stderr).not.toContain('S3cretPassw0rd');
  });

  it('read-only auth status creates no config file', async () => {
    const dir = join(tempDir(), 'cfg');
    try {
      const none = await runSct(['auth', 'status'], { env: { SCT_CONFIG_DIR: dir, HOME: dir } });
      expect(none.exitCode).toBe(4);
      const env = await runSct(['auth', 'status'], { env: { SCT_CONFIG_DIR: dir, HOME: dir, SCT_TOKEN: OWNER, SCT_BASE_URL: t.sb.url } });
      expect(env.exitCode, env.stderr).toBe(0);
      expect(env.stdout).toMatch(/^Token storage\s+none$/m);
      const profiles = await runSct(['config', 'profiles'], { env: { SCT_CONFIG_DIR: dir, HOME: dir } });
      expect(profiles.exitCode).toBe(0);
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    } finally {
      removeDir(join(dir, '..'));
    }
  });
});

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((c) => !has(c));

describe.skipIf(missing.length > 0)(
  `with a Secret Service (gnome-keyring under dbus-run-session)${missing.length ? ` — skipped: ${missing.join(' and ')} not installed (apt-get install gnome-keyring dbus)` : ''}`,
  () => {
    it('login stores the token in the keyring, the file names only where it is; status, profiles, token, logout use it', async () => {
      const dir = t.dir;
      writeFileSync(join(dir, 'token'), OWNER, { mode: 0o600 });
      // One D-Bus session and one unlocked keyring for all the steps; each step's output in files.
      const script = `
        printf pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
        step() { name=$1; shift; "$@" > "$D/$name.out" 2> "$D/$name.err"; echo $? > "$D/$name.rc"; }
        step login node "$BIN" auth login --base-url "$URL" --with-token < "$D/token"
        step status node "$BIN" auth status --json
        step profiles node "$BIN" config profiles --json
        step token node "$BIN" auth token
        step logout node "$BIN" auth logout
        step after node "$BIN" auth token
        step insecure node "$BIN" auth login --insecure-storage --base-url "$URL" --with-token < "$D/token"
      `;
      const r = await execa('dbus-run-session', ['--', 'sh', '-c', script], {
        env: { PATH: process.env.PATH ?? '', HOME: dir, SCT_CONFIG_DIR: dir, NO_COLOR: '1', CI: 'true', D: dir, BIN, URL: t.sb.url },
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const step = (name: string) => ({
        rc: Number(readFileSync(join(dir, `${name}.rc`), 'utf8')),
        out: readFileSync(join(dir, `${name}.out`), 'utf8'),
        err: readFileSync(join(dir, `${name}.err`), 'utf8'),
      });

      const login = step('login');
      expect(login.rc, login.err).toBe(0);
      expect(login.err).toContain('Logged in');
      expect(login.err).not.toContain('keyring');

      const status = step('status');
      expect(status.rc, status.err).toBe(0);
      expect(JSON.parse(status.out)).toMatchObject({ token_source: 'profile', token_storage: 'keyring', user: { id: 1 } });
      expect(JSON.parse(step('profiles').out)).toEqual([{ name: 'default', current: true, base_url: t.sb.url, token_storage: 'keyring', token_held_back: false }]);
      const token = step('token');
      expect(token.rc, token.err).toBe(0);
      expect(token.out).toBe(OWNER + '\n');

      const logout = step('logout');
      expect(logout.rc, logout.err).toBe(0);
      expect(logout.err).toContain('token removed from the system keyring');
      // The keyring entry is gone too, not only the profile's note of it.
      expect(step('after').rc).toBe(4);

      // --insecure-storage: back in the file.
      expect(step('insecure').rc).toBe(0);
      const config = readFileSync(join(dir, 'config.json'), 'utf8');
      expect(JSON.parse(config).profiles.default).toEqual({ base_url: t.sb.url, token: OWNER });
    });

    /** `then`, run in a shell once the profile logged in with its token in a fresh, unlocked keyring. */
    const loggedInToKeyring = (then: string, o: { stripFinalNewline?: boolean } = {}) => {
      const dir = t.dir;
      writeFileSync(join(dir, 'token'), OWNER, { mode: 0o600 });
      const script = `
        printf pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
        node "$BIN" auth login --base-url "$URL" --with-token < "$D/token" 2>/dev/null || exit 9
        ${then}
      `;
      // From the repository: a step may require the keyring package sct uses.
      return execa('dbus-run-session', ['--', 'sh', '-c', script], {
        cwd: join(BIN, '..', '..'),
        env: { PATH: process.env.PATH ?? '', HOME: dir, SCT_CONFIG_DIR: dir, D: dir, BIN, URL: t.sb.url, NO_COLOR: '1' },
        extendEnv: false,
        reject: false,
        timeout: 60_000,
        ...o,
      });
    };

    it("login with a base URL holding a password keeps the password out of the entry's attributes", async () => {
      const dir = t.dir;
      writeFileSync(join(dir, 'token'), OWNER, { mode: 0o600 });
      const script = `
        printf pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
        node "$BIN" auth login --base-url "$URL" --with-token < "$D/token" 2>/dev/null || exit 9
        node -e "console.log(JSON.stringify(require('@napi-rs/keyring').findCredentials('sct').map((c) => c.account)))"
        node "$BIN" auth token
      `;
      const r = await execa('dbus-run-session', ['--', 'sh', '-c', script], {
        cwd: join(BIN, '..', '..'),
        env: { PATH: process.env.PATH ?? '', HOME: dir, SCT_CONFIG_DIR: dir, D: dir, BIN, URL: t.sb.url.replace('://', '://alice:S3cretPassw0rd@'), NO_COLOR: '1' },
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const [accounts, token] = r.stdout.split('\n');
      expect(JSON.parse(accounts!)).toEqual([`default@${t.sb.url}`]);
      expect(token).toBe(OWNER);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain('"token_account":"default@http://alice');
    });

    it('logout of a token whose keyring entry was removed meanwhile says the keyring held none', async () => {
      const r = await loggedInToKeyring(`
        node -e "new (require('@napi-rs/keyring').Entry)('sct', 'default@' + process.env.URL).deletePassword()" || exit 8
        node "$BIN" auth logout`);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain('Logged out of profile "default" (the system keyring held no token for it any more).');
      expect(r.stderr).not.toContain('token removed');
    });

    it('while the token is in the keyring, the config file never holds it', async () => {
      const dir = t.dir;
      const r = await loggedInToKeyring(
        `cp "$D/config.json" "$D/snapshot.json"
        node "$BIN" auth token`,
        { stripFinalNewline: false },
      );
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(OWNER + '\n');
      const snapshot = readFileSync(join(dir, 'snapshot.json'), 'utf8');
      expect(snapshot).not.toContain(OWNER);
      expect(JSON.parse(snapshot).profiles.default).toEqual({ base_url: t.sb.url, token_storage: 'keyring', token_account: `default@${t.sb.url}` });
    });
  },
);
