// A run that names its command registers that command alone: its group's other sub-commands
// (and their dozens of options) are not built. Everything else sees every command.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { buildProgram, fullProgram } from '../../src/cli.js';
import { registerGroups } from '../../src/cli/groups.js';
import { createFactory } from '../../src/commands/shared/command.js';
import { createIO } from '../../src/output/iostreams.js';

function program() {
  const io = createIO({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough() }, {});
  const factory = createFactory({ io, env: {}, prompter: undefined as never, signal: new AbortController().signal }, fullProgram);
  return { program: buildProgram(io), factory };
}

const leaves = (p: Command, group: string) => p.commands.find((c) => c.name() === group)?.commands.map((c) => c.name());

describe('registering the leaf that runs', () => {
  it('orders get, products get and products list register only themselves', async () => {
    for (const [group, leaf] of [['orders', 'get'], ['orders', 'sync'], ['products', 'get'], ['products', 'list']]) {
      const { program: p, factory } = program();
      expect(await registerGroups(p, factory, [group], leaf)).toBe(true);
      expect(leaves(p, group), `${group} ${leaf}`).toEqual([leaf]);
    }
  });

  it('without a leaf, or for a leaf the group does not have, every sub-command is there to suggest from', async () => {
    const whole = program();
    await registerGroups(whole.program, whole.factory, ['orders']);
    expect(leaves(whole.program, 'orders')).toEqual(['list', 'get', 'create', 'update', 'delete', 'stats', 'trace', 'import', 'sync']);
    const typo = program();
    expect(await registerGroups(typo.program, typo.factory, ['orders'], 'gte')).toBe(false);
  });

  it('a group without sub-commands is registered whole whatever follows it', async () => {
    const { program: p, factory } = program();
    expect(await registerGroups(p, factory, ['whoami'], 'extra')).toBe(true);
    expect(p.commands.find((c) => c.name() === 'whoami')).toBeDefined();
  });
});
