// Where sct's files go when HOME says nothing usable: the system's record of the user, else a
// clear error (never the current directory, never a raw system error).
import { afterEach, describe, expect, it, vi } from 'vitest';

const os = vi.hoisted(() => ({ home: (): string => '/home/x', user: (): { homedir: string } => ({ homedir: '/home/recorded' }) }));
vi.mock('node:os', async (importOriginal) => ({ ...(await importOriginal<typeof import('node:os')>()), homedir: () => os.home(), userInfo: () => os.user() }));

const { homeDir, configDir } = await import('../../src/config/paths.js');

const HOME = process.env.HOME;
afterEach(() => {
  process.env.HOME = HOME;
});

describe('homeDir', () => {
  it('takes an absolute HOME, else the system record of the user', () => {
    os.home = () => '/home/x';
    expect(homeDir()).toBe('/home/x');
    os.home = () => 'relhome';
    expect(homeDir()).toBe('/home/recorded');
    expect(configDir({})).toBe('/home/recorded/.config/sct');
  });

  it('HOME unset and no record of the user (Node throws then): exit 2 saying what to set, no system error', () => {
    delete process.env.HOME;
    os.home = () => {
      throw new Error('A system error occurred: uv_os_homedir returned ENOENT (no such file or directory)');
    };
    os.user = () => {
      throw new Error('A system error occurred: uv_os_get_passwd returned ENOENT (no such file or directory)');
    };
    expect(() => homeDir()).toThrow('no home directory: HOME is not set and the system has none for this user; set HOME or SCT_CONFIG_DIR');
    expect(() => configDir({})).toThrow(expect.objectContaining({ exitCode: 2 }));
    // SCT_CONFIG_DIR needs no home.
    expect(configDir({ SCT_CONFIG_DIR: '/srv/sct' })).toBe('/srv/sct');
  });
});
