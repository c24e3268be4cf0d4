// The entry bin/sct.js loads. `--version` and help are answered here, from data, before
// commander or any command is loaded: a script that asks them pays for little more than Node.
// Everything else goes to cli.ts (built as dist/cli.cjs).
import { existsSync, fstatSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from './version.js';

// Replaced at build time with a hash of dist/cli.cjs (scripts/build.mjs).
declare const SCT_HOT_BUILD: string | undefined;
const HOT_BUILD = typeof SCT_HOT_BUILD !== 'undefined' ? SCT_HOT_BUILD : undefined;

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
  // dist/cli.cjs, the hot path in one CommonJS file (scripts/build.mjs): required, not imported,
  // so Node never sets up its ES module loader for a command that needs nothing more; and with
  // V8's compiled code kept from an earlier run (src/cli/code-cache.ts).
  // Required here, not imported at the top: --version and help never load what it needs.
  // The connection of the command's first request is opened before sct's code loads, and let
  // out (a turn of the event loop: Node connects on its next tick) before that load begins.
  // FORCE_COLOR that forces beside NO_COLOR: sct's rule (src/output/iostreams.ts) has colour on,
  // and Node would say so in a warning of its own the first time a prompt asks a terminal for
  // its colours, in the middle of the question.
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force.toLowerCase() !== 'false') delete process.env.NO_COLOR;
  const { connectEarly } = require('./cli/early-connection.js') as typeof import('./cli/early-connection.js');
  const early = connectEarly(argv, process.env);
  if (early) await null;
  const { requireHot } = require('./cli/code-cache.js') as typeof import('./cli/code-cache.js');
  // Not for `sct sandbox`: a server that builds its demo data once, and whose build spends about
  // 10% more time collecting garbage when sct's file was compiled through vm.Script (measured
  // in docs/decisions/startup.md) than a code cache saves it.
  const server = argv.find((a) => !a.startsWith('-')) === 'sandbox';
  const hotFile = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  let hot;
  try {
    hot = requireHot<typeof import('./cli.js')>(hotFile, server ? undefined : HOT_BUILD, process.env, argv);
  } catch (err) {
    // A build cut short (main.cjs written, cli.cjs not): said in one line, as bin/sct.js says none.
    if (existsSync(hotFile)) throw err;
    early?.close();
    process.stderr.write(`error: sct is not built completely (${hotFile} is missing): run \`npm run build\` in ${dirname(dirname(hotFile))}\n`);
    process.exitCode = 1;
    return;
  }
  const code = await hot.exports.main(argv, { clientOptions: { early } });
  hot.saveCache(code);
}

/**
 * Writes a fast-path answer to descriptor 1 itself: process.stdout is not made for it (into a pipe
 * it is a socket, whose modules cost more to load than the rest of the answer). A reader that has
 * gone (`sct --help | head -1`) ends it quietly, as every command's output does; any other failure
 * to write (a full disk) is exit 1, never 0.
 */
function answer(text: string): void {
  const bytes = Buffer.from(text);
  try {
    for (let at = 0; at < bytes.length; ) {
      try {
        at += writeSync(1, bytes, at);
      } catch (err) {
        // A pipe its reader left non-blocking, full for now: wait a moment for room.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
    process.stderr.write(`error: writing output: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}

/**
 * The help text for `sct [command…] --help` (or `-h`, or `sct help`) as the build rendered it,
 * when the output is what it was rendered for: a pipe or a file, or a terminal 80 columns wide
 * (commander wraps to the terminal). Undefined otherwise, and cli.ts renders it.
 */
export function prebuiltHelp(argv: string[]): string | undefined {
  const last = argv[argv.length - 1];
  let words: string[];
  // `sct` alone is `sct --help`, on stdout, as gh's.
  if (argv.length === 0 || (argv.length === 1 && argv[0] === 'help')) words = [];
  // `sct help orders list`; `sct help orders` stays cli.ts's, which tells topics from groups.
  else if (argv[0] === 'help' && argv.length > 2) words = argv.slice(1);
  else if (last === '--help' || last === '-h') words = argv.slice(0, -1);
  else return undefined;
  if (!words.every((w) => WORD.test(w))) return undefined;
  if (stdoutIsTerminal() && process.stdout.columns !== 80) return undefined;
  try {
    return readFileSync(new URL(`${[...words, 'index'].join('/')}.txt`, HELP_DIR), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Whether stdout is a terminal, asked without making process.stdout (nor loading node:tty) for a
 * pipe, a file or /dev/null: a terminal is a character device, and only then is the stream asked.
 * /dev/null (`sct --help > /dev/null` in a script) is a character device too, and no terminal.
 */
function stdoutIsTerminal(): boolean {
  let out;
  try {
    out = fstatSync(1);
  } catch {
    return false;
  }
  if (!out.isCharacterDevice()) return false;
  if (process.platform !== 'win32' && out.rdev === statSync('/dev/null', { throwIfNoEntry: false })?.rdev) return false;
  return process.stdout.isTTY === true;
}
