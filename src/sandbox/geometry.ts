// Origin locations as the service stores them: a GeoJSON Point, Polygon or MultiPolygon (the
// geometries an EUDR statement carries), checked the way a geometry column checks them on the
// way in. Anything else is a 400 with the field's message, as GeoDjango would answer.
import * as z from 'zod';

const TYPES = ['Point', 'Polygon', 'MultiPolygon'];

const isPosition = (p: unknown): p is number[] =>
  Array.isArray(p) && (p.length === 2 || p.length === 3) && p.every((n) => typeof n === 'number' && Number.isFinite(n));

function positionProblem(p: unknown): string | undefined {
  if (!isPosition(p)) return 'Invalid coordinates: a position is [longitude, latitude].';
  const [lng, lat] = p;
  if (lng < -180 || lng > 180 || lat < -90 || lat > 90) {
    return `Position [${lng}, ${lat}] is out of range: longitude must be within -180..180 and latitude within -90..90.`;
  }
  return undefined;
}

function polygonProblem(rings: unknown): string | undefined {
  if (!Array.isArray(rings) || rings.length === 0) return 'Invalid coordinates: a polygon is a list of linear rings.';
  for (const [i, ring] of rings.entries()) {
    if (!Array.isArray(ring)) return 'Invalid coordinates: a polygon is a list of linear rings.';
    for (const p of ring) {
      const problem = positionProblem(p);
      if (problem) return problem;
    }
    if (ring.length < 4) return `Ring ${i + 1}: a linear ring requires at least 4 positions, got ${ring.length}.`;
    const first = ring[0] as number[];
    const last = ring[ring.length - 1] as number[];
    if (first[0] !== last[0] || first[1] !== last[1]) return `Ring ${i + 1}: the positions of a linear ring do not form a closed ring (the first and last differ).`;
  }
  return undefined;
}

/** Why a location cannot be stored, or undefined when it can (null clears it). */
function locationProblem(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return 'Invalid geometry: expected a GeoJSON object.';
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (typeof type !== 'string' || !TYPES.includes(type)) return `Unknown geometry type ${JSON.stringify(type ?? null)}: expected one of ${TYPES.join(', ')}.`;
  if (type === 'Point') return positionProblem(coordinates);
  if (type === 'Polygon') return polygonProblem(coordinates);
  if (!Array.isArray(coordinates) || coordinates.length === 0) return 'Invalid coordinates: a multipolygon is a list of polygons.';
  for (const polygon of coordinates) {
    const problem = polygonProblem(polygon);
    if (problem) return problem;
  }
  return undefined;
}

export const location = () =>
  z.unknown().superRefine((v, ctx) => {
    const problem = locationProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
