// sct's global options, and how a sub-command's help shows them: its own options first, then
// the few global ones that matter for it (as gh's INHERITED FLAGS) and one line for the rest.
import { Option, type Command, type Help } from 'commander';

/** An option of choices that takes them in any case (`-o JSON`), as every enum value is taken. */
function caseInsensitive(option: Option): Option {
  const check = option.parseArg!;
  return option.argParser((value: string, previous: unknown) => check(value.toLowerCase(), previous));
}

export function addGlobalOptions(program: Command): Command {
  return program
    .addOption(caseInsensitive(new Option('-o, --output <format>', 'output format (geojson: origins list and get)').choices(['table', 'json', 'ndjson', 'csv', 'geojson'])))
    .option('--json [fields]', 'short for --output json; --json FIELDS also picks the fields (= -o json --columns FIELDS)')
    .option('--columns <list>', 'fields to show, comma-separated, dotted paths allowed (every format; json keeps them nested)')
    .option('--jq <expr>', 'filter the JSON output with a jq expression (strings printed raw, one result per line)')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('-q, --quiet', 'no spinners, progress or info lines')
    .option('-v, --verbose', 'print an HTTP trace on stderr (token masked)')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--profile <name>', 'configuration profile (env SCT_PROFILE)')
    .option('--base-url <url>', 'API base URL ending in /api (env SCT_BASE_URL)')
    .option('--timeout <seconds>', 'per-request timeout (e.g. 30, 30s, 2m)', '30')
    .option('--max-wait <duration>', 'longest rate-limit wait to sleep through', '10m')
    .option('--csv-formulas', "write CSV cells exactly as the service sent them, without the leading ' that stops spreadsheet formulas")
    .option('--bom', 'start -o csv with a UTF-8 byte-order mark, so Excel reads accented text correctly');
}

/**
 * The global options that take a value (`-o`, `--output`, `--profile`, …), read from the options
 * themselves: the word after one is its value, never a command name.
 */
export function globalValueFlags(program: Command): Set<string> {
  return new Set(program.options.filter((o) => o.required).flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined)));
}

/** The global options a sub-command's help repeats; `sct --help` lists them all. */
const INHERITED_OPTIONS = ['--output', '--json', '--jq', '--columns', '--profile'];

/** The line under a sub-command's inherited options that points at the rest. */
const GLOBAL_OPTIONS_LINE =
  'Global options (-q, -v, -y, --no-color, --base-url, --timeout, …): see `sct --help`.';

export const LEAF_HELP: Partial<Help> = {
  showGlobalOptions: true,
  visibleGlobalOptions(cmd: Command): Option[] {
    let root = cmd;
    while (root.parent) root = root.parent;
    if (root === cmd) return [];
    return INHERITED_OPTIONS.map((long) => root.options.find((o) => o.long === long)).filter((o): o is Option => o !== undefined && !o.hidden);
  },
  formatItemList(heading: string, items: string[], helper: Help): string[] {
    if (items.length === 0) return [];
    if (heading === 'Global Options:') return [helper.styleTitle('Inherited options:'), ...items, '', GLOBAL_OPTIONS_LINE, ''];
    return [helper.styleTitle(heading), ...items, ''];
  },
};
