// Geolocation of origins (EUDR) as a user runs it: `origins check` offline, `--map`, GeoJSON
// import, `-o geojson` and its round trip, `--location-file`, against the sandbox (the offline
// check with the built binary, the rest in-process).
import { describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { until, useSandbox } from '../helpers/sandbox.js';
import { runSct, spawnSct } from '../helpers/sct.js';
import { dryRunBodies } from '../helpers/dry-run.js';

const t = useSandbox({}, { inProcess: true });
const FIXTURES = fileURLToPath(new URL('../fixtures/geo/', import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);
const geojson = (name: string) => JSON.parse(readFileSync(fixture(name), 'utf8'));
const posts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/origins');

describe('origins check', () => {
  it('checks offline: no token, no base URL, no request', async () => {
    const r = await runSct(['origins', 'check', fixture('valid.geojson'), fixture('border-200m.geojson')], { env: { SCT_CONFIG_DIR: t.dir, HOME: t.dir } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'valid.geojson: 7 features (3 points, 4 polygons, 59.37 ha): no findings\n' +
        'border-200m.geojson: 2 features (1 point, 1 polygon, 2.88 ha): no findings\n' +
        '2 files: 9 features (4 points, 5 polygons, 62.24 ha): no findings\n',
    );
    expect(t.sb.requests).toHaveLength(0);
  });

  it('exits 2 on errors, one line per finding naming the feature; warnings alone exit 0', async () => {
    const bad = await t.sct(['origins', 'check', fixture('swapped.geojson'), fixture('duplicate.geojson')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout.split('\n')).toEqual([
      'swapped.geojson: feature 1 (TZ-KIL-0007 "Kilimanjaro coffee, Moshi"): error: latitude and longitude look swapped: [-3.076541, 37.353218] lies 5,492 km outside Tanzania (TZ), [37.353218, -3.076541] lies in it (GeoJSON puts longitude first)',
      'swapped.geojson: 1 feature (1 point, 0 polygons, 0 ha): 1 error',
      'duplicate.geojson: feature 2 (CI-DAL-0041 "Konan farm (copy), Daloa"): warning: the same geometry as feature 1',
      'duplicate.geojson: 2 features (0 points, 2 polygons, 8.76 ha): 1 warning',
      '2 files: 3 features (1 point, 2 polygons, 8.76 ha): 1 error, 1 warning',
      '',
    ]);
    expect(bad.stderr).toContain('error: 1 error in swapped.geojson: the registry would refuse this file');
    const warned = await t.sct(['origins', 'check', fixture('four-decimals.geojson')]);
    expect(warned.exitCode, warned.stderr).toBe(0);
    expect(warned.stdout).toContain('warning: positions have at most 4 decimal places');
  });

  it('a polygon whose errors leave it unmeasured (a ring that crosses itself) is said to be left out of the area, in each file and the total', async () => {
    const r = await t.sct(['origins', 'check', fixture('bowtie.geojson'), fixture('duplicate.geojson')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout.split('\n').filter((l) => !l.includes(': feature '))).toEqual([
      'bowtie.geojson: 1 feature (0 points, 1 polygon, 0 ha, 1 polygon with errors not counted in the area): 1 error',
      'duplicate.geojson: 2 features (0 points, 2 polygons, 8.76 ha): 1 warning',
      '2 files: 3 features (0 points, 3 polygons, 8.76 ha, 1 polygon with errors not counted in the area): 1 error, 1 warning',
      '',
    ]);
  });

  it('a plot file with nothing to import (no features, a GPX of tracks only) is exit 2, as a CSV file without rows is', async () => {
    const empty = t.writeFile('empty-fc.geojson', JSON.stringify({ type: 'FeatureCollection', features: [] }));
    const r = await t.sct(['origins', 'import', '--file', empty]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('empty-fc.geojson: no plots to import; nothing was sent');
    expect(t.sb.requests).toHaveLength(0);
    // origins check of the same file: warnings only, exit 0 (nothing is sent by a check).
    expect((await t.sct(['origins', 'check', empty])).exitCode).toBe(0);
  });

  it('a GeoJSON file saved as UTF-16 is named as such (exit 2), not "Unexpected token"', async () => {
    const file = join(t.dir, 'utf16.geojson');
    writeFileSync(file, Buffer.from('\ufeff' + readFileSync(fixture('bowtie.geojson'), 'utf8'), 'utf16le'));
    const r = await t.sct(['origins', 'check', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout + r.stderr).toContain('the file is UTF-16 text');
    expect(r.stdout + r.stderr).not.toContain('Unexpected token');
  });

  it('prints the findings as JSON objects with -o json, the summary on stderr', async () => {
    const r = await t.sct(['origins', 'check', '-o', 'json', fixture('bowtie.geojson'), fixture('tiny-polygon.geojson')]);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual([
      { file: 'bowtie.geojson', feature: 1, id: 'GH-ASH-0311', name: 'Boateng farm, Ashanti', level: 'error', message: 'ring 1 (outer) crosses itself at [-1.6236596, 6.6925938]', position: [-1.6236596, 6.6925938], code: 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID_GEOMETRY' },
      { file: 'tiny-polygon.geojson', feature: 1, name: 'Osei nursery, Sefwi Wiawso', level: 'warning', message: 'a polygon of 0.00098 ha, under 0.01 ha: is it a plot?' },
    ]);
    expect(r.stderr).toContain('bowtie.geojson: 1 feature (0 points, 1 polygon, 0 ha, 1 polygon with errors not counted in the area): 1 error');
    const err = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(err).toMatchObject({ exit_code: 2, status: null });
  });

  it('reads stdin, and takes --country-code for features that name none', async () => {
    const plot = JSON.stringify({ type: 'Point', coordinates: [5.784512, -6.593214] });
    const r = await t.sct(['origins', 'check', '--country-code', 'ci', '-'], { input: plot });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain("stdin: feature 1: error: latitude and longitude look swapped: [5.784512, -6.593214] lies 1,618 km outside Côte d'Ivoire (CI)");
  });

  it('draws the plots as SVG: one shape per feature over the countries, errors in red with their index', async () => {
    const map = join(t.dir, 'plots.svg');
    const file = t.writeFile('mixed.geojson', JSON.stringify({
      type: 'FeatureCollection',
      features: [...geojson('valid.geojson').features, geojson('swapped.geojson').features[0], geojson('bowtie.geojson')],
    }));
    const r = await t.sct(['origins', 'check', file, '--map', map]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`map of 9 plots written to ${map}`);
    const svg = readFileSync(map, 'utf8');
    expect(XMLValidator.validate(svg)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg);
    const plots = [doc.svg.g].flat().find((g: { class?: string }) => g.class === 'plots');
    const shapes = [...[plots.circle ?? []].flat(), ...[plots.path ?? []].flat()];
    expect(shapes.map((s: { 'data-feature': string }) => Number(s['data-feature'])).sort((a: number, b: number) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(shapes.filter((s: { class: string }) => s.class === 'plot error').map((s: { 'data-feature': string }) => s['data-feature']).sort()).toEqual(['8', '9']);
    const labels = [doc.svg.g].flat().find((g: { class?: string }) => g.class === 'labels');
    expect([labels.text].flat().map((l: { '#text': number }) => String(l['#text'])).sort()).toEqual(['8', '9']);
    expect(svg).toContain('data-country="TZ"');
  });
});

describe('origins import --file plots.geojson', () => {
  it('creates one origin per feature, the location the geometry as in the file', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('valid.geojson'), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('origins: 7 created, 0 rejected');
    expect(JSON.parse(r.stdout).map((x: { lines: number[]; key: string; status: string }) => [x.lines, x.key, x.status])).toEqual([
      [[1], 'CI-SOU-0107', 'created'],
      [[2], 'CI-SOU-0112', 'created'],
      [[3], 'CI-DAL-0031', 'created'],
      [[4], 'GH-SEF-0042', 'created'],
      [[5], 'GH-SEF-0043', 'created'],
      [[6], 'BR-MG-2207', 'created'],
      [[7], 'ID-SU-0815', 'created'],
    ]);
    const features = geojson('valid.geojson').features;
    const bodies = posts().map((p) => JSON.parse(p.body));
    expect(bodies).toHaveLength(7);
    const byExt = new Map<string, Record<string, unknown>>(bodies.map((b: Record<string, unknown>) => [b.external_id as string, b]));
    expect(byExt.get('CI-SOU-0107')).toEqual({ name: 'Kouassi farm, Soubré', country_code: 'CI', external_id: 'CI-SOU-0107', location: features[0].geometry });
    expect(byExt.get('GH-SEF-0043')).toEqual({ name: 'Mensah plantation, Sefwi Wiawso', country_code: 'GH', external_id: 'GH-SEF-0043', description: 'cocoa, shaded, 9.4 ha', location: features[4].geometry });
    for (const f of features) expect(byExt.get(f.id ?? f.properties.external_id)?.location).toEqual(f.geometry);

    // A rerun of the same file sends nothing: the journal knows every feature.
    t.sb.requests.length = 0;
    const again = await t.sct(['origins', 'import', '--file', fixture('valid.geojson')]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(posts()).toHaveLength(0);
    expect(again.stderr).toContain('7 skipped');
  });

  it('checks first: an error in the file is exit 2 with nothing sent', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('unclosed.geojson')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unclosed.geojson: feature 1 ("Traoré plantation, Soubré"): error: ring 1 (outer) is not closed');
    expect(r.stderr).toContain('error: unclosed.geojson: an error the registry would refuse; nothing was sent');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('writes --report with every invalid feature before exit 2, for errors of the checks and for missing fields', async () => {
    const report = join(t.dir, 'plots-report.csv');
    const r = await t.sct(['origins', 'import', '--file', fixture('unclosed.geojson'), '--report', report]);
    expect(r.exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
    const lines = readFileSync(report, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('line,key,status,id,error');
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^1,feature 1,invalid,,"invalid — geometry: ring 1 \(outer\) is not closed/)]);

    const nameless = t.writeFile('nameless.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { ProducerCountry: 'GH', Area: 1 }, geometry: { type: 'Point', coordinates: [-1.623412, 6.691238] } }] }));
    const again = await t.sct(['origins', 'import', '--file', nameless, '--report', report, '--force']);
    expect(again.exitCode).toBe(2);
    expect(readFileSync(report, 'utf8').trim().split('\n').slice(1)).toEqual([expect.stringMatching(/^1,feature 1,invalid,,"invalid — name: required/)]);
    expect(t.sb.requests).toHaveLength(0);

    // A feature with an external_id is named by it, as the rows that are sent are.
    const big = t.writeFile('big-point.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { external_id: 'K-1', ProductionPlace: 'Big point', ProducerCountry: 'CI', Area: 5.5 }, geometry: { type: 'Point', coordinates: [-5.612345, 6.912345] } }] }));
    const keyed = await t.sct(['origins', 'import', '--file', big, '--report', report, '--force']);
    expect(keyed.exitCode).toBe(2);
    expect(readFileSync(report, 'utf8').trim().split('\n').slice(1)).toEqual([expect.stringMatching(/^1,K-1,invalid,,"?invalid — geometry: a point for a plot of 5.5 ha/)]);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('an id past what a number holds exactly, or a name, country or external_id that is no text, is exit 2 naming the feature: never sent rounded, dropped or called missing', async () => {
    const square = { type: 'Polygon', coordinates: [[[-2.100001, 6.200001], [-2.090001, 6.200001], [-2.090001, 6.210001], [-2.100001, 6.210001], [-2.100001, 6.200001]]] };
    const text = (features: string[]) => `{"type":"FeatureCollection","features":[${features.join(',')}]}`;
    const feature = (head: string, props: string) => `{"type":"Feature",${head}"properties":${props},"geometry":${JSON.stringify(square)}}`;
    const file = t.writeFile('odd-values.geojson', text([
      feature('"id":12345678901234567890,', '{"name":"a","country_code":"GH"}'),
      feature('', '{"name":"b","country_code":"GH","external_id":98765432109876543210}'),
      feature('', '{"name":"c","country_code":"GH","external_id":{"a":1}}'),
      feature('"id":"X-4",', '{"name":{"a":1},"country_code":"GH"}'),
      feature('"id":"X-5",', '{"name":"e","country_code":["GH"]}'),
      // GDAL writes an empty attribute as null: the feature's id is still the one taken.
      feature('"id":12345678901234567891,', '{"name":"f","country_code":"GH","external_id":null}'),
      // An id of 100,000 characters twice: quoted cut, as a CSV cell is.
      feature('', `{"name":"g","country_code":"GH","external_id":"${'Y'.repeat(100_000)}"}`),
      feature('', `{"name":"h","country_code":"GH","external_id":"${'Y'.repeat(100_000)}"}`),
      // An id holding a quote and a control character twice: quoted whole, the control shown.
      feature('', '{"name":"i","country_code":"GH","external_id":"dup\\"q,\\u0001x"}'),
      feature('', '{"name":"j","country_code":"GH","external_id":"dup\\"q,\\u0001x"}'),
    ]));
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('odd-values.geojson: 9 invalid features; nothing was sent');
    expect(r.stderr).toContain('feature 10, external_id: "dup\\"q,\\u0001x" is also feature 9\'s');
    expect(r.stderr).not.toContain('Y'.repeat(61));
    expect(r.stderr).toMatch(/feature 8, external_id: "Y{60}…" \(100,000 characters\) is also feature 7's/);
    expect(r.stderr).toMatch(/feature 6, external_id: the feature's id is a number past what one holds exactly/);
    expect(r.stderr).toMatch(/feature 1, external_id: the feature's id is a number past what one holds exactly \(read as 12345678901234567000\): write it as text, in quotes/);
    expect(r.stderr).toMatch(/feature 2, external_id: a number past what one holds exactly \(read as 98765432109876540000\): write it as text, in quotes/);
    expect(r.stderr).toMatch(/feature 3, external_id: expected text or a number, not an object/);
    expect(r.stderr).toMatch(/feature 4, name: expected text or a number, not an object/);
    expect(r.stderr).toMatch(/feature 5, country_code: expected text or a number, not an array/);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('two spellings of one field with different values (country_code CI and COUNTRY_CODE GH) are exit 2 naming both, in import and sync; check warns of the country; the same value twice is one', async () => {
    const point = (props: Record<string, unknown>, lng: number) => ({ type: 'Feature', properties: props, geometry: { type: 'Point', coordinates: [lng, 5.351234] } });
    const file = t.writeFile('both.geojson', JSON.stringify({ type: 'FeatureCollection', features: [
      point({ name: 'P1', country_code: 'CI', COUNTRY_CODE: 'GH', external_id: 'A-1', EXTERNAL_ID: 'B-1', description: 'lower', DESCRIPTION: 'UPPER' }, -4.021234),
      point({ name: 'P2', PRODUCTION_PLACE: 'Q2', ProducerCountry: 'CI', external_id: 'A-2' }, -4.031234),
      // The same value as sct reads it: spaces at either end, a country's case, a number as text.
      point({ name: 'P3', ProductionPlace: ' P3 ', country_code: 'ci', COUNTRY_CODE: ' CI', external_id: 7, EXTERNAL_ID: '7', description: 'd', DESCRIPTION: 'd ' }, -4.041234),
    ] }));
    for (const command of ['import', 'sync']) {
      const r = await t.sct(['origins', command, '--file', file, '--dry-run', '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('both.geojson: 2 invalid features; nothing was sent');
      expect(r.stderr).toContain('feature 1, country_code: "country_code" is "CI" but "COUNTRY_CODE" is "GH": sct reads either as the country_code and would drop one; keep one of them, or give both the same value');
      expect(r.stderr).toContain('feature 1, external_id: "external_id" is "A-1" but "EXTERNAL_ID" is "B-1"');
      expect(r.stderr).toContain('feature 1, description: "description" is "lower" but "DESCRIPTION" is "UPPER"');
      expect(r.stderr).toContain('feature 2, name: "name" is "P2" but "PRODUCTION_PLACE" is "Q2"');
      expect(r.stderr).not.toContain('feature 3,');
    }
    expect(t.sb.requests).toHaveLength(0);
    const check = await t.sct(['origins', 'check', file]);
    expect(check.exitCode, check.stderr).toBe(0);
    expect(check.stdout.split('\n').filter((l) => l.includes('COUNTRY_CODE'))).toEqual([
      'both.geojson: feature 1 (A-1 "P1"): warning: "country_code" is "CI" but "COUNTRY_CODE" is "GH": sct reads either as the country_code and would drop one; keep one of them, or give both the same value; checked against CI',
    ]);
    // Every field import and sync refuse so is warned of: a check run as a gate sees them all.
    expect(check.stdout).toContain('feature 1 (A-1 "P1"): warning: "external_id" is "A-1" but "EXTERNAL_ID" is "B-1"');
    expect(check.stdout).toContain('feature 1 (A-1 "P1"): warning: "description" is "lower" but "DESCRIPTION" is "UPPER"');
    expect(check.stdout).toContain('warning: "name" is "P2" but "PRODUCTION_PLACE" is "Q2"');
    expect(check.stdout).not.toMatch(/feature 3 .*would drop one/);
    // --name-property picks the name's one property: no warning of the others.
    const picked = await t.sct(['origins', 'import', '--file', file, '--name-property', 'PRODUCTION_PLACE', '--dry-run']);
    expect(picked.stderr + picked.stdout).not.toContain('"name" is "P2" but "PRODUCTION_PLACE" is "Q2"');
    // Long values that part late: where they part is said, each cut alike, no length of the cut text.
    const long = t.writeFile('long.geojson', JSON.stringify({ type: 'FeatureCollection', features: [point({ name: 'P', country_code: 'CI', external_id: 'L-1', description: `${'x'.repeat(70)} one`, DESCRIPTION: `${'x'.repeat(70)} two` }, -4.021234)] }));
    const r = await t.sct(['origins', 'import', '--file', long, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`"description" is "${'x'.repeat(50)}…" but "DESCRIPTION" is "${'x'.repeat(50)}…" (they differ from character 72)`);
    expect(r.stderr).not.toMatch(/\(\d+ characters\)/);
  });

  it('--skip-invalid leaves out a feature that lacks a field (exit 3, reported), never a plot the registry would refuse', async () => {
    const point = (props: Record<string, unknown>, lng: number) => ({ type: 'Feature', properties: props, geometry: { type: 'Point', coordinates: [lng, 6.691238] } });
    const mixed = t.writeFile('mixed.geojson', JSON.stringify({ type: 'FeatureCollection', features: [point({ ProducerCountry: 'GH', Area: 1 }, -1.623412), point({ name: 'Named farm', ProducerCountry: 'GH', Area: 1 }, -1.633412)] }));
    const report = join(t.dir, 'mixed-report.csv');
    const r = await t.sct(['origins', 'import', '--file', mixed, '--skip-invalid', '--report', report, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect((JSON.parse(r.stdout) as Array<{ body: { name: string } }>).map((q) => q.body.name)).toEqual(['Named farm']);
    expect(t.sb.requests).toHaveLength(0);
    const real = await t.sct(['origins', 'import', '--file', mixed, '--skip-invalid', '--report', report, '--force', '-o', 'json']);
    expect(real.exitCode, real.stderr).toBe(3);
    expect((JSON.parse(real.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['invalid', 'created']);
    expect(readFileSync(report, 'utf8')).toMatch(/\n1,feature 1,invalid,,"?invalid — name: required/);

    const refused = await t.sct(['origins', 'import', '--file', fixture('unclosed.geojson'), '--skip-invalid']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--skip-invalid does not leave out plots the registry would refuse');
  });

  it('recognises GeoJSON on stdin by its content, and maps --name-property and --country-code', async () => {
    const text = readFileSync(fixture('no-properties.geojson'), 'utf8');
    const missing = await t.sct(['origins', 'import', '--file', '-'], { input: text });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('stdin: 3 invalid features; nothing was sent');
    expect(missing.stderr).toMatch(/feature 1, name: required: no name, ProductionPlace, PRODUCTION_PLACE property/);
    expect(missing.stderr).toMatch(/feature 1, country_code: required/);
    expect(t.sb.requests).toHaveLength(0);

    const named = JSON.stringify({
      type: 'FeatureCollection',
      features: geojson('no-properties.geojson').features.map((f: object, i: number) => ({ ...f, properties: { Farmer: `Farmer ${i + 1}` } })),
    });
    // Every feature checked against Ghana: the first is in Côte d'Ivoire, the third in Brazil.
    const wrong = await t.sct(['origins', 'import', '--file', '-', '--name-property', 'Farmer', '--country-code', 'GH'], { input: named });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toMatch(/feature 1 \("Farmer 1"\): error: position \[-6\.598702, 5\.779153\] lies \d+ km outside Ghana \(GH\)/);

    const one = JSON.stringify({ type: 'FeatureCollection', features: [JSON.parse(named).features[1]] });
    const r = await t.sct(['origins', 'import', '--file', '-', '--name-property', 'Farmer', '--country-code', 'GH'], { input: one });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts().map((p) => JSON.parse(p.body))).toEqual([{ name: 'Farmer 2', country_code: 'GH', location: { type: 'Point', coordinates: [-2.478311, 6.207648] } }]);
  });

  it('lists what it would send with --dry-run, sending nothing', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('valid.geojson'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ method: 'POST', path: '/origins' });
    const bodies = dryRunBodies(r.stdout);
    expect(bodies.map((x) => [x.external_id, x.country_code])).toEqual([
      ['CI-SOU-0107', 'CI'], ['CI-SOU-0112', 'CI'], ['CI-DAL-0031', 'CI'], ['GH-SEF-0042', 'GH'], ['GH-SEF-0043', 'GH'], ['BR-MG-2207', 'BR'], ['ID-SU-0815', 'ID'],
    ]);
    expect(r.stderr).toContain('valid.geojson: 7 valid origins in 7 requests; nothing sent (dry run)');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('refuses the GeoJSON flags on a CSV file', async () => {
    const csv = t.writeFile('origins.csv', 'name,country_code\nFarm,CI\n');
    await t.expectUsageErrors([[['origins', 'import', '--file', csv, '--country-code', 'CI'], '--name-property, --country-code and --commodity are for plot files']]);
  });
});

describe('-o geojson', () => {
  it('lists origins as one FeatureCollection that goes back through origins check clean', async () => {
    const imported = await t.sct(['origins', 'import', '--file', fixture('border-200m.geojson')]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const total = (await t.api('/origins?limit=1')).count;
    t.sb.requests.length = 0;
    const r = await t.sct(['origins', 'list', '--all', '--page-size', '20', '-o', 'geojson']);
    expect(r.exitCode, r.stderr).toBe(0);
    const fc = JSON.parse(r.stdout);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features).toHaveLength(total);
    expect(t.sb.requests.length).toBe(Math.ceil(total / 20));
    const kinds = new Set(fc.features.map((f: { geometry: { type: string } }) => f.geometry.type));
    expect(kinds).toEqual(new Set(['Point', 'Polygon', 'MultiPolygon']));
    const countries = new Set(fc.features.map((f: { properties: { country_code: string } }) => f.properties.country_code));
    for (const c of ['CI', 'GH', 'BR', 'ID', 'CM']) expect(countries).toContain(c);
    const border = fc.features.find((f: { properties: { external_id: string } }) => f.properties.external_id === 'CI-BDK-0010');
    expect(border).toMatchObject({ type: 'Feature', geometry: geojson('border-200m.geojson').features[1].geometry, properties: { name: 'Kouamé plantation, Bondoukou', country_code: 'CI' } });
    expect(border.properties).not.toHaveProperty('location');

    const file = t.writeFile('export.geojson', r.stdout);
    const back = await t.sct(['origins', 'check', file]);
    expect(back.exitCode, back.stdout + back.stderr).toBe(0);
    expect(back.stdout).toMatch(new RegExp(`^export\\.geojson: ${total} features \\(\\d+ points, \\d+ polygons, [\\d,.]+ ha\\): `, 'm'));
  });

  it('shows one origin as a Feature', async () => {
    const r = await t.sct(['origins', 'get', '1', '-o', 'geojson']);
    expect(r.exitCode, r.stderr).toBe(0);
    const f = JSON.parse(r.stdout);
    const o = await t.api('/origins/1');
    const { location, ...rest } = o;
    expect(f).toEqual({ type: 'Feature', geometry: location, properties: rest });
  });

  it('--columns picks the properties, in a list and for one origin; the geometry stays the location', async () => {
    const list = await t.sct(['origins', 'list', '--limit', '3', '-o', 'geojson', '--columns', 'name,country_code']);
    expect(list.exitCode, list.stderr).toBe(0);
    const fc = JSON.parse(list.stdout);
    expect(fc.features).toHaveLength(3);
    for (const f of fc.features) {
      expect(Object.keys(f.properties)).toEqual(['name', 'country_code']);
      expect(f.geometry?.type).toMatch(/Point|Polygon/);
    }
    const one = await t.sct(['origins', 'get', '1', '-o', 'geojson', '--columns', 'name']);
    expect(one.exitCode, one.stderr).toBe(0);
    const o = await t.api('/origins/1');
    expect(JSON.parse(one.stdout)).toEqual({ type: 'Feature', geometry: o.location, properties: { name: o.name } });
  });

  it('--eudr names the origins the registry would refuse (a ring that crosses itself, a point of more than 4 ha written through the API), into stdout and into --out', async () => {
    const make = async (body: unknown) => {
      const r = await fetch(`${t.sb.url}/origins`, { method: 'POST', headers: { Authorization: 'Bearer sct_demo_owner_cacao', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return ((await r.json()) as { id: number }).id;
    };
    const bow = await make({ name: 'Bow tie', country_code: 'GH', external_id: 'EX-BOW', location: { type: 'Polygon', coordinates: [[[-1.62, 6.69], [-1.61, 6.70], [-1.61, 6.69], [-1.62, 6.70], [-1.62, 6.69]]] } });
    const big = await make({ name: 'Big point', country_code: 'GH', external_id: 'EX-BIG', location: { type: 'Point', coordinates: [-1.6, 6.7], Area: 7 } });
    const query = ['--external-id', 'EX-BOW,EX-BIG'];
    const out = await t.sct(['origins', 'list', ...query, '-o', 'geojson', '--eudr']);
    expect(out.exitCode, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout).features).toHaveLength(2);
    for (const r of [out, await t.sct(['origins', 'list', ...query, '-o', 'geojson', '--eudr', '--out', join(t.dir, 'eudr-refused') + '/'])]) {
      expect(r.stderr).toContain('warning: 2 origins in the file the registry would refuse:');
      expect(r.stderr).toContain(`origin ${bow} (EX-BOW): ring 1 (outer) crosses itself`);
      expect(r.stderr).toContain(`origin ${big} (EX-BIG): a point for a plot of 7 ha`);
      expect(r.stderr).toContain('sct origins check FILE lists every finding');
    }
  });

  it('--columns does not go with --eudr, whose properties are the registry\'s: exit 2, nothing sent', async () => {
    await t.expectUsageErrors([[['origins', 'list', '-o', 'geojson', '--eudr', '--columns', 'name'], '--columns does not go with --eudr']], { inProcess: true });
  });

  it('is refused by every other command, before anything is sent', async () => {
    await t.expectUsageErrors(
      [
        [['orders', 'list', '--buying', '-o', 'geojson'], '-o geojson is for sct origins list and sct origins get: sct orders list writes table, json, ndjson or csv'],
        [['origins', 'create', '--name', 'X', '--country-code', 'CI', '-o', 'geojson'], 'sct origins create writes table'],
        [['origins', 'check', fixture('valid.geojson'), '-o', 'geojson'], 'sct origins check writes table'],
        [['whoami', '-o', 'geojson'], 'sct whoami writes table'],
        [['config', 'set', 'output', 'geojson'], /./],
      ],
      { inProcess: true },
    );
  });
});

describe('origins import of a plot file: what is read back as sent', () => {
  it('more invalid features than the error lists: its message says so, in the JSON error object too', async () => {
    const features = Array.from({ length: 60 }, (_, i) => ({ type: 'Feature', properties: { country_code: 'GH' }, geometry: { type: 'Point', coordinates: [-2.48 + i / 1000, 6.2] } }));
    const file = t.writeFile('noname.geojson', JSON.stringify({ type: 'FeatureCollection', features }));
    const r = await t.sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(r.exitCode).toBe(2);
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(error.error).toMatch(/^noname\.geojson: 60 invalid features; nothing was sent \(the first 50 errors are listed, 10 more are not: --report FILE lists them all\)$/);
    expect(Object.keys(error.fields)).toHaveLength(50);
  });

  it('a description keeps its spaces at either end, as the CSV reader keeps them: an export synced back plans nothing', async () => {
    const file = t.writeFile('spaced.geojson', JSON.stringify({ type: 'Feature', properties: { name: 'Spaced', country_code: 'GH', description: '  lead desc ' }, geometry: { type: 'Point', coordinates: [-2.481036, 6.209874] } }));
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)[0].description).toBe('  lead desc ');
  });
});

describe('origins create --location-file', () => {
  it('sends the geometry of a Feature as the location', async () => {
    const r = await t.sct(['origins', 'create', '--name', 'Mensah plantation', '--country-code', 'GH', '--location-file', fixture('bowtie.geojson').replace('bowtie', 'valid'), '-o', 'json']);
    // valid.geojson holds 7 features: one plot per origin.
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('valid.geojson holds 7 features: --location-file takes one geometry or Feature');
    const feature = geojson('valid.geojson').features[4];
    const plot = t.writeFile('plot.geojson', JSON.stringify(feature));
    const ok = await t.sct(['origins', 'create', '--name', 'Mensah plantation', '--country-code', 'GH', '--location-file', plot, '-o', 'json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(t.bodyOf()).toEqual({ name: 'Mensah plantation', country_code: 'GH', location: feature.geometry });
    expect(JSON.parse(ok.stdout).location).toEqual(feature.geometry);
  });

  it('checks the plot against the origin\'s country first: exit 2, nothing sent', async () => {
    const plot = t.writeFile('ghana.geojson', JSON.stringify(geojson('valid.geojson').features[4].geometry));
    await t.expectUsageErrors([
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--location-file', plot], /ghana\.geojson: feature 1: error: position \[-2\.48593, 6\.204378\] lies \d+ km outside Côte d'Ivoire \(CI\)/],
      [['origins', 'create', '--name', 'X', '--country-code', 'GH', '--location-file', fixture('unclosed.geojson')], 'is not closed'],
      [['origins', 'create', '--name', 'X', '--country-code', 'GH', '--location', '6.2,-2.48', '--location-file', plot], 'give either --location or --location-file, not both'],
      [['origins', 'create', '--country-code', 'GH', '--file', '-', '--location-file', '-'], 'stdin can be read once: --file - and --location-file - both ask for it', '{"name":"X"}'],
      // A typed point is held to its country too: latitude and longitude the other way round.
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--location', '-4.0,5.3'], /--location -4\.0,5\.3: latitude and longitude look swapped: the point lies outside the country \([\d,]+ km outside Côte d'Ivoire \(CI\)\); did you mean --location 5\.3,-4\?/],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--location', '{"type":"Point","coordinates":[5.3,-4.0]}'], 'latitude and longitude look swapped'],
    ]);
    // The right way round it goes, with no warning of a plot file's (no Area, few decimals).
    const ok = await t.sct(['origins', 'create', '--name', 'X', '--country-code', 'CI', '--location', '5.3,-4.0']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).not.toContain('warning');
  });

  it('the sandbox refuses a malformed location with a field error', async () => {
    const unclosed = JSON.stringify({ type: 'Polygon', coordinates: [[[-2.48593, 6.204378], [-2.486992, 6.204926], [-2.488672, 6.204604], [-2.488503, 6.202265]]] });
    const r = await t.sct(['origins', 'create', '--name', 'X', '--country-code', 'GH', '--set', `location=${unclosed}`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('location: Ring 1: the positions of a linear ring do not form a closed ring (the first and last differ).');
    expect(posts()).toHaveLength(1);
  });
});

describe('plots of many positions', () => {
  /** An open ring (so not closed: an error) of n positions round a point in Ghana, with `digits` decimals. */
  const openRing = (n: number, digits: number) => {
    const ring = Array.from({ length: n }, (_, i) => {
      const a = (1.5 * Math.PI * i) / n; // three quarters of a circle: its ends apart
      return [Number((-1.62 + 0.05 * Math.cos(a)).toFixed(digits)), Number((6.7 + 0.05 * Math.sin(a)).toFixed(digits))];
    });
    return JSON.stringify({ type: 'Feature', properties: { name: 'wide', ProducerCountry: 'GH' }, geometry: { type: 'Polygon', coordinates: [ring] } });
  };

  it('a ring of 70,000 positions with few decimals, and a map of one of 130,000, are checked, not "nested too deeply"', async () => {
    const low = t.writeFile('open5.geojson', openRing(70_000, 5));
    const r = await t.sct(['origins', 'check', low]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/ring 1 \(outer\) is not closed/);
    expect(r.stdout + r.stderr).toMatch(/positions have at most 5 decimal places/);
    const big = t.writeFile('open7.geojson', openRing(130_000, 7));
    const map = join(t.dir, 'open7.svg');
    const m = await t.sct(['origins', 'check', big, '--map', map]);
    expect(m.exitCode, m.stderr).toBe(2);
    expect(m.stdout + m.stderr).toMatch(/ring 1 \(outer\) is not closed/);
    expect(m.stderr).not.toMatch(/nested too deeply/);
    expect(readFileSync(map, 'utf8')).toMatch(/^<svg|<\?xml/);
  });

  // Two checks of 150,000 plots: 11–28 s on these machines, over 30 s with another suite beside it.
  it('SIGTERM while a large file is being checked (one long synchronous stretch) is exit 143, not lost with the check\'s own exit code', { timeout: 90_000 }, async () => {
    const features = Array.from({ length: 150_000 }, (_, i) => ({ type: 'Feature', properties: { name: `p${i}`, ProducerCountry: 'GH', Area: 9 }, geometry: { type: 'Point', coordinates: [-1.6 + (i % 400) * 0.001, 6.4 + Math.floor(i / 400) * 0.001] } }));
    const file = t.writeFile('many-points.geojson', JSON.stringify({ type: 'FeatureCollection', features }));
    // Into pipes, and into files (whose writes leave the event loop nothing else to wait for).
    for (const files of [false, true]) {
      const [stdoutFile, stderrFile] = files ? [join(t.dir, 'check-out.txt'), join(t.dir, 'check-err.txt')] : [];
      const child = spawnSct(['origins', 'check', file], { env: { SCT_CONFIG_DIR: t.dir }, stdoutFile, stderrFile });
      // Once it has read more bytes than the file holds, its handlers are in place (a signal
      // before then, on a busy machine, meets Node's default action, as any program's would) and
      // the check has begun.
      const size = statSync(file).size;
      const read = () => {
        try {
          return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${child.pid}/io`, 'utf8'))?.[1] ?? 0) > size;
        } catch {
          return false;
        }
      };
      await until(read, 'sct to read the file', 30_000);
      await new Promise((r) => setTimeout(r, 200));
      // Not child.kill(): execa follows its SIGTERM with a SIGKILL after 5 s, and on a busy
      // machine the check can take longer to reach the signal.
      process.kill(child.pid!, 'SIGTERM');
      const r = await child;
      const stderr = stderrFile ? readFileSync(stderrFile, 'utf8') : String(r.stderr);
      expect(r.exitCode, `${files ? 'files' : 'pipes'} (signal ${r.signal}): ${stderr.slice(-300)}`).toBe(143);
      expect(stderr).toContain('stopped by SIGTERM');
    }
  });
});
