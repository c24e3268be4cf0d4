// Which files a run of the built sct required: its hot file and chunks are CommonJS, loaded
// through Node's require() or sct's code cache, and both keep them in require.cache.
import { afterAll } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunOptions, RunResult } from './sct.js';
import { removeDir, tempDir } from './sct.js';

type Run = (args: string[], opts?: RunOptions) => Promise<RunResult>;

/** Runs `args` and lists the files in require.cache as the process exits (printed on stderr, then cut from it). */
export async function runListingRequired(run: Run, args: string[], opts: RunOptions = {}): Promise<RunResult & { required: string[] }> {
  const dir = tempDir();
  afterAll(() => removeDir(dir));
  const preload = join(dir, 'required.cjs');
  writeFileSync(preload, "process.on('exit', () => process.stderr.write(`\\nREQUIRED ${JSON.stringify(Object.keys(require.cache))}\\n`));\n");
  const r = await run(args, { ...opts, env: { ...opts.env, NODE_OPTIONS: `--require ${preload}` } });
  const line = /\n?REQUIRED (.*)\n$/.exec(r.stderr);
  if (!line) throw new Error(`no list of required files on stderr: ${r.stderr}`);
  return { ...r, stderr: r.stderr.slice(0, line.index), required: JSON.parse(line[1]) as string[] };
}
