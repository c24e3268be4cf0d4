// main() in-process with fake streams and a throwaway config dir: how errors are reported,
// with nothing listening on the network.
import { describe, it, expect, afterEach } from 'vitest';
import { main } from '../../src/cli.js';
import { ConfigStore } from '../../src/config/config.js';
import { createTestIO } from '../helpers/io.js';
import { removeDir, tempDir } from '../helpers/sct.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** A config dir whose profiles hold the given settings. */
function configWith(profiles: Record<string, Record<string, string>>): string {
  const dir = tempDir();
  dirs.push(dir);
  const store = new ConfigStore(dir);
  // Each written before set() returns: no other process holds the lock to wait for.
  for (const [name, settings] of Object.entries(profiles)) {
    for (const [k, v] of Object.entries(settings)) store.set(name, k as 'output', v);
  }
  return dir;
}

async function run(args: string[], env: Record<string, string | undefined>) {
  const io = createTestIO();
  const exitCode = await main(args, {
    streams: io.streams,
    env: { NO_COLOR: '1', CI: 'true', ...env },
    signal: new AbortController().signal,
    clientOptions: { retryBaseMs: 1 },
  });
  process.exitCode = undefined;
  return { exitCode, stdout: io.stdout(), stderr: io.stderr() };
}

const lastJsonLine = (s: string) => JSON.parse(s.trim().split('\n').pop()!);

describe('the JSON error object', () => {
  it('follows the profile output format when no -o is given', async () => {
    const dir = configWith({ default: { output: 'json', base_url: 'http://127.0.0.1:9/api' } });
    const r = await run(['whoami'], { SCT_CONFIG_DIR: dir });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: not logged in/m);
    expect(lastJsonLine(r.stderr)).toEqual({ error: 'not logged in', status: null, fields: {}, exit_code: 4 });
  });

  it('for usage errors too, and per profile (--profile, SCT_PROFILE)', async () => {
    const dir = configWith({ work: { output: 'ndjson' } });
    const a = await run(['--profile', 'work', 'whoami', '--bogus'], { SCT_CONFIG_DIR: dir });
    expect(a.exitCode).toBe(2);
    expect(lastJsonLine(a.stderr)).toMatchObject({ status: null, exit_code: 2 });
    const b = await run(['config', 'get', 'colour'], { SCT_CONFIG_DIR: dir, SCT_PROFILE: 'work' });
    expect(b.exitCode).toBe(2);
    expect(lastJsonLine(b.stderr)).toMatchObject({ exit_code: 2 });
    const other = await run(['config', 'get', 'colour'], { SCT_CONFIG_DIR: dir });
    expect(other.stderr).not.toContain('{');
  });

  it('-o table on the command line wins over the profile', async () => {
    const dir = configWith({ default: { output: 'json' } });
    const r = await run(['-o', 'table', 'config', 'get', 'colour'], { SCT_CONFIG_DIR: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('{');
  });
});

describe('a token with control characters', () => {
  it('is a usage error naming SCT_TOKEN or the profile, before anything is sent', async () => {
    const dir = configWith({ default: { base_url: 'http://127.0.0.1:9/api' } });
    const env = await run(['whoami'], { SCT_CONFIG_DIR: dir, SCT_TOKEN: 'sct_token\n' });
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toMatch(/^error: the token from SCT_TOKEN contains invalid characters/m);

    const stored = configWith({ work: { base_url: 'http://127.0.0.1:9/api', token: 'sct\u0007token' } });
    const profile = await run(['whoami', '--profile', 'work'], { SCT_CONFIG_DIR: stored });
    expect(profile.exitCode).toBe(2);
    expect(profile.stderr).toContain('the token from profile "work" in ');
  });
});

describe('auth status with the service down', () => {
  const down = 'http://127.0.0.1:9/api';

  it('still shows the profile, base URL and token source (masked), then fails with exit 1', async () => {
    const dir = configWith({ work: { base_url: down, token: 'sct_stored_token_value' } });
    const r = await run(['auth', 'status', '--profile', 'work'], { SCT_CONFIG_DIR: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^Profile\s+work$/m);
    expect(r.stdout).toMatch(new RegExp(`^Base URL\\s+${down} \\(from profile\\)$`, 'm'));
    expect(r.stdout).toMatch(/^Token\s+sct_…\*+ \(from profile\)$/m);
    expect(r.stdout).not.toContain('sct_stored_token_value');
    expect(r.stdout).not.toMatch(/^User/m);
    expect(r.stderr).toMatch(/^error: GET \/accounts\/me: connection refused/m);
  });

  it('-o json: the local half of the object, user null, and the JSON error', async () => {
    const dir = configWith({});
    const r = await run(['auth', 'status', '-o', 'json'], { SCT_CONFIG_DIR: dir, SCT_BASE_URL: down, SCT_TOKEN: 'sct_env_token_value' });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      base_url: down,
      base_url_source: 'env',
      user: null,
      company: null,
      role: null,
      token: 'sct_…****',
      token_source: 'SCT_TOKEN',
      token_storage: 'none',
    });
    expect(lastJsonLine(r.stderr)).toMatchObject({ status: null, exit_code: 1 });
  });
});

describe('config get', () => {
  it('a known key that is unset prints nothing and exits 0, as gh; an unknown key exits 2', async () => {
    const dir = configWith({ default: { output: 'csv' } });
    expect(await run(['config', 'get', 'workspace'], { SCT_CONFIG_DIR: dir })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await run(['config', 'get', 'output'], { SCT_CONFIG_DIR: dir })).toMatchObject({ exitCode: 0, stdout: 'csv\n' });
    const unknown = await run(['config', 'get', 'colour'], { SCT_CONFIG_DIR: dir });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown setting "colour"/m);
  });
});
