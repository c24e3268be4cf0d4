// Loads dist/cli.cjs with V8's compiled code kept between runs. Compiling the 280 KB file and
// the functions a command runs is about a third of what `sct orders get 1` spends beyond Node's
// own start-up (bench/results.md). So the file is compiled through vm.Script with the cached data
// of an earlier run, which V8 checks (its version, its flags, the source's length) and refuses
// when it does not fit; a refused or missing cache is written again after the run. On Node 22+
// too, rather than Node's own module.enableCompileCache: Node writes a file's cache as it is
// compiled, before it runs, so every function a command calls is compiled again at each start
// (Node 22.23, `orders get 1`: 53.5 ms with Node's cache, 48.5 ms with this one; `dds list` 79.2
// against 66.7 ms).
//
// The chunks dist/cli.cjs requires (dist/chunks/*.cjs) are loaded the same way, each with its
// own cached code: a command outside the hot file (dds, invitations, a bulk run) compiled them
// all at every start before.
//
// The cache lives in the user's cache directory ($XDG_CACHE_HOME/sct, ~/.cache/sct,
// ~/Library/Caches/sct, %LOCALAPPDATA%\sct\Cache), one file per installed copy of sct, build,
// command, Node version and file. Per command, because a cache holds the functions the run that
// wrote it compiled: one shared by every command keeps what the first run after an install
// happened to run (a mistyped command compiles no client), and every other command compiles the
// rest at each start (about 3 ms of `orders get 1`, bench/results.md). Compiled code runs as
// sct, so a file that is not the user's own, or that others may write, is never read.
//
// A run that fails (a usage error, a --jq expression that does not parse, a 404) compiled the
// error's path, not the command's, and so did one that printed the command's help (at a terminal
// wider or narrower than 80 columns help is made by cli.cjs): its cache is written as partial
// (`….partial.v8`), read until the command's first run that does its work writes its own. Kept as the command's cache, every later
// run compiled the rest of its path at each start (a --jq run that could not start jq left 169
// KB: `orders get 1` took 134 ms against 105 with an ordinary run's 445 KB).
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it turns off Node's own.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Script } from 'node:vm';
import { writeAtomically } from '../util/files.js';
import { homeDir, xdgDir } from '../config/paths.js';
import { GLOBAL_VALUE_FLAGS } from '../global-flags.js';

interface HotModule<T> {
  exports: T;
  /** Writes the cache when there was none, V8 refused it, or a failed run's is replaced by a succeeding one's; never throws. */
  saveCache(exitCode: number): void;
}

/** The directory the code cache is kept in, or undefined where there is none to use. */
function codeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const xdg = xdgDir(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, 'sct');
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'sct', 'Cache') : undefined;
  let home;
  try {
    home = homeDir();
  } catch {
    return undefined;
  }
  return process.platform === 'darwin' ? join(home, 'Library', 'Caches', 'sct') : join(home, '.cache', 'sct');
}

/**
 * @public (src/main.ts requires it when a command runs, which knip does not follow)
 *
 * Requires `file` (a CommonJS file), through the code cache (plain require() without one); so
 * are the chunks it requires (the .cjs files under its directory), each with its own cached code.
 * `build` names the files' content (a hash the build computes), so a rebuilt file never meets
 * the code of the one before it.
 */
export function requireHot<T>(file: string, build: string | undefined, env: NodeJS.ProcessEnv, argv: readonly string[] = []): HotModule<T> {
  const dir = codeCacheDir(env);
  if (dir === undefined || build === undefined) return { exports: createRequire(file)(file) as T, saveCache: () => undefined };
  const loader = new CachedLoader(dirname(file), dir, fnv1a(file), build, commandKey(argv));
  const help = argv[0] === 'help' || argv.includes('--help') || argv.includes('-h');
  return { exports: loader.load(file) as T, saveCache: (exitCode) => loader.save(exitCode === 0 && !help) };
}

interface Compiled {
  script: Script;
  /** Where its code came from: a succeeding run's file, a failed run's, or none (missing or refused by V8). */
  from: 'full' | 'partial' | 'none';
  /** A full file was there and V8 refused it. */
  refusedFull?: boolean;
}

/**
 * Compiles and runs the CommonJS files under one directory (dist/) as Node's require() would,
 * but through vm.Script with V8's cached data; a file they require from outside it goes to
 * Node's own require().
 */
class CachedLoader {
  private readonly compiled = new Map<string, Compiled>();
  /** This copy's files of this build, whatever the Node. */
  private readonly ofBuild: string;
  /** This copy's cache files: one name per copy of sct (its path), build and Node, then the file. */
  private readonly prefix: string;

  constructor(
    private readonly root: string,
    private readonly dir: string,
    /** A second installation, or the same one run by another Node, keeps files of its own. */
    private readonly copy: string,
    build: string,
    command: string,
  ) {
    this.ofBuild = `${copy}-${build}-`;
    this.prefix = `${this.ofBuild}${command}-node${process.version}-${process.arch}-`;
  }

  load(file: string): unknown {
    const requireNative = createRequire(file);
    // Registered before it runs, as require() does: a chunk requiring the hot file, or a cycle
    // of chunks, gets this very instance, never a second copy.
    const known = requireNative.cache[file];
    if (known) return known.exports;
    // A partial file is looked for only where there is no full one: a second compilation to try
    // it after V8 refused the full one would cost more than the cache saves.
    const full = readOwnFile(this.cacheFileOf(file, 'full'));
    const cachedData = full ?? readOwnFile(this.cacheFileOf(file, 'partial'));
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, { filename: file, cachedData });
    const from = cachedData === undefined || script.cachedDataRejected ? 'none' : full ? 'full' : 'partial';
    this.compiled.set(file, { script, from, refusedFull: full !== undefined && script.cachedDataRejected });
    const mod = new Module(file);
    mod.filename = file;
    requireNative.cache[file] = mod;
    try {
      (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, this.requireFrom(file, requireNative), mod, file, dirname(file));
    } catch (err) {
      delete requireNative.cache[file];
      throw err;
    }
    mod.loaded = true;
    return mod.exports;
  }

  /** What `require` is inside `file`: this loader for the .cjs files beside and below the root, Node's for the rest. */
  private requireFrom(file: string, requireNative: NodeJS.Require): NodeJS.Require {
    const here = dirname(file);
    const own = (id: string): unknown => {
      if (id.startsWith('./') || id.startsWith('../')) {
        const target = resolve(here, id);
        if (target.endsWith('.cjs') && target.startsWith(this.root + sep)) return this.load(target);
      }
      return requireNative(id);
    };
    return Object.assign(own, { resolve: requireNative.resolve, cache: requireNative.cache, main: requireNative.main, extensions: requireNative.extensions }) as NodeJS.Require;
  }

  private cacheFileOf(file: string, kind: 'full' | 'partial'): string {
    return join(this.dir, this.prefix + relative(this.root, file).replaceAll(sep, '_') + (kind === 'full' ? '.v8' : '.partial.v8'));
  }

  /**
   * A run that did the command's work (`ownPath`: exit 0, no help asked) writes the code of every
   * file that had no full cache, and removes a partial one it replaces; any other run, of every
   * file that had none at all, as partial, and removes a full one V8 refused (it would be read
   * first, and refused again). Never throws.
   */
  save(ownPath: boolean): void {
    const kind = ownPath ? 'full' : 'partial';
    const fresh = [...this.compiled].filter(([, c]) => (ownPath ? c.from !== 'full' : c.from === 'none'));
    if (fresh.length === 0) return;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      for (const [file, c] of fresh) {
        // Not flushed: after a power cut a torn file is refused by V8's own check and written again.
        writeAtomically(this.cacheFileOf(file, kind), c.script.createCachedData(), 0o600, { flush: false });
        // Only the full file V8 refused: one a run beside this one wrote meanwhile is kept.
        if (ownPath) removeFile(this.cacheFileOf(file, 'partial'));
        else if (c.refusedFull) removeFile(this.cacheFileOf(file, 'full'));
        c.from = kind;
      }
      this.forgetOtherBuilds();
    } catch {
      // A cache is only ever a help: a read-only or full disk leaves the next run as this one.
    }
  }

  /**
   * This copy's files of other builds go (and those of the one-file cache before this one:
   * cli-<copy>-…); and any other file none of whose runs has written for a month: another copy's
   * (a copy deleted, or a version npx kept in a directory of its own and no longer runs), or this
   * build's under a Node no longer run (an upgrade that keeps sct). A copy or Node in use whose
   * files are that old writes them again on its next run; this run's own are kept.
   */
  private forgetOtherBuilds(): void {
    const longAgo = Date.now() - STALE_COPY_MS;
    const thisNode = `-node${process.version}-${process.arch}-`;
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.v8')) continue;
      const ours = name.startsWith(`${this.copy}-`) || name.startsWith(`cli-${this.copy}-`);
      // This build's files under this Node are read and never written again: their age says
      // nothing of their use.
      if (ours && name.startsWith(this.ofBuild) && name.includes(thisNode)) continue;
      const other = (ours && !name.startsWith(this.ofBuild)) || writtenBefore(join(this.dir, name), longAgo);
      if (other) removeFile(join(this.dir, name));
    }
  }
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Not there, or another run removed it first.
  }
}

/**
 * The command a run's cache files are named for: its first two words (`orders-get`, `whoami`),
 * or `sct`. Ids, paths and values with a dot or a digit first are no words, and a word after a
 * global option that takes a value is that value (`--profile ci`; `--json id`, whose value is
 * optional), so `orders get 17 -o json`, `-q orders get 18` and `orders get 19` share their
 * files. Only a name: a word taken wrongly costs a file, never a wrong answer.
 */
function commandKey(argv: readonly string[]): string {
  const valueOf = (flag: string | undefined) => flag !== undefined && (GLOBAL_VALUE_FLAGS.has(flag) || flag === '--json');
  const words = argv.filter((a, i) => /^[a-z][a-z-]{0,30}$/.test(a) && !valueOf(argv[i - 1]));
  return words.slice(0, 2).join('-') || 'sct';
}

/** How long another copy's cache files are kept without a write (see forgetOtherBuilds). */
const STALE_COPY_MS = 30 * 24 * 3600_000;

function writtenBefore(file: string, time: number): boolean {
  try {
    return lstatSync(file).mtimeMs < time;
  } catch {
    return false;
  }
}

/** The file's bytes when it is a regular file of this user's that nobody else may write. */
function readOwnFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (process.platform !== 'win32' && (st.mode & 0o022) !== 0)) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** FNV-1a, 32 bits, as hex: a short, stable name for a path (not a secret, not a check). */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
