// What a command prints, read from its definition in the command tree (commands/shared/output-facts.ts).
import type { Command } from 'commander';
import { fullProgram } from '../../src/cli.js';
import { printedBy } from '../../src/commands/shared/output-facts.js';
import { csvColumnsOf } from '../../src/output/fields.js';
import { createTestIO } from './io.js';

/** Every command of the tree by path ("orders list"), groups included. */
export async function commandsByPath(): Promise<Map<string, Command>> {
  const found = new Map<string, Command>();
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      found.set([...path, sub.name()].join(' '), sub);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(await fullProgram(createTestIO().io), []);
  return found;
}

/** The `-o csv` header of what the command at path prints, as its definition declares it. */
export async function csvColumnsOfCommand(path: string): Promise<string[] | undefined> {
  const cmd = (await commandsByPath()).get(path);
  if (!cmd) throw new Error(`no command "${path}"`);
  return csvColumnsOf(printedBy(cmd));
}
