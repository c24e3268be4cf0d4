// Which base URL, token and output apply to this run, and where each came from:
// flag > environment > profile, exactly as the spec's configuration table orders them.
import type { ConfigStore, Profile } from './config.js';
import { keyringAccount, keyringGet } from './keyring.js';
import { AuthError, InterruptedError, UsageError } from '../errors.js';
import { withoutCredentials } from '../util/redact.js';
import { baseUrlOf } from './paths.js';
import { httpsInstead, parseBaseUrl } from '../api/endpoint.js';
import { shellWord } from '../util/shell.js';

type Source = 'flag' | 'env' | 'profile' | 'none';
export type TokenStorage = 'keyring' | 'config file' | 'none';

/** Where a stored profile keeps its token, as `auth status` and `config profiles` say it. */
export function tokenStorage(p: Profile): TokenStorage {
  return p.token_storage === 'keyring' ? 'keyring' : p.token ? 'config file' : 'none';
}

/** The profile used when none is named: it exists without an entry in the config file. */
export const DEFAULT_PROFILE = 'default';

export interface Settings {
  profile: string;
  /** Where the profile's name came from: a name the user gave must name a profile that exists. */
  profileSource: 'flag' | 'env' | 'default';
  /** Whether the config file holds this profile. */
  profileExists: boolean;
  baseUrl?: string;
  baseUrlSource: Source;
  /**
   * Read on first use: a token kept in the keyring costs a keyring call (keyring.ts), which only
   * commands that need the token pay.
   */
  readonly token?: string;
  tokenSource: Exclude<Source, 'flag'>;
  /** Where the profile keeps its token (whatever SCT_TOKEN says). */
  tokenStorage: TokenStorage;
  /**
   * The base URL in force does not parse, is not http(s) or holds a query: no stored token goes
   * to it (`token` is then SCT_TOKEN's or undefined, and the keyring is never read); commands say
   * "invalid base URL" (exit 2) before anything else.
   */
  baseUrlInvalid: boolean;
  /** The base URL the profile's token was stored with: the only origin it is sent to. */
  tokenBaseUrl?: string;
  /**
   * The profile holds a token, but for another origin than the base URL in force (a --base-url
   * or SCT_BASE_URL naming another service): `token` is then undefined, and never read.
   */
  tokenWithheld: boolean;
  /** The profile keeps a token for the base URL in force, whether or not SCT_TOKEN is used instead. */
  storedTokenUsable: boolean;
  /** Why a token kept in the keyring could not be read (set once `token` has been read). */
  readonly tokenProblem?: string;
  output?: string;
  workspace?: string;
  /**
   * The base URL's https form when sct refuses to send a token over its plain http (another
   * host; src/api/endpoint.ts): the URL a login hint names.
   */
  httpsBaseUrl?: string;
}

/** What a profile may be called: a plain name, never one that means something to an object or a path. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * --profile, else SCT_PROFILE, else "default". A name such as `__proto__`, `../x` or `-p` is a
 * usage error: silently writing it nowhere, or to another profile, is worse than saying no. An
 * empty --profile too (`--profile "$UNSET"` must not fall back to the default profile); an empty
 * SCT_PROFILE is unset, as for any variable.
 */
export function profileName(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const [name, from] = flag !== undefined ? [flag, '--profile'] : env.SCT_PROFILE ? [env.SCT_PROFILE, 'SCT_PROFILE'] : [DEFAULT_PROFILE, ''];
  if (!PROFILE_NAME.test(name)) {
    const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
    throw new UsageError(
      `invalid profile name ${shown} (${from}): use letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64 characters`,
    );
  }
  return name;
}

export function resolveSettings(
  store: ConfigStore,
  flags: { profile?: string; baseUrl?: string },
  env: NodeJS.ProcessEnv,
): Settings {
  const profile = profileName(flags.profile, env);
  const profileSource = flags.profile !== undefined ? 'flag' : env.SCT_PROFILE ? 'env' : 'default';
  const profileExists = store.profileNames().includes(profile);
  const p = store.profile(profile);
  const [baseUrl, baseUrlSource]: [string | undefined, Source] = baseUrlOf(flags.baseUrl, env, () => p.base_url);
  if (baseUrlSource === 'flag' && !baseUrl) {
    throw new UsageError('--base-url is empty', undefined, "give the service's URL (https://host/api), or leave the flag out to use the profile's");
  }
  const storage = tokenStorage(p);
  const tokenSource: Settings['tokenSource'] = env.SCT_TOKEN ? 'env' : storage !== 'none' ? 'profile' : 'none';
  // A profile stored before token_base_url existed holds its token for its own base_url.
  const tokenBaseUrl = p.token_base_url ?? p.base_url;
  const baseUrlInvalid = baseUrl !== undefined && !validBaseUrl(baseUrl);
  // The profile's token goes to the base URL in force only when it was stored for its origin,
  // never to one the client would refuse as invalid (`sct auth token` would print it for a script
  // to send wherever that names).
  const storedForBaseUrl = baseUrl === undefined || (!baseUrlInvalid && sameOrigin(baseUrl, tokenBaseUrl));
  // Withheld means "stored for another service": an invalid base URL is no service, said as such.
  const tokenWithheld = tokenSource === 'profile' && !storedForBaseUrl && !baseUrlInvalid;
  let read = false;
  let token: string | undefined;
  let problem: string | undefined;
  const readToken = () => {
    if (read) return;
    read = true;
    if (env.SCT_TOKEN) token = env.SCT_TOKEN;
    else if (!storedForBaseUrl) return;
    else if (storage === 'keyring') {
      // A keyring that cannot be read is no token (exit 4 where one is needed), never a hang or
      // a crash; the reason goes into the not-logged-in hint.
      try {
        token = keyringGet(p.token_account ?? keyringAccount(profile, tokenBaseUrl), env) ?? p.token;
        if (token === undefined) problem = 'the keyring has no entry for it';
      } catch (err) {
        if (err instanceof InterruptedError) throw err;
        token = p.token;
        problem = (err as Error).message;
      }
    } else token = p.token;
  };
  const storedTokenUsable = storage !== 'none' && storedForBaseUrl;
  const httpsBaseUrl = baseUrl === undefined ? undefined : httpsInstead(baseUrl, env);
  const settings = { profile, profileSource, profileExists, baseUrl, baseUrlSource, tokenSource, tokenStorage: storage, baseUrlInvalid, tokenBaseUrl, tokenWithheld, storedTokenUsable, output: p.output, workspace: p.workspace, httpsBaseUrl };
  Object.defineProperties(settings, {
    token: { enumerable: true, get: () => (readToken(), token) },
    tokenProblem: { enumerable: true, get: () => (readToken(), problem) },
  });
  return settings as Settings;
}

/** Whether a profile holds a token it does not send to its own base URL (stored for another, or for none). */
export function tokenHeldBack(p: Profile): boolean {
  return tokenStorage(p) !== 'none' && p.base_url !== undefined && p.token_base_url !== undefined && !(validBaseUrl(p.base_url) && sameOrigin(p.base_url, p.token_base_url));
}

/** Whether the client would take this base URL (parseBaseUrl): the only kind a stored token may go to. */
function validBaseUrl(baseUrl: string): boolean {
  try {
    parseBaseUrl(baseUrl);
    return true;
  } catch {
    return false;
  }
}

/** Whether a base URL has the same scheme, host and port as the one a token was stored with. */
function sameOrigin(baseUrl: string, storedWith: string | undefined): boolean {
  if (storedWith === undefined) return false;
  try {
    return new URL(storedWith).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}

/** Why no token can be sent: nobody logged in, or the profile's token belongs to another origin. */
export function notLoggedIn(s: Settings, message = 'not logged in', hint?: string): AuthError {
  if (s.tokenWithheld && s.baseUrl) {
    const url = withoutCredentials(s.baseUrl);
    const profile = s.profile === DEFAULT_PROFILE ? '' : ` --profile ${s.profile}`;
    const storedFor = s.tokenBaseUrl ? ` holds a token for ${withoutCredentials(s.tokenBaseUrl)}, which` : "'s token";
    return new AuthError(
      `not logged in to ${url}`,
      null,
      // A base URL with a password shows it masked: no command to copy, which would log in as "***".
      `profile "${s.profile}"${storedFor} is never sent to another origin: run \`sct auth login --base-url ${url === s.baseUrl ? url : 'URL'}${profile}\`${url === s.baseUrl ? '' : ' with the base URL you gave'} or set SCT_TOKEN`,
    );
  }
  return new AuthError(message, null, notLoggedInHint(s, hint));
}

/** The command that sets a profile's output to table (a profile's output this sct does not know). */
export function setOutputCommand(profile: string): string {
  return `sct${profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`} config set output table`;
}

/**
 * The login that stores a token for this profile: run as written, it never logs another profile
 * in, and it names a --base-url of this run (without it, the login would be for the profile's
 * own), or the https one of a plain http URL sct would refuse; a URL holding a password is not
 * repeated.
 */
function loginCommand(s: Pick<Settings, 'profile' | 'baseUrl' | 'baseUrlSource' | 'httpsBaseUrl'>): string {
  return `sct auth login${profileFlag(s.profile)}${baseUrlFlag(s)}`;
}

/**
 * loginCommand quoted for a hint. A base URL holding a user or password cannot be repeated in a
 * command to copy, and left out the login would be the profile's own service's: asked for in words.
 */
export function loginHint(s: Pick<Settings, 'profile' | 'baseUrl' | 'baseUrlSource' | 'httpsBaseUrl'>): string {
  return baseUrlHidden(s) ? `\`${loginCommand(s)} --base-url URL\` with the base URL you gave` : `\`${loginCommand(s)}\``;
}

/**
 * The `auth status` that asks about the user of this run's token: the same profile and base URL
 * (another's would name another user). A base URL holding a password cannot be named in a
 * command to copy, so it is asked for in words.
 */
export function statusCommand(s: Pick<Settings, 'profile' | 'baseUrl' | 'baseUrlSource' | 'httpsBaseUrl'>): string {
  const command = `sct auth status${profileFlag(s.profile)}${baseUrlFlag(s)}`;
  return baseUrlHidden(s) ? `\`${command} --base-url URL\` with the base URL you gave` : `\`${command}\``;
}

const profileFlag = (profile: string) => (profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`);

/** The --base-url of a command to copy, quoted as a shell reads it back (a space, an `&` in a gateway's path). */
function baseUrlFlag(s: Pick<Settings, 'baseUrl' | 'baseUrlSource' | 'httpsBaseUrl'>): string {
  if (baseUrlHidden(s)) return '';
  if (s.httpsBaseUrl) return ` --base-url ${shellWord(s.httpsBaseUrl)}`;
  return s.baseUrlSource === 'flag' && s.baseUrl ? ` --base-url ${shellWord(s.baseUrl)}` : '';
}

/** A base URL holding a user or password (a gateway's) is never repeated in a command: its https form would drop them. */
const baseUrlHidden = (s: Pick<Settings, 'baseUrl' | 'baseUrlSource' | 'httpsBaseUrl'>) =>
  (s.baseUrlSource === 'flag' || s.httpsBaseUrl !== undefined) && s.baseUrl !== undefined && withoutCredentials(s.baseUrl) !== s.baseUrl;

/** The hint of a "not logged in" error, saying why a keyring-kept token could not be read. */
function notLoggedInHint(s: Settings, hint = s.baseUrl ? `run ${loginHint(s)} or set SCT_TOKEN` : `run \`${loginCommand(s)} --base-url https://…/api\`, or set SCT_TOKEN and SCT_BASE_URL`): string {
  return s.tokenStorage === 'keyring' && s.tokenProblem ? `its token is kept in the system keyring, which failed: ${s.tokenProblem}; ${hint}` : hint;
}

/**
 * A profile named with --profile or SCT_PROFILE that the config file does not hold is a typo far
 * more often than a wish for an empty profile: exit 2 naming it and the profiles there are.
 * Commands that create a profile (auth login, config set) pass `creating`.
 */
export function checkProfileExists(s: Settings, names: () => string[], creating = false): void {
  // The default profile needs no entry, however it is named: the environment alone is enough.
  if (creating || s.profileExists || s.profile === DEFAULT_PROFILE) return;
  // The default profile is there without an entry, as `config profiles` lists it.
  const known = names().includes(DEFAULT_PROFILE) ? names() : [DEFAULT_PROFILE, ...names()];
  const from = s.profileSource === 'flag' ? '--profile' : 'SCT_PROFILE';
  throw new UsageError(
    `no profile "${s.profile}" (${from}): the profiles are ${known.join(', ')}`,
    {},
    `create it with \`sct auth login --profile ${s.profile} --base-url https://…/api\` or \`sct config set base_url URL --profile ${s.profile}\``,
  );
}
