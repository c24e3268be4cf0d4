// Each command's help examples, as data: help renders them, the manual prints them and the
// examples test runs them, all from this one list per command. Kept beside the command object
// (not in its help text) so nobody has to find them again in rendered prose.
import type { Command } from 'commander';

const EXAMPLES = new WeakMap<Command, readonly string[]>();

export function setExamples(cmd: Command, examples: readonly string[]): void {
  EXAMPLES.set(cmd, examples);
}

/** The command's examples, in help order; none for a group or a command that has not set them. */
export function examplesOf(cmd: Command): readonly string[] {
  return EXAMPLES.get(cmd) ?? [];
}

export function formatExamples(examples: readonly string[]): string {
  return `Examples:\n${examples.map((e) => `  ${e}`).join('\n')}`;
}
