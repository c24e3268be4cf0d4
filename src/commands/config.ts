import type { Context } from '../context.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import { SETTABLE_KEYS, PROFILE_KEYS, type SettableKey, type ProfileKey } from '../config/config.js';
import { DEFAULT_PROFILE, profileName, tokenHeldBack, tokenStorage } from '../config/settings.js';
import { maskToken, withoutCredentials } from '../util/redact.js';
import { shellWord } from '../util/shell.js';
import { ConfigFileError, UsageError } from '../errors.js';
import { parseFormat, writeList, writeOne } from '../output/format.js';
import { missingApiPrefix, parseBaseUrl } from '../api/endpoint.js';

/** What `config get` reads: every key of a profile but the token (`auth token` prints it). */
const GETTABLE_KEYS = PROFILE_KEYS.filter((k) => k !== 'token');

export const register = registerOf({
  name: 'config',
  description: `Read and write profile settings (${SETTABLE_KEYS.join(', ')})`,
  leaves: [
    defineLeaf({ name: 'list', summary: "Show the profile's settings (token masked)", prints: 'configList', examples: ['sct config list', 'sct config list --profile staging'], run: (ctx) => list(ctx) }),
    defineLeaf({
      name: 'get',
      summary: 'Print one setting',
      args: [{ name: '<key>', description: `one of ${GETTABLE_KEYS.join(', ')}`, values: GETTABLE_KEYS }],
      examples: ['sct config get base_url', 'sct config get output --profile staging'],
      run: (ctx, _o, [key]) => get(ctx, key),
    }),
    defineLeaf({
      name: 'set',
      summary: 'Change one setting',
      args: [{ name: '<key>', description: SETTABLE_KEYS.join(', '), values: SETTABLE_KEYS }, { name: '<value>' }],
      examples: ['sct config set output json', 'sct config set base_url http://127.0.0.1:8080/api --profile sandbox'],
      run: (ctx, _o, [key, value]) => set(ctx, key, value),
    }),
    defineLeaf({
      name: 'unset',
      summary: 'Remove one setting',
      args: [{ name: '<key>', description: SETTABLE_KEYS.join(', '), values: SETTABLE_KEYS }],
      examples: ['sct config unset output', 'sct config unset workspace --profile staging'],
      run: (ctx, _o, [key]) => unset(ctx, key),
    }),
    defineLeaf({ name: 'path', summary: 'Print the config file path', prints: 'configPath', examples: ['sct config path'], run: (ctx) => path(ctx) }),
    defineLeaf({
      name: 'profiles',
      prints: 'profile',
      summary: 'List the profiles: the current one marked, base URL, where the token is kept',
      examples: ['sct config profiles', 'sct config profiles --json'],
      run: (ctx) => profiles(ctx),
    }),
  ],
});

const PROFILE_COLUMNS = [
  { header: 'CURRENT', path: 'current', value: (r: Record<string, unknown>) => (r.current ? '*' : '') },
  { header: 'PROFILE', path: 'name' },
  { header: 'BASE URL', path: 'base_url' },
  // A token kept for another URL than the profile's is never sent to it: said beside its storage.
  { header: 'TOKEN', path: 'token_storage', value: (r: Record<string, unknown>) => `${String(r.token_storage)}${r.token_held_back ? ' (stored for another URL: not sent)' : ''}` },
];

/**
 * Every profile of the config file, the one this run uses even when it is not there yet, and
 * the default one, which exists without an entry (the "no profile" error names it too).
 */
async function profiles(ctx: Context): Promise<void> {
  const store = ctx.config();
  // The current profile is the one --profile / SCT_PROFILE name: one they name that does not
  // exist is the usual exit 2 listing the profiles; the default one is listed even before it is.
  const current = profileName(ctx.flags.profile, ctx.env);
  const names = store.profileNames();
  if (!names.includes(current) && (ctx.flags.profile !== undefined || ctx.env.SCT_PROFILE)) ctx.settings();
  const rows = names.map((name) => {
    const p = store.profile(name);
    return { name, current: name === current, base_url: p.base_url === undefined ? null : withoutCredentials(p.base_url), token_storage: tokenStorage(p), token_held_back: tokenHeldBack(p) };
  });
  for (const name of [current, DEFAULT_PROFILE]) {
    if (!rows.some((r) => r.name === name)) rows.push({ name, current: name === current, base_url: null, token_storage: 'none', token_held_back: false });
  }
  await writeList(ctx.io, rows, ctx.output(PROFILE_COLUMNS));
  if (ctx.env.SCT_TOKEN) ctx.io.info('SCT_TOKEN is set: it is used instead of any profile\'s token');
}

/** `base-url` as the flag spells it reads as `base_url`, the key's own name. */
const normalize = (key: string) => key.trim().toLowerCase().replace(/-/g, '_');

function settable(raw: string, unsetting = false): SettableKey {
  const key = normalize(raw);
  if (key === 'token' && unsetting) throw new UsageError('the token is forgotten with `sct auth logout` (from the keyring or the config file, wherever it is kept)');
  if (key === 'token') throw new UsageError('the token is set with `sct auth login`, never as a value on the command line');
  if (!(SETTABLE_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`unknown setting "${key}": use one of ${SETTABLE_KEYS.join(', ')}`);
  }
  return key as SettableKey;
}

function checkValue(key: SettableKey, value: string): string {
  // As the flag takes it: `-o JSON` is json.
  if (key === 'output') return parseFormat(value.trim().toLowerCase());
  if (key === 'base_url') {
    // Spaces a paste brought along would be stored, and shown in every message.
    const url = value.trim();
    parseBaseUrl(url);
    return url.replace(/\/+$/, '');
  }
  if (key === 'workspace' && !(/^[1-9]\d*$/.test(value) && Number.isSafeInteger(Number(value)))) {
    throw new UsageError(`invalid workspace "${value}": expected a company id (a whole number from 1)`);
  }
  return value;
}

/**
 * A setting or the path as data when -o json/ndjson (or --json) is given on the command line;
 * otherwise the bare value, for `$(sct config get base_url)`. A profile's default output does
 * not turn it into JSON: `config get output` would print its own answer as JSON.
 */
async function writeSetting(ctx: Context, name: string, value: string | undefined): Promise<void> {
  // --jq filters the JSON: {"<name>": value}.
  if (ctx.flags.output !== undefined || ctx.flags.json !== undefined || ctx.flags.jq !== undefined) {
    await writeOne(ctx.io, { [name]: value ?? null }, ctx.output([]));
    return;
  }
  if (value !== undefined) await ctx.io.write(value + '\n');
}

async function list(ctx: Context): Promise<void> {
  const s = ctx.settings();
  const p = ctx.config().profile(s.profile);
  const shown: Record<string, string | null> = { profile: s.profile };
  // A password in the base URL is masked as the token is; `config get base_url` prints it whole.
  for (const k of PROFILE_KEYS) shown[k] = p[k] === undefined ? null : k === 'token' ? maskToken(p[k]!) : k === 'base_url' ? withoutCredentials(p[k]!) : p[k]!;
  shown.token_storage = tokenStorage(p);
  await writeOne(ctx.io, shown, ctx.output([]));
}

async function get(ctx: Context, raw: string): Promise<void> {
  const key = normalize(raw);
  if (!(PROFILE_KEYS as readonly string[]).includes(key)) throw new UsageError(`unknown setting "${key}": use one of ${SETTABLE_KEYS.join(', ')}`);
  if (key === 'token') throw new UsageError('use `sct auth token` to print the token');
  // The one field printed is the key asked for: another named in --json/--columns would be {}.
  const other = ctx.columns()?.split(',').map((f) => f.trim()).find((f) => f && f !== key);
  if (other !== undefined) {
    const gettable = (GETTABLE_KEYS as readonly string[]).includes(other);
    throw new UsageError(`config get ${key} prints the field "${key}" alone, not "${other}"`, undefined, gettable ? `give --json ${key}, or \`sct config get ${other}\`` : `give --json ${key}`);
  }
  const value = ctx.config().profile(ctx.settings().profile)[key as ProfileKey];
  // As `gh config get`: a known key that is not set prints nothing and succeeds, so a script
  // can read it with $(…) without guarding against a failure (with -o json: null).
  await writeSetting(ctx, key, value);
}

async function set(ctx: Context, key: string, value: string): Promise<void> {
  const k = settable(key);
  const checked = checkValue(k, value);
  const profile = ctx.settings({ creating: true }).profile;
  await ctx.config().set(profile, k, checked);
  const warning = k === 'base_url' ? missingApiPrefix(checked) : undefined;
  if (warning) ctx.io.warn(warning);
  const stored = ctx.config().profile(profile);
  if (k === 'base_url' && tokenHeldBack(stored)) {
    const flag = profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`;
    const storedFor = stored.token_base_url ? 'another URL' : 'no URL';
    const shown = withoutCredentials(checked);
    // A URL holding a password is masked: no command to copy, which would log in as "***".
    const login = shown === checked ? `\`sct auth login${flag} --base-url ${shellWord(checked)}\`` : `\`sct auth login${flag} --base-url URL\` with that URL`;
    ctx.io.warn(`profile "${profile}"'s token was stored for ${storedFor}: it is not sent to ${shown}; run ${login} to log in there`);
  }
}

async function unset(ctx: Context, key: string): Promise<void> {
  await ctx.config().unset(ctx.settings().profile, settable(key, true));
}

async function path(ctx: Context): Promise<void> {
  // A --profile naming no profile is the typo it is here too; a file that cannot be read is not:
  // its path is what the user needs to mend it.
  try {
    ctx.settings();
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
  }
  await writeSetting(ctx, 'path', ctx.config().path);
}
