// origins list/get/create/update/delete; `origins import` lives in origins/import.ts, `origins
// check` in origins/check.ts. Those two, and --location-file, load the geolocation layer
// (src/geo: turf and the country outlines) on demand, so the other commands never do.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, DETAILS } from '../output/columns.js';
import type { GeoPoint } from '../api/schemas/origins.js';
import {
  addListOptions,
  listQuery,
  parseCountryCode,
  runList,
  type ListFlags,
} from './shared/list.js';
import { crudLeaves } from './shared/crud.js';
import { addLeaf } from './shared/spec.js';
import { prints, writesGeojson } from './shared/output-facts.js';
import { addBulkRunOptions, addTemplateOption, writeTemplateIf } from './shared/bulk.js';
import { addAlias, enumOption } from './shared/flags.js';
import type { OptionSpec, OptionsOf } from './shared/options.js';
import { COMMODITIES } from '../api/enums.js';
import type { ImportOriginsOptions } from './origins/send.js';
import type { CheckOriginsOptions } from './origins/check.js';
import { UsageError } from '../errors.js';
import { ORIGIN_FILTERS } from '../api/filters/origins.js';
import type { NamedFlags } from '../api/filters/keys.js';
import { filteredBy, setNamedFilters } from './shared/filters.js';

export interface ListOriginsOptions extends ListFlags, NamedFlags<typeof ORIGIN_FILTERS> {
  /** With -o geojson: the EU registry's format (origins/eudr-export.ts). */
  eudr?: boolean;
  maxSize?: string;
  out?: string;
  force?: boolean;
}

/** The field flags of create and update. */
const ORIGIN_FIELDS = [
  { flags: '--name <text>', description: 'origin name (required on create)' },
  { flags: '--description <text>', description: 'description' },
  { flags: '--country-code <code>', description: '2-letter country code (required on create)' },
  { flags: '--external-id <id>', description: 'your own identifier' },
  { flags: '--location <lat,lng|geojson>', description: 'coordinates as "lat,lng" (e.g. 5.35,-4.02) or a GeoJSON Point' },
  { flags: '--location-file <file>', description: 'the location from a GeoJSON file: a geometry or one Feature (- for stdin), checked as `origins check` does' },
] as const satisfies readonly OptionSpec[];

export type OriginFieldFlags = OptionsOf<typeof ORIGIN_FIELDS>;

/** The CSV columns origins import and origins sync read, listed in both helps. */
const ORIGIN_CSV_COLUMNS = `Columns (CSV, header row, any order): name and country_code (required), description, external_id,
and either latitude + longitude (or lat + lng/lon) or location ("lat,lng" or a GeoJSON Point).`;

export function register(program: Command, f: Factory): void {
  const origins = program.command('origins').description('Manage origins (places of production)');

  // Options are added in the order help lists them.
  const list = filteredBy(writesGeojson(prints(origins.command('list'), 'origin')), ORIGIN_FILTERS)
    .description('List origins');
  addAlias(list, 'country', 'country-code')
    .option('--eudr', 'with -o geojson: the EU registry\'s format (ProductionPlace, ProducerCountry, Area for points, external_id)')
    .option('--max-size <size>', 'with --eudr --out: split into files of at most this size (e.g. 25MB; kB and MB are 1,000 and 1,000,000 bytes)')
    .option('--out <dir>', 'with --eudr: write numbered files origins-001.geojson… into this directory (every matching origin unless --limit)')
    .option('--force', 'with --out: overwrite files of the same names');
  addExamples(
    addListOptions(list)
    .addHelpText('after', '\nOrdering fields: id, name, country_code, country__name, assessment_status, created_at, updated_at.'),
    ['sct origins list --country-code CI,GH', 'sct origins list --assessment-status failing -o geojson > failing.geojson', 'sct origins list --country-code GH -o geojson --eudr --max-size 25MB --out statement/'],
  ).action(f.action<ListOriginsOptions>((ctx, opts) => listOrigins(ctx, opts)));

  for (const l of crudLeaves({
    resource: 'origin',
    noun: 'origin',
    article: 'an',
    paths: { all: PATHS.origins, one: PATHS.origin },
    columns: COLUMNS.origin,
    detail: DETAILS.origin,
    fields: ORIGIN_FIELDS,
    fieldsOf: originFields,
    schemas: () => import('../api/schemas/origins.js').then((m) => ({ create: m.originCreateSchema, update: m.originUpdateSchema })),
    examples: {
      get: ['sct origins get 24', 'sct origins get 24 -o geojson'],
      create: ['sct origins create --name "Farm Kouassi 12 (Daloa)" --country-code CI --location 6.877,-6.450', 'sct origins create --name "Plot 7" --country-code GH --location-file plot7.geojson'],
      update: ['sct origins update 24 --name "Farm Costa 50 (Mato Grosso, north)"', 'sct origins update 24 --location -12.65,-55.42'],
      delete: ['sct origins delete 24', 'sct origins delete 24 --yes'],
    },
    geojson: true,
  })) addLeaf(origins, f, l);

  addExamples(origins
    .command('check')
    .description('Check plot files the way the EU registry will (offline: no token, no request)')
    .argument('<files...>', 'GeoJSON, KML/KMZ, zipped Shapefile or GPX files (- for stdin)')
    .option('--country-code <code>', 'country of the features that name none (country_code, ProducerCountry or COUNTRY_CODE property)')
    .option('--name-property <name>', 'the property that names a feature (default: name, ProductionPlace, PRODUCTION_PLACE)')
    .addOption(enumOption('--commodity <name>', (v) => `the statement's commodity (${v.join(', ')}): cattle plots may be points of any area`, COMMODITIES))
    .option('--map <file.svg>', 'also draw the plots over their countries as an SVG picture (errors in red)')
    .addHelpText(
      'after',
      `
Errors (exit 2): not a plot file; a geometry other than Point, Polygon, MultiPolygon; a position
out of range; a ring not closed (in every value), of fewer than 4 positions, on one line, crossing
or touching itself, or with positions that become one when the registry truncates to 6 decimals;
MultiPolygon parts that overlap; a hole touching its outer ring twice; what RFC 7946 forbids
(bbox, members); a position more than 25 km outside the feature's country, or in the sea when it
names none (and whether swapping latitude and longitude puts it in); a Point whose Area is over
4 ha (not for --commodity cattle), under 0.0001 ha, or text. Warnings: fewer than 6 decimals, a
repeated position, a hole, the same geometry twice, a polygon under 0.01 ha or over 10,000 ha, a
Point without Area, no country, a registry property spelt otherwise, a file over 25 MB.
-o json gives each finding the registry's error code (code) when it has one.`,
    ),
      ["sct origins check plots.geojson", "sct origins check plots.geojson --map plots.svg", "sct origins check --country-code GH -o json survey.geojson | jq '.[] | select(.level == \"error\")'"]
    )
    .action(f.action<CheckOriginsOptions>(async (ctx, opts, files) => (await import('./origins/check.js')).checkOrigins(ctx, opts, files)));

  addExamples(addBulkRunOptions(
    addPlotFileOptions(origins.command('import').description('Create one origin per CSV row or GeoJSON feature')),
    { concurrency: true, dryRun: true },
  )
    .addHelpText(
      'after',
      `
${ORIGIN_CSV_COLUMNS}
A plot file (GeoJSON, KML/KMZ, zipped Shapefile or GPX, by extension or content): one origin per
feature, checked as \`sct origins check\` does first; name from the name, ProductionPlace or PRODUCTION_PLACE property,
country_code from country_code, ProducerCountry or COUNTRY_CODE, external_id from the external_id
property or the feature's id, description from description, location = the geometry as is.
Every row or feature is checked before the first request; any error stops the run with nothing sent.
A rerun of the same file skips what went through, so an interrupted or partly failed import is
finished by running the same command again.`,
    ),
      ["sct origins import --file origins.csv --report result.csv", "sct origins import --file plots.geojson --country-code CI"]
    )
    // The bulk machinery is loaded by `import` only: list, get and the rest start faster without it.
    .action(
      f.action<ImportOriginsOptions>(async (ctx, opts) => {
        const { importOrigins, ORIGIN_TEMPLATE } = await import('./origins/import.js');
        if (!(await writeTemplateIf(ctx, opts, () => ORIGIN_TEMPLATE))) await importOrigins(ctx, opts);
      }),
    );

  addExamples(addBulkRunOptions(
    addPlotFileOptions(
      origins.command('sync').description('Make the service match a CSV or GeoJSON file: plan creates and updates by external_id, then apply them'),
    ),
    { concurrency: true, dryRun: true, reads: true },
  )
    .addHelpText(
      'after',
      `
${ORIGIN_CSV_COLUMNS}
external_id is required on every row (it matches the row with an origin); name and country_code
only on the rows that create: a row that updates needs only the fields that change. A plot file
(GeoJSON, KML/KMZ, zipped Shapefile or GPX, by extension or content) is checked as
\`sct origins check\` does first (any error: nothing is read or sent), then read as origins import
reads it: one origin per feature, each needing an external_id (property or the feature's id);
locations compare as geometries. Plans create, update (only the fields that differ), unchanged
and only on the service (listed, never deleted); an empty cell is never compared or sent. Applied
after a confirmation (--yes without a terminal); --dry-run only plans.`,
    ),
      ["sct origins sync --file origins.csv --dry-run", "sct origins sync --file plots.geojson --country-code CI --yes"]
    )
    .action(
      f.action<import('./origins/sync.js').SyncOriginsOptions>(async (ctx, opts) => {
        const { ORIGIN_TEMPLATE } = await import('./origins/import.js');
        if (!(await writeTemplateIf(ctx, opts, () => ORIGIN_TEMPLATE))) await (await import('./origins/sync.js')).syncOrigins(ctx, opts);
      }),
    );
}

// --- list -------------------------------------------------------------------------------------

export function originListQuery(opts: ListOriginsOptions): URLSearchParams {
  const query = listQuery(opts);
  setNamedFilters(query, ORIGIN_FILTERS, opts);
  return query;
}

export async function listOrigins(ctx: Context, opts: ListOriginsOptions): Promise<void> {
  const query = originListQuery(opts);
  if (opts.eudr || opts.maxSize !== undefined || opts.out !== undefined) {
    const eudr = await import('./origins/eudr-export.js');
    eudr.checkEudrFlags(opts, ctx.format());
    return eudr.exportForRegistry(ctx, opts, query);
  }
  await runList(ctx, { path: PATHS.origins, query, flags: opts, columns: COLUMNS.origin, noun: 'origins' });
}

// --- create / update --------------------------------------------------------------------------

export async function parseLocationFlag(value: string | undefined): Promise<GeoPoint | undefined> {
  if (value === undefined) return undefined;
  const { parseLocation } = await import('../api/schemas/origins.js');
  try {
    return parseLocation(value);
  } catch (err) {
    throw new UsageError(`invalid --location "${value}": ${(err as Error).message}`);
  }
}

export async function originFields(opts: OriginFieldFlags, ctx: Context): Promise<Record<string, unknown>> {
  if (opts.location !== undefined && opts.locationFile !== undefined) throw new UsageError('give either --location or --location-file, not both');
  return {
    name: opts.name,
    description: opts.description,
    country_code: opts.countryCode === undefined ? undefined : parseCountryCode(opts.countryCode, '--country-code'),
    external_id: opts.externalId,
    location:
      opts.locationFile !== undefined
        ? await (await import('./origins/location-file.js')).readLocationFile(ctx, opts.locationFile, opts.countryCode)
        : await parseLocationFlag(opts.location),
  };
}

/** The file of `origins import` and `origins sync`, and how a GeoJSON file's features map to origins. */
function addPlotFileOptions(cmd: Command): Command {
  return addTemplateOption(cmd)
    .option('--file <file>', 'CSV file, .xlsx/.ods workbook or plot file: GeoJSON, KML/KMZ, zipped Shapefile, GPX (- for stdin)')
    .option('--name-property <name>', 'plot files: the property that names a feature (default: name, ProductionPlace, PRODUCTION_PLACE)')
    .option('--country-code <code>', 'plot files: country of the features that name none')
    .addOption(enumOption('--commodity <name>', (v) => `plot files: the commodity (${v.join(', ')}): cattle plots may be points of any area`, COMMODITIES));
}
