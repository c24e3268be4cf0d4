// Which documented filter table a list command takes, stated where the command is defined (as
// output-facts.ts states what it prints): the `--filter` warning and completion read it from the
// command tree, with no table keyed by "group verb".
import type { Command } from 'commander';
import type { ListFilters } from '../../api/filters/keys.js';

const FILTERS = new WeakMap<Command, ListFilters>();

/** Marks cmd as a list taking table's documented filters. */
export function filteredBy(cmd: Command, table: ListFilters): Command {
  FILTERS.set(cmd, table);
  return cmd;
}

export function filtersOf(cmd: Command): ListFilters | undefined {
  return FILTERS.get(cmd);
}
