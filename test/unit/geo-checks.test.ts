// The EUDR checks of plot files (src/geo): each finding of the spec's table on a fixture of its
// own, real-looking plots (cocoa in Côte d'Ivoire and Ghana, coffee in Brazil, oil palm in
// Indonesia) that must pass clean, and the reading of the files around them.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { checkPlots, parseGeoJson, readGeoJsonFile, readPlotFile, type CheckResult } from '../../src/geo/index.js';

const FIXTURES = new URL('../fixtures/geo/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const check = (name: string, options = {}): CheckResult => checkPlots(parseGeoJson(fixture(name), name), options);
const checkText = (text: string, options = {}) => checkPlots(parseGeoJson(text, 'test.geojson'), options);
const point = (coordinates: number[], properties: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'Feature', properties, geometry: { type: 'Point', coordinates } });
/** level, feature and message of every finding, for one readable comparison. */
const brief = (r: CheckResult) => r.findings.map((f) => `${f.level} ${f.feature}: ${f.message}`);
/** brief() of the errors alone. */
const errors = (r: CheckResult) => brief(r).filter((line) => line.startsWith('error'));

describe('plot files that pass', () => {
  it('finds nothing in real plots, and sums them up', () => {
    const r = check('valid.geojson');
    expect(r.findings).toEqual([]);
    expect(r.summary).toMatchObject({ file: 'valid.geojson', features: 7, points: 3, polygons: 4, errors: 0, warnings: 0 });
    // 6.2 + 9.4 + 14.3 + 18.5 + 11.2 ha, computed geodesically.
    expect(r.summary.hectares).toBeCloseTo(59.367, 2);
    expect(r.features.map((f) => f.country)).toEqual(['CI', 'CI', 'CI', 'GH', 'GH', 'BR', 'ID']);
  });

  it('keeps a plot 200 m inside the Côte d\'Ivoire–Ghana border clean', () => {
    expect(check('border-200m.geojson').findings).toEqual([]);
  });

  it('reads features without properties (no country: checked against land, with warnings)', () => {
    const r = check('no-properties.geojson');
    expect(r.summary.errors).toBe(0);
    expect([...new Set(r.findings.map((f) => f.message))]).toEqual([
      'the feature names no country (a ProducerCountry property, or --country-code): the registry needs one; checked against land only',
      'a point without an "Area" property: the registry assumes 4 ha',
    ]);
    expect(r.summary).toMatchObject({ features: 3, points: 2, polygons: 1 });
    expect(r.features.map((f) => f.raw.properties)).toEqual([{}, {}, {}]);
  });

  it('takes a precise plot whose coordinates end in zeros (6.130000 is written 6.13)', () => {
    expect(brief(checkText(point([-6.593214, 5.78], { country_code: 'CI', Area: 1 })))).toEqual([]);
  });
});

describe('each error of the table', () => {
  it.each([
    ['swapped.geojson', 'latitude and longitude look swapped: [-3.076541, 37.353218] lies 5,492 km outside Tanzania (TZ), [37.353218, -3.076541] lies in it (GeoJSON puts longitude first)', [-3.076541, 37.353218]],
    ['bowtie.geojson', 'ring 1 (outer) crosses itself at [-1.6236596, 6.6925938]', [-1.6236596, 6.6925938]],
    ['unclosed.geojson', 'ring 1 (outer) is not closed: it ends at [-6.587444, 5.771611], not at its first position [-6.587485, 5.77246]', [-6.587444, 5.771611]],
    ['three-positions.geojson', 'ring 1 (outer) has 3 positions: a ring needs at least 4, the last repeating the first', [-2.491203, 6.212087]],
    ['longitude-200.geojson', 'position [200, -21.548113]: longitude 200 is outside −180..180', [200, -21.548113]],
    ['point-12ha.geojson', 'a point for a plot of 12 ha: plots of more than 4 ha need a polygon (cattle excepted: --commodity cattle)', [99.621847, 2.781526]],
    ['unknown-type.geojson', 'geometry type "Circle" is not accepted: a plot is a Point, Polygon or MultiPolygon', undefined],
  ])('%s', (name, message, position) => {
    const r = check(name);
    expect(r.findings.filter((f) => f.level === 'error')).toEqual([expect.objectContaining({ file: name, feature: 1, level: 'error', message, ...(position && { position }) })]);
    expect(r.summary.errors).toBe(1);
    expect(r.features[0].error).toBe(true);
  });

  it('names the feature by its id and name', () => {
    expect(check('swapped.geojson').findings[0]).toMatchObject({ id: 'TZ-KIL-0007', name: 'Kilimanjaro coffee, Moshi' });
    expect(check('unclosed.geojson').findings[0]).toMatchObject({ name: 'Traoré plantation, Soubré' });
  });

  it('says "look swapped" for a Côte d\'Ivoire plot written latitude first, and only then', () => {
    const swapped = checkText(point([5.784512, -6.593214], { ProducerCountry: 'CI', Area: 1 }));
    expect(brief(swapped)).toEqual([
      'error 1: latitude and longitude look swapped: [5.784512, -6.593214] lies 1,618 km outside Côte d\'Ivoire (CI), [-6.593214, 5.784512] lies in it (GeoJSON puts longitude first)',
    ]);
    // A Ghana plot filed under Côte d'Ivoire: outside, but swapping does not help.
    const elsewhere = checkText(point([-0.861507, 6.723125], { COUNTRY_CODE: 'CI', Area: 1 }));
    expect(brief(elsewhere)).toEqual(["error 1: position [-0.861507, 6.723125] lies 241 km outside Côte d'Ivoire (CI)"]);
  });

  it('takes the country from --country-code for features that name none', () => {
    const text = point([5.784512, -6.593214], { Area: 1 });
    // Without a country, the swapped plot is in the sea; with one, outside it.
    expect(errors(checkText(text))).toEqual(['error 1: position [5.784512, -6.593214] is in the sea, on no land: latitude and longitude look swapped, [-6.593214, 5.784512] is on land (GeoJSON puts longitude first)']);
    expect(errors(checkText(text, { countryCode: 'CI' }))).toEqual([expect.stringContaining("outside Côte d'Ivoire (CI)")]);
    // The feature's own property wins over the fallback, unless told otherwise.
    const ghana = point([-2.481036, 6.209874], { country_code: 'GH', Area: 1 });
    expect(checkText(ghana, { countryCode: 'CI' }).findings).toEqual([]);
    expect(checkText(ghana, { countryCode: 'CI', forceCountry: true }).summary.errors).toBe(1);
  });

  it('refuses a country code that is not ISO 3166-1', () => {
    expect(brief(checkText(point([-6.593214, 5.784512], { country_code: 'XY', Area: 1 })))).toEqual(['error 1: country "XY" is not an ISO 3166-1 alpha-2 country code']);
    expect(brief(checkText(point([-0.127612, 51.507231], { country_code: 'UK', Area: 1 })))).toEqual(['error 1: country "UK" is not an ISO 3166-1 alpha-2 country code (did you mean GB?)']);
  });

  it('hints at a swap when a latitude is out of range but would fit as a longitude', () => {
    expect(brief(checkText(point([-3.076541, 137.353218])))).toEqual([
      'error 1: position [-3.076541, 137.353218]: latitude 137.353218 is outside −90..90 (latitude and longitude swapped? GeoJSON puts longitude first)',
    ]);
  });

  it('names the polygon of a MultiPolygon whose ring is wrong', () => {
    const ring = [[99.505475, 2.105073], [99.503998, 2.106633], [99.501727, 2.106378], [99.505475, 2.105073]];
    const text = JSON.stringify({ type: 'MultiPolygon', coordinates: [[ring], [ring.slice(0, 3)]] });
    expect(errors(checkText(text))).toEqual(['error 1: polygon 2, ring 1 (outer) has 3 positions: a ring needs at least 4, the last repeating the first']);
  });

  it('finds coordinates that are not numbers, and geometries that are missing', () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: ['-6.59', '5.78'] } },
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[-6.59, 5.78]] } },
        { type: 'Feature', properties: {}, geometry: null },
        { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[-6.59, 5.78], [-6.6, 5.79]] } },
        { type: 'Point', coordinates: [-6.59, 5.78] },
      ],
    });
    expect(brief(checkText(text))).toEqual([
      "error 1: a Point's coordinates must be one position [longitude, latitude] (numbers)",
      "error 2: a Polygon's coordinates must be a list of rings, each a list of positions [longitude, latitude] (numbers)",
      'error 3: no geometry',
      'error 4: geometry type "LineString" is not accepted: a plot is a Point, Polygon or MultiPolygon',
      'error 5: not a GeoJSON Feature (type "Point")',
    ]);
  });
});

describe('warnings', () => {
  it.each([
    ['four-decimals.geojson', 1, 'positions have at most 4 decimal places: the registry expects 6 (about 10 cm)'],
    ['duplicate.geojson', 2, 'the same geometry as feature 1'],
    ['tiny-polygon.geojson', 1, 'a polygon of 0.00098 ha, under 0.01 ha: is it a plot?'],
  ])('%s', (name, feature, message) => {
    const r = check(name);
    expect(r.findings).toContainEqual(expect.objectContaining({ feature, level: 'warning', message }));
    expect(r.summary.errors).toBe(0);
  });

  it('warns about a polygon of more than 10,000 ha', () => {
    const big = [[-55.9, -12.7], [-55.5, -12.7], [-55.5, -12.4], [-55.9, -12.4], [-55.9, -12.7]].map(([x, y]) => [x + 0.000001, y + 0.000001]);
    big[4] = big[0];
    const r = checkText(JSON.stringify({ type: 'Polygon', coordinates: [big] }));
    expect(brief(r).filter((line) => line.includes('a polygon of'))).toEqual([expect.stringMatching(/^warning 1: a polygon of 144,\d{3}\.\d+ ha, over 10,000 ha: is it one plot\?$/)]);
  });

  it('tells the same geometry from one that only looks alike', () => {
    const a = { type: 'Point', coordinates: [-2.481036, 6.209874] };
    const b = { type: 'Point', coordinates: [-2.481036, 6.209875] };
    const text = JSON.stringify({ type: 'FeatureCollection', features: [a, b, a, b].map((geometry) => ({ type: 'Feature', properties: null, geometry })) });
    expect(brief(checkText(text)).filter((line) => line.includes('the same geometry'))).toEqual(['warning 3: the same geometry as feature 1', 'warning 4: the same geometry as feature 2']);
  });

  it('warns about a file over 25 MB (generated here, not committed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-geo-'));
    try {
      const file = join(dir, 'plots-30mb.geojson');
      const features: string[] = [];
      let bytes = 0;
      for (let i = 0; bytes < 30_000_000; i++) {
        const f = point([-6.5 - (i % 1000) / 10_000 - 0.000001, 5.7 + Math.floor(i / 1000) / 10_000 + 0.000001], { country_code: 'CI', external_id: `CI-${i}`, ProductionPlace: `Plot ${i}, Soubré`, Area: 1 });
        features.push(f);
        bytes += f.length + 2;
      }
      writeFileSync(file, `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}`);
      const r = checkPlots(await readGeoJsonFile(file, new PassThrough()));
      expect(r.summary.errors).toBe(0);
      expect(r.findings).toEqual([expect.objectContaining({ feature: null, level: 'warning', message: expect.stringMatching(/^the file is 30\.\d MB, over the registry's 25 MB limit for one statement: split it$/) })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reading GeoJSON', () => {
  it('takes a FeatureCollection, one Feature or a bare geometry, and numbers features from 1', () => {
    expect(parseGeoJson(fixture('valid.geojson'), 'v').features.map((f) => f.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(parseGeoJson(fixture('bowtie.geojson'), 'b').features).toHaveLength(1);
    const bare = parseGeoJson('{"type":"Point","coordinates":[-6.593214,5.784512]}', 'p');
    expect(bare.features).toEqual([{ index: 1, properties: {}, geometry: { type: 'Point', coordinates: [-6.593214, 5.784512] } }]);
  });

  it('says why a file is not GeoJSON', () => {
    const problem = (text: string) => checkPlots(parseGeoJson(text, 'x')).findings.map((f) => `${f.level} ${f.feature}: ${f.message}`);
    expect(problem("name,country_code\nA,CI\n")).toEqual([expect.stringMatching(/^error null: not GeoJSON: not valid JSON at line 1, column 2 \(Unexpected token 'a'\)$/)]);
    expect(problem('[1, 2]')).toEqual(['error null: not GeoJSON: expected an object with a "type" (FeatureCollection, Feature or a geometry)']);
    expect(problem('{"type":"FeatureCollection"}')).toEqual(['error null: not GeoJSON: a FeatureCollection needs a "features" array']);
    expect(problem('{"type":"Topology","objects":{}}')).toEqual(['error null: not GeoJSON: this is TopoJSON (convert it with topo2geo or mapshaper first)']);
    expect(problem('{"type":"FeatureCollection","features":[]}')).toEqual(['warning null: no features']);
  });

  it('reads a byte order mark, and the size in bytes', () => {
    const text = '\ufeff{"type":"Point","coordinates":[-6.593214,5.784512]}';
    const file = parseGeoJson(text, 'bom');
    expect(file.problem).toBeUndefined();
    expect(file.size).toBe(Buffer.byteLength(text));
  });
});

describe('the registry\'s 25 MB limit', () => {
  it('is on the GeoJSON the registry receives: a converted file (KMZ, a Shapefile) is measured as that, not by its own bytes', () => {
    const big = parseGeoJson(`{"type":"FeatureCollection","features":[${point([-5.95, 6.13], { ProducerCountry: 'CI', Area: 1, note: 'x'.repeat(26_000_000) })}]}`, 'plots.kmz');
    const small = parseGeoJson(`{"type":"FeatureCollection","features":[${point([-5.95, 6.13], { ProducerCountry: 'CI', Area: 1 })}]}`, 'plots.kml');
    // A KMZ of 2 MB whose plots are 26 MB of GeoJSON; a KML of 50 MB (styles, descriptions) whose plots are small.
    expect(brief(checkPlots({ ...big, size: 2_000_000, converted: true }))).toContain('warning null: as GeoJSON (what the registry receives), the file is 26.0 MB, over the registry\'s 25 MB limit for one statement: split it');
    expect(brief(checkPlots({ ...small, size: 50_000_000, converted: true })).filter((l) => l.includes('MB'))).toEqual([]);
    expect(brief(checkPlots({ ...small, size: 26_000_000 }))).toContain('warning null: the file is 26.0 MB, over the registry\'s 25 MB limit for one statement: split it');
  });

  it('a KMZ, a zipped Shapefile and a KML are read as converted; a GeoJSON file is not', async () => {
    const read = (name: string) => readPlotFile(new URL(name, FIXTURES).pathname, new PassThrough());
    for (const name of ['plots-libkml.kmz', 'plots-shp.zip']) expect((await read(name)).converted, name).toBe(true);
    expect((await read('valid.geojson')).converted).toBeUndefined();
  });
});
