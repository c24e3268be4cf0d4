// The budget as answers tell it, when answers to requests in flight come in any order.
import { describe, expect, it } from 'vitest';
import { budgetPauseMs, recordRateLimit, type RateLimitState } from '../../src/api/retry.js';

const NOW = 1_800_000_000_000;
const headers = (remaining: number, reset: number) => ({ 'x-ratelimit-limit': '6', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset) });

describe('recordRateLimit', () => {
  it('within one window an older answer\'s higher Remaining never undoes a 0: the pause stays', () => {
    const state: RateLimitState = {};
    const reset = NOW / 1000 + 30;
    recordRateLimit(state, headers(0, reset), NOW);
    recordRateLimit(state, headers(1, reset), NOW);
    expect(state.remaining).toBe(0);
    expect(budgetPauseMs(state, NOW)).toBe(30_000);
  });

  it('a new window (a later reset) starts the count again', () => {
    const state: RateLimitState = {};
    recordRateLimit(state, headers(0, NOW / 1000 + 1), NOW);
    recordRateLimit(state, headers(5, NOW / 1000 + 61), NOW);
    expect(state.remaining).toBe(5);
  });
});
