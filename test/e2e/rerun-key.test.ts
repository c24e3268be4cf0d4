// A single create whose answer never came (a 500 after the service may have acted, a signal once
// the request was out) may have been carried out: sct says so, and gives the Idempotency-Key
// it sent, so the same command run with it learns the outcome instead of creating a twin. The
// built sct against a server on 127.0.0.1 that records the key of each request.
import { beforeEach, describe, expect, it } from 'vitest';
import { runSct, spawnSct } from '../helpers/sct.js';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';

const keys: string[] = [];
/**
 * What POST /api/origins does: answer 500, never answer, answer 201 without the object's id, or
 * never answer the first and ask the retries to come back in two hours (503, Retry-After).
 */
let mode: 'fail' | 'hang' | 'noid' | 'hang-then-later' = 'fail';

const server = useLocalServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'POST') keys.push(String(req.headers['idempotency-key']));
    if (req.method === 'POST' && mode === 'hang') return;
    if (req.method === 'POST' && mode === 'hang-then-later') {
      if (keys.length === 1) return;
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '7200' });
      return res.end(JSON.stringify({ detail: 'Down for maintenance.' }));
    }
    if (req.method === 'POST' && mode === 'noid') {
      res.writeHead(201, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ name: 'Plot A' }));
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ detail: 'Internal error after the commit.' }));
  });
});
const run = useServerEnv(server);

beforeEach(() => {
  keys.length = 0;
  mode = 'fail';
});

const CREATE = ['origins', 'create', '--name', 'Plot A', '--country-code', 'CI', '--location', '6.8,-5.2'];

describe('a create whose answer came without the object', () => {
  it('a 201 without an id: the hint sends the user to the list, not to a rerun that would get the same answer', async () => {
    mode = 'noid';
    const r = await runSct(CREATE, { env: run.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('without the created object (no id): it may or may not have been created');
    expect(r.stderr).toContain('hint: list them to see whether it was created before running the command again');
    expect(r.stderr).not.toContain('its answer never came');
  });
});

describe('a create whose answer never came', () => {
  it('a 500 on the create: exit 1, and the hint gives the key it was sent under', async () => {
    const r = await runSct(CREATE, { env: run.env() });
    expect(r.exitCode).toBe(1);
    expect(keys).toHaveLength(1);
    // The 500 came: it says nothing of whether the create was done.
    expect(r.stderr).toContain(`hint: it may have been created (the service answered 500): run the same command with --idempotency-key ${keys[0]} to get its outcome without creating it twice`);
    // A key the user gave is in the command already: running it again is enough.
    const again = await runSct([...CREATE, '--idempotency-key', 'plot-a-1'], { env: run.env() });
    expect(again.stderr).toContain('hint: it may have been created (the service answered 500): run the same command again (it sends the same key) to get its outcome without creating it twice');
    const api = await runSct(['api', '/origins', '-f', 'name=x', '-H', 'Idempotency-Key: mine-1'], { env: run.env() });
    expect(api.stderr).toContain('run the same command again (it sends the same key)');
    expect(api.stderr).not.toContain("-H 'Idempotency-Key: mine-1'");
  });

  it('no answer, then a wait past --max-wait before the retry: both hints, the key among them', async () => {
    mode = 'hang-then-later';
    const r = await runSct([...CREATE, '--timeout', '1s'], { env: run.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('longer than --max-wait');
    expect(r.stderr).toContain(`run the same command with --idempotency-key ${keys[0]} to get its outcome without creating it twice`);
  });

  it('sct api: the hint names the header', async () => {
    const r = await runSct(['api', '/origins', '-f', 'name=x'], { env: run.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`-H 'Idempotency-Key: ${keys[0]}' to get its outcome without doing it twice`);
  });

  it('stopped by SIGTERM once the create was out: exit 143, and the same hint', async () => {
    mode = 'hang';
    const child = spawnSct(CREATE, { env: run.env() });
    for (let waited = 0; keys.length === 0 && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode).toBe(143);
    expect(String(r.stderr)).toContain('error: stopped by SIGTERM');
    expect(String(r.stderr)).toContain(`--idempotency-key ${keys[0]} to get its outcome`);
  });

  it('a create that could not be sent (nothing listens) gives no such hint', async () => {
    const r = await runSct(CREATE, { env: { ...run.env(), SCT_BASE_URL: 'http://127.0.0.1:1/api' } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('--idempotency-key');
  });
});
