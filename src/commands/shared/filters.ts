// A list's named filter flags and the query they send, derived from its table
// (src/api/filters/<noun>.ts), and which table a list command takes, stated where the command is
// defined (as output-facts.ts states what it prints): the `--filter` warning and completion read
// it from the command tree, with no table keyed by "group verb".
import { Option, type Command } from 'commander';
import { TAKES_LIST, type ListFilters, type NamedFilter, type NamedFlags } from '../../api/filters/keys.js';
import { UsageError } from '../../errors.js';
import { appendList, enumOption, filterEnumList, parseDateRange, parseIdList, rejectBothForms, splitList, textValue } from './flags.js';
import { parseCountryCodes, setOneOrIn } from './list.js';

const FILTERS = new WeakMap<Command, ListFilters>();
/** The table of every command with named filters, those taking them as a filter object included. */
const NAMED = new WeakMap<Command, ListFilters>();

/** Marks cmd as a list taking table's filters, and adds its named flags. */
export function filteredBy(cmd: Command, table: ListFilters): Command {
  FILTERS.set(cmd, table);
  return addNamedFilters(cmd, table);
}

/** The table's named flags, in its order (`orders stats` takes those of `orders list`). */
export function addNamedFilters(cmd: Command, table: ListFilters): Command {
  NAMED.set(cmd, table);
  const shown = new Set(table.named.map((f) => f.flag));
  for (const option of table.named.flatMap(optionsOf)) {
    // A `--no-x` whose `--x` is shown too needs no hidden twin.
    if (!(option.hidden && shown.has(option.flags))) cmd.addOption(option);
  }
  // `--no-dds` with its hidden `--dds` on one line: which one meant is not for sct to guess.
  for (const f of table.named) {
    const negated = /^--no-(\S+)$/.exec(f.flag);
    if (negated && f.value === 'custom') rejectBothForms(cmd, negated[1]!);
  }
  return cmd;
}

export function filtersOf(cmd: Command): ListFilters | undefined {
  return FILTERS.get(cmd);
}

/** The table whose named flags cmd takes, whether its --filter keys are the table's or not (revoke, stats). */
export function namedFiltersOf(cmd: Command): ListFilters | undefined {
  return NAMED.get(cmd);
}

function optionsOf(f: NamedFilter): Option[] {
  switch (f.value) {
    case 'enum':
      return [enumOption(f.flag, (v) => `${f.help} (${v.join(', ')})`, f.values, appendList)];
    case 'days':
      return [new Option(`${f.flag}-from <date>`, f.help[0]), new Option(`${f.flag}-to <date>`, f.help[1])];
    case 'list': case 'ids': case 'countries':
      return [new Option(f.flag, f.help).argParser(appendList)];
    case 'custom': {
      const parse = f.list ? appendList : undefined;
      if (f.values) return [enumOption(f.flag, (v) => `${f.help} (${v.join(', ')})`, f.values, parse)];
      const option = new Option(f.flag, f.help);
      if (parse) option.argParser(parse);
      const negated = /^--no-(\S+)$/.exec(f.flag);
      return negated ? [new Option(`--${negated[1]}`).hideHelp(), option] : [option];
    }
    default:
      return [new Option(f.flag, f.help)];
  }
}

/** A number 0..100 (a share of assessments). */
export function parsePercentage(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || n > 100) throw new UsageError(`invalid ${flag} "${value}": expected a number 0..100`);
  return n;
}

type Target = URLSearchParams | Record<string, string | string[]>;
const put = (target: Target, key: string, value: string) => (target instanceof URLSearchParams ? target.set(key, value) : (target[key] = value));

/**
 * Adds to target (a query, or the filter object of a bulk request) what the table's named flags in
 * opts ask for, in the table's order. A `custom` flag that was given goes to its handler in
 * `custom`, in the same order; one without a handler is sent by the command itself.
 */
export function setNamedFilters<T extends ListFilters>(
  target: Target,
  table: T,
  opts: NamedFlags<T>,
  custom: { [K in keyof NamedFlags<T>]?: (value: Exclude<NamedFlags<T>[K], undefined>) => void } = {},
): void {
  const given = opts as Record<string, string | undefined>;
  const handlers = custom as Record<string, ((value: unknown) => void) | undefined>;
  const handled = new Set<string>();
  for (const f of table.named as readonly NamedFilter[]) {
    const option = new Option(f.flag);
    const name = option.long!;
    if (f.value === 'custom') {
      // `--x` and `--no-x` are one value: its handler runs once.
      const value = given[option.attributeName()];
      if (value !== undefined && !handled.has(option.attributeName())) handlers[option.attributeName()]?.(value);
      handled.add(option.attributeName());
      continue;
    }
    if (f.value === 'days') {
      const flag = name.slice(2);
      const [from, to] = parseDateRange(given[new Option(`${name}-from`).attributeName()], given[new Option(`${name}-to`).attributeName()], flag);
      if (from) put(target, `${f.key}__gte`, from);
      if (to) put(target, `${f.key}__lte`, to);
      continue;
    }
    const value = given[option.attributeName()];
    if (value === undefined) continue;
    const values = (() => {
      switch (f.value) {
        case 'text':
          return [textValue(value, name)];
        case 'list': return splitList(value, name);
        case 'ids': return parseIdList(value, name);
        case 'countries': return parseCountryCodes(value, name);
        case 'enum': return filterEnumList(value, name, f.values);
        case 'percent': return [parsePercentage(value, name)!];
      }
    })();
    if (f.value === 'text' || f.value === 'percent' || TAKES_LIST.test(f.key)) put(target, f.key, values!.join(','));
    else setOneOrIn(target, f.key, values);
  }
}
