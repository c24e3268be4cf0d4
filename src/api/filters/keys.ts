// What a list filter table is, and the API's suffix families its keys are written with. Each
// noun's table sits beside this file; the list command, `sct help filters`, the warning on an
// undocumented `--filter` key and the completion of `--filter` all read the same table.

/** The documented query filters of one list (api/supply-chain.md, api/accounts.md). */
export interface ListFilters {
  /** The group whose `list` takes them ("orders"). */
  noun: string;
  /** The command that takes them when it is not the group's `list` ("dds available-orders"). */
  command?: string;
  /** Every query key the documents name for the list, in the documents' order. */
  keys: readonly string[];
  /** The list's named flags, in the order its help shows them (the --filter keys they stand for). */
  named: readonly NamedFilter[];
  /**
   * Keys the documents say may be given again, any of the values matching (`status=a&status=b`);
   * the service reads only the last value of any other key given twice.
   */
  repeatable?: readonly string[];
}

/**
 * A flag that stands for a documented key. `key` is sent as written for one value, as `key__in`
 * for several, and a key ending in `__in`, `__exclude_in` or `__exclude` takes the whole list. What the value is says how it is
 * checked: `text` goes as given; `list` is comma-separated or repeated; `ids` whole numbers;
 * `countries` 2-letter codes of real countries; `enum` one or more of `values`, any case;
 * `percent` a number 0..100; `days` is a pair of flags `<flag>-from` and `<flag>-to` sending
 * `key__gte` and `key__lte` (YYYY-MM-DD, the range not empty). `custom` is checked and sent by the
 * command itself (a role name looked up, a key that depends on another flag): `keys` names what
 * it may send, `list` makes it comma-separated or repeated, `values` its allowed values. A flag
 * without a `<value>` is a switch; `--no-x` gets a hidden `--x` twin, so that its value stays
 * undefined unless it is given (commander would default a lone `--no-x` to true).
 */
export type NamedFilter =
  | { flag: string; help: string; value: 'text' | 'list' | 'ids' | 'countries' | 'percent'; key: string }
  | { flag: string; help: string; value: 'enum'; key: string; values: readonly string[] }
  | { flag: string; help: readonly [from: string, to: string]; value: 'days'; key: string }
  | { flag: string; help: string; value: 'custom'; keys: readonly string[]; list?: boolean; values?: readonly string[] };

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
export type LongName<F extends string> = F extends `--${infer N} ${string}` ? N : F extends `--${infer N}` ? N : never;
export type Attr<N extends string> = N extends `no-${infer P}` ? Camel<P> : Camel<N>;
type Plain<T extends ListFilters> = Exclude<T['named'][number], { value: 'days' }>;
type Days<T extends ListFilters> = Extract<T['named'][number], { value: 'days' }>;

/**
 * What a list's named flags give its run function, as commander names them (`--country-code` is
 * `countryCode`, a `days` pair `createdFrom` and `createdTo`, `--no-dds` is `dds`, a switch a
 * boolean): typed from the table itself (declared `as const satisfies ListFilters`), so a new
 * flag is one entry there.
 */
export type NamedFlags<T extends ListFilters> = {
  [F in Plain<T> as Attr<LongName<F['flag']>>]?: F['flag'] extends `${string}<${string}` ? string : boolean;
} & { [K in `${LongName<Days<T>['flag']>}-${'from' | 'to'}` as Camel<K>]?: string };

/** `name` with each suffix (and `name` itself when `bare`). */
export function withSuffixes(name: string, suffixes: readonly string[], bare = true): string[] {
  return [...(bare ? [name] : []), ...suffixes.map((s) => `${name}__${s}`)];
}
export const DATE_TIME = ['gte', 'lte'];
export const DATE_TIME_AND_DAY = ['gte', 'lte', 'date', 'date__gte', 'date__lte'];
export const TEXT = ['startswith', 'endswith', 'icontains', 'iendswith', 'istartswith'];
export const PAGING = ['search', 'ordering', 'limit', 'offset'];

/** --id and --exclude-id: `noun` as the help names the ids ("value chain"). */
export function idFilters(noun: string) {
  return [
    { flag: '--id <ids>', help: `only these ${noun} ids, comma-separated or repeated`, value: 'ids', key: 'id__in' },
    { flag: '--exclude-id <ids>', help: `leave out these ${noun} ids, comma-separated or repeated`, value: 'ids', key: 'id__exclude_in' },
  ] as const satisfies readonly NamedFilter[];
}

/** --created-from/-to and --updated-from/-to: the resource's own created_at and updated_at, by calendar day. */
export const DAY_RANGES = [
  { flag: '--created', help: ['created on or after (YYYY-MM-DD)', 'created on or before (YYYY-MM-DD)'], value: 'days', key: 'created_at__date' },
  { flag: '--updated', help: ['updated on or after (YYYY-MM-DD)', 'updated on or before (YYYY-MM-DD)'], value: 'days', key: 'updated_at__date' },
] as const satisfies readonly NamedFilter[];

/** A key ending so takes a whole comma list; any other sends one value as itself, several as `key__in`. */
export const TAKES_LIST = /__(in|exclude_in|exclude)$/;

/** The keys a named flag may send. */
export function keysSentBy(f: NamedFilter): string[] {
  switch (f.value) {
    case 'custom': return [...f.keys];
    case 'days': return [`${f.key}__gte`, `${f.key}__lte`];
    case 'text': case 'percent': return [f.key];
    default: return TAKES_LIST.test(f.key) ? [f.key] : [f.key, `${f.key}__in`];
  }
}

/** The flags a named filter adds (`days`: a pair), as help and `sct help filters` name them. */
export function flagsOf(f: NamedFilter): string[] {
  const name = f.flag.split(' ')[0];
  return f.value === 'days' ? [`${name}-from`, `${name}-to`] : [name];
}
