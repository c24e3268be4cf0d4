// The word after a flag that takes a value is that value, also after a hidden spelling of the
// flag (`dds create --orders 6`, `origins list --country CI`): the scripts skip it rather than
// count it as an argument.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { fullProgram } from '../../src/cli.js';
import { completionScript } from '../../src/commands/completion.js';
import { createIO } from '../../src/output/iostreams.js';

describe('completion scripts', () => {
  it('know the hidden aliases that take a value', async () => {
    const program = await fullProgram(createIO({ stdout: new PassThrough(), stderr: new PassThrough() }, {}));
    for (const shell of ['bash', 'zsh'] as const) {
      const list = /case " ([^"]*) " in/.exec(completionScript(program, shell))![1].split(' ');
      expect(list, shell).toEqual(expect.arrayContaining(['--order', '--orders', '--country-code', '--country']));
    }
    const fish = /set -g __sct_value_flags (.*)/.exec(completionScript(program, 'fish'))![1];
    for (const flag of ['--orders', '--country']) expect(fish).toContain(`'${flag}'`);
  });
});
