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
    password: async (m, v) => (await import('../prompt.js')).createPrompter(io, signal).password(m, v),
    input: async (m, o) => (await import('../prompt.js')).createPrompter(io, signal).input(m, o),
    confirm: async (m, d) => (await import('../prompt.js')).createPrompter(io, signal).confirm(m, d),
    select: async (m, c, d) => (await import('../prompt.js')).createPrompter(io, signal).select(m, c, d),
  };
  // A prompt is never paged: what was written before it is shown (the pager closed) first.
  return {
    password: async (m, v) => (await io.endPager(), base.password(m, v)),
    input: async (m, o) => (await io.endPager(), base.input(m, o)),
    confirm: async (m, d) => (await io.endPager(), base.confirm(m, d)),
    select: async (m, c, d) => (await io.endPager(), base.select(m, c, d)),
  };
}
