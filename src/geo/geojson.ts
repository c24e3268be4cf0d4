// Reading a plot file: a FeatureCollection, one Feature or a bare geometry, as suppliers send
// them. The envelope is checked here; what is inside a geometry is the checks' business
// (plot-checks.ts), so that one bad feature is a finding, never the end of the file.
import { fileLabel, readInputText } from '../util/files.js';
import type { Readable } from 'node:stream';
import type { MultiPolygon, Point, Polygon, Position } from 'geojson';
import * as z from 'zod';
import { jsonErrorPlace } from '../util/json-error.js';

export type { Position };
export type PlotGeometry = Point | Polygon | MultiPolygon;
export const PLOT_TYPES: ReadonlyArray<PlotGeometry['type']> = ['Point', 'Polygon', 'MultiPolygon'];

/** Every position of a plot geometry, in order (loops: Array.prototype.flat is slow in V8). */
export function positionsOf(g: PlotGeometry): Position[] {
  if (g.type === 'Point') return [g.coordinates];
  const out: Position[] = [];
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  for (const rings of polygons) for (const ring of rings) for (const p of ring) out.push(p);
  return out;
}

/** One element of the file, numbered from 1 in file order (as lines are). */
export interface RawFeature {
  index: number;
  /** The Feature's own `id` member. */
  id?: string | number;
  properties: Record<string, unknown>;
  /** Not yet checked: anything the file holds. */
  geometry: unknown;
  /** Why the element is not a Feature at all. */
  problem?: string;
  /** What RFC 7946 forbids in the Feature's own members (a malformed bbox, a "coordinates" member). */
  structure?: string[];
}

export interface GeoJsonFile {
  /** As messages name it: the file's base name, or "stdin". */
  name: string;
  /** In bytes, as read. */
  size: number;
  features: RawFeature[];
  /** Why the file as a whole is not GeoJSON. */
  problem?: string;
  /** What RFC 7946 forbids in the FeatureCollection's own members. */
  structure?: string[];
  /** What a reader of another format left out of the file, and why (a warning). */
  skipped?: string;
  /** Read from another format (KML, KMZ, a Shapefile, GPX): its size says nothing of the GeoJSON the registry receives. */
  converted?: boolean;
}

/** Why a `bbox` member breaks RFC 7946 §5 (2 × 2 or 2 × 3 numbers, south before north), if it does. */
function bboxProblem(bbox: unknown): string | undefined {
  if (bbox === undefined) return undefined;
  const ok = Array.isArray(bbox) && (bbox.length === 4 || bbox.length === 6) && bbox.every((n) => typeof n === 'number' && Number.isFinite(n));
  if (!ok) return `a malformed "bbox": RFC 7946 wants 4 numbers (or 6 with altitude), got ${JSON.stringify(bbox).slice(0, 60)}`;
  const half = bbox.length / 2;
  if (bbox[1] > bbox[1 + half]) return `a malformed "bbox": its southern latitude ${bbox[1]} is north of its northern ${bbox[1 + half]}`;
  return undefined;
}

/** The members RFC 7946 §7.1 keeps for the other kinds of object, which each kind must not have. */
const FORBIDDEN_MEMBERS = {
  FeatureCollection: ['coordinates', 'geometries', 'geometry', 'properties'],
  Feature: ['coordinates', 'geometries', 'features'],
  geometry: ['features', 'geometry', 'properties'],
} as const;

/** What RFC 7946 forbids in a Feature's or a geometry's own members (§7.1: no mixing of kinds). */
export function memberProblems(value: object, kind: 'Feature' | 'geometry'): string[] {
  const found = FORBIDDEN_MEMBERS[kind].filter((m) => m in value).map((m) => `a ${kind} with a "${m}" member, which RFC 7946 forbids`);
  const bbox = bboxProblem((value as { bbox?: unknown }).bbox);
  return bbox ? [...found, bbox] : found;
}

function collectionProblems(value: object): string[] {
  const found = FORBIDDEN_MEMBERS.FeatureCollection.filter((m) => m in value).map((m) => `the FeatureCollection has a "${m}" member, which RFC 7946 forbids`);
  const bbox = bboxProblem((value as { bbox?: unknown }).bbox);
  return bbox ? [...found, `the FeatureCollection has ${bbox}`] : found;
}

const featureSchema = z.object({
  type: z.literal('Feature'),
  id: z.union([z.string(), z.number()]).optional(),
  geometry: z.unknown(),
  // RFC 7946 wants the member, null when empty; files that leave it out are common and harmless.
  properties: z.record(z.string(), z.unknown()).nullish(),
});
const collectionSchema = z.object({ type: z.literal('FeatureCollection'), features: z.array(z.unknown()) });
const typedSchema = z.object({ type: z.string() });

export async function readGeoJsonFile(file: string, stdin: Readable, signal?: AbortSignal): Promise<GeoJsonFile> {
  // Read straight into a string (readInputText): a Buffer kept beside the string and the parsed
  // features would be the file's size more memory at the peak.
  const text = await readInputText(file, stdin, { signal });
  return parseGeoJson(text, fileLabel(file));
}

export function parseGeoJson(text: string, name: string, size = Buffer.byteLength(text)): GeoJsonFile {
  let value: unknown;
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    value = JSON.parse(json);
  } catch (err) {
    // UTF-16 read as UTF-8: its byte-order mark undecodable, a NUL in every other byte.
    if (/^\ufffd\ufffd/.test(json) || json.slice(0, 16).includes('\u0000')) {
      return { name, size, features: [], problem: 'not GeoJSON: the file is UTF-16 text (Notepad\'s and PowerShell 5\'s "Unicode"): save it as UTF-8, as GeoJSON must be' };
    }
    return { name, size, features: [], problem: `not GeoJSON: not valid JSON${jsonErrorPlace(json, (err as Error).message)}` };
  }
  return fromGeoJsonValue(value, name, size);
}

/** A parsed GeoJSON value (also what the KML, Shapefile and GPX readers convert to) as a plot file. */
export function fromGeoJsonValue(value: unknown, name: string, size: number): GeoJsonFile {
  const file: GeoJsonFile = { name, size, features: [] };
  const typed = typedSchema.safeParse(value);
  if (!typed.success) {
    file.problem = 'not GeoJSON: expected an object with a "type" (FeatureCollection, Feature or a geometry)';
    return file;
  }
  const crs = crsProblem((value as { crs?: unknown }).crs);
  if (crs) {
    file.problem = crs;
    return file;
  }
  switch (typed.data.type) {
    case 'FeatureCollection': {
      const collection = collectionSchema.safeParse(value);
      if (!collection.success) {
        file.problem = 'not GeoJSON: a FeatureCollection needs a "features" array';
        return file;
      }
      file.features = collection.data.features.map((f, i) => toFeature(f, i + 1));
      const own = collectionProblems(value as object);
      if (own.length > 0) file.structure = own;
      return file;
    }
    case 'Feature':
      file.features = [toFeature(value, 1)];
      return file;
    case 'Topology':
      file.problem = 'not GeoJSON: this is TopoJSON (convert it with topo2geo or mapshaper first)';
      return file;
    default:
      // A bare geometry, of whatever type: an unknown one is that feature's finding.
      file.features = [{ index: 1, properties: {}, geometry: value }];
      return file;
  }
}

/**
 * Why a `crs` member (GeoJSON of 2008, which GDAL still writes) says the coordinates are not WGS 84
 * longitude/latitude, if it does. Read as WGS 84, a file on another datum lands hundreds of
 * metres off, and a projected one (metres) is out of range: refused, naming the system. That
 * GeoJSON let a Feature or a geometry carry its own, for its positions alone (`whose`).
 */
function crsProblem(crs: unknown, whose = "the file's"): string | undefined {
  if (crs === undefined || crs === null) return undefined;
  const props = crs && typeof crs === 'object' ? ((crs as { properties?: unknown }).properties as Record<string, unknown> | undefined) : undefined;
  const named = typeof props?.name === 'string' ? props.name : props?.code !== undefined ? `EPSG:${String(props.code)}` : undefined;
  if (named !== undefined && WGS84_NAMES.test(named.trim())) return undefined;
  const said = named !== undefined ? named : JSON.stringify(crs).slice(0, 80);
  const fix = whose === "the file's" ? 'convert it first, e.g. ogr2ogr -t_srs EPSG:4326 out.geojson in.geojson' : 'give its positions in WGS 84';
  return `not WGS 84: ${whose} "crs" member names ${said}, and GeoJSON plots are WGS 84 longitude and latitude (read as such they would land in the wrong place): ${fix}`;
}

/**
 * The names a `crs` gives WGS 84 longitude/latitude by (GDAL writes the first for EPSG:4326), in
 * 2D or 3D (EPSG:4979, CRS84h: the same longitude and latitude, with a height), in each spelling
 * GDAL reads: as URNs (the older `urn:x-ogc:` too; the version slot empty, given or left out), as
 * the OGC's http(s) URIs (OGC API, QGIS; with or without www, a trailing slash), and short
 * (CRS:84 as WMS writes it). Another code so spelt is another system.
 */
const WGS84_NAMES =
  /^(urn:(x-)?ogc:def:crs:(OGC:([\d.]*:)?CRS84h?|EPSG:([\d.]*:)?(4326|4979))|https?:\/\/(www\.)?opengis\.net\/def\/crs\/(OGC\/[\d.]+\/CRS84h?|EPSG\/[\d.]+\/(4326|4979))\/?|OGC:CRS84h?|CRS:?84h?|EPSG:{1,2}(4326|4979)|WGS ?84)$/i;

function toFeature(value: unknown, index: number): RawFeature {
  const parsed = featureSchema.safeParse(value);
  if (!parsed.success) {
    const type = typedSchema.safeParse(value).data?.type;
    if (type !== 'Feature') return { index, properties: {}, geometry: undefined, problem: `not a GeoJSON Feature${type !== undefined ? ` (type ${JSON.stringify(type)})` : ''}` };
    // A Feature by its type, with a member of the wrong kind: say which.
    const member = String(parsed.error.issues[0]?.path[0] ?? '');
    const why =
      member === 'properties'
        ? '"properties" must be an object or null'
        : member === 'id'
          ? '"id" must be a string or a number'
          : member === 'geometry'
            ? 'it has no "geometry" member (RFC 7946 wants one, null where the feature has no place)'
            : (parsed.error.issues[0]?.message ?? 'malformed');
    return { index, properties: {}, geometry: undefined, problem: `a malformed GeoJSON Feature: ${why}` };
  }
  const { id, geometry, properties } = parsed.data;
  // A crs of the feature's own, or of its geometry's, places its positions as one on the file would.
  const geometryCrs = geometry !== null && typeof geometry === 'object' ? (geometry as { crs?: unknown }).crs : undefined;
  const crs = crsProblem((value as { crs?: unknown }).crs, "the feature's") ?? crsProblem(geometryCrs, "its geometry's");
  if (crs) return { index, id, properties: properties ?? {}, geometry, problem: crs };
  const structure = memberProblems(value as object, 'Feature');
  return { index, id, properties: properties ?? {}, geometry, ...(structure.length > 0 && { structure }) };
}
