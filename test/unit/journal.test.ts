// How a journal reads back what a crash left of it, and what its keys are made of.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Journal } from '../../src/bulk/journal.js';
import { idempotencyKey } from '../../src/bulk/idempotency.js';
import { SctError } from '../../src/errors.js';
import { removeDir, tempDir } from '../helpers/sct.js';

const scope = { command: 'test', file: 'people.csv', baseUrl: 'http://x/api', user: 1, workspace: 1 };
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
function configDir(): string {
  const d = tempDir('sct-journal-');
  dirs.push(d);
  return d;
}
const line = (key: string, id: number) => JSON.stringify({ key, status: 'done', id, at: '2026-01-01T00:00:00.000Z' });

describe('Journal.open on a damaged file', () => {
  it('keeps a last record that lost only its newline, and gives the file its newline back', () => {
    const dir = configDir();
    const path = Journal.open(dir, scope).path;
    writeFileSync(path, `${line('a', 1)}\n${line('b', 2)}`);
    const j = Journal.open(dir, scope);
    expect([j.get('a')?.id, j.get('b')?.id]).toEqual([1, 2]);
    expect(j.repaired).toContain('(its last record without its newline)');
    expect(readFileSync(path, 'utf8')).toBe(`${line('a', 1)}\n${line('b', 2)}\n`);
    expect(Journal.open(dir, scope).repaired).toBeUndefined();
  });

  it('reads a record written after a run of zeros, and drops the torn one before them', () => {
    const dir = configDir();
    const path = Journal.open(dir, scope).path;
    writeFileSync(path, `${line('a', 1)}\n${line('b', 2).slice(0, 10)}${'\0'.repeat(8)}${line('c', 3)}\n`);
    const j = Journal.open(dir, scope);
    expect([j.get('a')?.id, j.get('b'), j.get('c')?.id]).toEqual([1, undefined, 3]);
    expect(j.repaired).toContain('18 unreadable bytes');
    expect(readFileSync(path, 'utf8')).toBe(`${line('a', 1)}\n${line('c', 3)}\n`);
  });
});

describe('one file under several names', () => {
  it('a symlink and the file it points to share one journal and its keys', () => {
    const dir = configDir();
    const real = join(configDir(), 'orders-2026-11.csv');
    writeFileSync(real, 'x\n');
    const link = join(dirname(real), 'latest.csv');
    symlinkSync(real, link);
    const byName = Journal.open(dir, { ...scope, file: real });
    const byLink = Journal.open(dir, { ...scope, file: link });
    expect(byLink.path).toBe(byName.path);
    expect(byLink.key('a')).toBe(byName.key('a'));
  });

  it('a run an earlier sct journaled under a symlink name goes on under that name and its keys', () => {
    const dir = configDir();
    const real = join(configDir(), 'orders-2026-11.csv');
    writeFileSync(real, 'x\n');
    const link = join(dirname(real), 'latest.csv');
    // Journaled under the name as given: what sct did for a symlink before it followed one.
    writeFileSync(link, 'x\n');
    const earlier = Journal.open(dir, { ...scope, file: link });
    writeFileSync(earlier.path, `${line('a', 1)}\n`);
    rmSync(link);
    symlinkSync(real, link);
    const j = Journal.open(dir, { ...scope, file: link });
    expect(j.path).toBe(earlier.path);
    expect(j.get('a')?.id).toBe(1);
    expect(j.key('a')).toBe(earlier.key('a'));
  });
});

describe('what a journal holds in memory', () => {
  it('reads a journal of many megabytes line by line: records and characters cut by a read, zeros and a torn line among them', () => {
    const dir = configDir();
    const path = Journal.open(dir, scope).path;
    // Keys of two-byte characters, so that reads of a megabyte cut some of them in two.
    const lines: string[] = [];
    for (let i = 0; i < 40_000; i++) lines.push(line(`é${i}`.repeat(3), i));
    const torn = line('torn', -1).slice(0, 20);
    writeFileSync(path, `${lines.slice(0, 20_000).join('\n')}\n${torn}\0\0\0${lines.slice(20_000).join('\n')}\n`);
    expect(readFileSync(path).length).toBeGreaterThan(3 << 20);
    const j = Journal.open(dir, scope);
    for (const i of [0, 1, 12_345, 19_999, 20_000, 39_999]) expect(j.get(`é${i}`.repeat(3))?.id).toBe(i);
    expect(j.repaired).toContain(`(${Buffer.byteLength(torn) + 3} unreadable bytes)`);
    expect(readFileSync(path, 'utf8')).toBe(`${lines.join('\n')}\n`);
    expect(Journal.open(dir, scope).repaired).toBeUndefined();
  });

  it('is what earlier runs left on record; what this run records goes to disk, for the next run', () => {
    const dir = configDir();
    const earlier = Journal.open(dir, scope);
    earlier.recordAll([
      { key: 'a', status: 'done', id: 1 },
      { key: 'b', status: 'failed', error: 'no' },
      { key: 'c', status: 'unknown' },
    ]);
    const run = Journal.open(dir, scope);
    expect([run.get('a')?.id, run.failedAttempts('b'), run.wasUnknown('c')]).toEqual([1, 1, true]);
    // This run's own records: a million rows sent hold no million records (each is sent once).
    run.recordAll([
      { key: 'c', status: 'done', id: 3 },
      { key: 'd', status: 'done', id: 4 },
    ]);
    expect([run.get('c'), run.get('d'), run.wasUnknown('c')]).toEqual([undefined, undefined, true]);
    const next = Journal.open(dir, scope);
    expect([next.get('c')?.id, next.get('d')?.id, next.wasUnknown('c')]).toEqual([3, 4, false]);
  });

  it('reads each record in the order written: sent after done stays done, sent again after a failure is unknown', () => {
    const dir = configDir();
    Journal.open(dir, scope).recordAll([
      { key: 'a', status: 'done', id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', sent: 'k1' },
      { key: 'a', status: 'unknown', sent: 'k2' },
      { key: 'b', status: 'unknown', sent: 'k3' },
      { key: 'b', status: 'done', id: 2, sent: 'k3' },
      { key: 'c', status: 'done', id: 3, sent: 'k4' },
      { key: 'c', status: 'failed', error: 'no' },
      { key: 'c', status: 'unknown', sent: 'k5' },
      { key: 'd', status: 'unknown', sent: 'k6' },
      { key: 'd', status: 'cleared' },
    ]);
    const j = Journal.open(dir, scope);
    expect([j.get('a'), j.wasUnknown('a'), j.sentKeyOf('a')]).toEqual([{ id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', sent: 'k1' }, false, undefined]);
    expect([j.get('b'), j.wasUnknown('b')]).toEqual([{ id: 2, sent: 'k3' }, false]);
    expect([j.get('c'), j.wasUnknown('c'), j.sentKeyOf('c'), j.failedAttempts('c')]).toEqual([undefined, true, 'k5', 1]);
    expect([j.get('d'), j.wasUnknown('d'), j.blank]).toEqual([undefined, false, false]);
  });
});

describe('Journal.key', () => {
  it('is the same whatever the journal holds, and new after --fresh until the next --fresh', () => {
    const dir = configDir();
    const first = Journal.open(dir, scope).key('row');
    Journal.open(dir, scope).record({ key: 'row', status: 'done', id: 1 });
    expect(Journal.open(dir, scope).key('row')).toBe(first);
    const fresh = Journal.open(dir, scope, true).key('row');
    expect(fresh).not.toBe(first);
    expect(Journal.open(dir, scope).key('row')).toBe(fresh);
    expect(Journal.open(dir, { ...scope, user: 2 }).key('row')).not.toBe(first);
  });

  it('of a journal an earlier sct wrote is the key that sct sent', () => {
    const dir = configDir();
    const path = Journal.open(dir, scope).path;
    writeFileSync(path, JSON.stringify({ key: '#generation', status: 'done', id: 'old-generation', at: '2026-01-01T00:00:00.000Z' }) + '\n');
    expect(Journal.open(dir, scope).key('row', '{}')).toBe(idempotencyKey('test', 'old-generation', 'row', '{}'));
  });

  it('stops at a generation file sct did not write', () => {
    const dir = configDir();
    const path = Journal.open(dir, scope).path;
    writeFileSync(path.replace(/\.ndjson$/, '.generation'), 'not a generation\n');
    expect(() => Journal.open(dir, scope)).toThrow(SctError);
    expect(() => Journal.open(dir, scope)).toThrow(/is not one sct wrote: nothing was sent/);
  });
});
