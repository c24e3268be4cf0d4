// `sct origins sync --file origins.csv|plots.geojson`: make the company's origins match a file
// (the columns of `origins import`, or a GeoJSON plot file, read by the same functions as
// `origins import`), matched by external_id. The plan and the run are src/sync/; this file says
// what an origin sync reads, compares and writes.
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import type { Outcome } from '../../bulk/runner.js';
import { PATHS } from '../../api/paths.js';
import { dropReadOnlyColumns, readCsv, RowErrors, refuseUnknownColumns } from '../../bulk/csv.js';
import { RESOURCE_FIELDS } from '../../api/schemas/fields.js';
import { checkReportPath } from '../../bulk/report.js';
import { parseConcurrency, parseParallel } from '../shared/flags.js';
import type { SyncOriginsOptions } from './options.js';
import { IMPORT_COLUMNS, importColumnNames, KNOWN_COLUMNS, originUnits, sniffInput, type OriginUnit } from './import.js';
import { UsageError } from '../../errors.js';
import { heldObjects, type SyncSpec } from '../../sync/plan.js';
import { runSync } from '../../sync/run.js';

/** What an origin sync compares; external_id is the key. */
export const ORIGIN_SYNC_SPEC: SyncSpec = {
  fields: { name: 'text', description: 'text', country_code: 'upper', location: 'geometry' },
};

export async function syncOrigins(ctx: Context, opts: SyncOriginsOptions): Promise<void> {
  checkReportPath(opts.report, opts.force, opts.file);
  const concurrency = parseConcurrency(opts.concurrency);
  const parallel = parseParallel(opts.parallel);
  const input = await sniffInput(opts.file, ctx.io.stdin, ctx.signal);
  const { units, invalid } = input.plots ? await plotUnits(ctx, opts, input.stdin) : await csvUnits(ctx, opts, input.stdin);
  await runSync(ctx, {
    command: 'origins-sync',
    file: opts.file,
    noun: 'origins',
    objects: heldObjects(units.map((u) => ({ key: u.key, lines: u.lines, body: u.payload, createProblems: u.createProblems }))),
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
async function plotUnits(ctx: Context, opts: SyncOriginsOptions, stdin: Readable): Promise<{ units: OriginUnit[]; invalid: Outcome[] }> {
  const { readPlotUnits } = await import('./import-plots.js');
  return readPlotUnits(ctx, opts, stdin, 'sync');
}

async function csvUnits(ctx: Context, opts: SyncOriginsOptions, stdin: Readable): Promise<{ units: OriginUnit[]; invalid: Outcome[] }> {
  if (opts.nameProperty !== undefined || opts.countryCode !== undefined || opts.commodity !== undefined) {
    throw new UsageError('--name-property, --country-code and --commodity are for plot files (GeoJSON, KML, Shapefile, GPX): in a CSV file each row has its name and country_code columns');
  }
  // name and country_code only for the rows that create: an update needs only what changes.
  const csv = await readCsv(opts.file, stdin, ['external_id'], { ...opts, known: KNOWN_COLUMNS, keepsAll: true, signal: ctx.signal });
  dropReadOnlyColumns(ctx.io, csv, KNOWN_COLUMNS, RESOURCE_FIELDS.origin);
  const names = importColumnNames(csv.columns);
  refuseUnknownColumns(csv, Object.values(names), IMPORT_COLUMNS);
  const errors = new RowErrors(csv.name);
  // An import can create a row without one; a sync cannot find it again on the next night.
  for (const row of csv.rows) {
    if (!row.values[names.external_id]?.trim()) errors.add(row.line, 'external_id', 'required: a sync matches each row with an origin by its external_id');
  }
  // The same bodies `origins import` would send (empty cells left out: never compared, never sent).
  const units = await originUnits(csv.rows, errors, names, csv.numbers, true);
  const invalid = errors.settle(ctx, opts);
  const bad = errors.lines();
  return { units: units.filter((u) => !bad.has(u.lines[0])), invalid };
}
