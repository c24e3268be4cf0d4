// `sct origins list -o geojson --eudr [--max-size 25MB --out DIR]`: the origins as the EU
// registry's GeoJSON (cli-spec.md "Files for the registry"): ProductionPlace, ProducerCountry,
// Area for points and external_id, nothing else. The registry takes at most 25 MB of
// geolocation per statement, so --out splits the collection into numbered files, each under
// --max-size as written, no feature cut across two.
import { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { COLUMNS } from '../../output/columns.js';
import { FEATURE_COLLECTION, toFeature } from '../../output/geojson.js';
import { resolveTarget, saveStream } from '../../output/download.js';
import { UsageError } from '../../errors.js';
import { pageOptions, runList } from '../shared/list.js';
import type { EudrExportFlags } from './options.js';

/** The registry's assumption for a Point without an Area (hectares). */
const DEFAULT_POINT_HA = 4;

/** "25MB", "500kB", "2000000": bytes, with kB and MB as 1,000 and 1,000,000 (as the registry counts). */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb)?\s*$/i.exec(text);
  const factor = { b: 1, kb: 1_000, mb: 1_000_000 }[(m?.[2] ?? 'b').toLowerCase() as 'b' | 'kb' | 'mb'];
  const bytes = m ? Math.floor(Number(m[1]) * factor) : NaN;
  if (!Number.isFinite(bytes) || bytes <= 0) throw new UsageError(`invalid --max-size "${text}": expected a size such as 25MB, 500kB or a number of bytes`);
  return bytes;
}

/** The flags that only make sense together, checked before any request. */
export function checkEudrFlags(flags: EudrExportFlags, format: string, columns: string | undefined): void {
  if (!flags.eudr) {
    if (flags.maxSize !== undefined || flags.out !== undefined) throw new UsageError('--max-size and --out go with --eudr (the registry\'s GeoJSON files)');
    return;
  }
  if (format !== 'geojson') throw new UsageError('--eudr writes the registry\'s GeoJSON: use it with -o geojson');
  if (columns !== undefined) throw new UsageError('--columns does not go with --eudr: the registry\'s files carry its own properties (ProductionPlace, ProducerCountry, Area, external_id)');
  if (flags.maxSize !== undefined && flags.out === undefined) throw new UsageError('--max-size splits the export into files: give the directory with --out DIR');
}

/** An origin as the registry reads it; the location is the geometry (toFeature). */
export function registryProperties(origin: Record<string, unknown>): Record<string, unknown> {
  const location = origin.location as { type?: unknown; Area?: unknown; area?: unknown } | null | undefined;
  const stated = [location?.Area, location?.area].find((v) => typeof v === 'number' && Number.isFinite(v) && v > 0);
  return {
    location,
    ProductionPlace: origin.name ?? null,
    ProducerCountry: origin.country_code ?? null,
    ...(location?.type === 'Point' && { Area: stated ?? DEFAULT_POINT_HA }),
    ...(origin.external_id !== undefined && origin.external_id !== null && { external_id: origin.external_id }),
  };
}

export async function exportForRegistry(ctx: Context, flags: EudrExportFlags, query: URLSearchParams): Promise<void> {
  if (flags.out === undefined) {
    await runList(ctx, { path: PATHS.origins, query, flags, columns: COLUMNS.origin, noun: 'origins', map: registryProperties });
    return;
  }
  const maxBytes = flags.maxSize === undefined ? Infinity : parseSize(flags.maxSize);
  // Files for a statement hold every origin that matches, unless --limit says otherwise.
  const paging = pageOptions({ ...flags, all: flags.all || flags.limit === undefined });
  const files = new FileSplitter(maxBytes);
  for await (const page of ctx.client().paginate(PATHS.origins, query, paging)) {
    for (const origin of page.results as Record<string, unknown>[]) files.add(JSON.stringify(toFeature(registryProperties(origin))), String(origin.id ?? ''));
  }
  const texts = files.texts();
  const width = Math.max(3, String(texts.length).length);
  // Every name checked before the first is written: a refusal leaves the directory as it was.
  const targets = texts.map((_, i) => resolveTarget(`${flags.out}/`, `origins-${String(i + 1).padStart(width, '0')}.geojson`, { cwd: process.cwd(), force: flags.force }));
  for (let i = 0; i < texts.length; i++) {
    await saveStream(Readable.from([texts[i]]), targets[i]);
    ctx.io.info(`${targets[i].path}: ${files.counts[i]} feature${files.counts[i] === 1 ? '' : 's'}, ${Buffer.byteLength(texts[i]).toLocaleString('en-US')} bytes`);
  }
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
