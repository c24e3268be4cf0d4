// Plot files in the formats suppliers send (cli-spec.md "Files plots come in"): KML and KMZ,
// zipped Shapefiles in WGS 84 and in a UTM zone, GPX waypoints, each checked, imported into the
// sandbox and synced. The fixtures were written by GDAL's ogr2ogr from plots-source.geojson and
// points-source.geojson (test/fixtures/README.md); the UTM file is compared with GDAL's own
// reprojection of it back to WGS 84.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { unzipSync, zipSync } from 'fflate';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Position } from 'geojson';
import { useSandbox } from '../helpers/sandbox.js';
import { dryRunBodies } from '../helpers/dry-run.js';

const t = useSandbox({ rateLimit: 100_000 }, { inProcess: true });

/**
 * One record's content (its shape type first, then its box) as a layer of its own: the .shp,
 * its header's type and box the record's, and the .shx placing the record at byte 100.
 */
function oneRecordLayer(content: Buffer): { 'plots.shp': Buffer; 'plots.shx': Buffer } {
  const header = (length: number) => {
    const h = Buffer.alloc(100);
    h.writeInt32BE(9994, 0);
    h.writeInt32BE(length / 2, 24);
    h.writeInt32LE(1000, 28);
    h.writeInt32LE(content.readInt32LE(0), 32);
    content.copy(h, 36, 4, 36);
    return h;
  };
  const record = Buffer.alloc(8);
  record.writeInt32BE(1, 0);
  record.writeInt32BE(content.length / 2, 4);
  const index = Buffer.alloc(8);
  index.writeInt32BE(50, 0);
  index.writeInt32BE(content.length / 2, 4);
  return { 'plots.shp': Buffer.concat([header(108 + content.length), record, content]), 'plots.shx': Buffer.concat([header(108), index]) };
}
const fixture = (name: string) => join(fileURLToPath(new URL('../fixtures/geo/', import.meta.url)), name);
const geojson = (name: string) => JSON.parse(readFileSync(fixture(name), 'utf8'));
const posts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/origins').map((r) => JSON.parse(r.body));
const SOURCE = geojson('plots-source.geojson').features;

/** The origins `origins import` would create, as --dry-run lists them. */
async function dryRun(file: string, ...args: string[]) {
  const r = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json', ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return dryRunBodies(r.stdout) as Array<{ name: string; country_code: string; external_id?: string; description?: string; location: { type: string; coordinates: unknown } }>;
}

/** `origins import --dry-run` of a file sct refuses: exit 2, saying `said` where given, and nothing sent. */
async function dryRunRefused(file: string, said?: string) {
  const before = t.sb.requests.length;
  const imported = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
  expect(imported.exitCode, imported.stdout).toBe(2);
  if (said !== undefined) expect(imported.stderr).toContain(said);
  expect(t.sb.requests.length).toBe(before);
}

const positions = (c: unknown): Position[] => (typeof (c as unknown[])[0] === 'number' ? [c as Position] : (c as unknown[]).flatMap(positions));

describe('a damaged archive (its bytes do not match the checksum it records)', () => {
  it.each([
    ['plots-shp.zip', 'GH-SEF-0101', 'GH-SEF-0901', /plots\.dbf/],
    ['plots.kmz', 'Asante', 'Esante', /doc\.kml/],
  ])('%s: exit 2 naming the file in it, nothing read into other values', async (name, was, now, part) => {
    const stored = Buffer.from(zipSync(unzipSync(readFileSync(fixture(name))), { level: 0 }));
    const at = stored.indexOf(was);
    expect(at).toBeGreaterThan(0);
    stored.write(now, at);
    const bad = join(t.dir, `damaged-${name}`);
    writeFileSync(bad, stored);
    for (const args of [['origins', 'check', bad], ['origins', 'import', '--file', bad, '--dry-run', '-o', 'json']]) {
      const r = await t.sct(args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr + r.stdout).toMatch(new RegExp(`is damaged: its part .*${part.source}.* does not match the checksum the archive records \\(CRC-32\\)`));
      expect(r.stdout).not.toContain(now);
    }
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });
});

describe('origins check reads KML, KMZ, zipped Shapefiles and GPX', () => {
  it.each([
    ['plots.kml', 'plots.kml: 3 features (0 points, 3 polygons, 23.97 ha): no findings'],
    ['plots.kmz', 'plots.kmz: 3 features (0 points, 3 polygons, 23.97 ha): no findings'],
    // GDAL's LIBKML driver (and QGIS): doc.kml a NetworkLink to layers/plots-source.kml inside the archive.
    ['plots-libkml.kmz', 'plots-libkml.kmz: 3 features (0 points, 3 polygons, 23.97 ha): no findings'],
    ['plots-shp.zip', 'plots-shp.zip: 3 features (0 points, 3 polygons, 23.97 ha): no findings'],
    ['plots-utm30n.zip', 'plots-utm30n.zip: 3 features (0 points, 3 polygons, 23.97 ha): no findings'],
  ])('%s', async (name, summary) => {
    const r = await t.sct(['origins', 'check', fixture(name)]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(summary + '\n');
  });

  it('GPX waypoints are points, named as the file names them', async () => {
    const r = await t.sct(['origins', 'check', '--country-code', 'GH', fixture('points.gpx')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('points.gpx: feature 1 ("GH-SEF-0201 Mensah farm"): warning: a point without an "Area" property: the registry assumes 4 ha');
    expect(r.stdout).toContain('points.gpx: 2 features (2 points, 0 polygons, 0 ha): 2 warnings');
  });

  it('recognises each format by its content on stdin', async () => {
    for (const name of ['plots.kml', 'plots.kmz', 'plots-utm30n.zip', 'points.gpx']) {
      const r = await t.sct(['origins', 'check', '--country-code', 'GH', '-'], { input: readFileSync(fixture(name)) });
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^stdin: .*\d features/m);
    }
  });

  it("reads a KML Area written in <Data>, where every value is text, as the number it spells", async () => {
    const placemark = (area: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Farm A</name><ExtendedData><Data name="ProducerCountry"><value>GH</value></Data><Data name="Area"><value>${area}</value></Data></ExtendedData><Point><coordinates>-1.630001,6.700001</coordinates></Point></Placemark></Document></kml>`;
    const small = await t.sct(['origins', 'check', t.writeFile('area-text.kml', placemark('1.5'))]);
    expect(small.exitCode, small.stdout + small.stderr).toBe(0);
    expect(small.stdout).toBe('area-text.kml: 1 feature (1 point, 0 polygons, 0 ha): no findings\n');
    const big = await t.sct(['origins', 'check', t.writeFile('area-big.kml', placemark('7'))]);
    expect(big.exitCode).toBe(2);
    expect(big.stdout).toContain('error: a point for a plot of 7 ha: plots of more than 4 ha need a polygon (cattle excepted: --commodity cattle)');
    const cattle = await t.sct(['origins', 'check', '--commodity', 'cattle', t.writeFile('area-big.kml', placemark('7'))]);
    expect(cattle.exitCode, cattle.stdout).toBe(0);
  });

  it('refuses a KML ring that is not closed or too short, as in GeoJSON, before anything is sent', async () => {
    const ring = (coordinates: string) => `<LinearRing><coordinates>${coordinates}</coordinates></LinearRing>`;
    const kml = (...polygons: string[]) =>
      `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${polygons
        .map((p, i) => `<Placemark><name>Plot ${i + 1}</name><ExtendedData><Data name="ProducerCountry"><value>GH</value></Data></ExtendedData>${p}</Placemark>`)
        .join('')}</Document></kml>`;
    const file = t.writeFile(
      'rings.kml',
      kml(
        `<Polygon><outerBoundaryIs>${ring('-1.620001,6.690001 -1.619101,6.690001 -1.619101,6.690901 -1.620001,6.690901')}</outerBoundaryIs></Polygon>`,
        `<Polygon><outerBoundaryIs>${ring('-1.620001,6.690001 -1.619101,6.690001')}</outerBoundaryIs></Polygon>`,
        `<MultiGeometry><Polygon><outerBoundaryIs>${ring('-1.610001,6.690001 -1.609101,6.690001 -1.609101,6.690901 -1.610001,6.690001')}</outerBoundaryIs></Polygon><Polygon><outerBoundaryIs>${ring('-1.600001,6.690001 -1.599101,6.690001 -1.599101,6.690901 -1.600001,6.690901 -1.600001,6.690001')}</outerBoundaryIs><innerBoundaryIs>${ring('-1.599901,6.690101 -1.599501,6.690101 -1.599501,6.690501 -1.599901,6.690501')}</innerBoundaryIs></Polygon></MultiGeometry>`,
      ),
    );
    const r = await t.sct(['origins', 'check', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout.split('\n').filter((l) => l.includes(': error: '))).toEqual([
      'rings.kml: feature 1 ("Plot 1"): error: ring 1 (outer) is not closed: it ends at [-1.620001, 6.690901], not at its first position [-1.620001, 6.690001]',
      'rings.kml: feature 2 ("Plot 2"): error: ring 1 (outer) has 2 positions: a ring needs at least 4, the last repeating the first',
      'rings.kml: feature 2 ("Plot 2"): error: no geometry',
      'rings.kml: feature 3 ("Plot 3"): error: polygon 2, ring 2 is not closed: it ends at [-1.599901, 6.690501], not at its first position [-1.599901, 6.690101]',
    ]);
    t.sb.requests.length = 0;
    const imported = await t.sct(['origins', 'import', '--file', file]);
    expect(imported.exitCode).toBe(2);
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('a KML MultiGeometry mixing a point with polygons is said as such, not as a GeometryCollection', async () => {
    const polygon = '<Polygon><outerBoundaryIs><LinearRing><coordinates>-2.491,6.201 -2.481,6.201 -2.481,6.211 -2.491,6.201</coordinates></LinearRing></outerBoundaryIs></Polygon>';
    const placemark = (name: string, parts: string) => `<Placemark><name>${name}</name><MultiGeometry>${parts}</MultiGeometry></Placemark>`;
    const kml = t.writeFile(
      'mixed.kml',
      `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${placemark('Mixed farm', `<Point><coordinates>-2.49,6.2</coordinates></Point>${polygon}`)}${placemark('Two wells', '<Point><coordinates>-2.49,6.2</coordinates></Point><Point><coordinates>-2.48,6.2</coordinates></Point>')}</Document></kml>`,
    );
    const r = await t.sct(['origins', 'check', '--country-code', 'GH', kml]);
    expect(r.exitCode, r.stdout).toBe(2);
    expect(r.stdout.split('\n').filter((l) => l.includes(': error: '))).toEqual([
      'mixed.kml: feature 1 ("Mixed farm"): error: its MultiGeometry mixes a point with a polygon: a plot is one Point, or polygons only (a Polygon or MultiPolygon)',
      'mixed.kml: feature 2 ("Two wells"): error: its MultiGeometry holds 2 points: a plot is one Point, or polygons only (a Polygon or MultiPolygon)',
    ]);
  });

  it('a KML LinearRing given as the Placemark\'s geometry is said as a LinearRing, with where a polygon\'s ring goes; a LineString stays one', async () => {
    const placemark = (name: string, geometry: string) => `<Placemark><name>${name}</name>${geometry}</Placemark>`;
    const coordinates = '<coordinates>-2.489312,6.209871 -2.486904,6.210233 -2.486122,6.208112 -2.489312,6.209871</coordinates>';
    const kml = t.writeFile(
      'ring.kml',
      `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${placemark('Ring farm', `<LinearRing>${coordinates}</LinearRing>`)}${placemark('Track', `<LineString>${coordinates}</LineString>`)}</Document></kml>`,
    );
    const r = await t.sct(['origins', 'check', '--country-code', 'GH', kml]);
    expect(r.exitCode, r.stdout).toBe(2);
    expect(r.stdout.split('\n').filter((l) => l.includes(': error: '))).toEqual([
      'ring.kml: feature 1 ("Ring farm"): error: geometry type "LinearRing" is not accepted: a plot is a Point, Polygon or MultiPolygon (a polygon\'s ring goes in <Polygon><outerBoundaryIs>)',
      'ring.kml: feature 2 ("Track"): error: geometry type "LineString" is not accepted: a plot is a Point, Polygon or MultiPolygon',
    ]);
  });

  it('a KML LinearRing inside a MultiGeometry is said as a LinearRing, with where a polygon\'s ring goes; LineStrings stay lines', async () => {
    const placemark = (name: string, parts: string) => `<Placemark><name>${name}</name><MultiGeometry>${parts}</MultiGeometry></Placemark>`;
    const coordinates = (lng: number) => `<coordinates>${lng},6.209871 ${lng + 0.002408},6.210233 ${lng + 0.00319},6.208112 ${lng},6.209871</coordinates>`;
    const ring = (lng: number) => `<LinearRing>${coordinates(lng)}</LinearRing>`;
    const polygon = `<Polygon><outerBoundaryIs>${ring(-2.479312)}</outerBoundaryIs></Polygon>`;
    const kml = t.writeFile(
      'multi-ring.kml',
      `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${[
        placemark('Two rings', ring(-2.489312) + ring(-2.469312)),
        placemark('Ring and polygon', ring(-2.489312) + polygon),
        placemark('One ring', ring(-2.489312)),
        placemark('Two tracks', `<LineString>${coordinates(-2.489312)}</LineString><LineString>${coordinates(-2.469312)}</LineString>`),
      ].join('')}</Document></kml>`,
    );
    const r = await t.sct(['origins', 'check', '--country-code', 'GH', kml]);
    expect(r.exitCode, r.stdout).toBe(2);
    expect(r.stdout.split('\n').filter((l) => l.includes(': error: '))).toEqual([
      'multi-ring.kml: feature 1 ("Two rings"): error: its MultiGeometry holds 2 LinearRings: a plot is one Point, or polygons only (a Polygon or MultiPolygon); a polygon\'s ring goes in <Polygon><outerBoundaryIs>',
      'multi-ring.kml: feature 2 ("Ring and polygon"): error: its MultiGeometry mixes a LinearRing with a polygon: a plot is one Point, or polygons only (a Polygon or MultiPolygon); a polygon\'s ring goes in <Polygon><outerBoundaryIs>',
      'multi-ring.kml: feature 3 ("One ring"): error: geometry type "LinearRing" is not accepted: a plot is a Point, Polygon or MultiPolygon (a polygon\'s ring goes in <Polygon><outerBoundaryIs>)',
      'multi-ring.kml: feature 4 ("Two tracks"): error: its MultiGeometry holds 2 lines: a plot is one Point, or polygons only (a Polygon or MultiPolygon)',
    ]);
    await dryRunRefused(kml, 'its MultiGeometry holds 2 LinearRings');
  });

  it('names the feature of a KML file by its placemark when a check fails', async () => {
    const kml = readFileSync(fixture('plots.kml'), 'utf8').replace('<description>cocoa, shaded</description>', '<name>Asante farm</name>').replace('-2.489312,6.209871 -2.486904', '6.209871,-2.489312 -2.486904');
    const r = await t.sct(['origins', 'check', t.writeFile('swapped.kml', kml)]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('swapped.kml: feature 1 (GH-SEF-0101 "Asante farm"): error: latitude and longitude look swapped: [6.209871, -2.489312] lies 1,092 km outside Ghana (GH)');
  });

  it('a .prj it cannot read is exit 2 naming it, nothing sent', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('plots-bad-prj.zip')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('plots-bad-prj.zip: plots.prj names a coordinate system sct cannot read');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('GeoJSON that is not valid JSON names the line and column, not a position in bytes', async () => {
    const features = Array.from({ length: 3000 }, (_, i) => `    {"type": "Feature", "properties": {"name": "Plot ${i + 1}"}, "geometry": {"type": "Point", "coordinates": [-2.5, 6.2]}}`);
    const cases: Array<[string, string]> = [
      // A trailing comma on line 1,502 (V8 names no position for it), a missing bracket at the end.
      [`{"type": "FeatureCollection", "features": [\n${features.slice(0, 1500).join(',\n')},\n]}\n`, 'line 1502, column 1'],
      [`{"type": "FeatureCollection", "features": [\n${features.join(',\n')}\n}\n`, 'line 3002, column 1'],
    ];
    for (const [text, where] of cases) {
      const r = await t.sct(['origins', 'check', t.writeFile('broken.geojson', text)]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toContain(`broken.geojson: error: not GeoJSON: not valid JSON at ${where} (`);
    }
  });

  it('a KML ring closed in longitude and latitude but not in altitude is the error it is in GeoJSON', async () => {
    const kml = `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Hill farm</name>
<Polygon><outerBoundaryIs><LinearRing><coordinates>-2.489312,6.209871,100 -2.486904,6.210233,100 -2.486122,6.208112,100 -2.489312,6.209871,101</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>`;
    const r = await t.sct(['origins', 'check', t.writeFile('hill.kml', kml)]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('ring 1 (outer) is closed in longitude and latitude only');
  });

  it('KML and GPX with a UTF-8 byte-order mark (and CRLF) are read, and the XML parser writes nothing of its own', async () => {
    for (const name of ['plots.kml', 'points.gpx']) {
      const text = readFileSync(fixture(name), 'utf8').replace(/\r?\n/g, '\r\n');
      const file = t.writeFile(`bom-${name}`, '\ufeff' + text);
      const plain = await t.sct(['origins', 'check', '-o', 'json', fixture(name)]);
      const r = await t.sct(['origins', 'check', '-o', 'json', file]);
      expect(r.exitCode, r.stderr).toBe(plain.exitCode);
      expect(r.stdout.replaceAll(`bom-${name}`, name)).toBe(plain.stdout);
    }
    const broken = await t.sctBin(['origins', 'check', t.writeFile('broken.kml', '<kml><Document><Placemark></Document>')]);
    expect(broken.exitCode).toBe(2);
    expect(broken.stdout).toContain('not KML: not well-formed XML');
    expect(broken.stderr).not.toContain('[xmldom');
  });

  it('a description is kept: a GPX waypoint\'s <desc>, and a number given as a GeoJSON description', async () => {
    const gpx = await dryRun(fixture('points.gpx'), '--country-code', 'GH');
    expect(gpx.map((o) => o.description)).toEqual(['1.8 ha, cocoa', '2.5 ha, cocoa']);
    const file = t.writeFile('numeric-description.geojson', JSON.stringify({ type: 'Feature', properties: { name: 'Plot 7', country_code: 'GH', description: 42 }, geometry: { type: 'Point', coordinates: [-2.5, 6.2] } }));
    const [origin] = await dryRun(file);
    expect(origin.description).toBe('42');
  });

  it('a DBF without a .cpg is read in the code page its header names (GDAL writes Latin-1, code page byte 87)', async () => {
    const [origin] = await dryRun(fixture('plots-latin1-dbf.zip'));
    expect(origin.name).toBe('Ferme Kouassi Côte');
    expect(origin.external_id).toBe('CI-Ré-1');
  });

  it('a .prj on a datum it cannot shift to WGS 84 (an ESRI .prj gives no parameters) is exit 2 naming it, nothing sent', async () => {
    // Accra / Ghana grid: read without the datum shift, the plots landed about 300 m off.
    for (const args of [['origins', 'check', fixture('plots-accra-grid.zip')], ['origins', 'import', '--file', fixture('plots-accra-grid.zip')]]) {
      const r = await t.sct(args);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('plots-accra-grid.zip: plots.prj is on the datum D_Accra, which sct cannot shift to WGS 84');
    }
    expect(t.sb.requests).toHaveLength(0);
  });

  it('reads a Shapefile on a datum that is WGS 84 to the metre (SIRGAS 2000) as GDAL does', async () => {
    const origins = await dryRun(fixture('plots-sirgas2000.zip'));
    const source = geojson('plots-source.geojson').features;
    expect(origins).toHaveLength(source.length);
    origins.forEach((o, i) => {
      const ours = positions(o.location.coordinates);
      const theirs = positions(source[i].geometry.coordinates);
      expect(ours).toHaveLength(theirs.length);
      ours.forEach((p, j) => p.forEach((v, k) => expect(Math.abs(v - theirs[j][k])).toBeLessThan(1e-6)));
    });
  });

  it.each([
    // proj4's own shift for Belge 1972 has its rotations' signs turned: about 190 m off.
    ['plots-belge72.zip', [4.350001, 50.850001]],
    // S-JTSK with proj4's three parameters: about 8 m off.
    ['plots-sjtsk-krovak.zip', [15.000001, 50.000001]],
    // ESRI Mercator with Standard_Parallel_1 (-2°): read at the equator's scale, about 830 m off.
    ['plots-brazil-mercator.zip', [-46.600001, -12.000001]],
  ])('reads %s where GDAL wrote it from, within 0.1 m', async (file, [lon, lat]) => {
    const [origin] = await dryRun(fixture(file));
    const [x, y] = origin.location.coordinates as number[];
    const metres = Math.hypot((x - lon) * 111_320 * Math.cos((lat * Math.PI) / 180), (y - lat) * 110_540);
    expect(metres).toBeLessThan(0.1);
  });

  it('a .prj proj4 cannot project with (NZ Map Grid) is exit 2 naming the .prj, not the geometry', async () => {
    for (const args of [['origins', 'check', fixture('plots-nzmg.zip')], ['origins', 'import', '--file', fixture('plots-nzmg.zip')]]) {
      const r = await t.sct(args);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('plots-nzmg.zip: plots.prj names a coordinate system sct cannot read');
      expect(r.stderr).not.toContain('coordinates must be');
    }
    expect(t.sb.requests).toHaveLength(0);
  });

  it('reprojects a Shapefile in UTM zone 30N by its .prj as GDAL does, to 1e-6 degrees', async () => {
    const origins = await dryRun(fixture('plots-utm30n.zip'));
    const gdal = geojson('plots-utm30n-gdal.geojson').features;
    expect(origins).toHaveLength(gdal.length);
    origins.forEach((o, i) => {
      const ours = positions(o.location.coordinates);
      const theirs = positions(gdal[i].geometry.coordinates);
      expect(ours).toHaveLength(theirs.length);
      ours.forEach((p, k) => {
        expect(Math.abs(p[0] - theirs[k][0])).toBeLessThan(1e-6);
        expect(Math.abs(p[1] - theirs[k][1])).toBeLessThan(1e-6);
      });
    });
  });

  it('reads the DBF’s 10-character names as the full ones', async () => {
    const origins = await dryRun(fixture('plots-shp.zip'));
    expect(origins.map((o) => [o.name, o.country_code, o.external_id, o.description])).toEqual(
      SOURCE.map((f: { properties: Record<string, string> }) => [f.properties.ProductionPlace, f.properties.ProducerCountry, f.properties.external_id, f.properties.description]),
    );
  });

  it('a zipped Shapefile without its .dbf is read with a warning that its attributes are missing', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const shapes = Object.fromEntries(Object.entries(entries).filter(([n]) => !n.endsWith('.dbf')));
    const zip = join(t.dir, 'no-dbf.zip');
    writeFileSync(zip, zipSync(shapes));
    const r = await t.sct(['origins', 'check', '-o', 'json', zip]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual(expect.objectContaining({ feature: null, level: 'warning', message: 'plots.shp has no .dbf beside it in the archive: its plots are read without their attributes (names, country, area)' }));
  });
});

describe('plot files as suppliers send them, read whole or refused', () => {
  const kmlText = () => readFileSync(fixture('plots.kml'), 'utf8');
  const zipOf = (files: Record<string, Uint8Array | string>) => {
    const file = join(t.dir, `archive-${Object.keys(files).join('-').replace(/[^\w.-]/g, '_')}.zip`);
    writeFileSync(file, zipSync(Object.fromEntries(Object.entries(files).map(([n, v]) => [n, typeof v === 'string' ? Buffer.from(v) : v]))));
    return file;
  };

  it('a ZIP holding a second KML, or a KML and a Shapefile, is exit 2 naming what would not be read, nothing sent', async () => {
    const second = kmlText().replaceAll('Asante farm', 'Second farm');
    const shp = unzipSync(readFileSync(fixture('plots-shp.zip')));
    for (const [zip, unread] of [
      [zipOf({ 'farm1.kml': kmlText(), 'farm2.kml': second }), 'farm2.kml'],
      [zipOf({ 'overview.kml': kmlText(), ...shp }), 'plots.shp'],
    ] as const) {
      const check = await t.sct(['origins', 'check', zip]);
      expect(check.exitCode, check.stdout).toBe(2);
      expect(check.stdout + check.stderr).toContain(unread);
      const before = t.sb.requests.length;
      const imported = await t.sct(['origins', 'import', '--file', zip, '--yes']);
      expect(imported.exitCode).toBe(2);
      expect(imported.stderr).toContain(unread);
      expect(t.sb.requests.length).toBe(before);
    }
  });

  it('a KML or GPX declaring ISO-8859-1 is read in it; one that is not UTF-8 and declares nothing else is exit 2', async () => {
    const latin1 = (text: string) => Buffer.from(text.replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1');
    const kml = join(t.dir, 'latin1.kml');
    writeFileSync(kml, latin1(kmlText().replaceAll('Asante farm', 'Côte Asante')));
    const origins = await dryRun(kml);
    expect(origins.map((o) => o.name)).toContain('Côte Asante, Sefwi Wiawso');
    const gpx = join(t.dir, 'latin1.gpx');
    writeFileSync(gpx, latin1(readFileSync(fixture('points.gpx'), 'utf8').replaceAll('Mensah farm', 'Parcelle Côte')));
    const points = await dryRun(gpx, '--country-code', 'GH');
    expect(points.map((o) => o.name)).toContain('GH-SEF-0201 Parcelle Côte');
    const undeclared = join(t.dir, 'undeclared.kml');
    writeFileSync(undeclared, Buffer.from(kmlText().replace(' encoding="utf-8"', '').replaceAll('Asante farm', 'Côte Asante'), 'latin1'));
    const r = await t.sct(['origins', 'check', undeclared]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/not UTF-8/);
  });

  it('a point whose DBF "Area" is null (GDAL writes ****) has no Area: the 4 ha warning, not an error', async () => {
    const r = await t.sct(['origins', 'check', fixture('points-null-area.zip')]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain('feature 2 (GH-P-2 "Darko farm"): warning: a point without an "Area" property: the registry assumes 4 ha');
    expect(r.stdout).not.toContain('too large');
  });

  it('a DBF record marked deleted is not a plot, as GDAL reads it', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const dbf = Buffer.from(entries['plots.dbf']!);
    const headerLength = dbf.readUInt16LE(8);
    const recordLength = dbf.readUInt16LE(10);
    dbf[headerLength + recordLength] = 0x2a; // the second record's deletion flag
    const origins = await dryRun(zipOf({ ...entries, 'plots.dbf': dbf }));
    expect(origins.map((o) => o.external_id)).toEqual([SOURCE[0].properties.external_id, SOURCE[2].properties.external_id]);
  });

  it('a Shapefile polygon with a hole outside every outer ring is refused naming the layer and record, never read without that ring', async () => {
    // orphan-hole-shp.zip: ring 1 clockwise, ring 2 counter-clockwise (a hole) beside it, not in it.
    const file = fixture('orphan-hole-shp.zip');
    const r = await t.sct(['origins', 'check', file]);
    expect(r.exitCode, r.stdout).toBe(2);
    expect(r.stdout).toContain('orphan-hole-shp.zip: feature 1 (CI-ORPH-1 "Kone farm, Daloa"): error: plots.shp record 1 holds 2 rings, of which 1 is a hole (counter-clockwise) that lies inside no outer ring: a hole must be inside the polygon it cuts');
    const before = t.sb.requests.length;
    const imported = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(imported.exitCode).toBe(2);
    expect(imported.stdout + imported.stderr).toContain('plots.shp record 1 holds 2 rings, of which 1 is a hole (counter-clockwise) that lies inside no outer ring');
    expect(t.sb.requests.length).toBe(before);
  });

  it('a .shp cut short, or a .dbf of fewer records than the .shp has shapes, is exit 2 naming the layer, never a plot fewer or one without its attributes', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const shp = entries['plots.shp']!;
    const dbf = Buffer.from(entries['plots.dbf']!);
    const twoRecords = Buffer.concat([dbf.subarray(0, dbf.readUInt16LE(8) + 2 * dbf.readUInt16LE(10)), Buffer.from([0x1a])]);
    twoRecords.writeUInt32LE(2, 4);
    for (const [zip, files, said] of [
      // As `truncate -s -30 plots.shp` leaves it.
      ['shp-cut.zip', { 'plots.shp': shp.subarray(0, shp.length - 30) }, `shp-cut.zip: plots.shp ends inside record 3 (its header gives ${shp.length} bytes, the file has ${shp.length - 30}): the file is cut short`],
      ['dbf-short.zip', { 'plots.dbf': twoRecords }, 'dbf-short.zip: plots.shx lists 3 shapes and plots.dbf 2 records: which attributes are whose cannot be told'],
      ['dbf-cut.zip', { 'plots.dbf': dbf.subarray(0, dbf.length - 30) }, 'dbf-cut.zip: plots.dbf ends inside record 3 of the 3 its header counts: the file is cut short'],
    ] as const) {
      const file = t.writeFile(zip, Buffer.from(zipSync({ ...entries, ...files })));
      const check = await t.sct(['origins', 'check', file]);
      expect(check.exitCode, check.stdout).toBe(2);
      expect(check.stderr).toContain(`error: ${said}`);
      await dryRunRefused(file, said);
    }
  });

  it('a .shp longer than its header gives (padding after the last record) is read to that length; one whose header gives more is cut only when it holds fewer records than its .shx lists', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const shp = Buffer.from(entries['plots.shp']!);
    // GDAL reads each of these as the three plots.
    for (const padding of [4, 8, 100]) {
      const file = t.writeFile(`padded-${padding}.zip`, Buffer.from(zipSync({ ...entries, 'plots.shp': Buffer.concat([shp, Buffer.alloc(padding)]) })));
      const r = await t.sct(['origins', 'check', file]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(`padded-${padding}.zip: 3 features (0 points, 3 polygons, 23.97 ha): no findings\n`);
    }
    const overstated = Buffer.from(shp);
    overstated.writeInt32BE((shp.length + 200) / 2, 24);
    const over = t.writeFile('overstated.zip', Buffer.from(zipSync({ ...entries, 'plots.shp': overstated })));
    const o = await t.sct(['origins', 'check', over]);
    expect(o.exitCode, o.stderr).toBe(0);
    expect(o.stdout).toBe('overstated.zip: 3 features (0 points, 3 polygons, 23.97 ha): no findings\n');
    // Without its .shx nothing says how many records there are: the header's length is all.
    const { 'plots.shx': _shx, ...noShx } = entries;
    const bare = await t.sct(['origins', 'check', t.writeFile('overstated-no-shx.zip', Buffer.from(zipSync({ ...noShx, 'plots.shp': overstated })))]);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toContain(`error: overstated-no-shx.zip: plots.shp ends after record 3 (its header gives ${shp.length + 200} bytes, the file has ${shp.length}): the file is cut short`);
    // Cut after record 2 (it starts at 472): whole records, one fewer than plots.shx lists.
    const cut = t.writeFile('cut-whole.zip', Buffer.from(zipSync({ ...entries, 'plots.shp': shp.subarray(0, 472) })));
    const c = await t.sct(['origins', 'check', cut]);
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toContain('error: cut-whole.zip: plots.shp ends before record 3, which plots.shx places at byte 472 (the file has 472): the file is cut short');
  });

  it('records are read where the .shx places them (a GIS editing in place writes a grown record at the end); without a .shx, bytes past the header that make no record are none', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const shp = Buffer.from(entries['plots.shp']!);
    const shx = Buffer.from(entries['plots.shx']!);
    // Record 1 rewritten at the end (here: as the third plot), the .shx pointing there; its old bytes stay.
    const third = shp.subarray(472);
    const moved = Buffer.concat([shp, third]);
    moved.writeInt32BE(1, shp.length);
    moved.writeInt32BE(moved.length / 2, 24);
    // The entry gives the new record's place and length (GDAL reads none where it gives the old length).
    const edited = Buffer.from(shx);
    edited.writeInt32BE(shp.length / 2, 100);
    edited.writeInt32BE((third.length - 8) / 2, 104);
    const file = t.writeFile('edited-in-place.zip', Buffer.from(zipSync({ ...entries, 'plots.shp': moved, 'plots.shx': edited })));
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const bodies = dryRunBodies(r.stdout) as Array<{ location: unknown }>;
    expect(bodies).toHaveLength(3);
    expect(bodies[0]!.location).toEqual(bodies[2]!.location);
    // No .shx: a tail that is no record past the header's length (an end-of-file mark, a copy's tail) is left.
    const { 'plots.shx': _shx, ...noShx } = entries;
    for (const tail of ['\u001a', 'GARBAGE-GARBAGE!']) {
      const tailed = t.writeFile(`tail-${tail.length}.zip`, Buffer.from(zipSync({ ...noShx, 'plots.shp': Buffer.concat([shp, Buffer.from(tail)]) })));
      const c = await t.sct(['origins', 'check', tailed]);
      expect(c.exitCode, c.stderr).toBe(0);
      expect(c.stdout).toBe(`tail-${tail.length}.zip: 3 features (0 points, 3 polygons, 23.97 ha): no findings\n`);
    }
  });

  it('a .shx entry that places a record where none starts (in the header, inside a record, on another record, on bytes that are no record, on a record of another length) is exit 2 naming the .shx, nothing sent', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const shp = Buffer.from(entries['plots.shp']!);
    // plots.shp's records start at 100, 252 and 472; a .shx entry gives the offset in 16-bit words.
    const placing = (record: number, at: number) => {
      const shx = Buffer.from(entries['plots.shx']!);
      shx.writeInt32BE(at / 2, 100 + 8 * (record - 1));
      return shx;
    };
    const giving = (record: number, bytes: number) => {
      const shx = Buffer.from(entries['plots.shx']!);
      shx.writeInt32BE(bytes / 2, 104 + 8 * (record - 1));
      return shx;
    };
    const tailed = Buffer.concat([shp, Buffer.from('GARBAGE-GARBAGE!')]);
    for (const [zip, files, said] of [
      ['mid-record.zip', { 'plots.shx': placing(2, 256) }, 'plots.shx places record 2 at byte 256, inside record 2 of plots.shp (bytes 252 to 471), where no record starts'],
      ['mid-last.zip', { 'plots.shx': placing(3, 480) }, 'plots.shx places record 3 at byte 480, inside record 3 of plots.shp (bytes 472 to 607), where no record starts'],
      // The .shp copied in as the .shx: its first entry is record 1's header, 1 and its length.
      ['shp-as-shx.zip', { 'plots.shx': shp }, 'plots.shx places record 1 at byte 2, inside the 100-byte header of plots.shp, where no record starts'],
      ['on-another.zip', { 'plots.shx': placing(2, 472) }, 'plots.shx places record 2 at byte 472, where the record header of plots.shp gives record number 3'],
      ['on-no-record.zip', { 'plots.shp': tailed, 'plots.shx': placing(3, 608) }, 'plots.shx places record 3 at byte 608, where no record of plots.shp starts: the record header read there gives a length of 2190379610 bytes, and the file has 624'],
      // Record 2's entry giving 200 bytes where its record header gives 212.
      ['other-length.zip', { 'plots.shx': giving(2, 200) }, 'plots.shx places record 2 at byte 252, where the record header of plots.shp gives a length of 212 bytes, and plots.shx 200'],
    ] as const) {
      const file = t.writeFile(zip, Buffer.from(zipSync({ ...entries, ...files })));
      const check = await t.sct(['origins', 'check', file]);
      expect(check.exitCode, check.stdout).toBe(2);
      expect(check.stderr).toContain(`error: ${zip}: ${said}\n`);
      expect(check.stderr).toContain('hint: export the layer again, or zip it without plots.shx: sct then reads the records of plots.shp one after another');
      await dryRunRefused(file, said);
    }
    // Without the .shx the same records are read one after another, as the hint says.
    const { 'plots.shx': _shx, ...noShx } = entries;
    const bare = await t.sct(['origins', 'check', t.writeFile('mid-record-no-shx.zip', Buffer.from(zipSync(noShx)))]);
    expect(bare.exitCode, bare.stderr).toBe(0);
    expect(bare.stdout).toBe('mid-record-no-shx.zip: 3 features (0 points, 3 polygons, 23.97 ha): no findings\n');
  });

  it('a layer numbered from 0 (or all 1) with a record rewritten shorter in place, its old tail left (GDAL\'s SHPWriteObject), is read by its .shx as GDAL reads it; an entry inside a record is still refused', async () => {
    // rewritten-shp.zip (test/fixtures/README.md): record 2 ends at 372, its old tail runs to 436,
    // where record 3 starts; read as a record header, the tail gives number 0 and bytes 372 to 11003.
    const entries = unzipSync(readFileSync(fixture('rewritten-shp.zip')));
    const numbered = (number: (i: number) => number) => {
      const shp = Buffer.from(entries['plots.shp']!);
      const shx = Buffer.from(entries['plots.shx']!);
      for (let i = 0; 108 + 8 * i <= shx.length; i++) shp.writeInt32BE(number(i), shx.readInt32BE(100 + 8 * i) * 2);
      return shp;
    };
    for (const [zip, files] of [
      ['rewritten-shp.zip', {}],
      ['rewritten-1-based.zip', { 'plots.shp': numbered((i) => i + 1) }],
      ['rewritten-all-1.zip', { 'plots.shp': numbered(() => 1) }],
    ] as const) {
      const file = t.writeFile(zip, Buffer.from(zipSync({ ...entries, ...files })));
      const check = await t.sct(['origins', 'check', file]);
      expect(check.exitCode, check.stderr).toBe(0);
      expect(check.stdout).toBe(`${zip}: 10 features (0 points, 10 polygons, 39.81 ha): no findings\n`);
      const imported = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
      expect(imported.exitCode, imported.stderr).toBe(0);
      const bodies = dryRunBodies(imported.stdout) as Array<{ external_id: string; location: { coordinates: number[][][] } }>;
      expect(bodies.map((b) => b.external_id)).toEqual(Array.from({ length: 10 }, (_v, i) => `CI-RW-${i + 1}`));
      // Record 2 as rewritten: its ring's first 4 points, closed.
      expect(bodies[1]!.location.coordinates).toEqual([[[-5.001234, 5.998766], [-5.001234, 6.001234], [-4.998766, 6.001234], [-4.998766, 5.998766], [-5.001234, 5.998766]]]);
    }
    // Entry 3 moved 4 bytes into record 3: refused, the walk from byte 100 (lost in the old tail) not named;
    // the records cannot be read one after another either, so that is not offered.
    const shx = Buffer.from(entries['plots.shx']!);
    shx.writeInt32BE(440 / 2, 100 + 8 * 2);
    const moved = t.writeFile('rewritten-moved.zip', Buffer.from(zipSync({ ...entries, 'plots.shx': shx })));
    const said = 'plots.shx places record 3 at byte 440, where no record of plots.shp starts: the record header read there gives a length of 167772160 bytes, and the file has 13300';
    const check = await t.sct(['origins', 'check', moved]);
    expect(check.exitCode, check.stdout).toBe(2);
    expect(check.stderr).toBe(`error: rewritten-moved.zip: ${said}\nhint: export the layer again\n`);
    await dryRunRefused(moved, said);
    // Without the .shx the old tail is read as a record header (as GDAL's SHAPE_RESTORE_SHX reads it:
    // "Invalid length for entity 3"), and what follows is no record: not a file cut short.
    const { 'plots.shx': _shx, ...noShx } = entries;
    const bare = await t.sct(['origins', 'check', t.writeFile('rewritten-no-shx.zip', Buffer.from(zipSync(noShx)))]);
    expect(bare.exitCode, bare.stdout).toBe(2);
    expect(bare.stderr).toMatch(/^error: rewritten-no-shx\.zip: plots\.shp holds no record at byte 11004, where record 4 would start, its records read one after another: the record header read there gives a length of -?\d+ bytes, and the file has 13300\n/);
    expect(bare.stderr).toContain('hint: export the layer again, and send its .shx with it: the records are then read where it places them\n');
    expect(bare.stderr).not.toContain('cut short');
  });

  it('a .shp whose records, read one after another, reach a record header giving more than the file holds is cut short only where its header gives more too', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const shp = Buffer.from(entries['plots.shp']!);
    const { 'plots.shx': _shx, ...noShx } = entries;
    // plots.shp's records end at 608; after them a record header, number 4 and 200 bytes, and 8 bytes.
    const tail = Buffer.alloc(16);
    tail.writeInt32BE(4, 0);
    tail.writeInt32BE(100, 4);
    const tailed = Buffer.concat([shp, tail]);
    tailed.writeInt32BE(tailed.length / 2, 24);
    const r = await t.sct(['origins', 'check', t.writeFile('tail-header.zip', Buffer.from(zipSync({ ...noShx, 'plots.shp': tailed })))]);
    expect(r.exitCode, r.stdout).toBe(2);
    expect(r.stderr).toBe('error: tail-header.zip: plots.shp holds no record at byte 608, where record 4 would start, its records read one after another: the record header read there gives a length of 200 bytes, and the file has 624\nhint: export the layer again, and send its .shx with it: the records are then read where it places them\n');
    // With its .shx, record 3 (bytes 472 to 607 by its record header and the .shx) cut 30 bytes short
    // under a header giving the cut length.
    const cut = Buffer.from(shp.subarray(0, shp.length - 30));
    cut.writeInt32BE(cut.length / 2, 24);
    const c = await t.sct(['origins', 'check', t.writeFile('cut-restated.zip', Buffer.from(zipSync({ ...entries, 'plots.shp': cut })))]);
    expect(c.exitCode, c.stdout).toBe(2);
    expect(c.stderr).toContain(`error: cut-restated.zip: plots.shp ends inside record 3 (bytes 472 to 607 by its record header and plots.shx, the file has ${shp.length - 30}): the file is cut short\n`);
  });

  it('a .shx that is no index (another file code, a header length under 100 or past its end, under 100 bytes, a .dbf renamed) is exit 2 naming it, as GDAL refuses it', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const shx = Buffer.from(entries['plots.shx']!);
    const withWord = (at: number, value: number) => {
      const edited = Buffer.from(shx);
      edited.writeInt32BE(value, at);
      return edited;
    };
    for (const [zip, index, said] of [
      ['code-1234.zip', withWord(0, 1234), 'plots.shx is no Shapefile index: its file code is 1234, not 9994'],
      ['dbf-as-shx.zip', Buffer.from(entries['plots.dbf']!), `plots.shx is no Shapefile index: its file code is ${Buffer.from(entries['plots.dbf']!).readInt32BE(0)}, not 9994`],
      ['shx-short.zip', shx.subarray(0, 60), 'plots.shx is no Shapefile index: it holds 60 bytes, fewer than its 100-byte header'],
      ['shx-length-0.zip', withWord(24, 0), 'plots.shx is no Shapefile index: its header gives a length of 0 bytes, less than the header\'s own 100'],
      ['shx-length-over.zip', withWord(24, (shx.length + 16) / 2), `plots.shx ends before the entries its header gives (${shx.length + 16} bytes, the file has ${shx.length}): the file is cut short`],
    ] as const) {
      const file = t.writeFile(zip, Buffer.from(zipSync({ ...entries, 'plots.shx': index })));
      const check = await t.sct(['origins', 'check', file]);
      expect(check.exitCode, check.stdout).toBe(2);
      expect(check.stderr).toContain(`error: ${zip}: ${said}\n`);
      expect(check.stderr).toContain('hint: export the layer again, or zip it without plots.shx: sct then reads the records of plots.shp one after another');
      await dryRunRefused(file);
    }
  });

  it('a .shp whose header gives fewer bytes than its records take (236, 0, under 100, negative) is read whole, as GDAL reads it by its .shx, with or without the .shx', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const shp = Buffer.from(entries['plots.shp']!);
    const { 'plots.shx': _shx, ...noShx } = entries;
    for (const words of [118, 0, 40, -1]) {
      const understated = Buffer.from(shp);
      understated.writeInt32BE(words, 24);
      for (const [label, others] of [['shx', entries], ['no-shx', noShx]] as const) {
        const file = t.writeFile(`understated-${words}-${label}.zip`, Buffer.from(zipSync({ ...others, 'plots.shp': understated })));
        const r = await t.sct(['origins', 'check', file]);
        expect(r.exitCode, r.stderr).toBe(0);
        expect(r.stdout).toContain(`understated-${words}-${label}.zip: 3 features (0 points, 3 polygons, 23.97 ha)`);
      }
    }
    // Zeros after the records, under such a header too, are padding.
    const padded = Buffer.concat([shp, Buffer.alloc(16)]);
    padded.writeInt32BE(50, 24);
    const p = await t.sct(['origins', 'check', t.writeFile('understated-padded.zip', Buffer.from(zipSync({ ...entries, 'plots.shp': padded })))]);
    expect(p.exitCode, p.stderr).toBe(0);
    expect(p.stdout).toBe('understated-padded.zip: 3 features (0 points, 3 polygons, 23.97 ha): no findings\n');
  });

  it('a MultiPatch layer (shpjs would read each record as a point at its box\'s corner), a MultiPointZ layer, or a record of another type than its layer is exit 2 naming the layer, nothing sent', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const retyped = (at: number, type: number) => {
      const shp = Buffer.from(entries['plots.shp']!);
      shp.writeInt32LE(type, at);
      return shp;
    };
    // plots.shp's records start at 100, 252 and 472; a shape's type is the first word of its content.
    for (const [file, said] of [
      [fixture('multipatch-shp.zip'), 'multipatch-shp.zip: plots.shp: MultiPatch shapes are not read: export the layer as polygons'],
      [t.writeFile('multipointz.zip', Buffer.from(zipSync({ ...entries, 'plots.shp': retyped(32, 18) }))), 'multipointz.zip: plots.shp: MultiPointZ shapes are not read: export the layer as points'],
      [t.writeFile('mixed-types.zip', Buffer.from(zipSync({ ...entries, 'plots.shp': retyped(252 + 8, 31) }))), 'mixed-types.zip: plots.shp is not a readable Shapefile (record 2 is a MultiPatch shape in a layer of Polygon shapes: a layer holds shapes of one type)'],
    ] as const) {
      const check = await t.sct(['origins', 'check', file]);
      expect(check.exitCode, check.stdout).toBe(2);
      expect(check.stderr).toContain(`error: ${said}`);
      expect(check.stdout).not.toContain('point');
      await dryRunRefused(file, said);
    }
  });

  it('a polygon record with an empty part (GDAL: "Corrupted .shp file") is exit 2 naming the layer and record, its altitudes never read from the wrong bytes', async () => {
    // orphan-hole-shp.zip's plot as one PolygonZ record whose parts start at 0 and 0 over its 5 points.
    const ring = [[-5.512345, 6.812345, 210], [-5.512345, 6.822345, 211], [-5.502345, 6.822345, 212], [-5.502345, 6.812345, 213], [-5.512345, 6.812345, 210]];
    const content = Buffer.alloc(4 + 32 + 4 + 4 + 2 * 4 + ring.length * 16 + 16 + ring.length * 8);
    content.writeInt32LE(15, 0);
    [-5.512345, 6.812345, -5.502345, 6.822345].forEach((v, i) => content.writeDoubleLE(v, 4 + 8 * i));
    content.writeInt32LE(2, 36);
    content.writeInt32LE(ring.length, 40);
    // Both parts start at 0: the first holds no points.
    ring.forEach(([x, y, z], i) => {
      content.writeDoubleLE(x!, 52 + 16 * i);
      content.writeDoubleLE(y!, 60 + 16 * i);
      content.writeDoubleLE(z!, 52 + 16 * ring.length + 16 + 8 * i);
    });
    content.writeDoubleLE(210, 52 + 16 * ring.length);
    content.writeDoubleLE(213, 60 + 16 * ring.length);
    const entries = unzipSync(readFileSync(fixture('orphan-hole-shp.zip')));
    const file = t.writeFile('empty-part.zip', Buffer.from(zipSync({ ...entries, ...oneRecordLayer(content) })));
    const said = 'empty-part.zip: plots.shp is not a readable Shapefile (record 1 is damaged: its part 1 holds no points)';
    const check = await t.sct(['origins', 'check', file]);
    expect(check.exitCode, check.stdout).toBe(2);
    expect(check.stderr).toContain(`error: ${said}`);
    await dryRunRefused(file, said);
  });

  it('a polygon record whose first part does not start at point 0, of a negative part count, or of more points than it holds is exit 2 naming the layer and record, nothing sent', async () => {
    // Two closed rings of 5 points as one Polygon record, its parts and point count as given.
    const polygonShp = (parts: number[], partCount = parts.length, pointCount = 10) => {
      const ring = (x: number) => [[x, 6.81], [x, 6.82], [x + 0.01, 6.82], [x + 0.01, 6.81], [x, 6.81]];
      const points = [...ring(-5.51), ...ring(-5.49)];
      const content = Buffer.alloc(44 + 4 * parts.length + 16 * points.length);
      content.writeInt32LE(5, 0);
      [-5.51, 6.81, -5.48, 6.82].forEach((v, i) => content.writeDoubleLE(v, 4 + 8 * i));
      content.writeInt32LE(partCount, 36);
      content.writeInt32LE(pointCount, 40);
      parts.forEach((start, i) => content.writeInt32LE(start, 44 + 4 * i));
      points.forEach(([x, y], i) => {
        content.writeDoubleLE(x!, 44 + 4 * parts.length + 16 * i);
        content.writeDoubleLE(y!, 52 + 4 * parts.length + 16 * i);
      });
      return oneRecordLayer(content);
    };
    const entries = unzipSync(readFileSync(fixture('orphan-hole-shp.zip')));
    const good = await t.sct(['origins', 'check', t.writeFile('two-parts.zip', Buffer.from(zipSync({ ...entries, ...polygonShp([0, 5]) })))]);
    expect(good.exitCode, good.stderr).toBe(0);
    for (const [label, shp, why] of [
      // shpjs reads the first ring from point 0 whatever the record gives; GDAL from point 1 ("Non closed ring").
      ['first-part-at-1', polygonShp([1, 5]), 'record 1 is damaged: its part 1 starts at point 1, not at its first point (0)'],
      ['negative-parts', polygonShp([0], -1), 'record 1 is damaged: it gives -1 parts'],
      ['points-past-end', polygonShp([0, 5], 2, 1000), 'record 1 is damaged: its 2 parts and 1000 points take 16052 bytes, and the record holds 212'],
    ] as const) {
      const file = t.writeFile(`${label}.zip`, Buffer.from(zipSync({ ...entries, ...shp })));
      const said = `${label}.zip: plots.shp is not a readable Shapefile (${why})`;
      const check = await t.sct(['origins', 'check', file]);
      expect(check.exitCode, check.stdout).toBe(2);
      expect(check.stderr).toContain(`error: ${said}`);
      await dryRunRefused(file, said);
    }
  });

  it('a .shp, .shx or .dbf given alone is exit 2 saying a Shapefile is read from a ZIP of its files', async () => {
    const entries = unzipSync(readFileSync(fixture('plots-shp.zip')));
    for (const part of ['plots.shp', 'plots.dbf', 'plots.shx']) {
      const file = join(t.dir, part);
      writeFileSync(file, entries[part]!);
      for (const args of [['origins', 'check', file], ['origins', 'import', '--file', file, '--dry-run']]) {
        const r = await t.sct(args);
        expect(r.exitCode).toBe(2);
        expect(r.stdout + r.stderr).toContain('a Shapefile is read from a .zip of its .shp, .shx, .dbf and .prj');
      }
    }
  });

  it('a GPX or GeoJSON file in a ZIP beside a Shapefile or a KML is exit 2 naming it, never left out', async () => {
    const shp = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const gpx = readFileSync(fixture('points.gpx'));
    for (const [zip, unread] of [
      [zipOf({ ...shp, 'points.gpx': gpx }), 'points.gpx'],
      [zipOf({ ...shp, 'more.geojson': readFileSync(fixture('valid.geojson')) }), 'more.geojson'],
      [zipOf({ 'plots.kml': kmlText(), 'points.gpx': gpx }), 'points.gpx'],
    ] as const) {
      const r = await t.sct(['origins', 'check', zip]);
      expect(r.exitCode, r.stdout).toBe(2);
      expect(r.stdout + r.stderr).toContain(`the archive holds plot files sct would not read: ${unread}`);
    }
  });

  it('a .json in a ZIP that holds no GeoJSON (a survey\'s metadata) is no plot file: the Shapefile is read', async () => {
    const shp = unzipSync(readFileSync(fixture('plots-shp.zip')));
    const r = await t.sct(['origins', 'check', zipOf({ ...shp, 'metadata.json': '{"source":"survey"}' })]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain('3 features (0 points, 3 polygons, 23.97 ha): no findings');
  });

  it('a .shp on stdin is known by its file code, as by its name', async () => {
    const shp = Buffer.from(unzipSync(readFileSync(fixture('plots-shp.zip')))['plots.shp']!);
    for (const args of [['origins', 'check', '-'], ['origins', 'import', '--file', '-', '--dry-run']]) {
      const r = await t.sct(args, { input: shp });
      expect(r.exitCode).toBe(2);
      expect(r.stdout + r.stderr).toContain('a Shapefile is read from a .zip of its .shp, .shx, .dbf and .prj');
    }
  });

  it('a KML saved as .gpx or .geojson, a GPX saved as .kml, is read by what it holds', async () => {
    for (const [name, content] of [['plots.gpx', kmlText()], ['plots.geojson', kmlText()]] as const) {
      const r = await t.sct(['origins', 'check', t.writeFile(name, content)]);
      expect(r.exitCode, r.stdout).toBe(0);
      expect(r.stdout).toContain('3 features (0 points, 3 polygons, 23.97 ha): no findings');
    }
    // In UTF-16 (Windows' "Unicode"), by its byte-order mark.
    const utf16 = t.writeFile('utf16.gpx', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(kmlText().replace('encoding="utf-8"', 'encoding="utf-16"'), 'utf16le')]));
    const u = await t.sct(['origins', 'check', utf16]);
    expect(u.exitCode, u.stdout).toBe(0);
    expect(u.stdout).toContain('3 features (0 points, 3 polygons, 23.97 ha): no findings');
    const points = await t.sct(['origins', 'check', '--country-code', 'GH', t.writeFile('points.kml', readFileSync(fixture('points.gpx')))]);
    expect(points.exitCode, points.stdout).toBe(0);
    expect(points.stdout).toContain('2 features (2 points, 0 polygons, 0 ha)');
  });

  it('a KML NetworkLink (plots in another file, not fetched) is a warning naming it; a file of links alone says so', async () => {
    const link = '<NetworkLink><name>Sefwi plots</name><Link><href>https://example.com/sefwi-plots.kml</href></Link></NetworkLink>';
    const only = t.writeFile('links-only.kml', `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Cooperative</name>${link}</Document></kml>`);
    const r = await t.sct(['origins', 'check', only]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain(
      'links-only.kml: warning: the file holds no plots, only 1 NetworkLink, not read: "Sefwi plots" (https://example.com/sefwi-plots.kml): sct follows only the links of a KMZ to KML files inside it; give the linked file itself',
    );
    const beside = t.writeFile('link-beside.kml', kmlText().replace('</Document>', `${link}</Document>`));
    const b = await t.sct(['origins', 'check', beside]);
    expect(b.exitCode, b.stdout).toBe(0);
    expect(b.stdout).toContain('link-beside.kml: warning: 1 NetworkLink not read, so its plots are not checked: "Sefwi plots" (https://example.com/sefwi-plots.kml): sct follows only the links of a KMZ to KML files inside it; give the linked file itself');
    expect(b.stdout).toContain('3 features (0 points, 3 polygons, 23.97 ha): 1 warning');
    // A KMZ whose doc.kml links to a layer missing from the archive.
    const layers = unzipSync(readFileSync(fixture('two-layers.kmz')));
    delete layers['layers/south.kml'];
    const kmz = t.writeFile('half.kmz', Buffer.from(zipSync(layers)));
    const k = await t.sct(['origins', 'check', kmz]);
    expect(k.stdout).toContain('half.kmz: warning: 1 NetworkLink not read, so its plots are not checked: layers/south.kml (not in the archive)');
    const imported = await t.sct(['origins', 'import', '--file', kmz, '--skip-invalid', '--dry-run', '-o', 'json']);
    expect(imported.stderr).toContain('half.kmz: warning: 1 NetworkLink not read, so its plots are not checked: layers/south.kml (not in the archive)');
  });

  it("a KMZ layer's NetworkLinks to files sct reads (back to doc.kml, to a sibling layer, doc.kml to itself) are no warning; a layer's links to files not read are, resolved from the layer's own directory", async () => {
    const layers = unzipSync(readFileSync(fixture('two-layers.kmz')));
    const link = (href: string) => `<NetworkLink><Link><href>${href}</href></Link></NetworkLink>`;
    const withLinks = (entry: string, ...hrefs: string[]) => Buffer.from(Buffer.from(layers[entry]!).toString('utf8').replace('</Document>', `${hrefs.map(link).join('')}</Document>`));
    const linked = { ...layers, 'doc.kml': withLinks('doc.kml', 'doc.kml'), 'layers/north.kml': withLinks('layers/north.kml', '../doc.kml', 'south.kml') };
    const r = await t.sct(['origins', 'check', t.writeFile('linked.kmz', Buffer.from(zipSync(linked)))]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).not.toContain('NetworkLink');
    expect(r.stdout).toContain('linked.kmz: 4 features (4 points, 0 polygons, 0 ha): 4 warnings');
    const further = { ...linked, 'layers/north.kml': withLinks('layers/north.kml', '../doc.kml', 'south.kml', 'east.kml', 'https://example.com/west.kml') };
    const f = await t.sct(['origins', 'check', t.writeFile('further.kmz', Buffer.from(zipSync(further)))]);
    expect(f.exitCode, f.stdout).toBe(0);
    expect(f.stdout).toContain(
      'further.kmz: warning: layers/north.kml: 2 NetworkLinks not read, so their plots are not checked: east.kml (not in the archive), https://example.com/west.kml: sct follows only the links of a KMZ to KML files inside it; give the linked files themselves',
    );
    expect(f.stdout).toContain('further.kmz: 4 features (4 points, 0 polygons, 0 ha): 5 warnings');
  });

  it("a KMZ link is a URL: layers/My%20Plots.kml names the entry layers/My Plots.kml, a #fragment or ?query is no part of the entry; an archive refused for unread files keeps the link warning", async () => {
    const layers = unzipSync(readFileSync(fixture('two-layers.kmz')));
    const { 'layers/south.kml': south, ...rest } = layers;
    const docWith = (href: string) => Buffer.from(Buffer.from(layers['doc.kml']!).toString('utf8').replace('layers/south.kml', href));
    for (const [label, href, entry] of [
      ['escaped', 'layers/My%20Plots.kml', 'layers/My Plots.kml'],
      ['fragment', 'layers/south.kml#f', 'layers/south.kml'],
      ['query', 'layers/south.kml?layer=1', 'layers/south.kml'],
    ] as const) {
      const r = await t.sct(['origins', 'check', t.writeFile(`${label}.kmz`, Buffer.from(zipSync({ ...rest, 'doc.kml': docWith(href), [entry]: south! })))]);
      expect(r.exitCode, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).not.toContain('NetworkLink');
      expect(r.stdout).toContain(`${label}.kmz: 4 features (4 points, 0 polygons, 0 ha)`);
    }
    // A link that names no entry (a misspelt name) beside the file it meant: the refusal says both.
    const r = await t.sct(['origins', 'check', t.writeFile('misspelt.kmz', Buffer.from(zipSync({ ...rest, 'doc.kml': docWith('layers/My%20Plot.kml'), 'layers/My Plots.kml': south! })))]);
    expect(r.exitCode, r.stdout).toBe(2);
    expect(r.stdout + r.stderr).toContain('the archive holds plot files sct would not read: layers/My Plots.kml');
    expect(r.stdout + r.stderr).toContain('1 NetworkLink not read, so its plots are not checked: layers/My%20Plot.kml (not in the archive)');
  });

  it('a KMZ or zipped Shapefile saved under a text name (.kml, .gpx, .geojson, .json) is read as the ZIP it is', async () => {
    for (const [source, name] of [
      ['plots.kmz', 'zipped.kml'],
      ['plots.kmz', 'zipped.gpx'],
      ['plots.kmz', 'zipped.geojson'],
      ['plots-shp.zip', 'zipped.json'],
    ] as const) {
      const r = await t.sct(['origins', 'check', t.writeFile(name, readFileSync(fixture(source)))]);
      expect(r.exitCode, r.stdout).toBe(0);
      expect(r.stdout).toBe(`${name}: 3 features (0 points, 3 polygons, 23.97 ha): no findings\n`);
    }
  });

  it('reads KML coordinates written "lon, lat, alt" with a space after each comma, as GDAL does', async () => {
    const spaced = kmlText().replace(/<coordinates>([^<]*)<\/coordinates>/g, (_all, c: string) => `<coordinates>${c.replaceAll(',', ', ')}</coordinates>`);
    expect(spaced).toContain(', ');
    const file = t.writeFile('spaced.kml', spaced);
    const [plain, r] = [await dryRun(fixture('plots.kml')), await dryRun(file)];
    expect(r.map((o) => o.location)).toEqual(plain.map((o) => o.location));
  });
});

describe('origins import and sync from KML, Shapefile, GPX', () => {
  it('imports a KML file: one origin per placemark, the geometries as in the source', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('plots.kml'), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('origins: 3 created, 0 rejected');
    expect(posts()).toEqual(
      SOURCE.map((f: { properties: Record<string, string>; geometry: unknown }) => ({
        name: f.properties.ProductionPlace,
        country_code: f.properties.ProducerCountry,
        external_id: f.properties.external_id,
        description: f.properties.description,
        location: f.geometry,
      })),
    );

    // The same plots as a Shapefile, then as a KMZ: nothing to change, nothing sent.
    for (const name of ['plots-shp.zip', 'plots.kmz']) {
      t.sb.requests.length = 0;
      const sync = await t.sct(['origins', 'sync', '--file', fixture(name), '--dry-run', '-o', 'json']);
      expect(sync.exitCode, sync.stderr).toBe(0);
      const plan = JSON.parse(sync.stdout);
      expect(plan.create, name).toEqual([]);
      expect(plan.update, name).toEqual([]);
      expect(plan.unchanged, name).toHaveLength(3);
      expect(posts()).toHaveLength(0);
    }
  });

  it('imports GPX waypoints as points with --country-code, and syncs them again without a write', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('points.gpx'), '--country-code', 'GH', '--name-property', 'name', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts()).toEqual([
      { name: 'GH-SEF-0201 Mensah farm', country_code: 'GH', description: '1.8 ha, cocoa', location: { type: 'Point', coordinates: [-2.492214, 6.203318] } },
      { name: 'GH-SEF-0202 Darko farm', country_code: 'GH', description: '2.5 ha, cocoa', location: { type: 'Point', coordinates: [-2.474406, 6.219027] } },
    ]);
    // A sync needs external ids, which GPX waypoints do not carry: exit 2, nothing sent.
    t.sb.requests.length = 0;
    const sync = await t.sct(['origins', 'sync', '--file', fixture('points.gpx'), '--country-code', 'GH', '--yes']);
    expect(sync.exitCode).toBe(2);
    expect(sync.stderr).toContain('a sync matches each feature with an origin by its external_id');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('syncs a Shapefile in UTM to the plots the KML import created: nothing to change, twice', async () => {
    // The KML import of the first test created these three already.
    t.sb.requests.length = 0;
    for (let run = 0; run < 2; run++) {
      const r = await t.sct(['origins', 'sync', '--file', fixture('plots-utm30n.zip'), '--yes']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/plan for origins: 0 to create, 0 to update, 3 unchanged/);
    }
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
  });

  it('a plot whose rings run the other way or start elsewhere is the same plot: nothing to change', async () => {
    const source = geojson('plots-source.geojson');
    // Each ring reversed (as a Shapefile winds it) and started at another corner.
    const other = (ring: Position[]) => {
      const open = ring.slice(0, -1).reverse();
      const rotated = [...open.slice(1), open[0]];
      return [...rotated, rotated[0]];
    };
    const rewound = {
      ...source,
      features: source.features.map((f: { geometry: { type: string; coordinates: Position[][] | Position[][][] } }) => ({
        ...f,
        geometry: {
          type: f.geometry.type,
          coordinates: f.geometry.type === 'Polygon' ? (f.geometry.coordinates as Position[][]).map(other) : (f.geometry.coordinates as Position[][][]).map((p) => p.map(other)),
        },
      })),
    };
    t.sb.requests.length = 0;
    const r = await t.sct(['origins', 'sync', '--file', t.writeFile('rewound.geojson', JSON.stringify(rewound)), '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/plan for origins: 0 to create, 0 to update, 3 unchanged/);
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
  });
});

describe('plot files as GIS programs write them, read as they mean (test/fixtures/README.md)', () => {
  it('a KMZ of two layers (QGIS, GDAL LIBKML) numbers its features across the archive: --skip-invalid leaves out the one without a name, no other', async () => {
    const check = await t.sct(['origins', 'check', fixture('two-layers.kmz'), '-o', 'json']);
    const findings = JSON.parse(check.stdout) as Array<{ feature: number; id?: string; level: string }>;
    expect(findings.filter((f) => f.level === 'error')).toEqual([]);
    const r = await t.sct(['origins', 'import', '--file', fixture('two-layers.kmz'), '--skip-invalid', '--dry-run', '-o', 'json']);
    expect((dryRunBodies(r.stdout) as Array<{ external_id: string }>).map((b) => b.external_id)).toEqual(['N-2', 'S-1', 'S-2']);
    expect(r.stderr).toContain('1 invalid feature left out (--skip-invalid): N-1');
  });

  it("--skip-invalid names the features it leaves out on one line, escapes stripped, a long id cut", async () => {
    // Left out for want of a name; the long id for its length too.
    const point = (id: string, coordinates: number[], name?: string) => ({ type: 'Feature', properties: { external_id: id, name }, geometry: { type: 'Point', coordinates } });
    const file = t.writeFile('forged-ids.geojson', JSON.stringify({
      type: 'FeatureCollection',
      features: [point('P-1\nerror: forged line\u001b]0;pwned\u0007', [-5.2, 6.8]), point('L'.repeat(100_000), [-5.25, 6.85]), point('P-2', [-5.3, 6.9], 'Farm')],
    }));
    for (const verb of ['import', 'sync']) {
      const r = await t.sct(['origins', verb, '--file', file, '--skip-invalid', '--country-code', 'CI', '--dry-run']);
      const warnings = r.stderr.split('\n').filter((l) => l.includes('left out (--skip-invalid)'));
      expect(warnings.join('\n'), r.stderr).toContain('P-1 error: forged line');
      expect(r.stderr).not.toMatch(/^error: forged line/m);
      expect(r.stderr).not.toContain('\u001b');
      for (const w of warnings) expect(w.length).toBeLessThan(400);
    }
  });

  it("a Placemark's XML id (LIBKML writes `farms.1`, `farms.2`, by row) is no external id: a file in another order swaps nothing", async () => {
    const bodies = await dryRun(fixture('farms-libkml.kmz'));
    expect(bodies.map((b) => [b.name, b.external_id])).toEqual([
      ['Kouassi farm', undefined],
      ['Yao farm', undefined],
    ]);
  });

  it("a Shapefile written from sct's own export reads its country: GDAL cuts country_code to country_co", async () => {
    const bodies = await dryRun(fixture('export-shp.zip'));
    expect(bodies.map((b) => [b.name, b.country_code, b.external_id])).toEqual([['Farm A', 'GH', 'GH-EXP-1']]);
  });

  it('a Shapefile as ArcGIS writes it, every name upper case (GDAL cuts them to EXTERNAL_I, DESCRIPTIO), gives its external ids and descriptions; its Id of 0 is none', async () => {
    const bodies = await dryRun(fixture('arcgis-upper-shp.zip'));
    expect(bodies.map((b) => [b.name, b.country_code, b.external_id, b.description])).toEqual([
      ['Asante farm, Sefwi Wiawso', 'GH', 'GH-SEF-0101', 'cocoa, shaded'],
      ['Owusu farm, Bibiani', 'GH', 'GH-BIB-0007', 'cocoa'],
    ]);
    const sync = await t.sct(['origins', 'sync', '--file', fixture('arcgis-upper-shp.zip'), '--dry-run', '-o', 'json']);
    expect(sync.exitCode, sync.stderr).toBe(0);
    // The same names in a GeoJSON (ArcGIS's Features To JSON) are read as well.
    const upper = t.writeFile('upper.geojson', readFileSync(fixture('arcgis-upper-source.geojson')));
    expect((await dryRun(upper)).map((b) => [b.external_id, b.description])).toEqual([
      ['GH-SEF-0101', 'cocoa, shaded'],
      ['GH-BIB-0007', 'cocoa'],
    ]);
  });

  it('a Shapefile or KML is not warned of the registry\'s spellings (the registry reads only the GeoJSON sct writes, in its own names), and never of a name the file does not have', async () => {
    const shp = await t.sct(['origins', 'check', fixture('arcgis-upper-shp.zip')]);
    expect(shp.exitCode, shp.stderr).toBe(0);
    expect(shp.stdout).toBe('arcgis-upper-shp.zip: 2 features (0 points, 2 polygons, 17.27 ha): no findings\n');
    const kml = t.writeFile(
      'spelt.kml',
      '<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Farm A</name><ExtendedData><Data name="ProducerCountry"><value>GH</value></Data><Data name="productionplace"><value>Farm A</value></Data><Data name="AREA"><value>1.5</value></Data></ExtendedData><Point><coordinates>-1.630001,6.700001</coordinates></Point></Placemark></Document></kml>',
    );
    const r = await t.sct(['origins', 'check', kml]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('spelt.kml: 1 feature (1 point, 0 polygons, 0 ha): no findings\n');
  });

  it('an external_id or description under a spelling sct does not read (External_ID, externalId, Description) is warned of, naming the one it reads', async () => {
    const feature = (properties: Record<string, unknown>) => ({ type: 'Feature', properties: { name: 'Farm A', country_code: 'GH', ...properties }, geometry: { type: 'Point', coordinates: [-2.489312, 6.209871] } });
    const file = t.writeFile(
      'spellings.geojson',
      JSON.stringify({ type: 'FeatureCollection', features: [feature({ External_ID: 'GH-1', Description: 'cocoa' }), feature({ externalId: 'GH-2', external_id: 'GH-2' }), feature({ Id: 0 })] }),
    );
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('sct reads'));
    expect(warnings).toEqual([
      'spellings.geojson: feature 1 ("Farm A"): warning: property "External_ID": sct reads an external_id from "external_id" or "EXTERNAL_ID" (names are case-sensitive), so it did not read this one',
      'spellings.geojson: feature 1 ("Farm A"): warning: property "Description": sct reads a description from "description" or "DESCRIPTION" (names are case-sensitive), so it did not read this one',
    ]);
    expect(dryRunBodies(r.stdout).map((b: { external_id?: string }) => b.external_id)).toEqual([undefined, 'GH-2', undefined]);
  });

  it('a .cpg naming Latin-1 as ESRI writes it (88591) is read as Latin-1, never as U+FFFD', async () => {
    const bodies = await dryRun(fixture('cpg-88591.zip'));
    expect(bodies.map((b) => b.name)).toEqual(['Côte farm']);
  });

  // Names and external ids in a named encoding, as GIS programs write them (test/fixtures/README.md).
  it.each([
    ['a .cpg naming a Chinese code page (GDAL writes CP936) is read as GBK', 'cpg-cp936.zip', '张家农场', '农-1'],
    ['a .cpg naming the Korean code page (GDAL writes CP949) is read as code page 949: its own syllables are not dropped', 'cpg-cp949.zip', '똠방 농장', '힣-1'],
    ['a .cpg naming Windows-1252 as ESRI writes it (1252) reads ’ — Š Œ', 'cpg-1252.zip', 'Côte d’Ivoire — Šaric farm', 'CI–Œ-1'],
    ['a KML whose XML declaration names windows-1252 reads ’ — Š Œ as such', 'windows-1252.kml', 'Côte d’Ivoire — Šaric farm', 'CI–Œ-1'],
  ])('%s', async (_title, file, name, externalId) => {
    const bodies = await dryRun(fixture(file));
    expect(bodies.map((b) => [b.name, b.external_id])).toEqual([[name, externalId]]);
  });

  it('a KML description in CDATA is kept', async () => {
    const bodies = await dryRun(fixture('cdata.kml'));
    expect(bodies.map((b) => b.description)).toEqual(['Cocoa, planted 2015']);
  });

  it("a KML Area typed with a decimal comma (1,5, as Google Earth's fields take it in much of the world) is 1.5 ha, as a GeoJSON's is", async () => {
    const kml = t.writeFile('comma-area.kml', readFileSync(fixture('cdata.kml'), 'utf8').replace('<value>2</value>', '<value>1,5</value>'));
    const r = await t.sct(['origins', 'check', kml, '-o', 'json']);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('one file sct cannot read among several (a .prj it cannot use) is that file\'s finding: the others are still checked', async () => {
    const r = await t.sct(['origins', 'check', fixture('plots-source.geojson'), fixture('plots-bad-prj.zip')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('plots-source.geojson: 3 features');
    expect(r.stdout).toContain('plots-bad-prj.zip: error: plots.prj names a coordinate system sct cannot read');
    // No verdict of the registry's on a file sct could not read, nor on one that is not there.
    expect(r.stderr).toContain('error: sct cannot read plots-bad-prj.zip');
    expect(r.stderr).not.toContain('registry would refuse');
    const missing = await t.sct(['origins', 'check', fixture('plots-source.geojson'), join(t.dir, 'not-there.geojson')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('error: sct cannot read not-there.geojson');
    // Of the same name as a file the registry would refuse: both are said.
    const refused = join(t.dir, 'a', 'plots.geojson');
    mkdirSync(dirname(refused), { recursive: true });
    writeFileSync(refused, '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"P2"},"geometry":{"type":"Polygon","coordinates":[[[-5.5,6.5],[-5.49,6.5],[-5.5,6.5]]]}}]}');
    const both = await t.sct(['origins', 'check', refused, join(t.dir, 'b', 'plots.geojson')]);
    expect(both.exitCode).toBe(2);
    // Named alike, each is named by the path given.
    expect(both.stderr).toContain(`in ${refused}: the registry would refuse this file; sct cannot read ${join(t.dir, 'b', 'plots.geojson')}`);
    expect(both.stdout).toContain(`${refused}: feature 1 ("P2"): error:`);
    // Standard input beside a file named stdin: told apart too.
    writeFileSync(join(t.dir, 'stdin'), readFileSync(fixture('plots-source.geojson')));
    const piped = await t.sct(['origins', 'check', '-', 'stdin'], { input: readFileSync(refused), cwd: t.dir });
    expect(piped.stderr).toContain('in standard input (-): the registry would refuse this file');
  });

  it('a GeoJSON whose crs is WGS 84 3D (EPSG:4979, as GDAL writes a 3D WGS 84 layer) is WGS 84', async () => {
    const r = await t.sct(['origins', 'check', fixture('wgs84-3d.geojson')]);
    expect(r.exitCode, r.stderr + r.stdout).toBe(0);
  });
});
