// What a bulk run has already done, kept on disk as it happens (one JSON line per unit), so a
// run stopped half-way (Ctrl-C, a crash, an exhausted rate limit) can be rerun safely: units
// the journal records as done are skipped.
//
// The journal is a record, never the only defence: every Idempotency-Key of a run is derived
// from the journal's identity and the row (plus the generation --fresh starts, kept in its own
// small file), not from what the journal says. A journal that a power cut left empty, torn or
// zero-filled, or that was deleted, loses only the knowledge of which rows are done: the rerun
// sends those rows again under the keys they first went out with, and the service replays its
// answers instead of acting twice.
//
// A journal belongs to one file, command and service, and to the user and workspace the token
// acts for: the same file run as another user, or after a workspace switch, is another run
// (its rows were not done *there*). One process at a time runs a file: see lockRun.
import { hostname } from 'node:os';
import { accessSync, closeSync, constants, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, rmSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createHash, randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod';
import { tryLock } from '../config/lock.js';
import { danglingLinkOn, danglingLinkText, fileErrorText, nearestExisting, syncDirectory, writeAllSync, writeAtomically } from '../util/files.js';
import { SctError } from '../errors.js';
import { idempotencyKey } from './idempotency.js';
import { stripControl } from '../util/sanitize.js';
import { DoneTable, type DoneRecord } from './done-table.js';

export interface RunScope {
  command: string;
  file: string;
  baseUrl: string;
  /** The file's identity (fileIdentity), when the caller worked it out once for the lock and the journal. */
  identity?: string;
}

export interface JournalScope extends RunScope {
  /** The user the token acts for, and the workspace (user-company) active for it. */
  user: string | number;
  workspace: string | number;
}

function hashOf(parts: (string | number)[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 20);
}

function journalsDir(configDir: string): string {
  return join(configDir, 'journals');
}

/** Where the names runs knew their files by are kept: one small file per name, with its device and inode. */
function filesDir(configDir: string): string {
  return join(journalsDir(configDir), 'files');
}

const fileRecordSchema = z.object({ path: z.string(), dev: z.number(), ino: z.number() });

/**
 * The name a run's file is known by, for its lock, its journal and its keys: one file reached
 * through a symlink (`latest.csv` → `orders-2026-11.csv`) or under another hard link is one file,
 * whose rows a second name must not send again. A symlink is the file it points to. A file with
 * other hard links takes the name an earlier run recorded for the same device and inode, while
 * that name still is this file; every name a run uses is recorded (journals/files/). A path that
 * cannot be read (`-`, a pipe's) stays as given.
 */
export function fileIdentity(configDir: string, file: string): string {
  // Standard input is one input wherever sct runs from: the same rows piped in from another
  // directory rerun the earlier run, never create everything again (nor is a file named `-` it).
  if (file === '-') return '-';
  const given = resolve(file);
  let real: string;
  let st: ReturnType<typeof statSync>;
  try {
    real = realpathSync(given);
    st = statSync(real);
  } catch {
    return given;
  }
  if (!st.isFile()) return real;
  const dir = filesDir(configDir);
  const recordOf = (path: string) => join(dir, `${hashOf([path])}.json`);
  let name = real;
  if (st.nlink > 1 && !existsSync(recordOf(real))) {
    const same = (path: string) => {
      try {
        const other = statSync(path);
        return other.dev === st.dev && other.ino === st.ino;
      } catch {
        return false;
      }
    };
    const names = readRecords(dir).filter((r) => r.dev === st.dev && r.ino === st.ino && r.path !== real && same(r.path));
    if (names.length > 0) name = names.map((r) => r.path).sort()[0]!;
  }
  if (name === real) {
    const record = JSON.stringify({ path: real, dev: st.dev, ino: st.ino });
    let known: string | undefined;
    try {
      known = readFileSync(recordOf(real), 'utf8');
    } catch {
      known = undefined;
    }
    if (known !== record) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeAtomically(recordOf(real), record, 0o600, { flush: false });
      } catch {
        // Only a help for a hard link's later run: a run goes on without it.
      }
    }
  }
  return name;
}

function readRecords(dir: string): z.infer<typeof fileRecordSchema>[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    try {
      const r = fileRecordSchema.safeParse(JSON.parse(readFileSync(join(dir, n), 'utf8')));
      return r.success ? [r.data] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Takes the lock of one file's runs before anything is sent: a second run of the same file
 * and command against the same service while the first is going (any user) stops at once.
 * The lock of a run that was killed is taken over. Returns its release.
 */
export function lockRun(configDir: string, scope: RunScope): () => void {
  const dir = journalsDir(configDir);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const why = whyNotMade(err, dir);
    const e = new SctError(`making the journals directory ${dir}: ${why.text}`);
    e.hint = `a bulk run keeps its journal there, before it sends anything: ${journalHint(why.code, 'directory')}`;
    throw e;
  }
  const path = join(dir, `${scope.command.replace(/\W+/g, '-')}-${hashOf([scope.command, scope.identity ?? fileIdentity(configDir, scope.file), scope.baseUrl])}.lock`);
  const got = tryLock(path);
  if ('holder' in got) {
    const h = got.holder;
    // A holder on another host (a shared config directory, or journals a CI cache brought back
    // into a new container) cannot be asked whether it still runs: said, with how to go on.
    const elsewhere = h.pid && h.host !== hostname() ? stripControl(h.host) || 'unnamed' : undefined;
    const who = h.pid ? ` (${elsewhere ? `on host ${elsewhere}, ` : ''}process ${h.pid}${h.since ? `, since ${h.since}` : ''})` : '';
    const err = new SctError(`another run of this file is in progress${who}: nothing was sent`);
    err.hint = elsewhere
      ? `sct cannot tell whether a process on ${elsewhere} still runs: wait for it to finish, or, if it is gone (a container that ended), remove ${path} and rerun`
      : `wait for it to finish, then rerun (the lock is ${path})`;
    throw err;
  }
  return got.release;
}

/** Written by sct before this file's journal had a generation file: its keys are kept as they were. */
const LEGACY_GENERATION_KEY = '#generation';

const entrySchema = z.object({
  key: z.string(),
  /**
   * unknown: sent, its answer not (yet) known. Written before the request goes out, so a run
   * killed while it is out leaves it on record: the rerun says so and sends it again under the
   * same Idempotency-Key. cleared: that record no longer holds (the run learnt the request never
   * reached the service, or the service refused it whole).
   */
  status: z.enum(['done', 'failed', 'unknown', 'cleared']),
  id: z.union([z.string(), z.number()]).optional(),
  error: z.string().optional(),
  /**
   * The Idempotency-Key of the request the unit went out in: with `done` and `failed`, the
   * chunk's when it shared a request with others; with `unknown`, the key a rerun sends it under
   * again, whatever became of the file's row since.
   */
  sent: z.string().optional(),
  at: z.string(),
});
export type JournalEntry = z.infer<typeof entrySchema>;

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/**
 * The journal of one run: what earlier runs left on record, as it was when the run opened it
 * (what `get`, `failedAttempts` and `wasUnknown` answer, all asked before a unit is sent), and
 * the records this run writes. Those go to disk only: each unit of a run is sent once (the file
 * commands refuse a row given twice), so no later request of the same run asks about them, and
 * a run of a million rows does not hold a million records (docs/decisions/memory.md).
 */
export class Journal {
  readonly path: string;
  /**
   * Set when loading found the file damaged (a torn last line, zeros) and rewrote it without the
   * unreadable bytes: said to the user once, before anything is sent.
   */
  repaired?: string;
  /** What every key of this run starts with: the journal's identity and its generation. */
  private keyBase: string[] = [];
  /** Each unit done, by key: its id and the key of the request it went in (done-table.ts). */
  private readonly done = new DoneTable();
  /** The last `sent` key read: the rows of one request share it, and so one string. */
  private lastSent?: string;
  private readonly failures = new Map<string, number>();
  /** Units sent without an answer, and the Idempotency-Key each went out under (when on record). */
  private readonly unknown = new Map<string, string | undefined>();

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * The journal of one run's scope, in sct's config directory (never next to the user's files).
   * `fresh` forgets earlier runs and starts a new generation: new keys, so every row is really
   * sent again.
   */
  static open(configDir: string, scope: JournalScope, fresh = false): Journal {
    const dir = journalsDir(configDir);
    const idOf = (file: string) => hashOf([scope.command, file, scope.baseUrl, `user ${scope.user}`, `workspace ${scope.workspace}`]);
    const nameOf = (id: string) => `${scope.command.replace(/\W+/g, '-')}-${id}`;
    const begun = (id: string) => existsSync(join(dir, `${nameOf(id)}.ndjson`)) || existsSync(join(dir, `${nameOf(id)}.generation`));
    // The file by its one name; but a run an earlier sct began under the name as given (a
    // symlink's) goes on under that name and its keys, so nothing it sent is sent again.
    let id = idOf(scope.identity ?? fileIdentity(configDir, scope.file));
    const asGiven = idOf(resolve(scope.file));
    if (asGiven !== id && !begun(id) && begun(asGiven)) id = asGiven;
    const name = nameOf(id);
    const path = join(dir, `${name}.ndjson`);
    const generationFile = join(dir, `${name}.generation`);
    try {
      return Journal.openAt(path, generationFile, id, scope, fresh);
    } catch (err) {
      // A full disk while the journal is made, begun afresh or repaired: named as every other
      // write of it, nothing sent yet.
      if (err instanceof SctError) throw err;
      throw new JournalWriteError(path, err as Error);
    }
  }

  private static openAt(path: string, generationFile: string, id: string, scope: JournalScope, fresh?: boolean): Journal {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (fresh) {
      // The journal goes first: a crash before the new generation is on disk leaves the old
      // generation with an empty journal, whose rerun only replays what that generation sent.
      rmSync(path, { force: true });
      writeAtomically(generationFile, `${randomUUID()}\n`, 0o600);
      syncDirectory(dir);
    }
    const generation = readGeneration(generationFile);
    // Read line by line, each record noted as it comes: a run of a million rows left two million
    // of them (docs/decisions/memory.md).
    const j = new Journal(path);
    let legacy: string | number | undefined;
    const file: Tally = { unreadable: 0, torn: false };
    for (const e of journalRecords(path, file)) {
      if (e.key === LEGACY_GENERATION_KEY) legacy ??= e.id;
      j.note(e);
    }
    j.settleUnknown();
    // A journal of an earlier sct keyed its rows by a generation it held itself; an interrupted
    // run of it goes on under the keys it started with.
    j.keyBase = generation === undefined && legacy !== undefined ? [scope.command, String(legacy)] : [id, generation ?? ''];
    if (file.torn) {
      j.rewrite();
      j.repaired =
        `the journal ${path} was damaged by a crash, a power cut or a full disk (${file.unreadable ? `${file.unreadable} unreadable bytes` : 'its last record without its newline'}) and is repaired; ` +
        'rows it no longer records are sent again under their original Idempotency-Keys: the service answers as before and acts only once';
    }
    return j;
  }

  /** The journal as its readable records, replacing the damaged file whole. */
  private rewrite(): void {
    // Line by line into the new file, as the damaged one is read again.
    function* lines(records: Iterable<JournalEntry>): Iterable<string> {
      for (const e of records) yield JSON.stringify(e) + '\n';
    }
    writeAtomically(this.path, lines(journalRecords(this.path, { unreadable: 0, torn: false })), 0o600);
    syncDirectory(dirname(this.path));
  }

  /**
   * The Idempotency-Key of one request of this run: the journal's identity, its generation and
   * the parts given (the row's identity and content). The same in every rerun, whatever became
   * of the journal's file; new after --fresh.
   */
  key(...parts: string[]): string {
    return idempotencyKey(...this.keyBase, ...parts);
  }

  /** The earlier successful outcome of this unit, if any. */
  get(key: string): DoneRecord | undefined {
    return this.done.get(key);
  }

  /**
   * How many times this unit was rejected in earlier runs. A request that bundles several units
   * puts it in its Idempotency-Key: a rejected unit sent again is a new attempt, not a replay.
   */
  failedAttempts(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Earlier runs left no record of any unit (a first run): nothing to look up unit by unit. */
  get blank(): boolean {
    return this.done.size === 0 && this.failures.size === 0 && this.unknown.size === 0;
  }

  /** Units an earlier run sent without learning what became of them. */
  wasUnknown(key: string): boolean {
    return this.unknown.has(key);
  }

  /** The keys of every such unit. */
  unknownKeys(): string[] {
    return [...this.unknown.keys()];
  }

  /**
   * The Idempotency-Key an earlier run sent this unit under without learning what became of it:
   * the rerun sends it again under that key (the spec's "original Idempotency-Key"), even when
   * the file's row changed since, so a service that carried the first out never does it twice.
   */
  sentKeyOf(key: string): string | undefined {
    return this.unknown.get(key);
  }

  private note(e: JournalEntry): void {
    if (e.status === 'done') {
      if (e.sent !== undefined && e.sent === this.lastSent) e.sent = this.lastSent;
      else this.lastSent = e.sent;
      this.done.set(e.key, e.id, e.sent);
      this.unknown.delete(e.key);
    } else if (e.status === 'failed') {
      this.done.delete(e.key);
      this.unknown.delete(e.key);
      this.failures.set(e.key, this.failedAttempts(e.key) + 1);
    } else if (e.status === 'cleared') {
      this.unknown.delete(e.key);
    } else {
      // Unless it is done: asked once all records are read (settleUnknown), as a key's digest
      // costs a hash, and a run's journal has a record as sent for each of its rows.
      this.unknown.set(e.key, e.sent ?? this.unknown.get(e.key));
    }
  }

  /** A unit on record as sent after it was done stays done (an `unknown` record then says nothing). */
  private settleUnknown(): void {
    for (const key of this.unknown.keys()) if (this.done.has(key)) this.unknown.delete(key);
  }

  record(entry: Omit<JournalEntry, 'at'>): void {
    this.recordAll([entry]);
  }

  /**
   * Several outcomes in one write (the rows of one bulk answer), so a crash cannot leave some of
   * them journaled and the others not. On disk (fsync) before this returns: the next request
   * goes out only once the outcomes before it are durable.
   */
  recordAll(entries: Omit<JournalEntry, 'at'>[]): void {
    if (entries.length === 0) return;
    const at = new Date().toISOString();
    // A literal, not a spread (a bulk answer has a hundred rows); the same JSON, as undefined
    // fields are left out.
    const lines: JournalEntry[] = entries.map((e) => ({ key: e.key, status: e.status, id: e.id, error: e.error, sent: e.sent, at }));
    const dir = dirname(this.path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, APPEND_FLAGS, 0o600);
    let created = false;
    try {
      created = fstatSync(fd).size === 0;
      // Whole, or an error: a write the full disk cut short returns what it wrote and raises
      // nothing, and the requests those records announce would go out undescribed.
      writeAllSync(fd, lines.map((e) => JSON.stringify(e) + '\n').join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // A new file's name is in its directory, which a power cut can lose too.
    if (created) syncDirectory(dir);
  }
}

/** What reading a journal file found besides its records. */
interface Tally {
  /** Bytes that are not records (zeros, torn or damaged lines). */
  unreadable: number;
  /** Whether the file needs repair before anything is appended to it. */
  torn: boolean;
}

/**
 * The readable records of a journal file, read a megabyte at a time; `tally` says, once they
 * are all read, what else was there. A missing file has no records.
 */
function* journalRecords(path: string, tally: Tally): Generator<JournalEntry> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY);
  } catch {
    return;
  }
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.allocUnsafe(1 << 20);
  let rest = '';
  let lastByte: number | undefined;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const lines = n === 0 ? [rest + decoder.end()] : (rest + decoder.write(buf.subarray(0, n))).split(/[\n\0]/);
      rest = n === 0 ? '' : lines.pop()!;
      if (n > 0) {
        lastByte = buf[n - 1];
        // Each zero byte is unreadable; a zero-filled tail (what a file system can leave of blocks
        // that never reached the disk) separates records as a newline does: a record written
        // after it is read, never glued to it.
        for (let at = buf.indexOf(0); at !== -1 && at < n; at = buf.indexOf(0, at + 1)) tally.unreadable++;
      }
      for (const line of lines) {
        if (!line) continue;
        const e = parseEntry(line);
        if (e) yield e;
        else tally.unreadable += Buffer.byteLength(line);
      }
      if (n === 0) break;
    }
  } finally {
    closeSync(fd);
  }
  // A last record without its newline would have the next one appended to it.
  tally.torn = tally.unreadable > 0 || (lastByte !== undefined && lastByte !== 0x0a);
}

function parseEntry(line: string): JournalEntry | undefined {
  try {
    const e = entrySchema.safeParse(JSON.parse(line));
    return e.success ? e.data : undefined;
  } catch {
    return undefined;
  }
}

/** The generation --fresh started for this journal; undefined when none was (the first generation). */
function readGeneration(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const generation = text.trim();
  // Written whole through a rename, so anything else was written by something other than sct.
  if (!/^[0-9a-f-]{36}$/.test(generation)) {
    const err = new SctError(`the generation file ${path} is not one sct wrote: nothing was sent`);
    err.hint = `remove it to go on with the keys of this file's first run (a run started with --fresh since then is then replayed, not continued)`;
    throw err;
  }
  return generation;
}

/** A write of the journal that failed (a full disk): the run cannot go on knowing what it sent. */
export class JournalWriteError extends SctError {
  constructor(path: string, cause: Error) {
    super(`writing the journal ${path}: ${cause.message}`, { cause });
    this.name = 'JournalWriteError';
    this.hint = journalHint((cause as NodeJS.ErrnoException).code);
  }
}

/** What to do about a journal (or its directory) that cannot be written, by why (a full disk is the usual). */
function journalHint(code: string | undefined, what: 'file' | 'directory' = 'file'): string {
  switch (code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return 'a file is in the way of the directory where sct keeps its journals (SCT_CONFIG_DIR): move it, or give SCT_CONFIG_DIR elsewhere';
    case 'EROFS':
      return 'the file system where sct keeps its configuration (SCT_CONFIG_DIR) is read-only now: make it writable, or give SCT_CONFIG_DIR on one that is';
    case 'ELOOP':
      return what === 'file' ? 'the journal is not a regular file (a symbolic link): sct writes none through one; move it away' : 'fix or remove the link, or give SCT_CONFIG_DIR elsewhere';
    case 'EACCES':
    case 'EPERM':
      return 'sct may not write where it keeps its configuration (SCT_CONFIG_DIR): give it permission, or give SCT_CONFIG_DIR elsewhere';
    default:
      return 'make room where sct keeps its configuration (SCT_CONFIG_DIR)';
  }
}

/**
 * Why a directory could not be made: Node's recursive mkdir says ENOENT on a read-only file
 * system (it tries the parents too), which names no cause: the nearest existing parent is asked.
 */
function whyNotMade(err: unknown, dir: string): { text: string; code?: string } {
  const code = (err as NodeJS.ErrnoException).code;
  // A link to nothing on the way (a moved dotfiles folder): named, whatever Node calls it.
  const link = code === 'ENOENT' || code === 'ELOOP' ? danglingLinkOn(dir) : undefined;
  if (link) return { text: danglingLinkText(link), code: 'ELOOP' };
  if (code !== 'ENOENT') return { text: fileErrorText(err), code };
  const parent = nearestExisting(dirname(dir));
  try {
    accessSync(parent, constants.W_OK);
  } catch (cause) {
    return { text: `${parent} cannot be written (${fileErrorText(cause)})`, code: (cause as NodeJS.ErrnoException).code };
  }
  return { text: (err as Error).message, code };
}
