import { describe, it, expect, afterEach } from 'vitest';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigStore } from '../../src/config/config.js';
import { profileName, resolveSettings } from '../../src/config/settings.js';
import { maskToken } from '../../src/util/redact.js';
import { SctError, UsageError } from '../../src/errors.js';
import { tempDir, removeDir } from '../helpers/sct.js';

const dirs: string[] = [];
const freshDir = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
const fresh = () => new ConfigStore(freshDir());
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('ConfigStore', () => {
  it('writes the file with mode 0600 and repairs a loosened mode on the next write', async () => {
    const s = fresh();
    await s.set('default', 'token', 't1');
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    chmodSync(s.path, 0o644);
    await s.set('default', 'output', 'json');
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
  });

  it('keeps profiles apart and unsets keys', async () => {
    const s = fresh();
    await s.set('default', 'base_url', 'http://a/api');
    await s.set('work', 'base_url', 'http://b/api');
    await s.unset('default', 'base_url');
    expect(s.profile('default')).toEqual({});
    expect(s.profile('work')).toEqual({ base_url: 'http://b/api' });
    expect(s.profileNames().sort()).toEqual(['default', 'work']);
  });

  it('says whether unset removed something, and writes several keys at once', async () => {
    const s = fresh();
    await s.setMany('default', { base_url: 'http://a/api', token: 't1' });
    expect(s.profile('default')).toEqual({ base_url: 'http://a/api', token: 't1' });
    expect(await s.unset('default', 'token')).toBe(true);
    expect(await s.unset('default', 'token')).toBe(false);
    expect(await s.unset('nobody', 'token')).toBe(false);
    expect(s.profileNames()).toEqual(['default']);
  });

  it('reads what another process wrote since it was opened', async () => {
    const dir = freshDir();
    const a = new ConfigStore(dir);
    const b = new ConfigStore(dir);
    await a.set('one', 'output', 'json');
    await b.set('two', 'output', 'csv');
    await a.set('one', 'workspace', '3');
    expect(new ConfigStore(dir).profileNames().sort()).toEqual(['one', 'two']);
    expect(b.profile('one')).toEqual({ output: 'json', workspace: '3' });
  });

  it('creates nothing until something is written, and leaves no lock or temporary file behind', async () => {
    const dir = freshDir();
    const s = new ConfigStore(dir);
    expect(s.profile('default')).toEqual({});
    expect(existsSync(s.path)).toBe(false);
    await s.set('default', 'output', 'json');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('keeps what it does not know in the file', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ future: { x: 1 }, profiles: { default: { token: 't', keyring: true } } }));
    await new ConfigStore(dir).set('default', 'output', 'json');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      future: { x: 1 },
      profiles: { default: { token: 't', keyring: true, output: 'json' } },
    });
  });

  it('replaces a symlinked config file instead of writing through it', async () => {
    const dir = freshDir();
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ profiles: { default: { output: 'csv' } } }));
    symlinkSync(elsewhere, join(dir, 'config.json'));
    const s = new ConfigStore(dir);
    await s.set('default', 'token', 'secret-token');
    expect(lstatSync(s.path).isSymbolicLink()).toBe(false);
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    expect(s.profile('default')).toEqual({ output: 'csv', token: 'secret-token' });
    expect(readFileSync(elsewhere, 'utf8')).not.toContain('secret-token');
  });

  it('looks profiles up as own properties only', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"__proto__": {"token": "planted"}, "work": {"output": "json"}}}');
    const s = new ConfigStore(dir);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'default']) expect(s.profile(name), name).toEqual({});
    expect(resolveSettings(s, {}, {}).token).toBeUndefined();
    await s.set('constructor', 'output', 'csv');
    expect(s.profile('constructor')).toEqual({ output: 'csv' });
    expect(s.profile('work')).toEqual({ output: 'json' });
  });

  it('names the config file when it cannot be read', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": ');
    expect(() => new ConfigStore(dir).profile('default')).toThrow(SctError);
    expect(() => new ConfigStore(dir).profileNames()).toThrow(join(dir, 'config.json'));
    writeFileSync(join(dir, 'config.json'), '[]');
    expect(() => new ConfigStore(dir).profile('default')).toThrow(/not a JSON object/);
    writeFileSync(join(dir, 'config.json'), '{"profiles": []}');
    expect(() => new ConfigStore(dir).profile('default')).toThrow(/"profiles" is not an object/);
  });
});

describe('profileName', () => {
  it('takes --profile, else SCT_PROFILE, else default', async () => {
    expect(profileName(undefined, {})).toBe('default');
    expect(profileName(undefined, { SCT_PROFILE: '' })).toBe('default');
    expect(profileName(undefined, { SCT_PROFILE: 'ci' })).toBe('ci');
    expect(profileName('work.eu-1_b', { SCT_PROFILE: 'ci' })).toBe('work.eu-1_b');
    expect(profileName('constructor', {})).toBe('constructor');
  });

  it('refuses names that are not plain names, with exit 2', async () => {
    for (const bad of ['__proto__', '', '.hidden', '../x', 'a/b', 'my work', '-p', 'x'.repeat(65), 'é', 'a\u001b[2J']) {
      expect(() => profileName(bad, {}), JSON.stringify(bad)).toThrow(UsageError);
    }
    expect(() => profileName(undefined, { SCT_PROFILE: '__proto__' })).toThrow(/invalid profile name "__proto__" \(SCT_PROFILE\)/);
    expect(() => profileName('a\u001b[2J', {})).toThrow('"a\\u001b[2J"');
  });
});

describe('resolveSettings', () => {
  it('orders flag > env > profile for the base URL and env > profile for the token', async () => {
    const s = fresh();
    await s.set('default', 'base_url', 'http://profile/api');
    await s.set('default', 'token', 'profile-token');
    await s.set('other', 'token', 'other-token');
    expect(resolveSettings(s, {}, {})).toMatchObject({ baseUrl: 'http://profile/api', baseUrlSource: 'profile', token: 'profile-token', tokenSource: 'profile' });
    expect(resolveSettings(s, {}, { SCT_BASE_URL: 'http://env/api', SCT_TOKEN: 'env-token' })).toMatchObject({
      baseUrl: 'http://env/api',
      baseUrlSource: 'env',
      token: 'env-token',
      tokenSource: 'env',
    });
    expect(resolveSettings(s, { baseUrl: 'http://flag/api' }, { SCT_BASE_URL: 'http://env/api' })).toMatchObject({ baseUrl: 'http://flag/api', baseUrlSource: 'flag' });
    expect(resolveSettings(s, {}, { SCT_PROFILE: 'other' })).toMatchObject({ profile: 'other', token: 'other-token' });
    expect(resolveSettings(s, { profile: 'default' }, { SCT_PROFILE: 'other' }).profile).toBe('default');
  });

  it('masks tokens', async () => {
    expect(maskToken('sct_demo_owner_cacao')).not.toContain('owner');
    expect(maskToken('short')).toBe('********');
    expect(maskToken('\u001b[2Jlong-enough-token')).toBe('********');
  });
});
