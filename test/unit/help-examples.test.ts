// Every leaf command's help ends with real examples, and the commands that read a file list its
// columns: the whole command tree is walked, so a new command without examples fails here.
import { describe, it, expect, beforeAll } from 'vitest';
import type { Command } from 'commander';
import { fullProgram } from '../../src/cli.js';
import { createTestIO } from '../helpers/io.js';
import { examplesOf, formatExamples } from '../../src/help/examples.js';

function helpOf(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (out += s) });
  cmd.outputHelp();
  return out;
}

function leaves(cmd: Command, path: string[] = []): Array<{ path: string; cmd: Command }> {
  if (cmd.commands.length === 0) return [{ path: path.join(' '), cmd }];
  return cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}

let tree: Array<{ path: string; cmd: Command }>;
beforeAll(async () => {
  const program = await fullProgram(createTestIO().io);
  tree = leaves(program).filter((l) => l.path !== 'help');
});

describe('help examples', () => {
  it('walks the whole tree', () => {
    expect(tree.length).toBeGreaterThan(70);
  });

  it('ends every leaf command help with an Examples: block of sct command lines', () => {
    const missing: string[] = [];
    for (const { path, cmd } of tree) {
      const help = helpOf(cmd).trimEnd();
      const at = help.lastIndexOf('\nExamples:\n');
      const block = at < 0 ? [] : help.slice(at + '\nExamples:\n'.length).split('\n');
      // Nothing after the block but its example lines, and at least one is this command's own.
      const ok = block.length > 0 && block.every((l) => /^ {2}\S/.test(l)) && block.some((l) => l.startsWith(`  sct ${path}`) || l.includes(`&& sct ${path}`));
      if (!ok) missing.push(path);
    }
    expect(missing).toEqual([]);
  });

  it('renders the examples from the command\'s data, the list the manual and the examples test read', () => {
    const differ = tree.filter(({ cmd }) => !helpOf(cmd).trimEnd().endsWith(`\n${formatExamples(examplesOf(cmd))}`) || examplesOf(cmd).length === 0);
    expect(differ.map((l) => l.path)).toEqual([]);
  });
});

const FILE_COLUMNS: Record<string, string[]> = {
  'orders import': ['external_id', 'order_created_at', 'buyer_external_id', 'product', 'volume', 'line_number'],
  'orders sync': ['external_id', 'order_created_at', 'buyer_external_id', 'product', 'volume', 'line_number'],
  'origins import': ['name', 'country_code', 'external_id', 'latitude', 'longitude', 'location'],
  'origins sync': ['name', 'country_code', 'external_id', 'latitude', 'longitude', 'location'],
  'invitations bulk-create': ['email', 'auth_group'],
  'dds trace': ['dds_id', 'order_id'],
  'info-requests send': ['order_id', 'value_chain_id'],
};

describe('file-reading commands list their columns', () => {
  for (const [path, columns] of Object.entries(FILE_COLUMNS)) {
    it(path, () => {
      const help = helpOf(tree.find((l) => l.path === path)!.cmd);
      // In the help text after the options, under a Columns heading.
      const text = help.slice(help.search(/^Columns\b/m));
      expect(text).toMatch(/Columns/);
      for (const c of columns) expect(text).toMatch(new RegExp(`\\b${c}\\b`));
    });
  }
});
