// The end of every origins import, CSV rows (import.ts) or plot-file features (import-plots.ts):
// the dry run's listing, else the shared import run.
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { writeList } from '../../output/format.js';
import type { OriginCreate } from '../../api/schemas/origins.js';
import type { Outcome, Unit } from '../../bulk/runner.js';
import { runImport } from '../../bulk/import.js';
import type { ImportOriginsOptions } from './options.js';

/**
 * The end of every origins import, CSV rows or GeoJSON features: with --dry-run the valid
 * origins listed (`unit`: what a unit's number counts), else the run.
 */
export async function sendOrigins(
  ctx: Context,
  opts: ImportOriginsOptions,
  o: { name: string; units: Unit<OriginCreate>[]; concurrency: number; unit: 'line' | 'feature'; invalid?: Outcome[] },
): Promise<void> {
  if (opts.dryRun) {
    await writeList(
      ctx.io,
      o.units.map((u) => ({ [o.unit]: u.lines[0], key: u.key, ...u.payload })),
      ctx.output([
        { header: o.unit.toUpperCase(), path: o.unit },
        { header: 'KEY', path: 'key' },
        { header: 'NAME', path: 'name' },
        { header: 'COUNTRY', path: 'country_code' },
        { header: 'EXTERNAL ID', path: 'external_id' },
        { header: 'LOCATION', path: 'location', value: (r) => locationText(r.location) },
      ]),
    );
    ctx.io.info(`${o.name}: ${o.units.length} valid origin${o.units.length === 1 ? '' : 's'}; nothing sent (dry run)`);
    return;
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
  });
}

/** A Point as "lat,lng"; a polygon by its type and size. */
function locationText(location: unknown): string {
  const g = location as { type?: string; coordinates?: unknown } | undefined;
  if (!g?.type || !Array.isArray(g.coordinates)) return '';
  if (g.type === 'Point') return `${g.coordinates[1]},${g.coordinates[0]}`;
  const positions = (g.coordinates as unknown[]).flat(g.type === 'MultiPolygon' ? 2 : 1).length;
  return `${g.type} (${positions} positions)`;
}
