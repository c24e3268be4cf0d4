// Parsing of flag values shared by many commands. Every failure is a UsageError (exit 2),
// raised before anything is sent.
import type { EventEmitter } from 'node:events';
import { Argument, Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { closest } from '../../output/suggest.js';

export { parseDuration, parseInteger } from '../../util/numbers.js';
import { parseInteger } from '../../util/numbers.js';

/** A comma-separated list of ids ("3,4,5"). */
export function parseIdList(value: string, flag: string): number[] {
  const ids = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new UsageError(`${flag} needs at least one id`);
  return ids.map((s) => parseInteger(s, flag)!);
}

/** A value as JSON when it parses ("3", "true", "[1,2]"), else the string itself. */
export function parseLooseValue(raw: string, label = raw): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return raw;
  }
  // JSON.parse rounds what a double cannot hold (an id past 2^53 rounded, 1e309 to Infinity and
  // sent as null, 1e-400 to 0): the value sent would not be the one typed.
  if (typeof value === 'number' || (value !== null && typeof value === 'object')) {
    const changed = numbersIn(raw).find((n) => !keptAsTyped(n));
    if (changed !== undefined) {
      const [flag, key] = /^(--set )?([^=]*)/.exec(label)!.slice(1);
      const asText = typeof value === 'number' ? `give it as text in JSON quotes (${flag ?? ''}'${key}="${changed}"')` : `write it as text in JSON quotes ("${changed}")`;
      throw new UsageError(`${label}: ${changed} is a number JSON cannot carry as typed (past 2^53, more than 15 digits, or out of range): ${asText}, or within range and to 15 digits`);
    }
  }
  return value;
}

/** The number literals of a JSON text, outside its strings. */
function numbersIn(json: string): string[] {
  const found: string[] = [];
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  for (const m of json.matchAll(token)) if (!m[0].startsWith('"')) found.push(m[0]);
  return found;
}

/** Whether the number written `text` is read as exactly that: an integer past 2^53, more than 15 digits, or a value that over- or underflows is not. */
function keptAsTyped(text: string): boolean {
  const n = Number(text);
  if (!Number.isFinite(n)) return false;
  if (/^-?\d+$/.test(text)) return Number.isSafeInteger(n);
  const digits = text.replace(/[eE].*$/, '').replace(/[-+.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  if (n === 0 && digits !== '') return false;
  return digits.length <= 15;
}

/** KEY=VALUE; the value may itself contain "=". */
export function splitKeyValue(pair: string, flag: string): [string, string] {
  const i = pair.indexOf('=');
  if (i <= 0) throw new UsageError(`invalid ${flag} "${pair}": expected KEY=VALUE`);
  return [pair.slice(0, i).trim(), pair.slice(i + 1)];
}

/** Sets a dotted key ("metadata.supplementary_unit") in a nested object. */
export function setDotted(target: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  // `.a`, `b..c`, `d.`: a typo, never a field named "" to send.
  if (parts.some((p) => p === '')) throw new UsageError(`invalid key "${key}": a dotted key has an empty part`);
  let cur = target;
  // Own properties only, defined rather than assigned: `--set __proto__.x=1` is a field named
  // __proto__ to send, never a walk into Object.prototype.
  const put = (obj: Record<string, unknown>, k: string, v: unknown) => Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(cur, part) ? cur[part] : undefined;
    if (!next || typeof next !== 'object' || Array.isArray(next)) put(cur, part, {});
    cur = cur[part] as Record<string, unknown>;
  }
  put(cur, parts[parts.length - 1], value);
}

/**
 * Commander parser for a comma-list flag that may also be repeated: `--tag a --tag b,c` means
 * "a,b,c" (commander alone would keep only the last).
 */
export function appendList(value: string, previous?: string): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/**
 * `--x` with `--no-x` on one command line: commander keeps whichever came last, which hides a
 * mistake in a script; it is a usage error instead.
 */
export function rejectBothForms(cmd: Command, ...names: string[]): Command {
  const seen = new Set<string>();
  for (const name of names) {
    for (const form of [name, `no-${name}`]) {
      cmd.on(`option:${form}`, () => {
        const other = form === name ? `no-${name}` : name;
        if (seen.has(other)) throw new UsageError(`choose one of --${name} or --no-${name}, not both`);
        seen.add(form);
      });
    }
  }
  return cmd;
}

/**
 * Another spelling of a flag, accepted and hidden from help (`--orders` for `--order`,
 * `--country` for `--country-code`): its values go to the flag itself, through the flag's own
 * parser, so `--order 4 --orders 5` is `--order 4,5` and the run function reads one option.
 */
export function addAlias(cmd: Command, alias: string, of: string): Command {
  const target = cmd.options.find((o) => o.long === `--${of}`);
  if (!target) throw new Error(`--${alias}: the command has no --${of}`);
  cmd.addOption(new Option(`--${alias} ${target.flags.slice(target.flags.indexOf(`--${of}`) + of.length + 2).trim()}`.trimEnd()).hideHelp());
  // A switch (`--is-self-managed` for `--self-managed`) takes no value: it sets the flag's own.
  // Given as the flag itself, so the checks listening for it (rejectBothForms) hear the alias too.
  const isSwitch = !target.required && !target.optional;
  cmd.on(`option:${alias}`, (value: string) => {
    const key = target.attributeName();
    const previous = cmd.getOptionValue(key) as unknown;
    if (isSwitch) return void (cmd as unknown as EventEmitter).emit(`option:${target.name()}`);
    cmd.setOptionValueWithSource(key, target.parseArg ? target.parseArg(value, previous) : value, 'cli');
  });
  return cmd;
}

/**
 * The spellings the spec's names rule promises on every command (hidden, as addAlias makes
 * them): `--country` for `--country-code`, the plural of an id list (`--orders` for
 * `--order <ids>`) and `--tags` for `--tag`, where the command has no option of that name already.
 */
export function addConventionalAliases(cmd: Command): void {
  const taken = (name: string) => cmd.options.some((o) => o.long === `--${name}`);
  for (const o of [...cmd.options]) {
    if (o.hidden || !o.long) continue;
    const name = o.long.slice(2);
    // `--tag`'s field is `tags`: the API's name, as every field flag is named after its field.
    const plural = (/<(u?ids|uuids)>$/.test(o.flags) && !name.endsWith('s')) || name === 'tag' ? `${name}s` : undefined;
    const alias = name === 'country-code' ? 'country' : plural;
    if (alias && !taken(alias)) addAlias(cmd, alias, name);
  }
}

/** Commander collector for repeatable flags. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export function parseDate(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const ok = DATE_RE.test(value) && !Number.isNaN(Date.parse(value + 'T00:00:00Z')) &&
    new Date(value + 'T00:00:00Z').toISOString().slice(0, 10) === value;
  if (!ok) throw new UsageError(`invalid ${flag} "${value}": expected a date YYYY-MM-DD`);
  return value;
}

/** A from/to pair of dates (`--created-from`, `--created-to`); the range must not be empty. */
export function parseDateRange(from: string | undefined, to: string | undefined, flag: string): [string | undefined, string | undefined] {
  const a = parseDate(from, `--${flag}-from`);
  const b = parseDate(to, `--${flag}-to`);
  if (a && b && a > b) throw new UsageError(`--${flag}-from ${a} is after --${flag}-to ${b}: the range is empty`);
  return [a, b];
}

/** A comma-separated list of free-text values. */
export function splitList(value: string | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value`);
  return items;
}

/** One of the allowed values, in any case (`Cocoa`, `eudr`), as the API spells it. */
export function parseEnum<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const match = allowed.find((a) => a === value) ?? allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (match === undefined) {
    const guess = closest(value, allowed);
    throw new UsageError(`invalid ${flag} "${value}": allowed values are ${allowed.join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`);
  }
  return match;
}

/** A comma-separated list where every element must be one of the allowed values (any case). */
export function parseEnumList<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((s) => s.trim()).filter(Boolean).map((v) => parseEnum(v, flag, allowed)!);
}

/** --concurrency's and --parallel's bounds and default: requests or pages under way at once. */
const IN_FLIGHT = { min: 1, max: 16, default: 4 } as const;

/** "1..16, default 4; one at a time while the rate limit has fewer left": both flags' help says it so. */
export const IN_FLIGHT_HELP = `${IN_FLIGHT.min}..${IN_FLIGHT.max}, default ${IN_FLIGHT.default}; one at a time while the rate limit has fewer left`;

/** Bulk commands' --concurrency. More in flight does not go faster against a per-hour rate limit; it only bunches the 429s. */
export function parseConcurrency(value: string | undefined): number {
  return parseInteger(value ?? String(IN_FLIGHT.default), '--concurrency', IN_FLIGHT.min, IN_FLIGHT.max)!;
}

/** --parallel of --all and sync's reads: pages under way at once, bounded as --concurrency is. */
export function parseParallel(value: string | undefined): number {
  return parseInteger(value ?? String(IN_FLIGHT.default), '--parallel', IN_FLIGHT.min, IN_FLIGHT.max)!;
}

/**
 * A text filter's value. Empty (a script's unset variable) is a usage error: sent or dropped,
 * it is no filter, and the service would match everything (a list, an export, a revoke).
 */
export function textValue(value: string, flag: string, empty = /^\s*$/): string {
  if (empty.test(value)) throw new UsageError(`${flag} needs a value`);
  return value;
}

/** A filter's comma list of allowed values; an empty one is a mistake, not "no filter". */
export function filterEnumList<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T[] | undefined {
  const list = parseEnumList(value, flag, allowed);
  if (list && list.length === 0) throw new UsageError(`${flag} needs a value: ${allowed.join(', ')}`);
  return list;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID (invitations are known by one), checked so a typo never reaches the API. */
export function parseUuid(value: string, what: string): string {
  const v = value.trim();
  if (!UUID_RE.test(v)) throw new UsageError(`invalid ${what} "${value}": expected a UUID (e.g. 3f2b8c1e-…)`);
  return v.toLowerCase();
}

/** A comma-separated list of UUIDs. */
export function parseUuidList(value: string, flag: string): string[] {
  const items = splitList(value, flag)!;
  return items.map((s) => parseUuid(s, flag));
}

/** The allowed values of the options made by enumOption: what completion offers (completion.ts). */
const ENUM_VALUES = new WeakMap<Option, readonly string[]>();

/**
 * An option that takes one of `values` (a list of them, with a list parser): the values are kept
 * with the option as data, and its description is written from them, so the two never differ.
 */
export function enumOption(
  flags: string,
  describe: (values: readonly string[]) => string,
  values: readonly string[],
  parse?: (value: string, previous?: string) => string,
): Option {
  const option = new Option(flags, describe(values));
  if (parse) option.argParser(parse);
  ENUM_VALUES.set(option, values);
  return option;
}

/** The values of an option made by enumOption. */
export function enumOptionValues(option: Option): readonly string[] | undefined {
  return ENUM_VALUES.get(option);
}

/** The values of the arguments made by argumentOf: what completion offers for them. */
const ARGUMENT_VALUES = new WeakMap<Argument, readonly string[]>();

/** A positional argument; `values`, when it takes one of a few (a shell, a config key), kept with it as data. */
export function argumentOf(name: string, description?: string, values?: readonly string[]): Argument {
  const argument = new Argument(name, description);
  if (values) ARGUMENT_VALUES.set(argument, values);
  return argument;
}

/** The values of an argument made by argumentOf. */
export function argumentValues(argument: Argument): readonly string[] | undefined {
  return ARGUMENT_VALUES.get(argument);
}
