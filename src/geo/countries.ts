// Country outlines from Natural Earth (world-atlas, 1:50m), for telling whether a plot lies in
// the country its file says. The 50m scale is a compromise, measured against the 10m outlines:
// its borders stray from them by a few km (Côte d'Ivoire 5.6, Ghana 4.8, Cameroon 11.4, Nigeria
// 12.9 at worst on the mainland) and it loads in tens of ms, where 110m strays up to 90 km and
// 10m takes most of a second. Hence the tolerance: a position counts as outside only when it is
// more than OUTSIDE_TOLERANCE_KM from the outline, which keeps plots on a border clean and still
// catches swapped coordinates, which land hundreds or thousands of km away.
import { feature } from 'topojson-client';
import type { MultiPolygon as TopoMultiPolygon, Polygon as TopoPolygon } from 'topojson-specification';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import topology from './world-50m.js';
import { ISO_NUMERIC } from './country-codes.js';
import { bboxOf } from './rings.js';

export const OUTSIDE_TOLERANCE_KM = 25;
const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Territories with their own ISO code that Natural Earth draws as part of another country. */
const DRAWN_WITH: Readonly<Record<string, string>> = { GF: '250', GP: '250', MQ: '250', RE: '250', YT: '250', SJ: '578', BQ: '528' };

type BBox = [minX: number, minY: number, maxX: number, maxY: number];

interface Part {
  polygon: Polygon;
  bbox: BBox;
}

/**
 * Cells of 0.1° (about 11 km). A cell that no edge of the outline crosses is wholly inside or
 * wholly outside it, so the first plot tested there decides for every later one: a file of
 * 100,000 plots costs a few thousand point-in-polygon tests, not 100,000.
 */
const CELL_DEG = 0.1;
const enum Cell {
  Unknown = 0,
  Inside = 1,
  Outside = 2,
  Edge = 3,
}

class CellIndex {
  private readonly cols: number;
  private readonly cells: Uint8Array;

  constructor(
    private readonly bbox: BBox,
    parts: Part[],
  ) {
    this.cols = Math.floor((bbox[2] - bbox[0]) / CELL_DEG) + 1;
    const rows = Math.floor((bbox[3] - bbox[1]) / CELL_DEG) + 1;
    this.cells = new Uint8Array(this.cols * rows);
    for (const part of parts) {
      for (const ring of part.polygon.coordinates) {
        for (let i = 0; i + 1 < ring.length; i++) {
          const [c0, r0] = this.cellOf(Math.min(ring[i][0], ring[i + 1][0]), Math.min(ring[i][1], ring[i + 1][1]));
          const [c1, r1] = this.cellOf(Math.max(ring[i][0], ring[i + 1][0]), Math.max(ring[i][1], ring[i + 1][1]));
          for (let r = r0; r <= r1; r++) this.cells.fill(Cell.Edge, r * this.cols + c0, r * this.cols + c1 + 1);
        }
      }
    }
  }

  private cellOf(x: number, y: number): [number, number] {
    return [Math.floor((x - this.bbox[0]) / CELL_DEG), Math.floor((y - this.bbox[1]) / CELL_DEG)];
  }

  /** Whether p is inside, deciding a cell once with `exact` (p must be within the bbox). */
  contains(p: Position, exact: (p: Position) => boolean): boolean {
    const [c, r] = this.cellOf(p[0], p[1]);
    const i = r * this.cols + c;
    const cell = this.cells[i];
    if (cell === Cell.Inside) return true;
    if (cell === Cell.Outside) return false;
    const inside = exact(p);
    if (cell === Cell.Unknown) this.cells[i] = inside ? Cell.Inside : Cell.Outside;
    return inside;
  }
}

export class CountryOutline {
  readonly bbox: BBox;
  private index?: CellIndex;

  constructor(
    /** The ISO alpha-2 code it was asked by. */
    readonly code: string,
    /** As Natural Earth names it. */
    readonly name: string,
    readonly parts: Part[],
  ) {
    this.bbox = parts.reduce<BBox>((b, p) => [Math.min(b[0], p.bbox[0]), Math.min(b[1], p.bbox[1]), Math.max(b[2], p.bbox[2]), Math.max(b[3], p.bbox[3])], [Infinity, Infinity, -Infinity, -Infinity]);
  }

  contains(p: Position): boolean {
    if (!inBBox(p, this.bbox)) return false;
    this.index ??= new CellIndex(this.bbox, this.parts);
    return this.index.contains(p, (q) => this.parts.some((part) => inBBox(q, part.bbox) && booleanPointInPolygon(q, part.polygon)));
  }

  /** How far `p` lies outside the outline, in km (0 inside). */
  distanceKm(p: Position): number {
    if (this.contains(p)) return 0;
    let best = Infinity;
    let nearest: Position = p;
    // Equirectangular around p: exact enough to find the nearest edge; the distance itself is
    // then measured on the sphere.
    const k = Math.cos(p[1] * RAD);
    for (const part of this.parts) {
      if (bboxGapDeg(p, part.bbox, k) ** 2 > best) continue;
      for (const ring of part.polygon.coordinates) {
        for (let i = 0; i + 1 < ring.length; i++) {
          const ax = (ring[i][0] - p[0]) * k;
          const ay = ring[i][1] - p[1];
          const dx = (ring[i + 1][0] - p[0]) * k - ax;
          const dy = ring[i + 1][1] - p[1] - ay;
          const len = dx * dx + dy * dy;
          const t = len === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len));
          const x = ax + t * dx;
          const y = ay + t * dy;
          const d = x * x + y * y;
          if (d < best) {
            best = d;
            nearest = [p[0] + x / k, p[1] + y];
          }
        }
      }
    }
    return haversineKm(p, nearest);
  }

  /** Inside, or within the tolerance of, the outline. */
  holds(p: Position): boolean {
    return this.distanceKm(p) <= OUTSIDE_TOLERANCE_KM;
  }
}

function inBBox(p: Position, b: BBox): boolean {
  return p[0] >= b[0] && p[0] <= b[2] && p[1] >= b[1] && p[1] <= b[3];
}

/** A lower bound, in the same scaled degrees as distanceKm's search, of p's distance to a box. */
function bboxGapDeg(p: Position, b: BBox, k: number): number {
  const dx = Math.max(b[0] - p[0], 0, p[0] - b[2]) * k;
  const dy = Math.max(b[1] - p[1], 0, p[1] - b[3]);
  return Math.hypot(dx, dy);
}

export function haversineKm(a: Position, b: Position): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLng = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

type CountryObject = (TopoPolygon | TopoMultiPolygon) & { id?: string; properties?: { name?: string } };

let byNumeric: Map<string, CountryObject[]> | undefined;
const outlines = new Map<string, CountryOutline | undefined>();

function objects(): Map<string, CountryObject[]> {
  if (!byNumeric) {
    byNumeric = new Map();
    for (const g of topology.objects.countries.geometries as CountryObject[]) {
      // A few disputed areas have no ISO code; Australia comes in two pieces.
      if (g.id === undefined) continue;
      const list = byNumeric.get(g.id) ?? [];
      list.push(g);
      byNumeric.set(g.id, list);
    }
  }
  return byNumeric;
}

function outlineOf(code: string, geometries: CountryObject[]): CountryOutline {
  const parts: Part[] = [];
  for (const g of geometries) {
    const geom = (feature(topology, g) as Feature<Polygon | MultiPolygon>).geometry;
    const polygons = geom.type === 'Polygon' ? [geom.coordinates] : geom.coordinates;
    for (const rings of polygons) parts.push({ polygon: { type: 'Polygon', coordinates: rings }, bbox: bboxOf(rings) });
  }
  return new CountryOutline(code, geometries[0].properties?.name ?? code, parts);
}

/** The outline of an ISO alpha-2 country, or undefined for a code Natural Earth has no shape for. */
export function countryOutline(code: string): CountryOutline | undefined {
  const upper = code.toUpperCase();
  if (outlines.has(upper)) return outlines.get(upper);
  const numeric = DRAWN_WITH[upper] ?? ISO_NUMERIC[upper];
  const geometries = numeric ? objects().get(numeric) : undefined;
  const outline = geometries ? outlineOf(upper, geometries) : undefined;
  outlines.set(upper, outline);
  return outline;
}

/** Every country Natural Earth has (the map draws the neighbours for context). */
export function allOutlines(): CountryOutline[] {
  const alpha2 = new Map(Object.entries(ISO_NUMERIC).map(([a2, num]) => [num, a2]));
  return [...objects().entries()].map(([numeric, geometries]) => {
    const a2 = alpha2.get(numeric);
    return (a2 && countryOutline(a2)) || outlineOf(numeric, geometries);
  });
}

let land: CountryOutline[] | undefined;

/**
 * Whether p is on some country's land or within the tolerance of its coast (the outlines are
 * drawn at 1:50m, coarser than a coastline). Features that name no country are checked with it,
 * so a plot swapped into the ocean is caught even then.
 */
export function onLand(p: Position): boolean {
  land ??= allOutlines();
  const margin = OUTSIDE_TOLERANCE_KM / 100 / Math.max(0.05, Math.cos(p[1] * RAD)); // degrees, wide enough at any latitude
  const near = land.filter((c) => p[0] >= c.bbox[0] - margin && p[0] <= c.bbox[2] + margin && p[1] >= c.bbox[1] - 0.25 && p[1] <= c.bbox[3] + 0.25);
  return near.some((c) => c.contains(p)) || near.some((c) => c.holds(p));
}
