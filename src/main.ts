// The entry bin/sct.js loads. `--version` and help are answered here, from data, before
// commander or any command is loaded: a script that asks them pays for little more than Node.
// Everything else goes to cli.ts (built as dist/cli.cjs).
import { readFileSync } from 'node:fs';
import { VERSION } from './version.js';

/** dist/help/, written by the build from the command tree (scripts/build.mjs). */
const HELP_DIR = new URL('./help/', import.meta.url);

/** A command name: what may become a path under dist/help/. */
const WORD = /^[a-z][a-z0-9-]*$/;

export async function run(argv: string[]): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    answer(`${VERSION}\n`);
    return;
  }
  const help = prebuiltHelp(argv);
  if (help !== undefined) {
    answer(help);
    return;
  }
  // Node 22.1+ keeps V8's compiled code of sct's modules between runs (a no-op where it is
  // missing, as on Node 20): every later command starts faster.
  // This file is built as CommonJS (dist/main.cjs): require is Node's own, and loads node:module
  // only here, not for --version or help.
  (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // dist/cli.cjs, the hot path in one CommonJS file (scripts/build.mjs): required, not imported,
  // so Node never sets up its ES module loader for a command that needs nothing more.
  const { main } = require('./cli.cjs') as typeof import('./cli.js');
  await main(argv);
}

/**
 * Writes a fast-path answer. A reader that has gone (`sct --help | head -1`) ends it quietly, as
 * every command's output does; any other failure to write (a full disk) is exit 1, never 0.
 */
function answer(text: string): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    process.stderr.write(`error: writing output: ${err.message}\n`);
    process.exit(1);
  });
  process.stdout.write(text);
}

/**
 * The help text for `sct [command…] --help` (or `-h`, or `sct help`) as the build rendered it,
 * when the output is what it was rendered for: a pipe or a file, or a terminal 80 columns wide
 * (commander wraps to the terminal). Undefined otherwise, and cli.ts renders it.
 */
export function prebuiltHelp(argv: string[]): string | undefined {
  const last = argv[argv.length - 1];
  let words: string[];
  if (argv.length === 1 && argv[0] === 'help') words = [];
  else if (last === '--help' || last === '-h') words = argv.slice(0, -1);
  else return undefined;
  if (!words.every((w) => WORD.test(w))) return undefined;
  if (process.stdout.isTTY && process.stdout.columns !== 80) return undefined;
  try {
    return readFileSync(new URL(`${[...words, 'index'].join('/')}.txt`, HELP_DIR), 'utf8');
  } catch {
    return undefined;
  }
}
