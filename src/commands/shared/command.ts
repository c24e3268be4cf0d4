// The glue between commander and a command's run function: it builds the Context from the
// global flags (loading the heavy modules only now, after parsing) and disposes of it after.
import type { Command } from 'commander';
import type { Context, ContextDeps } from '../../context.js';
import { loadColor } from '../../output/iostreams.js';

export interface Factory {
  /**
   * Wraps a run function as a commander action: `fn(ctx, opts, args)` with the command's own
   * options and its positional arguments.
   */
  action<O = Record<string, unknown>>(fn: (ctx: Context, opts: O, args: string[]) => Promise<void>): (...a: unknown[]) => Promise<void>;
}

export function createFactory(deps: ContextDeps): Factory {
  return {
    action(fn) {
      return async (...a: unknown[]) => {
        const cmd = a[a.length - 1] as Command;
        const positional = a.slice(0, -2).flat() as string[];
        const [{ createContext }, { preflight }] = await Promise.all([import('../../context.js'), import('./preflight.js'), loadColor(deps.io)]);
        const ctx = createContext(cmd.optsWithGlobals(), deps);
        try {
          await preflight(ctx, cmd);
          await fn(ctx, cmd.opts() as never, positional);
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
  return cmd.addHelpText('after', `\n${formatExamples(examples)}`);
}

export function formatExamples(examples: readonly string[]): string {
  return `Examples:\n${examples.map((e) => `  ${e}`).join('\n')}`;
}

