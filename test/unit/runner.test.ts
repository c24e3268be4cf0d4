// The bulk runner: units in flight up to the concurrency, outcomes in the units' order whatever
// order the answers come in, and one at a time while the rate limit has fewer left than that.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runUnits, type Unit } from '../../src/bulk/runner.js';
import { Journal } from '../../src/bulk/journal.js';
import type { RateLimitState } from '../../src/api/retry.js';
import { ApiError, ConflictError, SctError } from '../../src/errors.js';

const units = (n: number): Unit<number>[] => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, lines: [i + 2], payload: i }));
const tick = () => new Promise((r) => setTimeout(r, 1));

/** Runs `fn` with journals opened in a fresh directory (one per file name), removed after. */
async function withJournals(fn: (open: (file?: string) => Journal) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sct-runner-'));
  try {
    await fn((file = 'f.csv') => Journal.open(dir, { command: 'test', file, baseUrl: 'http://x/api', user: 1, workspace: 1 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Notes each write the journal makes from here on, as its records' "key status", into `writes`. */
function noteWrites(journal: Journal, writes: string[][]): Journal {
  const recordAll = journal.recordAll.bind(journal);
  journal.recordAll = (entries) => {
    writes.push(entries.map((e) => `${e.key} ${e.status}`));
    recordAll(entries);
  };
  return journal;
}

/** A work function that answers unit i after (n - i) ticks (the last first) and notes what was in flight. */
function recorder(n: number, onAnswer?: (i: number) => void) {
  let inFlight = 0;
  const seen = { most: 0, started: [] as number[], answered: [] as number[] };
  const work = async (u: Unit<number>) => {
    seen.started.push(u.payload);
    seen.most = Math.max(seen.most, ++inFlight);
    for (let t = 0; t < n - u.payload; t++) await tick();
    inFlight--;
    seen.answered.push(u.payload);
    onAnswer?.(u.payload);
    if (u.payload % 3 === 1) throw new ApiError('rejected', 400, {}, null);
    return { id: u.payload * 10 };
  };
  return { seen, work };
}

describe('runUnits', () => {
  it('keeps up to `concurrency` in flight and reports in the units order, answers in any order', async () => {
    await withJournals(async (open) => {
      const journal = open();
      const { seen, work } = recorder(8);
      const r = await runUnits(units(8), { concurrency: 4, signal: new AbortController().signal, journal, work });
      expect(seen.most).toBe(4);
      expect(seen.answered).not.toEqual(seen.started);
      expect(r.outcomes.map((o) => o.key)).toEqual(units(8).map((u) => u.key));
      expect(r.outcomes.map((o) => o.status)).toEqual(['created', 'rejected', 'created', 'created', 'rejected', 'created', 'created', 'rejected']);
      // The journal holds every unit as sent before it started, then its answer, in the order the answers came.
      const records = readFileSync(journal.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { key: string; status: string });
      expect(records.filter((r) => r.status !== 'unknown').map((r) => r.key)).toEqual(seen.answered.map((i) => `k${i}`));
      expect(records.filter((r) => r.status === 'unknown').map((r) => r.key)).toEqual(seen.started.map((i) => `k${i}`));
      for (const [i, r] of records.entries()) {
        if (r.status !== 'unknown') expect(records.findIndex((x) => x.key === r.key && x.status === 'unknown')).toBeLessThan(i);
      }
    });
  });

  it("writes a unit's record as sent before its request, in the same write as the answer before it", async () => {
    await withJournals(async (open) => {
      const writes: string[][] = [];
      const journal = noteWrites(open(), writes);
      const onDisk: string[][] = [];
      const work = async (u: Unit<number>) => {
        onDisk.push(readFileSync(journal.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l).key + ' ' + JSON.parse(l).status));
        await tick();
        return { id: u.payload };
      };
      await runUnits(units(3), { concurrency: 1, signal: new AbortController().signal, journal, work });
      expect(onDisk.map((records) => records.at(-1))).toEqual(['k0 unknown', 'k1 unknown', 'k2 unknown']);
      expect(writes).toEqual([['k0 unknown'], ['k0 done', 'k1 unknown'], ['k1 done', 'k2 unknown'], ['k2 done']]);
    });
  });

  it('puts the first requests on record as sent in one write; a run stopped before it sends records nothing', async () => {
    await withJournals(async (open) => {
      const writes: string[][] = [];
      const journal = noteWrites(open(), writes);
      const { work } = recorder(8);
      await runUnits(units(8), { concurrency: 4, signal: new AbortController().signal, journal, work });
      expect(writes[0]).toEqual(['k0 unknown', 'k1 unknown', 'k2 unknown', 'k3 unknown']);
      expect(writes.slice(1).flat().filter((w) => w.endsWith(' unknown'))).toEqual(['k4 unknown', 'k5 unknown', 'k6 unknown', 'k7 unknown']);

      writes.length = 0;
      const stopped = new AbortController();
      stopped.abort();
      const again = noteWrites(open('g.csv'), writes);
      const r = await runUnits(units(3), { concurrency: 2, signal: stopped.signal, journal: again, work });
      expect(r.outcomes.map((o) => o.status)).toEqual(['not_sent', 'not_sent', 'not_sent']);
      // Stopped before anything was sent: nothing put on record.
      expect(writes).toEqual([]);
      expect(again.wasUnknown('k0')).toBe(false);
    });
  });

  it('clears the record as sent of a unit that ended in a conflict or before it left; keeps it for one whose answer was lost', async () => {
    await withJournals(async (open) => {
      const journal = open();
      const work = async (u: Unit<number>) => {
        await tick();
        if (u.payload === 0) throw new ConflictError('changed since the plan');
        throw Object.assign(new SctError('the connection broke'), { delivery: u.payload === 1 ? 'not_sent' : 'unknown' });
      };
      const r = await runUnits(units(3), { concurrency: 3, signal: new AbortController().signal, journal, work });
      expect(r.outcomes.map((o) => o.status)).toEqual(['conflict', 'not_sent', 'unknown']);
      const again = open();
      expect(['k0', 'k1', 'k2'].map((k) => again.wasUnknown(k))).toEqual([false, false, true]);
    });
  });

  it('sends one at a time, in order, while Remaining is below the concurrency', async () => {
    const rateLimit: RateLimitState = { remaining: 3 };
    const { seen, work } = recorder(6);
    await runUnits(units(6), { concurrency: 4, signal: new AbortController().signal, work, rateLimit });
    expect(seen.most).toBe(1);
    expect(seen.started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('goes back to `concurrency` in flight once an answer shows the budget again', async () => {
    const rateLimit: RateLimitState = { remaining: 1 };
    // The first answer comes after the reset: a full hour's budget.
    const { seen, work } = recorder(9, () => (rateLimit.remaining = 1000));
    await runUnits(units(9), { concurrency: 4, signal: new AbortController().signal, work, rateLimit });
    expect(seen.started[0]).toBe(0);
    expect(seen.most).toBe(4);
  });

  it('a unit that waited for its turn when Ctrl-C came is not sent', async () => {
    const rateLimit: RateLimitState = { remaining: 0 };
    const stop = new AbortController();
    const { seen, work } = recorder(5, () => stop.abort());
    const r = await runUnits(units(5), { concurrency: 4, signal: stop.signal, work, rateLimit });
    expect(seen.started).toEqual([0]);
    expect(r.interrupted).toBe(true);
    expect(r.outcomes.map((o) => o.status)).toEqual(['created', 'not_sent', 'not_sent', 'not_sent', 'not_sent']);
  });
});
