// zod (the 582 KB chunk) is loaded where something is validated: a command that only reads and
// prints an answer takes no part of it, so it starts without parsing it.
// NODE_DEBUG=esm makes Node log each ES module it loads on stderr, by its file URL.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox();
const CHUNKS = join(__dirname, '../../dist/chunks');

/** The chunk that holds zod's own code (its error class), found by content: its name is a hash. */
function zodChunk(): string {
  const found = readdirSync(CHUNKS).filter((f) => f.endsWith('.js') && readFileSync(join(CHUNKS, f), 'utf8').includes('$constructor("$ZodError"'));
  expect(found).toHaveLength(1);
  return found[0];
}

describe('commands that only read load no zod', () => {
  it.each([
    [['whoami', '-o', 'json']],
    [['workspaces', 'current', '-o', 'json']],
    [['imports', 'list', '-o', 'json']],
  ])('%j', async (args) => {
    const zod = zodChunk();
    const r = await t.sctBin(args, { env: { NODE_DEBUG: 'esm' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/^ESM \d+:.*chunks\//m);
    expect(r.stderr).not.toContain(zod);
  });

  it('a command that validates still loads it (the check above can fail)', async () => {
    const zod = zodChunk();
    const r = await t.sctBin(['orders', 'update', '1', '--purchase'], { env: { NODE_DEBUG: 'esm' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(zod);
  });
});
