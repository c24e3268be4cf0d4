// `-o geojson`: origins as Features, a list as one FeatureCollection written page by page.
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../helpers/io.js';
import { createListWriter, parseFormat, writeOne } from '../../src/output/format.js';
import { toFeature } from '../../src/output/geojson.js';

const polygon = { type: 'Polygon', coordinates: [[[-2.48593, 6.204378], [-2.486992, 6.204926], [-2.488672, 6.204604], [-2.48593, 6.204378]]] };
const origins = [
  { id: 7, name: 'Mensah plantation', country_code: 'GH', external_id: 'GH-SEF-0043', location: polygon },
  { id: 8, name: 'Kouassi farm', country_code: 'CI', external_id: null, location: { type: 'Point', coordinates: [-6.593214, 5.784512] } },
  { id: 9, name: 'Not surveyed', country_code: 'BR', external_id: null, location: null },
];

describe('-o geojson', () => {
  it('makes the location the geometry and every other field a property', () => {
    expect(toFeature(origins[0])).toEqual({
      type: 'Feature',
      geometry: polygon,
      properties: { id: 7, name: 'Mensah plantation', country_code: 'GH', external_id: 'GH-SEF-0043' },
    });
    expect(toFeature(origins[2]).geometry).toBeNull();
    expect(toFeature({ id: 1, location: 'somewhere' }).geometry).toBeNull();
  });

  it('writes a list as one FeatureCollection across pages, and an empty one too', async () => {
    const t = createTestIO();
    const w = createListWriter(t.io, { format: 'geojson', defaults: [] });
    await w.write(origins.slice(0, 2));
    await w.write([]);
    await w.write(origins.slice(2));
    await w.end();
    const fc = JSON.parse(t.stdout());
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.map((f: { properties: { id: number } }) => f.properties.id)).toEqual([7, 8, 9]);
    expect(w.count).toBe(3);

    const empty = createTestIO();
    const e = createListWriter(empty.io, { format: 'geojson', defaults: [] });
    await e.end();
    expect(JSON.parse(empty.stdout())).toEqual({ type: 'FeatureCollection', features: [] });
  });

  it('writes one resource as one Feature, cleaned of escapes on a terminal', async () => {
    const t = createTestIO({ stdoutIsTTY: true });
    await writeOne(t.io, { ...origins[1], name: 'Kouassi\u001b[2J farm' }, { format: 'geojson', defaults: [] });
    expect(JSON.parse(t.stdout())).toMatchObject({ type: 'Feature', properties: { name: 'Kouassi farm' } });
  });

  it('is a flag value only, never a profile default', () => {
    expect(parseFormat('geojson', { geojson: true })).toBe('geojson');
    expect(() => parseFormat('geojson')).toThrow('invalid output format "geojson"');
  });
});
