// A leaf command as data — its name, summary, arguments, options, examples, what it prints and
// its run function — and the one adapter that makes the commander command of it. Help, the
// manual, completion and the examples test read the commander tree this builds, so a record
// says everything a user sees of a command, in one place.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { DocumentedResource } from '../../api/schemas/fields.js';
import { addExamples, type Factory, type Register } from './command.js';
import { prints, writesGeojson } from './output-facts.js';
import { addAlias, addConventionalAliases, argumentOf, rejectBothForms } from './flags.js';
import { addNamedFilters, filteredBy } from './filters.js';
import { addDryRunOption } from './dry-run.js';
import { optionOf, type OptionEntry, type OptionSpec, type OptionsOf } from './options.js';
import { fitLines } from '../../help/wrap.js';
import { connectBulkRun } from '../../bulk/connect.js';

interface ArgumentSpec {
  /** As commander spells it: `<id>`, `[shell]`, `<files...>`. */
  readonly name: string;
  readonly description?: string;
  /** The values it takes, when it takes one of a few: what completion offers. */
  readonly values?: readonly string[];
}

export interface CommandSpec<E extends readonly OptionEntry[] = readonly OptionEntry[]> {
  readonly name: string;
  /** The one line help opens with and lists the command by. */
  readonly summary: string;
  readonly args?: readonly ArgumentSpec[];
  /** In the order help lists them. */
  readonly options?: E;
  /** `--x`/`--no-x` pairs (named `x`) that may not both be given. */
  readonly exclusive?: readonly string[];
  /**
   * Help text between the options and the examples (ordering fields, error classes…); a function
   * where the text is worked out (orders import's columns), so only the command registered works it out.
   */
  readonly help?: string | (() => string);
  /** Real command lines against the sandbox's demo data: help ends with them, the examples test runs them. */
  readonly examples: readonly string[];
  /** The documented resource it prints (its `--columns` names and CSV header), and names sct adds to it. */
  readonly prints?: DocumentedResource;
  readonly extraFields?: readonly string[];
  /** It writes `-o geojson`: the resource has a location. */
  readonly geojson?: boolean;
  /**
   * Given --file, it is a bulk run: the connection of its first request is opened as it starts,
   * before its code is loaded and its file read and checked (src/bulk/connect.ts).
   */
  readonly bulk?: boolean;
  /** What runs: the context, the options as OptionsOf types them, the positional arguments, the command. */
  readonly run: (ctx: Context, opts: OptionsOf<E>, args: string[], cmd: Command) => Promise<void>;
}

/** A record whose options type has been checked against its run; what groups hold. */
export type Leaf = CommandSpec<readonly OptionEntry[]> & { readonly __leaf: true };

/** Checks a record: its run receives the options its own entries declare. */
export function defineLeaf<const E extends readonly OptionEntry[] = readonly []>(spec: CommandSpec<E>): Leaf {
  return spec as unknown as Leaf;
}

export interface GroupSpec {
  readonly name: string;
  /**
   * What the group's own help opens with, when it says more than the group's line in lists (its
   * summary in src/cli/groups.ts), which it is otherwise.
   */
  readonly description?: string;
  readonly leaves: readonly Leaf[];
}

const isFilters = (e: OptionEntry): e is Extract<OptionEntry, { filters: unknown }> => 'filters' in e;
const isAlias = (e: OptionEntry): e is Extract<OptionEntry, { alias: string }> => 'alias' in e;

/**
 * The commander command of spec on group, when the run wants it (`f.leaf`: a run that names its
 * command registers that one alone).
 */
function addLeaf(group: Command, f: Factory, spec: Leaf): Command | undefined {
  return f.leaf(spec.name) ? commandOf(group, f, spec) : undefined;
}

/** The commander command of spec on parent. */
function commandOf(parent: Command, f: Factory, spec: Leaf): Command {
  const cmd = parent.command(spec.name);
  if (spec.prints) prints(cmd, spec.prints, spec.extraFields);
  if (spec.geojson) writesGeojson(cmd);
  for (const a of spec.args ?? []) cmd.addArgument(argumentOf(a.name, a.description, a.values));
  cmd.description(spec.summary);
  for (const entry of spec.options ?? []) {
    if (isFilters(entry)) (entry.flagsOnly ? addNamedFilters : filteredBy)(cmd, entry.filters);
    else if (isAlias(entry)) addAlias(cmd, entry.alias, entry.of);
    else if ((entry as OptionSpec).dryRun) addDryRunOption(cmd, (entry as OptionSpec).description as string);
    else cmd.addOption(optionOf(entry as OptionSpec));
  }
  addConventionalAliases(cmd);
  if (spec.exclusive) rejectBothForms(cmd, ...spec.exclusive);
  if (spec.help) {
    // Worked out once, for the command registered. Written for 100 columns, fitted as the topics
    // are: to the terminal, or 80 in a pipe.
    const text = typeof spec.help === 'function' ? spec.help() : spec.help;
    cmd.addHelpText('after', ({ command }) => fitLines(text, command.configureOutput().getOutHelpWidth?.() ?? 80));
  }
  addExamples(cmd, spec.examples);
  cmd.action(f.action(spec.bulk ? connectingFirst(spec.run) : (spec.run as Run)));
  return cmd;
}

type Run = (ctx: Context, opts: unknown, args: string[], cmd: Command) => Promise<void>;

/** A bulk command's run, its connection started first (a dry run and --template open none: they send nothing). */
function connectingFirst(run: CommandSpec['run']): Run {
  return async (ctx, opts, args, cmd) => {
    const o = opts as { file?: string; template?: boolean; dryRun?: boolean };
    if (o.file !== undefined && !o.template && !o.dryRun) await connectBulkRun(ctx);
    return (run as Run)(ctx, opts, args, cmd);
  };
}

/** The group's command and the commands of its leaves, in the records' order. */
export function addGroup(program: Command, f: Factory, spec: GroupSpec): Command {
  const group = program.command(spec.name);
  if (spec.description !== undefined) group.description(spec.description);
  for (const l of spec.leaves) addLeaf(group, f, l);
  return group;
}

/** A group module's `register`, from its record; a command without sub-commands is a leaf of the program. */
export function registerOf(spec: GroupSpec | Leaf): Register {
  return (program, f) => {
    if ('leaves' in spec) addGroup(program, f, spec);
    else commandOf(program, f, spec);
  };
}
