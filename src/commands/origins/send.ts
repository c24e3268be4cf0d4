// The end of every origins import, CSV rows (import.ts) or plot-file features (import-plots.ts):
// the dry run's requests, else the shared import run.
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { postsOf, writeRequests } from '../shared/dry-run.js';
import type { OriginCreate } from '../../api/schemas/origins.js';
import type { Outcome, Unit } from '../../bulk/runner.js';
import { runImport } from '../../bulk/import.js';
import { endDryRun } from '../../bulk/csv.js';
import type { FileUnit } from '../../bulk/report.js';
import type { ImportOriginsOptions } from './options.js';

/**
 * The end of every origins import, CSV rows or GeoJSON features: with --dry-run the requests it
 * would send, else the run.
 */
export async function sendOrigins(
  ctx: Context,
  opts: ImportOriginsOptions,
  o: { name: string; units: Unit<OriginCreate>[]; concurrency: number; invalid?: Outcome[]; unit?: FileUnit },
): Promise<void> {
  if (opts.dryRun) {
    await writeRequests(ctx, postsOf(PATHS.origins, o.units));
    dryRunSummary(ctx, o.name, o.units.length);
    return endDryRun(o.name, o.invalid, o.unit);
  }
  await runImport(ctx, {
    command: 'origins-import',
    file: opts.file,
    units: o.units,
    noun: 'origins',
    path: PATHS.origins,
    concurrency: o.concurrency,
    fresh: opts.fresh,
    report: opts.report,
    invalid: o.invalid,
    unit: o.unit,
  });
}

/** What a dry run of origins says on stderr once its requests are written. */
export function dryRunSummary(ctx: Context, name: string, count: number): void {
  ctx.io.info(`${name}: ${count} valid origin${count === 1 ? '' : 's'} in ${count} request${count === 1 ? '' : 's'}; nothing sent (dry run)`);
}
