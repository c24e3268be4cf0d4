// The checks of cli-spec.md "Geolocation of origins (EUDR)": what the EU registry refuses
// (errors) and what it is likely to query (warnings), found before anything is sent. Every
// feature is checked to the end, so one run shows everything there is to fix.
import kinks from '@turf/kinks';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { PLOT_TYPES, positionsOf, type GeoJsonFile, type PlotGeometry, type RawFeature } from './geojson.js';
import { countryOf, externalIdOf, nameOf, statedHectares } from './feature-fields.js';
import { countryOutline, haversineKm, OUTSIDE_TOLERANCE_KM, type CountryOutline } from './countries.js';
import { unknownCountryProblem } from './country-codes.js';
import { formatHectares, hectares } from './area.js';

export const LIMITS = {
  /** A plot of this many hectares or more must be a polygon. */
  pointMaxHa: 4,
  minHa: 0.01,
  maxHa: 10_000,
  decimals: 6,
  /** The registry's limit for the geolocation of one statement (MB as the registry counts them). */
  fileBytes: 25_000_000,
};

export type Level = 'error' | 'warning';

export interface Finding {
  file: string;
  /** The feature's index (from 1), or null for a finding about the whole file. */
  feature: number | null;
  id?: string;
  name?: string;
  level: Level;
  message: string;
  position?: Position;
}

export interface Summary {
  file: string;
  features: number;
  points: number;
  polygons: number;
  /** Total area of the polygons, geodesic. */
  hectares: number;
  errors: number;
  warnings: number;
}

export interface CheckedFeature {
  raw: RawFeature;
  /** Set when the geometry is a well-formed plot geometry with every position in range (it can be drawn). */
  geometry?: PlotGeometry;
  error: boolean;
  /** The country it was checked against. */
  country?: string;
}

export interface CheckResult {
  findings: Finding[];
  summary: Summary;
  features: CheckedFeature[];
}

export interface CheckOptions {
  /** For features without a country property (--country-code). */
  countryCode?: string;
  /** countryCode for every feature, whatever its properties say (the country of the origin being created). */
  forceCountry?: boolean;
  /** Which property names the feature (--name-property). */
  nameProperty?: string;
}

export function checkPlots(file: GeoJsonFile, options: CheckOptions = {}): CheckResult {
  const findings: Finding[] = [];
  const summary: Summary = { file: file.name, features: file.features.length, points: 0, polygons: 0, hectares: 0, errors: 0, warnings: 0 };
  const add = (f: Finding) => {
    findings.push(f);
    if (f.level === 'error') summary.errors++;
    else summary.warnings++;
  };
  if (file.problem) {
    add({ file: file.name, feature: null, level: 'error', message: file.problem });
    return { findings, summary, features: [] };
  }
  if (file.size > LIMITS.fileBytes) {
    add({ file: file.name, feature: null, level: 'warning', message: `the file is ${(file.size / 1e6).toFixed(1)} MB, over the registry's ${LIMITS.fileBytes / 1e6} MB limit for one statement: split it` });
  }
  if (file.features.length === 0) add({ file: file.name, feature: null, level: 'warning', message: 'no features' });

  const seen = new SeenGeometries();
  const features = file.features.map((raw) => {
    const checked: CheckedFeature = { raw, error: false };
    const id = externalIdOf(raw);
    const name = nameOf(raw, options.nameProperty);
    const report = (level: Level, message: string, position?: Position) => {
      if (level === 'error') checked.error = true;
      add({ file: file.name, feature: raw.index, ...(id !== undefined && { id }), ...(name !== undefined && { name }), level, message, ...(position && { position }) });
    };
    checkFeature(raw, checked, report, options, seen, summary);
    return checked;
  });
  return { findings, summary, features };
}

type Report = (level: Level, message: string, position?: Position) => void;

function checkFeature(raw: RawFeature, checked: CheckedFeature, report: Report, options: CheckOptions, seen: SeenGeometries, summary: Summary): void {
  if (raw.problem) return report('error', raw.problem);
  const g = raw.geometry as { type?: unknown; coordinates?: unknown } | null | undefined;
  if (g === null || g === undefined) return report('error', 'no geometry');
  if (typeof g !== 'object' || Array.isArray(g)) return report('error', 'the geometry is not a GeoJSON object');
  if (!(PLOT_TYPES as readonly unknown[]).includes(g.type)) {
    return report('error', `geometry type ${JSON.stringify(g.type ?? null)} is not accepted: a plot is a Point, Polygon or MultiPolygon`);
  }
  const type = g.type as PlotGeometry['type'];
  if (type === 'Point') summary.points++;
  else summary.polygons++;
  const shape = shapeProblem(type, g.coordinates);
  if (shape) return report('error', shape);
  const geometry = g as PlotGeometry;
  const scan = scanPositions(geometry);
  if (scan.outOfRange) {
    const [lng, lat] = scan.outOfRange;
    const what = lng < -180 || lng > 180 ? `longitude ${lng} is outside −180..180` : `latitude ${lat} is outside −90..90`;
    report('error', `position ${formatPosition(scan.outOfRange)}: ${what}${lng >= -90 && lng <= 90 && lat >= -180 && lat <= 180 ? ' (latitude and longitude swapped? GeoJSON puts longitude first)' : ''}`, scan.outOfRange);
    return;
  }
  checked.geometry = geometry;

  const ringsOk = type === 'Point' || checkRings(geometry as Polygon | MultiPolygon, report);
  const country = options.forceCountry && options.countryCode ? options.countryCode : countryOf(raw, options.countryCode);
  if (country !== undefined) checkCountry(country, scan, checked, report);

  if (type === 'Point') {
    const stated = statedHectares(raw);
    if (stated !== undefined && stated >= LIMITS.pointMaxHa) {
      report('error', `a point for a plot of ${formatHectares(stated)}: plots of ${LIMITS.pointMaxHa} ha or more need a polygon`, geometry.coordinates as Position);
    }
  }
  if (!scan.precise) {
    const decimals = Math.min(LIMITS.decimals - 1, Math.max(...scan.positions.flatMap(([lng, lat]) => [decimalsOf(lng), decimalsOf(lat)])));
    report('warning', `positions have at most ${decimals} decimal place${decimals === 1 ? '' : 's'}: the registry expects ${LIMITS.decimals} (about 10 cm)`);
  }
  const first = seen.firstOf(raw.index, geometry);
  if (first !== undefined) report('warning', `the same geometry as feature ${first}`);

  if (type !== 'Point' && ringsOk) {
    const ha = hectares(geometry as Polygon | MultiPolygon);
    summary.hectares += ha;
    if (ha < LIMITS.minHa) report('warning', `a polygon of ${formatHectares(ha)}, under ${LIMITS.minHa} ha: is it a plot?`);
    else if (ha > LIMITS.maxHa) report('warning', `a polygon of ${formatHectares(ha)}, over ${LIMITS.maxHa.toLocaleString('en-US')} ha: is it one plot?`);
  }
}

const isPosition = (p: unknown): p is Position =>
  Array.isArray(p) && (p.length === 2 || p.length === 3) && p.every((n) => typeof n === 'number' && Number.isFinite(n));
const isRing = (r: unknown): r is Position[] => Array.isArray(r) && r.every(isPosition);
const isRings = (rs: unknown): rs is Position[][] => Array.isArray(rs) && rs.length > 0 && rs.every(isRing);

/** Why the coordinates do not have the geometry type's shape (nesting, numbers), if they do not. */
function shapeProblem(type: PlotGeometry['type'], c: unknown): string | undefined {
  const position = '[longitude, latitude] (numbers)';
  switch (type) {
    case 'Point':
      return isPosition(c) ? undefined : `a Point's coordinates must be one position ${position}`;
    case 'Polygon':
      return isRings(c) ? undefined : `a Polygon's coordinates must be a list of rings, each a list of positions ${position}`;
    case 'MultiPolygon':
      return Array.isArray(c) && c.length > 0 && c.every(isRings) ? undefined : `a MultiPolygon's coordinates must be a list of polygons, each a list of rings of positions ${position}`;
  }
}

interface Scan {
  /** The first position outside the ranges of longitude and latitude. */
  outOfRange?: Position;
  /** Some coordinate has LIMITS.decimals decimal places or more. */
  precise: boolean;
  positions: Position[];
  bbox: [number, number, number, number];
}

function scanPositions(g: PlotGeometry): Scan {
  const positions = positionsOf(g);
  const scan: Scan = { precise: false, positions, bbox: [Infinity, Infinity, -Infinity, -Infinity] };
  for (const p of positions) {
    const [lng, lat] = p;
    if (!scan.outOfRange && (lng < -180 || lng > 180 || lat < -90 || lat > 90)) scan.outOfRange = p;
    // Writers drop trailing zeros (6.130000 is written 6.13), so precision is judged by the
    // feature's most precise coordinate, not by each one.
    if (!scan.precise) scan.precise = hasSixDecimals(lng) || hasSixDecimals(lat);
    if (lng < scan.bbox[0]) scan.bbox[0] = lng;
    if (lat < scan.bbox[1]) scan.bbox[1] = lat;
    if (lng > scan.bbox[2]) scan.bbox[2] = lng;
    if (lat > scan.bbox[3]) scan.bbox[3] = lat;
  }
  return scan;
}

/**
 * Whether n has a digit at the sixth decimal place or beyond, without turning it into text (the
 * check runs on every coordinate of big files). Below 180 × 10^5 a double is exact to ~4e-9, far
 * under the 1e-6 that one unit of a sixth decimal leaves.
 */
const SCALE = 10 ** (LIMITS.decimals - 1);

function hasSixDecimals(n: number): boolean {
  const scaled = n * SCALE;
  return Math.abs(scaled - Math.round(scaled)) > 1e-6;
}

/** Decimal places as written (for the message, once a feature is known to have too few). */
function decimalsOf(n: number): number {
  const s = String(n);
  if (s.includes('e')) return LIMITS.decimals; // 1e-7 and the like: as precise as it gets
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : Math.min(LIMITS.decimals, s.length - dot - 1);
}

/** Reports unclosed, short and self-crossing rings; true when every ring is sound. */
function checkRings(g: Polygon | MultiPolygon, report: Report): boolean {
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  let ok = true;
  polygons.forEach((rings, pi) => {
    rings.forEach((ring, ri) => {
      const where = `${g.type === 'MultiPolygon' ? `polygon ${pi + 1}, ` : ''}ring ${ri + 1}${ri === 0 ? ' (outer)' : ''}`;
      const first = ring[0];
      const last = ring[ring.length - 1];
      if (ring.length < 4) {
        ok = false;
        report('error', `${where} has ${ring.length} position${ring.length === 1 ? '' : 's'}: a ring needs at least 4, the last repeating the first`, first);
        return;
      }
      if (first[0] !== last[0] || first[1] !== last[1]) {
        ok = false;
        report('error', `${where} is not closed: it ends at ${formatPosition(last)}, not at its first position ${formatPosition(first)}`, last);
        return;
      }
      // Each ring on its own: the finding is a ring that crosses itself (a bow-tie).
      const crossings = kinks({ type: 'Polygon', coordinates: [ring] }).features;
      if (crossings.length > 0) {
        ok = false;
        const at = crossings[0].geometry.coordinates.map((n) => round(n, 7));
        report('error', `${where} crosses itself at ${formatPosition(at)}`, at);
      }
    });
  });
  return ok;
}

function checkCountry(code: string, scan: Scan, checked: CheckedFeature, report: Report): void {
  const unknown = unknownCountryProblem(code);
  if (unknown) {
    report('error', `country ${JSON.stringify(code)} is ${unknown}`);
    return;
  }
  checked.country = code;
  const outline = countryOutline(code);
  if (!outline) return; // no shape at this scale (a few small islands): nothing to test against
  // A plot smaller than the tolerance whose first position is inside cannot have a position
  // clearly outside: one point-in-polygon test for nearly every feature.
  const [minX, minY, maxX, maxY] = scan.bbox;
  if (haversineKm([minX, minY], [maxX, maxY]) < OUTSIDE_TOLERANCE_KM && outline.contains(scan.positions[0])) return;
  const outside = scan.positions.find((p) => !outline.holds(p));
  if (outside) report('error', outsideMessage(outline, outside), outside);
}

function outsideMessage(outline: CountryOutline, p: Position): string {
  const km = Math.round(outline.distanceKm(p)).toLocaleString('en-US');
  const where = `${outline.name} (${outline.code})`;
  const swapped: Position = [p[1], p[0]];
  if (outline.holds(swapped)) {
    return `latitude and longitude look swapped: ${formatPosition(p)} lies ${km} km outside ${where}, ${formatPosition(swapped)} lies in it (GeoJSON puts longitude first)`;
  }
  return `position ${formatPosition(p)} lies ${km} km outside ${where}`;
}

/**
 * The geometries seen so far, by a 53-bit hash of their type and numbers: a Map of 100,000 JSON
 * texts would hold tens of MB. Equal hashes are compared in full, so a collision is never a
 * false duplicate.
 */
class SeenGeometries {
  private readonly byHash = new Map<number, Array<{ index: number; geometry: PlotGeometry }>>();
  private readonly view = new DataView(new ArrayBuffer(8));

  /** The index of the first feature with this same geometry, if any; else remembers this one. */
  firstOf(index: number, geometry: PlotGeometry): number | undefined {
    const h = this.hash(geometry);
    const same = this.byHash.get(h);
    const hit = same?.find((s) => s.geometry.type === geometry.type && sameNumbers(s.geometry.coordinates, geometry.coordinates));
    if (hit) return hit.index;
    if (same) same.push({ index, geometry });
    else this.byHash.set(h, [{ index, geometry }]);
    return undefined;
  }

  private hash(g: PlotGeometry): number {
    // Two 32-bit FNV-1a lanes over the doubles' bytes and the nesting.
    let a = 0x811c9dc5;
    let b = 0x01000193 ^ g.type.length;
    const mix = (x: number) => {
      a = Math.imul(a ^ x, 0x01000193);
      b = Math.imul(b ^ x, 0x5bd1e995) ^ (b >>> 13);
    };
    const walk = (v: unknown): void => {
      if (typeof v === 'number') {
        this.view.setFloat64(0, v);
        mix(this.view.getInt32(0));
        mix(this.view.getInt32(4));
      } else if (Array.isArray(v)) {
        mix(v.length + 0x9e3779b9);
        for (const x of v) walk(x);
      }
    };
    walk(g.coordinates);
    return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
  }
}

function sameNumbers(x: unknown, y: unknown): boolean {
  if (typeof x === 'number' || typeof y === 'number') return x === y;
  if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
  return x.every((v, i) => sameNumbers(v, y[i]));
}

export function formatPosition(p: Position): string {
  return `[${p.slice(0, 2).join(', ')}]`;
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
