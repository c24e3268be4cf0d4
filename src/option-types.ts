// What an option record is, and the options type a run receives from a list of them: below
// the commands, so the context's global flags (src/global-flags.ts) are typed from their records
// as every command's options are. Making commander options of them is commands/shared/options.ts.
import type { Attr, ListFilters, LongName, NamedFlags } from './api/filters/keys.js';

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
interface FilterEntry<T extends ListFilters = ListFilters> {
  readonly filters: T;
  /**
   * The table's named flags alone: the command is no list of it (`help filters`, completion and
   * the --filter check do not take it as one), as invitations revoke and renew borrow the list's.
   */
  readonly flagsOnly?: true;
}

/** Another spelling of an option given before it, hidden from help (flags.ts, addAlias). */
interface AliasEntry {
  readonly alias: string;
  readonly of: string;
}

export type OptionEntry = OptionSpec | FilterEntry | AliasEntry;

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
