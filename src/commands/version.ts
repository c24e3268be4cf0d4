// sct version: sct's version, Node's and the platform (for bug reports), as `gh version` does.
import type { Command } from 'commander';
import { addExamples, type Factory } from './shared/command.js';
import { VERSION } from '../version.js';

export function versionLine(): string {
  return `sct ${VERSION} (node ${process.versions.node}; ${process.platform} ${process.arch})`;
}

export function register(program: Command, f: Factory): void {
  addExamples(
    program
    .command('version')
    .description("Print sct's version, Node's and the platform"),
    ['sct version', 'sct version --json'],
  ).action(
      f.action(async (ctx) => {
        if (ctx.format() === 'json') {
          await ctx.io.write(JSON.stringify({ version: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch }, null, 2) + '\n');
        } else await ctx.io.write(versionLine() + '\n');
      }),
    );
}
