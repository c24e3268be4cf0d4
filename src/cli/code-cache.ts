// Loads dist/cli.cjs with V8's compiled code kept between runs, as Node 22.1+ does by itself
// (module.enableCompileCache). Node 20 has no such cache: compiling the 280 KB file and the
// functions a command runs is about a third of what `sct orders get 1` spends beyond Node's own
// start-up (bench/results.md). So on Node 20 the file is compiled through vm.Script with the
// cached data of an earlier run, which V8 checks (its version, its flags, the source's length)
// and refuses when it does not fit; a refused or missing cache is written again after the run.
//
// The cache lives in the user's cache directory ($XDG_CACHE_HOME/sct, ~/.cache/sct,
// ~/Library/Caches/sct, %LOCALAPPDATA%\sct\Cache), one file per installed copy of sct and Node
// version. Compiled code runs as sct, so a file that is not the user's own, or that others may
// write, is never read. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's own.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { writeAtomically } from '../util/files.js';

export interface HotModule<T> {
  exports: T;
  /** Writes the cache when there was none or V8 refused it; never throws. */
  saveCache(): void;
}

/** The directory the code cache is kept in, or undefined where there is none to use. */
export function codeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'sct');
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'sct', 'Cache') : undefined;
  const home = homedir();
  if (!home) return undefined;
  return process.platform === 'darwin' ? join(home, 'Library', 'Caches', 'sct') : join(home, '.cache', 'sct');
}

/**
 * @public (src/main.ts requires it when a command runs, which knip does not follow)
 *
 * Requires `file` (a CommonJS file), through the code cache where Node has none of its own.
 * `build` names the file's content (a hash the build computes), so a rebuilt file never meets
 * the code of the one before it.
 */
export function requireHot<T>(file: string, build: string | undefined, env: NodeJS.ProcessEnv): HotModule<T> {
  const nodeCache = (Module as { enableCompileCache?: () => unknown }).enableCompileCache;
  const dir = codeCacheDir(env);
  if (nodeCache || dir === undefined || build === undefined) {
    nodeCache?.();
    return { exports: createRequire(file)(file) as T, saveCache: () => undefined };
  }
  // One name per copy of sct (its path), build and Node: a second installation, or the same one
  // run by another Node, keeps its own file instead of overwriting the other's at every run.
  const copy = `cli-${fnv1a(file)}-`;
  const cacheFile = join(dir, `${copy}${build}-node${process.version}-${process.arch}.v8`);
  const cachedData = readOwnFile(cacheFile);
  // The file has no import() of its own (the build sees to it): code from a cache keeps no way
  // back to Node's module loader, so chunks are imported by dist/import-chunk.cjs.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, { filename: file, cachedData });
  // Registered before it runs, as require() does: the chunks take the hot modules from this
  // very instance (require('../cli.cjs')), never from a second copy.
  const mod = new Module(file);
  mod.filename = file;
  mod.loaded = true;
  const requireFromFile = createRequire(file);
  requireFromFile.cache[file] = mod;
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, requireFromFile, mod, file, dirname(file));
  return {
    exports: mod.exports as T,
    saveCache() {
      if (cachedData !== undefined && !script.cachedDataRejected) return;
      try {
        writeCache(dir, cacheFile, copy, script.createCachedData());
      } catch {
        // A cache is only ever a help: a read-only or full disk leaves the next run as this one.
      }
    },
  };
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

/** Written whole through a new file renamed into place (two runs at once each write whole files); older builds' files of this copy go. */
function writeCache(dir: string, cacheFile: string, copy: string, data: Buffer): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeAtomically(cacheFile, data, 0o600);
  for (const name of readdirSync(dir)) {
    if (name.startsWith(copy) && name !== basename(cacheFile) && name.endsWith('.v8')) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // Another run removed it first.
      }
    }
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
