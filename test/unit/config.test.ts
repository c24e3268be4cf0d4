import { describe, it, expect, afterEach } from 'vitest';
import { chmodSync, statSync } from 'node:fs';
import { ConfigStore } from '../../src/config/config.js';
import { maskToken, resolveSettings } from '../../src/config/settings.js';
import { tempDir, removeDir } from '../helpers/sct.js';

const dirs: string[] = [];
const fresh = () => {
  const d = tempDir();
  dirs.push(d);
  return new ConfigStore(d);
};
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('ConfigStore', () => {
  it('writes the file with mode 0600 and repairs a loosened mode on the next write', () => {
    const s = fresh();
    s.set('default', 'token', 't1');
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    chmodSync(s.path, 0o644);
    s.set('default', 'output', 'json');
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
  });

  it('keeps profiles apart and unsets keys', () => {
    const s = fresh();
    s.set('default', 'base_url', 'http://a/api');
    s.set('work', 'base_url', 'http://b/api');
    s.unset('default', 'base_url');
    expect(s.profile('default')).toEqual({});
    expect(s.profile('work')).toEqual({ base_url: 'http://b/api' });
    expect(s.profileNames().sort()).toEqual(['default', 'work']);
  });
});

describe('resolveSettings', () => {
  it('orders flag > env > profile for the base URL and env > profile for the token', () => {
    const s = fresh();
    s.set('default', 'base_url', 'http://profile/api');
    s.set('default', 'token', 'profile-token');
    s.set('other', 'token', 'other-token');
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

  it('masks tokens', () => {
    expect(maskToken('sct_demo_owner_cacao')).not.toContain('owner');
    expect(maskToken('short')).toBe('********');
    expect(maskToken('\u001b[2Jlong-enough-token')).toBe('********');
  });
});
