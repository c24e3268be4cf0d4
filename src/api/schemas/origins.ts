// Origin request bodies and the location formats sct accepts for them. The API types location
// as "any"; sct sends a GeoJSON geometry, checks a Point's coordinates locally (the mistake
// people make is swapping latitude and longitude, or typing them out of range) and passes any
// other geometry (polygons of large plots) through untouched.
import * as z from 'zod';
import { str255 } from './common.js';
import { unknownCountryProblem } from '../../geo/country-codes.js';
import { COUNTRY_CODE_RE } from '../enums.js';

/** Two letters naming a country, sent upper-cased: the API stores ISO 3166 alpha-2 codes. */
export const countryCode = z
  .string()
  .regex(COUNTRY_CODE_RE, { error: 'expected a 2-letter country code (ISO 3166 alpha-2, e.g. CI)', abort: true })
  .check((ctx) => {
    const problem = unknownCountryProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: `${JSON.stringify(ctx.value)} is ${problem}` });
  })
  .transform((s) => s.toUpperCase());

export interface GeoPoint {
  type: 'Point';
  /** GeoJSON order: longitude first. */
  coordinates: [number, number] | [number, number, number];
}

/** Why a GeoJSON Point is not acceptable, or undefined when it is. */
export function pointProblem(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'expected a GeoJSON object';
  const o = value as Record<string, unknown>;
  if (o.type !== 'Point') return `expected a GeoJSON Point, got type ${JSON.stringify(o.type)}`;
  const c = o.coordinates;
  if (!Array.isArray(c) || c.length < 2 || c.length > 3 || !c.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    return 'a Point needs "coordinates": [longitude, latitude]';
  }
  return rangeProblem(c[1] as number, c[0] as number);
}

function rangeProblem(lat: number, lng: number): string | undefined {
  if (lat < -90 || lat > 90) return `latitude ${lat} is out of range -90..90`;
  if (lng < -180 || lng > 180) return `longitude ${lng} is out of range -180..180`;
  return undefined;
}

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A latitude/longitude pair (as typed by a person: latitude first) as a GeoJSON Point. */
export function pointFromLatLng(latText: string, lngText: string): GeoPoint {
  const lat = latText.trim();
  const lng = lngText.trim();
  if (!NUMBER_RE.test(lat)) throw new Error(`latitude "${latText}" is not a number`);
  if (!NUMBER_RE.test(lng)) throw new Error(`longitude "${lngText}" is not a number`);
  const problem = rangeProblem(Number(lat), Number(lng));
  if (problem) throw new Error(problem);
  return { type: 'Point', coordinates: [Number(lng), Number(lat)] };
}

/**
 * `lat,lng` ("5.35,-4.02") or a GeoJSON Point as JSON. Throws an Error whose message says what
 * is wrong; callers add the flag or the CSV line and column.
 */
export function parseLocation(text: string): GeoPoint {
  const s = text.trim();
  if (s.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      throw new Error('not valid JSON (expected "lat,lng" or a GeoJSON Point)');
    }
    const problem = pointProblem(parsed);
    if (problem) throw new Error(problem);
    return parsed as GeoPoint;
  }
  const parts = s.split(',');
  if (parts.length !== 2) throw new Error('expected "lat,lng" (e.g. 5.35,-4.02) or a GeoJSON Point');
  return pointFromLatLng(parts[0], parts[1]);
}

const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'];

/**
 * A location cell of a CSV file: `lat,lng`, or a GeoJSON geometry as JSON — a Point checked as
 * --location checks it, any other geometry (an exported plot's Polygon) as it is, as the same
 * geometry given by --file or --set passes. Throws an Error saying what is wrong.
 */
export function parseLocationCell(text: string): unknown {
  const s = text.trim();
  if (!s.startsWith('{')) return parseLocation(s);
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    throw new Error('not valid JSON (expected "lat,lng" or a GeoJSON geometry)');
  }
  const type = geometryType(parsed);
  if (!type) throw new Error(`expected a GeoJSON geometry (Point, Polygon, MultiPolygon, …), got type ${JSON.stringify((parsed as { type?: unknown } | null)?.type ?? null)}`);
  const problem = type === 'Point' ? pointProblem(parsed) : undefined;
  if (problem) throw new Error(problem);
  return parsed;
}

/** The type of a GeoJSON geometry object sct takes as a location (`Polygon`), or undefined when `value` is none. */
function geometryType(value: unknown): string | undefined {
  const type = value && typeof value === 'object' && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined;
  return typeof type === 'string' && GEOMETRY_TYPES.includes(type) ? type : undefined;
}

/**
 * The same rules whichever way the location arrives (--location, --set, --file, a CSV cell): a
 * "lat,lng" string becomes a Point, a Point must have sane coordinates, any other GeoJSON
 * geometry passes, null clears it, and anything else is refused before it is sent.
 */
const location = z.unknown().transform((v, ctx) => {
  if (v === null) return v;
  if (typeof v === 'string') {
    try {
      return parseLocation(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  }
  const type = geometryType(v);
  if (!type) {
    ctx.addIssue({ code: 'custom', message: 'expected "lat,lng" (e.g. 5.35,-4.02) or a GeoJSON geometry such as {"type":"Point","coordinates":[lng,lat]}' });
    return z.NEVER;
  }
  const problem = type === 'Point' ? pointProblem(v) : undefined;
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
  return v;
});

const originFields = {
  name: str255,
  description: z.string().nullish(),
  country_code: countryCode,
  location: location.optional(),
  external_id: z.string().max(255).nullish(),
};

export const originCreateSchema = z.looseObject(originFields);
export const originUpdateSchema = z.looseObject(originFields).partial();

export type OriginCreate = z.infer<typeof originCreateSchema>;
