// Profiles live in one JSON file: { "profiles": { "<name>": Profile } }.
// The file holds tokens, so it is kept at mode 0600.
//
// Every sct process of the user shares the file, so a change is a read-modify-write under a
// lock (config.json.lock), the read done inside it, and the result written through a new
// temporary file renamed into place: a parallel run never loses another's change, and a reader
// never sees half a file.
//
// conf managed this file once. Its write had to be replaced (the `atomically` package under it
// opens its temporary file without O_EXCL, following a symlink planted at that name, and writes
// through a symlinked config.json to wherever it points), which left it reading one JSON file,
// for 37 ms of CPU per command loading it and ajv (bench/results.md): a one-request command's
// whole budget. The file is read here, afresh on every access, as conf did.
import { mkdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ConfigFileError, SctError } from '../errors.js';
import { withLock } from './lock.js';
import { fileErrorText, removeStaleTemps, writeAtomically } from '../util/files.js';
import { isPlainObject } from '../util/objects.js';
import { jsonErrorPlace } from '../util/json-error.js';

export const PROFILE_KEYS = ['base_url', 'token', 'workspace', 'output'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
/** What `sct config set` may write; the token only goes in through `sct auth login`. */
export const SETTABLE_KEYS = ['base_url', 'output', 'workspace'] as const;
export type SettableKey = (typeof SETTABLE_KEYS)[number];

/**
 * `token_storage: "keyring"` says the profile's token is in the OS keyring under `token_account`
 * (see keyring.ts), never in this file; a `token` here is one kept in the file.
 * `token_base_url`: the base URL the token was stored with, once `base_url` was changed since
 * (empty: stored with none); without it, `base_url` is that URL (settings.ts sends the token to
 * that origin only).
 */
export type StoredKey = ProfileKey | 'token_storage' | 'token_account' | 'token_base_url';
export type Profile = Partial<Record<StoredKey, string>>;
interface Store {
  profiles: Record<string, Profile>;
}

export const CONFIG_FILE_MODE = 0o600;

export class ConfigStore {
  readonly dir: string;
  readonly path: string;

  /** `signal`: the run's Ctrl-C, which ends a wait for another process's lock. */
  constructor(
    dir: string,
    private readonly signal?: AbortSignal,
  ) {
    this.dir = dir;
    this.path = join(dir, 'config.json');
  }

  /**
   * Makes the directory for a write. A read needs none: with the environment alone (SCT_TOKEN,
   * SCT_BASE_URL) a command runs where no directory can be made (a container's read-only HOME),
   * and a read never leaves one behind.
   */
  makeDir(): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      // SCT_CONFIG_DIR naming a file, a read-only place: said of the directory, not as mkdir's EEXIST.
      const e = new ConfigFileError(`the config directory ${this.dir} cannot be made: ${fileErrorText(err)}`);
      e.hint = 'set SCT_CONFIG_DIR to a directory sct may write in';
      throw e;
    }
  }

  profileNames(): string[] {
    return Object.keys(this.profiles());
  }

  profile(name: string): Profile {
    const found = ownProfile(this.profiles(), name);
    if (!found) return {};
    // Written by hand, a value may be anything JSON holds: `"base_url": 42` is the file's fault,
    // said as such, not a crash further on. A workspace may be the number an older sct wrote.
    for (const key of STORED_KEYS) {
      const value: unknown = found[key];
      if (value === undefined || typeof value === 'string' || (key === 'workspace' && typeof value === 'number')) continue;
      // Its kind, never its value: a token kept in another shape (a newer sct's) is still a secret.
      throw invalidFile(this.path, `profile "${name}" has a ${key} that is ${kindOf(value)}, not text`);
    }
    // An output written by hand in capitals is the format it names, as `-o JSON` is. One that
    // names none (a newer sct's, a typo) is refused where it would be used (Context.format), so
    // that `-o` and `config set output` still work.
    const output = found.output?.toLowerCase();
    return { ...found, ...(output !== undefined && { output }), ...(found.workspace !== undefined && { workspace: String(found.workspace) }) };
  }

  set(profile: string, key: ProfileKey, value: string): Promise<void> {
    return this.setMany(profile, { [key]: value });
  }

  /**
   * Several keys of one profile in one write: a login stores base URL and token together or not
   * at all. `remove` keys go in the same write (a token moving to the keyring leaves the file).
   */
  async setMany(profile: string, values: Profile, remove: StoredKey[] = []): Promise<void> {
    await this.update((profiles) => {
      const current = ownProfile(profiles, profile);
      const next: Profile = { ...current, ...values };
      keepTokenBaseUrl(current, next);
      for (const k of remove) delete next[k];
      profiles[profile] = next;
      return true;
    });
  }

  /**
   * Stores a token verified against `baseUrl`, under the lock. `baseUrl` becomes the profile's base
   * URL when the login named it (`named`: a flag or SCT_BASE_URL), or when the profile still holds
   * the one the login read: a `config set base_url` made while the login asked the service is
   * kept, and the token is recorded for the URL it was verified against (token_base_url).
   */
  async storeToken(profile: string, baseUrl: string, named: boolean, values: Profile, remove: StoredKey[]): Promise<void> {
    await this.update((profiles) => {
      const current = ownProfile(profiles, profile);
      const moved = !named && current?.base_url !== undefined && current.base_url !== baseUrl;
      const next: Profile = { ...current, ...values, base_url: moved ? current!.base_url : baseUrl };
      for (const k of remove) delete next[k];
      if (moved) next.token_base_url = baseUrl;
      profiles[profile] = next;
      return true;
    });
  }

  /**
   * Removes the profile's token, wherever the file says it is, under the lock; returns the
   * profile as it was read there (a logout then removes a keyring entry it names), or undefined
   * when it had no token.
   */
  async forgetToken(profile: string): Promise<Profile | undefined> {
    let before: Profile | undefined;
    await this.update((profiles) => {
      const current = ownProfile(profiles, profile);
      if (!current || (!Object.hasOwn(current, 'token') && !Object.hasOwn(current, 'token_storage'))) return false;
      before = { ...current };
      const next = { ...current };
      delete next.token;
      delete next.token_storage;
      delete next.token_account;
      delete next.token_base_url;
      profiles[profile] = next;
      return true;
    });
    return before;
  }

  /** Removes one key; says whether it was there, as read under the lock (a logout reports what it did). */
  unset(profile: string, key: ProfileKey): Promise<boolean> {
    return this.update((profiles) => {
      const current = ownProfile(profiles, profile);
      if (!current || !Object.hasOwn(current, key)) return false;
      const next = { ...current };
      delete next[key];
      keepTokenBaseUrl(current, next);
      profiles[profile] = next;
      return true;
    });
  }

  /** The file's permission bits, or null when it does not exist yet. */
  fileMode(): number | null {
    try {
      return statSync(this.path).mode & 0o777;
    } catch {
      return null;
    }
  }

  /**
   * config.json's stat, or undefined when it is not there. Only a file that is not (or a
   * directory on its path that is not) counts as none: one that cannot be reached (a directory
   * its owner cannot read, root's after a `sudo sct …`; a link that loops) is an error, never
   * "not logged in".
   */
  private fileStat(): Stats | undefined {
    try {
      return statSync(this.path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      const e = new ConfigFileError(`cannot read the config file ${this.path}: ${(err as Error).message}`, { cause: err });
      // The file may be fine: what keeps it out of reach is on its way (moving it away would
      // only lose the stored login).
      e.hint = code === 'EACCES' || code === 'EPERM' ? `a directory on its path does not let you in: check their permissions (ls -ld "${this.dir}"; sct doctor)` : 'fix the path to it, or move it away to start over';
      throw e;
    }
  }

    /** The profiles as the file holds them now. */
  private profiles(): Record<string, unknown> {
    return this.profilesOf(this.read());
  }

  /**
   * The file as it is now. A missing file reads as empty; a hand-edited file that no longer
   * parses is an error to show, never data to drop. A missing "profiles" reads as none.
   */
  private read(): Store {
    const found = this.fileStat();
    if (!found) {
      // SCT_CONFIG_DIR naming a file is a mistake said at once, never read as no configuration
      // (a stored login would seem gone); a directory that is not there is no configuration yet.
      if (isNonDirectory(this.dir)) this.makeDir();
      return { profiles: {} };
    }
    const store: unknown = readingConfig(this.path, () => {
      // A FIFO or a device would be waited on (a FIFO until something writes to it), past Ctrl-C:
      // the read blocks the one thread that would handle it.
      if (!found.isFile()) throw new Error('not a regular file');
      // A byte-order mark (Notepad's UTF-8) is no part of the JSON; an empty file holds nothing
      // yet (an editor's new file, a truncation), so it is a file with no profiles, as none is.
      const text = readFileSync(this.path, 'utf8').replace(/^\uFEFF/, '');
      if (text.trim() === '') return { profiles: {} };
      try {
        return JSON.parse(text);
      } catch (err) {
        throw new Error(`not valid JSON${jsonErrorPlace(text, (err as Error).message)}`);
      }
    });
    if (!isPlainObject(store)) throw invalidFile(this.path, 'not a JSON object');
    return store as unknown as Store;
  }

  /** In an object without a prototype: a profile named `constructor` is only ever a profile. */
  private profilesOf(store: Store): Record<string, unknown> {
    const stored: unknown = store.profiles;
    const profiles: Record<string, unknown> = Object.create(null);
    if (stored === undefined) return profiles;
    if (!isPlainObject(stored)) throw invalidFile(this.path, '"profiles" is not an object');
    for (const [name, value] of Object.entries(stored)) {
      // Read as an empty profile, it would be replaced by the next write.
      if (!isPlainObject(value)) throw invalidFile(this.path, `profile "${name}" is not an object`);
      profiles[name] = value;
    }
    return profiles;
  }

  /** Applies `change` to the profiles read under the lock and writes them back if it says so. */
  private update(change: (profiles: Record<string, unknown>) => boolean): Promise<boolean> {
    this.makeDir();
    return withLock(`${this.path}.lock`, () => {
      // Read inside the lock: what another process wrote a moment ago is part of what is written back.
      const store = this.read();
      const profiles = this.profilesOf(store);
      // A write cut short left its new file beside this one, maybe with a token in it.
      removeStaleTemps(this.path);
      if (!change(profiles)) return false;
      try {
        writeAtomically(this.path, JSON.stringify({ ...store, profiles }, undefined, '\t'), CONFIG_FILE_MODE);
      } catch (err) {
        // The file as it was is kept (the write goes through a new file renamed into place).
        throw new SctError(`writing the config file ${this.path}: ${(err as Error).message}; it is as it was`, { cause: err });
      }
      return true;
    }, { signal: this.signal });
  }
}

/**
 * A profile's token belongs to the base URL it was stored with: when `base_url` changes under a
 * stored token (`sct config set base_url`), that URL is kept beside the token, so the token does
 * not follow the change to another service. A login stores a new token and removes it.
 */
function keepTokenBaseUrl(before: Profile | undefined, next: Profile): void {
  if (!before || next.base_url === before.base_url || next.token_base_url !== undefined) return;
  // A token stored with no base URL at all (a file written by hand) was stored for no origin:
  // recorded as such (empty), it goes to none, rather than to the first URL set after it.
  if (Object.hasOwn(before, 'token') || Object.hasOwn(before, 'token_storage')) next.token_base_url = before.base_url ?? '';
}

function ownProfile(profiles: Record<string, unknown>, name: string): Profile | undefined {
  const value = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  return isPlainObject(value) ? (value as Profile) : undefined;
}


const STORED_KEYS: readonly StoredKey[] = [...PROFILE_KEYS, 'token_storage', 'token_account', 'token_base_url'];

/** A config file sct can read but not use: exit 2, and doctor's config line. */
function invalidFile(path: string, why: string): ConfigFileError {
  const e = new ConfigFileError(`the config file ${path} is not valid: ${why}`);
  e.hint = 'fix the file, or move it away to start over';
  return e;
}

/** JSON.parse's errors ("Unexpected end of JSON input") do not say which file is broken. */
function readingConfig<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof SctError) throw err;
    const e = new ConfigFileError(`cannot read the config file ${path}: ${(err as Error).message}`, { cause: err });
    e.hint = 'fix the file, or move it away to start over';
    throw e;
  }
}

/** Whether something other than a directory is at `path` (nothing there, or no way to it, is not). */
function isNonDirectory(path: string): boolean {
  try {
    return !statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why someone else could change what is in the directory (replace the config file, and with it
 * the base URL a token is sent to), and what to do, or undefined: it is writable by other users,
 * or another user owns it. Undefined where the system does not say.
 */
export function openToOthers(dir: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  let st;
  try {
    st = statSync(dir);
  } catch {
    return undefined;
  }
  const uid = process.getuid?.();
  const what = 'could replace the file holding the token (and the base URL it is sent to)';
  if (uid !== undefined && st.uid !== uid) return `is owned by uid ${st.uid}, not by you (uid ${uid}): that user ${what}; use a directory of your own (SCT_CONFIG_DIR) or chown it`;
  if (st.mode & 0o022) return `is writable by other users, who ${what}: chmod 700 "${dir}"`;
  return undefined;
}

/** What a JSON value is, in words: "a number", "a list", "an object". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
