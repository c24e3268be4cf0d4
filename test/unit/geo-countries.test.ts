// Country outlines (Natural Earth 50m), the border tolerance, geodesic areas and the SVG map.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { allOutlines, checkPlots, countryOutline, formatHectares, hectares, OUTSIDE_TOLERANCE_KM, parseGeoJson, renderPlotMap, type MapPlot } from '../../src/geo/index.js';
import { ISO_NUMERIC, isCountryCode } from '../../src/geo/country-codes.js';

describe('country outlines', () => {
  it('knows the producer countries by ISO alpha-2 code, in any case', () => {
    const ci = countryOutline('ci')!;
    expect(ci).toMatchObject({ code: 'CI', name: "Côte d'Ivoire" });
    expect(ci.contains([-5.55, 7.54])).toBe(true); // Bouaké
    expect(ci.contains([-1.62, 6.69])).toBe(false); // Kumasi, Ghana
    expect(countryOutline('GH')!.contains([-1.62, 6.69])).toBe(true);
    expect(countryOutline('BR')!.contains([-45.43, -21.55])).toBe(true);
    expect(countryOutline('ID')!.contains([99.5, 2.1])).toBe(true);
    expect(countryOutline('CM')!.contains([11.52, 3.87])).toBe(true); // Yaoundé
  });

  it('draws overseas departments with the country Natural Earth puts them in', () => {
    expect(countryOutline('GF')!.contains([-52.33, 4.92])).toBe(true); // Cayenne, in France's outline
    expect(countryOutline('BV')).toBeUndefined(); // Bouvet Island: no shape at 1:50m
  });

  it('measures how far outside a position lies, on the sphere', () => {
    const ci = countryOutline('CI')!;
    expect(ci.distanceKm([-5.55, 7.54])).toBe(0);
    // Abidjan's coast is at about 5.25° N: a point at 5.0° N on its meridian is ~25-30 km out at sea.
    expect(ci.distanceKm([-4.02, 5.0])).toBeGreaterThan(20);
    expect(ci.distanceKm([-4.02, 5.0])).toBeLessThan(35);
    expect(ci.holds([-4.02, 5.2])).toBe(true);
  });

  it('answers from its cells exactly as the polygon test does', () => {
    // Random points over Ghana's box and its borders: the cell index must never change an answer.
    const gh = countryOutline('GH')!;
    const exact = (p: number[]) => gh.parts.some((part) => pointInRings(p, part.polygon.coordinates));
    let seed = 7;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    for (let i = 0; i < 3000; i++) {
      const p = [gh.bbox[0] - 0.3 + rand() * (gh.bbox[2] - gh.bbox[0] + 0.6), gh.bbox[1] - 0.3 + rand() * (gh.bbox[3] - gh.bbox[1] + 0.6)];
      expect(gh.contains(p), JSON.stringify(p)).toBe(exact(p));
    }
  });

  it('states the tolerance the guide gives', () => {
    expect(OUTSIDE_TOLERANCE_KM).toBe(25);
    expect(readFileSync(new URL('../../docs/guide.md', import.meta.url), 'utf8')).toContain(`${OUTSIDE_TOLERANCE_KM} km`);
  });

  it('maps every ISO code to a three-digit numeric one', () => {
    expect(Object.keys(ISO_NUMERIC).length).toBeGreaterThanOrEqual(249);
    expect(ISO_NUMERIC).toMatchObject({ CI: '384', GH: '288', BR: '076', ID: '360', CM: '120' });
    expect(Object.values(ISO_NUMERIC).every((n) => /^\d{3}$/.test(n))).toBe(true);
    expect(isCountryCode('ci')).toBe(true);
    expect(isCountryCode('XY')).toBe(false);
    expect(isCountryCode('__proto__')).toBe(false);
  });
});

describe('areas', () => {
  it('computes hectares geodesically, on the WGS 84 ellipsoid, whichever way a ring runs', () => {
    // A square of 0.001° × 0.001° at the equator: 111.32 m × 110.57 m on the ellipsoid = 1.2309 ha
    // (GDAL's ST_Area(geometry, 1) gives the same; a sphere of the mean radius 1.236).
    const square = { type: 'Polygon' as const, coordinates: [[[0, 0], [0.001, 0], [0.001, 0.001], [0, 0.001], [0, 0]]] };
    expect(hectares(square)).toBeCloseTo(1.2309, 4);
    const clockwise = { type: 'Polygon' as const, coordinates: [[[0, 0], [0, 0.001], [0.001, 0.001], [0.001, 0], [0, 0]]] };
    expect(hectares(clockwise)).toBeCloseTo(1.2309, 4);
    // A hole is taken out; a MultiPolygon's parts add up.
    const holed = { type: 'Polygon' as const, coordinates: [square.coordinates[0]!, [[0.0004, 0.0004], [0.0005, 0.0004], [0.0005, 0.0005], [0.0004, 0.0005], [0.0004, 0.0004]]] };
    expect(hectares(holed)).toBeCloseTo(1.2309 - 0.0123, 3);
    expect(hectares({ type: 'MultiPolygon', coordinates: [square.coordinates, clockwise.coordinates] })).toBeCloseTo(2 * 1.2309, 3);
    // The same square at 60° N is half as wide (a little more on the ellipsoid: its degree of latitude is longer there).
    const north = { type: 'Polygon' as const, coordinates: [[[0, 60], [0.001, 60], [0.001, 60.001], [0, 60.001], [0, 60]]] };
    expect(hectares(north) / hectares(square)).toBeCloseTo(0.505, 3);
  });

  it('writes areas with the digits that matter', () => {
    expect([0, 0.000987, 0.5, 12, 59.6046, 12345.678].map(formatHectares)).toEqual(['0 ha', '0.00099 ha', '0.5 ha', '12 ha', '59.6 ha', '12,345.68 ha']);
  });
});

describe('the SVG map', () => {
  const file = parseGeoJson(readFileSync(new URL('../fixtures/geo/valid.geojson', import.meta.url), 'utf8'), 'valid.geojson');
  const result = checkPlots(file);
  const plots: MapPlot[] = result.features.map((f, i) => ({ index: f.raw.index, tag: String(f.raw.index), label: `feature ${f.raw.index} <&>`, geometry: f.geometry!, error: i === 1 }));
  const svg = renderPlotMap({ title: 'valid.geojson & co', plots, countries: ['CI', 'GH', 'BR', 'ID'].map((c) => countryOutline(c)!), context: allOutlines() });
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg);
  type Element = Record<string, string>;
  const byClass = (tag: string, cls: string): Element[] =>
    [parsed.svg.g].flat().flatMap((g: Record<string, unknown>) => [g[tag] ?? []].flat() as Element[]).filter((e) => e.class?.split(' ').includes(cls));

  it('is well-formed XML, with the untrusted text escaped', () => {
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('valid.geojson &amp; co');
    expect(svg).not.toContain('<&>');
  });

  it('draws one shape per feature: points as dots, polygons as shapes', () => {
    const shapes = [...byClass('circle', 'plot'), ...byClass('path', 'plot')];
    expect(shapes.map((s) => Number(s['data-feature'])).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(byClass('circle', 'plot')).toHaveLength(3);
    expect(byClass('path', 'plot')).toHaveLength(4);
  });

  it('draws features with errors in red, labelled with their index, over their countries', () => {
    expect(byClass('circle', 'error').map((s) => s['data-feature'])).toEqual(['2']);
    const labels = byClass('text', 'label');
    expect(labels.map((l) => String(l['#text']))).toEqual(['2']);
    expect(byClass('path', 'country').map((c) => c['data-country'])).toEqual(['CI', 'GH', 'BR', 'ID']);
  });
});

/** Even-odd ray casting over the rings, as a reference independent of turf and of the cell index. */
function pointInRings(p: number[], rings: number[][][]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}
