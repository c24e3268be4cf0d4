// How a value from the file and the value the service holds are compared: as the service would
// store the file's value, not as the two texts read. A sync that compared raw text would plan
// an update every night for `2025-03-01T14:30:00Z` against `2025-03-01T14:30:00.000000Z`, for
// `1200.50` against 1200.5, or for tags listed in another order, and never converge.
//
// The file's values arrive already parsed by the import readers (numbers as numbers, dates
// checked, lists split, country codes upper-cased, `'`-guarded cells unguarded by readCsv), so
// these functions only have to bridge what the service does to a value when it stores it.
import { instantOf } from '../util/dates.js';

/** How one field compares. */
export type Compare =
  /** Strings as they are (the CSV reader has trimmed the cell). */
  | 'text'
  /** Codes the service upper-cases (`be` is stored `BE`). */
  | 'upper'
  /** Numbers and ids: equal as numbers (`"12.50"` from a decimal field equals 12.5). */
  | 'number'
  /** YYYY-MM-DD: a date-time from the service counts by its date part. */
  | 'date'
  /** The same instant, whatever the notation (offset, fractional seconds). */
  | 'datetime'
  /** Lists whose order and repeats mean nothing (tags, traced ids). */
  | 'set'
  /** GeoJSON geometries: the same type and the same coordinates, as numbers. */
  | 'geometry';

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

/** The value in a form where equal stored values are `===` or JSON-equal. */
export function canonical(how: Compare, value: unknown): unknown {
  if (isBlank(value)) return how === 'set' ? [] : null;
  switch (how) {
    case 'text':
      return String(value);
    case 'upper':
      return String(value).toUpperCase();
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? n : String(value);
    }
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : String(value);
    case 'datetime': {
      // Offset-less text in UTC, whatever the zone sct runs in (src/util/dates.ts).
      const t = typeof value === 'string' ? instantOf(value) : NaN;
      return Number.isNaN(t) ? String(value) : t;
    }
    case 'set': {
      const list = Array.isArray(value) ? value : [value];
      // Numbers and numeric strings are the same id; sorted so order does not matter.
      return [...new Set(list.map((v) => (typeof v === 'number' ? String(v) : String(v))))].sort();
    }
    case 'geometry':
      return geometryKey(value);
  }
}

/** Whether the file's value is what the service already holds. */
export function same(how: Compare, fileValue: unknown, serviceValue: unknown): boolean {
  const a = canonical(how, fileValue);
  const b = canonical(how, serviceValue);
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return false;
}

/**
 * A geometry as text with its numbers written the same way: `{"type":"Point","coordinates":[-4.02,5.35]}`
 * whatever the key order or extra members (a `bbox`, a `crs`) the service may add.
 */
function geometryKey(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const g = value as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (Array.isArray(g.geometries)) return JSON.stringify({ type: g.type, geometries: g.geometries.map(geometryKey) });
  const coordinates = numbers(g.coordinates);
  if (g.type === 'Polygon' && Array.isArray(coordinates)) return JSON.stringify({ type: g.type, coordinates: coordinates.map(ringForm) });
  if (g.type === 'MultiPolygon' && Array.isArray(coordinates)) {
    return JSON.stringify({ type: g.type, coordinates: coordinates.map((p) => (Array.isArray(p) ? p.map(ringForm) : p)) });
  }
  return JSON.stringify({ type: g.type, coordinates });
}

/**
 * A closed ring in one form whatever its direction and first position: a Shapefile stores outer
 * rings clockwise, GeoJSON and KML usually counter-clockwise, and the same plot read from either
 * is the same plot (a sync plans no change for it). Started at its least position, in the
 * direction whose second position is the lesser.
 */
function ringForm(ring: unknown): unknown {
  if (!Array.isArray(ring) || ring.length < 4 || !ring.every(Array.isArray)) return ring;
  const key = (p: unknown[]) => JSON.stringify(p);
  if (key(ring[0]) !== key(ring[ring.length - 1])) return ring;
  const open = ring.slice(0, -1) as unknown[][];
  const less = (a: unknown[], b: unknown[]) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = a[i] as number;
      const y = b[i] as number;
      if (x !== y) return x === undefined || x < y;
    }
    return false;
  };
  let start = 0;
  for (let i = 1; i < open.length; i++) if (less(open[i], open[start])) start = i;
  const forward = [...open.slice(start), ...open.slice(0, start)];
  const backward = [forward[0], ...forward.slice(1).reverse()];
  const chosen = less(backward[1], forward[1]) ? backward : forward;
  return [...chosen, chosen[0]];
}

function numbers(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(numbers);
  return typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
}
