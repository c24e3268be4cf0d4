// A chunked run's outcomes are kept as a status and an id per row and made into outcomes only
// as they are read: the same outcomes, in line order, as an array of them would give.
import { describe, expect, it } from 'vitest';
import { RowOutcomes, type ChunkRow } from '../../src/bulk/chunks.js';

const rows = (lines: number[]): ChunkRow<{ n: number }>[] => lines.map((line) => ({ key: `k${line}`, line, payload: { n: line } }));

describe('RowOutcomes', () => {
  it('reads back each row in line order, whatever order the answers came in; a row never set is not_sent', () => {
    const all = rows([2, 3, 5, 9]);
    const outcomes = new RowOutcomes(all);
    outcomes.set(all[3], 'created', 'a1b2');
    outcomes.set(all[0], 'rejected', undefined, 'rejected', { email: ['Enter a valid email address.'] });
    outcomes.set(all[1], 'skipped', 17);
    expect(outcomes.length).toBe(4);
    expect(outcomes.statusOf(all[1])).toBe('skipped');
    expect([...outcomes]).toEqual([
      { key: 'k2', lines: [2], status: 'rejected', id: undefined, error: 'rejected', fields: { email: ['Enter a valid email address.'] } },
      { key: 'k3', lines: [3], status: 'skipped', id: 17, error: undefined, fields: undefined },
      { key: 'k5', lines: [5], status: 'not_sent', id: undefined, error: undefined, fields: undefined },
      { key: 'k9', lines: [9], status: 'created', id: 'a1b2', error: undefined, fields: undefined },
    ]);
    // A row set again keeps only its last outcome, its error too.
    outcomes.set(all[0], 'created', 4);
    expect([...outcomes][0]).toEqual({ key: 'k2', lines: [2], status: 'created', id: 4, error: undefined, fields: undefined });
  });

  it('takes rows out of line order and reads them in it', () => {
    const all = rows([7, 2, 4]);
    const outcomes = new RowOutcomes(all);
    outcomes.set(all[0], 'unknown', undefined, 'the connection was lost');
    outcomes.set(all[2], 'skipped', 3);
    expect(outcomes.statusOf(all[2])).toBe('skipped');
    expect(outcomes.statusOf(all[1])).toBe('not_sent');
    expect([...outcomes].map((o) => [o.lines[0], o.status, o.id])).toEqual([
      [2, 'not_sent', undefined],
      [4, 'skipped', 3],
      [7, 'unknown', undefined],
    ]);
  });

  it('refuses a row that is not one of the run', () => {
    const outcomes = new RowOutcomes(rows([2, 3]));
    expect(() => outcomes.set({ key: 'x', line: 4, payload: { n: 4 } }, 'created')).toThrow('line 4 is not a row of this run');
  });

  it('reads back a million rows, every third created', () => {
    const all = rows(Array.from({ length: 1_000_000 }, (_, i) => i + 2));
    const outcomes = new RowOutcomes(all);
    for (let i = 0; i < all.length; i += 3) outcomes.set(all[i], 'created', i);
    let created = 0;
    for (const o of outcomes) if (o.status === 'created') created++;
    expect(created).toBe(333_334);
  });
});
