// The prompts of a run: @inquirer/prompts is loaded only when one is asked.
import type { IOStreams } from '../output/iostreams.js';
import type { Prompter } from '../prompt.js';

/**
 * given (tests pass one) or the terminal's prompts, each shown after the pager has closed, and
 * ended by the run's signal (SIGTERM, SIGHUP, or SIGINT from `kill`, which never reach the
 * prompt as a key press).
 */
export function lazyPrompter(io: IOStreams, given?: Prompter, signal?: AbortSignal): Prompter {
  const base: Prompter = given ?? {
    password: async (m) => (await import('../prompt.js')).createPrompter(io, signal).password(m),
    input: async (m, o) => (await import('../prompt.js')).createPrompter(io, signal).input(m, o),
    confirm: async (m, d) => (await import('../prompt.js')).createPrompter(io, signal).confirm(m, d),
    select: async (m, c) => (await import('../prompt.js')).createPrompter(io, signal).select(m, c),
  };
  // A prompt is never paged: what was written before it is shown (the pager closed) first.
  return {
    password: async (m) => (await io.endPager(), base.password(m)),
    input: async (m, o) => (await io.endPager(), base.input(m, o)),
    confirm: async (m, d) => (await io.endPager(), base.confirm(m, d)),
    select: async (m, c) => (await io.endPager(), base.select(m, c)),
  };
}
