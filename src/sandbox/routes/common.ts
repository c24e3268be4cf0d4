// Helpers every route module uses: embedded objects, company scoping, permission checks.
import type { Company } from '../data.js';
import { paginate, paramsFromQuery, query, type ListSpec } from '../filters.js';
import { COUNTRY_BY_A2, type Country } from '../reference.js';
import { forbidden, notFound, ok, type Ctx, type Reply } from '../router.js';
import { invalidPk } from '../validate.js';

export function companyObject(c: Company | undefined) {
  if (!c) return null;
  return {
    id: c.id,
    name: c.name,
    slug: c.slug,
    type: c.type,
    city: c.city,
    country: c.country,
    default_currency: c.default_currency,
    default_locale: c.default_locale,
    data_room_consumer_id: c.data_room_consumer_id,
    nr_of_employees: c.nr_of_employees,
    nr_of_locations: c.nr_of_locations,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

export function countryObject(code: string | null | undefined): Country | null {
  return (code && COUNTRY_BY_A2.get(code.toUpperCase())) || null;
}

export const myCompany = (ctx: Ctx): number => ctx.auth.company.id;

export function requirePermission(ctx: Ctx, codename: string): void {
  const group = ctx.store.authGroups.get(ctx.auth.membership.auth_group_id);
  if (!group?.permissions.includes(codename)) throw forbidden();
}

interface Owned {
  company_id: number;
  deleted_at?: string | null;
}

/** Another company's object and a deleted one look the same as a missing one: 404. */
export function owned<T extends Owned>(ctx: Ctx, map: Map<number, T>, id: number): T {
  const row = map.get(id);
  if (!row || row.company_id !== myCompany(ctx) || row.deleted_at) throw notFound();
  return row;
}

export function isOwned<T extends Owned>(ctx: Ctx, map: Map<number, T>, id: number): boolean {
  const row = map.get(id);
  return !!row && row.company_id === myCompany(ctx) && !row.deleted_at;
}

/**
 * Field errors for relation fields whose ids name no allowed object, all fields at once:
 * refErrors({ orders: [ids, allowedFn], … }) → { orders: ['Invalid pk "7" …'] }.
 */
export function refErrors(fields: Record<string, [ids: readonly number[] | undefined, allowed: (id: number) => boolean]>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, [ids, allowed]] of Object.entries(fields)) {
    const bad = (ids ?? []).filter((x) => !allowed(x));
    if (bad.length) errors[field] = bad.map(invalidPk);
  }
  return errors;
}

export function* ownedRows<T extends Owned>(ctx: Ctx, map: Map<number, T>): Iterable<T> {
  const me = myCompany(ctx);
  for (const row of map.values()) if (row.company_id === me && !row.deleted_at) yield row;
}

export function listReply<T, R>(ctx: Ctx, rows: Iterable<T>, spec: ListSpec<T>, render: (row: T) => R): Reply {
  return ok(paginate(ctx, query(rows, spec, paramsFromQuery(ctx.query)), render));
}

/** Common accessors for the timestamp fields most resources share. */
export function timestampFields<T extends { created_at: string; updated_at: string }>() {
  return {
    created_at: { type: 'datetime' as const, get: (r: T) => r.created_at },
    updated_at: { type: 'datetime' as const, get: (r: T) => r.updated_at },
  };
}

/**
 * Embedded objects repeat across a page (the same companies and products in every order), so
 * each is rendered once per request and shared; JSON output is the same.
 */
const memos = new WeakMap<Ctx, Map<string, unknown>>();
export function once<T>(ctx: Ctx, key: string, make: () => T): T {
  let m = memos.get(ctx);
  if (!m) memos.set(ctx, (m = new Map()));
  if (!m.has(key)) m.set(key, make());
  return m.get(key) as T;
}

export const pulseParams = (model: string, id: number | string) => ({ identifier: `${model}:${id}`, model_identifier: `supply_chain.${model}` });
