// How a chunked bulk run plans its requests and keys them across reruns, and how a bulk
// invitation answer is read back onto rows.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../src/bulk/journal.js';
import { chunkKey, planChunks, type ChunkRow } from '../../src/bulk/chunks.js';
import { invitationResults } from '../../src/commands/invitations/bulk-create.js';

const units = (n: number): ChunkRow<{ n: number }>[] => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, line: i + 2, payload: { n: i } }));

function withJournal(fn: (open: (fresh?: boolean) => Journal) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'sct-chunks-'));
  try {
    fn((fresh) => Journal.open(dir, { command: 'test', file: 'people.csv', baseUrl: 'http://x/api', user: 1, workspace: 1 }, fresh));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('planChunks', () => {
  it('keeps untouched chunks as they were and packs the rows left over by earlier runs', () => {
    withJournal((open) => {
      const all = units(7);
      expect(planChunks(all, 3, open()).map((c) => c.map((u) => u.key))).toEqual([['k0', 'k1', 'k2'], ['k3', 'k4', 'k5'], ['k6']]);
      const j = open();
      j.record({ key: 'k0', status: 'done', id: 'a' });
      j.record({ key: 'k1', status: 'failed', error: 'no' });
      j.record({ key: 'k2', status: 'done', id: 'b' });
      j.record({ key: 'k6', status: 'failed', error: 'no' });
      // The middle chunk was never answered: it is sent as before, so its key is the same.
      expect(planChunks(all, 3, open()).map((c) => c.map((u) => u.key))).toEqual([['k1', 'k6'], ['k3', 'k4', 'k5']]);
    });
  });

  it('plans a first run from the file alone: a journal is blank until a row is on record as done, failed or sent', () => {
    withJournal((open) => {
      expect(open().blank).toBe(true);
      open().record({ key: 'k3', status: 'unknown' });
      const j = open();
      expect(j.blank).toBe(false);
      expect(j.wasUnknown('k3')).toBe(true);
      // The chunk sent without an answer goes again whole, as first planned.
      expect(planChunks(units(7), 3, j).map((c) => c.map((u) => u.key))).toEqual([['k0', 'k1', 'k2'], ['k3', 'k4', 'k5'], ['k6']]);
      open().record({ key: 'k3', status: 'cleared' });
      expect(open().blank).toBe(true);
    });
  });

  it('never mixes groups, in the first run or in the packing of a rerun', () => {
    withJournal((open) => {
      const all = units(6);
      const byParity = (p: { n: number }) => p.n % 2;
      expect(planChunks(all, 2, open(), byParity).map((c) => c.map((u) => u.key))).toEqual([['k0', 'k2'], ['k1', 'k3'], ['k4'], ['k5']]);
      const j = open();
      j.record({ key: 'k0', status: 'failed', error: 'no' });
      j.record({ key: 'k1', status: 'failed', error: 'no' });
      j.record({ key: 'k4', status: 'failed', error: 'no' });
      expect(planChunks(all, 2, open(), byParity).map((c) => c.map((u) => u.key))).toEqual([['k0', 'k2'], ['k1', 'k3'], ['k4'], ['k5']]);
    });
  });

  it("journals a chunk's rows in one write, read back as the next run's starting point", () => {
    withJournal((open) => {
      const j = open();
      j.recordAll([
        { key: 'k0', status: 'done', id: 'a' },
        { key: 'k1', status: 'failed', error: 'no' },
      ]);
      const again = open();
      expect(again.get('k0')?.id).toBe('a');
      expect(again.get('k1')).toBeUndefined();
      expect(again.failedAttempts('k1')).toBe(1);
      expect(readFileSync(again.path, 'utf8').trim().split('\n')).toHaveLength(2);
    });
  });

  it('keys a chunk by its rows and their earlier rejections, anew after --fresh', () => {
    withJournal((open) => {
      const rows = units(2);
      const before = chunkKey(open(), rows);
      expect(chunkKey(open(), rows)).toBe(before);
      open().record({ key: 'k1', status: 'failed', error: 'no' });
      const retry = chunkKey(open(), rows);
      expect(retry).not.toBe(before);
      expect(chunkKey(open(true), rows)).not.toBe(before);
    });
  });

  it('sends a chunk whose rows were recorded under its key again whole, and packs the rest of one sent otherwise', () => {
    withJournal((open) => {
      const all = units(6);
      const j = open();
      const first = all.slice(0, 3);
      // Part of each chunk's answer is on record: the first under its own key, the second under another.
      j.record({ key: 'k0', status: 'done', id: 'a', sent: chunkKey(j, first) });
      j.record({ key: 'k3', status: 'done', id: 'b', sent: 'another request' });
      expect(planChunks(all, 3, open()).map((c) => c.map((u) => u.key))).toEqual([['k0', 'k1', 'k2'], ['k4', 'k5']]);
    });
  });

  it('sends a request again whole under its key when a damaged journal kept only some of its rows as sent', () => {
    withJournal((open) => {
      const all = units(6);
      const j = open();
      // A cut journal: of the first request's three rows, only the first is on record, as sent.
      j.record({ key: 'k0', status: 'unknown', sent: chunkKey(j, all.slice(0, 3)) });
      const plan = planChunks(all, 3, open());
      expect(plan.map((c) => c.map((u) => u.key))).toEqual([['k0', 'k1', 'k2'], ['k3', 'k4', 'k5']]);
      expect(chunkKey(open(), plan[0]!)).toBe(chunkKey(j, all.slice(0, 3)));
    });
  });
});

describe('invitationResults', () => {
  it('matches results by index, whatever the status word, and names a missing one', () => {
    const answer = {
      results: [
        { index: 2, status: 'rejected', error: { email: ['Taken.'] } },
        { index: 0, status: 'accepted', invitation: { id: 'u-0' } },
      ],
    };
    const rows = [{ email: 'a@x.example' }, { email: 'b@x.example' }, { email: 'c@x.example' }];
    expect(invitationResults(answer, rows)).toEqual([
      { ok: true, id: 'u-0' },
      { ok: false, unknown: true, error: 'the answer holds no result for this row: it may have been created' },
      { ok: false, error: 'rejected', fields: { email: ['Taken.'] } },
    ]);
    expect(() => invitationResults({ detail: 'x' }, rows.slice(0, 1))).toThrow(/no per-row results/);
    expect(() => invitationResults({ results: [{ index: '0', status: 'created' }] }, rows.slice(0, 1))).toThrow(/its per-row results are not as the documents show them/);
  });

  it('a result holding another row\'s invitation (indexes mixed up) leaves this row unknown', () => {
    const swapped = { results: [{ index: 0, status: 'created', invitation: { id: 'u-1', email: 'B@x.example' } }, { index: 1, status: 'created', invitation: { id: 'u-0', email: 'a@x.example' } }] };
    expect(invitationResults(swapped, [{ email: 'a@x.example' }, { email: 'b@x.example' }])).toEqual([
      { ok: false, unknown: true, error: 'the result for this row holds the invitation of B@x.example: it may have been created' },
      { ok: false, unknown: true, error: 'the result for this row holds the invitation of a@x.example: it may have been created' },
    ]);
    const matching = { results: [{ index: 0, status: 'created', invitation: { id: 'u-0', email: 'A@X.example' } }] };
    expect(invitationResults(matching, [{ email: 'a@x.example' }])).toEqual([{ ok: true, id: 'u-0' }]);
  });
});
