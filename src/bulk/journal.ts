// What a bulk run has already done, kept on disk as it happens (one JSON line per unit), so a
// run stopped half-way (Ctrl-C, a crash, an exhausted rate limit) can be rerun safely: units
// the journal records as done are skipped.
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';

const GENERATION_KEY = '#generation';

export interface JournalEntry {
  key: string;
  status: 'done' | 'failed';
  id?: string | number;
  error?: string;
  at: string;
}

export class Journal {
  readonly path: string;
  private readonly done = new Map<string, JournalEntry>();
  private readonly failures = new Map<string, number>();

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * The journal of one input file against one service and profile, in sct's config
   * directory (never next to the user's files). `fresh` forgets earlier runs.
   */
  static open(configDir: string, scope: { command: string; file: string; baseUrl: string; profile: string }, fresh = false): Journal {
    const id = createHash('sha256')
      .update([scope.command, resolve(scope.file), scope.baseUrl, scope.profile].join('\u0000'))
      .digest('hex')
      .slice(0, 20);
    const j = new Journal(join(configDir, 'journals', `${scope.command.replace(/\W+/g, '-')}-${id}.ndjson`));
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
        const e = JSON.parse(line) as JournalEntry;
        if (e.status === 'done') this.done.set(e.key, e);
        else this.noteFailure(e.key);
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

  private noteFailure(key: string): void {
    this.done.delete(key);
    this.failures.set(key, this.failedAttempts(key) + 1);
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
    const lines = entries.map((entry) => ({ ...entry, at }));
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    // Appended synchronously: the lines are on disk before the next unit starts.
    appendFileSync(this.path, lines.map((e) => JSON.stringify(e) + '\n').join(''), { mode: 0o600 });
    for (const e of lines) {
      if (e.status === 'done') this.done.set(e.key, e);
      else this.noteFailure(e.key);
    }
  }
}
