// Plot areas on the WGS 84 ellipsoid, in the unit the EUDR speaks: hectares. Karney's geodesic
// polygon area (geographiclib, as GDAL's ST_Area(geometry, 1) and PostGIS's geography), not a
// sphere's: near the equator a sphere of the mean radius reads about 0.4% more.
import * as geographiclib from 'geographiclib-geodesic';
import type { MultiPolygon, Polygon, Position } from 'geojson';

// A CommonJS file without named exports Node can see: its exports come as the default of an
// ES import (tests, Node), as themselves from the bundle.
const { Geodesic } = (geographiclib as unknown as { default?: typeof geographiclib }).default ?? geographiclib;

const M2_PER_HA = 10_000;

/** The area a ring encloses in m², whichever way it runs; its closing position is not needed twice. */
function ringArea(ring: Position[]): number {
  const polygon = Geodesic.WGS84.Polygon(false);
  const last = ring.length - 1;
  const closed = last > 0 && ring[0]![0] === ring[last]![0] && ring[0]![1] === ring[last]![1];
  for (let i = 0; i < (closed ? last : ring.length); i++) polygon.AddPoint(ring[i]![1]!, ring[i]![0]!);
  // Signed (counter-clockwise positive), so a clockwise ring is its own area, not the rest of the
  // earth's; the size is what counts.
  return Math.abs(polygon.Compute(false, true).area ?? 0);
}

/** A polygon's outer ring less its holes, each part of a MultiPolygon added. */
export function hectares(geometry: Polygon | MultiPolygon): number {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  let m2 = 0;
  for (const rings of polygons) {
    if (rings.length === 0) continue;
    m2 += ringArea(rings[0]!);
    for (const hole of rings.slice(1)) m2 -= ringArea(hole);
  }
  return Math.max(0, m2) / M2_PER_HA;
}

/** "41.27 ha", "12 ha", "0.00099 ha": small plots keep two significant digits. */
export function formatHectares(ha: number): string {
  // A stated area may be anything a file holds, negative too.
  const size = Math.abs(ha);
  const digits = size === 0 || size >= 1 ? 2 : Math.min(8, 1 - Math.floor(Math.log10(size)));
  return `${hectareFormat(digits).format(ha)} ha`;
}

/** One formatter per number of decimals: toLocaleString with options builds one at each call (40,000 plots: seconds). */
const hectareFormats = new Map<number, Intl.NumberFormat>();
function hectareFormat(digits: number): Intl.NumberFormat {
  let f = hectareFormats.get(digits);
  if (!f) hectareFormats.set(digits, (f = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits })));
  return f;
}
