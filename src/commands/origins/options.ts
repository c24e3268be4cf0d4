// The options of origins list, check, import and sync as records: origins.ts makes the commands
// of them, and the modules their runs load on demand (check.ts, import.ts, sync.ts, eudr-export.ts)
// take their options types from here, so a new flag is one entry.
import { COMMODITIES } from '../../api/enums.js';
import { NAME_PROPERTIES } from '../../geo/feature-fields.js';
import { ORIGIN_FILTERS } from '../../api/filters/origins.js';
import { LIST_OPTIONS } from '../shared/list.js';
import { TEMPLATE_OPTION, bulkRunOptions } from '../shared/bulk.js';
import type { OptionsOf } from '../shared/options.js';

/** With -o geojson: the EU registry's format (eudr-export.ts). */
const EUDR_OPTIONS = [
  { flags: '--eudr', description: "with -o geojson: the EU registry's format (ProductionPlace, ProducerCountry, Area for points, external_id), every matching origin unless --limit" },
  { flags: '--max-size <size>', description: 'with --eudr --out: split into files of at most this size (e.g. 25MB; kB and MB are 1,000 and 1,000,000 bytes)' },
  { flags: '--out <dir>', description: 'with --eudr: write numbered files origins-001.geojson… into this directory (every matching origin unless --limit)' },
  { flags: '--force', description: 'with --out: replace an earlier export in DIR (its origins-NNN files this one does not write are removed)' },
] as const;

export const LIST_ORIGINS_OPTIONS = [{ filters: ORIGIN_FILTERS }, { alias: 'country', of: 'country-code' }, ...EUDR_OPTIONS, ...LIST_OPTIONS] as const;

export type ListOriginsOptions = OptionsOf<typeof LIST_ORIGINS_OPTIONS>;
export type EudrExportFlags = OptionsOf<readonly [...typeof EUDR_OPTIONS, ...typeof LIST_OPTIONS]>;

export const CHECK_OPTIONS = [
  { flags: '--country-code <code>', description: 'country of the features that name none (country_code, ProducerCountry or COUNTRY_CODE property)' },
  { flags: '--name-property <name>', description: `the property that names a feature (default: ${NAME_PROPERTIES.join(', ')})` },
  { flags: '--commodity <name>', description: (v: readonly string[]) => `the statement's commodity (${v.join(', ')}): cattle plots may be points of any area`, values: COMMODITIES },
  { flags: '--map <file.svg>', description: 'also draw the plots over their countries as an SVG picture (errors in red)' },
] as const;

export type CheckOriginsOptions = OptionsOf<typeof CHECK_OPTIONS>;

/** The file of `origins import` and `origins sync`, and how a plot file's features map to origins. */
const PLOT_FILE_OPTIONS = [
  TEMPLATE_OPTION,
  { flags: '--file <file>', description: 'CSV file, .xlsx/.ods workbook or plot file: GeoJSON, KML/KMZ, zipped Shapefile, GPX (- for stdin)' },
  { flags: '--name-property <name>', description: `plot files: the property that names a feature (default: ${NAME_PROPERTIES.join(', ')})` },
  { flags: '--country-code <code>', description: 'plot files: country of the features that name none' },
  { flags: '--commodity <name>', description: (v: readonly string[]) => `plot files: the commodity (${v.join(', ')}): cattle plots may be points of any area`, values: COMMODITIES },
] as const;

export const IMPORT_OPTIONS = [...PLOT_FILE_OPTIONS, ...bulkRunOptions({ concurrency: true, dryRun: true })] as const;
export const SYNC_OPTIONS = [...PLOT_FILE_OPTIONS, ...bulkRunOptions({ concurrency: true, dryRun: true, reads: true })] as const;

// --file is there once --template is not (writeTemplateIf refuses a run with neither).
export type ImportOriginsOptions = OptionsOf<typeof IMPORT_OPTIONS> & { file: string };
export type SyncOriginsOptions = OptionsOf<typeof SYNC_OPTIONS> & { file: string };
