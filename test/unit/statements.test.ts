// The pure pieces of the statement commands: creation rules, date bounds, failure reasons,
// the available-orders wrapper and how bulk rows are grouped into chunks.
import { describe, expect, it } from 'vitest';
import { statementCreateSchema, statementUpdateSchema } from '../../src/api/schemas/statements.js';
import { dateTimeBound } from '../../src/commands/dds.js';
import { failureReason } from '../../src/commands/dds/wait.js';
import { ordersOf } from '../../src/commands/dds/trace.js';
import { chunkRows } from '../../src/bulk/chunks.js';

const RUN = '3f6c2a1e-8b4d-4c9a-9e2f-1a2b3c4d5e6f';
const issues = (body: unknown) => {
  const r = statementCreateSchema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};

describe('statement creation rules', () => {
  it('PPWR needs assessment runs and an identifier', () => {
    expect(issues({ type: 'PPWR' })).toEqual(['assessment_run_ids', 'dds_identifier']);
    expect(issues({ type: 'PPWR', assessment_run_ids: [], dds_identifier: 'P' })).toEqual(['assessment_run_ids']);
    expect(issues({ type: 'PPWR', assessment_run_ids: [RUN], dds_identifier: 'P' })).toEqual([]);
  });

  it('EUDR needs assessment runs only without an identifier; EUTR needs neither', () => {
    expect(issues({ type: 'EUDR' })).toEqual(['assessment_run_ids']);
    expect(issues({ type: 'EUDR', dds_identifier: '' })).toEqual(['assessment_run_ids']);
    expect(issues({ type: 'EUDR', dds_identifier: '25BE' })).toEqual([]);
    expect(issues({ type: 'EUDR', assessment_run_ids: [RUN] })).toEqual([]);
    expect(issues({ type: 'EUTR', assessment_run_ids: ['not-a-uuid'] })).toEqual(['assessment_run_ids.0']);
    expect(issues({ type: 'EUTR' })).toEqual([]);
  });

  it('keeps unknown fields on create and refuses them on update', () => {
    expect(statementCreateSchema.parse({ type: 'EUTR', extra: 1 })).toEqual({ type: 'EUTR', extra: 1 });
    expect(statementUpdateSchema.safeParse({ status: 'complete', orders: [1] }).success).toBe(false);
    expect(statementUpdateSchema.parse({ name: null })).toEqual({ name: null });
  });
});

describe('dateTimeBound', () => {
  it('turns a day into its first or last instant in UTC and keeps a date-time', () => {
    expect(dateTimeBound('2025-03-01', '--created-from', 'from')).toBe('2025-03-01T00:00:00Z');
    expect(dateTimeBound('2025-03-01', '--created-to', 'to')).toBe('2025-03-01T23:59:59.999999Z');
    expect(dateTimeBound('2025-03-01T14:30:00+01:00', '--created-to', 'to')).toBe('2025-03-01T14:30:00+01:00');
    expect(dateTimeBound(undefined, '--created-to', 'to')).toBeUndefined();
    expect(() => dateTimeBound('2025-02-30', '--created-from', 'from')).toThrow('invalid --created-from "2025-02-30"');
    expect(() => dateTimeBound('March', '--updated-to', 'to')).toThrow('expected YYYY-MM-DD or an ISO 8601 date-time');
  });
});

describe('failureReason', () => {
  it('reads the reason from dds_data, else shows what there is', () => {
    expect(failureReason({ reason: 'not found' })).toBe('not found');
    expect(failureReason({ error: 'boom' })).toBe('boom');
    expect(failureReason('plain text')).toBe('plain text');
    expect(failureReason({ code: 7 })).toBe('{"code":7}');
    expect(failureReason({})).toBe('the service gave no reason');
    expect(failureReason(null)).toBe('the service gave no reason');
    expect(failureReason({ reason: 'bad\u001b[31m red' })).not.toContain('\u001b');
  });
});

describe('ordersOf', () => {
  it('unwraps an available-orders element and takes a bare order as itself', () => {
    expect(ordersOf({ count: 2, results: [{ id: 1 }, { id: 2 }] })).toEqual([{ id: 1 }, { id: 2 }]);
    expect(ordersOf({ id: 3 })).toEqual([{ id: 3 }]);
  });
});

describe('chunkRows', () => {
  const row = (line: number, group: number) => ({ key: `k${line}`, line, payload: { group } });

  it('cuts rows into chunks of at most N in file order', () => {
    const rows = [1, 2, 3, 4, 5].map((l) => row(l, 0));
    expect(chunkRows(rows, 2).map((c) => c.map((r) => r.line))).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('never mixes groups in one chunk', () => {
    const rows = [row(1, 7), row(2, 8), row(3, 7), row(4, 7), row(5, 8)];
    expect(chunkRows(rows, 2, (p) => p.group).map((c) => c.map((r) => r.line))).toEqual([[1, 3], [4], [2, 5]]);
  });
});
