import { describe, expect, it } from 'vitest';
import { hasOffset, instantOf } from '../../src/util/dates.js';

describe('instantOf', () => {
  it('reads an offset-less date-time in UTC, whatever the process zone', () => {
    expect(instantOf('2025-12-23T09:00:00')).toBe(Date.UTC(2025, 11, 23, 9));
    expect(instantOf('2025-12-23 09:00')).toBe(Date.UTC(2025, 11, 23, 9));
    expect(instantOf('2025-12-23T09:00:00.500Z')).toBe(Date.UTC(2025, 11, 23, 9, 0, 0, 500));
    expect(instantOf('2025-12-23T10:00:00+01:00')).toBe(Date.UTC(2025, 11, 23, 9));
    expect(instantOf('2025-12-23')).toBe(Date.UTC(2025, 11, 23));
  });

  it('is NaN for a day its month lacks, an hour past 23, or any other text', () => {
    for (const bad of ['2026-02-30T10:00:00Z', '2026-02-29', '2025-13-01', '2025-01-01T24:00', 'yesterday', '1 Jan 2025', '']) expect(instantOf(bad), bad).toBeNaN();
    expect(instantOf('2024-02-29T00:00Z')).toBe(Date.UTC(2024, 1, 29));
  });

  it('hasOffset', () => {
    expect(['2025-01-01T00:00Z', '2025-01-01T00:00+02:00', '2025-01-01T00:00-0500'].map(hasOffset)).toEqual([true, true, true]);
    expect(['2025-01-01T00:00', '2025-01-01'].map(hasOffset)).toEqual([false, false]);
  });
});
