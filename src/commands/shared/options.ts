// A command's options as data: what each flag is called, says, takes and parses, in the order
// help lists them. The adapter (spec.ts) turns them into commander options; the options object a
// run function receives is typed from the same records (OptionsOf), so a new flag is one entry.
import { Option } from 'commander';
import type { Attr, ListFilters, LongName, NamedFlags } from '../../api/filters/keys.js';
import { enumOption } from './flags.js';

export interface OptionSpec {
  /** As commander spells them: `--limit <n>`, `-y, --yes`, `--json [fields]`, `--no-dds`. */
  readonly flags: string;
  /** An enum's description is written from its values, so the two never differ. */
  readonly description: string | ((values: readonly string[]) => string);
  /** The allowed values (what completion offers); the description function gets them. */
  readonly values?: readonly string[];
  /** Commander's argParser: the value given, and the one before it for a repeated flag. */
  readonly parse?: (value: string, previous?: any) => unknown;
  readonly default?: unknown;
  /** Accepted, not shown in help. */
  readonly hidden?: boolean;
  /** The flag is --dry-run: the run's requests are printed, not sent (dry-run.ts). */
  readonly dryRun?: true;
}

/** Where a list's named filter flags go among its options (src/api/filters/<noun>.ts). */
export interface FilterEntry<T extends ListFilters = ListFilters> {
  readonly filters: T;
  /**
   * The table's named flags alone: the command is no list of it (`help filters`, completion and
   * the --filter check do not take it as one), as invitations revoke and renew borrow the list's.
   */
  readonly flagsOnly?: true;
}

/** Another spelling of an option given before it, hidden from help (flags.ts, addAlias). */
export interface AliasEntry {
  readonly alias: string;
  readonly of: string;
}

export type OptionEntry = OptionSpec | FilterEntry | AliasEntry;

/** The commander option of a record. */
export function optionOf(o: OptionSpec): Option {
  const description = o.description;
  const option = o.values
    ? enumOption(o.flags, typeof description === 'function' ? description : () => description, o.values)
    : new Option(o.flags, typeof description === 'function' ? description([]) : description);
  if (o.parse) option.argParser(o.parse);
  if (o.default !== undefined) option.default(o.default);
  if (o.hidden) option.hideHelp();
  return option;
}

type LongOf<F extends string> = F extends `-${string}, ${infer Long}` ? LongName<Long> : LongName<F>;
type ValueOf<O> = O extends { parse: (...a: never[]) => infer R }
  ? R
  : O extends { flags: `${string}<${string}` }
    ? string
    : O extends { flags: `${string}[${string}` }
      ? string | true
      : boolean;
// An entry that adds no flag of its own adds `{}`: `unknown` would swallow the union.
type None = {};
type FlagsOf<E> = E extends FilterEntry<infer T>
  ? string extends T['named'][number]['flag'] ? None : NamedFlags<T>
  : E extends { flags: infer F extends string }
    ? { [K in Attr<LongOf<F>>]?: ValueOf<E> }
    : None;
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * The options object a run receives from records declared `as const`: `--page-size <n>` is
 * `pageSize?: string`, a switch a boolean, a parsed flag its parser's result, a filter table's
 * flags as NamedFlags types them.
 */
export type OptionsOf<E extends readonly OptionEntry[]> = Flat<Intersect<FlagsOf<E[number]>>>;
