// Request body validation: zod schemas in, DRF-shaped field errors out, with DRF's wording so
// sct prints the same messages against the sandbox as against the service.
import * as z from 'zod';
import { ID_MAX } from '../util/numbers.js';
import { ApiError, badRequest, type Ctx } from './router.js';

// The service's bound, which sct checks too.
const MAX_INT = ID_MAX;

/** DRF's message for a related id that names no object the caller may use. */
export const invalidPk = (v: number | string) => `Invalid pk "${v}" - object does not exist.`;

type Issue = z.core.$ZodRawIssue;

function describeType(expected: string): string {
  switch (expected) {
    case 'int':
    case 'integer':
      return 'A valid integer is required.';
    case 'number':
      return 'A valid number is required.';
    case 'boolean':
      return 'Must be a valid boolean.';
    case 'array':
      return 'Expected a list of items.';
    case 'object':
    case 'record':
      return 'Invalid data. Expected a dictionary.';
    default:
      return 'Not a valid string.';
  }
}

/** Maps a zod issue to the message Django REST framework gives for the same mistake. */
/**
 * A request's value as DRF quotes it in a message (`"[object Object]" is not a valid choice.`):
 * an object whose own `toString` is no function (`{"toString": 1}`) cannot be made a string by
 * String(), and is quoted as any object is.
 */
function shown(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function drfMessage(iss: Issue): string {
  const input = iss.input;
  if (input === undefined && iss.code !== 'custom') return 'This field is required.';
  switch (iss.code) {
    case 'invalid_type':
      if (input === undefined) return 'This field is required.';
      if (input === null) return 'This field may not be null.';
      if (iss.expected === 'int' && typeof input === 'number') return 'A valid integer is required.';
      return describeType(String(iss.expected));
    case 'invalid_value':
      if (input === undefined) return 'This field is required.';
      if (input === null) return 'This field may not be null.';
      return `"${shown(input)}" is not a valid choice.`;
    case 'too_small':
      if (iss.origin === 'string') return Number(iss.minimum) <= 1 ? 'This field may not be blank.' : `Ensure this field has at least ${iss.minimum} characters.`;
      if (iss.origin === 'array' || iss.origin === 'set') return Number(iss.minimum) <= 1 ? 'This list may not be empty.' : `Ensure this field has at least ${iss.minimum} elements.`;
      return `Ensure this value is greater than or equal to ${iss.minimum}.`;
    case 'too_big':
      if (iss.origin === 'string') return `Ensure this field has no more than ${iss.maximum} characters.`;
      if (iss.origin === 'array' || iss.origin === 'set') return `Ensure this field has no more than ${iss.maximum} elements.`;
      return `Ensure this value is less than or equal to ${iss.maximum}.`;
    case 'invalid_format':
      switch (iss.format) {
        case 'email':
          return 'Enter a valid email address.';
        case 'guid':
        case 'uuid':
          return 'Must be a valid UUID.';
        case 'date':
          return 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
        case 'datetime':
          return 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
        default:
          return 'Enter a valid value.';
      }
    case 'custom':
      return iss.message ?? 'Invalid value.';
    default:
      return 'Invalid value.';
  }
}

type ErrorNode = Record<string, unknown>;

const isMessageList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * Adds one message under `key`. A message about the field itself (a list that is too long, a
 * missing object) wins over errors about its parts, as DRF checks the field before its children
 * and reports only one of the two.
 */
function addMessage(node: ErrorNode, key: string, message: string): void {
  const existing = node[key];
  if (isMessageList(existing) && existing.length) {
    if (!existing.includes(message)) existing.push(message);
    return;
  }
  node[key] = [message];
}

/**
 * The errors of the parts of field `key`, created on first use as an object (fields of a nested
 * object, or indexes of a list of plain values) or a list (elements of a list of nested objects).
 * null when the field already holds messages of its own.
 */
function partsOf(node: ErrorNode, key: string, shape: 'object' | 'list'): ErrorNode | ErrorNode[] | null {
  const existing = node[key];
  if (isMessageList(existing) && existing.length) return null;
  if (existing && typeof existing === 'object') return existing as ErrorNode | ErrorNode[];
  const fresh = shape === 'list' ? [] : {};
  node[key] = fresh;
  return fresh;
}

/** The errors of one element of a list of nested objects; valid elements before it stay {}. */
function elementOf(parts: ErrorNode | ErrorNode[], index: number): ErrorNode {
  if (!Array.isArray(parts)) return (parts[String(index)] ??= {}) as ErrorNode;
  for (let j = parts.length; j <= index; j++) parts.push({});
  return parts[index]!;
}

const expectsObject = (iss: z.core.$ZodIssue) => iss.code === 'invalid_type' && (iss.expected === 'object' || iss.expected === 'record');

/**
 * Nests issues the way DRF nests serializer errors. A list of nested objects (DRF `many=True`)
 * answers a list with {} for valid elements: {"items": [{}, {"volume": [...]}]}. A list of plain
 * values (DRF `ListField`) answers an object keyed by index: {"tags": {"0": ["This field may not
 * be blank."]}}. An element that should have been an object counts as a nested object.
 */
function toFieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, unknown> {
  const root: ErrorNode = {};
  for (const iss of issues) {
    const path = iss.path.length ? iss.path.map((p) => (typeof p === 'number' ? p : String(p))) : ['non_field_errors'];
    let node: ErrorNode | null = root;
    let i = 0;
    while (node && i < path.length - 1) {
      const key = String(path[i]);
      const next = path[i + 1];
      if (typeof next !== 'number') {
        node = partsOf(node, key, 'object') as ErrorNode | null;
        i += 1;
        continue;
      }
      const elementIsLast = i + 2 === path.length;
      if (elementIsLast && !expectsObject(iss)) {
        const indexes = partsOf(node, key, 'object');
        if (indexes && !Array.isArray(indexes)) addMessage(indexes, String(next), iss.message);
        node = null;
        break;
      }
      const elements = partsOf(node, key, 'list');
      node = elements && elementOf(elements, next);
      i += 2;
    }
    if (!node) continue;
    // A path that ends on a list index is a message about that element as a whole.
    const last = i < path.length ? String(path[i]) : 'non_field_errors';
    addMessage(node, last, iss.message);
  }
  return root;
}

export function check<S extends z.ZodType>(schema: S, data: unknown): { ok: true; data: z.output<S> } | { ok: false; errors: Record<string, unknown> } {
  const r = schema.safeParse(data, { error: drfMessage });
  if (r.success) return { ok: true, data: r.data };
  return { ok: false, errors: toFieldErrors(r.error.issues) };
}

/** Validates the JSON body of a request, throwing 400 with DRF field errors. */
export function parseBody<S extends z.ZodType>(ctx: Ctx, schema: S): z.output<S> {
  const body = ctx.body === undefined ? {} : ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest({ non_field_errors: ['Invalid data. Expected a dictionary, but got ' + (Array.isArray(body) ? 'list' : typeof body) + '.'] });
  const r = check(schema, body);
  if (!r.ok) throw new ApiError(400, r.errors);
  return r.data;
}

// DRF fields accept numeric strings for numbers and common spellings for booleans.
const numericString = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);
const boolString = (v: unknown) => (v === 'true' || v === 'True' || v === 1 || v === '1' ? true : v === 'false' || v === 'False' || v === 0 || v === '0' ? false : v);

// zod reports a string given to an integer schema as "expected number"; DRF names the integer.
// Only the type's: a value out of range keeps DRF's range message ("less than or equal to …").
const integerTypeMessage = (iss: Issue) =>
  iss.code !== 'invalid_type' && iss.code !== 'invalid_format'
    ? undefined
    : iss.input === undefined
      ? 'This field is required.'
      : iss.input === null
        ? 'This field may not be null.'
        : 'A valid integer is required.';
const integer = () => z.number({ error: integerTypeMessage }).int();

export const id = () => z.preprocess(numericString, integer().min(0).max(MAX_INT));
export const int = (min = -MAX_INT - 1, max = MAX_INT) => z.preprocess(numericString, integer().min(min).max(max));
export const num = (min = -Infinity, max = Infinity) => z.preprocess(numericString, z.number().min(min).max(max));
export const bool = () => z.preprocess(boolString, z.boolean());
export const str = (max = 255, min = 1) => z.string().trim().min(min).max(max);
export const date = () => z.iso.date();
export const dateTime = () => z.iso.datetime({ offset: true, local: true });
export const uuid = () => z.guid();
export const nonEmptyStrings = () => z.array(z.string().trim().min(1));
export const idList = () => z.array(id());

/** Fields that a schema does not know are rejected instead of ignored (statement PATCH). */
export function rejectUnknown(ctx: Ctx, allowed: readonly string[], message: string): void {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) return;
  const bad = Object.keys(body).filter((k) => !allowed.includes(k));
  if (bad.length) throw badRequest(Object.fromEntries(bad.map((k) => [k, [message]])));
}
