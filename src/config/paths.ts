// Where sct's configuration lives, and the one rule for which base URL a run uses: kept apart
// from the config store (config.ts) and the full settings (settings.ts), so that sct's start
// (src/cli/early-connection.ts) can know where the command will connect without loading them.
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigFileError, UsageError } from '../errors.js';

/**
 * SCT_CONFIG_DIR, else the platform's config directory ($XDG_CONFIG_HOME/sct, ~/.config/sct,
 * %APPDATA%\sct). A relative SCT_CONFIG_DIR is taken from the current directory once, here: a
 * directory removed under the shell is then an error at once (Node 20's recursive mkdir of a
 * relative path there loops for ever, deaf to signals).
 */
export function configDir(env: NodeJS.ProcessEnv): string {
  // Blank is unset, as for SCT_BASE_URL; a `~` no shell expanded (a quoted one in an .env file,
  // a service unit's) is the home, never a directory named `~` under the current one.
  const given = env.SCT_CONFIG_DIR?.trim();
  if (given === '~' || given?.startsWith('~/')) return join(homeDir(), given.slice(1));
  // `~user/…` is a shell's to expand; taken as written it would be a directory named so here.
  if (given?.startsWith('~')) throw new UsageError(`SCT_CONFIG_DIR ${JSON.stringify(given)}: only ~ and ~/… are taken as the home; give the directory as an absolute path`);
  if (given) return resolve(given);
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'sct');
  if (process.platform === 'darwin') return join(homeDir(), 'Library', 'Preferences', 'sct');
  return join(xdgDir(env.XDG_CONFIG_HOME) ?? join(homeDir(), '.config'), 'sct');
}

/**
 * The user's home directory: HOME when it is an absolute path, else the system's record of the
 * user, as Node takes it when HOME is unset. An empty or relative HOME (`HOME= sct …`, a service
 * unit's) would put config.json, token and all, under whatever directory sct runs in.
 */
export function homeDir(): string {
  let home = '';
  try {
    home = homedir();
  } catch {
    // HOME unset and no record of the user: Node throws (uv_os_homedir ENOENT); said below.
  }
  if (isAbsolute(home)) return home;
  let recorded = '';
  try {
    recorded = userInfo().homedir;
  } catch {
    // No record of the user (a container's unknown uid): the error below says what to set.
  }
  if (isAbsolute(recorded)) return recorded;
  const given = process.env.HOME;
  const said = given === undefined ? 'not set' : given ? `"${given}", not an absolute path` : 'empty';
  throw new ConfigFileError(`no home directory: HOME is ${said} and the system has none for this user; set HOME or SCT_CONFIG_DIR`);
}

/**
 * An XDG base directory variable's value when it may be used: the XDG spec has a relative path
 * ignored, which keeps the token file out of whatever directory sct happens to run in.
 */
export function xdgDir(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}

/** The base URL in force and where it came from: --base-url, else SCT_BASE_URL, else the profile's (read only then). */
export function baseUrlOf(flag: string | undefined, env: NodeJS.ProcessEnv, stored: () => string | undefined): [string | undefined, 'flag' | 'env' | 'profile' | 'none'] {
  // As `config set base_url` stores one: a paste's spaces and a trailing slash are no part of it
  // (a login would store them, and every message show them).
  const tidy = (url: string) => url.trim().replace(/\/+$/, '');
  // An empty flag is given all the same (`--base-url "$UNSET"`): settings.ts refuses it, rather
  // than send to the profile's service, with its token, what was meant for another.
  if (flag !== undefined) return [tidy(flag), 'flag'];
  if (env.SCT_BASE_URL?.trim()) return [tidy(env.SCT_BASE_URL), 'env'];
  const url = stored();
  return url ? [url, 'profile'] : [undefined, 'none'];
}
