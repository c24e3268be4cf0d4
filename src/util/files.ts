// Reading a file named on the command line (or stdin for "-"), and writing a file whole through
// a new temporary file renamed into place: one way each, shared by every command.
import { closeSync, constants, copyFileSync, existsSync, fchmodSync, fchownSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readdirSync, readlinkSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { InterruptedError, SctError, UsageError } from '../errors.js';
import { formatBytes, isStringTooLong, stringLimit } from './format.js';
import { isAlive } from './process.js';

/** How messages name an input: "stdin" for "-", else the path as given. */
export function inputName(file: string): string {
  return file === '-' ? 'stdin' : file;
}

/** How a file's rows are named in messages and reports: "stdin" for "-", else its base name. */
export function fileLabel(file: string): string {
  return file === '-' ? 'stdin' : basename(file);
}

async function readStream(stream: Readable | NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks);
}

/** How an input is read: `what` it is for ("-F"), and the run's signal (Ctrl-C). */
export interface ReadOptions {
  what?: string;
  signal?: AbortSignal;
}

/**
 * The first bytes of a regular file, to look at before it is read; undefined for a FIFO or a
 * device (read once, by the reading: looked at first, it would have nothing left for it, which
 * would then wait for a writer that has gone) and for a file that cannot be read (the reading
 * says why).
 */
export async function regularFileHead(file: string, length = 1024): Promise<Buffer | undefined> {
  const { open, stat } = await import('node:fs/promises');
  if (!(await stat(file).catch(() => undefined))?.isFile()) return undefined;
  try {
    const handle = await open(file);
    try {
      const head = Buffer.alloc(length);
      return head.subarray(0, (await handle.read(head, 0, length, 0)).bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * A file's bytes, or stdin's for "-"; one that cannot be read is a usage error naming it
 * (`what` says what it was for: "cannot read a.json for -F: …"). Ctrl-C stops the read at once
 * (InterruptedError, exit 130), even while a pipe or a FIFO waits for its writer.
 */
export async function readInput(file: string, stdin: Readable | NodeJS.ReadableStream, o: ReadOptions = {}): Promise<Buffer> {
  try {
    if (file === '-') return await untilAborted(readStream(stdin), o.signal, () => (stdin as Readable).destroy?.());
    if (isFifo(file)) return await readFifo(file, o.signal);
    // node:fs/promises when a file is read: most commands never read one.
    return await (await import('node:fs/promises')).readFile(file, { signal: o.signal });
  } catch (err) {
    throw readError(file, err, o);
  }
}

/**
 * The same as text (UTF-8). A file is read straight into a string: files of 25 MB and more are
 * common, and a Buffer kept beside the string would be that much more memory at the peak.
 */
export async function readInputText(file: string, stdin: Readable | NodeJS.ReadableStream, o: ReadOptions = {}): Promise<string> {
  if (file === '-' || isFifo(file)) return inputText(await readInput(file, stdin, o), file, o);
  try {
    return await (await import('node:fs/promises')).readFile(file, { encoding: 'utf8', signal: o.signal });
  } catch (err) {
    throw readError(file, err, o);
  }
}

/** An input's bytes read whole as UTF-8 text: more than a string holds is said as a read's failure, naming the input. */
export function inputText(bytes: Buffer, file: string, o: ReadOptions = {}): string {
  try {
    return bytes.toString('utf8');
  } catch (err) {
    throw readError(file, err, o);
  }
}

function readError(file: string, err: unknown, o: ReadOptions): Error {
  if (o.signal?.aborted) return new InterruptedError();
  return new UsageError(`cannot read ${inputName(file)}${o.what ? ` for ${o.what}` : ''}: ${fileErrorText(err)}`);
}

/** Why a file could not be read: the few reasons a person meets in words, the system's own text for the rest. */
export function fileErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  // Read whole as text, a file is one string, which V8 caps.
  if (isStringTooLong(err)) return `it is too large to read as text (${stringLimit()})`;
  return (code && FILE_ERRORS[code]) ?? (err as Error).message;
}

const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a file is there, not a directory',
  EROFS: 'a read-only file system',
};

function isFifo(file: string): boolean {
  try {
    return statSync(file).isFIFO();
  } catch {
    return false;
  }
}

/**
 * A FIFO, read as a pipe: opened without waiting (a plain open waits for a writer in Node's
 * thread pool, where neither Ctrl-C nor the process's exit can end the wait: only kill -9 could),
 * then read through the event loop, which waits for the writer and its end of file.
 */
async function readFifo(file: string, signal: AbortSignal | undefined): Promise<Buffer> {
  const { Socket } = await import('node:net');
  const pipe = new Socket({ fd: openSync(file, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
  try {
    return await untilAborted(readStream(pipe), signal, () => pipe.destroy());
  } finally {
    pipe.destroy();
  }
}

/** `reading`, or a rejection as soon as `signal` aborts, `stop` then called to let go of what it reads. */
function untilAborted<T>(reading: Promise<T>, signal: AbortSignal | undefined, stop: () => void): Promise<T> {
  if (!signal) return reading;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      stop();
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    reading.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * An existing device or FIFO, opened to write into (never created, truncated or replaced). A FIFO
 * no process reads is refused (`ENXIO`, from an open that does not wait): a plain open would wait
 * for a reader in the thread that handles Ctrl-C (or in Node's thread pool, which Node waits for
 * as it exits), and nothing but kill -9 would end sct.
 */
export function openToWriteInto(path: string): number {
  let probe: number;
  try {
    // A symbolic link is followed (/dev/stdout is one): what it leads to is checked once open.
    probe = openSync(path, constants.O_WRONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENXIO') throw new NoReaderError(path);
    throw err;
  }
  // Its reader is there, so this open does not wait, and its writes wait for the reader as into
  // any pipe. The first is closed only now: closed first, it would have been the last writer, and
  // the reader would have seen the end of its input before anything was written.
  try {
    const fd = openSync(path, constants.O_WRONLY);
    // Never into a regular file through a link put there since the target was looked at: only
    // a device, a FIFO, a socket, or the file standard output already writes to.
    const st = fstatSync(fd);
    if (!isSpecial(st) && !sameAsStdout(st)) {
      closeSync(fd);
      throw new UsageError(`${path} is no longer a device or a FIFO: not written into`);
    }
    return fd;
  } finally {
    closeSync(probe);
  }
}

const isSpecial = (st: Stats) => st.isCharacterDevice() || st.isFIFO() || st.isSocket();

function sameAsStdout(st: Stats): boolean {
  try {
    const out = fstatSync(1);
    return out.dev === st.dev && out.ino === st.ino;
  } catch {
    return false;
  }
}

/**
 * What an existing path given to write to is: 'stdout' when it leads to the file this process's
 * standard output writes to (/dev/stdout, /dev/fd/1, as curl -o and tee take them); 'special'
 * when it is, or is a symbolic link to, a device, a FIFO or a socket (/dev/null), written into
 * and never replaced; else 'file' (a regular file, a directory, a link to one or to nothing).
 */
export function existingTarget(path: string, st: Stats): 'stdout' | 'special' | 'file' {
  const led = st.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : st;
  if (led === undefined || led.isDirectory()) return 'file';
  if (sameAsStdout(led)) return 'stdout';
  return isSpecial(led) ? 'special' : 'file';
}

/** A FIFO that no process reads: what the message names it for is the caller's to say. */
export class NoReaderError extends Error {
  constructor(readonly path: string) {
    super(`${path} is a FIFO that no process reads`);
  }
}

/**
 * Writes `data` to a new temporary file beside `path`, flushed to disk, and renames it into
 * place: a reader never sees half a file, and a crash leaves the old one. The temporary is created
 * exclusively, so a name already taken (a symlink planted there included) is refused, never
 * written through; the rename replaces `path` itself, even when `path` is a symlink.
 * The file gets exactly `mode` (private files: 0600), or `mode` less the umask with
 * `{ umask: true }` (files the user reads, such as a report). `{ flush: false }` skips the wait
 * for the disk, for a file whose reader checks it and can do without it (V8's code cache).
 */
export function writeAtomically(path: string, data: string | Uint8Array | Iterable<string>, mode: number, o: { umask?: boolean; flush?: boolean } = {}): void {
  // node:crypto only when writing: reading the config, as every command does, never needs it.
  const { randomBytes } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    // The umask may have narrowed the mode at creation, never widened it; set it exactly.
    if (!o.umask) fchmodSync(fd, mode);
    keepOwner(fd, path);
    // writeFileSync goes on after a short write, where a full disk then fails: a file is whole or absent.
    writeAllSync(fd, data);
    if (o.flush !== false) fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkQuietly(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkQuietly(tmp);
    throw err;
  }
}

/**
 * Removes what writeAtomically left of `path` in processes that ended between writing their new
 * file and renaming it (kill -9, a power cut): `path.<pid>.<hex>.tmp` of a pid no longer running.
 * A config file's holds a token that a logout would otherwise leave on disk. Call it where no
 * writer of ours can be at work on `path` (under its lock); a writer still running keeps its file.
 */
export function removeStaleTemps(path: string): void {
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid !== undefined && !isAlive(Number(pid))) unlinkQuietly(join(dirname(path), name));
  }
}

/**
 * Writes data whole to fd. Pieces are gathered into writes of about a megabyte: a report of a
 * million rows is never one string, nor a million writes.
 */
export function writeAllSync(fd: number, data: string | Uint8Array | Iterable<string>): void {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    writeFileSync(fd, data);
    return;
  }
  let batch: string[] = [];
  let size = 0;
  for (const piece of data) {
    batch.push(piece);
    size += piece.length;
    if (size >= 1 << 20) {
      writeFileSync(fd, batch.join(''));
      batch = [];
      size = 0;
    }
  }
  if (batch.length) writeFileSync(fd, batch.join(''));
}

/** `sudo sct …` must not leave the user with a file of theirs that only root can read. */
function keepOwner(fd: number, path: string): void {
  if (process.getuid?.() !== 0) return;
  let st;
  try {
    // lstat: the owner of a symlink's target is nobody whose file this is.
    st = lstatSync(path);
  } catch {
    return;
  }
  if (st.isFile() && (st.uid !== 0 || st.gid !== 0)) fchownSync(fd, st.uid, st.gid);
}

export function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Never created, or already gone (someone else cleaned it up).
  }
}

/** A file as it was when a command began: what a --force write may replace, and nothing else. */
export interface FileState {
  dev: number;
  ino: number;
  ctimeMs: number;
}

/** The identity a --force write checks before it replaces a file (see claimFile). */
export function fileState(stats: FileState): FileState {
  return { dev: stats.dev, ino: stats.ino, ctimeMs: stats.ctimeMs };
}

/**
 * Gives a complete temporary file its final name. A new name is claimed with a hard link, which
 * fails when the name exists (unlike a rename, which would replace a file another process
 * created meanwhile); `replaces`, with --force, is the one file that may be replaced. `raced`
 * is the error when the name was taken meanwhile. The temporary file stays for the caller.
 */
export function claimFile(tmp: string, path: string, replaces: FileState | undefined, raced: () => Error): void {
  if (replaces) {
    const now = lstatSync(path, { throwIfNoEntry: false });
    if (now && now.dev === replaces.dev && now.ino === replaces.ino && now.ctimeMs === replaces.ctimeMs) return renameSync(tmp, path);
    if (now) throw raced();
  }
  try {
    linkSync(tmp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw raced();
    // A file system without hard links (FAT, some network shares): an exclusive copy claims the name as surely.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    try {
      copyFileSync(tmp, path, constants.COPYFILE_EXCL);
    } catch (copyErr) {
      if ((copyErr as NodeJS.ErrnoException).code === 'EEXIST') throw raced();
      throw copyErr;
    }
  }
}

/** Makes a directory's entries durable (a file created or renamed in it); not possible everywhere (Windows). */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Where a directory cannot be opened or synced, the file's own fsync is what there is.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * `path`, or the nearest of its parents there is. A path through a file is ENOTDIR to stat on
 * Node 20 and no entry on Node 22: existsSync is false for it on both, and its parents are asked.
 */
export function nearestExisting(path: string): string {
  let d = path;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

/**
 * The nearest part of `path` there is, when it is a link to nothing (a moved dotfiles folder, a
 * volume not mounted): existsSync looks through it, and a directory under it cannot be made.
 */
export function danglingLinkOn(path: string): string | undefined {
  for (let p = path; ; p = dirname(p)) {
    let entry;
    try {
      entry = lstatSync(p, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (entry) return entry.isSymbolicLink() && !existsSync(p) ? p : undefined;
    if (dirname(p) === p) return undefined;
  }
}

/**
 * What a link danglingLinkOn found is, in words: one that leads to nothing, or one in a loop of
 * links (a→b→a, or to itself), which leads to nothing too but is mended otherwise.
 */
export function danglingLinkText(link: string): string {
  let loop = false;
  try {
    statSync(link);
  } catch (err) {
    loop = (err as NodeJS.ErrnoException).code === 'ELOOP';
  }
  return `${link} is a symbolic link (to ${readlinkSync(link)}) ${loop ? 'in a loop of links: it leads' : 'that leads'} to no file or directory`;
}

/** A file read for a body that is not the size it was when the body's length was said. */
export class FileChangedError extends SctError {}

/**
 * A file's bytes for a body whose length was said before it was read (an upload's
 * Content-Length): exactly `size` of them, or an error before the last goes out. A file that grew
 * or shrank meanwhile (still being written, a /proc file that says 0 and holds bytes) would
 * otherwise send more than was said, read by the server as a request of its own, or a prefix
 * stored as if it were the file.
 */
export async function* exactBytes(file: string, size: number, onBytes: (sent: number) => void = () => {}): AsyncGenerator<Buffer> {
  const { open } = await import('node:fs/promises');
  const handle = await open(file, 'r');
  const changed = () => new FileChangedError(`${file} changed while it was uploaded (${formatBytes(size)} when the upload began): its file was not stored`);
  let sentSoFar = 0;
  try {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - sentSoFar + 1), sentSoFar);
      if (sentSoFar + bytesRead > size) throw changed();
      // The last bytes wait until the file is known to end there (its size now, and no byte after them).
      if (sentSoFar + bytesRead === size && (await handle.stat()).size !== size) throw changed();
      if (bytesRead === 0) {
        if (sentSoFar < size) throw changed();
        return;
      }
      sentSoFar += bytesRead;
      onBytes(sentSoFar);
      yield Buffer.from(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}
