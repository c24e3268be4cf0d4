// sct's global options as records, in the order `sct --help` lists them: src/cli/global-options.ts
// makes commander's options of them, and the flags every run reads (Context.flags) are typed
// from them, so a new global flag is one entry here.
import type { OptionSpec, OptionsOf } from './option-types.js';
import { FORMATS, GEOJSON } from './output/formats.js';

/** The per-request --timeout, whose default other commands' help names. */
export const TIMEOUT_OPTION = { flags: '--timeout <seconds>', description: 'per-request timeout (e.g. 30, 30s, 2m)', default: '30' } as const;

export const GLOBAL_OPTIONS = [
  { flags: '-o, --output <format>', description: 'output format (geojson: origins list and get)', values: [...FORMATS, GEOJSON] },
  { flags: '--json [fields]', description: 'short for --output json; --json FIELDS also picks the fields (= -o json --columns FIELDS)' },
  { flags: '--columns <list>', description: 'fields to show, comma-separated, dotted paths allowed (every format; json keeps them nested)' },
  { flags: '--jq <expr>', description: 'filter the JSON output with a jq expression (strings printed raw, one result per line)' },
  { flags: '--no-color', description: 'disable colour (also NO_COLOR)' },
  { flags: '-q, --quiet', description: 'no spinners, progress or info lines' },
  { flags: '-v, --verbose', description: 'print an HTTP trace on stderr (token masked)' },
  { flags: '-y, --yes', description: 'answer yes to confirmations' },
  { flags: '--profile <name>', description: 'configuration profile (env SCT_PROFILE)' },
  { flags: '--base-url <url>', description: 'API base URL ending in /api (env SCT_BASE_URL)' },
  TIMEOUT_OPTION,
  { flags: '--max-wait <duration>', description: 'longest rate-limit wait to sleep through', default: '10m' },
  { flags: '--csv-formulas', description: "write CSV cells exactly as the service sent them, without the leading ' that stops spreadsheet formulas" },
  { flags: '--bom', description: 'start -o csv with a UTF-8 byte-order mark, so Excel reads accented text correctly (exit 2 where the output is not csv)' },
] as const satisfies readonly OptionSpec[];

/** The global options that take a value (`-o json`, `--profile x`): what reads argv before commander skips their values. */
export const GLOBAL_VALUE_FLAGS: ReadonlySet<string> = new Set(GLOBAL_OPTIONS.filter((o) => o.flags.includes('<')).flatMap((o) => o.flags.split(/[ ,]+/).filter((f) => f.startsWith('-'))));

/** The global flags as a run reads them (`--json` bare is '' as src/cli/argv.ts passes it). */
export type GlobalFlags = OptionsOf<typeof GLOBAL_OPTIONS>;

/** The line under a sub-command's inherited options (its help, its manual page) that points at the rest. */
// --timeout is not named: `dds wait` and `dds create` have their own.
export const GLOBAL_OPTIONS_LINE = 'Global options (-q, -v, -y, --no-color, --base-url, …): see `sct --help`.';
