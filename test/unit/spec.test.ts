// A command record in, the commander command out: the same help, options, side tables (what it
// prints, its filters, its examples, --dry-run) and action as the commander calls it stands for.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Command, Option } from 'commander';
import { addGroup, defineLeaf, type Leaf } from '../../src/commands/shared/spec.js';
import type { OptionsOf } from '../../src/commands/shared/options.js';
import type { Factory } from '../../src/commands/shared/command.js';
import { addExamples } from '../../src/commands/shared/command.js';
import { appendList, argumentValues, collect, enumOption, enumOptionValues } from '../../src/commands/shared/flags.js';
import { completionScript } from '../../src/commands/completion.js';
import { printedBy, isGeojsonCommand } from '../../src/commands/shared/output-facts.js';
import { filtersOf } from '../../src/commands/shared/filters.js';
import { isDryRun } from '../../src/commands/shared/dry-run.js';
import { examplesOf } from '../../src/help/examples.js';
import type { ListFilters } from '../../src/api/filters/keys.js';
import { bulkRunOptions } from '../../src/commands/shared/bulk.js';

const TABLE = {
  noun: 'things',
  keys: ['colour', 'colour__in', 'search'],
  named: [{ flag: '--colour <colours>', help: 'colour(s), comma-separated or repeated', value: 'list', key: 'colour' }],
} as const satisfies ListFilters;

const OPTIONS = [
  { filters: TABLE },
  { flags: '--size <value>', description: (v: readonly string[]) => `one of ${v.join(', ')}`, values: ['s', 'm', 'l'], parse: appendList },
  { alias: 'sizes', of: 'size' },
  { flags: '--tag <tag>', description: 'a tag (repeatable)', parse: collect },
  { flags: '-y, --yes', description: 'do not ask' },
  { flags: '--wait', description: 'wait for it' },
  { flags: '--no-wait', description: 'return at once' },
  { flags: '--secret <x>', description: 'not shown', hidden: true },
  { flags: '--dry-run', description: 'print the requests, send none', dryRun: true },
] as const;

/** A factory whose action hands the run the options and arguments alone (no context). */
function factory(only?: string): { f: Factory; runs: unknown[][] } {
  const runs: unknown[][] = [];
  const f: Factory = {
    leaf: (name) => only === undefined || name === only,
    fullProgram: () => Promise.reject(new Error('not here')),
    action: (fn) => async (...a: unknown[]) => {
      const cmd = a[a.length - 1] as Command;
      await fn(undefined as never, cmd.opts() as never, a.slice(0, -2).flat() as string[], cmd);
    },
  };
  return { f, runs };
}

function thingsGroup(runs: unknown[][]): Leaf[] {
  return [
    defineLeaf({
      name: 'paint',
      summary: 'Paint a thing',
      args: [{ name: '<id>', description: 'thing id' }],
      options: OPTIONS,
      exclusive: ['wait'],
      help: '\nColours: any the shop has.',
      examples: ['sct things paint 1 --colour red', 'sct things paint 2 --size s,m'],
      prints: 'product',
      extraFields: ['shade'],
      geojson: true,
      run: async (_ctx, opts, args) => {
        runs.push([opts, args]);
      },
    }),
    defineLeaf({ name: 'show', summary: 'Show a thing', examples: ['sct things show'], run: async () => undefined }),
  ];
}

/** The same command made by commander calls, as groups made them before they were records. */
function byHand(program: Command): Command {
  const things = program.command('things').description('Things');
  const cmd = things.command('paint').argument('<id>', 'thing id').description('Paint a thing');
  cmd.addOption(new Option('--colour <colours>', 'colour(s), comma-separated or repeated').argParser(appendList));
  cmd.addOption(enumOption('--size <value>', (v) => `one of ${v.join(', ')}`, ['s', 'm', 'l'], appendList));
  cmd.addOption(new Option('--sizes <value>').hideHelp());
  cmd.option('--tag <tag>', 'a tag (repeatable)', collect);
  cmd.option('-y, --yes', 'do not ask');
  cmd.option('--wait', 'wait for it');
  cmd.option('--no-wait', 'return at once');
  cmd.addOption(new Option('--secret <x>', 'not shown').hideHelp());
  cmd.option('--dry-run', 'print the requests, send none');
  cmd.addHelpText('after', '\nColours: any the shop has.');
  addExamples(cmd, ['sct things paint 1 --colour red', 'sct things paint 2 --size s,m']);
  return cmd;
}

const helpOf = (cmd: Command) => {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s) });
  cmd.outputHelp();
  return out;
};

describe('the command adapter', () => {
  it('makes the help commander calls made, byte for byte', () => {
    const runs: unknown[][] = [];
    const program = new Command('sct');
    const group = addGroup(program, factory().f, { name: 'things', description: 'Things', leaves: thingsGroup(runs) });
    const paint = group.commands.find((c) => c.name() === 'paint')!;
    const hand = byHand(new Command('sct'));
    expect(helpOf(paint)).toBe(helpOf(hand));
    expect(helpOf(paint)).toContain('--size <value>      one of s, m, l');
    expect(group.commands.map((c) => c.name())).toEqual(['paint', 'show']);
  });

  it('keeps what the command prints, its filters, values, examples and dry run with it', () => {
    const runs: unknown[][] = [];
    const group = addGroup(new Command('sct'), factory().f, { name: 'things', description: 'Things', leaves: thingsGroup(runs) });
    const paint = group.commands[0];
    expect(printedBy(paint)).toEqual({ resource: 'product', extraFields: ['shade'] });
    expect(isGeojsonCommand(paint)).toBe(true);
    expect(filtersOf(paint)).toBe(TABLE);
    expect(enumOptionValues(paint.options.find((o) => o.long === '--size')!)).toEqual(['s', 'm', 'l']);
    expect(examplesOf(paint)).toEqual(['sct things paint 1 --colour red', 'sct things paint 2 --size s,m']);
    expect(printedBy(group.commands[1])).toBeUndefined();
  });

  it('runs the record with the options its entries declare', async () => {
    const runs: unknown[][] = [];
    const program = new Command('sct').exitOverride();
    addGroup(program, factory().f, { name: 'things', description: 'Things', leaves: thingsGroup(runs) });
    await program.parseAsync(['things', 'paint', '7', '--colour', 'red', '--size', 's', '--sizes', 'm', '--tag', 'a', '--tag', 'b', '-y', '--no-wait', '--dry-run'], { from: 'user' });
    expect(runs).toEqual([[{ colour: 'red', size: 's,m', sizes: 'm', tag: ['a', 'b'], yes: true, wait: false, dryRun: true }, ['7']]]);
    expect(isDryRun(program.commands[0].commands[0])).toBe(true);
  });

  it('refuses --x with --no-x, as the record says', async () => {
    const program = new Command('sct').exitOverride();
    addGroup(program, factory().f, { name: 'things', description: 'Things', leaves: thingsGroup([]) });
    await expect(program.parseAsync(['things', 'paint', '7', '--wait', '--no-wait'], { from: 'user' })).rejects.toThrow('choose one of --wait or --no-wait, not both');
  });

  it('registers only the leaf a run names', () => {
    const group = addGroup(new Command('sct'), factory('show').f, { name: 'things', description: 'Things', leaves: thingsGroup([]) });
    expect(group.commands.map((c) => c.name())).toEqual(['show']);
  });

  it('types the options from the records', () => {
    expectTypeOf<OptionsOf<typeof OPTIONS>>().toEqualTypeOf<{
      colour?: string;
      size?: string;
      tag?: string[];
      yes?: boolean;
      wait?: boolean;
      secret?: string;
      dryRun?: boolean;
    }>();
  });

  it('adds a filter table\'s flags alone, without making the command a list of it', () => {
    const leaf = defineLeaf({ name: 'revoke', summary: 'Revoke things', options: [{ filters: TABLE, flagsOnly: true }], examples: ['sct things revoke --colour red'], run: async () => undefined });
    const group = addGroup(new Command('sct'), factory().f, { name: 'things', description: 'Things', leaves: [leaf] });
    const revoke = group.commands[0];
    expect(revoke.options.map((o) => o.long)).toEqual(['--colour']);
    expect(filtersOf(revoke)).toBeUndefined();
  });

  it('gives a bulk command only the bulk flags its shape asks for, typed as such', () => {
    const options = bulkRunOptions({ concurrency: true, only: 'with --file: ' });
    expect(options.map((o) => o.flags)).toEqual(['--report <file>', '--force', '--concurrency <n>', '--fresh', '--encoding <name>', '--delimiter <c>', '--skip-invalid', '--decimal-comma', '--sheet <name>']);
    expect(options[0].description).toBe('with --file: also write the per-row report to this CSV file');
    expect(bulkRunOptions({ reads: true, dryRun: true }).map((o) => o.flags)).toContain('--parallel <n>');
    expectTypeOf<keyof OptionsOf<typeof options>>().toEqualTypeOf<'report' | 'force' | 'concurrency' | 'fresh' | 'encoding' | 'delimiter' | 'skipInvalid' | 'decimalComma' | 'sheet'>();
    const all = bulkRunOptions({ concurrency: true, reads: true, dryRun: true });
    expect(all.map((o) => o.flags)).toEqual(['--report <file>', '--force', '--concurrency <n>', '--parallel <n>', '--fresh', '--dry-run', '--encoding <name>', '--delimiter <c>', '--skip-invalid', '--decimal-comma', '--sheet <name>']);
    expectTypeOf<keyof OptionsOf<typeof all>>().toEqualTypeOf<'report' | 'force' | 'concurrency' | 'parallel' | 'fresh' | 'dryRun' | 'encoding' | 'delimiter' | 'skipInvalid' | 'decimalComma' | 'sheet'>();
  });

  it('works out a help text given as a function only for the command it registers', () => {
    let made = 0;
    const help = () => {
      made++;
      return '\nColumns: worked out.';
    };
    const leaves = [
      defineLeaf({ name: 'import', summary: 'Import things', help, examples: ['sct things import'], run: async () => undefined }),
      defineLeaf({ name: 'show', summary: 'Show a thing', examples: ['sct things show'], run: async () => undefined }),
    ];
    addGroup(new Command('sct'), factory('show').f, { name: 'things', description: 'Things', leaves });
    expect(made).toBe(0);
    const group = addGroup(new Command('sct'), factory('import').f, { name: 'things', description: 'Things', leaves });
    expect(made).toBe(1);
    expect(helpOf(group.commands[0])).toContain('Columns: worked out.');
  });

  it('keeps the values an argument takes with it, for completion', () => {
    const program = new Command('sct');
    const leaf = defineLeaf({ name: 'colour', summary: 'Pick a colour', args: [{ name: '<colour>', description: 'red or blue', values: ['red', 'blue'] }], examples: ['sct colour red'], run: async () => undefined });
    const group = addGroup(program, factory().f, { name: 'things', description: 'Things', leaves: [leaf] });
    expect(argumentValues(group.commands[0].registeredArguments[0])).toEqual(['red', 'blue']);
    expect(completionScript(program, 'bash')).toContain(`'things colour') opts='red blue' ;;`);
  });
});
