// `sct origins sync --file origins.csv`: make the company's origins match a file (the columns
// of `origins import`, read by the same functions), matched by external_id. The plan and the
// run are src/sync/; this file says what an origin sync reads, compares and writes.
// GeoJSON plot files are refused for now: the checks-then-units step of `origins import`
// (import-plots.ts) is not yet a function of its own that sync could call.
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { readCsv, RowErrors, warnIgnoredColumns } from '../../bulk/csv.js';
import { checkReportPath } from '../../bulk/report.js';
import { parseConcurrency } from '../shared/flags.js';
import type { BulkRunFlags } from '../shared/bulk.js';
import { IMPORT_COLUMNS, importColumnNames, originUnits, sniffInput } from './import.js';
import { UsageError } from '../../errors.js';
import type { SyncSpec } from '../../sync/plan.js';
import { runSync } from '../../sync/run.js';

export interface SyncOriginsOptions extends BulkRunFlags {
  file: string;
}

/** What an origin sync compares; external_id is the key. */
export const ORIGIN_SYNC_SPEC: SyncSpec = {
  fields: { name: 'text', description: 'text', country_code: 'upper', location: 'geometry' },
};

export async function syncOrigins(ctx: Context, opts: SyncOriginsOptions): Promise<void> {
  checkReportPath(opts.report, opts.force);
  const concurrency = parseConcurrency(opts.concurrency);
  // GeoJSON plot files are not read by sync yet: said plainly rather than as a CSV error.
  const input = await sniffInput(opts.file, ctx.io.stdin);
  if (input.geojson) {
    throw new UsageError(`${opts.file}: origins sync reads a CSV file; a GeoJSON plot file goes through \`sct origins check\` and \`sct origins import\``);
  }
  const csv = await readCsv(opts.file, input.stdin, ['name', 'country_code', 'external_id']);
  const names = importColumnNames(csv.columns);
  warnIgnoredColumns(ctx.io, csv, Object.values(names), IMPORT_COLUMNS);
  const errors = new RowErrors(csv.name);
  // An import can create a row without one; a sync cannot find it again on the next night.
  for (const row of csv.rows) {
    if (!row.values[names.external_id]?.trim()) errors.add(row.line, 'external_id', 'required: a sync matches each row with an origin by its external_id');
  }
  // The same bodies `origins import` would send (empty cells left out: never compared, never sent).
  const units = originUnits(csv.rows, errors, names);
  errors.throwIfAny();
  await runSync(ctx, {
    command: 'origins-sync',
    file: opts.file,
    noun: 'origins',
    objects: units.map((u) => ({ key: u.key, lines: u.lines, body: u.payload })),
    spec: ORIGIN_SYNC_SPEC,
    source: {
      path: PATHS.origins,
      query: {},
      keyField: 'external_id',
      summary: (o) => ({ external_id: o.external_id ?? null, id: o.id, name: o.name ?? null }),
    },
    createPath: PATHS.origins,
    updatePath: (id) => PATHS.origin(id),
    dryRun: opts.dryRun,
    concurrency,
    fresh: opts.fresh,
    report: opts.report,
  });
}
