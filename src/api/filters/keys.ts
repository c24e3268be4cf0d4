// What a list filter table is, and the API's suffix families its keys are written with. Each
// noun's table sits beside this file; the list command, `sct help filters`, the warning on an
// undocumented `--filter` key and the completion of `--filter` all read the same table.

/** The documented query filters of one list (api/supply-chain.md, api/accounts.md). */
export interface ListFilters {
  /** The group whose `list` takes them ("orders"). */
  noun: string;
  /** Every query key the documents name for the list, in the documents' order. */
  keys: readonly string[];
  /** The named flags of the list and the documented keys each sets. */
  flags: Readonly<Record<string, readonly string[]>>;
}

/** `name` with each suffix (and `name` itself when `bare`). */
export function withSuffixes(name: string, suffixes: readonly string[], bare = true): string[] {
  return [...(bare ? [name] : []), ...suffixes.map((s) => `${name}__${s}`)];
}
export const DATE_TIME = ['gte', 'lte'];
export const DATE_TIME_AND_DAY = ['gte', 'lte', 'date', 'date__gte', 'date__lte'];
export const TEXT = ['startswith', 'endswith', 'icontains', 'iendswith', 'istartswith'];
export const PAGING = ['search', 'ordering', 'limit', 'offset'];
