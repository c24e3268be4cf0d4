// `-o geojson` (origins list and get): an origin as a Feature, its location the geometry and
// every other field a property, so a list opens in QGIS or geojson.io as it is and goes back
// through `sct origins check` and `sct origins import`. A list is one FeatureCollection written
// page by page, like the JSON array of -o json (format.ts streams both).
import type { IOStreams } from './iostreams.js';
import type { JsonFrame } from './json-frame.js';
import { stripControlDeep } from '../util/sanitize.js';

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

export const FEATURE_COLLECTION: JsonFrame = {
  open: '{"type":"FeatureCollection","features":[\n',
  separator: ',\n',
  close: '\n]}\n',
  empty: '{"type":"FeatureCollection","features":[]}\n',
};

/**
 * The Feature of one resource. No Feature-level id: the service's id stays a property, so an
 * import of the file takes external_id from the property of that name, never the service's id.
 */
export function toFeature(row: unknown, pick: (properties: unknown) => unknown = (p) => p): { type: 'Feature'; geometry: unknown; properties: Record<string, unknown> } {
  const { location, ...properties } = (row && typeof row === 'object' ? row : {}) as Record<string, unknown>;
  const isGeometry = !!location && typeof location === 'object' && GEOMETRY_TYPES.has((location as { type?: unknown }).type as string);
  return { type: 'Feature', geometry: isGeometry ? location : null, properties: pick(properties) as Record<string, unknown> };
}

/** `pick`: the fields --columns keeps among the properties (the geometry is always the location). */
export async function writeFeature(io: IOStreams, row: unknown, pick?: (properties: unknown) => unknown): Promise<void> {
  const feature = toFeature(row, pick);
  await io.write(JSON.stringify(io.stdoutIsTTY ? stripControlDeep(feature) : feature) + '\n');
}
