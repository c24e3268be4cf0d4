// sct version: sct's version, Node's and the platform (for bug reports), as `gh version` does.
import { defineLeaf, registerOf } from './shared/spec.js';
import { VERSION } from '../version.js';
import { writeOne } from '../output/format.js';

export function versionLine(): string {
  return `sct ${VERSION} (node ${process.versions.node}; ${process.platform} ${process.arch})`;
}

export const register = registerOf(defineLeaf({
  name: 'version',
  summary: "Print sct's version, Node's and the platform",
  prints: 'version',
  examples: ['sct version', 'sct version --json'],
  run: async (ctx) => {
    const output = ctx.output([]);
    // The one line people read and paste into bug reports; any flag that asks for fields
    // (-o, --json, --columns, --jq) gets the object through the output path.
    if (output.format === 'table' && !output.columns && output.jq === undefined) return ctx.io.write(versionLine() + '\n');
    await writeOne(ctx.io, { version: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch }, output);
  },
}));
