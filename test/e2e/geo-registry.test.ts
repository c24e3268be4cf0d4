// "Plots the EU registry accepts" (cli-spec.md): each row of its table, as `origins check`
// reports it, with the registry's error code in -o json; and an import refused before anything
// is sent when the registry would refuse the file.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });
const fixture = (name: string) => join(fileURLToPath(new URL('../fixtures/geo/', import.meta.url)), name);

const GEOMETRY = 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY';
const AREA = 'EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID';

// A corner in Ashanti (Ghana), and positions 0.001° (about 110 m) apart from it.
const X = -1.623412;
const Y = 6.691238;
const at = (dx: number, dy: number): number[] => [Math.round((X + dx * 0.001) * 1e7) / 1e7, Math.round((Y + dy * 0.001) * 1e7) / 1e7];
const ring = (...corners: Array<[number, number]>) => [...corners, corners[0]].map(([dx, dy]) => at(dx, dy));
const square = (x: number, y: number, size = 2) => ring([x, y], [x + size, y], [x + size, y + size], [x, y + size]);

interface Finding {
  feature: number | null;
  level: string;
  message: string;
  code?: string;
}

function feature(geometry: unknown, properties: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { type: 'Feature', properties: { ProducerCountry: 'GH', ...properties }, geometry, ...extra };
}

/** The errors found, by feature, their positions left out. */
const errorsOf = (findings: Finding[]) => findings.filter((f) => f.level === 'error').map((f) => [f.feature, f.message.replace(/\[[^\]]*\]/g, '[…]')]);

async function check(features: unknown[], args: string[] = [], collection: Record<string, unknown> = {}) {
  const file = t.writeFile(`plots-${Math.random().toString(36).slice(2)}.geojson`, JSON.stringify({ type: 'FeatureCollection', ...collection, features }));
  const r = await t.sct(['origins', 'check', '-o', 'json', ...args, file]);
  return { ...r, findings: JSON.parse(r.stdout) as Finding[] };
}

describe('the registry’s rules (origins check)', () => {
  it('a ring repeating a position twice in a row is a warning, not a crossing (Kalimantan, Whisp)', async () => {
    const r = await t.sct(['origins', 'check', '-o', 'json', fixture('repeated-position.geojson')]);
    expect(r.exitCode, r.stderr).toBe(0);
    const findings = JSON.parse(r.stdout) as Finding[];
    expect(findings).toEqual([
      expect.objectContaining({ feature: 1, level: 'warning', message: 'ring 1 (outer) repeats the position [113.866071, -2.206483] twice in a row (not a crossing; the registry takes it once)' }),
    ]);
  });

  it('refuses what the registry refuses, each with its code', async () => {
    const { exitCode, findings } = await check([
      // 1: two consecutive positions the same after truncation to 6 decimals
      feature({ type: 'Polygon', coordinates: [[at(0, 0), [X - 0.0000004, Y], at(2, 0), at(2, 2), at(0, 0)]] }),
      // 2: every position on one line
      feature({ type: 'Polygon', coordinates: [ring([0, 0], [1, 1], [2, 2], [3, 3])] }),
      // 3: two distinct positions only
      feature({ type: 'Polygon', coordinates: [[at(0, 0), at(2, 0), at(2, 0), at(0, 0)]] }),
      // 4: a ring touching itself (a corner on another edge)
      feature({ type: 'Polygon', coordinates: [ring([0, 0], [4, 0], [4, 4], [2, 0], [0, 4])] }),
      // 5: parts that overlap
      feature({ type: 'MultiPolygon', coordinates: [[square(0, 0)], [square(1, 1)]] }),
      // 6: parts sharing an edge
      feature({ type: 'MultiPolygon', coordinates: [[square(0, 0)], [square(2, 0)]] }),
      // 7: a hole touching its outer ring at two points
      feature({ type: 'Polygon', coordinates: [square(0, 0, 4), ring([0, 2], [2, 1], [4, 2], [2, 3])] }),
      // 8: a 3D ring closed only in longitude and latitude
      feature({ type: 'Polygon', coordinates: [[[...at(0, 0), 120], at(2, 0), at(2, 2), at(0, 0)]] }),
      // 9: a Feature with "coordinates", a malformed bbox
      feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 1 }, { coordinates: at(0, 0), bbox: [1, 2, 3] }),
      // 10: a geometry with "features"
      feature({ type: 'Point', coordinates: at(0, 0), features: [] }, { Area: 1 }),
      // 11, 12: a Point Area under 0.0001 ha; an Area given as text
      feature({ type: 'Point', coordinates: at(1, 1) }, { Area: 0.00005 }),
      feature({ type: 'Point', coordinates: at(2, 2) }, { Area: '3' }),
      // 13: a Point of more than 4 ha
      feature({ type: 'Point', coordinates: at(3, 3) }, { Area: 4.5 }),
      // 14, 15: a latitude and a longitude out of range
      feature({ type: 'Point', coordinates: [X, 96.5] }, { Area: 1 }),
      feature({ type: 'Point', coordinates: [-190.1, Y] }, { Area: 1 }),
    ], [], { bbox: 'all of Ghana' });
    expect(exitCode).toBe(2);
    const errors = findings.filter((f) => f.level === 'error').map((f) => [f.feature, f.code, f.message.replace(/\[[^\]]*\]/g, '[…]')]);
    expect(errors).toEqual([
      [null, GEOMETRY, 'the FeatureCollection has a malformed "bbox": RFC 7946 wants 4 numbers (or 6 with altitude), got "all of Ghana"'],
      [1, GEOMETRY, 'ring 1 (outer) has consecutive positions that become one when the registry truncates them to 6 decimals, at […]'],
      [2, GEOMETRY, 'ring 1 (outer) has all its positions on one line: it encloses no area'],
      [3, GEOMETRY, 'ring 1 (outer) has 2 distinct positions: a ring needs at least 3 that are not on one line'],
      [4, GEOMETRY, 'ring 1 (outer) touches itself at […]'],
      [5, GEOMETRY, 'polygons 1 and 2 overlap: parts of a MultiPolygon may meet only at single points'],
      [6, GEOMETRY, 'polygons 1 and 2 share an edge: parts of a MultiPolygon may meet only at single points'],
      [7, GEOMETRY, 'ring 2 (a hole) touches its outer ring at 2 points: only one is allowed'],
      [8, GEOMETRY, 'ring 1 (outer) is closed in longitude and latitude only: its first position […] and last […] must be identical (RFC 7946), altitude included'],
      [9, GEOMETRY, 'a Feature with a "coordinates" member, which RFC 7946 forbids'],
      [9, GEOMETRY, 'a malformed "bbox": RFC 7946 wants 4 numbers (or 6 with altitude), got […]'],
      [10, GEOMETRY, 'a geometry with a "features" member, which RFC 7946 forbids'],
      [11, AREA, 'a point for a plot of 0.00005 ha: the registry accepts an Area from 0.0001 ha'],
      [12, AREA, '"Area" is the text "3": the registry reads text as 0; write it as a number of hectares'],
      [13, AREA, 'a point for a plot of 4.5 ha: plots of more than 4 ha need a polygon (cattle excepted: --commodity cattle)'],
      [14, 'EUDR_COMMODITIES_PRODUCER_GEO_LATITUDE_INVALID', 'position […]: latitude 96.5 is outside −90..90 (latitude and longitude swapped? GeoJSON puts longitude first)'],
      [15, 'EUDR_COMMODITIES_PRODUCER_GEO_LONGITUDE_INVALID', 'position […]: longitude -190.1 is outside −180..180'],
    ]);
  });

  it('a hole outside its outer ring, or sharing an edge with it, is refused as what it is; a Feature\'s malformed member is named', async () => {
    const { exitCode, findings } = await check([
      // 1: a hole wholly beside its polygon (its area would be taken off the plot)
      feature({ type: 'Polygon', coordinates: [square(0, 0, 4), square(6, 0, 1)] }),
      // 2: a hole along part of its outer ring's edge
      feature({ type: 'Polygon', coordinates: [square(0, 0, 4), ring([0, 1], [2, 1], [2, 3], [0, 3])] }),
      // 3, 4: properties that are no object, an id that is neither text nor a number
      { type: 'Feature', properties: [1], geometry: { type: 'Point', coordinates: at(0, 0) } },
      { type: 'Feature', id: { a: 1 }, properties: {}, geometry: { type: 'Point', coordinates: at(0, 0) } },
    ]);
    expect(exitCode).toBe(2);
    expect(errorsOf(findings)).toEqual([
      [1, 'ring 2 (a hole) lies outside its outer ring: a hole must be inside the polygon it cuts'],
      [2, 'ring 2 (a hole) shares an edge with its outer ring at […]'],
      [3, 'a malformed GeoJSON Feature: "properties" must be an object or null'],
      [4, 'a malformed GeoJSON Feature: "id" must be a string or a number'],
    ]);
  });

  it('holes of one polygon may meet at single points only; a ring sound as written that crosses itself once cut to 6 decimals is refused (GDAL agrees)', async () => {
    const { exitCode, findings } = await check([
      // 1: two holes that overlap
      feature({ type: 'Polygon', coordinates: [square(0, 0, 10), square(2, 2, 3), square(4, 4, 3)] }),
      // 2: a hole inside another
      feature({ type: 'Polygon', coordinates: [square(0, 0, 10), square(2, 2, 6), square(4, 4, 1)] }),
      // 3: two holes sharing an edge
      feature({ type: 'Polygon', coordinates: [square(0, 0, 10), square(2, 2, 2), square(4, 2, 2)] }),
      // 4: two holes meeting at one corner: allowed
      feature({ type: 'Polygon', coordinates: [square(0, 0, 10), square(2, 2, 2), square(4, 4, 2)] }),
      // 5: a bow-tie only once the registry truncates to 6 decimals (GDAL: valid as written,
      // "Self-intersection" once truncated)
      feature({ type: 'Polygon', coordinates: [[[-2.489312, 6.209871], [-2.487312, 6.2118729], [-2.487312, 6.212871], [-2.488311, 6.212871], [-2.488312, 6.21087197], [-2.488313, 6.212871], [-2.489312, 6.212871], [-2.489312, 6.209871]]] }),
    ]);
    expect(exitCode).toBe(2);
    expect(errorsOf(findings)).toEqual([
      [1, 'ring 2 and ring 3 (holes) overlap: holes may meet only at single points'],
      [2, 'ring 2 and ring 3 (holes) overlap: holes may meet only at single points'],
      [3, 'ring 2 and ring 3 (holes) share an edge: holes may meet only at single points'],
      [5, 'ring 1 (outer) crosses itself once the registry truncates it to 6 decimals, at […]'],
    ]);
    // Where, in degrees.
    expect(findings.find((f) => f.feature === 5)!.message).toMatch(/at \[-2\.488\d*, 6\.21\d*\]$/);
  });

  it('a position of 4 values (a measure after the height, as an XYZM export writes) is said as such', async () => {
    const { findings } = await check([feature({ type: 'Point', coordinates: [...at(0, 0), 120, 7] }, { Area: 1 })]);
    expect(errorsOf(findings)).toEqual([[1, 'a position has 4 values ([…]): GeoJSON positions have 2 or 3 (longitude, latitude, height); a 4th (a measure, as an XYZM export writes) is not taken: export the layer without M values']]);
    // A ring written as one flat list of numbers is a wrong shape, no measure.
    const flat = await check([feature({ type: 'Polygon', coordinates: [[-5.5, 7.5, -5.49, 7.5, -5.49, 7.51, -5.5, 7.51, -5.5, 7.5]] }, { Area: 1 })]);
    expect(errorsOf(flat.findings)[0]![1]).toContain("a Polygon's coordinates must be a list of rings");
    // 4 numbers where no position goes (a box as a Polygon's coordinates, as a ring, as a MultiPolygon's part) are a wrong shape too.
    const boxes = await check([
      feature({ type: 'Polygon', coordinates: [-5.5, 7.5, -5.49, 7.51] }, { Area: 1 }),
      feature({ type: 'Polygon', coordinates: [[-5.5, 7.5, -5.49, 7.51]] }, { Area: 1 }),
      feature({ type: 'MultiPolygon', coordinates: [[-5.5, 7.5, -5.49, 7.51]] }, { Area: 1 }),
    ]);
    expect(errorsOf(boxes.findings).map(([n, m]) => [n, String(m).slice(0, 40)])).toEqual([
      [1, "a Polygon's coordinates must be a list o"],
      [2, "a Polygon's coordinates must be a list o"],
      [3, "a MultiPolygon's coordinates must be a l"],
    ]);
  });

  it('the parts of a MultiPolygon: the first pair that overlaps, by number, is named, whatever their places on the map', async () => {
    const { findings } = await check([
      // Parts 1 and 4 overlap in the east, 2 and 3 in the west: "1 and 4" comes first by number.
      feature({ type: 'MultiPolygon', coordinates: [[square(20, 0)], [square(0, 0)], [square(1, 1)], [square(21, 1)], [square(40, 0)]] }),
      // Many parts apart, on a grid, the last two overlapping.
      feature({ type: 'MultiPolygon', coordinates: [...Array.from({ length: 400 }, (_, i) => [square((i % 20) * 3, Math.floor(i / 20) * 3, 1)]), [square(0.5, 0.5, 1)]] }),
    ]);
    expect(errorsOf(findings)).toEqual([
      [1, 'polygons 1 and 4 overlap: parts of a MultiPolygon may meet only at single points'],
      [2, 'polygons 1 and 401 overlap: parts of a MultiPolygon may meet only at single points'],
    ]);
  });

  it('holes and the parts of a MultiPolygon apart as written that meet once cut to 6 decimals are refused (GEOS agrees on the cut file)', async () => {
    const close = (ring: number[][]) => [...ring, ring[0]!];
    const { exitCode, findings } = await check([
      // 1: two parts 4e-7° apart: one edge once cut
      feature({
        type: 'MultiPolygon',
        coordinates: [
          [close([[-2.48, 6.2], [-2.4700005, 6.2], [-2.4700005, 6.21], [-2.48, 6.21]])],
          [close([[-2.4700001, 6.2], [-2.46, 6.2], [-2.46, 6.21], [-2.4700001, 6.21]])],
        ],
      }),
      // 2: a hole 9e-7° from its outer ring's side: touching it at two points once cut
      feature({ type: 'Polygon', coordinates: [close([[-2.48, 6.2], [-2.47, 6.2], [-2.47, 6.21], [-2.48, 6.21]]), [[-2.479, 6.205], [-2.475, 6.2000009], [-2.4700009, 6.205], [-2.475, 6.209], [-2.479, 6.205]]] }),
    ]);
    expect(exitCode).toBe(2);
    expect(errorsOf(findings)).toEqual([
      [1, 'polygons 1 and 2 share an edge: parts of a MultiPolygon may meet only at single points once the registry truncates them to 6 decimals'],
      [2, 'ring 2 (a hole) touches its outer ring at 2 points: only one is allowed once the registry truncates them to 6 decimals'],
    ]);
  });

  it('a GeoJSON whose "crs" names another system than WGS 84 is refused whole, naming it; GDAL\'s CRS84 and EPSG:4326 pass', async () => {
    const r = await t.sct(['origins', 'check', fixture('plots-accra-crs.geojson')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr + r.stdout).toContain('not WGS 84: the file\'s "crs" member names urn:ogc:def:crs:EPSG::4168');
    const imported = await t.sct(['origins', 'import', '--file', fixture('plots-accra-crs.geojson'), '--dry-run']);
    expect(imported.exitCode).toBe(2);
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await t.sct(['origins', 'check', fixture('plots-utm30n-gdal.geojson')])).exitCode).toBe(0);
    const plot = feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 1 });
    for (const name of ['EPSG:4326', 'urn:ogc:def:crs:EPSG::4326', 'urn:ogc:def:crs:OGC:1.3:CRS84']) {
      expect((await check([plot], [], { crs: { type: 'name', properties: { name } } })).exitCode, name).toBe(0);
    }
    const projected = await check([plot], [], { crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::3857' } } });
    expect(projected.exitCode).toBe(2);
    expect(projected.findings[0]!.message).toMatch(/^not WGS 84: the file's "crs" member names urn:ogc:def:crs:EPSG::3857/);
  });

  it('a "crs" on a feature or on its geometry is checked as one on the file: another system than WGS 84 is that feature\'s error', async () => {
    const plot = (extra: Record<string, unknown> = {}, geometryExtra: Record<string, unknown> = {}) => feature({ type: 'Point', coordinates: at(0, 0), ...geometryExtra }, { Area: 1 }, extra);
    const accra = { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4168' } };
    const { exitCode, findings } = await check([plot({ crs: accra }), plot({}, { crs: accra }), plot({ crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } } })]);
    expect(exitCode).toBe(2);
    expect(errorsOf(findings)).toEqual([
      [1, 'not WGS 84: the feature\'s "crs" member names urn:ogc:def:crs:EPSG::4168, and GeoJSON plots are WGS 84 longitude and latitude (read as such they would land in the wrong place): give its positions in WGS 84'],
      [2, 'not WGS 84: its geometry\'s "crs" member names urn:ogc:def:crs:EPSG::4168, and GeoJSON plots are WGS 84 longitude and latitude (read as such they would land in the wrong place): give its positions in WGS 84'],
    ]);
  });

  it("the OGC URIs of WGS 84 in a \"crs\" pass, on the file and on a feature; another system's URI is still refused", async () => {
    const crs = (name: string) => ({ crs: { type: 'name', properties: { name } } });
    const plot = (extra: Record<string, unknown> = {}) => feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 1 }, extra);
    for (const name of [
      'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
      'http://www.opengis.net/def/crs/OGC/0/CRS84h',
      'http://www.opengis.net/def/crs/EPSG/0/4326',
      'http://www.opengis.net/def/crs/EPSG/0/4979',
      'urn:x-ogc:def:crs:EPSG:4326',
      'urn:x-ogc:def:crs:EPSG::4326',
    ]) {
      const onFile = await check([plot()], [], crs(name));
      expect(onFile.exitCode, `${name}: ${JSON.stringify(onFile.findings)}`).toBe(0);
      const onFeature = await check([plot(crs(name))]);
      expect(onFeature.exitCode, `${name}: ${JSON.stringify(onFeature.findings)}`).toBe(0);
    }
    const { exitCode, findings } = await check([plot(crs('http://www.opengis.net/def/crs/EPSG/0/4168'))], [], crs('http://www.opengis.net/def/crs/EPSG/0/3857'));
    expect(exitCode).toBe(2);
    expect(findings[0]!.message).toMatch(/^not WGS 84: the file's "crs" member names http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/3857/);
    const onFeature = await check([plot(crs('http://www.opengis.net/def/crs/EPSG/0/4168'))]);
    expect(errorsOf(onFeature.findings)[0]![1]).toMatch(/^not WGS 84: the feature's "crs" member names http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/4168/);
  });

  it('the other spellings of WGS 84 GDAL reads (CRS:84, the OGC URN without or with another version, a URI without www or with a trailing slash) pass; other codes so spelt are refused', async () => {
    const crs = (name: string) => ({ crs: { type: 'name', properties: { name } } });
    const plot = (extra: Record<string, unknown> = {}) => feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 1 }, extra);
    for (const name of [
      'CRS:84',
      'urn:ogc:def:crs:OGC:CRS84',
      'urn:ogc:def:crs:OGC:0:CRS84',
      'urn:ogc:def:crs:OGC::CRS84h',
      'http://www.opengis.net/def/crs/OGC/1.3/CRS84/',
      'http://opengis.net/def/crs/EPSG/0/4326',
      'https://opengis.net/def/crs/EPSG/0/4979/',
      'urn:ogc:def:crs:EPSG:4326',
    ]) {
      const onFile = await check([plot()], [], crs(name));
      expect(onFile.exitCode, `${name}: ${JSON.stringify(onFile.findings)}`).toBe(0);
      const onFeature = await check([plot(crs(name))]);
      expect(onFeature.exitCode, `${name}: ${JSON.stringify(onFeature.findings)}`).toBe(0);
    }
    for (const name of ['CRS:83', 'urn:ogc:def:crs:OGC:CRS83', 'http://opengis.net/def/crs/EPSG/0/3857/', 'urn:ogc:def:crs:EPSG::43260']) {
      const { exitCode, findings } = await check([plot()], [], crs(name));
      expect(exitCode, name).toBe(2);
      expect(findings[0]!.message).toContain(`not WGS 84: the file's "crs" member names ${name},`);
    }
  });

  it('a Feature without a "geometry" member, a geometry without a type, a ring without positions: each said as such, no precision warning without positions', async () => {
    const named = { ProducerCountry: 'GH', ProductionPlace: 'P' };
    const { exitCode, findings } = await check([
      { type: 'Feature', properties: named },
      feature({}),
      feature({ type: 'Polygon', coordinates: [[]] }),
      feature({ type: 'MultiPolygon', coordinates: [[[]]] }),
    ]);
    expect(exitCode).toBe(2);
    expect(findings.map((f) => [f.feature, f.level, f.message])).toEqual([
      [1, 'error', 'a malformed GeoJSON Feature: it has no "geometry" member (RFC 7946 wants one, null where the feature has no place)'],
      [2, 'error', 'the geometry has no "type": a plot is a Point, Polygon or MultiPolygon'],
      [3, 'error', 'ring 1 (outer) has 0 positions: a ring needs at least 4, the last repeating the first'],
      [4, 'error', 'polygon 1, ring 1 (outer) has 0 positions: a ring needs at least 4, the last repeating the first'],
    ]);
  });

  it('a FeatureCollection with members RFC 7946 keeps for features and geometries is refused', async () => {
    const plot = feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 1 });
    for (const member of ['coordinates', 'geometries', 'geometry', 'properties']) {
      const { exitCode, findings } = await check([plot], [], { [member]: member === 'properties' ? {} : null });
      expect(exitCode, member).toBe(2);
      expect(findings.filter((f) => f.level === 'error').map((f) => [f.feature, f.code, f.message])).toEqual([
        [null, GEOMETRY, `the FeatureCollection has a "${member}" member, which RFC 7946 forbids`],
      ]);
    }
  });

  it('the registry reads `Area`: beside it, `area` or `AREA` says nothing, either way', async () => {
    const point = { type: 'Point', coordinates: at(0, 0) };
    const refused = await check([feature(point, { Area: 6, area: 2 }), feature(point, { Area: 0.00001, AREA: 1 })]);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.findings.filter((f) => f.level === 'error').map((f) => [f.feature, f.code, f.message])).toEqual([
      [1, AREA, 'a point for a plot of 6 ha: plots of more than 4 ha need a polygon (cattle excepted: --commodity cattle)'],
      [2, AREA, 'a point for a plot of 0.00001 ha: the registry accepts an Area from 0.0001 ha'],
    ]);
    const accepted = await check([feature(point, { Area: 2, area: 6 })]);
    expect(accepted.exitCode, accepted.stdout).toBe(0);
  });

  it('an Area that is neither a number nor text (true, null, an object) is refused, not read as missing', async () => {
    const point = { type: 'Point', coordinates: at(0, 0) };
    const r = await check([feature(point, { Area: true }), feature(point, { Area: null }), feature(point, { Area: { ha: 2 } })]);
    expect(r.exitCode, r.stdout).toBe(2);
    expect(r.findings.filter((f) => f.level === 'error').map((f) => [f.feature, f.code, f.message])).toEqual([
      [1, AREA, '"Area" is true, not a number of hectares: write it as one, or leave it out (the registry then assumes 4 ha)'],
      [2, AREA, '"Area" is null, not a number of hectares: write it as one, or leave it out (the registry then assumes 4 ha)'],
      [3, AREA, '"Area" is {"ha":2}, not a number of hectares: write it as one, or leave it out (the registry then assumes 4 ha)'],
    ]);
  });

  it('an Area too large for a number (1e400, read as Infinity) is an Area error, not a missing Area; 4.0000001 ha says its digits', async () => {
    const text = JSON.stringify({ type: 'FeatureCollection', features: [feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 'HUGE' })] }).replace('"HUGE"', '1e400');
    const r = await t.sct(['origins', 'check', '-o', 'json', t.writeFile('huge-area.geojson', text)]);
    expect(r.exitCode, r.stdout).toBe(2);
    expect((JSON.parse(r.stdout) as Finding[]).map((f) => [f.level, f.code, f.message])).toEqual([
      ['error', AREA, '"Area" is a number too large to be a plot\'s hectares: write the plot\'s area in hectares'],
    ]);
    const near = await check([feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 4.0000001 })]);
    expect(near.exitCode).toBe(2);
    expect(near.findings.map((f) => f.message)).toContain('a point for a plot of 4.0000001 ha: plots of more than 4 ha need a polygon (cattle excepted: --commodity cattle)');
  });

  it('a Point with a negative Area is refused as too small, with a summary and exit 2 (never a crash)', async () => {
    for (const [name, value] of [['Area', -2], ['area', -0.5], ['Area', -0.00001]] as const) {
      const { exitCode, findings, stderr } = await check([feature({ type: 'Point', coordinates: at(0, 0) }, { [name]: value })]);
      expect(exitCode, `${name} ${value}: ${stderr}`).toBe(2);
      expect(findings.filter((f) => f.level === 'error').map((f) => [f.feature, f.code, f.message])).toEqual([
        [1, AREA, `a point for a plot of ${value} ha: the registry accepts an Area from 0.0001 ha`],
      ]);
    }
    const file = t.writeFile('negative.geojson', JSON.stringify({ type: 'FeatureCollection', features: [feature({ type: 'Point', coordinates: at(0, 0) }, { Area: -2 })] }));
    const imported = await t.sct(['origins', 'import', '--file', file]);
    expect(imported.exitCode, imported.stderr).toBe(2);
    expect(imported.stderr).toContain('a point for a plot of -2 ha');
  });

  it('accepts what the registry accepts: parts meeting at one point, a hole touching once, a Point of exactly 4 ha, a cattle Point of any size', async () => {
    const plots = [
      feature({ type: 'MultiPolygon', coordinates: [[square(0, 0)], [square(2, 2)]] }),
      feature({ type: 'Polygon', coordinates: [square(10, 0, 4), ring([10, 2], [12, 1], [13, 2], [12, 3])] }),
      feature({ type: 'Point', coordinates: at(20, 0) }, { Area: 4 }),
    ];
    const { exitCode, findings, stderr } = await check(plots);
    expect(exitCode, stderr).toBe(0);
    expect(findings.map((f) => [f.feature, f.level, f.message])).toEqual([[2, 'warning', 'a hole: the registry keeps only the outer ring of each polygon']]);

    const big = [feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 35 })];
    expect((await check(big)).exitCode).toBe(2);
    const cattle = await check(big, ['--commodity', 'Cattle']);
    expect(cattle.exitCode, cattle.stderr).toBe(0);
    expect(cattle.findings).toEqual([]);
    const wrong = await t.sct(['origins', 'check', '--commodity', 'goats', fixture('valid.geojson')]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain('invalid --commodity "goats": allowed values are cattle, cocoa, coffee, palm_oil, rubber, soya, wood');
  });

  it('warns of what the registry reads differently: no Area, no country, a property spelt otherwise', async () => {
    const { exitCode, findings } = await check([
      feature({ type: 'Point', coordinates: at(0, 0) }),
      { type: 'Feature', properties: { productionplace: 'Asante farm', Producer_Country: 'GH', Area: 1 }, geometry: { type: 'Point', coordinates: at(1, 1) } },
    ]);
    expect(exitCode).toBe(0);
    expect(findings.map((f) => [f.feature, f.level, f.message])).toEqual([
      [1, 'warning', 'a point without an "Area" property: the registry assumes 4 ha'],
      [2, 'warning', 'property "productionplace": the registry reads "ProductionPlace" (names are case-sensitive), so it would not see this one'],
      [2, 'warning', 'property "Producer_Country": the registry reads "ProducerCountry" (names are case-sensitive), so it would not see this one'],
      [2, 'warning', 'the feature names no country (a ProducerCountry property, or --country-code): the registry needs one; checked against land only'],
    ]);
  });

  it('without a country, a plot in the sea is an error, and swapped coordinates are named', async () => {
    const sea = { type: 'Feature', properties: { Area: 1 }, geometry: { type: 'Point', coordinates: [-20.512345, -12.312345] } };
    const swapped = { type: 'Feature', properties: { Area: 1 }, geometry: { type: 'Point', coordinates: [Y, X] } };
    const land = { type: 'Feature', properties: { Area: 1 }, geometry: { type: 'Point', coordinates: [X, Y] } };
    const { exitCode, findings } = await check([sea, swapped, land]);
    expect(exitCode).toBe(2);
    expect(findings.filter((f) => f.level === 'error').map((f) => [f.feature, f.message])).toEqual([
      [1, 'position [-20.512345, -12.312345] is in the sea, on no land'],
      [2, `position [${Y}, ${X}] is in the sea, on no land: latitude and longitude look swapped, [${X}, ${Y}] is on land (GeoJSON puts longitude first)`],
    ]);
  });

  it.each([
    ['positions merged by truncation', { type: 'Polygon', coordinates: [[at(0, 0), [X - 0.0000004, Y], at(2, 0), at(2, 2), at(0, 0)]] }, 'become one when the registry truncates'],
    ['a ring touching itself', { type: 'Polygon', coordinates: [ring([0, 0], [4, 0], [4, 4], [2, 0], [0, 4])] }, 'touches itself'],
    ['overlapping parts', { type: 'MultiPolygon', coordinates: [[square(0, 0)], [square(1, 1)]] }, 'polygons 1 and 2 overlap'],
    // A diamond whose corners sit on the square's edges: no corner inside, no crossing (GEOS: nested shells).
    ['a part inside another, its corners on the other’s edges', { type: 'MultiPolygon', coordinates: [[square(0, 0, 4)], [ring([2, 0], [4, 2], [2, 4], [0, 2])]] }, 'polygons 1 and 2 overlap'],
    ['a 3D ring closed in 2D', { type: 'Polygon', coordinates: [[[...at(0, 0), 120], at(2, 0), at(2, 2), at(0, 0)]] }, 'closed in longitude and latitude only'],
  ])('import and sync refuse %s before any request', async (_, geometry, message) => {
    const file = t.writeFile('refused-row.geojson', JSON.stringify(feature(geometry, { name: 'Asante farm', external_id: 'GH-ROW-1' })));
    for (const command of ['import', 'sync']) {
      const r = await t.sct(['origins', command, '--file', file, '--yes']);
      expect(r.exitCode, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('nothing was sent');
    }
    expect(t.sb.requests).toHaveLength(0);
  });

  it('a file over 25 MB is a warning with the registry’s size code', async () => {
    const notes = 'x'.repeat(25_000_001);
    const { exitCode, findings } = await check([feature({ type: 'Point', coordinates: at(0, 0) }, { Area: 1, notes })]);
    expect(exitCode).toBe(0);
    expect(findings).toEqual([{ file: expect.any(String), feature: null, level: 'warning', message: "the file is 25.0 MB, over the registry's 25 MB limit for one statement: split it", code: 'EUDR_MAXIMUM_GEO_SIZE_REACHED' }]);
  });

  it('an import of a file the registry would refuse sends nothing', async () => {
    const file = t.writeFile('refused.geojson', JSON.stringify({ type: 'FeatureCollection', features: [feature({ type: 'Point', coordinates: at(0, 0) }, { name: 'Asante farm', Area: '3' })] }));
    const r = await t.sct(['origins', 'import', '--file', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: "Area" is the text "3": the registry reads text as 0');
    expect(t.sb.requests).toHaveLength(0);
  });
});
