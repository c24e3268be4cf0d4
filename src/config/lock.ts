// Exclusive locks between sct processes, as lock files: the config file's writers and a bulk
// run's journal each take one, so two processes never interleave their read-modify-write.
//
// A lock file is created with O_EXCL (which never follows a symlink: a planted link is simply
// "already there") and holds who took it: the pid and, where the system tells, when that process
// started. A holder that died (kill -9, a crash, a power cut) leaves its file behind; the next
// process sees the holder is gone and takes the lock over. A pid alone does not say the holder
// is gone: after a reboot or a container restart the same pid is handed to another process, so
// a holder is alive only if the process with its pid started when the holder did.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InterruptedError, SctError } from '../errors.js';
import { formatDuration } from '../util/format.js';
import { isAlive } from '../util/process.js';
import { fileErrorText, unlinkQuietly } from '../util/files.js';

/** Holder of a lock, as written in the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  since: string /* ISO */;
  /** Which process had the pid (processStart); absent where the system does not say. */
  start?: string;
}

/** A lock file that does not (yet) say who holds it is only given up on after this long. */
const UNREADABLE_STALE_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Lock files are a few dozen bytes; anything longer is not one of ours. */
const MAX_LOCK_BYTES = 4096;
const MAX_ATTEMPTS = 5;

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
// O_NOFOLLOW does not exist on Windows; there the read of a planted link is merely pointless.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** Locks this process holds, by absolute path: released on exit when the code holding them did not. */
const held = new Map<string, LockHolder>();
let exitHookInstalled = false;

/**
 * Tries once to take an exclusive lock at `path` (created with O_EXCL, mode 0600, holding JSON
 * LockHolder). A lock whose holder process is dead (same host, process.kill(pid,0) → ESRCH), or
 * whose file is unreadable/garbage and older than 10 s, is stale: it is removed and taking it is
 * tried again. Returns a release function, or the live holder when someone else has it.
 *
 * A holder read from a file that does not say who holds it (being written right now, or
 * garbage younger than 10 s) is reported with pid 0 and host "unknown".
 */
export function tryLock(path: string): { release: () => void } | { holder: LockHolder } {
  const file = resolve(path);
  // Each pass takes the lock, reports a live holder, or finds the file gone or stale (others are
  // taking it at the same moment): then the next pass settles who won. Only a storm of such
  // races gives up, reporting the lock as held: withLock simply tries again.
  for (let attempt = 0; ; attempt++) {
    const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), start: processStart(process.pid) };
    if (create(file, me)) {
      held.set(file, me);
      installExitHook();
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          release(file, me);
        },
      };
    }
    const seen = readLock(file);
    if (seen === 'gone') {
      if (attempt >= MAX_ATTEMPTS) return { holder: unknownHolder(Date.now()) };
      continue;
    }
    if (!isStale(file, seen) || attempt >= MAX_ATTEMPTS) return { holder: seen.holder ?? unknownHolder(seen.mtimeMs) };
    removeStale(file, seen);
  }
}

/**
 * Waits (polling with small jittered sleeps, up to timeoutMs, default 10 s) for the lock, runs fn,
 * releases even when fn throws. On timeout throws an SctError (exit 1) naming the lock file and
 * its holder pid. The wait gives way to the event loop, so `signal` (the run's Ctrl-C, SIGTERM)
 * ends it at once with an InterruptedError; fn itself runs without a pause, holding the lock.
 */
export async function withLock<T>(path: string, fn: () => T | Promise<T>, o: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let pause = 2;
  for (;;) {
    if (o.signal?.aborted) throw new InterruptedError();
    const got = tryLock(path);
    if ('release' in got) {
      // A synchronous fn gives the lock back before withLock returns (the config store's writes
      // count on it); an async one when it has settled.
      let result: T | Promise<T>;
      try {
        result = fn();
      } catch (err) {
        got.release();
        throw err;
      }
      if (!(result instanceof Promise)) {
        got.release();
        return result;
      }
      try {
        return await result;
      } finally {
        got.release();
      }
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      const h = got.holder;
      const who = h.pid ? `pid ${h.pid} on ${h.host}, since ${h.since}` : `a process that has not said who it is, since ${h.since}`;
      const err = new SctError(`timed out after ${formatDuration(timeoutMs)} waiting for the lock ${resolve(path)}, held by ${who}`);
      err.hint = `if that process is not an sct still running, remove ${resolve(path)}`;
      throw err;
    }
    // Jitter keeps processes that started together from polling in lockstep.
    await sleep(Math.min(left, pause + Math.random() * pause), undefined, { signal: o.signal }).catch(() => {
      throw new InterruptedError();
    });
    pause = Math.min(pause * 2, 50);
  }
}

/**
 * Runs fn holding the lock of one object of the service that a command reads and then writes
 * whole (an order's item list): two sct processes of this user, a script's loop run in the
 * background for one, never interleave their read and their write of it, and neither loses the
 * other's change. The API has no precondition for a write, so across machines the last writer
 * still wins. Where the config directory cannot be written, fn runs without the lock: as where
 * `locks/` cannot be made, so where it is there but sct may not write in it (a CI cache restored
 * read-only). A bulk run's journal lock (withLock) stays strict: it alone keeps two runs of one
 * file from sending its rows twice.
 */
export async function withObjectLock<T>(configDir: string, object: readonly string[], fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const dir = join(configDir, 'locks');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return fn();
  }
  // node:crypto loads with the first lock of an object: the hot path of every command has this file.
  const { createHash } = await import('node:crypto');
  const name = createHash('sha256').update(object.join('\u0000')).digest('hex').slice(0, 20);
  let ran = false;
  try {
    return await withLock(
      join(dir, `${name}.lock`),
      () => {
        ran = true;
        return fn();
      },
      { timeoutMs: OBJECT_LOCK_TIMEOUT_MS, signal },
    );
  } catch (err) {
    // fn's own failure is its own; only a lock file that could not be written lets fn run unlocked.
    if (ran || !(err instanceof SctError) || !UNWRITABLE.has((err.cause as NodeJS.ErrnoException | undefined)?.code ?? '')) throw err;
    return fn();
  }
}

/** Why a lock file cannot be created that no wait mends: sct may not write there, or nothing can. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT']);

/** A read and a write of one object, retried through 503s and 429s, finish well within this. */
const OBJECT_LOCK_TIMEOUT_MS = 5 * 60_000;

function create(file: string, me: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(file, CREATE_FLAGS, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw lockError(file, err);
  }
  try {
    writeSync(fd, JSON.stringify(me));
  } catch (err) {
    closeSync(fd);
    unlinkQuietly(file);
    throw lockError(file, err);
  }
  closeSync(fd);
  return true;
}

interface Seen {
  /** Null when the file does not say who holds it. */
  holder: LockHolder | null;
  /** What the file held and which file it was: a stale lock is removed only if it is still this one. */
  fingerprint: string;
  mtimeMs: number;
}

function readLock(file: string): Seen | 'gone' {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'gone';
    // A symlink (ELOOP) or a file we may not read: it says nothing about who holds it.
    const st = lstatQuietly(file);
    if (!st) return 'gone';
    return { holder: null, fingerprint: `${st.ino}:${st.mtimeMs}:?`, mtimeMs: st.mtimeMs };
  }
  try {
    const st = fstatSync(fd);
    let text = '?';
    try {
      const buf = Buffer.alloc(MAX_LOCK_BYTES);
      text = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } catch {
      // A directory where the lock file should be: it says nothing about who holds it.
    }
    return { holder: parseHolder(text), fingerprint: `${st.ino}:${st.mtimeMs}:${text}`, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

function parseHolder(text: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pid, host, since, start } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0 || typeof host !== 'string' || typeof since !== 'string') return null;
  return { pid: pid as number, host, since, start: typeof start === 'string' ? start : undefined };
}

function isStale(file: string, seen: Seen): boolean {
  const h = seen.holder;
  if (!h) return Date.now() - seen.mtimeMs > UNREADABLE_STALE_MS;
  // A process on another machine (a home directory on NFS) cannot be asked whether it lives.
  if (h.host !== hostname()) return false;
  if (h.pid === process.pid) {
    // Our own pid in a lock we did not take here is a previous process's: pids restart from 1
    // in every container, so a leftover lock can name the pid we now have.
    const ours = held.get(file);
    return !ours || ours.since !== h.since;
  }
  if (!isAlive(h.pid)) return true;
  // The pid is taken; by the holder only if that process started when the holder did. A lock
  // that does not say (written where the system does not tell, or by an earlier sct) is judged
  // by its pid alone.
  const now = h.start === undefined ? undefined : processStart(h.pid);
  return now !== undefined && now !== h.start;
}

let bootId: string | undefined;

/**
 * Which process has this pid, as "boot id:start time" (Linux: the kernel's boot id and field 22
 * of /proc/PID/stat, the start in clock ticks since boot): the same pid in another boot, or
 * started later in the same boot, reads differently. Undefined where there is no /proc (macOS,
 * Windows) or the process cannot be read.
 */
export function processStart(pid: number): string | undefined {
  let stat: string;
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2, the command name, is in parentheses and may hold spaces and parentheses itself:
  // the fields after it start at field 3.
  const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
  return ticks && /^\d+$/.test(ticks) ? `${bootId}:${ticks}` : undefined;
}

/**
 * Two processes that both saw the same stale lock must not both remove "it": the second would
 * remove the lock the first has just taken. Removal happens under a second, short-lived lock,
 * and only if the file is still the one found stale.
 */
function removeStale(file: string, seen: Seen): void {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, CREATE_FLAGS, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(guard, err);
    // Held for microseconds; one this old was left by a process that died holding it.
    const st = lstatQuietly(guard);
    if (st && Date.now() - st.mtimeMs > UNREADABLE_STALE_MS) unlinkQuietly(guard);
    return;
  }
  try {
    const now = readLock(file);
    if (now !== 'gone' && now.fingerprint === seen.fingerprint) unlinkQuietly(file);
  } finally {
    closeSync(fd);
    unlinkQuietly(guard);
  }
}

function release(file: string, me: LockHolder): void {
  if (held.get(file) === me) held.delete(file);
  // Only our own lock is removed: had ours been taken over as stale (it cannot while we live,
  // but a clock or pid mix-up is not worth losing someone else's lock over), the file is theirs.
  const now = readLock(file);
  if (now === 'gone' || !now.holder) return;
  if (now.holder.pid === me.pid && now.holder.since === me.since && now.holder.host === me.host) unlinkQuietly(file);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Best effort: an exit (an uncaught error, process.exit after a second Ctrl-C) with a lock still
  // held would otherwise leave it for the next run to find stale.
  process.on('exit', () => {
    for (const [file, me] of [...held]) {
      try {
        release(file, me);
      } catch {
        // Nothing can be reported any more; the next run will find the lock stale.
      }
    }
  });
}

function unknownHolder(mtimeMs: number): LockHolder {
  return { pid: 0, host: 'unknown', since: new Date(mtimeMs).toISOString() };
}

function lockError(file: string, cause: unknown): SctError {
  const e = new SctError(`cannot create the lock file ${file}: ${fileErrorText(cause)}`, { cause });
  const dir = dirname(file);
  // What to do follows why (a CI job's read-only home, a directory of another user's).
  switch ((cause as NodeJS.ErrnoException).code) {
    case 'EACCES':
    case 'EPERM':
      e.hint = `sct may not write in ${dir}: give it permission, or set SCT_CONFIG_DIR to a directory you can write`;
      break;
    case 'EROFS':
      e.hint = `${dir} is on a read-only file system: set SCT_CONFIG_DIR to a directory on one that is not`;
      break;
    case 'ENOSPC':
    case 'EDQUOT':
      e.hint = `make room where sct keeps its configuration (${dir}), or set SCT_CONFIG_DIR elsewhere`;
      break;
  }
  return e;
}

function lstatQuietly(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

