// Choosing fields: `--columns a,b.c` (and `--json a,b.c`) checked against the resource's
// documented fields before anything is sent, and applied to JSON objects as nested picks.
import { UsageError } from '../errors.js';
import { flattenShape, RESOURCE_FIELDS, RESOURCE_SHAPES, type DocumentedResource, type Field } from '../api/schemas/fields.js';
import { closest } from './suggest.js';
import { isPlainObject } from '../util/objects.js';

/**
 * What a command prints: a documented resource, and any field sct adds to it. Declared next to
 * the command (commands/shared/output-facts.ts); undefined for a command that prints a shape of
 * its own and takes any field name.
 */
export interface Printed {
  resource: DocumentedResource;
  extraFields?: readonly string[];
}

/** The dotted paths of a `--columns` value, in order, blanks dropped. */
export function splitFields(flag: string): string[] {
  return flag
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The documented field names of what a command prints, or undefined: any name. */
function documentedFields(printed: Printed | undefined): readonly string[] | undefined {
  return printed && [...RESOURCE_FIELDS[printed.resource], ...(printed.extraFields ?? [])];
}

/**
 * The columns of `-o csv` for what a command prints: the documented fields, objects flattened by
 * dotted name, the same whatever the data; undefined when the resource documents none.
 */
export function csvColumnsOf(printed: Printed | undefined): string[] | undefined {
  return printed && [...flattenShape(RESOURCE_SHAPES[printed.resource]), ...(printed.extraFields ?? [])];
}

/** Exit 2 naming the fields the resource does not have, and listing those it has. */
export function checkFields(command: string, printed: Printed | undefined, flag: string, option = '--columns'): void {
  const paths = splitFields(flag);
  // Whatever the resource: an empty list would print every field, or objects with none.
  if (paths.length === 0) throw new UsageError(`${option} needs at least one field name`);
  const known = documentedFields(printed);
  if (!known) return;
  const shape: readonly Field[] = [...RESOURCE_SHAPES[printed!.resource], ...(printed!.extraFields ?? [])];
  const bad = paths.map((p) => unknownField(shape, p.split('.'))).filter((b) => b !== undefined);
  if (bad.length === 0) return;
  const { names, under } = bad[0];
  const guess = closest(bad[0].path.split('.').at(-1)!, names);
  throw new UsageError(
    `${option}: ${command} has no field ${bad.map((b) => `"${b.path}"`).join(', ')}${guess ? ` (did you mean ${under ? `${under}.` : ''}${guess}?)` : ''}`,
    {},
    `valid fields${under ? ` of ${under}` : ''}: ${[...names].sort().join(', ')}`,
  );
}

/**
 * The first part of a dotted path the shape does not have, with the names it could have been;
 * undefined when the path is known. Below a field whose own fields the documents do not list,
 * any path goes.
 */
function unknownField(shape: readonly Field[], parts: string[]): { path: string; names: string[]; under: string } | undefined {
  let level = shape;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const names = level.flatMap((f) => (typeof f === 'string' ? [f] : Object.keys(f)));
    if (!names.includes(part)) return { path: parts.slice(0, i + 1).join('.'), names, under: parts.slice(0, i).join('.') };
    const inner = level.find((f): f is Exclude<Field, string> => typeof f !== 'string' && Object.hasOwn(f, part));
    if (!inner) return undefined;
    level = inner[part]!;
  }
  return undefined;
}

/**
 * The object with only the given dotted paths, nested as in the original (own properties only:
 * the paths come from the user). A path whose field is absent is left out; one that stops at a
 * null or a scalar keeps that value (`seller_company: null`). Through a list of objects the rest
 * of the path is picked in each element (`items.id` → `items: [{id: 1}, {id: 2}]`).
 */
export function pickPaths(obj: unknown, paths: string[]): unknown {
  if (!isPlainObject(obj)) return obj;
  const out: Record<string, unknown> = {};
  for (const path of paths) pickInto(out, obj, path.split('.'));
  return out;
}


function pickInto(dst: Record<string, unknown>, src: Record<string, unknown>, parts: string[]): void {
  const [key, ...rest] = parts as [string, ...string[]];
  if (!Object.hasOwn(src, key)) return;
  const value = src[key];
  // A whole value wins over a partial pick of it made by an earlier path.
  if (rest.length === 0 || value === null || typeof value !== 'object') return defineField(dst, key, value);
  const existing = Object.hasOwn(dst, key) ? dst[key] : undefined;
  if (existing === value) return;
  if (Array.isArray(value)) {
    if (existing !== undefined && !Array.isArray(existing)) return;
    const [index, ...after] = rest as [string, ...string[]];
    // `errors.0.message`: the element asked for, as the table and CSV read it (pathGetter).
    if (/^\d+$/.test(index) && Object.hasOwn(value, index)) return pickElement(dst, key, value, Number(index), after);
    // An index past the list's end (`orders.9` of three) is nothing, as the table shows it, unless
    // the elements have a field of that name.
    if (/^\d+$/.test(index) && !value.some((el) => isPlainObject(el) && Object.hasOwn(el, index))) return;
    let picked = existing as unknown[] | undefined;
    const byIndex = picked && indexPicks.get(picked);
    if (!picked || byIndex) {
      // Every element now: the ones picked by index keep what was picked of them.
      const whole = value.map((el) => (isPlainObject(el) ? {} : el));
      for (const [i, at] of byIndex ?? []) whole[i] = picked![at];
      picked = whole;
      defineField(dst, key, picked);
    }
    value.forEach((el, i) => {
      if (isPlainObject(el) && isPlainObject(picked[i])) pickInto(picked[i] as Record<string, unknown>, el, rest);
    });
    return;
  }
  if (existing !== undefined && !isPlainObject(existing)) return;
  if (existing === undefined) defineField(dst, key, {});
  pickInto(dst[key] as Record<string, unknown>, value as Record<string, unknown>, rest);
}

/**
 * The lists made of elements picked by index (`orders.1`, `errors.0.message`): which element of
 * the answer's list each of their places holds. A list picked through every element is not here.
 */
const indexPicks = new WeakMap<unknown[], Map<number, number>>();

/** Picks element `i` of `list` (the whole of it, or `rest` of it) into `dst[key]`. */
function pickElement(dst: Record<string, unknown>, key: string, list: unknown[], i: number, rest: string[]): void {
  let picked = Object.hasOwn(dst, key) ? (dst[key] as unknown[]) : undefined;
  if (!picked) {
    picked = [];
    indexPicks.set(picked, new Map());
    defineField(dst, key, picked);
  }
  const places = indexPicks.get(picked);
  let at = i;
  if (places) {
    // Kept in the answer's order, whatever order the paths came in.
    if (!places.has(i)) {
      const before = [...places.keys()].filter((k) => k < i).length;
      for (const [k, p] of places) if (p >= before) places.set(k, p + 1);
      places.set(i, before);
      picked.splice(before, 0, isPlainObject(list[i]) ? {} : list[i]);
    }
    at = places.get(i)!;
  }
  const el = list[i];
  if (rest.length === 0 || !isPlainObject(el)) picked[at] = el;
  else if (isPlainObject(picked[at])) pickInto(picked[at] as Record<string, unknown>, el, rest);
}

/** Sets a key as an own data property (a key such as "__proto__" stays an ordinary field). */
function defineField(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
