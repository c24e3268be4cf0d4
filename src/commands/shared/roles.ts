// Roles by name. The service takes a role as its id (auth_group) but shows names beside it (a
// member's auth_group_detail, the user's own auth_group): sct keeps every pair it has seen, per
// base URL (its origin and path: never the user and password a gateway's URL may carry), in
// roles.json in its config directory, and asks the service (the user's profile and the members
// list: reads only) when a name is new to it. A name is matched without regard to
// case, so `admin`, `Admin` and `ADMIN` are one role.
import { readFileSync } from 'node:fs';
import { writeAtomically } from '../../util/files.js';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { ApiError, UsageError } from '../../errors.js';
import { splitList } from './flags.js';
import { isId } from '../../util/numbers.js';

export interface Role {
  id: number;
  name: string;
}

type Cache = Record<string, Record<string, string>>;

function cachePath(ctx: Context): string {
  return join(ctx.config().dir, 'roles.json');
}

/**
 * A service's entry in the cache: its base URL's origin and path, as the token's origin check
 * reads a URL. A user and password in the URL are no part of it: roles.json is no place for them.
 */
function serviceKey(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}

function readCache(ctx: Context): Cache {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(cachePath(ctx), 'utf8'));
  } catch {
    return {};
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  // Only keys as sct writes them now: an earlier sct keyed by the URL as given, a password in it
  // too. Such an entry is not read, and the next write leaves it out of the file.
  const cache = Object.create(null) as Cache;
  for (const [key, value] of Object.entries(data)) {
    let ours = false;
    try {
      ours = serviceKey(key) === key;
    } catch {
      // A key that is no URL is no service's.
    }
    if (ours) cache[key] = value as Record<string, string>;
  }
  return cache;
}

/** The roles seen on this service, by id. */
function seen(ctx: Context, baseUrl: string, cache = readCache(ctx)): Role[] {
  const ofService = cache[serviceKey(baseUrl)];
  if (!ofService || typeof ofService !== 'object') return [];
  return Object.entries(ofService)
    .filter(([id, name]) => /^\d+$/.test(id) && typeof name === 'string')
    .map(([id, name]) => ({ id: Number(id), name }))
    .sort((a, b) => a.id - b.id);
}

/** Adds pairs to the cache, written through a new temporary file renamed into place. */
function remember(ctx: Context, baseUrl: string, roles: Role[]): void {
  if (roles.length === 0) return;
  const cache = readCache(ctx);
  const ofService = Object.create(null) as Record<string, string>;
  for (const r of seen(ctx, baseUrl, cache)) ofService[r.id] = r.name;
  for (const r of roles) ofService[r.id] = r.name;
  const next = Object.assign(Object.create(null), cache, { [serviceKey(baseUrl)]: ofService });
  try {
    ctx.config().makeDir();
    writeAtomically(cachePath(ctx), JSON.stringify(next, null, 2) + '\n', 0o600);
  } catch {
    // A cache that cannot be written is asked for again next time: never a reason to fail.
  }
}

function pair(v: unknown): Role | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const { id, name } = v as { id?: unknown; name?: unknown };
  return typeof id === 'number' && typeof name === 'string' && name ? { id, name } : undefined;
}

/** Asks the service which roles there are: the user's own, and every member's. */
export async function learnRoles(ctx: Context): Promise<Role[]> {
  const client = ctx.client();
  const found: Role[] = [];
  const me = (await client.get(PATHS.me)) as { auth_group?: unknown };
  const own = pair(me?.auth_group);
  if (own) found.push(own);
  try {
    const members = (await client.get(PATHS.members, { limit: 1000 })) as { results?: Array<{ auth_group_detail?: unknown }> };
    for (const m of members?.results ?? []) {
      const r = pair(m.auth_group_detail);
      if (r) found.push(r);
    }
  } catch (err) {
    // A member who may not list the members (403) still knows their own role. Anything else
    // (Ctrl-C, the service down) is no answer about the roles: never taken for "no such role".
    if (!(err instanceof ApiError && err.status === 403)) throw err;
  }
  remember(ctx, client.baseUrl, found);
  // What was just asked, with what was seen before: a cache that could not be written (a
  // read-only config directory) must not lose the answer.
  const all = new Map(seen(ctx, client.baseUrl).map((r) => [r.id, r]));
  for (const r of found) all.set(r.id, r);
  return [...all.values()].sort((a, b) => a.id - b.id);
}

/**
 * `--role-name`'s values as the service spells them (`admin` → `ADMIN`): its name filter matches
 * exactly, and a role name is matched without regard to case everywhere else in sct. A name sct
 * has not seen, after asking once, goes as typed (the filter may know more roles than sct saw);
 * one in capitals goes as typed without asking.
 */
export async function spellRoleNames(ctx: Context, target: URLSearchParams | Record<string, unknown>): Promise<void> {
  const keys = ['auth_group__name', 'auth_group__name__in'];
  const get = (k: string) => (target instanceof URLSearchParams ? (target.get(k) ?? undefined) : (target[k] as string | undefined));
  if (!keys.some((k) => get(k) !== undefined)) return;
  let known = seen(ctx, ctx.client().baseUrl);
  const spelt = (name: string) => known.find((r) => r.name.toLowerCase() === name.toLowerCase())?.name;
  const names = keys.flatMap((k) => (get(k) ?? '').split(',').filter(Boolean));
  // A name in capitals is already spelt as the documents spell roles (OWNER, ADMIN): no need to ask.
  if (names.some((n) => spelt(n) === undefined && n !== n.toUpperCase())) known = await learnRoles(ctx);
  for (const k of keys) {
    const v = get(k);
    if (v === undefined) continue;
    const value = v.split(',').map((n) => spelt(n) ?? n).join(',');
    if (target instanceof URLSearchParams) target.set(k, value);
    else target[k] = value;
  }
}

/** The names of the roles seen on this service, by id, for a role the service gives only as its id. */
export function knownRoleNames(ctx: Context): Map<number, string> {
  return new Map(seen(ctx, ctx.client().baseUrl).map((r) => [r.id, r.name]));
}

export function describeRoles(roles: Role[]): string {
  return roles.length ? roles.map((r) => `${r.name} (${r.id})`).join(', ') : 'none seen yet';
}

/** A role's id as written: a whole number from 1 (no role has id 0). */
export const isRoleId = (text: string) => isId(text) && Number(text) > 0;

/**
 * The ids of role names or ids (`admin`, `2`): ids as they are; names from what sct has seen,
 * asking the service once when one is new. Names still unknown are left out of the map (`0`
 * among them, looked up so that its error lists the roles).
 */
export async function roleIds(ctx: Context, raws: string[]): Promise<{ ids: Map<string, number>; known: Role[] }> {
  const ids = new Map<string, number>();
  const names = [...new Set(raws.map((r) => r.trim()).filter((r) => r && !isRoleId(r)))];
  for (const raw of raws) if (isRoleId(raw.trim())) ids.set(raw, Number(raw));
  if (names.length === 0) return { ids, known: [] };
  const baseUrl = ctx.client().baseUrl;
  let known = seen(ctx, baseUrl);
  const lookup = () => {
    for (const name of names) {
      const role = known.find((r) => r.name.toLowerCase() === name.toLowerCase());
      if (role) ids.set(name, role.id);
    }
  };
  lookup();
  if (names.some((n) => !ids.has(n))) {
    known = await learnRoles(ctx);
    lookup();
  }
  for (const raw of raws) if (ids.has(raw.trim())) ids.set(raw, ids.get(raw.trim())!);
  return { ids, known };
}

export const unknownRoles = (what: string, raws: string[], known: Role[]) =>
  new UsageError(
    `${what}: unknown role${raws.length > 1 ? 's' : ''} ${raws.map((r) => `"${r}"`).join(', ')}: the roles are ${describeRoles(known)}`,
    {},
    'a role is its name (any case) or its id; `sct roles list` shows them',
  );

/** A role flag's value before any lookup: its id, or the name to look up (trimmed). */
export function roleAsGiven(raw: string, what: string): number | string {
  // Empty (a script's unset variable): no role to look up, and none to list as "seen yet".
  if (raw.trim() === '') throw new UsageError(`${what} needs a value: a role's name (any case) or its id`);
  return isRoleId(raw.trim()) ? Number(raw.trim()) : raw.trim();
}

/** One role given as a flag or argument: its id, or exit 2 listing the known roles. */
export async function roleId(ctx: Context, raw: string, what: string): Promise<number> {
  // Only for its refusal of an empty value, before anything is asked: roleIds reads the rest.
  roleAsGiven(raw, what);
  const { ids, known } = await roleIds(ctx, [raw]);
  const id = ids.get(raw);
  if (id !== undefined) return id;
  throw unknownRoles(what, [raw], known);
}

/**
 * A role filter's comma list (`--role admin,3`) as role ids: names as the create flags take
 * them, so a filter and a create read a role alike. Any unknown one is exit 2 listing the roles.
 */
export async function roleFilterIds(ctx: Context, value: string | undefined, flag: string): Promise<number[] | undefined> {
  const raws = splitList(value, flag);
  if (raws === undefined) return undefined;
  const { ids, known } = await roleIds(ctx, raws);
  const unknown = raws.filter((r) => !ids.has(r));
  if (unknown.length) throw unknownRoles(flag, unknown, known);
  return [...new Set(raws.map((r) => ids.get(r)!))];
}

/**
 * The role of a person being invited, asked at a terminal: a pick list of the roles the service
 * shows, by name. Owners cannot be invited (the API document says so), so OWNER is not offered.
 * When the service shows no other role, there is no name to offer: the role id is typed.
 */
export async function askInvitationRole(ctx: Context): Promise<number> {
  const roles = (await learnRoles(ctx)).filter((r) => r.name.toUpperCase() !== 'OWNER');
  if (roles.length > 0) return ctx.prompter.select('Invite as which role?', roles.map((r) => ({ name: `${r.name} (${r.id})`, value: r.id })));
  const typed = await ctx.prompter.input('role id:', { validate: (v) => (isRoleId(v.trim()) ? true : `unknown role "${v.trim()}": give its id (no role names seen on this service)`) });
  return Number(typed.trim());
}
