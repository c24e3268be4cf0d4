// The config file is shared by every sct process of the user: parallel runs (a script's `&`,
// make -j, two terminals) must never lose each other's changes, nor let a token survive a logout.
import { describe, it, expect, beforeEach } from 'vitest';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { removeDir, runSct, spawnSct, tempDir, type RunOptions } from '../helpers/sct.js';
import { tryLock } from '../../src/config/lock.js';
import { useSandbox } from '../helpers/sandbox.js';
import { OWNER } from '../sandbox/helpers.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
  return () => removeDir(dir);
});

const sct = (args: string[], opts: RunOptions = {}) => runSct(args, { ...opts, env: { SCT_CONFIG_DIR: dir, HOME: dir, ...opts.env } });
const configFile = (where = dir) => join(where, 'config.json');
const profiles = (where = dir): Record<string, Record<string, string>> => JSON.parse(readFileSync(configFile(where), 'utf8')).profiles;

describe('a config file another process holds', () => {
  it('Ctrl-C (or SIGTERM) while `config set` waits for the lock ends it at once, the file untouched', async () => {
    writeFileSync(configFile(), JSON.stringify({ profiles: { default: { output: 'csv' } } }), { mode: 0o600 });
    const before = readFileSync(configFile(), 'utf8');
    // Held by this process, which is alive: the lock is not stale and sct waits for it (10 s).
    const held = tryLock(`${configFile()}.lock`);
    if (!('release' in held)) throw new Error('the lock is held already');
    try {
      for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
        const child = spawnSct(['config', 'set', 'output', 'json'], { env: { SCT_CONFIG_DIR: dir, HOME: dir }, timeout: 20_000 });
        await new Promise((r) => setTimeout(r, 1500));
        const sent = Date.now();
        child.kill(signal);
        const r = await child;
        expect(r.exitCode, String(r.stderr)).toBe(code);
        expect(Date.now() - sent).toBeLessThan(3000);
        expect(String(r.stderr)).not.toContain('timed out');
        expect(readFileSync(configFile(), 'utf8')).toBe(before);
      }
    } finally {
      held.release();
    }
    expect(existsSync(`${configFile()}.lock`)).toBe(false);
  }, 40_000);
});

describe('parallel writers of the config file', () => {
  it('4 parallel `config set` on different profiles never lose a write', async () => {
    const rounds = 12;
    const lost: string[] = [];
    for (let round = 1; round <= rounds; round++) {
      const value = (n: number) => String(round * 10 + n);
      const runs = await Promise.all([0, 1, 2, 3].map((n) => sct(['config', 'set', 'workspace', value(n), '--profile', `p${n}`])));
      runs.forEach((r) => expect(r.exitCode, r.stderr).toBe(0));
      const now = profiles();
      for (const n of [0, 1, 2, 3]) if (now[`p${n}`]?.workspace !== value(n)) lost.push(`round ${round}: p${n}`);
    }
    expect(lost).toEqual([]);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
  }, 40_000);

  it('the first writes into an empty config dir do not lose each other either', async () => {
    // The very first write is where conf would write its defaults from its constructor, unlocked.
    const lost: string[] = [];
    for (let round = 1; round <= 4; round++) {
      const where = join(dir, `fresh${round}`);
      const runs = await Promise.all([0, 1, 2, 3].map((n) => sct(['config', 'set', 'output', 'json', '--profile', `p${n}`], { env: { SCT_CONFIG_DIR: where } })));
      runs.forEach((r) => expect(r.exitCode, r.stderr).toBe(0));
      const now = profiles(where);
      for (const n of [0, 1, 2, 3]) if (now[`p${n}`]?.output !== 'json') lost.push(`round ${round}: p${n}`);
    }
    expect(lost).toEqual([]);
  }, 40_000);

  it('`auth logout` racing `config set` never says "Logged out" while the token stays in the file', async () => {
    const rounds = 6;
    const broken: string[] = [];
    for (let round = 1; round <= rounds; round++) {
      const token = `sct_race_token_${round}_abcdef`;
      writeFileSync(configFile(), JSON.stringify({ profiles: { default: { token, base_url: 'http://127.0.0.1:9/api' } } }), { mode: 0o600 });
      const output = round % 2 ? 'json' : 'csv';
      // Writers of other profiles widen the race: each rewrites the whole file, token included.
      const [logout, ...sets] = await Promise.all([
        sct(['auth', 'logout']),
        sct(['config', 'set', 'output', output]),
        sct(['config', 'set', 'workspace', String(round)]),
        sct(['config', 'set', 'output', 'csv', '--profile', 'other1']),
        sct(['config', 'set', 'output', 'csv', '--profile', 'other2']),
      ]);
      for (const r of [logout, ...sets]) expect(r.exitCode, r.stderr).toBe(0);
      expect(logout.stderr).toContain('Logged out of profile "default"');
      const now = profiles();
      if (now.default.token !== undefined) broken.push(`round ${round}: the token is still in the file after "Logged out"`);
      if (now.default.output !== output || now.default.workspace !== String(round)) broken.push(`round ${round}: a write to "default" was lost`);
      if (now.other1?.output !== 'csv' || now.other2?.output !== 'csv') broken.push(`round ${round}: a write to another profile was lost`);
    }
    expect(broken).toEqual([]);
  }, 40_000);
});

describe('profile names', () => {
  it('refuses a profile name that is not a plain name, from --profile or SCT_PROFILE, with exit 2 and nothing written', async () => {
    for (const [args, env] of [
      [['config', 'set', 'output', 'json', '--profile', '__proto__'], {}],
      [['config', 'set', 'output', 'json', '--profile', ''], {}],
      [['config', 'set', 'output', 'json', '--profile', '../work'], {}],
      [['config', 'set', 'output', 'json', '--profile', 'my work'], {}],
      [['config', 'set', 'output', 'json', '--profile', 'x'.repeat(65)], {}],
      [['auth', 'logout'], { SCT_PROFILE: '__proto__' }],
      [['config', 'get', 'output'], { SCT_PROFILE: '-p' }],
    ] as const) {
      const r = await sct([...args], { env });
      expect(r.exitCode, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^error: invalid profile name ".*" \((--profile|SCT_PROFILE)\)/m);
    }
    const viaEnv = await sct(['config', 'list'], { env: { SCT_PROFILE: '__proto__' } });
    expect(viaEnv.stderr).toContain('invalid profile name "__proto__" (SCT_PROFILE)');
    expect(existsSync(configFile())).toBe(false);
  });

  it('names of Object.prototype members are ordinary profiles, nothing inherited', async () => {
    expect((await sct(['config', 'set', 'output', 'json', '--profile', 'constructor'])).exitCode).toBe(0);
    expect((await sct(['config', 'set', 'workspace', '7', '--profile', 'toString'])).exitCode).toBe(0);
    expect(profiles()).toEqual({ constructor: { output: 'json' }, toString: { workspace: '7' } });
    expect((await sct(['config', 'get', 'output', '--profile', 'constructor'])).stdout).toBe('json\n');
    // Not inherited: a profile named after a prototype member that nobody created does not exist.
    const missing = await sct(['config', 'get', 'output', '--profile', 'hasOwnProperty']);
    expect(missing).toMatchObject({ exitCode: 2, stdout: '' });
    expect(missing.stderr).toContain('no profile "hasOwnProperty" (--profile)');
    expect((await sct(['config', 'set', 'base_url', 'http://x.test/api', '--profile', 'valueOf'])).exitCode).toBe(0);
    const list = await sct(['config', 'list', '-o', 'json', '--profile', 'valueOf']);
    expect(JSON.parse(list.stdout)).toEqual({ profile: 'valueOf', base_url: 'http://x.test/api', token: null, workspace: null, output: null, token_storage: 'none' });
    // The profile's output applies to the profile that has it, and only to it.
    const other = await sct(['config', 'list', '--profile', 'toString']);
    expect(other.stdout).not.toMatch(/^\s*[[{]/);
  });
});

describe('doctor: who else may change the config', () => {
  const t = useSandbox();

  it('a config directory not made yet is no failure: SCT_BASE_URL and SCT_TOKEN alone (a CI job) pass, exit 0', async () => {
    const none = join(t.dir, 'not-made');
    const r = await t.sct(['doctor'], { env: { SCT_CONFIG_DIR: none } });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`ok\tconfig_dir\t${none} does not exist yet (nothing is stored)`);
    expect(existsSync(none)).toBe(false);
  });

  it('a token written into a config directory other users may write to is warned of as it is written, not only by doctor', async () => {
    chmodSync(t.dir, 0o777);
    try {
      const r = await t.sct(['auth', 'login', '--with-token', '--insecure-storage'], { input: OWNER, env: { SCT_TOKEN: undefined } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(`warning: the config directory ${t.dir} is writable by other users, who could replace the file holding the token (and the base URL it is sent to): chmod 700 "${t.dir}"`);
    } finally {
      chmodSync(t.dir, 0o700);
    }
    const kept = await t.sct(['auth', 'login', '--with-token', '--insecure-storage'], { input: OWNER, env: { SCT_TOKEN: undefined } });
    expect(kept.stderr).not.toContain('writable by other users');
  });

  it('fails a config directory other users may write to, as a config file they may', async () => {
    expect((await t.sct(['config', 'set', 'output', 'table'])).exitCode).toBe(0);
    chmodSync(t.dir, 0o777);
    const loose = await t.sct(['doctor']);
    expect(loose.exitCode, loose.stdout).toBe(1);
    expect(loose.stdout).toMatch(new RegExp(`^fail\\s+config_dir\\s+${t.dir} is writable by other users, who could replace the config file .*: chmod 700 "${t.dir}"`, 'm'));
    expect(loose.stdout).toMatch(/^ok\s+config\s/m);

    chmodSync(t.dir, 0o700);
    chmodSync(join(t.dir, 'config.json'), 0o666);
    const file = await t.sct(['doctor', '-o', 'json']);
    expect(file.exitCode).toBe(1);
    const checks: { name: string; level: string; detail: string }[] = JSON.parse(file.stdout);
    expect(checks.find((c) => c.name === 'config_dir')).toMatchObject({ level: 'ok' });
    expect(checks.find((c) => c.name === 'config')).toMatchObject({ level: 'fail', detail: expect.stringMatching(/mode 666 \(writable by other users\).*chmod 600/) });
  });

  it.skipIf(process.getuid?.() !== 0)('a login into a config directory another user owns says so, and what to do (chmod would not help)', async () => {
    const theirs = join(t.dir, 'theirs');
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, 65534, 65534);
    const r = await t.sct(['auth', 'login', '--with-token', '--insecure-storage'], { input: OWNER, env: { SCT_TOKEN: undefined, SCT_CONFIG_DIR: theirs } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: the config directory ${theirs} is owned by uid 65534, not by you (uid 0): that user could replace the file holding the token (and the base URL it is sent to); use a directory of your own (SCT_CONFIG_DIR) or chown it (sct doctor checks it)`);
  });

  it.skipIf(process.getuid?.() !== 0)('fails on a config directory or file owned by another user', async () => {
    expect((await t.sct(['config', 'set', 'output', 'table'])).exitCode).toBe(0);
    chownSync(t.dir, 65534, 65534);
    const dir = await t.sct(['doctor']);
    expect(dir.exitCode).toBe(1);
    expect(dir.stdout).toMatch(new RegExp(`^fail\\s+config_dir\\s+${t.dir} is owned by uid 65534, not by you \\(uid 0\\)`, 'm'));
    expect(dir.stderr).toMatch(/^error: 1 check failed: config_dir/m);

    chownSync(t.dir, 0, 0);
    chownSync(join(t.dir, 'config.json'), 65534, 65534);
    const file = await t.sct(['doctor']);
    expect(file.exitCode).toBe(1);
    expect(file.stdout).toMatch(/^ok\s+config_dir\s/m);
    expect(file.stdout).toMatch(/^fail\s+config\s+.*config\.json is owned by uid 65534, not by you \(uid 0\)/m);
  });
});

describe('a config write cut short (kill -9, a power cut) between its new file and the rename', () => {
  it('leaves a temporary file that the next change of the config removes, token and all: a logout leaves no token on disk', async () => {
    writeFileSync(configFile(), JSON.stringify({ profiles: { default: { output: 'csv' } } }), { mode: 0o600 });
    // The pid of a process that has ended: its writer can never rename the file.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const stale = join(dir, `config.json.${gone}.0123456789ab.tmp`);
    writeFileSync(stale, JSON.stringify({ profiles: { default: { token: 'sct_left_behind' } } }), { mode: 0o600 });
    // A writer alive (this process) is left alone: it may be about to rename its file.
    const live = join(dir, `config.json.${process.pid}.ba9876543210.tmp`);
    writeFileSync(live, '{}', { mode: 0o600 });
    const r = await sct(['auth', 'logout']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(readdirSync(dir).some((f) => readFileSync(join(dir, f), 'utf8').includes('sct_left_behind'))).toBe(false);
  });
});

describe('a config file that is there but cannot be reached', () => {
  it('is said as such, exit 2, never taken for no configuration ("not logged in", empty settings)', async () => {
    // A link to itself: stat fails with ELOOP, as it fails with EACCES in a directory its owner
    // cannot read (chmod 000, root's after a `sudo sct …`): both once read as "no config file".
    symlinkSync('config.json', configFile());
    for (const args of [['whoami'], ['config', 'list'], ['orders', 'list', '--buying']]) {
      const r = await sct(args, { env: { SCT_BASE_URL: 'http://127.0.0.1:9/api' } });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`cannot read the config file ${configFile()}`);
      expect(r.stderr).not.toContain('not logged in');
      // Not "move it away": the file may be fine, and with it goes the stored login.
      expect(r.stderr).toContain('hint: fix the path to it, or move it away to start over');
    }
    const doctor = await sct(['doctor']);
    expect(doctor.stdout).toMatch(/^fail\s+config\s+.*cannot read the config file/m);
    // The directory its owner cannot read is said too (root, running this, still can).
    chmodSync(dir, 0o000);
    try {
      const closed = await sct(['doctor']);
      expect(closed.stdout).toContain(`fail\tconfig_dir\t${dir} (mode 0) is not readable, writable and searchable by its owner: chmod 700 "${dir}"`);
    } finally {
      chmodSync(dir, 0o700);
    }
  });
});
