// `sct origins sync --file origins.csv|plots.geojson`: make the company's origins match a file
// (the columns of `origins import`, or a GeoJSON plot file, read by the same functions as
// `origins import`), matched by external_id. The plan and the run are src/sync/; this file says
// what an origin sync reads, compares and writes.
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import type { Outcome } from '../../bulk/runner.js';
import { PATHS } from '../../api/paths.js';
import { checkReportPath } from '../../bulk/report.js';
import { parseConcurrency, parseParallel } from '../shared/flags.js';
import type { SyncOriginsOptions } from './options.js';
import { originsToSync, PointsWithoutCountry, sniffInput, syncObjectOf } from './import.js';
import { UsageError } from '../../errors.js';
import { heldObjects, type FileObjects, type SyncSpec } from '../../sync/plan.js';
import { holdsObjects, runSync } from '../../sync/run.js';

/** What an origin sync compares; external_id is the key. */
export const ORIGIN_SYNC_SPEC: SyncSpec = {
  fields: { name: 'text', description: 'text', country_code: 'upper', location: 'geometry' },
};

export async function syncOrigins(ctx: Context, opts: SyncOriginsOptions): Promise<void> {
  checkReportPath(opts.report, opts.force, opts.file);
  const concurrency = parseConcurrency(opts.concurrency);
  const parallel = parseParallel(opts.parallel);
  const input = await sniffInput(opts.file, ctx.io.stdin, ctx.signal);
  const { objects, invalid } = input.plots ? await plotObjects(ctx, opts, input.stdin) : await csvObjects(ctx, opts, input.stdin);
  await runSync(ctx, {
    command: 'origins-sync',
    file: opts.file,
    noun: 'origins',
    objects,
    spec: ORIGIN_SYNC_SPEC,
    source: {
      path: PATHS.origins,
      query: {},
      keyField: 'external_id',
      keyFilter: 'external_id',
      summary: (o) => ({ external_id: o.external_id ?? null, id: o.id, name: o.name ?? null }),
    },
    createPath: PATHS.origins,
    updatePath: (id) => PATHS.origin(id),
    readPath: (id) => PATHS.origin(id),
    dryRun: opts.dryRun,
    concurrency,
    parallel,
    fresh: opts.fresh,
    report: opts.report,
    invalid,
    skipInvalid: opts.skipInvalid,
  });
}

/**
 * A GeoJSON plot file: the checks of `origins check` (any error: exit 2, before any request, the
 * reads included), then the bodies `origins import` would send, one per feature; a feature
 * without an external_id is refused (exit 2). src/geo is loaded only for such a file.
 */
async function plotObjects(ctx: Context, opts: SyncOriginsOptions, stdin: Readable): Promise<{ objects: FileObjects; invalid: Outcome[] }> {
  const { readPlotUnits } = await import('./import-plots.js');
  const { units, invalid } = await readPlotUnits(ctx, opts, stdin, 'sync');
  // A feature naming no country is checked at sea only ("look swapped" when swapping lands): its
  // point meets the country the service holds for it once the service is read.
  const countryless = new PointsWithoutCountry();
  for (const u of units) {
    const location = u.payload.location as { type?: unknown; coordinates?: [number, number] } | null | undefined;
    if (location?.type === 'Point' && !u.payload.country_code) countryless.add(u.key, u.lines[0]!, 'geometry', location.coordinates!);
  }
  return { objects: { ...heldObjects(units.map(syncObjectOf)), againstService: (service) => countryless.check(service, () => true), unit: 'feature' }, invalid };
}

async function csvObjects(ctx: Context, opts: SyncOriginsOptions, stdin: Readable): Promise<{ objects: FileObjects; invalid: Outcome[] }> {
  if (opts.nameProperty !== undefined || opts.countryCode !== undefined || opts.commodity !== undefined) {
    throw new UsageError('--name-property, --country-code and --commodity are for plot files (GeoJSON, KML, Shapefile, GPX): in a CSV file each row has its name and country_code columns');
  }
  // The same bodies `origins import` would send (empty cells left out: never compared, never
  // sent); name and country_code only for the rows that create: an update needs only what changes.
  return originsToSync(ctx, opts, stdin, holdsObjects(ctx, opts.dryRun));
}
