import type { Context } from '../context.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { missingApiPrefix, parseBaseUrl } from '../api/endpoint.js';
import { AuthError, InterruptedError, SctError, UsageError } from '../errors.js';
import { DEFAULT_PROFILE, notLoggedIn, type Settings } from '../config/settings.js';
import { credentialsInText, maskToken, withoutCredentials } from '../util/redact.js';
import { KEYRING_SERVICE, KeyringUnavailable, keyringAccount, keyringDelete, keyringSet } from '../config/keyring.js';
import { displayName, fetchMe, type Me } from '../api/me.js';
import { openToOthers, type Profile } from '../config/config.js';
import { readInputText } from '../util/files.js';
import { writeOne } from '../output/format.js';
import { cleanCell } from '../util/sanitize.js';
import type { Column } from '../output/columns.js';

const LOGIN_OPTIONS = [
  { flags: '--with-token', description: 'read the token from stdin' },
  { flags: '--insecure-storage', description: 'keep the token in the config file (mode 0600), not in the system keyring' },
  // Never taken: here only to say so, rather than commander's "unknown option".
  { flags: '--token <token>', description: 'not taken: see --with-token', hidden: true },
] as const;

export type LoginOptions = OptionsOf<typeof LOGIN_OPTIONS>;

export const register = registerOf({
  name: 'auth',
  leaves: [
    defineLeaf({
      name: 'login',
      summary: 'Store a token for the profile after checking it with the service',
      options: LOGIN_OPTIONS,
      help: '\nThe token is kept in the system keyring (macOS Keychain, Windows Credential Manager, Secret Service),\nor in the config file when there is none or with --insecure-storage.\nThe token is never taken as a flag value: it would land in shell history and `ps`.',
      examples: ['sct auth login --base-url http://127.0.0.1:8080/api --with-token < token.txt', 'sct auth login --profile staging --base-url http://127.0.0.1:8080/api --insecure-storage'],
      run: (ctx, opts) => login(ctx, opts),
    }),
    defineLeaf({
      name: 'status',
      summary: 'Show base URL, user, company and where the token comes from (exit 4 when not logged in)',
      prints: 'authStatus',
      examples: ['sct auth status', 'sct auth status --profile staging'],
      run: (ctx) => status(ctx),
    }),
    defineLeaf({
      name: 'logout',
      summary: "Forget the profile's token (with --base-url or SCT_BASE_URL, only if it was stored for that origin)",
      examples: ['sct auth logout', 'sct auth logout --profile staging'],
      run: (ctx) => logout(ctx),
    }),
    defineLeaf({
      name: 'token',
      summary: 'Print the token (for piping into other tools)',
      prints: 'authToken',
      examples: ['sct auth token', 'curl -H "Authorization: Bearer $(sct auth token)" http://127.0.0.1:8080/api/accounts/me'],
      run: (ctx) => printToken(ctx),
    }),
  ],
});

export async function login(ctx: Context, opts: LoginOptions): Promise<void> {
  if (opts.token !== undefined) {
    throw new UsageError('the token is never taken from a flag: it would land in shell history and `ps`', {}, 'pipe it in: sct auth login --with-token < token.txt, or set SCT_TOKEN for one command');
  }
  const s = ctx.settings({ creating: true });
  if (!s.baseUrl) {
    throw new UsageError('no base URL: pass --base-url https://…/api (it is stored in the profile)');
  }
  let token: string;
  let source: string;
  if (opts.withToken) {
    token = (await readInputText('-', ctx.io.stdin, { signal: ctx.signal })).trim();
    source = 'standard input (--with-token)';
    if (!token) throw new UsageError('no token on stdin (--with-token reads it from standard input)');
  } else if (ctx.io.canPrompt()) {
    // Enter before the paste arrived is asked again, as gh does, not the end of the login.
    token = (await ctx.prompter.password('Paste your API token:', (v) => v.trim() !== '' || 'a token is required (Ctrl-C to stop)')).trim();
    source = 'the prompt';
    if (!token) throw new UsageError('no token given');
  } else {
    throw new UsageError(`no prompt for the token (${ctx.io.noPromptReason()})`, {}, 'pipe it in: sct auth login --with-token < token.txt');
  }

  const warning = missingApiPrefix(s.baseUrl);
  if (warning) ctx.io.warn(warning);

  // Verify before storing: a token the service rejects (or that cannot be sent) is never written.
  // The run's own client (--timeout, --max-wait, --verbose), with this token rather than a stored one.
  const client = ctx.client({ token: { value: token, source }, checkBaseUrl: false });
  let me: Me;
  try {
    me = await fetchMe(client);
  } catch (err) {
    if (err instanceof AuthError) throw new AuthError(`the service rejected this token (401 on GET /accounts/me)`, 401);
    throw err;
  } finally {
    await client.close();
  }
  await storeToken(ctx, s.profile, s.baseUrl, s.baseUrlSource !== 'profile', token, !opts.insecureStorage);
  if (ctx.env.SCT_TOKEN) ctx.io.warn('SCT_TOKEN is set in the environment and takes precedence over the stored token');
  ctx.io.info(
    `${ctx.io.colorErr.green('✓')} Logged in to ${withoutCredentials(s.baseUrl)} as ${cleanCell(displayName(me))}` +
      (me.company?.name ? ` (${cleanCell(me.company.name)})` : '') +
      ` — profile "${s.profile}"`,
  );
}

/**
 * Keeps the token in the keyring (entry "sct" / "<profile>@<base URL>") and only that fact in the
 * profile, or, without a usable keyring or with --insecure-storage, in the 0600 config file. A
 * keyring entry the profile named before and no longer uses is removed.
 */
async function storeToken(ctx: Context, profile: string, baseUrl: string, named: boolean, token: string, useKeyring: boolean): Promise<void> {
  const store = ctx.config();
  const before = store.profile(profile);
  const account = keyringAccount(profile, baseUrl);
  // A storage a newer sct wrote: its note goes with this login, the secret it names does not.
  const unknown = unknownStorage(before);
  if (unknown) ctx.io.warn(`profile "${profile}" kept its earlier token in ${unknown}, which this version of sct does not know: that token stays there (remove it with the sct or the tool that stored it)`);
  let inKeyring = false;
  if (useKeyring) {
    try {
      keyringSet(account, token, ctx.env);
      inKeyring = true;
    } catch (err) {
      // Only a keyring that cannot be used sends the token to the file: a stopped run stores it nowhere.
      if (!(err instanceof KeyringUnavailable)) throw err;
      // A warning, not progress: where the secret went is said under -q too.
      ctx.io.warn(`the system keyring cannot be used (${(err as Error).message}): the token is kept in the config file ${store.path} (mode 0600)`);
    }
  }
  // The new token belongs to this base URL: an older token's own URL goes with it, and so does
  // the workspace a switch recorded with the older token (another user's, perhaps: a workspace
  // this token may not be able to switch to).
  if (inKeyring) await store.storeToken(profile, baseUrl, named, { token_storage: 'keyring', token_account: account }, ['token', 'token_base_url', 'workspace']);
  else {
    await store.storeToken(profile, baseUrl, named, { token }, ['token_storage', 'token_account', 'token_base_url', 'workspace']);
    // Said where the secret is written, not only by doctor: the file is 0600, its directory may not be.
    const open = openToOthers(store.dir);
    if (open) ctx.io.warn(`the config directory ${store.dir} ${open} (sct doctor checks it)`);
  }
  if (before.token_storage === 'keyring') {
    const old = before.token_account ?? keyringAccount(profile, before.token_base_url ?? before.base_url);
    if (!inKeyring || old !== account) {
      // The old entry stays behind where it cannot be removed; nothing reads it any more. Stopped
      // here, the login is done (the profile names the new token): said so, with the old
      // secret's way out.
      let removal;
      try {
        removal = removeFromKeyring(old, ctx.env);
      } catch (err) {
        if (!(err instanceof InterruptedError)) throw err;
        const stopped = new InterruptedError(`interrupted after the login was stored: the earlier token is still in the system keyring (its removal was stopped)`);
        stopped.hint = keyringByHand(old);
        throw stopped;
      }
      if (removal.failure) ctx.io.warn(`the earlier token is still in the system keyring (${removal.failure.message}): ${keyringByHand(old)}`);
    }
  }
}

export async function status(ctx: Context): Promise<void> {
  const s = ctx.settings();
  // Exit 2 as every command says it, before any line of the token is printed.
  if (s.baseUrlInvalid) parseBaseUrl(s.baseUrl!);
  if (!s.token) throw notLoggedIn(s, `not logged in (profile "${s.profile}")`);
  // What is configured here is printed even when the service cannot say who the token belongs
  // to: the profile, base URL and token source are what to check when it is down or says no.
  let me: Me | undefined;
  let failure: unknown;
  try {
    me = await fetchMe(ctx.client());
  } catch (err) {
    failure = err;
  }
  const info = {
    profile: s.profile,
    base_url: s.baseUrl ? withoutCredentials(s.baseUrl) : null,
    base_url_source: s.baseUrlSource,
    user: me ? { id: me.id, name: displayName(me), email: me.email ?? null } : null,
    company: me?.company ? { id: me.company.id, name: me.company.name } : null,
    role: me?.auth_group?.name ?? null,
    token: maskToken(s.token),
    token_source: s.tokenSource === 'env' ? 'SCT_TOKEN' : 'profile',
    // Where the profile keeps its token: keyring, config file or none (SCT_TOKEN may be used instead).
    token_storage: s.tokenStorage,
  };
  const detail: Column[] = [
    { header: 'Profile', path: 'profile' },
    { header: 'Base URL', path: 'base_url', value: (r) => (r.base_url ? `${r.base_url} (from ${r.base_url_source})` : '(none)') },
  ];
  if (me) {
    const user = me;
    detail.push(
      { header: 'User', path: 'user.name', value: () => `${displayName(user)} (id ${user.id})` },
      { header: 'Company', path: 'company.name', value: () => (user.company ? `${user.company.name} (id ${user.company.id})` : '') },
      { header: 'Role', path: 'role' },
    );
  }
  detail.push(
    { header: 'Token', path: 'token', value: (r) => `${r.token} (from ${r.token_source})` },
    { header: 'Token storage', path: 'token_storage' },
  );
  await writeOne(ctx.io, info, { ...ctx.output([]), detail });
  if (failure) throw failure;
}

export async function logout(ctx: Context): Promise<void> {
  const s = ctx.settings();
  refuseOtherOrigin(s);
  const store = ctx.config();
  const accountOf = (p: Profile) => p.token_account ?? keyringAccount(s.profile, p.token_base_url ?? p.base_url);
  // The keyring's entry goes before the profile forgets it: a run stopped in between (Ctrl-C
  // reaches the keyring helper too, a kill) leaves a profile that still names the entry, and a
  // rerun removes it. The other way round, the secret stayed with nothing pointing at it.
  const seen = store.profile(s.profile);
  // A storage a newer sct wrote: forgetting its note of where the token is would leave the secret
  // there, and say it was removed.
  const unknown = seen.token === undefined ? unknownStorage(seen) : undefined;
  if (unknown) {
    const refused = new SctError(`profile "${s.profile}" keeps its token in ${unknown}, which this version of sct does not know: nothing was removed`);
    refused.hint = 'log out with the sct that logged in (a newer version), or remove the token with the tool that stored it';
    throw refused;
  }
  const first = seen.token_storage === 'keyring' ? removeFromKeyring(accountOf(seen), ctx.env) : undefined;
  // Whether there was a token is decided by the write itself, under the config lock: a check made
  // before it could be undone by another process's write in between.
  const before = await store.forgetToken(s.profile);
  let from = 'token removed from the config file';
  if (before?.token_storage === 'keyring') {
    const account = accountOf(before);
    // Another process's login in between may have named another entry: that one goes too.
    const removal = first?.account === account ? first : removeFromKeyring(account, ctx.env);
    if (removal.failure) {
      // The profile no longer uses the token, but the secret is still there: never "removed", and
      // not exit 0, which a script would take for a token forgotten.
      if (ctx.env.SCT_TOKEN) ctx.io.warn('SCT_TOKEN is still set in the environment and is used by every command');
      const failed = new SctError(`logged out of profile "${s.profile}", but the token is still in the system keyring: it could not be removed (${removal.failure.message})`);
      failed.hint = keyringByHand(account);
      throw failed;
    }
    // An entry removed meanwhile (by hand, by the keyring's own tool) is no token removed now.
    from = removal.had ? 'token removed from the system keyring' : 'the system keyring held no token for it any more';
  }
  ctx.io.info(before ? `Logged out of profile "${s.profile}" (${from}).` : `Profile "${s.profile}" had no stored token.`);
  if (ctx.env.SCT_TOKEN) ctx.io.warn('SCT_TOKEN is still set in the environment and is used by every command');
}

/**
 * A --base-url or SCT_BASE_URL naming another origin than the profile's token was stored for:
 * that token is not this service's to forget, as `gh auth logout --hostname` touches its host
 * only. Exit 4 as every command there, the token kept; the hint says how to log out of it. Without
 * either, the logout is the profile's own, wherever its base_url now points.
 */
function refuseOtherOrigin(s: Settings): void {
  if (s.baseUrlSource !== 'flag' && s.baseUrlSource !== 'env') return;
  if (s.baseUrlInvalid) parseBaseUrl(s.baseUrl!);
  if (s.tokenStorage === 'none' || s.storedTokenUsable) return;
  const profile = s.profile === DEFAULT_PROFILE ? '' : ` --profile ${s.profile}`;
  const storedFor = s.tokenBaseUrl ? ` for ${withoutCredentials(s.tokenBaseUrl)}` : '';
  const how = s.baseUrlSource === 'flag' ? `run \`sct auth logout${profile}\` without --base-url` : `unset SCT_BASE_URL and run \`sct auth logout${profile}\``;
  throw new AuthError(`not logged in to ${withoutCredentials(s.baseUrl!)}`, null, `profile "${s.profile}" holds a token${storedFor}, which stays: ${how} to remove it`);
}

/** A token storage a newer sct wrote (quoted), which this one does not know; undefined for the file and the keyring. */
function unknownStorage(p: Profile): string | undefined {
  return p.token_storage !== undefined && p.token_storage !== 'keyring' ? JSON.stringify(p.token_storage) : undefined;
}

/** How to remove a keyring entry sct could not: each system's own tool. */
function keyringByHand(account: string): string {
  // An entry an earlier sct named with a base URL's password: not repeated.
  return `remove it with the keyring's own tool where it can be reached (Linux: secret-tool clear service ${KEYRING_SERVICE} account '${credentialsInText(account)}'; macOS: Keychain Access, "${KEYRING_SERVICE}"; Windows: Credential Manager)`;
}

/** Removes a keyring entry: whether it was there, or why it could not be removed. A stop signal (InterruptedError) ends the run. */
function removeFromKeyring(account: string, env: NodeJS.ProcessEnv): { account: string; had?: boolean; failure?: KeyringUnavailable } {
  try {
    return { account, had: keyringDelete(account, env) };
  } catch (err) {
    if (err instanceof KeyringUnavailable) return { account, failure: err };
    throw err;
  }
}

export async function printToken(ctx: Context): Promise<void> {
  const s = ctx.settings();
  // `curl -H "Authorization: Bearer $(sct auth token)" "$SCT_BASE_URL/…"` would send it wherever
  // an invalid base URL names: exit 2 as every command, SCT_TOKEN's too, nothing printed.
  if (s.baseUrlInvalid) parseBaseUrl(s.baseUrl!);
  if (!s.token) throw notLoggedIn(s, `not logged in (profile "${s.profile}")`);
  // As `config get`: JSON when -o json (or --json) is given on the command line, else the bare
  // token for $(sct auth token).
  if (ctx.flags.output !== undefined || ctx.flags.json !== undefined) await writeOne(ctx.io, { token: s.token }, ctx.output([]));
  else await ctx.io.write(s.token + '\n');
}
