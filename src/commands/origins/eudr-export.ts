// `sct origins list -o geojson --eudr [--max-size 25MB --out DIR]`: the origins as the EU
// registry's GeoJSON (cli-spec.md "Files for the registry"): ProductionPlace, ProducerCountry,
// Area for points and external_id, nothing else. The registry takes at most 25 MB of
// geolocation per statement, so --out splits the collection into numbered files, each under
// --max-size as written, no feature cut across two.
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { COLUMNS } from '../../output/columns.js';
import { FEATURE_COLLECTION, toFeature } from '../../output/geojson.js';
import { checkOutGiven, checkOutIsDirectory, resolveTarget, saveTogether } from '../../output/download.js';
import { UsageError } from '../../errors.js';
import { cleanCell, stripControl } from '../../util/sanitize.js';
import { pageOptions, runList } from '../shared/list.js';
import type { EudrExportFlags } from './options.js';

/** The registry's assumption for a Point without an Area (hectares). */
const DEFAULT_POINT_HA = 4;

/** "25MB", "500kB", "2000000": bytes, with kB and MB as 1,000 and 1,000,000 (as the registry counts). */
function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb)?\s*$/i.exec(text);
  const factor = { b: 1, kb: 1_000, mb: 1_000_000 }[(m?.[2] ?? 'b').toLowerCase() as 'b' | 'kb' | 'mb'];
  const bytes = m ? Math.floor(Number(m[1]) * factor) : NaN;
  if (!Number.isFinite(bytes) || bytes <= 0) throw new UsageError(`invalid --max-size "${text}": expected a size such as 25MB, 500kB or a number of bytes`);
  return bytes;
}

/** The flags that only make sense together, checked before any request. */
export function checkEudrFlags(flags: EudrExportFlags, format: string, columns: string | undefined, cwd: string): void {
  checkOutGiven(flags.out);
  // `-` is stdout elsewhere; here --out is a directory of files: stdout is no --out at all.
  if (flags.out === '-') throw new UsageError('--out - : the registry export goes to a directory (--out DIR), or to stdout without --out');
  if (flags.force && flags.out === undefined) throw new UsageError('--force goes with --out (it replaces an earlier export in that directory)');
  if (!flags.eudr) {
    if (flags.maxSize !== undefined || flags.out !== undefined) throw new UsageError('--max-size and --out go with --eudr (the registry\'s GeoJSON files)');
    return;
  }
  if (format !== 'geojson') throw new UsageError('--eudr writes the registry\'s GeoJSON: use it with -o geojson');
  if (columns !== undefined) throw new UsageError('--columns does not go with --eudr: the registry\'s files carry its own properties (ProductionPlace, ProducerCountry, Area, external_id)');
  if (flags.maxSize !== undefined && flags.out === undefined) throw new UsageError('--max-size splits the export into files: give the directory with --out DIR');
  // --out is always a directory here: a file in the way is said before the pages are read.
  if (flags.out !== undefined) checkOutIsDirectory(flags.out, cwd);
}

const GEOMETRIES = new Set(['Point', 'Polygon', 'MultiPolygon']);

/**
 * An origin as the registry reads it; the location is the geometry (toFeature), with its type and
 * coordinates only (an `Area` the location carries is a property there). Undefined for an origin
 * without a location: the registry refuses a feature without geometry (`left` counts them).
 */
function registryProperties(origin: Record<string, unknown>, left?: LeftOut): Record<string, unknown> | undefined {
  const location = origin.location as { type?: unknown; coordinates?: unknown; Area?: unknown; area?: unknown } | null | undefined;
  if (!location || typeof location !== 'object' || !GEOMETRIES.has(location.type as string) || !Array.isArray(location.coordinates)) {
    left?.push(origin.id);
    return undefined;
  }
  const stated = [location.Area, location.area].find((v) => typeof v === 'number' && Number.isFinite(v) && v > 0);
  return {
    location: { type: location.type, coordinates: location.coordinates },
    ProductionPlace: origin.name ?? null,
    ProducerCountry: origin.country_code ?? null,
    ...(location.type === 'Point' && { Area: stated ?? DEFAULT_POINT_HA }),
    ...(origin.external_id !== undefined && origin.external_id !== null && { external_id: origin.external_id }),
  };
}

/** The ids of the origins an export left out. */
type LeftOut = unknown[];

function warnLeftOut(ctx: Context, left: LeftOut): void {
  if (left.length === 0) return;
  const shown = left.slice(0, 20).map((id) => cleanCell(String(id))).join(', ') + (left.length > 20 ? `, … (${left.length - 20} more)` : '');
  ctx.io.warn(`${left.length} origin${left.length === 1 ? '' : 's'} without a location left out (the registry refuses a plot without geometry): ${shown}`);
}

export async function exportForRegistry(ctx: Context, flags: EudrExportFlags, query: URLSearchParams): Promise<void> {
  const left: LeftOut = [];
  // What the service holds was written by any client: each plot is held to the rules sct holds a
  // file to before it is sent, and those the registry would refuse are named (the file is still
  // written whole: it is what the service holds).
  const refused = new RefusedPlots(await import('../../geo/plot-checks.js'));
  const propertiesOf = (origin: Record<string, unknown>) => {
    const properties = registryProperties(origin, left);
    if (properties) refused.check(origin, properties);
    return properties;
  };
  // A file for a statement holds every origin that matches, unless --limit says otherwise:
  // into stdout (`> plots.geojson`) as into --out, never the list's first page alone.
  const every = { ...flags, all: flags.all || flags.limit === undefined };
  if (flags.out === undefined) {
    try {
      await runList(ctx, { path: PATHS.origins, query, flags: every, columns: COLUMNS.origin, noun: 'origins', map: propertiesOf });
    } finally {
      warnLeftOut(ctx, left);
      refused.warn(ctx);
    }
    return;
  }
  const maxBytes = flags.maxSize === undefined ? Infinity : parseSize(flags.maxSize);
  const paging = pageOptions(every);
  const files = new FileSplitter(maxBytes);
  for await (const page of ctx.client().paginate(PATHS.origins, query, paging)) {
    for (const origin of page.results as Record<string, unknown>[]) {
      const properties = propertiesOf(origin);
      if (properties) files.add(JSON.stringify(toFeature(properties)), String(origin.id ?? ''));
    }
  }
  const texts = files.texts();
  const width = Math.max(3, String(texts.length).length);
  // Every name checked before the first is written: a refusal leaves the directory as it was.
  const targets = texts.map((_, i) => resolveTarget(`${flags.out}/`, `origins-${String(i + 1).padStart(width, '0')}.geojson`, { cwd: ctx.cwd, force: flags.force }));
  // Files of an earlier export the new ones do not replace would be read as part of the same
  // statement: named (exit 2) unless --force, which removes them once the new files are written.
  const earlier = earlierExportFiles(flags.out, new Set(targets.map((t) => basename(t.path))));
  if (earlier.length > 0 && !flags.force) {
    throw new UsageError(`${flags.out} holds files of an earlier export that this one would not replace: ${earlier.slice(0, 5).join(', ')}${earlier.length > 5 ? ', …' : ''}; nothing was written`, {}, 'pass --force to replace the export (they are removed), or choose another --out');
  }
  // All written before any takes its name: a full disk or Ctrl-C half-way leaves the earlier
  // export as it was, never some new files beside the old set's others (features twice, or missing).
  await saveTogether(texts.map((text) => Readable.from([text])), targets);
  for (let i = 0; i < texts.length; i++) {
    ctx.io.info(`${targets[i].path}: ${files.counts[i]} feature${files.counts[i] === 1 ? '' : 's'}, ${Buffer.byteLength(texts[i]).toLocaleString('en-US')} bytes`);
  }
  for (const name of earlier) unlinkSync(join(flags.out, name));
  if (earlier.length > 0) ctx.io.info(`removed ${earlier.length} file${earlier.length === 1 ? '' : 's'} of an earlier export: ${earlier.join(', ')}`);
  warnLeftOut(ctx, left);
  refused.warn(ctx);
}

/** The origins of an export whose plot the registry would refuse, each with its first reason. */
class RefusedPlots {
  private readonly found: string[] = [];
  private count = 0;

  constructor(private readonly geo: typeof import('../../geo/plot-checks.js')) {}

  check(origin: Record<string, unknown>, properties: Record<string, unknown>): void {
    const area = properties.Area === undefined ? {} : { Area: properties.Area };
    // The geometry and area rules: a country's outline for every plot of a large export cost
    // more than the export itself (300 plots of 300 positions: 0.27 s became 0.75 s).
    const [first] = this.geo.plotErrors(properties.location, typeof properties.ProducerCountry === 'string' ? properties.ProducerCountry : undefined, area, true);
    if (first === undefined) return;
    this.count++;
    const ext = origin.external_id === undefined || origin.external_id === null ? '' : ` (${stripControl(String(origin.external_id))})`;
    if (this.found.length < 20) this.found.push(`origin ${stripControl(String(origin.id))}${ext}: ${first}`);
  }

  warn(ctx: Context): void {
    if (this.count === 0) return;
    const more = this.count > this.found.length ? `\n  … and ${this.count - this.found.length} more` : '';
    ctx.io.warn(`${this.count} origin${this.count === 1 ? '' : 's'} in the file the registry would refuse:\n  ${this.found.join('\n  ')}${more}\nsct origins check FILE lists every finding; mend them on the service (sct origins update ID --location-file …)`);
  }
}

/** The `origins-NNN.geojson` files (or links) in dir that are not among `written`. */
function earlierExportFiles(dir: string, written: Set<string>): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^origins-\d+\.geojson$/.test(n) && !written.has(n))
    .filter((n) => {
      const st = lstatSync(join(dir, n), { throwIfNoEntry: false });
      return st !== undefined && (st.isFile() || st.isSymbolicLink());
    })
    .sort();
}

/** Features packed in order into FeatureCollection texts of at most maxBytes each. */
class FileSplitter {
  private readonly frame = Buffer.byteLength(FEATURE_COLLECTION.open) + Buffer.byteLength(FEATURE_COLLECTION.close);
  private readonly sep = Buffer.byteLength(FEATURE_COLLECTION.separator);
  private readonly groups: string[][] = [[]];
  readonly counts: number[] = [0];
  private bytes = this.frame;

  constructor(private readonly maxBytes: number) {}

  add(feature: string, id: string): void {
    const size = Buffer.byteLength(feature);
    if (this.frame + size > this.maxBytes) {
      throw new UsageError(`origin ${id} alone is ${(this.frame + size).toLocaleString('en-US')} bytes as a file, over --max-size (${this.maxBytes.toLocaleString('en-US')} bytes): nothing was written`);
    }
    const current = this.groups[this.groups.length - 1];
    const grown = this.bytes + size + (current.length > 0 ? this.sep : 0);
    if (grown > this.maxBytes) {
      this.groups.push([feature]);
      this.counts.push(1);
      this.bytes = this.frame + size;
      return;
    }
    current.push(feature);
    this.counts[this.counts.length - 1]++;
    this.bytes = grown;
  }

  texts(): string[] {
    return this.groups.map((g) => (g.length === 0 ? FEATURE_COLLECTION.empty : FEATURE_COLLECTION.open + g.join(FEATURE_COLLECTION.separator) + FEATURE_COLLECTION.close));
  }
}
