// What a bulk run has already done, kept on disk as it happens (one JSON line per unit), so a
// run stopped half-way (Ctrl-C, a crash, an exhausted rate limit) can be rerun safely: units
// the journal records as done are skipped.
//
// A journal belongs to one file, command and service, and to the user and workspace the token
// acts for: the same file run as another user, or after a workspace switch, is another run
// (its rows were not done *there*). One process at a time runs a file: see lockRun.
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { tryLock } from '../config/lock.js';
import { SctError } from '../errors.js';

export interface RunScope {
  command: string;
  file: string;
  baseUrl: string;
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

/**
 * Takes the lock of one file's runs before anything is sent: a second run of the same file
 * and command against the same service while the first is going (any user) stops at once.
 * The lock of a run that was killed is taken over. Returns its release.
 */
export function lockRun(configDir: string, scope: RunScope): () => void {
  const dir = journalsDir(configDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${scope.command.replace(/\W+/g, '-')}-${hashOf([scope.command, resolve(scope.file), scope.baseUrl])}.lock`);
  const got = tryLock(path);
  if ('holder' in got) {
    const who = got.holder.pid ? ` (process ${got.holder.pid}${got.holder.since ? `, since ${got.holder.since}` : ''})` : '';
    const err = new SctError(`another run of this file is in progress${who}: nothing was sent`);
    err.hint = `wait for it to finish, then rerun (the lock is ${path})`;
    throw err;
  }
  return got.release;
}

const GENERATION_KEY = '#generation';

export interface JournalEntry {
  key: string;
  /** unknown: sent, the answer lost; it is sent again under the same Idempotency-Key. */
  status: 'done' | 'failed' | 'unknown';
  id?: string | number;
  error?: string;
  at: string;
}

export class Journal {
  readonly path: string;
  private readonly done = new Map<string, JournalEntry>();
  private readonly failures = new Map<string, number>();
  private readonly unknown = new Set<string>();

  private constructor(path: string) {
    this.path = path;
  }

  /** The journal of one run's scope, in sct's config directory (never next to the user's files). `fresh` forgets earlier runs. */
  static open(configDir: string, scope: JournalScope, fresh = false): Journal {
    const id = hashOf([scope.command, resolve(scope.file), scope.baseUrl, `user ${scope.user}`, `workspace ${scope.workspace}`]);
    const j = new Journal(join(journalsDir(configDir), `${scope.command.replace(/\W+/g, '-')}-${id}.ndjson`));
    if (fresh) rmSync(j.path, { force: true });
    j.load();
    return j;
  }

  private load(): void {
    let text = '';
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        this.note(JSON.parse(line) as JournalEntry);
      } catch {
        // A line cut short by a crash is the one unit that will simply be sent again.
      }
    }
  }

  /** The earlier successful outcome of this unit, if any. */
  get(key: string): JournalEntry | undefined {
    return this.done.get(key);
  }

  /**
   * How many times this unit was rejected in earlier runs. A request that bundles several units
   * puts it in its Idempotency-Key: a rejected unit sent again is a new attempt, not a replay.
   */
  failedAttempts(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Units an earlier run sent without learning what became of them. */
  wasUnknown(key: string): boolean {
    return this.unknown.has(key);
  }

  private note(e: JournalEntry): void {
    if (e.status === 'done') {
      this.done.set(e.key, e);
      this.unknown.delete(e.key);
    } else if (e.status === 'failed') {
      this.done.delete(e.key);
      this.unknown.delete(e.key);
      this.failures.set(e.key, this.failedAttempts(e.key) + 1);
    } else if (!this.done.has(e.key)) {
      this.unknown.add(e.key);
    }
  }

  get size(): number {
    return this.done.size;
  }

  /**
   * The id of this journal's run, part of every Idempotency-Key a bulk command derives: the
   * same in every rerun, new after --fresh (a new journal), so a fresh run really resends.
   */
  generation(): string {
    const existing = this.get(GENERATION_KEY)?.id;
    if (existing !== undefined) return String(existing);
    const id = randomUUID();
    this.record({ key: GENERATION_KEY, status: 'done', id });
    return id;
  }

  record(entry: Omit<JournalEntry, 'at'>): void {
    this.recordAll([entry]);
  }

  /**
   * Several outcomes in one write (the rows of one bulk answer), so a crash cannot leave some of
   * them journaled and the others not.
   */
  recordAll(entries: Omit<JournalEntry, 'at'>[]): void {
    if (entries.length === 0) return;
    const at = new Date().toISOString();
    // A literal, not a spread (a bulk answer has a hundred rows); the same JSON, as undefined
    // fields are left out.
    const lines: JournalEntry[] = entries.map((e) => ({ key: e.key, status: e.status, id: e.id, error: e.error, at }));
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    // Appended synchronously: the lines are on disk before the next unit starts.
    appendFileSync(this.path, lines.map((e) => JSON.stringify(e) + '\n').join(''), { mode: 0o600 });
    for (const e of lines) this.note(e);
  }
}
