import { describe, expect, it } from 'vitest';
import { ID_MAX, isId, parseDuration, parseInteger } from '../../src/util/numbers.js';

describe('the id bound, one for every reader', () => {
  it('takes 0..2³¹−1 written as digits', () => {
    expect(ID_MAX).toBe(2 ** 31 - 1);
    expect(isId('0')).toBe(true);
    expect(isId('2147483647')).toBe(true);
    expect(isId('2147483648')).toBe(false);
    expect(isId('-1')).toBe(false);
    expect(isId('1.0')).toBe(false);
    expect(isId('admin')).toBe(false);
  });

  it('is what an id flag is checked against', () => {
    expect(parseInteger('2147483647', '--document')).toBe(ID_MAX);
    expect(() => parseInteger('2147483648', '--document')).toThrow('expected 0..2147483647');
  });
});

describe('a duration flag', () => {
  it('refuses a time that rounds to nothing, saying what it takes: 0 only where 0 means something', () => {
    expect(() => parseDuration('0.0004', '--timeout')).toThrow('invalid --timeout "0.0004": must be more than 0 (at least 1ms)');
    expect(() => parseDuration('0.0004', '--max-wait', { allowZero: true })).toThrow('invalid --max-wait "0.0004": must be 0 or at least 1ms');
    expect(parseDuration('0', '--max-wait', { allowZero: true })).toBe(0);
  });
});
