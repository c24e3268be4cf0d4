// `sct origins list -o geojson --eudr` (cli-spec.md "Files for the registry") against the
// sandbox: the registry's properties and nothing else, and with --max-size --out DIR numbered
// files each under the size, each valid for `origins check`, no feature lost or doubled.
import { beforeEach, describe, expect, it } from 'vitest';
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ rateLimit: 100_000 }, { inProcess: true });
const PLOTS = 240;
const FILTER = ['--name', 'EUDR export'];

/** Half points with an Area, half polygons of 8 corners, in Western North (Ghana). */
function plots() {
  const features = [];
  for (let i = 0; i < PLOTS; i++) {
    const x = -2.6 + (i % 20) * 0.01;
    const y = 6.1 + Math.floor(i / 20) * 0.01;
    const six = (n: number) => Math.round(n * 1e6) / 1e6;
    const geometry =
      i % 2 === 0
        ? { type: 'Point', coordinates: [six(x + 0.0012345), six(y + 0.0012345)] }
        : { type: 'Polygon', coordinates: [[0, 1, 2, 3, 4, 5, 6, 7, 0].map((k) => [six(x + 0.002 * Math.cos((k * Math.PI) / 4) + 0.0000013), six(y + 0.002 * Math.sin((k * Math.PI) / 4) + 0.0000017)])] };
    features.push({ type: 'Feature', properties: { ProductionPlace: `EUDR export plot ${i + 1}`, ProducerCountry: 'GH', external_id: `GH-EX-${String(i + 1).padStart(4, '0')}`, ...(i % 2 === 0 && { Area: 1.5 }) }, geometry });
  }
  return { type: 'FeatureCollection', features };
}

// Once for the file (the sandbox lives as long as the file; each test has its own config dir).
let seeded = false;
beforeEach(async () => {
  if (seeded) return;
  seeded = true;
  const r = await t.sct(['origins', 'import', '--file', t.writeFile('export-plots.geojson', JSON.stringify(plots()))]);
  expect(r.exitCode, r.stderr).toBe(0);
});

describe('origins list -o geojson --eudr', () => {
  it('writes the registry’s properties and nothing else', async () => {
    const r = await t.sct(['origins', 'list', ...FILTER, '--limit', '3', '--ordering', 'name', '-o', 'geojson', '--eudr']);
    expect(r.exitCode, r.stderr).toBe(0);
    const fc = JSON.parse(r.stdout);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.map((f: { properties: unknown }) => f.properties)).toEqual([
      { ProductionPlace: 'EUDR export plot 1', ProducerCountry: 'GH', Area: 4, external_id: 'GH-EX-0001' },
      { ProductionPlace: 'EUDR export plot 10', ProducerCountry: 'GH', external_id: 'GH-EX-0010' },
      { ProductionPlace: 'EUDR export plot 100', ProducerCountry: 'GH', external_id: 'GH-EX-0100' },
    ]);
    expect(fc.features[1].geometry.type).toBe('Polygon');
  });

  it('into stdout, as into --out, holds every origin that matches unless --limit is given (a file for a statement, never a first page)', async () => {
    const r = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).features).toHaveLength(PLOTS);
    const some = await t.sct(['origins', 'list', ...FILTER, '--limit', '5', '-o', 'geojson', '--eudr']);
    expect(JSON.parse(some.stdout).features).toHaveLength(5);
  });

  it('--out naming a file (or a path through one) is exit 2 before any request', async () => {
    const file = t.writeFile('a-file', 'x');
    t.sb.requests.length = 0;
    for (const out of [file, join(file, 'sub')]) {
      const r = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr', '--out', out]);
      expect(r.exitCode, r.stderr).toBe(2);
      // The --out as typed, without a slash the user never wrote.
      expect(r.stderr).toContain(`--out ${out}: not a directory (a file is in the way)`);
    }
    expect(t.sb.requests).toEqual([]);
  });

  it('--max-size --out DIR: numbered files each under the size, each valid, no feature lost or doubled', async () => {
    const dir = join(t.dir, 'statement');
    const r = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr', '--max-size', '20kB', '--out', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const files = readdirSync(dir).sort();
    expect(files.length).toBeGreaterThan(2);
    expect(files).toEqual(files.map((_, i) => `origins-${String(i + 1).padStart(3, '0')}.geojson`));
    const ids: string[] = [];
    for (const f of files) {
      const path = join(dir, f);
      expect(lstatSync(path).size, f).toBeLessThanOrEqual(20_000);
      const fc = JSON.parse(readFileSync(path, 'utf8'));
      expect(fc.type).toBe('FeatureCollection');
      ids.push(...fc.features.map((x: { properties: { external_id: string } }) => x.properties.external_id));
      const check = await t.sct(['origins', 'check', path]);
      expect(check.exitCode, `${f}: ${check.stdout}`).toBe(0);
    }
    expect(ids).toHaveLength(PLOTS);
    expect(new Set(ids).size).toBe(PLOTS);
    expect(r.stderr).toContain(`${join(dir, 'origins-001.geojson')}: `);

    // Again without --force: refused before anything is written, the files as they were.
    const before = readFileSync(join(dir, files[0]), 'utf8');
    const again = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr', '--max-size', '25kB', '--out', dir]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already exists: pass --force to overwrite it');
    expect(readFileSync(join(dir, files[0]), 'utf8')).toBe(before);
  });

  it('--out DIR with files of an earlier export: refused without --force, and with it the ones not written again are removed', async () => {
    const dir = join(t.dir, 'again');
    const first = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr', '--max-size', '20kB', '--out', dir]);
    expect(first.exitCode, first.stderr).toBe(0);
    const before = readdirSync(dir).sort();
    expect(before.length).toBeGreaterThan(2);
    // Fewer, larger files over the same directory: without --force the old ones are named.
    const refused = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr', '--max-size', '200kB', '--out', dir]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('origins-001.geojson');
    expect(readdirSync(dir).sort()).toEqual(before);
    const forced = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr', '--max-size', '200kB', '--out', dir, '--force']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    const after = readdirSync(dir).sort();
    expect(after).toEqual(after.map((_, i) => `origins-${String(i + 1).padStart(3, '0')}.geojson`));
    expect(after.length).toBeLessThan(before.length);
    expect(forced.stderr).toContain(`removed ${before.length - after.length} file`);
    const features = after.flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).features);
    expect(features).toHaveLength(PLOTS);
    // Only a higher-numbered file there (another statement's), the new names all free: still refused.
    const other = join(t.dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'origins-099.geojson'), '{}');
    const stale = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr', '--max-size', '200kB', '--out', other]);
    expect(stale.exitCode).toBe(2);
    expect(stale.stderr).toContain('origins-099.geojson');
    expect(readdirSync(other)).toEqual(['origins-099.geojson']);
  });

  it('an origin without a location is left out with a warning (the registry refuses a feature without geometry); a geometry carries only type and coordinates', async () => {
    const none = await t.sct(['origins', 'create', '--name', 'EUDR nowhere', '--country-code', 'GH', '-o', 'json']);
    expect(none.exitCode, none.stderr).toBe(0);
    const noneId = JSON.parse(none.stdout).id as number;
    const extra = await t.sct(['origins', 'create', '--name', 'EUDR extra member', '--country-code', 'GH', '--location', '{"type":"Point","coordinates":[-2.5,6.2],"Area":2}', '-o', 'json']);
    expect(extra.exitCode, extra.stderr).toBe(0);
    const r = await t.sct(['origins', 'list', '--name', 'EUDR nowhere', '-o', 'geojson', '--eudr']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).features).toEqual([]);
    expect(r.stderr).toContain(`warning: 1 origin without a location left out (the registry refuses a plot without geometry): ${noneId}`);
    const e = await t.sct(['origins', 'list', '--name', 'EUDR extra member', '-o', 'geojson', '--eudr']);
    const [feature] = JSON.parse(e.stdout).features;
    expect(feature.geometry).toEqual({ type: 'Point', coordinates: [-2.5, 6.2] });
    expect(feature.properties.Area).toBe(2);
  });

  it('refuses flags that do not go together, before any request', async () => {
    const dir = join(t.dir, 'small');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'x');
    await t.expectUsageErrors([
      [['origins', 'list', '--eudr'], '--eudr writes the registry\'s GeoJSON: use it with -o geojson'],
      [['origins', 'list', '-o', 'geojson', '--eudr', '--max-size', '25MB'], '--max-size splits the export into files: give the directory with --out DIR'],
      [['origins', 'list', '-o', 'geojson', '--out', dir], '--max-size and --out go with --eudr'],
      [['origins', 'list', '--force'], '--force goes with --out'],
      // A script's unset $DIR: never the root directory (`'' + '/'`), nor the current one.
      [['origins', 'list', '-o', 'geojson', '--eudr', '--out', ''], '--out needs a directory or file name (an empty one was given)'],
      [['origins', 'list', '-o', 'geojson', '--eudr', '--out', ' ', '--force'], '--out needs a directory or file name'],
      [['documents', 'download', '4', '--out', ''], '--out needs a directory or file name'],
      [['risk', 'evidence', '12', '--out', ''], '--out needs a directory or file name'],
      [['origins', 'list', '-o', 'geojson', '--eudr', '--out', '-'], 'the registry export goes to a directory (--out DIR), or to stdout without --out'],
      [['origins', 'list', '-o', 'geojson', '--eudr', '--force'], '--force goes with --out'],
      [['origins', 'list', '-o', 'geojson', '--eudr', '--max-size', 'big', '--out', dir], 'invalid --max-size "big"'],
    ]);
    const tiny = await t.sct(['origins', 'list', ...FILTER, '-o', 'geojson', '--eudr', '--max-size', '100', '--out', dir]);
    expect(tiny.exitCode).toBe(2);
    expect(tiny.stderr).toMatch(/alone is [\d,]+ bytes as a file, over --max-size \(100 bytes\): nothing was written/);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });
});
