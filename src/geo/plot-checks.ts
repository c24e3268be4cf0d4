// The checks of cli-spec.md "Geolocation of origins (EUDR)": what the EU registry refuses
// (errors) and what it is likely to query (warnings), found before anything is sent. Every
// feature is checked to the end, so one run shows everything there is to fix.
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { fromGeoJsonValue, memberProblems, PLOT_TYPES, positionsOf, type GeoJsonFile, type PlotGeometry, type RawFeature } from './geojson.js';
import { countryDisagreement, countryOf, disagreement, externalIdOf, misspelledProperties, nameOf, DESCRIPTION_PROPERTIES, EXTERNAL_ID_PROPERTIES, NAME_PROPERTIES, REGISTRY_AREA, statedHectares, unreadSpellings } from './feature-fields.js';
import { countryOutline, haversineKm, onLand, OUTSIDE_TOLERANCE_KM, type CountryOutline } from './countries.js';
import { bboxOf, collinear, ringMeetings, selfMeeting, withoutRepeats } from './rings.js';
import { unknownCountryProblem } from './country-codes.js';
import { formatHectares, hectares } from './area.js';

export const LIMITS = {
  /** A plot of more than this many hectares must be a polygon (EUDR art. 2(28)). */
  pointMaxHa: 4,
  /** The registry's smallest Point Area. */
  pointMinHa: 0.0001,
  minHa: 0.01,
  maxHa: 10_000,
  decimals: 6,
  /** The registry's limit for the geolocation of one statement (MB as the registry counts them). */
  fileBytes: 25_000_000,
};

export type Level = 'error' | 'warning';

/**
 * The error codes the EU registry (EUDR Information System) answers a refused geolocation with,
 * so that a finding here can be matched with a refusal there.
 */
export const REGISTRY_CODES = {
  geometry: 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY',
  area: 'EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID',
  latitude: 'EUDR_COMMODITIES_PRODUCER_GEO_LATITUDE_INVALID',
  longitude: 'EUDR_COMMODITIES_PRODUCER_GEO_LONGITUDE_INVALID',
  size: 'EUDR_MAXIMUM_GEO_SIZE_REACHED',
} as const;
export type RegistryCode = (typeof REGISTRY_CODES)[keyof typeof REGISTRY_CODES];

export interface Finding {
  file: string;
  /** The feature's index (from 1), or null for a finding about the whole file. */
  feature: number | null;
  id?: string;
  name?: string;
  level: Level;
  message: string;
  position?: Position;
  /** The registry's error code for what it would refuse, when it has one. */
  code?: RegistryCode;
}

export interface Summary {
  file: string;
  features: number;
  points: number;
  polygons: number;
  /** Total area of the polygons, geodesic. */
  hectares: number;
  /** Polygons left out of `hectares`: errors (a ring that crosses itself, a position out of range) leave them no area to measure. */
  unmeasured: number;
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
  /** --commodity: cattle plots are exempt from the 4 ha limit of points. */
  commodity?: string;
  /** The errors of geometry and area rules only: no country or land, no polygon's area (the registry export of what the service holds: fast). */
  geometryOnly?: boolean;
  /**
   * A sync's file: a feature without a geometry (`"geometry": null`, as `origins list -o geojson`
   * writes an origin without a location) gives no location, as an empty location cell: no finding.
   */
  noGeometryIsNoLocation?: boolean;
}

/** The finding of a feature without a geometry: the registry needs a plot for every feature. */
export const NO_GEOMETRY = 'no geometry';

export function checkPlots(file: GeoJsonFile, options: CheckOptions = {}): CheckResult {
  const findings: Finding[] = [];
  const summary: Summary = { file: file.name, features: file.features.length, points: 0, polygons: 0, hectares: 0, unmeasured: 0, errors: 0, warnings: 0 };
  const add = (f: Finding) => {
    findings.push(f);
    if (f.level === 'error') summary.errors++;
    else summary.warnings++;
  };
  if (file.problem) {
    add({ file: file.name, feature: null, level: 'error', message: file.problem });
    return { findings, summary, features: [] };
  }
  if (file.skipped) add({ file: file.name, feature: null, level: 'warning', message: file.skipped });
  for (const message of file.structure ?? []) add({ file: file.name, feature: null, level: 'error', message, code: REGISTRY_CODES.geometry });
  // The registry's limit is on the GeoJSON it receives: a KMZ of 3 MB can be 30 MB of it.
  const size = file.converted ? geoJsonBytes(file) : file.size;
  if (size > LIMITS.fileBytes) {
    const what = file.converted ? 'as GeoJSON (what the registry receives), the file is' : 'the file is';
    add({ file: file.name, feature: null, level: 'warning', message: `${what} ${(size / 1e6).toFixed(1)} MB, over the registry's ${LIMITS.fileBytes / 1e6} MB limit for one statement: split it`, code: REGISTRY_CODES.size });
  }
  if (file.features.length === 0) add({ file: file.name, feature: null, level: 'warning', message: 'no features' });

  const seen = new SeenGeometries();
  const features = file.features.map((raw) => {
    const checked: CheckedFeature = { raw, error: false };
    const id = externalIdOf(raw);
    const name = nameOf(raw, options.nameProperty);
    const report: Report = (level, message, position, code) => {
      if (level === 'error') checked.error = true;
      add({ file: file.name, feature: raw.index, ...(id !== undefined && { id }), ...(name !== undefined && { name }), level, message, ...(position && { position }), ...(code && { code }) });
    };
    checkFeature(raw, checked, report, options, seen, summary, file.converted === true);
    return checked;
  });
  return { findings, summary, features };
}

/** The bytes of a file's features written as one GeoJSON FeatureCollection. */
function geoJsonBytes(file: GeoJsonFile): number {
  let bytes = '{"type":"FeatureCollection","features":[]}'.length;
  for (const f of file.features) bytes += Buffer.byteLength(JSON.stringify({ type: 'Feature', properties: f.properties, geometry: f.geometry })) + 1;
  return bytes;
}

/**
 * The errors a plot file's checks find in one geometry, checked against `country`: a plot given
 * in a CSV cell (origins import and sync), which is held to the rules of a plot file's; or an
 * origin the registry export writes (`properties`: its Area).
 */
export function plotErrors(geometry: unknown, country: string | undefined, properties: Record<string, unknown> = {}, geometryOnly = false): string[] {
  const file = fromGeoJsonValue({ type: 'Feature', geometry, properties }, 'cell', 0);
  return checkPlots(file, { countryCode: country, forceCountry: country !== undefined, geometryOnly })
    .findings.filter((f) => f.level === 'error')
    .map((f) => (f.position && !f.message.includes(formatPosition(f.position)) ? `${f.message} at ${formatPosition(f.position)}` : f.message));
}

type Report = (level: Level, message: string, position?: Position, code?: RegistryCode) => void;

function checkFeature(raw: RawFeature, checked: CheckedFeature, report: Report, options: CheckOptions, seen: SeenGeometries, summary: Summary, converted: boolean): void {
  const invalid = REGISTRY_CODES.geometry;
  if (raw.problem) return report('error', raw.problem, undefined, invalid);
  for (const message of raw.structure ?? []) report('error', message, undefined, invalid);
  // The registry reads only GeoJSON: a KML's, a Shapefile's or a GPX's names never reach it, and
  // the GeoJSON sct writes for it (-o geojson --eudr) carries the registry's names, not the file's.
  // Nor could a DBF hold ProductionPlace (15 characters): advising it for a Shapefile misleads.
  if (!converted) {
    for (const { found, registry } of misspelledProperties(raw)) {
      report('warning', `property "${found}": the registry reads "${registry}" (names are case-sensitive), so it would not see this one`);
    }
  }
  for (const { found, field, names } of unreadSpellings(raw)) {
    report('warning', `property "${found}": sct reads ${field} from ${names.map((n) => `"${n}"`).join(' or ')} (names are case-sensitive), so it did not read this one`);
  }
  const g = raw.geometry as { type?: unknown; coordinates?: unknown } | null | undefined;
  if (g === null || g === undefined) return options.noGeometryIsNoLocation ? undefined : report('error', NO_GEOMETRY, undefined, invalid);
  if (typeof g !== 'object' || Array.isArray(g)) return report('error', 'the geometry is not a GeoJSON object', undefined, invalid);
  if (g.type === undefined) return report('error', 'the geometry has no "type": a plot is a Point, Polygon or MultiPolygon', undefined, invalid);
  if (!(PLOT_TYPES as readonly unknown[]).includes(g.type)) {
    return report('error', `geometry type ${JSON.stringify(g.type ?? null)} is not accepted: a plot is a Point, Polygon or MultiPolygon`, undefined, invalid);
  }
  for (const message of memberProblems(g, 'geometry')) report('error', message, undefined, invalid);
  const type = g.type as PlotGeometry['type'];
  if (type === 'Point') summary.points++;
  else summary.polygons++;
  // Counted among the polygons but given no area: the summary says so, not a total that looks whole.
  const unmeasured = () => {
    if (type !== 'Point' && !options.geometryOnly) summary.unmeasured++;
  };
  const shape = shapeProblem(type, g.coordinates);
  if (shape) {
    unmeasured();
    return report('error', shape, undefined, invalid);
  }
  const geometry = g as PlotGeometry;
  const scan = scanPositions(geometry);
  if (scan.outOfRange) {
    const [lng, lat] = scan.outOfRange;
    const badLng = lng < -180 || lng > 180;
    const what = badLng ? `longitude ${lng} is outside −180..180` : `latitude ${lat} is outside −90..90`;
    const code = badLng ? REGISTRY_CODES.longitude : REGISTRY_CODES.latitude;
    report('error', `position ${formatPosition(scan.outOfRange)}: ${what}${lng >= -90 && lng <= 90 && lat >= -180 && lat <= 180 ? ' (latitude and longitude swapped? GeoJSON puts longitude first)' : ''}`, scan.outOfRange, code);
    unmeasured();
    return;
  }
  checked.geometry = geometry;

  const ringsOk = type === 'Point' || checkRings(geometry as Polygon | MultiPolygon, report);
  const country = options.forceCountry && options.countryCode ? options.countryCode : countryOf(raw, options.countryCode);
  if (options.geometryOnly) checked.country = country;
  else if (country !== undefined) {
    // A warning as a missing country is: import and sync refuse the feature (import-plots.ts).
    const split = options.forceCountry ? undefined : countryDisagreement(raw);
    if (split) report('warning', `${split}; checked against ${country}`);
    checkCountry(country, scan, checked, report);
  }
  else {
    report('warning', 'the feature names no country (a ProducerCountry property, or --country-code): the registry needs one; checked against land only');
    checkLand(scan, report);
  }
  // The other fields import and sync refuse so, warned of as the country is: a check run as a
  // gate before an import sees every one.
  if (!options.geometryOnly) {
    // A name --name-property picks is read from that property alone: nothing to disagree with.
    for (const names of [options.nameProperty ? [] : NAME_PROPERTIES, EXTERNAL_ID_PROPERTIES, DESCRIPTION_PROPERTIES]) {
      const split = disagreement(raw.properties, names);
      if (split) report('warning', split);
    }
  }

  if (type === 'Point') checkPointArea(raw, geometry.coordinates as Position, options, report);
  // Rings without positions are their own error: a precision of none says nothing.
  if (!scan.precise && scan.positions.length > 0) {
    // A loop, not Math.max(...positions): a ring of 65,000 positions is more arguments than a call takes.
    const decimals = Math.min(LIMITS.decimals - 1, scan.positions.reduce((most, [lng, lat]) => Math.max(most, decimalsOf(lng), decimalsOf(lat)), 0));
    report('warning', `positions have at most ${decimals} decimal place${decimals === 1 ? '' : 's'}: the registry expects ${LIMITS.decimals} (about 10 cm)`);
  }
  const first = seen.firstOf(raw.index, geometry);
  if (first !== undefined) report('warning', `the same geometry as feature ${first}`);

  // The area says only warnings and the summary: not asked where the errors alone are wanted.
  if (!ringsOk) unmeasured();
  else if (type !== 'Point' && !options.geometryOnly) {
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
  // A measure after the height (a GIS's XYZM export): said as such, not as a shape gone wrong.
  const long = longPosition(c, POSITION_DEPTH[type]);
  if (long) return `a position has 4 values (${JSON.stringify(long)}): GeoJSON positions have 2 or 3 (longitude, latitude, height); a 4th (a measure, as an XYZM export writes) is not taken: export the layer without M values`;
  switch (type) {
    case 'Point':
      return isPosition(c) ? undefined : `a Point's coordinates must be one position ${position}`;
    case 'Polygon':
      return isRings(c) ? undefined : `a Polygon's coordinates must be a list of rings, each a list of positions ${position}`;
    case 'MultiPolygon':
      return Array.isArray(c) && c.length > 0 && c.every(isRings) ? undefined : `a MultiPolygon's coordinates must be a list of polygons, each a list of rings of positions ${position}`;
  }
}

/** How deep in a geometry type's coordinates its positions are. */
const POSITION_DEPTH: Readonly<Record<PlotGeometry['type'], number>> = { Point: 0, Polygon: 2, MultiPolygon: 3 };

/**
 * The first position of 4 numbers (XYZM) where the type's positions are, `depth` lists deep. A
 * longer list of numbers, or 4 numbers elsewhere (a box given as a Polygon's coordinates), is
 * some other shape, said as such by the caller.
 */
function longPosition(c: unknown, depth: number): unknown[] | undefined {
  if (!Array.isArray(c)) return undefined;
  if (depth === 0) return c.length === 4 && c.every((n) => typeof n === 'number') ? c : undefined;
  for (const inner of c) {
    const found = longPosition(inner, depth - 1);
    if (found) return found;
  }
  return undefined;
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

/** The Point rules of the registry on the stated `Area` (EUDR art. 2(28): more than 4 ha needs a polygon). */
function checkPointArea(raw: RawFeature, at: Position, options: CheckOptions, report: Report): void {
  const code = REGISTRY_CODES.area;
  const registryArea = raw.properties[REGISTRY_AREA];
  if (typeof registryArea === 'string') {
    report('error', `"${REGISTRY_AREA}" is the text ${JSON.stringify(registryArea)}: the registry reads text as 0; write it as a number of hectares`, at, code);
    return;
  }
  // true, null, an object: no number of hectares, and not the absence the registry fills with 4 ha.
  if (Object.hasOwn(raw.properties, REGISTRY_AREA) && typeof registryArea !== 'number') {
    report('error', `"${REGISTRY_AREA}" is ${JSON.stringify(registryArea)}, not a number of hectares: write it as one, or leave it out (the registry then assumes ${LIMITS.pointMaxHa} ha)`, at, code);
    return;
  }
  // 1e400 in the file: JSON reads it as Infinity, which no plot is.
  if (typeof registryArea === 'number' && !Number.isFinite(registryArea)) {
    report('error', `"${REGISTRY_AREA}" is a number too large to be a plot's hectares: write the plot's area in hectares`, at, code);
    return;
  }
  const stated = statedHectares(raw);
  if (stated === undefined) {
    report('warning', `a point without an "${REGISTRY_AREA}" property: the registry assumes ${LIMITS.pointMaxHa} ha`, at);
    return;
  }
  if (stated < LIMITS.pointMinHa) {
    report('error', `a point for a plot of ${formatHectares(stated)}: the registry accepts an ${REGISTRY_AREA} from ${LIMITS.pointMinHa} ha`, at, code);
  } else if (stated > LIMITS.pointMaxHa && options.commodity?.toLowerCase() !== 'cattle') {
    // 4.0000001 ha rounds to "4 ha" in the message, which would not say why it is refused.
    const shown = formatHectares(stated) === formatHectares(LIMITS.pointMaxHa) ? `${stated} ha` : formatHectares(stated);
    report('error', `a point for a plot of ${shown}: plots of more than ${LIMITS.pointMaxHa} ha need a polygon (cattle excepted: --commodity cattle)`, at, code);
  }
}

/** The truncation the registry applies: 6 decimals, cut, not rounded (a written 1.234567 stays itself). */
/** More decimals than the registry keeps (as truncated() tells a value already at 6 from one past them). */
function beyondDecimals(n: number): boolean {
  const scaled = n * 1e6;
  return Math.abs(scaled - Math.round(scaled)) >= 1e-6;
}

const positionBeyondDecimals = (p: Position) => beyondDecimals(p[0]) || beyondDecimals(p[1]);

/** A ring as the registry keeps it: each position truncated to 6 decimals. */
const cutRing = (ring: Position[]): Position[] => ring.map((p) => [truncated(p[0]) / 1e6, truncated(p[1]) / 1e6]);

function truncated(n: number): number {
  const scaled = n * 1e6;
  const near = Math.round(scaled);
  return Math.abs(scaled - near) < 1e-6 ? near : Math.trunc(scaled);
}

/**
 * Reports what the registry refuses in rings (unclosed, short, on one line, crossing or touching
 * themselves, positions merged by its truncation, parts overlapping, holes touching their outer
 * ring) and warns of repeated positions and of holes; true when every ring is sound.
 */
function checkRings(g: Polygon | MultiPolygon, report: Report): boolean {
  const invalid = REGISTRY_CODES.geometry;
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  const fail = (message: string, at?: Position) => {
    report('error', message, at, invalid);
    return false;
  };
  let ok = true;
  let holes = 0;
  /** Each polygon's rings without repeated positions, when every ring of it is sound. */
  const kept: Array<Position[][] | undefined> = [];
  const several = g.type === 'MultiPolygon';
  polygons.forEach((rings, pi) => {
    const sound = rings.map((ring, ri) => {
      const where = ringName(pi, ri, several);
      const open = ringLengthOrClosure(where, ring);
      if (open) return fail(open.message, open.at);
      const first = ring[0];
      let merged: Position | undefined;
      let repeated: Position | undefined;
      for (let i = 1; i < ring.length; i++) {
        const p = ring[i - 1];
        const q = ring[i];
        if (p[0] === q[0] && p[1] === q[1]) repeated ??= q;
        else if (!merged && truncated(p[0]) === truncated(q[0]) && truncated(p[1]) === truncated(q[1])) merged = q;
      }
      if (repeated) report('warning', `${where} repeats the position ${formatPosition(repeated)} twice in a row (not a crossing; the registry takes it once)`, repeated);
      if (merged) {
        return fail(`${where} has consecutive positions that become one when the registry truncates them to ${LIMITS.decimals} decimals, at ${formatPosition(merged)}`, merged);
      }
      const clean = withoutRepeats(ring);
      if (clean.length < 4) return fail(`${where} has ${clean.length - 1} distinct position${clean.length === 2 ? '' : 's'}: a ring needs at least 3 that are not on one line`, first);
      if (collinear(clean)) return fail(`${where} has all its positions on one line: it encloses no area`, first);
      const m = selfMeeting(clean);
      if (m) {
        const at = m.at.map((n) => round(n, 7));
        return fail(`${where} ${m.kind === 'cross' ? 'crosses' : 'touches'} itself at ${formatPosition(at)}`, at);
      }
      // The registry judges the ring it keeps: cut to 6 decimals, a ring sound as written can
      // cross or touch itself (asked only of a ring with more decimals than that).
      if (clean.some(positionBeyondDecimals)) {
        const cut = selfMeeting(withoutRepeats(cutRing(clean)));
        if (cut) {
          const at = cut.at.map((n) => round(n, 7));
          return fail(`${where} ${cut.kind === 'cross' ? 'crosses' : 'touches'} itself once the registry truncates it to ${LIMITS.decimals} decimals, at ${formatPosition(at)}`, at);
        }
      }
      return true;
    });
    if (!sound.every(Boolean)) {
      ok = false;
      kept.push(undefined);
      return;
    }
    holes += rings.length - 1;
    kept.push(rings.map(withoutRepeats));
  });
  ok = ringsMeet(kept, several, fail, '') && ok;
  // The registry judges the rings it keeps, cut to 6 decimals: holes and parts apart as written
  // may then touch or overlap (asked only of a geometry with more decimals than that).
  if (ok && polygons.some((rings) => rings.some((ring) => ring.some(positionBeyondDecimals)))) {
    const cut = kept.map((rings) => rings?.map((ring) => withoutRepeats(cutRing(ring))));
    ok = ringsMeet(cut, several, fail, ` once the registry truncates them to ${LIMITS.decimals} decimals`);
  }
  if (holes > 0) report('warning', `${holes === 1 ? 'a hole' : `${holes} holes`}: the registry keeps only the outer ring of each polygon`);
  return ok;
}

/**
 * How the sound polygons' rings meet one another (each polygon's rings, undefined for one with an
 * unsound ring): a hole may touch its outer ring at one point and lie inside it, holes and the
 * parts of a MultiPolygon may meet at single points only. `after` ends each message.
 */
function ringsMeet(kept: Array<Position[][] | undefined>, several: boolean, fail: (message: string, at?: Position) => boolean, after: string): boolean {
  let ok = true;
  kept.forEach((rings, pi) => {
    if (!rings) return;
    const [outer, ...inners] = rings;
    inners.forEach((inner, hi) => {
      const { crossing, touches } = ringMeetings(outer!, inner);
      const name = `${ringName(pi, hi + 1, several)} (a hole)`;
      if (crossing) ok = fail(`${name} ${crossing.kind === 'overlap' ? 'shares an edge with' : 'crosses'} its outer ring at ${formatPosition(crossing.at)}${after}`, crossing.at);
      else if (touches.length > 1) ok = fail(`${name} touches its outer ring at ${touches.length} points: only one is allowed${after}`, touches[1]);
      // Neither crossing nor inside: a hole beside its polygon, whose area would be taken off a
      // plot it is no part of (RFC 7946 §3.1.6: holes bound holes within the surface).
      else if (!within(inner, outer!)) {
        ok = fail(`${name} lies outside its outer ring: a hole must be inside the polygon it cuts${after}`, inner[0]);
      }
    });
    // Holes of one polygon, as the parts of a MultiPolygon: they may meet at single points only.
    const met = ok && inners.length > 1 ? firstOverlap(inners) : undefined;
    if (met) ok = fail(`${ringName(pi, met.i + 1, several)} and ${ringName(pi, met.j + 1, several)} (holes) ${met.how}: holes may meet only at single points${after}`, met.at);
  });
  if (several) {
    const met = firstOverlap(kept.map((rings) => rings?.[0]));
    if (met) ok = fail(`polygons ${met.i + 1} and ${met.j + 1} ${met.how}: parts of a MultiPolygon may meet only at single points${after}`, met.at);
  }
  return ok;
}

/**
 * Whether ring r lies inside the other, met at no crossing: a corner of it is inside, or (its
 * corners all on the other's edges: a diamond in a square) the middle of one of its sides is.
 */
function within(r: Position[], other: Position[]): boolean {
  return probes(r).some((p) => booleanPointInPolygon(p, { type: 'Polygon', coordinates: [other] }, { ignoreBoundary: true }));
}

/** A ring's corners and the middle of each of its sides. */
function probes(ring: Position[]): Position[] {
  const out = [...ring];
  for (let i = 1; i < ring.length; i++) out.push([(ring[i - 1][0] + ring[i][0]) / 2, (ring[i - 1][1] + ring[i][1]) / 2]);
  return out;
}

/**
 * The first two rings (by index) that overlap or share an edge, where they may meet at single
 * points only. Only rings whose boxes meet are compared, found by a sweep along the longer side
 * of them all (a row of parts or a column): a MultiPolygon of 80,000 small parts took 36 s
 * compared pair by pair.
 */
function firstOverlap(rings: Array<Position[] | undefined>): { i: number; j: number; how: 'share an edge' | 'overlap'; at?: Position } | undefined {
  const boxes = rings.map((r) => r && bboxOf([r]));
  const all = bboxOf(rings.filter((r): r is Position[] => r !== undefined));
  // [west, south, east, north]: swept along x (0 to 2), compared across y (1 to 3), or the other way.
  const [lo, hi, across, acrossHi] = all[3] - all[1] > all[2] - all[0] ? [1, 3, 0, 2] : [0, 2, 1, 3];
  const order = boxes.flatMap((b, k) => (b ? [k] : [])).sort((a, b) => boxes[a]![lo] - boxes[b]![lo]);
  const pairs: Array<[number, number]> = [];
  const active: number[] = [];
  for (const k of order) {
    const b = boxes[k]!;
    let open = 0;
    for (const a of active) if (boxes[a]![hi] >= b[lo]) active[open++] = a;
    active.length = open;
    for (const a of active) if (boxes[a]![acrossHi] >= b[across] && b[acrossHi] >= boxes[a]![across]) pairs.push(a < k ? [a, k] : [k, a]);
    active.push(k);
  }
  pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  for (const [i, j] of pairs) {
    const a = rings[i]!;
    const b = rings[j]!;
    const { crossing } = ringMeetings(a, b);
    if (crossing || within(a, b) || within(b, a)) return { i, j, how: crossing?.kind === 'overlap' ? 'share an edge' : 'overlap', at: crossing?.at };
  }
  return undefined;
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

/** With no country to check against: a position on no land at all is in the sea. */
function checkLand(scan: Scan, report: Report): void {
  const [minX, minY, maxX, maxY] = scan.bbox;
  if (haversineKm([minX, minY], [maxX, maxY]) < OUTSIDE_TOLERANCE_KM && onLand(scan.positions[0])) return;
  const sea = scan.positions.find((p) => !onLand(p));
  if (!sea) return;
  const swapped: Position = [sea[1], sea[0]];
  const hint = onLand(swapped) ? `: latitude and longitude look swapped, ${formatPosition(swapped)} is on land (GeoJSON puts longitude first)` : '';
  report('error', `position ${formatPosition(sea)} is in the sea, on no land${hint}`, sea);
}

/**
 * How far outside its country a swapped position lies, as outsideMessage says it ("1,360 km
 * outside Côte d'Ivoire (CI)"): for the commands that say the swap in their own terms (latitude
 * first). Undefined for any other finding.
 */
export function swappedOutside(message: string): string | undefined {
  return /^latitude and longitude look swapped: .* lies ([\d,]+ km outside [^,]+)/.exec(message)?.[1];
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

/** How messages name a ring: `ring 1 (outer)`, `polygon 2, ring 3` where there are several polygons. */
export function ringName(polygon: number, ring: number, several: boolean): string {
  return `${several ? `polygon ${polygon + 1}, ` : ''}ring ${ring + 1}${ring === 0 ? ' (outer)' : ''}`;
}

/**
 * The first thing the registry refuses in a ring's positions as written: fewer than 4, or not
 * closed in longitude and latitude. The KML reader asks it too, of the rings togeojson mends.
 */
export function ringLengthOrClosure(where: string, ring: Position[]): { message: string; at: Position } | undefined {
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (ring.length < 4) return { message: `${where} has ${ring.length} position${ring.length === 1 ? '' : 's'}: a ring needs at least 4, the last repeating the first`, at: first };
  if (first[0] !== last[0] || first[1] !== last[1]) return { message: `${where} is not closed: it ends at ${formatPosition(last)}, not at its first position ${formatPosition(first)}`, at: last };
  if (first.length !== last.length || first[2] !== last[2]) {
    return { message: `${where} is closed in longitude and latitude only: its first position ${JSON.stringify(first)} and last ${JSON.stringify(last)} must be identical (RFC 7946), altitude included`, at: last };
  }
  return undefined;
}

export function formatPosition(p: Position): string {
  return `[${p.slice(0, 2).join(', ')}]`;
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
