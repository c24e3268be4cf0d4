// The plan of a sync: which objects of the file the service lacks (create), which it holds with
// other values (update, with only the fields that differ), which match (unchanged), and which
// it holds that the file does not name (only on the service: listed, never deleted).
//
// Pure functions over what the file says and a compact snapshot of what the service holds, so
// the planning of 10,000 rows against 100,000 objects is a few Map lookups per row: the
// service's objects are indexed by key as they are read (src/sync/read.ts), never scanned.
//
// Rules, the same for every resource:
// - A field the file gives no value for (an empty cell) is never compared and never sent.
// - A field the service does not return (an order's dds_identifiers, send_information_request)
//   cannot be compared: it is sent when the object is created, never in an update, and named
//   once in the plan's notes. So a write-only field never makes every night's plan an update.
// - Nested items (an order's) are matched by their key field (line_number); a file item without
//   one is numbered by its place in the order, as the service numbers it. When any item is new
//   or changed, the update carries the whole item list: each item the service holds as `{id}`
//   (plus the changed fields, if any), new items without an id. The service's PATCH replaces
//   the list with the one sent (src/sandbox/routes/orders.ts), so an item left out would be
//   deleted — and with every item listed the update means the same whether the service
//   replaces the list or merges into it.
import { RowErrors } from '../bulk/csv.js';
import type { FileUnit } from '../bulk/report.js';
import { canonical, same, type Compare } from './normalise.js';
import { isPlainObject } from '../util/objects.js';

type Body = Record<string, unknown>;

export interface SyncSpec {
  /** The compared fields of an object, by how their values compare. */
  fields: Record<string, Compare>;
  /** A nested list whose elements are matched by a key field (an order's items). */
  items?: ItemsSpec;
}

interface ItemsSpec {
  /** The field holding the list (`items`). */
  field: string;
  /** The field that matches a file item with a service item (`line_number`). */
  key: string;
  /** The compared fields of an item; dotted paths reach into nested objects (`trace.traced_orders`). */
  fields: Record<string, Compare>;
}

/** One object of the file, read and validated by the command's import reader. */
export interface FileObject {
  key: string;
  lines: number[];
  /** The create body, as `… import` would send it. */
  body: Body;
  /** The fields the file gives a value for; by default every field of the body. */
  given?: ReadonlySet<string>;
  /** The line of each item of the body, for messages. */
  itemLines?: number[];
  /**
   * What the file lacks to create this object (a required field left empty): of no matter when
   * the object is on the service, as an update sends only what differs; else the row is invalid.
   */
  createProblems?: RowProblem[];
}

/** One cell's problem: its line, its column as the file's header spells it, and the message. */
export interface RowProblem {
  line: number;
  column: string;
  message: string;
}

/** What the plan keeps of a service object: its id, key and compared fields (items reduced alike). */
export type Snapshot = Body & { id: number };

export interface Change {
  field: string;
  old: unknown;
  new: unknown;
}

export interface PlannedCreate {
  key: string;
  lines: number[];
  body: Body;
  /** The line of each of the body's items, in order (an order's). */
  itemLines?: number[];
}

interface PlannedUpdate {
  key: string;
  id: number;
  lines: number[];
  changes: Change[];
  /** The PATCH body: the changed fields only (and the item list when an item changed). */
  body: Body;
  /** What the service held when the plan was made: the object is read again and compared before the PATCH. */
  planned: Snapshot;
  /** The file line of each item of the body's item list (none for one the file does not name). */
  itemLines?: Array<number | undefined>;
}

interface Unchanged {
  key: string;
  id: number;
  lines: number[];
}

export interface Plan {
  /** How many objects to create; their entries are in `create` unless the plan was made without them (Planner). */
  creates: number;
  create: PlannedCreate[];
  update: PlannedUpdate[];
  unchanged: Unchanged[];
  /** The service's objects the file does not name, as the reader summarised them. */
  onlyOnService: Body[];
  /** Fields of the file that the service does not return: sent on create only. */
  notCompared: string[];
}

/** Where a sync's view of the service comes from: the snapshots of the file's keys, the rest summarised. */
export interface ServiceView {
  byKey: ReadonlyMap<string, Snapshot>;
  onlyOnService: Body[];
  /** Keys of objects the sync does not manage, with why a file row naming one cannot be synced. */
  outside?: ReadonlyMap<string, string>;
}

/**
 * What a sync needs of an object beyond what an import needs, checked before any request: no two
 * of its items share a line number (else they could not be matched). Its problems, each with
 * its line.
 */
export function checkObject(spec: SyncSpec, o: FileObject): RowProblem[] {
  const problems: RowProblem[] = [];
  if (!spec.items) return problems;
  const { field, key } = spec.items;
  const items = o.body[field];
  if (!Array.isArray(items)) return problems;
  const seen = new Map<unknown, number>();
  items.forEach((item: Body, i) => {
    const k = itemKey(spec.items!, item, i);
    const line = o.itemLines?.[i] ?? o.lines[0];
    const first = seen.get(k);
    if (first !== undefined) problems.push({ line, column: key, message: `${o.key} has two items with ${key} ${k} (line ${first} too): a sync matches items by ${key}` });
    else seen.set(k, line);
  });
  return problems;
}

/**
 * Puts an object's problems into `errors`, and its other lines as not sent: an object is sent
 * whole or not at all, and each of its lines is reported.
 */
export function addObjectProblems(errors: RowErrors, o: { key: string; lines: readonly number[] }, problems: readonly RowProblem[]): void {
  for (const p of problems) errors.add(p.line, p.column, p.message);
  const invalid = new Set(problems.map((p) => p.line));
  const first = problems.reduce((least, p) => Math.min(least, p.line), Infinity);
  for (const line of o.lines) if (!invalid.has(line)) errors.add(line, 'external_id', `not sent: line ${first} of ${o.key} is invalid`);
}

/** The key of a file item: its own, else its place in the list (1-based), as the service numbers it. */
function itemKey(spec: ItemsSpec, item: Body, index: number): number | string {
  const k = item[spec.key];
  return k === undefined || k === null ? index + 1 : (canonical('number', k) as number | string);
}

/**
 * The objects of a file as a sync takes them: their keys and what some of them lack to be
 * created, known from a first reading, and the objects themselves made again as often as asked.
 * A file of a million rows is planned object by object as it is read again, so neither its
 * objects nor the plan's creates need be held at once (cli-spec.md "When the world misbehaves":
 * Memory); a workbook or a plot file is held, and handed on from memory.
 */
export interface FileObjects {
  /** Every object's key. */
  keys: ReadonlySet<string>;
  /** The objects that lack something to be created (FileObject.createProblems), by key: few. */
  lacking: ReadonlyMap<string, { lines: number[]; problems: RowProblem[] }>;
  /**
   * Hands on each object, in file order; `afterEach`, when given, is waited for after each
   * (a writer making room), where the objects come from a reading.
   */
  each(take: (o: FileObject) => void, afterEach?: () => Promise<void> | undefined): Promise<void>;
  /**
   * What only the service's state shows wrong with some objects, by key, once it has been read
   * (an origin's point checked against the country the service holds for it, where the file
   * gives none).
   */
  againstService?: (service: ReadonlyMap<string, Snapshot>) => Promise<ObjectProblems[]>;
  /** What the file's objects are counted as: rows of lines (the default), or a plot file's features ("feature 3"). */
  unit?: FileUnit;
}

/** An object of the file found invalid, and why (RowErrors takes the problems). */
export interface ObjectProblems {
  key: string;
  lines: number[];
  problems: RowProblem[];
}

/** Objects already made and held (a workbook's, a plot file's, a test's). */
export function heldObjects(objects: readonly FileObject[]): FileObjects {
  const lacking = new Map<string, { lines: number[]; problems: RowProblem[] }>();
  for (const o of objects) if (o.createProblems?.length) lacking.set(o.key, { lines: o.lines, problems: o.createProblems });
  return {
    keys: new Set(objects.map((o) => o.key)),
    lacking,
    async each(take, afterEach) {
      for (const o of objects) {
        take(o);
        await afterEach?.();
      }
    },
  };
}

/**
 * The objects of the file that cannot be created, once the service has been read: those not on
 * it that lack a field only a create needs, or whose key an object outside the sync holds (a
 * create would make a second object under it). Each with its lines and problems, in file order.
 */
export async function uncreatable(objects: FileObjects, service: ServiceView): Promise<ObjectProblems[]> {
  const found = new Map<string, { lines: number[]; problems: RowProblem[] }>();
  for (const [key, l] of objects.lacking) if (!service.byKey.has(key)) found.set(key, { lines: l.lines, problems: [...l.problems] });
  const outside = [...(service.outside ?? [])].filter(([key]) => !service.byKey.has(key));
  // Rare (a key another company's order holds): the file is read again for those objects' lines.
  if (outside.length) {
    const why = new Map(outside);
    await objects.each((o) => {
      const message = why.get(o.key);
      if (message === undefined) return;
      const entry = found.get(o.key) ?? { lines: o.lines, problems: [] };
      entry.problems.push({ line: o.lines[0], column: 'external_id', message });
      found.set(o.key, entry);
    });
  }
  return [...found].map(([key, v]) => ({ key, ...v })).sort((a, b) => a.lines[0] - b.lines[0]);
}

/**
 * Makes a plan object by object. `keepCreates: false` counts the creates without keeping them
 * (a plan only shown, whose creates are written as they are planned): the plan of a million new
 * objects then holds none of them.
 */
export class Planner {
  private readonly plan: Plan;
  private readonly notCompared = new Set<string>();
  /** Objects left out of the plan: their text lost letters to a code page (codePageLoss). */
  readonly lossy: ObjectProblems[] = [];

  constructor(
    private readonly spec: SyncSpec,
    private readonly service: ServiceView,
    private readonly keepCreates = true,
  ) {
    this.plan = { creates: 0, create: [], update: [], unchanged: [], onlyOnService: service.onlyOnService, notCompared: [] };
  }

  /** Plans one object; a create is returned (to be written as it is planned), the rest kept. */
  add(o: FileObject): PlannedCreate | undefined {
    const current = this.service.byKey.get(o.key);
    if (!current) {
      // What cannot be created (uncreatable) was settled before the plan, and is not given here.
      const c: PlannedCreate = { key: o.key, lines: o.lines, body: o.body, itemLines: o.itemLines };
      this.plan.creates++;
      if (this.keepCreates) this.plan.create.push(c);
      return c;
    }
    const { changes, body, itemLines } = diffObject(this.spec, o, current, this.notCompared);
    const lost = changes.filter((c) => codePageLoss(c.new, c.old));
    if (lost.length) {
      const problems = lost.map((c) => ({ line: o.lines[0]!, column: c.field, message: `${JSON.stringify(c.new)} has "?" where the service has ${JSON.stringify(c.old)}: the file was saved in an encoding without those letters (Excel's "CSV", Windows-1252); save it as UTF-8 ("CSV UTF-8") and run again` }));
      this.lossy.push({ key: o.key, lines: o.lines, problems });
      return undefined;
    }
    if (changes.length) this.plan.update.push({ key: o.key, id: current.id, lines: o.lines, changes, body, planned: current, itemLines });
    else this.plan.unchanged.push({ key: o.key, id: current.id, lines: o.lines });
    return undefined;
  }

  done(): Plan {
    this.plan.notCompared = [...this.notCompared];
    return this.plan;
  }
}

/**
 * `text` is `was` with letters a code page lacks written as "?", nothing else changed: a file
 * saved as Windows-1252 (Excel's "CSV", LibreOffice's default) from text that had them. Synced,
 * it would write the "?" over the service's letters. A list (tags) is so when each of its texts
 * is the same or so; the service's text is compared as it is, composed (NFC) and decomposed (NFD:
 * an encoder writes a "?" for each accent it cannot map).
 */
export function codePageLoss(text: unknown, was: unknown): boolean {
  if (Array.isArray(text) && Array.isArray(was)) {
    // Lists whose order and repeats mean nothing (tags): each text not on the service is one of
    // the service's that lost letters.
    const now = new Set(text);
    const before = new Set(was);
    if (now.size !== before.size) return false;
    const unmatched = [...before].filter((w) => !now.has(w));
    let lost = false;
    for (const t of now) {
      if (before.has(t)) continue;
      const i = unmatched.findIndex((w) => codePageLoss(t, w));
      if (i < 0) return false;
      unmatched.splice(i, 1);
      lost = true;
    }
    return lost;
  }
  if (typeof text !== 'string' || typeof was !== 'string' || !text.includes('?') || text === was) return false;
  return [was, was.normalize('NFC'), was.normalize('NFD')].some((form) => questionMarksFor(text, form));
}

/**
 * `text` is `was` with some of its characters outside ASCII written as "?": one "?" for a code
 * point, or one for each UTF-16 unit of it (Windows' converter writes "??" for an emoji). Where
 * in `text` each character of `was` may end is kept as a set, so the check is linear in the
 * text (a pattern with a choice per emoji backtracked for minutes on a text that differs).
 */
const MAX_ENDS = 64;

function questionMarksFor(text: string, was: string): boolean {
  let ends = new Set([0]);
  for (const c of was) {
    const next = new Set<number>();
    for (const j of ends) {
      if (text.startsWith(c, j)) next.add(j + c.length);
      if (c.codePointAt(0)! >= 0x80 && text[j] === '?') {
        next.add(j + 1);
        if (c.length > 1 && text[j + 1] === '?') next.add(j + 2);
      }
    }
    // Each emoji read as one "?" or two adds a place the rest may start: past this many (a text
    // of hundreds of emoji beside hundreds of "?"), the change is taken for the edit it may be,
    // rather than a check that grows with the square of the text.
    if (next.size === 0 || next.size > MAX_ENDS) return false;
    ends = next;
  }
  return ends.has(text.length);
}

/** The fields where the file differs from the service, and the PATCH body that makes them agree. */
function diffObject(spec: SyncSpec, o: FileObject, current: Snapshot, notCompared: Set<string>): { changes: Change[]; body: Body; itemLines?: Array<number | undefined> } {
  const changes: Change[] = [];
  const body: Body = {};
  const itemsField = spec.items?.field;
  for (const [field, value] of Object.entries(o.body)) {
    if (field === itemsField || value === undefined) continue;
    if (o.given && !o.given.has(field)) continue;
    const how = spec.fields[field];
    if (!how || !Object.hasOwn(current, field)) {
      if (field !== 'external_id') notCompared.add(field);
      continue;
    }
    if (!same(how, value, current[field])) {
      changes.push({ field, old: current[field] ?? null, new: value });
      body[field] = value;
    }
  }
  if (spec.items && Array.isArray(o.body[spec.items.field]) && (!o.given || o.given.has(spec.items.field))) {
    if (!Object.hasOwn(current, spec.items.field)) notCompared.add(spec.items.field);
    else {
      const itemLines = diffItems(spec.items, o.body[spec.items.field] as Body[], current[spec.items.field] as Snapshot[], changes, body, notCompared, o.itemLines);
      return { changes, body, itemLines };
    }
  }
  return { changes, body };
}

/** Sets the body's item list when an item changed; returns the file line of each of its items (none for one the file does not name). */
function diffItems(spec: ItemsSpec, fileItems: Body[], serviceItems: Snapshot[], changes: Change[], body: Body, notCompared: Set<string>, fileLines?: readonly number[]): Array<number | undefined> | undefined {
  // The first service item with a line number is the one matched; a second one (the service
  // does not forbid it) is kept as it is.
  const byKey = new Map<unknown, Snapshot>();
  for (const it of serviceItems) {
    const k = canonical('number', it[spec.key]);
    if (!byKey.has(k)) byKey.set(k, it);
  }
  const patches = new Map<number, Body>();
  const added: Body[] = [];
  const addedLines: Array<number | undefined> = [];
  const lineOf = new Map<unknown, number | undefined>();
  fileItems.forEach((item, i) => {
    const k = itemKey(spec, item, i);
    const label = `${spec.field}[${spec.key === 'line_number' ? 'line ' : ''}${k}]`;
    const current = byKey.get(k);
    if (!current) {
      // Sent with its key, so the service stores the number it was matched by.
      const fresh = { ...item, [spec.key]: k };
      added.push(fresh);
      addedLines.push(fileLines?.[i]);
      changes.push({ field: label, old: null, new: fresh });
      return;
    }
    lineOf.set(current.id, fileLines?.[i]);
    const patch: Body = {};
    for (const path of leafPaths(item)) {
      if (path === spec.key) continue;
      const value = getIn(item, path);
      const how = spec.fields[path];
      if (!how || !hasIn(current, path)) {
        notCompared.add(`${spec.field}.${path}`);
        continue;
      }
      const old = getIn(current, path);
      if (!same(how, value, old)) {
        changes.push({ field: `${label}.${path}`, old: old ?? null, new: value });
        setIn(patch, path, value);
      }
    }
    // A nested object (an item's metadata) goes whole: the service may replace it, not merge.
    for (const [k, v] of Object.entries(patch)) if (v && typeof v === 'object' && !Array.isArray(v) && isPlainObject(item[k])) patch[k] = item[k];
    if (Object.keys(patch).length) patches.set(current.id, patch);
  });
  if (added.length === 0 && patches.size === 0) return undefined;
  body[spec.field] = [...serviceItems.map((it) => ({ id: it.id, ...patches.get(it.id) })), ...added];
  return [...serviceItems.map((it) => lineOf.get(it.id)), ...addedLines];
}

/** The dotted paths of an item's values (`volume`, `trace.traced_origins`); arrays are values. */
function leafPaths(obj: Body, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...leafPaths(v as Body, `${prefix}${k}.`));
    else out.push(prefix + k);
  }
  return out;
}

/** The value at a dotted path (own fields only), and whether the path exists at all. */
function lookup(obj: Body, path: string): { found: boolean; value?: unknown } {
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, part)) return { found: false };
    v = (v as Body)[part];
  }
  return { found: true, value: v };
}

const getIn = (obj: Body, path: string): unknown => lookup(obj, path).value;
const hasIn = (obj: Body, path: string): boolean => lookup(obj, path).found;

function setIn(obj: Body, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = obj;
  for (const part of parts.slice(0, -1)) o = (o[part] ??= {}) as Body;
  o[parts[parts.length - 1]] = value;
}

/**
 * What a plan keeps of a service object: the id, the key, and the compared fields the service
 * returned (a field it does not return stays absent, so it is known as not comparable). A page
 * of 1,000 orders is about 7 MB of JSON; kept whole, 100,000 would not fit in memory.
 */
export function snapshotOf(spec: SyncSpec, keyField: string, obj: Body): Snapshot {
  const s: Body = { id: obj.id, [keyField]: obj[keyField] };
  for (const field of Object.keys(spec.fields)) if (Object.hasOwn(obj, field)) s[field] = obj[field];
  if (spec.items && Array.isArray(obj[spec.items.field])) {
    const paths = [spec.items.key, ...Object.keys(spec.items.fields)];
    s[spec.items.field] = (obj[spec.items.field] as Body[]).map((item) => {
      const it: Body = { id: item.id };
      for (const path of paths) if (hasIn(item, path)) setIn(it, path, getIn(item, path));
      return it;
    });
  }
  return s as Snapshot;
}

/**
 * Whether the object now on the service is still the one planned from: the same compared
 * fields, the same items (ids and compared fields). A field the plan's reading did not return
 * is not compared.
 */
export function unchangedSince(planned: Snapshot, now: Snapshot): boolean {
  return Object.keys(planned).every((field) => JSON.stringify(planned[field]) === JSON.stringify(now[field]));
}

/** How many writes the plan needs: one request per create and per update. */
export function writesOf(plan: Plan): number {
  return plan.creates + plan.update.length;
}
