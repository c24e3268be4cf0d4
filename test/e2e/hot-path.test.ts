// The built sct runs the most used commands from one CommonJS file (dist/cli.cjs) without
// setting up Node's ES module loader; every other command requires its chunk (CommonJS too),
// which takes the shared modules from that file rather than carrying copies of its own.
// NODE_DEBUG=esm makes Node log each ES module it loads on stderr ("ESM <pid>: …").
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { removeDir, tempDir } from '../helpers/sct.js';
import { runListingRequired } from '../helpers/required.js';

const t = useSandbox();
const ESM_LOG = /^ESM \d+:/m;

describe('the hot path', () => {
  it('orders get, orders list and products list load no ES module', async () => {
    const get = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env: { NODE_DEBUG: 'esm' } });
    expect(get.exitCode, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout).id).toBe(1);
    expect(get.stderr).not.toMatch(ESM_LOG);
    for (const args of [['orders', 'list', '--buying', '-o', 'json'], ['products', 'list', '--limit', '2']]) {
      const r = await t.sctBin(args, { env: { NODE_DEBUG: 'esm' } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(0);
      expect(r.stderr, args.join(' ')).not.toMatch(ESM_LOG);
    }
  });

  it("orders get loads none of Node's modules it does not use (child_process, crypto)", async () => {
    const dir = tempDir();
    afterAll(() => removeDir(dir));
    const preload = join(dir, 'modules.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write(`\\nMODULES ${JSON.stringify(process.moduleLoadList)}\\n`));\n");
    const r = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env: { NODE_OPTIONS: `--require ${preload}` } });
    expect(r.exitCode, r.stderr).toBe(0);
    const loaded: string[] = JSON.parse(/^MODULES (.*)$/m.exec(r.stderr)![1]);
    expect(loaded).toContain('NativeModule http');
    expect(loaded).not.toContain('NativeModule child_process');
    // node:crypto costs a few ms to load; a GET needs no key and no hash.
    expect(loaded).not.toContain('NativeModule crypto');
  });

  it('a command outside it requires its chunks, still without an ES module, and works', async () => {
    for (const cache of [{}, { NODE_DISABLE_COMPILE_CACHE: '1' }]) {
      const r = await runListingRequired(t.sctBin, ['whoami', '-o', 'json'], { env: { NODE_DEBUG: 'esm', ...cache } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(ESM_LOG);
      expect(r.required.filter((f) => /[\\/]dist[\\/]chunks[\\/]whoami-\w+\.cjs$/.test(f))).toHaveLength(1);
      expect(JSON.parse(r.stdout).first_name).toBe('Amélie');
    }
  });

  it('a chunk reads the hot modules it imports from dist/cli.cjs: no chunk file is a re-export of one', async () => {
    const r = await runListingRequired(t.sctBin, ['invitations', 'list', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const chunks = r.required.filter((f) => /[\\/]dist[\\/]chunks[\\/]/.test(f));
    // Each of its own modules, and nothing of the hot file's: they were a dozen files of a few lines each.
    for (const file of chunks) {
      const sources: string[] = JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources;
      expect(sources.length, file).toBeGreaterThan(0);
      for (const source of sources) expect(source, file).not.toMatch(/sct-hot|__sct_hot__/);
    }
    expect(chunks.length).toBeLessThanOrEqual(6);
  });

  it("an error a chunk throws is one of the hot file's error classes: its own exit code, not 1", async () => {
    // orders update is in a chunk (src/commands/orders/save.ts); a UsageError of a second copy
    // of src/errors.ts would not be recognised by main() and would end as exit 1.
    const r = await t.sctBin(['orders', 'update', '1', '--purchase']);
    expect(r.stderr).toContain('nothing to update');
    expect(r.exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('a chunk that needs the whole command tree gets it (completion scripts, the manual)', async () => {
    const bash = await t.sctBin(['completion', 'bash']);
    expect(bash.exitCode, bash.stderr).toBe(0);
    expect(bash.stdout).toContain('value-chains');
    const reference = await t.sctBin(['help', 'reference']);
    expect(reference.exitCode, reference.stderr).toBe(0);
    expect(reference.stdout).toContain('sct orders sync');
  });

  it('a mistyped command of a group is still an error with the closest one suggested', async () => {
    const r = await t.sctBin(['orders', 'gte', '1']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown command 'gte'");
    expect(r.stderr).toContain('Did you mean get?');
  });
});
