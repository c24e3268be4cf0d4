// Checks of the global output flags that need the command: run before the command itself, so a
// bad field name or jq expression is exit 2 with nothing sent.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkFields, type Printed } from '../../output/fields.js';
import { FLAT_ROWS } from '../../api/schemas/fields.js';
import { printedBy } from './output-facts.js';
import { closest } from '../../output/suggest.js';
import { filtersOf, namedFiltersOf } from './filters.js';
import { TAKES_LIST } from '../../api/filters/keys.js';
import { splitKeyValue } from './flags.js';

/** "orders list", "whoami": the command as typed, without "sct". */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

export async function preflight(ctx: Context, cmd: Command): Promise<void> {
  const { flags } = ctx;
  const jsonFields = typeof flags.json === 'string' && flags.json !== '';
  if (jsonFields && flags.columns !== undefined) throw new UsageError('--json FIELDS and --columns both choose fields: give one of them');
  if (flags.json !== undefined && flags.output !== undefined && flags.output.toLowerCase() !== 'json') {
    throw new UsageError(`--json is -o json: it cannot be combined with -o ${flags.output}`);
  }
  if (flags.jq !== undefined && flags.output !== undefined && flags.output !== 'json') {
    throw new UsageError(`--jq filters JSON output: it cannot be combined with -o ${flags.output}`);
  }
  // Only -o csv writes one: beside a format given for another, --bom would be dropped without a word.
  if (flags.bom) {
    const other = flags.output !== undefined && flags.output.toLowerCase() !== 'csv' ? `-o ${flags.output}` : flags.json !== undefined ? '--json' : flags.jq !== undefined ? '--jq' : undefined;
    if (other) throw new UsageError(`--bom starts -o csv output for Excel: it cannot be combined with ${other}`);
  }
  const columns = ctx.columns();
  // A profile output this sct does not know stops a command here, before it sends anything (its
  // output comes after its write); not those listed in SAY_OWN_OUTPUT.
  if (!SAY_OWN_OUTPUT.has(commandPath(cmd))) {
    const format = ctx.format();
    // Without -o, the output is the profile's or a table: --bom alone is a forgotten `-o csv`.
    if (flags.bom && format !== 'csv') throw new UsageError(`--bom starts -o csv output for Excel, and the output here is ${format}${flags.output === undefined && format !== 'table' ? " (the profile's)" : ''}: give -o csv`);
  } else if (flags.bom && flags.output === undefined) {
    // These choose their own output (sct api: JSON) unless -o csv asks for it.
    throw new UsageError(`--bom starts -o csv output for Excel, and ${commandPath(cmd)} writes no csv without -o csv`);
  }
  // A dry run prints requests (method, path, body), not the command's resource (a bulk command's
  // --dry-run is its own option; a sync's prints its plan, of no known shape); --template prints
  // a file's header, whatever the fields.
  const own = cmd.opts() as { dryRun?: boolean; template?: boolean };
  const rows = printedBy(cmd);
  if (columns !== undefined) {
    // Fields picked are checked against what the command prints in its format.
    const printed = ctx.dryRun || (own.dryRun && rows) ? { resource: 'plannedRequest' as const } : own.template ? undefined : rowsAsPrinted(rows, ctx.format());
    checkFields(ctx.dryRun ? `${commandPath(cmd)} --dry-run` : commandPath(cmd), printed, columns, jsonFields ? '--json' : '--columns');
  }
  if (flags.jq !== undefined) await (await import('../../output/jq.js')).checkJq(flags.jq);
  refuseRepeatedFilters(cmd, cmd.opts().filter);
  warnUndocumentedFilters(ctx, cmd, cmd.opts().filter);
}

/**
 * Commands that run with a profile output this sct does not know: those that mend the config or
 * report on it, and those that never print with the profile's output (`api` prints JSON, `auth
 * token` the bare token, `completion` a script).
 */
const SAY_OWN_OUTPUT = new Set(['config set', 'config unset', 'config get', 'config path', 'doctor', 'api', 'auth token', 'auth login', 'auth logout', 'completion', 'sandbox', 'version']);

/** A resource whose table and CSV rows are flattened under other names is checked as those rows. */
function rowsAsPrinted(printed: Printed | undefined, format: string): Printed | undefined {
  const flat = printed && FLAT_ROWS[printed.resource];
  return flat && format !== 'json' && format !== 'ndjson' ? { ...printed, resource: flat } : printed;
}

/**
 * A --filter key given twice with two values is sent twice, and the service (django-filter) reads
 * only the last: the list would be narrower than asked, with no word. Only a key the documents
 * say repeats (invitations' status) may be given again.
 */
function refuseRepeatedFilters(cmd: Command, filters: unknown): void {
  if (!Array.isArray(filters)) return;
  const given = new Map<string, string[]>();
  for (const pair of filters as string[]) {
    const [key, value] = splitKeyValue(pair, '--filter');
    const values = given.get(key) ?? [];
    // The same value again asks for nothing more.
    if (!values.includes(value)) given.set(key, [...values, value]);
  }
  const table = namedFiltersOf(cmd);
  for (const [key, values] of given) {
    if (values.length < 2 || table?.repeatable?.includes(key)) continue;
    const said = `--filter ${key} given twice: the service reads only the last value (${values.at(-1)})`;
    // Each value once, as the list a script would write (`1,2` and `2,1` are 1,2).
    const list = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== ''))].join(',');
    if (TAKES_LIST.test(key)) throw new UsageError(`${said}; for any of them give one: --filter ${key}=${list}`);
    if (table?.keys.includes(`${key}__in`)) throw new UsageError(`${said}; for any of them give one: --filter ${key}__in=${list}`);
    throw new UsageError(`${said}; give it once`);
  }
}

/**
 * A --filter key the list's documents do not name is most likely a typo: a warning names it and
 * the closest documented key, and the request still goes (the service may know more).
 */
function warnUndocumentedFilters(ctx: Context, cmd: Command, filters: unknown): void {
  // A list whose documents show no filters (value chains) takes any key without a word.
  const documented = filtersOf(cmd)?.keys;
  if (!documented?.length || !Array.isArray(filters)) return;
  const command = commandPath(cmd);
  const said = new Set<string>();
  for (const pair of filters as string[]) {
    // A pair that is none is the usage error it is, said before any warning that it went out.
    const key = splitKeyValue(pair, '--filter')[0].trim();
    // Once per key, however often it is given (`--filter tagz=a --filter tagz=b`).
    if (!key || documented.includes(key) || said.has(key)) continue;
    said.add(key);
    const guess = closest(key, documented);
    ctx.io.warn(`--filter ${key}: not a documented filter of ${command}${guess ? ` (did you mean ${guess}?)` : ''}; sent anyway (see sct help filters)`);
  }
}
