// The geolocation benchmark (`npm run bench` runs it; `node bench/geo.mjs [--quick]` alone):
// `sct origins check` of a plot file of 100,000 features, half points and half polygons (6 to 9
// corners, one in ten a MultiPolygon of two blocks), in Côte d'Ivoire, Ghana, Brazil and
// Indonesia, generated into a temporary directory. 20,000 features with --quick.
//
// Reported: wall time and features per second of the whole command (start-up included; target
// ≥ 20,000 features/s), its peak RSS (GNU time; target ≤ 300 MB), and the same two figures for a
// baseline measured in the same run: `node -e` reading and JSON.parse-ing the same file, the
// least any checker of the file must do.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sct.js');

const PLACES = [
  ['CI', 'Soubré', 5.78, -6.59],
  ['CI', 'Daloa', 6.88, -6.45],
  ['GH', 'Sefwi Wiawso', 6.21, -2.49],
  ['GH', 'Ashanti', 6.69, -1.62],
  ['BR', 'Sul de Minas', -21.55, -45.43],
  ['BR', 'Mato Grosso', -12.55, -55.71],
  ['ID', 'North Sumatra', 2.1, 99.5],
  ['ID', 'Jambi', -1.61, 103.61],
];

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const six = (n) => Math.round(n * 1e6) / 1e6;

function ring(r, lng, lat, radiusDeg) {
  const n = 6 + Math.floor(r() * 4);
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = ((i + 0.2 + r() * 0.6) * 2 * Math.PI) / n;
    const d = radiusDeg * (0.7 + r() * 0.3);
    pts.push([six(lng + (Math.cos(a) * d) / Math.cos((lat * Math.PI) / 180)), six(lat + Math.sin(a) * d)]);
  }
  pts.push(pts[0]);
  return [pts];
}

/** Writes the plot file and returns its size in bytes. */
export function writePlotFile(file, features) {
  const r = rng(20251123);
  const parts = [];
  for (let i = 0; i < features; i++) {
    const [country, region, lat0, lng0] = PLACES[i % PLACES.length];
    const lat = lat0 + (r() - 0.5) * 0.3;
    const lng = lng0 + (r() - 0.5) * 0.3;
    let geometry;
    if (i % 2 === 0) geometry = { type: 'Point', coordinates: [six(lng), six(lat)] };
    else if (i % 20 === 1) geometry = { type: 'MultiPolygon', coordinates: [ring(r, lng, lat, 0.0012), ring(r, lng + 0.004, lat, 0.001)] };
    else geometry = { type: 'Polygon', coordinates: ring(r, lng, lat, 0.0008 + r() * 0.0012) };
    const properties = { ProducerCountry: country, ProductionPlace: `Plot ${i + 1}, ${region}`, Area: i % 2 === 0 ? (1 + Math.round(r() * 34)) / 10 : undefined }; // 0.1..3.5 ha: the registry refuses an Area of 0
    parts.push(JSON.stringify({ type: 'Feature', id: `${country}-${String(i + 1).padStart(6, '0')}`, properties, geometry }));
  }
  writeFileSync(file, `{"type":"FeatureCollection","features":[\n${parts.join(',\n')}\n]}\n`);
  return statSync(file).size;
}

/** Wall time (ms), peak RSS (MB, GNU time) and exit code of `node args…`. */
function measure(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const lines = String(r.stderr).trim().split('\n');
  return { ms, mb: Number(lines.pop()) / 1024, status: r.status, stderr: lines.join('\n') };
}

export async function geoBench({ quick = false } = {}) {
  if (!existsSync('/usr/bin/time')) {
    console.log('\nGeolocation check: skipped (needs GNU time at /usr/bin/time for peak RSS)');
    return;
  }
  if (!existsSync(join(root, 'dist', 'cli.cjs'))) spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const features = quick ? 20_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'sct-geo-bench-'));
  try {
    const file = join(dir, 'plots.geojson');
    const bytes = writePlotFile(file, features);
    // Warm the disk cache for both, then keep the better of two runs of each.
    const baseArgs = ['-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`];
    const sctArgs = [bin, 'origins', 'check', file, '-o', 'json'];
    measure(baseArgs);
    const best = (args) => [measure(args), measure(args)].sort((a, b) => a.ms - b.ms)[0];
    const base = best(baseArgs);
    const sct = best(sctArgs);
    if (sct.status !== 0) throw new Error(`sct origins check exited ${sct.status}: ${sct.stderr.slice(0, 2000)}`);
    const rate = Math.round(features / (sct.ms / 1000));
    console.log(`\nGeolocation: sct origins check of ${features.toLocaleString('en-US')} features (half polygons), ${(bytes / 1e6).toFixed(1)} MB`);
    console.log(`  node JSON.parse (baseline)  ${(base.ms / 1000).toFixed(2).padStart(6)} s   peak RSS ${base.mb.toFixed(1).padStart(6)} MB`);
    console.log(
      `  sct origins check           ${(sct.ms / 1000).toFixed(2).padStart(6)} s   peak RSS ${sct.mb.toFixed(1).padStart(6)} MB` +
        `   (${(sct.ms / base.ms).toFixed(1)}× the time, ${(sct.mb / base.mb).toFixed(1)}× the memory of the baseline)`,
    );
    console.log(`  features per second: ${rate.toLocaleString('en-US')} ${rate >= 20_000 ? 'ok' : 'under the 20,000 target'}; peak RSS ${sct.mb <= 300 ? 'ok' : 'over the 300 MB target'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await geoBench({ quick: process.argv.includes('--quick') });
}
