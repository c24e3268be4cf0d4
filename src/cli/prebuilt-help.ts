// What the build writes from the command tree: every command's help (dist/help/) and the
// manual (docs/ and man/).
import type { Command } from 'commander';
import type { IOOptions } from '../output/iostreams.js';

/** How main() is called here: in-process, with streams of its own. */
type Run = (argv: string[], deps: { env: NodeJS.ProcessEnv; streams: Omit<IOOptions, 'noColor' | 'quiet' | 'verbose'>; signal: AbortSignal }) => Promise<number>;

/** docs/ and man/ (`npm run docs`, scripts/docs.mjs), keyed by path from the repository's root. */
export async function manualFilesOf(tree: Command): Promise<Map<string, string>> {
  const [{ renderManual }, { TOPICS }] = await Promise.all([import('../help/manual.js'), import('../help/topics.js')]);
  return renderManual(tree, TOPICS);
}

/**
 * Every command of tree's help as a pipe gets it (80 columns), keyed by command path ('' for sct
 * itself), each rendered by run (main()) exactly as `sct … --help` renders it: the build writes
 * them to dist/help/ for the start-up path (main.ts) to print without loading the tree.
 */
export async function helpTextsOf(tree: Command, run: Run): Promise<Map<string, string>> {
  const { Writable, PassThrough } = await import('node:stream');
  const paths: string[][] = [[]];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      if (sub.name() === 'help') continue;
      paths.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(tree, []);
  const texts = new Map<string, string>();
  for (const path of paths) {
    let out = '';
    const stdout = new Writable({
      write(chunk, _enc, cb) {
        out += String(chunk);
        cb();
      },
    });
    const code = await run([...path, '--help'], {
      env: {},
      streams: { stdout, stderr: new PassThrough(), stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
      signal: new AbortController().signal,
    });
    if (code !== 0) throw new Error(`sct ${path.join(' ')} --help exited ${code}`);
    texts.set(path.join(' '), out);
  }
  return texts;
}
