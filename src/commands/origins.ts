// origins list/get/create/update/delete; `origins import` lives in origins/import.ts, `origins
// check` in origins/check.ts. Those two, and --location-file, load the geolocation layer
// (src/geo: turf and the country outlines) on demand, so the other commands never do.
import type { Context } from '../context.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, DETAILS } from '../output/columns.js';
import type { GeoPoint } from '../api/schemas/origins.js';
import { listQuery, parseCountryCode, runList } from './shared/list.js';
import { crudLeaves } from './shared/crud.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import { writeTemplateIf } from './shared/bulk.js';
import type { OptionSpec, OptionsOf } from './shared/options.js';
import { UsageError } from '../errors.js';
import { COUNTRY_PROPERTIES, DESCRIPTION_PROPERTIES, EXTERNAL_ID_PROPERTIES, NAME_PROPERTIES } from '../geo/feature-fields.js';
import { orList } from '../util/format.js';
import { ORIGIN_FILTERS } from '../api/filters/origins.js';
import { setNamedFilters } from './shared/filters.js';
import {
  CHECK_OPTIONS,
  IMPORT_OPTIONS,
  LIST_ORIGINS_OPTIONS,
  SYNC_OPTIONS,
  type ImportOriginsOptions,
  type ListOriginsOptions,
  type SyncOriginsOptions,
} from './origins/options.js';

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
and either latitude + longitude (or lat + lng/lon) or location ("lat,lng" or a GeoJSON Point).
A plot in location is checked against its country_code as \`origins check\` checks a plot file;
a point whose latitude and longitude look swapped (outside its country, inside it the other way
round) is an error on its line.`;

const CHECK_HELP = `
Errors (exit 2): not a plot file; a geometry other than Point, Polygon, MultiPolygon; a position
out of range; a ring not closed (in every value), of fewer than 4 positions, on one line, crossing
or touching itself, or with positions that become one when the registry truncates to 6 decimals;
MultiPolygon parts that overlap; a hole touching its outer ring twice; what RFC 7946 forbids
(bbox, members); a position more than 25 km outside the feature's country, or in the sea when it
names none (and whether swapping latitude and longitude puts it in); a Point whose Area is over
4 ha (not for --commodity cattle), under 0.0001 ha, or text. Warnings: fewer than 6 decimals, a
repeated position, a hole, the same geometry twice, a polygon under 0.01 ha or over 10,000 ha, a
Point without Area, no country, a registry property spelt otherwise in a GeoJSON file, an
external_id or description spelt as sct does not read it, one field under two spellings with
different values (import and sync refuse it), a file over 25 MB.
-o json gives each finding the registry's error code (code) when it has one.`;

const IMPORT_HELP = `
${ORIGIN_CSV_COLUMNS}
A plot file (GeoJSON, KML/KMZ, zipped Shapefile or GPX, by extension or content): one origin per
feature, checked as \`sct origins check\` does first; name from the ${orList(NAME_PROPERTIES)} property,
country_code from ${orList(COUNTRY_PROPERTIES)}, external_id from ${EXTERNAL_ID_PROPERTIES.join(', ')}
or a GeoJSON feature's id, description from ${orList(DESCRIPTION_PROPERTIES)}, location = the geometry as is.
Every row or feature is checked before the first request; any error stops the run with nothing sent.
A rerun of the same file skips what went through, so an interrupted or partly failed import is
finished by running the same command again.`;

const SYNC_HELP = `
${ORIGIN_CSV_COLUMNS}
external_id is required on every row (it matches the row with an origin); name and country_code
only on the rows that create: a row that updates needs only the fields that change. A plot file
(GeoJSON, KML/KMZ, zipped Shapefile or GPX, by extension or content) is checked as
\`sct origins check\` does first (any error: nothing is read or sent), then read as origins import
reads it: one origin per feature, each needing an external_id (property, or a GeoJSON feature's id);
locations compare as geometries. Plans create, update (only the fields that differ), unchanged
and only on the service (listed, never deleted); an empty cell is never compared or sent. Applied
after a confirmation (--yes without a terminal); --dry-run only plans.`;

export const register = registerOf({
  name: 'origins',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List origins',
      prints: 'origin',
      geojson: true,
      options: LIST_ORIGINS_OPTIONS,
      help: '\nOrdering fields: id, name, country_code, country__name, assessment_status, created_at, updated_at.',
      examples: ['sct origins list --country-code CI,GH', 'sct origins list --assessment-status failing -o geojson > failing.geojson', 'sct origins list --country-code GH -o geojson --eudr --max-size 25MB --out statement/'],
      run: (ctx, opts) => listOrigins(ctx, opts),
    }),
    ...crudLeaves({
      resource: 'origin',
      group: 'origins',
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
        delete: ['sct origins delete 31', 'sct origins delete 31 --yes'],
      },
      geojson: true,
    }),
    defineLeaf({
      name: 'check',
      summary: 'Check plot files the way the EU registry will (offline: no token, no request)',
      prints: 'finding',
      args: [{ name: '<files...>', description: 'GeoJSON, KML/KMZ, zipped Shapefile or GPX files (- for stdin)' }],
      options: CHECK_OPTIONS,
      help: CHECK_HELP,
      examples: ['sct origins check plots.geojson', 'sct origins check plots.geojson --map plots.svg', "sct origins check --country-code GH -o json survey.geojson | jq '.[] | select(.level == \"error\")'"],
      run: async (ctx, opts, files) => (await import('./origins/check.js')).checkOrigins(ctx, opts, files),
    }),
    // The bulk machinery is loaded by `import` and `sync` only: list, get and the rest start faster without it.
    defineLeaf({
      name: 'import',
      summary: 'Create one origin per CSV row or GeoJSON feature',
      bulk: true,
      prints: 'bulkOutcome',
      options: IMPORT_OPTIONS,
      help: IMPORT_HELP,
      examples: ['sct origins import --file origins.csv --report origins-result.csv', 'sct origins import --file plots.geojson --country-code CI'],
      run: async (ctx, opts) => {
        const { importOrigins, ORIGIN_TEMPLATE } = await import('./origins/import.js');
        if (!(await writeTemplateIf(ctx, opts, () => ORIGIN_TEMPLATE))) await importOrigins(ctx, opts as ImportOriginsOptions);
      },
    }),
    defineLeaf({
      name: 'sync',
      summary: 'Make the service match a CSV or GeoJSON file: plan creates and updates by external_id, then apply them',
      options: SYNC_OPTIONS,
      help: SYNC_HELP,
      examples: ['sct origins sync --file origins.csv --dry-run', 'sct origins sync --file plots.geojson --country-code CI --yes'],
      run: async (ctx, opts) => {
        const { ORIGIN_TEMPLATE } = await import('./origins/import.js');
        if (!(await writeTemplateIf(ctx, opts, () => ORIGIN_TEMPLATE))) await (await import('./origins/sync.js')).syncOrigins(ctx, opts as SyncOriginsOptions);
      },
    }),
  ],
});

// --- list -------------------------------------------------------------------------------------

export function originListQuery(opts: ListOriginsOptions): URLSearchParams {
  const query = listQuery(opts);
  setNamedFilters(query, ORIGIN_FILTERS, opts);
  return query;
}

export async function listOrigins(ctx: Context, opts: ListOriginsOptions): Promise<void> {
  const query = originListQuery(opts);
  if (opts.eudr || opts.maxSize !== undefined || opts.out !== undefined || opts.force) {
    const eudr = await import('./origins/eudr-export.js');
    eudr.checkEudrFlags(opts, ctx.format(), ctx.columns(), ctx.cwd);
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

export async function originFields(opts: OriginFieldFlags & { file?: string }, ctx: Context): Promise<Record<string, unknown>> {
  if (opts.location !== undefined && opts.locationFile !== undefined) throw new UsageError('give either --location or --location-file, not both');
  if (opts.locationFile === '-' && opts.file === '-') throw new UsageError('stdin can be read once: --file - and --location-file - both ask for it');
  return {
    name: opts.name,
    description: opts.description,
    country_code: opts.countryCode === undefined ? undefined : parseCountryCode(opts.countryCode, '--country-code'),
    external_id: opts.externalId,
    location:
      opts.locationFile !== undefined
        ? await (await import('./origins/location-file.js')).readLocationFile(ctx, opts.locationFile, opts.countryCode)
        : await checkedLocationFlag(opts.location, opts.countryCode),
  };
}

/**
 * --location with --country-code: a point that lies outside the country (latitude and longitude
 * typed the other way round, the mistake people make) is refused as --location-file refuses it.
 * Its warnings (no Area, few decimals) are a plot file's business, not a typed point's.
 */
async function checkedLocationFlag(value: string | undefined, countryCode: string | undefined): Promise<GeoPoint | undefined> {
  const point = await parseLocationFlag(value);
  if (point === undefined || countryCode === undefined) return point;
  const { checkLocation } = await import('./origins/location-file.js');
  checkLocation(point, countryCode, `--location ${value}`);
  return point;
}
