// Reading dotted paths out of API objects and rendering values as text for tables and CSV.

export function getPath(obj: unknown, path: string): unknown {
  return pathGetter(path)(obj);
}

/**
 * A reader for one dotted path, split once: an export calls it for every cell of every row,
 * and splitting the path each time is most of the garbage a large CSV makes.
 *
 * Only the object's own fields are read: the path comes from the user (`--columns`), and
 * `toString` or `constructor.name` must not reach into JavaScript's prototypes.
 */
export function pathGetter(path: string): (obj: unknown) => unknown {
  const parts = path.split('.');
  const read = (obj: unknown, from: number): unknown => {
    let cur: unknown = obj;
    for (let i = from; i < parts.length; i++) {
      const part = parts[i]!;
      // Through a list (`items.id`), the rest of the path read in each element, unless the part
      // is an index of it (`items.0.id`); nothing to read in any element is nothing.
      if (Array.isArray(cur) && !(/^\d+$/.test(part) && Object.hasOwn(cur, part))) {
        const values = cur.map((el) => read(el, i));
        return values.some((v) => v !== undefined) ? values : undefined;
      }
      if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
      cur = (cur as Record<string, unknown>)[part];
    }
    return cur;
  };
  return (obj) => read(obj, 0);
}

function isCountry(v: Record<string, unknown>): boolean {
  return typeof v.alpha_2 === 'string' && typeof v.name === 'string';
}

/** A value as one line of text for a table cell. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return value.join(', ');
    return value.map(displayValue).join(', ');
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    // Embedded countries read best as "🇨🇮 Côte d'Ivoire"; companies and the like by name.
    if (isCountry(o)) return [o.flag, o.name].filter(Boolean).join(' ');
    if (typeof o.name === 'string') return o.name;
    if (typeof o.workspace_name === 'string') return o.workspace_name;
    return JSON.stringify(value);
  }
  return String(value);
}

/** A value for a CSV cell: scalars as they are, structures JSON-encoded. */
export function csvValue(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  return value as string | number | boolean;
}

/**
 * Flattens nested objects into dotted keys (`seller_company.name`); arrays stay whole
 * (JSON-encoded later), so a row keeps one column per field whatever its item count.
 */
export function flattenKeys(obj: unknown, prefix = '', out: string[] = [], values?: Set<string>): string[] {
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    const entries = Object.entries(obj as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.push(prefix);
    for (const [k, v] of entries) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === 'object' && !Array.isArray(v)) flattenKeys(v, key, out, values);
      else {
        out.push(key);
        // `values`: the keys that hold something (not null, not ""), for mergeColumnKeys.
        if (values && v !== null && v !== undefined && v !== '') values.add(key);
      }
    }
  } else if (prefix) {
    out.push(prefix);
  }
  return out;
}

/** Every key that another key continues (`a` and `a.b` of `a.b.c`). */
export function parentKeys(keys: Iterable<string>): Set<string> {
  const parents = new Set<string>();
  for (const k of keys) for (let at = k.indexOf('.'); at > 0; at = k.indexOf('.', at + 1)) parents.add(k.slice(0, at));
  return parents;
}

/**
 * The CSV columns from the keys of several rows: a field that is null (or {}) in one row and an
 * object in another becomes the object's dotted columns, placed where the field first appeared,
 * rather than those columns plus a JSON copy of the whole object. A field that holds something
 * else (text, a number, a list: `values`, from flattenKeys) in a row keeps its own column too,
 * before the dotted ones, or that value would have none.
 */
export function mergeColumnKeys(keys: string[], values: ReadonlySet<string> = new Set()): string[] {
  const parents = parentKeys(keys);
  const out: string[] = [];
  const placed = new Set<string>();
  const emit = (k: string) => {
    // Its own column first, where a parent holds a value in some row.
    for (let at = k.indexOf('.'); at > 0; at = k.indexOf('.', at + 1)) {
      const p = k.slice(0, at);
      if (values.has(p) && !placed.has(p)) {
        placed.add(p);
        out.push(p);
      }
    }
    out.push(k);
  };
  for (const k of keys) {
    if (placed.has(k) && !parents.has(k)) continue;
    if (!parents.has(k)) {
      placed.add(k);
      emit(k);
      continue;
    }
    for (const d of keys) {
      if (d.startsWith(k + '.') && !placed.has(d) && !parents.has(d)) {
        placed.add(d);
        emit(d);
      }
    }
  }
  return out;
}
