// Which command a run names, read before commander parses anything: the value of a global option
// that takes one is never the command, whatever it spells (the options say which take a value).
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { commandWord } from '../../src/cli/argv.js';
import { globalValueFlags } from '../../src/cli/global-options.js';
import { createTestIO } from '../helpers/io.js';

const program = buildProgram(createTestIO().io);

describe('commandWord', () => {
  it('skips the value of every global option that takes one, and only those', () => {
    expect([...globalValueFlags(program)].sort()).toEqual(['--base-url', '--columns', '--jq', '--max-wait', '--output', '--profile', '--timeout', '-o'].sort());
    expect(commandWord(program, ['--profile', 'orders', 'products', 'list'])).toBe('products');
    expect(commandWord(program, ['-o', 'json', '--timeout', '30', 'orders', 'get', '1'])).toBe('orders');
    expect(commandWord(program, ['-q', '--bom', 'orders', 'list'])).toBe('orders');
    expect(commandWord(program, ['--json', 'id,name', 'products', 'list'])).toBe('products');
    expect(commandWord(program, ['--json', 'orders', 'list'])).toBe('orders');
    expect(commandWord(program, ['--', 'orders'])).toBeUndefined();
  });
});
