// Choosing fields: `--columns a,b.c` (and `--json a,b.c`) checked against the resource's
// documented fields before anything is sent, and applied to JSON objects as nested picks.
import { UsageError } from '../errors.js';
import { flattenShape, RESOURCE_FIELDS, RESOURCE_SHAPES, type DocumentedResource } from '../api/schemas/fields.js';
import { closest } from './suggest.js';

/**
 * Which resource a command prints, by "group verb": only these are checked. Other commands
 * (statistics, reports, bulk results, `sct api`) print shapes of their own and take any name.
 */
const COMMAND_RESOURCES: Record<string, DocumentedResource> = {
  ...verbs('orders', 'order', ['list', 'get', 'create', 'update']),
  ...verbs('products', 'product', ['list', 'get', 'create', 'update']),
  ...verbs('origins', 'origin', ['list', 'get', 'create', 'update']),
  ...verbs('value-chains', 'valueChain', ['list', 'get', 'create', 'update']),
  ...verbs('dds', 'statement', ['list', 'get', 'create', 'update', 'wait']),
  ...verbs('invitations', 'invitation', ['list', 'get', 'create', 'renew']),
  ...verbs('members', 'member', ['list', 'set-role']),
  ...verbs('users', 'user', ['list']),
  ...verbs('workspaces', 'workspace', ['list']),
  ...verbs('countries', 'country', ['list', 'get']),
};

function verbs(group: string, resource: DocumentedResource, names: string[]): Record<string, DocumentedResource> {
  return Object.fromEntries(names.map((v) => [`${group} ${v}`, resource]));
}

/** The dotted paths of a `--columns` value, in order, blanks dropped. */
export function splitFields(flag: string): string[] {
  return flag
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

function resourceOf(command: string): DocumentedResource | undefined {
  return Object.hasOwn(COMMAND_RESOURCES, command) ? COMMAND_RESOURCES[command] : undefined;
}

// `workspaces list` marks the active workspace itself (`current`): a name of sct's, not the API's.
const SCT_FIELDS: Record<string, string[]> = { 'workspaces list': ['current'] };

/** The documented field names of what `command` ("orders list") prints, or undefined: any name. */
export function documentedFields(command: string): readonly string[] | undefined {
  const resource = resourceOf(command);
  return resource && [...RESOURCE_FIELDS[resource], ...(SCT_FIELDS[command] ?? [])];
}

/**
 * The columns of `-o csv` for what `command` prints: the documented fields, objects flattened by
 * dotted name, the same whatever the data; undefined when the resource documents none.
 */
export function csvColumnsOf(command: string): string[] | undefined {
  const resource = resourceOf(command);
  return resource && [...flattenShape(RESOURCE_SHAPES[resource]), ...(SCT_FIELDS[command] ?? [])];
}

/** Exit 2 naming the fields the resource does not have, and listing those it has. */
export function checkFields(command: string, flag: string, option = '--columns'): void {
  const known = documentedFields(command);
  if (!known) return;
  const paths = splitFields(flag);
  if (paths.length === 0) throw new UsageError(`${option} needs at least one field name`);
  const bad = paths.filter((p) => !known.includes(p.split('.')[0]));
  if (bad.length === 0) return;
  const guess = closest(bad[0].split('.')[0], known);
  throw new UsageError(
    `${option}: ${command} has no field ${bad.map((b) => `"${b}"`).join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`,
    {},
    `valid fields: ${[...known].sort().join(', ')}`,
  );
}

/**
 * The object with only the given dotted paths, nested as in the original (own properties only:
 * the paths come from the user). A path whose field is absent is left out; one that stops at a
 * null or a scalar keeps that value (`seller_company: null`).
 */
export function pickPaths(obj: unknown, paths: string[]): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj;
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const parts = path.split('.');
    let src: unknown = obj;
    let dst = out;
    for (let i = 0; i < parts.length; i++) {
      const key = parts[i];
      if (src === null || typeof src !== 'object' || Array.isArray(src) || !Object.hasOwn(src, key)) break;
      const value = (src as Record<string, unknown>)[key];
      const last = i === parts.length - 1;
      if (last || value === null || typeof value !== 'object' || Array.isArray(value)) {
        // A whole value wins over a partial pick of it made by an earlier path.
        defineField(dst, key, value);
        break;
      }
      const existing = Object.hasOwn(dst, key) ? dst[key] : undefined;
      if (existing !== undefined && (existing === null || typeof existing !== 'object' || existing === value)) break;
      if (existing === undefined) defineField(dst, key, {});
      dst = dst[key] as Record<string, unknown>;
      src = value;
    }
  }
  return out;
}

/** Sets a key as an own data property (a key such as "__proto__" stays an ordinary field). */
function defineField(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
