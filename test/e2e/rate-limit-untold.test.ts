// A 429 that says neither Retry-After nor X-RateLimit-Reset: sct backs off on its own, and when
// that is longer than --max-wait it says the service gave no reset time, never a reset time of
// its own making as if the service had said it. The built sct against a server on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { runSct } from '../helpers/sct.js';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';

/** A server answering every request 429 with these headers, and the env to run sct against it. */
function throttling(headers: Record<string, string> = {}) {
  return useServerEnv(
    useLocalServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(429, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify({ detail: 'Request was throttled.' }));
      });
    }),
  );
}

const run = throttling();

describe('a 429 that gives no time', () => {
  it('past --max-wait: exit 1, "the service gave no reset time"', { timeout: 30_000 }, async () => {
    const r = await runSct(['origins', 'create', '--name', 'Plot A', '--country-code', 'CI', '--location', '6.8,-5.2', '--max-wait', '2s'], { env: run.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('rate limit exhausted, and the service gave no reset time');
    expect(r.stderr).not.toContain('the budget resets');
  });
});

const runZero = throttling({ 'retry-after': '0' });

describe('a 429 whose Retry-After is 0', () => {
  it('the waits are sct\'s own back-off, never said as the service asking for them', { timeout: 30_000 }, async () => {
    const r = await runSct(['dds', 'wait', '5', '--timeout', '4s'], { env: runZero.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('as the service asks');
    expect(r.stderr).not.toMatch(/asked sct to wait/);
    expect(r.stderr).toContain('gave no reset time');
  });
});

const runHour = throttling({ 'retry-after': '3600' });

describe('a 429 that gives a Retry-After alone', () => {
  it('past --max-wait: said as the service asking for the wait, not as a budget that resets', { timeout: 30_000 }, async () => {
    const r = await runSct(['whoami', '--max-wait', '2s'], { env: runHour.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/rate limit reached: the service asks sct to retry at .* \(in 1h\), longer than --max-wait/);
    expect(r.stderr).not.toContain('the budget resets');
  });

  it('dds wait beyond its limit: the rerun the hint gives outlasts the wait under --max-wait too', { timeout: 30_000 }, async () => {
    const r = await runSct(['dds', 'wait', '5', '--timeout', '45m'], { env: runHour.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('hint: wait longer with `sct dds wait 5 --timeout 65m --max-wait 65m`');
  });
});

const runPastReset = throttling({ 'retry-after': '3600', 'x-ratelimit-reset': '1000000000' });

describe('a 429 whose Retry-After is later than its X-RateLimit-Reset (already past)', () => {
  it('the wait is the Retry-After\'s, said as the service asking, not as the budget\'s reset', { timeout: 30_000 }, async () => {
    const r = await runSct(['whoami', '--max-wait', '2s'], { env: runPastReset.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/rate limit reached: the service asks sct to retry at .* \(in 1h\)/);
  });
});
