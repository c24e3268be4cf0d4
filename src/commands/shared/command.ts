// The glue between commander and a command's run function: it builds the Context from the
// global flags and disposes of it after. Context, client and config are imported statically:
// cli.js, which loads this, is only loaded for a command that runs (help and --version are
// answered from data), and one chunk fewer to resolve at start-up is worth more than laziness.
import type { Command } from 'commander';
import { createContext, type Context, type ContextDeps } from '../../context.js';
import { preflight } from './preflight.js';
import { printedBy } from './output-facts.js';
import { loadColor } from '../../output/iostreams.js';
import { DryRunEnd } from '../../api/client.js';
import { PartialFailureError } from '../../errors.js';
import { isDryRun, writePlannedRequests } from './dry-run.js';
import { formatExamples, setExamples } from '../../help/examples.js';

export interface Factory {
  /**
   * Wraps a run function as a commander action: `fn(ctx, opts, args, cmd)` with the command's own
   * options, its positional arguments and the command (where an option was given: dds wait's --timeout).
   */
  action<O = Record<string, unknown>>(fn: (ctx: Context, opts: O, args: string[], cmd: Command) => Promise<void>): (...a: unknown[]) => Promise<void>;
  /**
   * Whether a group registers its sub-command `name`. A run that names its command registers
   * that one alone (building the other commands' options costs more than a one-request run
   * itself); help, completion, the manual and suggestions for a mistyped name get them all.
   */
  leaf(name: string): boolean;
  /** The whole command tree, every group loaded (what completion scripts are generated from). */
  fullProgram(io: Context['io']): Promise<Command>;
}

export function createFactory(deps: ContextDeps, fullProgram: Factory['fullProgram']): Factory {
  return {
    leaf: () => true,
    fullProgram,
    action(fn) {
      return async (...a: unknown[]) => {
        const cmd = a[a.length - 1] as Command;
        const positional = a.slice(0, -2).flat() as string[];
        await loadColor(deps.io);
        const dryRun = isDryRun(cmd);
        const ctx = createContext(cmd.optsWithGlobals(), deps, { dryRun, printed: printedBy(cmd) });
        try {
          await preflight(ctx, cmd);
          try {
            await fn(ctx, cmd.opts() as never, positional, cmd);
          } catch (err) {
            if (!dryRun) throw err;
            if (err instanceof PartialFailureError && ctx.planned.length) {
              // --skip-invalid let the dry run go on past invalid rows (exit 3, as the real run
              // ends): the valid rows' requests are still what it was asked to show.
              await writePlannedRequests(ctx);
              throw err;
            }
            // The client ended the dry run at a write the command would go on from.
            if (!(err instanceof DryRunEnd)) throw err;
          }
          if (dryRun) await writePlannedRequests(ctx);
        } finally {
          await ctx.dispose();
        }
      };
    },
  };
}

/** Each command group module exports this. */
export type Register = (program: Command, factory: Factory) => void;

/**
 * The `Examples:` block that ends a command's help: real command lines (they work against the
 * demo data of `sct sandbox`). Every leaf command calls this last, after any other help text, so
 * the examples are what its help ends with.
 */
export function addExamples(cmd: Command, examples: readonly string[]): Command {
  setExamples(cmd, examples);
  return cmd.addHelpText('after', `\n${formatExamples(examples)}`);
}

