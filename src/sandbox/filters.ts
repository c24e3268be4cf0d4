// The one list engine every resource goes through: django-filter style lookups, DRF search,
// ordering and limit/offset pagination. A resource declares its fields (name, type, accessor) and
// the filter parameters its document lists; how each lookup reads a value follows from the type.
import { badRequest, type Ctx } from './router.js';
import { instantOf } from '../util/dates.js';

const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 1000;

type FieldType = 'int' | 'number' | 'string' | 'enum' | 'bool' | 'date' | 'datetime' | 'uuid';

export interface FieldSpec<T> {
  type: FieldType;
  /** A scalar, or an array for to-many relations (a row matches when any element does, as in SQL joins). */
  get: (row: T) => unknown;
  values?: readonly string[];
  /** Repeating the plain parameter (?status=a&status=b, or status=a,b) matches any of the values. */
  repeatable?: boolean;
  min?: number;
  max?: number;
}

export interface ListSpec<T> {
  fields: Record<string, FieldSpec<T>>;
  /**
   * The filter parameters the resource's document lists (a field or alias, with its lookup). The
   * service's filter set declares just these and django-filter ignores any other parameter, so a
   * script filtering on another gets every row there: the sandbox must not narrow the list for it.
   * Absent only where the documents do not show a resource's filters: then each field takes every
   * lookup its type fits.
   */
  filters?: readonly string[];
  /** Parameter names that are a field plus lookup under another spelling, e.g. passing_percentage_gte. */
  aliases?: Record<string, string>;
  ordering?: Record<string, (row: T) => unknown>;
  defaultOrdering?: string[];
  search?: (row: T) => Array<string | null | undefined>;
  /** Parameters consumed by the route itself; they never reach the field lookup. */
  reserved?: string[];
}

/** Suffixes recognised after a field name. Longest first so "date__gte" is not read as "gte". */
const LOOKUPS = [
  'date__gte', 'date__lte', 'date__gt', 'date__lt', 'date',
  'exclude_in', 'exclude', 'in', 'isnull',
  'iexact', 'icontains', 'contains', 'istartswith', 'startswith', 'iendswith', 'endswith',
  'gte', 'lte', 'gt', 'lt', 'exact',
] as const;
type Lookup = (typeof LOOKUPS)[number];

const STRINGY: Lookup[] = ['iexact', 'icontains', 'contains', 'istartswith', 'startswith', 'iendswith', 'endswith'];
const RANGE: Lookup[] = ['gte', 'lte', 'gt', 'lt'];
const DATE_PART: Lookup[] = ['date', 'date__gte', 'date__lte', 'date__gt', 'date__lt'];
const COMMON: Lookup[] = ['exact', 'in', 'exclude_in', 'exclude', 'isnull'];

const allowedLookups: Record<FieldType, Set<Lookup>> = {
  string: new Set([...COMMON, ...STRINGY]),
  enum: new Set([...COMMON, ...STRINGY]),
  uuid: new Set([...COMMON, ...STRINGY]),
  int: new Set([...COMMON, ...RANGE]),
  number: new Set([...COMMON, ...RANGE]),
  date: new Set([...COMMON, ...RANGE]),
  datetime: new Set([...COMMON, ...RANGE, ...DATE_PART]),
  bool: new Set(['exact', 'isnull']),
};

/** A field's parameter names: the field itself and the field with each lookup, as the documents list them. */
export function withLookups(field: string, ...lookups: Lookup[]): string[] {
  return [field, ...lookups.map((l) => `${field}__${l}`)];
}

/** Query parameters as ordered [key, values] pairs; a filter object (bulk invitation filters) fits too. */
export type Params = Map<string, string[]>;

export function paramsFromQuery(q: URLSearchParams): Params {
  const m: Params = new Map();
  for (const [k, v] of q) {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  }
  return m;
}

/** Filter objects in request bodies: arrays become repeated values, scalars strings. */
export function paramsFromObject(obj: Record<string, unknown>): Params {
  const m: Params = new Map();
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || v === null) continue;
    m.set(k, Array.isArray(v) ? v.map(String) : [String(v)]);
  }
  return m;
}

const RESERVED = new Set(['limit', 'offset', 'ordering', 'search', 'format']);

type Pred<T> = (row: T) => boolean;

function invalid(key: string, msg: string): never {
  throw badRequest({ [key]: [msg] });
}

/** Parses one filter value into a comparable: numbers for int/number/datetime, strings otherwise. */
function parseValue(spec: FieldSpec<unknown>, lookup: Lookup, key: string, raw: string): string | number {
  const t = lookup.startsWith('date') && spec.type === 'datetime' ? 'date' : spec.type;
  switch (t) {
    case 'int': {
      if (!/^-?\d+$/.test(raw.trim())) invalid(key, 'Enter a whole number.');
      return checkRange(spec, key, Number(raw));
    }
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) invalid(key, 'Enter a number.');
      return checkRange(spec, key, n);
    }
    case 'date':
      // A day the month does not have (2025-02-30) is no date, though Date.parse rolls it over.
      if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(raw)) || new Date(`${raw}T00:00:00Z`).toISOString().slice(0, 10) !== raw) invalid(key, 'Enter a valid date.');
      return raw;
    case 'datetime': {
      const ms = parseDateTime(raw);
      if (ms === null) invalid(key, 'Enter a valid date/time.');
      return ms;
    }
    case 'enum':
      if (STRINGY.includes(lookup)) return raw;
      if (!spec.values!.includes(raw)) invalid(key, `Select a valid choice. ${raw} is not one of the available choices.`);
      return raw;
    case 'uuid':
      if (!STRINGY.includes(lookup) && !/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(raw))
        invalid(key, 'Enter a valid UUID.');
      return raw.toLowerCase();
    default:
      return raw;
  }
}

function checkRange(spec: FieldSpec<unknown>, key: string, n: number): number {
  if (spec.min !== undefined && n < spec.min) invalid(key, `Ensure this value is greater than or equal to ${spec.min}.`);
  if (spec.max !== undefined && n > spec.max) invalid(key, `Ensure this value is less than or equal to ${spec.max}.`);
  return n;
}

export function parseBool(key: string, raw: string): boolean {
  return readBool(raw) ?? invalid(key, 'Enter a valid boolean.');
}

/**
 * A boolean filter's value as django-filter's BooleanWidget reads it (DRF's BooleanFilter, and
 * `__isnull`): true, false, 1 or 0 in any case; anything else is no value, and so no filter.
 */
function readBool(raw: string): boolean | null {
  const v = raw.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return null;
}

/** Date-times as the service accepts them: a date alone means midnight UTC, and so does a time without an offset. */
function parseDateTime(raw: string): number | null {
  const ms = instantOf(raw);
  return Number.isNaN(ms) ? null : ms;
}

/** Normalises a stored value to what filter values are compared against. */
function norm(type: FieldType, lookup: Lookup, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object' && 'id' in (v as object)) v = (v as { id: unknown }).id;
  if (type === 'datetime') {
    const ms = typeof v === 'number' ? v : Date.parse(String(v));
    if (lookup.startsWith('date')) return new Date(ms).toISOString().slice(0, 10);
    return ms;
  }
  if (type === 'uuid') return String(v).toLowerCase();
  return v;
}

function splitList(values: string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

function buildPredicate<T>(key: string, lookup: Lookup, spec: FieldSpec<T>, values: string[]): Pred<T> | null {
  const last = values[values.length - 1]!;
  const type = spec.type;
  const cmp = (fn: (stored: unknown) => boolean): Pred<T> => (row) => {
    const raw = spec.get(row);
    if (Array.isArray(raw)) return raw.some((x) => fn(norm(type, lookup, x)));
    return fn(norm(type, lookup, raw));
  };
  if (lookup === 'isnull') {
    const want = readBool(last);
    if (want === null) return null;
    return (row) => {
      const raw = spec.get(row);
      const isNull = Array.isArray(raw) ? raw.length === 0 || raw.some((x) => x === null || x === undefined) : raw === null || raw === undefined;
      if (Array.isArray(raw) && !want) return raw.some((x) => x !== null && x !== undefined);
      return isNull === want;
    };
  }
  if (lookup === 'in' || lookup === 'exclude_in' || lookup === 'exclude' || (lookup === 'exact' && spec.repeatable && (values.length > 1 || last.includes(',')))) {
    // A list filter (`__in`) given twice is its last value, as django-filter's CSV widget reads it;
    // a filter the document says repeats (`status=a&status=b`) is every value.
    const list = splitList(lookup === 'in' || lookup === 'exclude_in' ? [last] : values);
    if (!list.length) return null;
    const set = new Set(list.map((v) => parseValue(spec as FieldSpec<unknown>, lookup, key, v)));
    const any = cmp((s) => set.has(s as string | number));
    if (lookup === 'in' || lookup === 'exact') return any;
    return (row) => !any(row);
  }
  if (last === '') return null;
  if (type === 'bool') {
    const want = readBool(last);
    return want === null ? null : cmp((s) => s === want);
  }
  const value = parseValue(spec as FieldSpec<unknown>, lookup, key, last);
  const str = (s: unknown) => (s === null ? null : String(s));
  const lower = String(value).toLowerCase();
  switch (lookup) {
    case 'exact':
    case 'date':
      return cmp((s) => s === value);
    case 'iexact':
      return cmp((s) => str(s)?.toLowerCase() === lower);
    case 'contains':
      return cmp((s) => !!str(s)?.includes(String(value)));
    case 'icontains':
      return cmp((s) => !!str(s)?.toLowerCase().includes(lower));
    case 'startswith':
      return cmp((s) => !!str(s)?.startsWith(String(value)));
    case 'istartswith':
      return cmp((s) => !!str(s)?.toLowerCase().startsWith(lower));
    case 'endswith':
      return cmp((s) => !!str(s)?.endsWith(String(value)));
    case 'iendswith':
      return cmp((s) => !!str(s)?.toLowerCase().endsWith(lower));
    case 'gte':
    case 'date__gte':
      return cmp((s) => s !== null && (s as number) >= (value as number));
    case 'lte':
    case 'date__lte':
      return cmp((s) => s !== null && (s as number) <= (value as number));
    case 'gt':
    case 'date__gt':
      return cmp((s) => s !== null && (s as number) > (value as number));
    case 'lt':
    case 'date__lt':
      return cmp((s) => s !== null && (s as number) < (value as number));
  }
  return null;
}

/**
 * A table's own entry for a name a request gave: never one an object inherits (`constructor`,
 * `__proto__`, `toString` as a query key or an ordering are unknown names, not functions).
 */
function own<V>(table: Readonly<Record<string, V>> | undefined, name: string): V | undefined {
  return table && Object.hasOwn(table, name) ? table[name] : undefined;
}

/** Resolves "items__buyer_product__sku__icontains" to the longest declared field and its lookup. */
function resolveKey<T>(spec: ListSpec<T>, key: string): { field: string; lookup: Lookup; fs: FieldSpec<T> } | null {
  const aliased = own(spec.aliases, key) ?? key;
  const exact = own(spec.fields, aliased);
  if (exact) return { field: aliased, lookup: 'exact', fs: exact };
  for (const lookup of LOOKUPS) {
    const suffix = `__${lookup}`;
    if (!aliased.endsWith(suffix)) continue;
    const field = aliased.slice(0, -suffix.length);
    const fs = own(spec.fields, field);
    if (fs && allowedLookups[fs.type].has(lookup)) return { field, lookup, fs };
  }
  return null;
}

/** Predicates for every recognised filter parameter; unknown parameters are ignored as django-filter does. */
export function compileFilters<T>(spec: ListSpec<T>, params: Params): Pred<T>[] {
  const preds: Pred<T>[] = [];
  const reserved = new Set([...RESERVED, ...(spec.reserved ?? [])]);
  for (const [key, values] of params) {
    if (reserved.has(key)) continue;
    if (spec.filters && !spec.filters.includes(key)) continue;
    const r = resolveKey(spec, key);
    if (!r) continue;
    const p = buildPredicate(key, r.lookup, r.fs, values);
    if (p) preds.push(p);
  }
  return preds;
}

/** DRF SearchFilter: every whitespace/comma separated term must occur in one of the fields. */
function searchPredicate<T>(spec: ListSpec<T>, params: Params): Pred<T> | null {
  const term = params.get('search')?.at(-1);
  if (!term || !spec.search) return null;
  const terms = term.split(/[\s,]+/).map((t) => t.toLowerCase()).filter(Boolean);
  if (!terms.length) return null;
  const fn = spec.search;
  return (row) => {
    const hay = fn(row).filter((s): s is string => typeof s === 'string').map((s) => s.toLowerCase());
    return terms.every((t) => hay.some((h) => h.includes(t)));
  };
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  // Nulls sort last ascending, as PostgreSQL does.
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1;
  return String(a).localeCompare(String(b), 'en');
}

function orderingKeys<T>(spec: ListSpec<T>, params: Params): string[] {
  const raw = params.get('ordering');
  const keys = raw ? splitList(raw) : [];
  if (!keys.length) return spec.defaultOrdering ?? [];
  const known = spec.ordering ?? {};
  const bad = keys.filter((k) => !own(known, k.replace(/^-/, '')));
  if (bad.length)
    throw badRequest({
      ordering: bad.map((k) => `Invalid ordering field "${k.replace(/^-/, '')}". Allowed: ${Object.keys(known).join(', ')}.`),
    });
  return keys;
}

function sortRows<T>(spec: ListSpec<T>, rows: T[], keys: string[]): T[] {
  const getters = keys
    .map((k) => ({ desc: k.startsWith('-'), get: own(spec.ordering, k.replace(/^-/, '')) }))
    .filter((g): g is { desc: boolean; get: (row: T) => unknown } => !!g.get);
  if (!getters.length) return rows;
  // Decorate once: accessors may compute (joins, percentages) and sort calls compare n log n times.
  const decorated = rows.map((row, i) => ({ row, i, k: getters.map((g) => g.get(row)) }));
  decorated.sort((a, b) => {
    for (let j = 0; j < getters.length; j++) {
      const c = compare(a.k[j], b.k[j]);
      if (c !== 0) return getters[j]!.desc ? -c : c;
    }
    return a.i - b.i;
  });
  return decorated.map((d) => d.row);
}

/** Filter, search and order rows. Throws 400 with the parameter as field on invalid values. */
export function query<T>(rows: Iterable<T>, spec: ListSpec<T>, params: Params): T[] {
  const keys = orderingKeys(spec, params);
  const preds = compileFilters(spec, params);
  const s = searchPredicate(spec, params);
  if (s) preds.push(s);
  const out: T[] = [];
  outer: for (const row of rows) {
    for (const p of preds) if (!p(row)) continue outer;
    out.push(row);
  }
  return sortRows(spec, out, keys);
}

function intOr(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return fallback;
  return Number(raw);
}

export interface Page<R> {
  count: number;
  next: string | null;
  previous: string | null;
  results: R[];
}

function pageWindow(q: URLSearchParams): { limit: number; offset: number } {
  let limit = intOr(q.get('limit'), DEFAULT_PAGE_SIZE);
  if (limit <= 0) limit = DEFAULT_PAGE_SIZE;
  return { limit: Math.min(limit, MAX_PAGE_SIZE), offset: intOr(q.get('offset'), 0) };
}

/** DRF LimitOffsetPagination, including how it rewrites the current URL for next/previous. */
export function paginate<T, R>(ctx: Ctx, rows: readonly T[], render: (row: T) => R): Page<R> {
  const { limit, offset } = pageWindow(ctx.query);
  const count = rows.length;
  const link = (o: number | bigint | null): string => {
    const q = new URLSearchParams(ctx.query);
    q.set('limit', String(limit));
    if (o === null) q.delete('offset');
    else q.set('offset', String(o));
    return `${ctx.origin}/api${ctx.path}?${q.toString()}`;
  };
  const next = offset + limit < count ? link(offset + limit) : null;
  // An offset past 2^53 is counted exactly (as Python does), never written as 1e+23.
  const exact = Number.isSafeInteger(offset) ? undefined : BigInt(ctx.query.get('offset')!.trim());
  const previous = offset <= 0 ? null : offset - limit <= 0 ? link(null) : link(exact !== undefined ? exact - BigInt(limit) : offset - limit);
  return { count, next, previous, results: rows.slice(offset, offset + limit).map(render) };
}

const COMMA = Buffer.from(',');

/**
 * The page as JSON when each result is JSON already, in parts to send one after the other (a
 * 1,000-order page is not copied into one buffer): the bytes JSON.stringify gives for the page.
 */
export function pageJson(page: Page<Buffer>): Buffer[] {
  const head = `{"count":${page.count},"next":${JSON.stringify(page.next)},"previous":${JSON.stringify(page.previous)},"results":[`;
  const parts: Buffer[] = [Buffer.from(head)];
  for (const [i, json] of page.results.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(json);
  }
  parts.push(Buffer.from(']}'));
  return parts;
}
