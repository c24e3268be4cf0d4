import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatWait } from '../../src/util/format.js';

describe('formatDuration: one style for every wait, timeout and limit', () => {
  it.each([
    [250, '250ms'],
    [1500, '1.5s'],
    [9_940, '9.9s'],
    [10_400, '10s'],
    [45_000, '45s'],
    [60_000, '1m'],
    [90_000, '1m 30s'],
    [3_599_000, '59m 59s'],
    [3_600_000, '1h'],
    [7_500_000, '2h 5m'],
    [86_400_000, '24h'],
    [2 * 86_400_000 + 3_600_000, '2d 1h'],
    [366 * 86_400_000, '366d'],
    [2 * 86_400_000 + 60_000, '2d 1h'],
  ])('%d ms is %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('formatWait: a wait in whole seconds, never told as shorter than it is', () => {
  it.each([
    [1, '1s'],
    [1500, '2s'],
    [59_001, '1m'],
    [89_200, '1m 30s'],
    // Past an hour it is told to the minute: rounded up too, never "1h 30m" for 1h 30m 29s.
    [5_429_000, '1h 31m'],
    [5_400_000, '1h 30m'],
    [3_600_001, '1h 1m'],
  ])('%d ms is %s', (ms, text) => expect(formatWait(ms)).toBe(text));
});

describe('formatBytes: powers of 1000, as the units say', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [12_345_678, '12 MB'],
    [3e12, '3.0 TB'],
    [1536, '1.5 kB'],
    [64 * 1024 * 1024, '67 MB'],
    [2_500_000_000, '2.5 GB'],
  ])('%d is %s', (n, text) => expect(formatBytes(n)).toBe(text));
});
