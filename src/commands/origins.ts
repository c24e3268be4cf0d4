import { createHash, randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { Factory } from './shared/command.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { writeList } from '../output/format.js';
import {
  originCreateSchema,
  originUpdateSchema,
  parseLocation,
  pointFromLatLng,
  type GeoPoint,
  type OriginCreate,
} from '../api/schemas/origins.js';
import {
  addDateRangeOptions,
  addIdFilterOptions,
  addListOptions,
  listQuery,
  parseCountryCodes,
  runList,
  setDateRangeFilters,
  setIdFilters,
  setOneOrIn,
  type DateRangeFlags,
  type IdFilterFlags,
  type ListFlags,
} from './shared/list.js';
import { addCrudCommands } from './shared/crud.js';
import { appendList, parseEnumList, parseInteger, splitList } from './shared/flags.js';
import { zodFieldErrors, type BodyFlags } from './shared/body.js';
import { ASSESSMENT_STATUSES, REQUIRED, requiredMessage } from '../api/schemas/common.js';
// The bulk machinery is loaded by `import` only: list, get and the rest start faster without it.
import type { CsvRow, RowErrors } from '../bulk/csv.js';
import type { RunResult, Unit } from '../bulk/runner.js';
import { UsageError } from '../errors.js';

export interface ListOriginsOptions extends ListFlags, DateRangeFlags, IdFilterFlags {
  country?: string;
  assessmentStatus?: string;
  name?: string;
  description?: string;
  externalId?: string;
  passingMin?: string;
  failingMin?: string;
}

export interface OriginFieldFlags extends BodyFlags {
  name?: string;
  description?: string;
  countryCode?: string;
  externalId?: string;
  location?: string;
}

export interface ImportOriginsOptions {
  file: string;
  report?: string;
  force?: boolean;
  concurrency?: string;
  fresh?: boolean;
  dryRun?: boolean;
}

export function register(program: Command, f: Factory): void {
  const origins = program.command('origins').description('Manage origins (places of production)');

  // Options are added in the order help lists them.
  const list = origins
    .command('list')
    .description('List origins')
    .option('--country <codes>', 'country code(s), comma-separated or repeated (e.g. CI,GH)', appendList)
    .option('--assessment-status <list>', `assessment status, comma-separated or repeated (${ASSESSMENT_STATUSES.join(', ')})`, appendList)
    .option('--name <text>', 'name contains (case-insensitive)')
    .option('--description <text>', 'description contains (case-insensitive)')
    .option('--external-id <ids>', 'external id(s), comma-separated or repeated', appendList);
  addDateRangeOptions(list)
    .option('--passing-min <percent>', 'at least this share of passing assessments (0..100)')
    .option('--failing-min <percent>', 'at least this share of failing assessments (0..100)');
  addIdFilterOptions(list, 'origin');
  addListOptions(list)
    .addHelpText('after', '\nOrdering fields: id, name, country_code, country__name, assessment_status, created_at, updated_at.')
    .action(f.action<ListOriginsOptions>((ctx, opts) => listOrigins(ctx, opts)));

  addCrudCommands<OriginFieldFlags>(origins, f, {
    noun: 'origin',
    article: 'an',
    paths: { all: PATHS.origins, one: PATHS.origin },
    columns: COLUMNS.origin,
    addFields: addOriginFields,
    fieldsOf: originFields,
    schemas: { create: originCreateSchema, update: originUpdateSchema },
  });

  origins
    .command('import')
    .description('Create one origin per CSV row')
    .requiredOption('--file <file>', 'CSV file (- for stdin)')
    .option('--report <file>', 'also write the per-row report to this CSV file')
    .option('--force', 'overwrite the --report file if it exists')
    .option('--concurrency <n>', 'requests in flight at once (1..16)', '4')
    .option('--fresh', 'forget earlier runs of this file and send every row again')
    .option('--dry-run', 'validate the file and show what would be sent; send nothing')
    .addHelpText(
      'after',
      `
CSV columns (header row, any order): name and country_code (required), description, external_id,
and either latitude + longitude (or lat + lng/lon) or location ("lat,lng" or a GeoJSON Point).
Every row is checked before the first request; a bad row stops the run with nothing sent.
A rerun of the same file skips the rows that went through, so an interrupted or partly failed
import is finished by running the same command again.`,
    )
    .action(f.action<ImportOriginsOptions>((ctx, opts) => importOrigins(ctx, opts)));
}

function addOriginFields(cmd: Command): Command {
  return cmd
    .option('--name <text>', 'origin name (required on create)')
    .option('--description <text>', 'description')
    .option('--country-code <code>', '2-letter country code (required on create)')
    .option('--external-id <id>', 'your own identifier')
    .option('--location <lat,lng|geojson>', 'coordinates as "lat,lng" (e.g. 5.35,-4.02) or a GeoJSON Point');
}

// --- list -------------------------------------------------------------------------------------

export function parsePercentage(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || n > 100) throw new UsageError(`invalid ${flag} "${value}": expected a number 0..100`);
  return n;
}

export function originListQuery(opts: ListOriginsOptions): URLSearchParams {
  const query = listQuery(opts);
  setOneOrIn(query, 'country_code', parseCountryCodes(opts.country, '--country'));
  setOneOrIn(query, 'assessment_status', parseEnumList(opts.assessmentStatus, '--assessment-status', ASSESSMENT_STATUSES));
  if (opts.name !== undefined) query.set('name__icontains', opts.name);
  if (opts.description !== undefined) query.set('description__icontains', opts.description);
  setOneOrIn(query, 'external_id', splitList(opts.externalId, '--external-id'));
  setDateRangeFilters(query, opts);
  const passing = parsePercentage(opts.passingMin, '--passing-min');
  if (passing !== undefined) query.set('passing_percentage_gte', String(passing));
  const failing = parsePercentage(opts.failingMin, '--failing-min');
  if (failing !== undefined) query.set('failing_percentage_gte', String(failing));
  setIdFilters(query, opts);
  return query;
}

export async function listOrigins(ctx: Context, opts: ListOriginsOptions): Promise<void> {
  const query = originListQuery(opts);
  await runList(ctx, { path: PATHS.origins, query, flags: opts, columns: COLUMNS.origin, noun: 'origins' });
}

// --- create / update --------------------------------------------------------------------------

export function parseLocationFlag(value: string | undefined): GeoPoint | undefined {
  if (value === undefined) return undefined;
  try {
    return parseLocation(value);
  } catch (err) {
    throw new UsageError(`invalid --location "${value}": ${(err as Error).message}`);
  }
}

export function originFields(opts: OriginFieldFlags): Record<string, unknown> {
  return {
    name: opts.name,
    description: opts.description,
    country_code: opts.countryCode,
    external_id: opts.externalId,
    location: parseLocationFlag(opts.location),
  };
}

// --- import -----------------------------------------------------------------------------------

export const IMPORT_COLUMNS = ['name', 'country_code', 'description', 'external_id', 'latitude', 'longitude', 'location'] as const;
const REQUIRED_COLUMNS = ['name', 'country_code'];
/** Spreadsheet exports often abbreviate the coordinates; these headers are read as the full names. */
const COLUMN_ALIASES: Record<string, string[]> = { latitude: ['lat'], longitude: ['lng', 'lon', 'long'] };

/** Which header of the file holds each known column (the name itself, or an alias of it). */
export function importColumnNames(columns: string[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const c of IMPORT_COLUMNS) {
    names[c] = columns.includes(c) ? c : (COLUMN_ALIASES[c]?.find((a) => columns.includes(a)) ?? c);
  }
  return names;
}

/**
 * The request body of one CSV row, or undefined after adding the row's problems to `errors`
 * (each naming its column as the file's header spells it). Empty cells are left out rather than
 * sent as "".
 */
export function originFromRow(row: CsvRow, errors: RowErrors, names: Record<string, string> = {}): OriginCreate | undefined {
  const header = (col: string) => names[col] ?? col;
  const v = (col: string) => row.values[header(col)]?.trim() ?? '';
  const problems: Array<[string, string]> = [];
  const reported = new Set<string>();
  const add = (column: string, message: string) => {
    reported.add(column);
    problems.push([column, message]);
  };
  const body: Record<string, unknown> = { name: v('name'), country_code: v('country_code') };
  if (!body.name) add('name', REQUIRED);
  if (!body.country_code) add('country_code', REQUIRED);
  if (v('description')) body.description = v('description');
  if (v('external_id')) body.external_id = v('external_id');

  const lat = v('latitude');
  const lng = v('longitude');
  const loc = v('location');
  if (loc && (lat || lng)) {
    add('location', `give either location or ${header('latitude')}/${header('longitude')}, not both`);
  } else if (loc) {
    try {
      body.location = parseLocation(loc);
    } catch (err) {
      add('location', (err as Error).message);
    }
  } else if (lat && lng) {
    try {
      body.location = pointFromLatLng(lat, lng);
    } catch (err) {
      const message = (err as Error).message;
      add(message.startsWith('longitude') ? 'longitude' : 'latitude', message);
    }
  } else if (lat || lng) {
    add(lat ? 'longitude' : 'latitude', `missing (${header(lat ? 'latitude' : 'longitude')} is given)`);
  }

  const parsed = originCreateSchema.safeParse(body, { error: requiredMessage });
  if (!parsed.success) {
    for (const [field, messages] of Object.entries(zodFieldErrors(parsed.error))) {
      if (!reported.has(field)) for (const m of messages) add(field, m);
    }
  }
  // Reported in the file's column order, so a row's messages read left to right.
  const rank = (c: string) => (IMPORT_COLUMNS as readonly string[]).indexOf(c) >>> 0;
  problems.sort((a, b) => rank(a[0]) - rank(b[0]));
  for (const [column, message] of problems) errors.add(row.line, header(column), message);
  return problems.length === 0 && parsed.success ? parsed.data : undefined;
}

/**
 * Units of work for the rows, with their stable identities: a row with an external_id is that
 * origin wherever it sits in the file; one without is known by its content, so deleting the
 * rows that went through and rerunning neither skips nor repeats the others.
 */
export function originUnits(rows: CsvRow[], errors: RowErrors, names: Record<string, string> = {}): Unit<OriginCreate>[] {
  const units: Unit<OriginCreate>[] = [];
  const externalLines = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const row of rows) {
    const body = originFromRow(row, errors, names);
    const ext = row.values[names.external_id ?? 'external_id']?.trim();
    if (ext) {
      const first = externalLines.get(ext);
      if (first !== undefined) {
        errors.add(row.line, 'external_id', `"${ext}" is also on line ${first}; each origin needs its own external_id`);
        continue;
      }
      externalLines.set(ext, row.line);
    }
    if (!body) continue;
    if (ext) {
      units.push({ key: ext, journalKey: `ext:${ext}`, lines: [row.line], payload: body });
    } else {
      const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 24);
      const n = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, n);
      units.push({ key: `line ${row.line}`, journalKey: `row:${hash}#${n}`, lines: [row.line], payload: body });
    }
  }
  return units;
}

/** Marks the journal's lifetime: --fresh starts a new one, and with it new idempotency keys. */
const GENERATION_KEY = '#generation';

export async function importOrigins(ctx: Context, opts: ImportOriginsOptions): Promise<void> {
  const [{ readCsv, RowErrors }, { Journal }, { runUnits }, { checkReportPath, finishBulk }, { idempotencyKey }] = await Promise.all([
    import('../bulk/csv.js'),
    import('../bulk/journal.js'),
    import('../bulk/runner.js'),
    import('../bulk/report.js'),
    import('../bulk/idempotency.js'),
  ]);
  checkReportPath(opts.report, opts.force);
  const concurrency = parseInteger(opts.concurrency ?? '4', '--concurrency', 1, 16)!;
  const csv = await readCsv(opts.file, ctx.io.stdin, REQUIRED_COLUMNS);
  const names = importColumnNames(csv.columns);
  const used = new Set(Object.values(names));
  const unknown = csv.columns.filter((c) => !used.has(c));
  if (unknown.length) {
    ctx.io.warn(`${csv.name}: ignoring column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${IMPORT_COLUMNS.join(', ')})`);
  }
  const errors = new RowErrors(csv.name);
  const units = originUnits(csv.rows, errors, names);
  errors.throwIfAny();

  if (opts.dryRun) {
    await writeList(
      ctx.io,
      units.map((u) => ({ line: u.lines[0], key: u.key, ...u.payload })),
      ctx.output([
        { header: 'LINE', path: 'line' },
        { header: 'KEY', path: 'key' },
        { header: 'NAME', path: 'name' },
        { header: 'COUNTRY', path: 'country_code' },
        { header: 'EXTERNAL ID', path: 'external_id' },
        { header: 'LOCATION', path: 'location', value: (r) => pointText(r.location) },
      ]),
    );
    ctx.io.info(`${csv.name}: ${units.length} valid origin${units.length === 1 ? '' : 's'}; nothing sent (dry run)`);
    return;
  }

  // Ctrl-C stops new rows; a row already sent finishes, so the report says what became of it.
  const client = ctx.client({ finishInFlight: true });
  const journal = Journal.open(
    ctx.config().dir,
    { command: 'origins-import', file: opts.file, baseUrl: client.baseUrl, profile: ctx.settings().profile },
    opts.fresh,
  );
  let generation = journal.get(GENERATION_KEY)?.id;
  if (generation === undefined) {
    generation = randomUUID();
    journal.record({ key: GENERATION_KEY, status: 'done', id: generation });
  }
  const gen = String(generation);

  const pending = units.filter((u) => !journal.get(u.journalKey ?? u.key)).length;
  if (ctx.io.stderrIsTTY && pending > 1) {
    const skipped = units.length - pending;
    ctx.io.info(`Creating ${pending} origins: ${pending} requests, ${concurrency} at a time${skipped ? ` (${skipped} done in an earlier run are skipped)` : ''}.`);
  }
  const spinner = await ctx.spinner(`Creating origins… 0/${units.length}`);
  let sent = 0;
  let result: RunResult;
  try {
    result = await runUnits(units, {
      concurrency,
      signal: ctx.signal,
      journal,
      work: async (unit) => {
        const res = await client.request<{ id?: number }>({
          method: 'POST',
          path: PATHS.origins,
          body: unit.payload,
          // Same row, same generation: the same key, so a resend after a lost answer is replayed.
          idempotencyKey: idempotencyKey('sct origins import', gen, unit.journalKey ?? unit.key, JSON.stringify(unit.payload)),
        });
        if (++sent === 1) warnIfBudgetShort(ctx, client.rateLimit, pending - 1);
        return { id: res.data?.id };
      },
      onProgress: (done, total, failed) => spinner.update(`Creating origins… ${done}/${total}${failed ? ` (${failed} failed)` : ''}`),
    });
  } finally {
    spinner.stop();
  }
  await finishBulk(ctx, result, { noun: 'origins', verb: 'created', report: opts.report, journalPath: journal.path });
}

/** Says up front when the hour's request budget will not cover the run, rather than at the pause. */
function warnIfBudgetShort(ctx: Context, rl: { remaining?: number; reset?: number }, left: number): void {
  if (rl.remaining === undefined || rl.remaining >= left) return;
  const at = rl.reset ? ` at ${new Date(rl.reset * 1000).toISOString()}` : '';
  ctx.io.warn(
    `${left} more requests to send but the rate limit has ${rl.remaining} left this hour: ` +
      `sct pauses until the budget resets${at} (or stops if that is longer than --max-wait; rerun to resume)`,
  );
}

function pointText(location: unknown): string {
  const c = (location as GeoPoint | undefined)?.coordinates;
  return Array.isArray(c) ? `${c[1]},${c[0]}` : '';
}
