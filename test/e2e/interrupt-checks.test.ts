// Ctrl-C is the user stopping sct, never an answer to report: doctor waiting on a service that
// does not answer, and risk evidence reading an answer that stalls, end with exit 130 and
// "interrupted" (both said exit 1 before: a failed check, an unexpected answer). And a wait's
// own deadline holds against a service that does not answer (dds wait ran on for minutes).
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });
const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  server.on('connection', (s: Socket) => sockets.add(s.on('close', () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
}

async function pressCtrlC(args: string[], baseUrl: string, env: Record<string, string> = {}) {
  const child = t.spawnSct(args, { env: { SCT_BASE_URL: baseUrl, ...env }, timeout: 20_000 });
  await new Promise((r) => setTimeout(r, 2000));
  child.kill('SIGINT');
  const r = await child;
  return { exitCode: r.exitCode, stderr: String(r.stderr), stdout: String(r.stdout) };
}

describe('Ctrl-C while an answer is awaited', () => {
  it('doctor against a service that accepts and never answers: exit 130, not a failed check', async () => {
    const url = await listen(createTcpServer(() => undefined) as unknown as Server);
    const r = await pressCtrlC(['doctor'], url);
    expect(r.exitCode, r.stdout + r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted');
    expect(r.stdout).not.toMatch(/check(s)? failed/);
  });

  it('risk evidence whose JSON answer stalls mid-body: exit 130, not "unexpected answer"', async () => {
    const url = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"url": "http');
      }),
    );
    const r = await pressCtrlC(['risk', 'evidence', '1', '--out', `${t.dir}/`], url);
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted');
    expect(r.stderr).not.toContain('unexpected answer');
  });
});

describe('Ctrl-C while origins check works through a plot that takes long', () => {
  it('ends sct at once, not when the check is done', async () => {
    // 3,000 thin strips whose boxes all meet: compared pair by pair, about ten seconds of work.
    const parts = Array.from({ length: 3000 }, (_, i) => {
      const x = -5.5 + i * 1e-5;
      return [[[x, 6.5], [x + 0.05, 6.55], [x + 0.050001, 6.55], [x + 0.000001, 6.5], [x, 6.5]]];
    });
    const file = t.writeFile('strips.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { ProducerCountry: 'CI', Area: 1 }, geometry: { type: 'MultiPolygon', coordinates: parts } }] }));
    const child = t.spawnSct(['origins', 'check', file], { timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 2500));
    const pressed = Date.now();
    child.kill('SIGINT');
    const r = await child;
    expect(Date.now() - pressed, String(r.stderr)).toBeLessThan(3000);
    expect(String(r.signal ?? r.exitCode)).toMatch(/SIGINT|130/);
  });
});

// A proxy variable set (the loopback service is not reached through it) has sct's requests made
// by another HTTP stack, which ends a body cut short by the stop with its own error.
describe('Ctrl-C while an answer arrives, a proxy variable set', () => {
  const PROXY = { HTTPS_PROXY: 'http://proxy.invalid:3128', HTTP_PROXY: 'http://proxy.invalid:3128' };
  const stalling = () =>
    createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"url": "http');
    });

  it('risk evidence whose JSON answer stalls mid-body: exit 130, "interrupted"', async () => {
    const r = await pressCtrlC(['risk', 'evidence', '1', '--out', `${t.dir}/`], await listen(stalling()), PROXY);
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted');
    expect(r.stderr).not.toContain('connection broke');
  });

  it('a bulk run whose answer stalls mid-body: exit 130, its rows unknown', async () => {
    const file = t.writeFile('stall-people.csv', 'email,auth_group\nstall@example.org,3\n');
    // Reads go to the sandbox; the write's answer stalls.
    const front = createServer((req, res) => {
      if (req.method === 'POST') {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"results": [');
        return;
      }
      void fetch(new URL(req.url!, t.sb.url).href, { headers: { authorization: req.headers.authorization ?? '' } }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    const r = await pressCtrlC(['invitations', 'bulk-create', '--file', file], await listen(front), PROXY);
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted: 1 invitation without an answer');
  });

  it('a download whose file stalls mid-body: exit 130, "interrupted", no file', async () => {
    const sandbox = new URL(t.sb.url).origin;
    let front = '';
    const server = createServer((req, res) => {
      if (req.url!.includes('_downloads')) {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '100000' });
        res.write('%PDF-1.4 ');
        return;
      }
      void fetch(sandbox + req.url, { headers: { authorization: req.headers.authorization ?? '' } }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end((await answer.text()).replaceAll(sandbox, front));
      });
    });
    const url = await listen(server);
    front = new URL(url).origin;
    const out = `${t.dir}/stalled.pdf`;
    const r = await pressCtrlC(['documents', 'download', '4', '--out', out], url, PROXY);
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted');
    expect(r.stderr).not.toContain('connection broke');
    expect(existsSync(out)).toBe(false);
  });
});

describe('dds wait --timeout against a service that does not answer', () => {
  it('ends at the wait\'s deadline, not after each poll\'s own timeout and retries', async () => {
    const url = await listen(createTcpServer(() => undefined) as unknown as Server);
    const started = Date.now();
    const r = await t.sctBin(['dds', 'wait', '1', '--timeout', '2s'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('timed out after 2s: statement 1 did not answer');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a poll the service asks to wait longer than is left (a 429, a 503 with Retry-After): said at once, no wait announced', async () => {
    for (const [status, text] of [[429, 'Too Many Requests'], [503, 'Service Unavailable']] as const) {
      const url = await listen(
        createServer((req, res) => {
          req.resume();
          res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '60' });
          res.end(JSON.stringify({ detail: 'Wait.' }));
        }),
      );
      const started = Date.now();
      const r = await t.sctBin(['dds', 'wait', '1', '--timeout', '2s'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
      expect(Date.now() - started, r.stderr).toBeLessThan(1800);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain(`error: GET /due-diligence-statements/1: the service answered ${status} ${text} and asked sct to wait 1m, more than is left of --timeout 2s\n`);
      expect(r.stderr).toContain('hint: wait longer with `sct dds wait 1 --timeout 30m`');
      expect(r.stderr).not.toContain('waiting');
      expect(r.stderr).not.toContain('did not answer');
    }
    // The hint's limit outlasts the wait asked for; a wait past a day is no limit to give.
    for (const [after, hint] of [['3600', 'hint: wait longer with `sct dds wait 1 --timeout 65m --max-wait 65m`'], ['864000', 'hint: the service asks for a wait of more than a day: ask again later with `sct dds wait 1`']] as const) {
      const url = await listen(
        createServer((req, res) => {
          req.resume();
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': after });
          res.end(JSON.stringify({ detail: 'Wait.' }));
        }),
      );
      const r = await t.sctBin(['dds', 'wait', '1', '--timeout', '45m'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain(hint);
    }
  });

  it('a rate-limit wait a poll makes is said by its cause: a Retry-After is the service asking, not a budget to reset', async () => {
    let gets = 0;
    const url = await listen(
      createServer((req, res) => {
        req.resume();
        if (++gets === 1) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
          return res.end(JSON.stringify({ detail: 'Slow down.' }));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 5, type: 'EUDR', status: 'complete', dds_identifier: '25ABC', dds_data: {} }));
      }),
    );
    const r = await t.sctBin(['dds', 'wait', '5', '--timeout', '5s', '--json', 'id,status'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('rate limit reached: waiting 1s as the service asks\n');
    expect(r.stderr).not.toContain('budget');
  });
});

describe('dds create --wait --timeout bounds the create too', () => {
  const RUN = '3f6c2a1e-8b4d-4c9a-9e2f-1a2b3c4d5e6f';

  it('a create that is never answered ends at the deadline: may have been created, with the key a rerun sends', async () => {
    const url = await listen(createTcpServer(() => undefined) as unknown as Server);
    const create = ['dds', 'create', '--type', 'EUDR', '--assessment-run-id', RUN, '--wait', '--timeout', '3s'];
    const started = Date.now();
    const r = await t.sctBin(create, { env: { SCT_BASE_URL: url }, timeout: 60_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.exitCode, r.stderr).toBe(1);
    // The limit the user gave, not the per-request 30 s the create had kept.
    expect(r.stderr).toContain('error: POST /due-diligence-statements: no complete answer within 3s (--timeout)\n');
    expect(r.stderr).toMatch(/hint: it may have been created \(its answer never came\): run the same command with --idempotency-key [0-9a-f-]{36} to get its outcome without creating it twice/);
    expect(r.stdout).toBe('');

    const given = await t.sctBin([...create, '--idempotency-key', 'cocoa-q3'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
    expect(given.exitCode, given.stderr).toBe(1);
    expect(given.stderr).toContain('hint: it may have been created (its answer never came): run the same command again (it sends the same key)');
  });

  it('a create the service asks to wait longer than the limit allows: said at once, with the status, the wait and the requests sent', async () => {
    for (const [status, text, wait] of [[429, 'Too Many Requests', '1m 1s'], [503, 'Service Unavailable', '1m 1s']] as const) {
      let posts = 0;
      const url = await listen(
        createServer((req, res) => {
          req.resume();
          posts++;
          res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '61' });
          res.end(JSON.stringify({ detail: 'Wait.' }));
        }),
      );
      const started = Date.now();
      const r = await t.sctBin(['dds', 'create', '--type', 'EUDR', '--assessment-run-id', RUN, '--wait', '--timeout', '3s'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
      // Not slept out: the wait asked for is longer than the whole limit.
      expect(Date.now() - started, r.stderr).toBeLessThan(2500);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain(`error: POST /due-diligence-statements: the service answered ${status} ${text} and asked sct to wait ${wait}, more than is left of --timeout 3s\n`);
      expect(r.stderr).not.toContain('no complete answer');
      expect(r.stderr).not.toContain('waiting');
      // Refused before it was looked at: nothing was created, no key to rerun with.
      expect(r.stderr).not.toContain('--idempotency-key');
      expect(posts).toBe(1);
    }
  });

  it('a wait the service asks of the create is said by its own figure, and judged against the limit by it, not by the margin sct adds', async () => {
    // Retry-After 1, then 3 (more than is left of 3 s); or 2.8 alone (less than is left, though
    // not with sct's quarter second on top). Then the statement.
    for (const asked of [['1', '3'], ['2.8']]) {
      let posts = 0;
      const url = await listen(
        createServer((req, res) => {
          req.resume();
          if (req.method === 'POST' && posts < asked.length) {
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': asked[posts++] });
            return res.end(JSON.stringify({ detail: 'Slow down.' }));
          }
          if (req.method === 'POST') posts++;
          res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 5, type: 'EUDR', status: req.method === 'POST' ? 'pending' : 'complete', dds_identifier: '25ABC', dds_data: {} }));
        }),
      );
      const r = await t.sctBin(['dds', 'create', '--type', 'EUDR', '--dds-identifier', '25ABC', '--wait', '--timeout', '3s', '--json', 'id,status'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
      if (asked.length === 2) {
        expect(r.stderr).toMatch(/rate limit reached: waiting 1s\b/);
        expect(r.stderr).not.toContain('waiting 2s');
        expect(r.exitCode, r.stderr).toBe(1);
        expect(r.stderr).toContain('error: POST /due-diligence-statements: the service answered 429 Too Many Requests and asked sct to wait 3s, more than is left of --timeout 3s (after 2 attempts)\n');
        expect(posts).toBe(2);
      } else {
        expect(r.stderr).toMatch(/rate limit reached: waiting 3s\b/);
        expect(r.exitCode, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toEqual({ id: 5, status: 'complete' });
        expect(posts).toBe(2);
      }
    }
  });

  it('after the create, a poll the service asks to wait longer than is left: said at once, the statement printed, exit 1', async () => {
    const url = await listen(
      createServer((req, res) => {
        req.resume();
        if (req.method === 'POST') {
          res.writeHead(201, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ id: 5, type: 'EUDR', status: 'pending', dds_identifier: '25ABC', dds_data: {} }));
        }
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
        res.end(JSON.stringify({ detail: 'Slow down.' }));
      }),
    );
    const started = Date.now();
    const r = await t.sctBin(['dds', 'create', '--type', 'EUDR', '--dds-identifier', '25ABC', '--wait', '--timeout', '3s', '--json', 'id,status'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
    expect(Date.now() - started, r.stderr).toBeLessThan(2500);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ id: 5, status: 'pending' });
    expect(r.stderr).toContain('error: GET /due-diligence-statements/5: the service answered 429 Too Many Requests and asked sct to wait 30s, more than is left of --timeout 3s\n');
    expect(r.stderr).toContain('hint: wait longer with `sct dds wait 5 --timeout 30m`');
    expect(r.stderr).not.toContain('waiting');
  });

  it('after two 502s, a 503 asking for more than the limit: "after 3 attempts", as three were sent, and the key to learn the outcome', async () => {
    let posts = 0;
    const url = await listen(
      createServer((req, res) => {
        req.resume();
        const status = ++posts < 3 ? 502 : 503;
        res.writeHead(status, { 'content-type': 'application/json', ...(status === 503 ? { 'retry-after': '61' } : {}) });
        res.end(JSON.stringify({ detail: 'Busy.' }));
      }),
    );
    const r = await t.sctBin(['dds', 'create', '--type', 'EUDR', '--assessment-run-id', RUN, '--wait', '--timeout', '5s'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(posts).toBe(3);
    expect(r.stderr).toContain('error: POST /due-diligence-statements: the service answered 503 Service Unavailable and asked sct to wait 1m 1s, more than is left of --timeout 5s (after 3 attempts)\n');
    // A 502 may come after the service did the work.
    expect(r.stderr).toMatch(/hint: it may have been created \(.*\): run the same command with --idempotency-key [0-9a-f-]{36}/);
  });

  it('the wait after a slow create gets what is left of --timeout, not all of it again', async () => {
    const url = await listen(
      createServer((req, res) => {
        req.resume();
        // The create is answered after 4 s; the statement's polls never are.
        if (req.method !== 'POST') return;
        setTimeout(() => {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 7, type: 'EUDR', status: 'in_progress', dds_identifier: null, dds_data: {} }));
        }, 4000);
      }),
    );
    const started = Date.now();
    const r = await t.sctBin(['dds', 'create', '--type', 'EUDR', '--assessment-run-id', RUN, '--wait', '--timeout', '5s', '--json', 'id,status'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
    const took = Date.now() - started;
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('timed out after 5s: statement 7 did not answer');
    expect(JSON.parse(r.stdout)).toEqual({ id: 7, status: 'in_progress' });
    // 5 s in all (the poll at the deadline gets a second more), not 4 s + 5 s.
    expect(took).toBeLessThan(8000);
  });
});
