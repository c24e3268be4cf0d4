// A group's one-line summary is written once (src/cli/groups.ts): `sct --help`, the completion
// scripts and the manual's index all show that line, whatever its own help opens with.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { fullProgram } from '../../src/cli.js';
import { GROUPS } from '../../src/cli/groups.js';
import { completionScript } from '../../src/commands/completion.js';
import { createIO } from '../../src/output/iostreams.js';

/** As both scripts quote a word: in single quotes, a ' written as '\\''. */
const quoted = (text: string) => text.replaceAll("'", "'\\''");

const tree = () => fullProgram(createIO({ stdout: new PassThrough(), stderr: new PassThrough() }, {}));

describe('group summaries', () => {
  it('every registered group lists as its summary in the registry', async () => {
    const program = await tree();
    for (const g of GROUPS) expect(program.commands.find((c) => c.name() === g.name)?.summary(), g.name).toBe(g.summary);
  });

  it('the zsh and fish scripts describe each group by that summary, and by no other text', async () => {
    const program = await tree();
    for (const shell of ['zsh', 'fish'] as const) {
      const script = completionScript(program, shell);
      for (const g of GROUPS) {
        expect(script, `${shell}: ${g.name}`).toContain(quoted(g.summary));
        const own = program.commands.find((c) => c.name() === g.name)!.description();
        if (own !== g.summary) expect(script, `${shell}: ${g.name}'s own description`).not.toContain(quoted(own));
      }
    }
  });
});
