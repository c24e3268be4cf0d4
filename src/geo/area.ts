// Plot areas on the sphere (turf's geodesic area), in the unit the EUDR speaks: hectares.
import turfArea from '@turf/area';
import type { MultiPolygon, Polygon } from 'geojson';

const M2_PER_HA = 10_000;

export function hectares(geometry: Polygon | MultiPolygon): number {
  return turfArea(geometry) / M2_PER_HA;
}

/** "41.27 ha", "12 ha", "0.00099 ha": small plots keep two significant digits. */
export function formatHectares(ha: number): string {
  // A stated area may be anything a file holds, negative too.
  const size = Math.abs(ha);
  const digits = size === 0 || size >= 1 ? 2 : Math.min(8, 1 - Math.floor(Math.log10(size)));
  return `${ha.toLocaleString('en-US', { maximumFractionDigits: digits })} ha`;
}
