// zod (its own chunk) is loaded where something is validated: a command that only reads and
// prints an answer takes no part of it, so it starts without compiling or running it.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { runListingRequired } from '../helpers/required.js';

const t = useSandbox();
const CHUNKS = join(__dirname, '../../dist/chunks');

/** The chunk that holds zod's own code (its error class), found by content: its name is a hash. */
function zodChunk(): string {
  const found = readdirSync(CHUNKS).filter((f) => f.endsWith('.cjs') && readFileSync(join(CHUNKS, f), 'utf8').includes('$constructor("$ZodError"'));
  expect(found).toHaveLength(1);
  return found[0];
}

const chunksOf = (required: string[]) => required.filter((f) => /[\\/]dist[\\/]chunks[\\/]/.test(f)).map((f) => basename(f));

describe('commands that only read load no zod', () => {
  it.each([
    [['whoami', '-o', 'json']],
    [['workspaces', 'current', '-o', 'json']],
    [['imports', 'list', '-o', 'json']],
  ])('%j', async (args) => {
    const zod = zodChunk();
    const r = await runListingRequired(t.sctBin, args);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(chunksOf(r.required).length).toBeGreaterThan(0);
    expect(chunksOf(r.required)).not.toContain(zod);
  });

  it('a command that validates still loads it (the check above can fail)', async () => {
    const zod = zodChunk();
    const r = await runListingRequired(t.sctBin, ['orders', 'update', '1', '--purchase']);
    expect(r.exitCode).toBe(2);
    expect(chunksOf(r.required)).toContain(zod);
  });
});
