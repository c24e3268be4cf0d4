// The journal's table of units done: what it gives back is what was put in, whatever the id's
// kind, through growth, replacement and a unit's record no longer holding.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DoneTable } from '../../src/bulk/done-table.js';

describe('DoneTable', () => {
  it('gives back each id as it was put in, of every kind', () => {
    const ids: (string | number | undefined)[] = [
      '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '3F2504E0-4F89-41D3-9A0C-0305E82C3301',
      '3f2504e0-4f89-41d3-9a0c-0305e82c330',
      'not a uuid',
      '',
      0,
      42,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 40 + 7,
      Number.MAX_SAFE_INTEGER,
      -1,
      1.5,
      2 ** 60,
      undefined,
    ];
    const t = new DoneTable();
    ids.forEach((id, i) => t.set(`email:${i}@example.com`, id, `sent ${i % 3}`));
    ids.forEach((id, i) => expect(t.get(`email:${i}@example.com`)).toEqual({ id, sent: `sent ${i % 3}` }));
    expect(t.size).toBe(ids.length);
  });

  it('keeps every key through its growth, and knows no other', () => {
    const t = new DoneTable();
    const n = 50_000;
    for (let i = 0; i < n; i++) t.set(`email:someone.${i}@example.com`, i % 2 ? i : `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, undefined);
    expect(t.size).toBe(n);
    for (let i = 0; i < n; i++) expect(t.get(`email:someone.${i}@example.com`)?.id).toBe(i % 2 ? i : `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(t.get(`email:someone.${n}@example.com`)).toBeUndefined();
    expect(t.has('email:someone.1@example.co')).toBe(false);
  });

  it('replaces a record, forgets a deleted one and takes it again', () => {
    const t = new DoneTable();
    t.set('row 1', 'a', 'k1');
    t.set('row 1', 7, 'k2');
    expect(t.get('row 1')).toEqual({ id: 7, sent: 'k2' });
    expect(t.size).toBe(1);
    t.delete('row 1');
    t.delete('row 1');
    expect(t.has('row 1')).toBe(false);
    expect(t.get('row 1')).toBeUndefined();
    expect(t.size).toBe(0);
    t.set('row 1', 'b', undefined);
    expect(t.get('row 1')).toEqual({ id: 'b', sent: undefined });
    expect(t.size).toBe(1);
  });

  it('keeps keys apart that differ only in a lone surrogate, which UTF-8 would make one', () => {
    const t = new DoneTable();
    t.set('ext:LS-\ud800', 163, 'k1');
    expect(t.get('ext:LS-\udc00')).toBeUndefined();
    expect(t.get('ext:LS-\ufffd')).toBeUndefined();
    expect(t.has('ext:LS-\ud800')).toBe(true);
    t.set('ext:LS-\ufffd', 164, 'k2');
    t.set('ext:LS-\udc00', 165, 'k3');
    expect([t.get('ext:LS-\ud800')?.id, t.get('ext:LS-\ufffd')?.id, t.get('ext:LS-\udc00')?.id]).toEqual([163, 164, 165]);
    t.delete('ext:LS-\ud800');
    expect([t.has('ext:LS-\ud800'), t.has('ext:LS-\udc00'), t.size]).toEqual([false, true, 2]);
  });

  it('answers as a Map of the same records would', () => {
    const op = fc.oneof(
      fc.record({ set: fc.string({ maxLength: 4, unit: 'binary' }), id: fc.oneof(fc.uuid(), fc.nat(), fc.string(), fc.constant(undefined)), sent: fc.option(fc.string(), { nil: undefined }) }),
      fc.record({ del: fc.string({ maxLength: 4, unit: 'binary' }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const t = new DoneTable();
        const m = new Map<string, { id?: string | number; sent?: string }>();
        for (const o of ops) {
          if ('set' in o) {
            t.set(o.set, o.id, o.sent);
            m.set(o.set, { id: o.id, sent: o.sent });
          } else {
            t.delete(o.del);
            m.delete(o.del);
          }
        }
        expect(t.size).toBe(m.size);
        for (const o of ops) {
          const k = 'set' in o ? o.set : o.del;
          expect(t.get(k)).toEqual(m.get(k));
        }
      }),
    );
  });
});
