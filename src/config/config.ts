// Profiles live in one conf-managed JSON file: { "profiles": { "<name>": Profile } }.
// The file holds tokens, so it is kept at mode 0600 — checked and repaired after every write.
import Conf from 'conf';
import { chmodSync, statSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PROFILE_KEYS = ['base_url', 'token', 'workspace', 'output'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
/** What `sct config set` may write; the token only goes in through `sct auth login`. */
export const SETTABLE_KEYS = ['base_url', 'output', 'workspace'] as const;
export type SettableKey = (typeof SETTABLE_KEYS)[number];

export type Profile = Partial<Record<ProfileKey, string>>;
interface Store {
  profiles: Record<string, Profile>;
}

export const CONFIG_FILE_MODE = 0o600;

/** SCT_CONFIG_DIR, else the platform's config directory ($XDG_CONFIG_HOME/sct, ~/.config/sct, %APPDATA%\sct). */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.SCT_CONFIG_DIR) return env.SCT_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'sct');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'sct');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'sct');
}

export class ConfigStore {
  private readonly conf: Conf<Store>;
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.conf = new Conf<Store>({
      cwd: dir,
      configName: 'config',
      projectName: 'sct',
      configFileMode: CONFIG_FILE_MODE,
      defaults: { profiles: {} },
      // A hand-edited file that no longer parses is an error to show, not data to drop.
      clearInvalidConfig: false,
    });
  }

  get path(): string {
    return this.conf.path;
  }

  profileNames(): string[] {
    return Object.keys(this.conf.get('profiles') ?? {});
  }

  profile(name: string): Profile {
    return { ...(this.conf.get('profiles')?.[name] ?? {}) };
  }

  set(profile: string, key: ProfileKey, value: string): void {
    const profiles = { ...(this.conf.get('profiles') ?? {}) };
    profiles[profile] = { ...(profiles[profile] ?? {}), [key]: value };
    this.write(profiles);
  }

  unset(profile: string, key: ProfileKey): void {
    const profiles = { ...(this.conf.get('profiles') ?? {}) };
    if (!profiles[profile]) return;
    const next = { ...profiles[profile] };
    delete next[key];
    profiles[profile] = next;
    this.write(profiles);
  }

  /** The file's permission bits, or null when it does not exist yet. */
  fileMode(): number | null {
    try {
      return statSync(this.path).mode & 0o777;
    } catch {
      return null;
    }
  }

  private write(profiles: Record<string, Profile>): void {
    this.conf.set('profiles', profiles);
    // conf applies the mode when it creates the file; a file loosened later (an editor, a
    // careless chmod) is tightened again here.
    const mode = this.fileMode();
    if (mode !== null && mode !== CONFIG_FILE_MODE) chmodSync(this.path, CONFIG_FILE_MODE);
  }
}
