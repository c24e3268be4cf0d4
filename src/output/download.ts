// Saving a downloaded file: the target is settled before the request is sent (so a refusal
// costs nothing), the bytes go to a temporary file beside it, and only a complete file is
// renamed into place. Nothing is written outside the directory the user named, and nothing
// is overwritten without --force.
import { accessSync, constants, createWriteStream, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { claimFile, danglingLinkOn, danglingLinkText, existingTarget, fileErrorText, fileState, nearestExisting, NoReaderError, openToWriteInto, syncDirectory, type FileState } from '../util/files.js';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { SctError, UsageError } from '../errors.js';
import { stripControl } from '../util/sanitize.js';
import { isAlive } from '../util/process.js';

/** The longest file name most file systems take (ext4, XFS, Btrfs, APFS): 255 bytes of UTF-8. */
const NAME_MAX = 255;

/** An extension worth keeping when a name is shortened or has no name before it: `.zip`, `.pdf`. */
const EXTENSION = /\.[A-Za-z0-9]{1,16}$/;

/**
 * A name from the service cut into its own part and its extension, both made harmless: one path
 * segment, no control characters, no leading dots (a hidden file, or `..`). `stem` is empty when
 * nothing but dots and spaces came before the extension (`..`, `%2E%2E.zip`, `.zip`). The
 * extension is taken first, so an escape sequence before it cannot swallow it.
 */
function nameParts(name: string): { stem: string; ext: string } {
  const base = oneSegment(name.replace(/\\/g, '/')).trim();
  const ext = EXTENSION.exec(base)?.[0] ?? '';
  const stem = stripControl(base.slice(0, base.length - ext.length))
    .replace(/[<>:"|?*\u0000-\u001f\u2028\u2029]/g, '_')
    .replace(/^[\s.]+/, '')
    // Windows drops a trailing dot or space, and reads CON, NUL, COM1… (whatever follows) as a device.
    .replace(/[\s.]+$/, '')
    .replace(WINDOWS_DEVICE, '_$&');
  return { stem, ext };
}

// The name before its first dot, as Windows reads it (`nul.tar.gz` is the NUL device too); COM and
// LPT take the superscript digits as well, and the console has CONIN$ and CONOUT$.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[1-9¹²³]|lpt[1-9¹²³])(?=\s*(\.|$))/i;

/**
 * A name with `/` in it as one path segment. An identifier's slashes (`EU/2025/001.zip`) become
 * `_`, so that two assessments never share a file (`EU_2025_001.zip`, `US_2025_001.zip`); a
 * name that walks the tree (`../../etc/passwd`, `/etc/x`) keeps its last segment alone.
 */
function oneSegment(name: string): string {
  const segments = name.split('/');
  const walks = segments.some((s) => s.trim() === '' || s.trim() === '.' || s.trim() === '..');
  return walks ? basename(name) : segments.join('_');
}

/** The longest start of `text` that fits in `max` bytes of UTF-8, never half a character. */
function fitBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let bytes = 0;
  // Letter by letter as a person sees them: a flag, an accented letter or an emoji family is
  // several code points, never cut in two.
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    bytes += Buffer.byteLength(segment);
    if (bytes > max) break;
    out += segment;
  }
  return out;
}

/**
 * A file name from the service (or a URL) reduced to one safe path segment of at most 255
 * bytes; a long name is shortened before its extension. With no name of its own, it is
 * `fallback` with the extension it had (`download.zip`).
 */
export function safeFileName(name: string, fallback = 'download'): string {
  const { stem, ext } = nameParts(name);
  return fitBytes(stem || fallback, NAME_MAX - Buffer.byteLength(ext)) + ext;
}

/**
 * The file name from a Content-Disposition header, if it names one. A name of dots alone
 * (`filename*=UTF-8''%2E%2E`) names nothing: the caller's own name for the file is better.
 */
export function fileNameFromDisposition(header: string | string[] | undefined): string | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (!h) return undefined;
  const named = (name: string | undefined) => (name && nameParts(name).stem ? name : undefined);
  const star = /filename\*\s*=\s*utf-8'[^']*'([^;\s]+)/i.exec(h);
  if (star) {
    try {
      const name = named(decodeURIComponent(star[1]));
      if (name) return name;
    } catch {
      /* fall through to the plain form */
    }
  }
  // A quoted name may hold `;` and backslash-escaped quotes (RFC 6266's quoted-string).
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(h);
  const given = plain ? (plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]!) : undefined;
  return named(given !== undefined ? utf8Read(given.trim()) : undefined);
}

/**
 * Node reads a header as Latin-1, one character a byte; many servers send a plain `filename=`
 * in UTF-8 all the same (`naïve.zip`). Bytes that are valid UTF-8 are read as such.
 */
function utf8Read(latin1: string): string {
  if (!/[\u0080-\u00ff]/.test(latin1) || /[^\u0000-\u00ff]/.test(latin1)) return latin1;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return latin1;
  }
}

export interface Target {
  /** Absolute path of the file to create ('-' for standard output). */
  path: string;
  /** The directory it must stay in. */
  dir: string;
  /**
   * 'file': a new file, claimed under its name only when complete. 'into': an existing target
   * that is not a regular file (/dev/null, a FIFO), written into and never replaced. 'stdout':
   * `--out -`.
   */
  kind: 'file' | 'into' | 'stdout';
  /**
   * With --force, the file that was there when the target was settled: it alone may be replaced.
   * Its change time tells it from a new file that reused its inode number, or from itself changed.
   */
  replaces?: FileState;
}

/** `--out DIR/` or an existing directory: the file name is to come from the download. */
export function isDirectoryTarget(out: string, cwd: string): boolean {
  if (out === '-') return false;
  const abs = resolve(cwd, out);
  return /[\\/]$/.test(out) || (existsSync(abs) && statSync(abs).isDirectory());
}

/**
 * `--out DIR/` naming something that is not a directory (a file, or a path through one): a
 * usage error before anything is sent, rather than the file system's words after the request.
 */
export function checkOutDirectory(out: string | undefined, cwd: string, asked: { jq?: string; json?: string | true; output?: string; columns?: string } = {}): void {
  checkOutGiven(out);
  // With --out - the file's bytes are the output: no record for a format or a filter to shape
  // (a profile's default output is no such ask).
  const shaping = asked.jq !== undefined ? '--jq' : asked.json !== undefined ? '--json' : asked.output !== undefined ? `-o ${asked.output}` : asked.columns !== undefined ? '--columns' : undefined;
  if (out === '-' && shaping) {
    throw new UsageError(`${shaping} shapes the record of a download, and --out - writes the file's bytes instead`, undefined, 'leave out --out - to save the file and print its record');
  }
  if (out === undefined || out === '-') return;
  if (/[\\/]$/.test(out)) checkOutIsDirectory(out, cwd);
  // A file's directory made through a link to nothing fails (the file's own name may be one:
  // replaced with --force, never followed).
  else refuseDanglingLink(dirname(resolve(cwd, out)), `--out ${out}`);
}

/**
 * An --out that names a directory (`DIR/`; the registry export's, always one): the directory,
 * or the nearest of its parents there is (the rest is made). A file there is in the way, and so
 * is a link to nothing, through which no directory can be made.
 */
export function checkOutIsDirectory(out: string, cwd: string): void {
  const target = resolve(cwd, out);
  const d = nearestExisting(target);
  if (statSync(d, { throwIfNoEntry: false })?.isDirectory() === false) throw new UsageError(`--out ${out}: not a directory (a file is in the way)`);
  refuseDanglingLink(target, `--out ${out}`);
}

/** A directory to be made through a link to nothing is refused before the download, naming the link. */
function refuseDanglingLink(dir: string, what: string): void {
  const link = danglingLinkOn(dir);
  if (link) throw new UsageError(`${what}: ${danglingLinkText(link)}`);
}

/**
 * An --out given empty or blank (a script's unset `$DIR`) is refused: read as a directory it
 * would be the current one, or the root (`'' + '/'`), never the one the user meant.
 */
export function checkOutGiven(out: string | undefined): void {
  if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a directory or file name (an empty one was given)');
}

/**
 * Where a download goes: `--out DIR/` or an existing directory → DIR/<name>; `--out FILE` →
 * that file; `--out -` → standard output; no --out → <cwd>/<name>. Refuses an existing file
 * without `force`; an existing target that is not a file (a device, a FIFO) is written into.
 */
export function resolveTarget(out: string | undefined, name: string, o: { cwd: string; force?: boolean }): Target {
  checkOutGiven(out);
  if (out === '-') return { path: '-', dir: o.cwd, kind: 'stdout' };
  const fileName = safeFileName(name);
  let dir: string;
  let path: string;
  const abs = out === undefined ? undefined : resolve(o.cwd, out);
  if (abs === undefined) {
    dir = o.cwd;
    path = join(dir, fileName);
  } else if (isDirectoryTarget(out!, o.cwd)) {
    dir = abs;
    path = join(dir, fileName);
  } else {
    dir = dirname(abs);
    path = abs;
  }
  const rel = relative(dir, path);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.includes('/') || rel.includes('\\')) {
    throw new UsageError(`refusing to write ${path}: outside ${dir}`);
  }
  // lstat: a symbolic link is a name like a file, never followed to wherever it points.
  const existing = lstatOrNothing(path);
  if (!existing) {
    checkWritableDirectory(dir);
    return { path, dir, kind: 'file' };
  }
  const what = existingTarget(path, existing);
  // `--out /dev/stdout` is `--out -`: the bytes alone on standard output, no path line after them.
  if (what === 'stdout') return { path: '-', dir, kind: 'stdout' };
  if (what === 'special') return { path, dir, kind: 'into' };
  if (existing.isDirectory()) throw new UsageError(`${path} is a directory: name the file to write with --out, or another directory`);
  if (!o.force) throw new UsageError(`${path} already exists: pass --force to overwrite it`);
  return { path, dir, kind: 'file', replaces: fileState(existing) };
}

/** lstat, or nothing where there is no such entry, a path through a file included (ENOTDIR). */
function lstatOrNothing(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/**
 * The directory a new file goes in, or the nearest one of its parents there is (the rest is
 * made): a file in the way, or one sct may not write in (a read-only file system), is a usage
 * error before anything is downloaded, not the file system's words after it.
 */
function checkWritableDirectory(dir: string): void {
  refuseDanglingLink(dir, `cannot make ${dir}`);
  const d = nearestExisting(dir);
  const st = statSync(d, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new UsageError(`cannot make ${dir}: ${d} is not a directory`);
  try {
    accessSync(d, constants.W_OK);
  } catch (err) {
    throw new UsageError(`cannot write in ${d}: ${fileErrorText(err)}${d === dir ? '' : ` (to make ${dir})`}`);
  }
}

/** A check of the complete download (the evidence ZIP's directory): throws when it fails. */
export type DownloadCheck = (bytes: Uint8Array) => void;

/**
 * Part files of downloads under way. A second Ctrl-C, SIGTERM or SIGHUP ends the process without
 * unwinding the download: these are removed as it exits.
 */
const partFiles = new Set<string>();
let removesOnExit = false;
function removePartFiles(): void {
  for (const file of partFiles) rmSync(file, { force: true });
}

/**
 * Saves a download. A file target: the bytes go to a temporary file beside it, are checked, and
 * only then claim the name — atomically, so a file another process created meanwhile is never
 * replaced. Other targets are written into as the bytes come, or, when there is a check, once
 * the whole download passed it. `write` is standard output, for `--out -`.
 */
export async function saveStream(
  body: Readable,
  target: Target,
  o: { onBytes?: (n: number) => void; check?: DownloadCheck; write?: (chunk: Uint8Array) => Promise<void> } = {},
): Promise<number> {
  try {
    return await saveBody(body, target, o);
  } catch (err) {
    // A body no longer read is let go: its connection, and its request's time limit, with it.
    body.destroy();
    throw err;
  }
}

async function saveBody(body: Readable, target: Target, o: Parameters<typeof saveStream>[2] = {}): Promise<number> {
  // Opened before the byte counter starts the body flowing: no byte goes by unwritten.
  const into = target.kind === 'into' && !o.check ? await openInto(target.path) : undefined;
  let bytes = 0;
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    o.onBytes?.(bytes);
  });
  if (target.kind === 'file') {
    await saveFile(body, target, o.check);
    return bytes;
  }
  const write = target.kind === 'stdout' ? o.write : undefined;
  if (target.kind === 'stdout' && !write) throw new Error('--out -: no standard output to write to');
  if (o.check) {
    // Nothing reaches the target unless the whole download is what it claims to be.
    const all = await buffer(body);
    o.check(all);
    if (write) await write(all);
    else await pipeInto(Readable.from([all]), await openInto(target.path), target.path);
  } else if (write) {
    for await (const chunk of body as AsyncIterable<Buffer>) await write(chunk);
  } else {
    await pipeInto(body, into!, target.path);
  }
  return bytes;
}

/** Into a device or FIFO: its own errors (/dev/full's ENOSPC) are said with its name. */
async function pipeInto(body: Readable, out: Writable, path: string): Promise<void> {
  let first: 'out' | 'body' | undefined;
  out.once('error', () => (first ??= 'out'));
  body.once('error', () => (first ??= 'body'));
  try {
    await pipeline(body, out);
  } catch (err) {
    if (first === 'out') throw new SctError(`writing ${path}: ${(err as Error).message}`);
    throw err;
  }
}

/**
 * An existing device or FIFO, opened to write without creating or truncating anything; a FIFO
 * that no process reads is refused rather than waited on (openToWriteInto).
 */
async function openInto(path: string): Promise<Writable> {
  let fd: number;
  try {
    fd = openToWriteInto(path);
  } catch (err) {
    if (err instanceof NoReaderError) throw new UsageError(`${path} is a FIFO that no process reads: start its reader first, or choose another --out`);
    throw err;
  }
  return createWriteStream(path, { fd });
}

async function saveFile(body: Readable, target: Target, check: DownloadCheck | undefined): Promise<void> {
  const staged = await stageFile(body, target, check);
  try {
    staged.claim();
  } finally {
    staged.discard();
  }
}

/**
 * Files that belong together (an export split into numbered files): each written whole under a
 * part name, then all claimed under their names once every one is written. A failure before (a
 * full disk, Ctrl-C) takes the part files away and leaves the directory as it was: never some
 * files of the new set beside the old set's others, each looking whole.
 */
export async function saveTogether(bodies: readonly Readable[], targets: readonly Target[]): Promise<void> {
  const staged: Staged[] = [];
  try {
    for (let i = 0; i < bodies.length; i++) staged.push(await stageFile(bodies[i]!, targets[i]!, undefined));
    for (const s of staged) s.claim();
  } finally {
    // In reverse: the first part file's directory, if sct made it, goes once it is empty.
    for (const s of staged.reverse()) s.discard();
  }
}

interface Staged {
  /** The part file under the target's name (claimFile). */
  claim(): void;
  /** The part file removed, if it was not claimed, and a directory made for it while empty. */
  discard(): void;
}

/** The body written whole (and checked) into a part file beside the target. */
async function stageFile(body: Readable, target: Target, check: DownloadCheck | undefined): Promise<Staged> {
  // The first directory made for the file, if any: a download that fails takes what it made away.
  const made = mkdirSync(target.dir, { recursive: true });
  let claimed = false;
  // Beside a name of 255 bytes, `.<name>.<pid>.part` would be too long for the file system.
  const suffix = `.${process.pid}.part`;
  const tmp = join(target.dir, `.${fitBytes(basename(target.path), NAME_MAX - 1 - Buffer.byteLength(suffix))}${suffix}`);
  removeDeadPartFiles(target.dir, basename(target.path));
  if (!removesOnExit) {
    removesOnExit = true;
    process.on('exit', removePartFiles);
  }
  partFiles.add(tmp);
  const discard = () => {
    rmSync(tmp, { force: true });
    partFiles.delete(tmp);
    if (!claimed && made !== undefined) removeEmptyDirs(target.dir, made);
  };
  // Flushed to the disk as it closes, before it takes its name: a power cut after "Saved" leaves
  // the whole file, never one cut short under the final name.
  const out = createWriteStream(tmp, { flags: 'wx', mode: 0o644, flush: true });
  // Which stream failed first: pipeline then destroys the other with the same error (Node 22 the
  // file's stream with the body's, a cut answer or Ctrl-C; Node 20 the body with the file's).
  let first: 'file' | 'body' | undefined;
  out.once('error', () => (first ??= 'file'));
  body.once('error', () => (first ??= 'body'));
  try {
    try {
      await pipeline(body, out);
    } catch (err) {
      // The disk's errors (a full disk) are about the file, not the request: said with its name.
      if (first === 'file') throw new SctError(`writing ${target.path}: ${(err as Error).message}`);
      throw err;
    }
    if (check) check(readFileSync(tmp));
  } catch (err) {
    // A source that fails at once can beat the file's open: removed before the stream has
    // closed, the file would be created after the removal and left behind.
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    discard();
    throw err;
  }
  // Closed before it is renamed (Windows renames no open file).
  if (!out.closed) await once(out, 'close').catch(() => undefined);
  return {
    claim: () => {
      claim(tmp, target);
      claimed = true;
      syncDirectory(target.dir);
    },
    discard,
  };
}

/** `dir` and its parents up to `top`, each while it is empty (another process may have put something there meanwhile). */
function removeEmptyDirs(dir: string, top: string): void {
  for (let d = dir; ; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === top || dirname(d) === d) return;
  }
}

/** The complete temporary file under its final name (claimFile): never over a file another download created meanwhile. */
function claim(tmp: string, target: Target): void {
  claimFile(tmp, target.path, target.replaces, () => raced(target.path));
}

function raced(path: string): SctError {
  return new SctError(`${path} already exists: another process created it while the download ran; nothing was replaced (pass --force to overwrite it)`);
}

async function buffer(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * The part files an earlier download of the same name left (killed with -9, a power cut: nothing
 * ran to remove them), when the process named in them is no longer running. A running one's
 * is its own, still being written.
 */
function removeDeadPartFiles(dir: string, name: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const prefix = `.${fitBytes(name, NAME_MAX - 1 - '.4294967295.part'.length)}.`;
  for (const f of names) {
    if (!f.startsWith(prefix) || !f.endsWith('.part')) continue;
    const pid = f.slice(prefix.length, -'.part'.length);
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    rmSync(join(dir, f), { force: true });
  }
}
