// Ctrl-C is the user stopping sct, never an answer to report: doctor waiting on a service that
// does not answer, and risk evidence reading an answer that stalls, end with exit 130 and
// "interrupted" (both said exit 1 before: a failed check, an unexpected answer). And a wait's
// own deadline holds against a service that does not answer (dds wait ran on for minutes).
import { afterEach, describe, expect, it } from 'vitest';
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

async function pressCtrlC(args: string[], baseUrl: string) {
  const child = t.spawnSct(args, { env: { SCT_BASE_URL: baseUrl }, timeout: 20_000 });
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

describe('dds wait --timeout against a service that does not answer', () => {
  it('ends at the wait\'s deadline, not after each poll\'s own timeout and retries', async () => {
    const url = await listen(createTcpServer(() => undefined) as unknown as Server);
    const started = Date.now();
    const r = await t.sctBin(['dds', 'wait', '1', '--timeout', '2s'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('timed out after 2s: statement 1 did not answer');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('ends at the deadline while the service asks it to wait (a 429, a 503 with Retry-After), and says that', async () => {
    for (const [status, said] of [[429, 'rate limit reached'], [503, 'service unavailable']] as const) {
      const url = await listen(
        createServer((req, res) => {
          req.resume();
          res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '60' });
          res.end(JSON.stringify({ detail: 'Wait.' }));
        }),
      );
      const r = await t.sctBin(['dds', 'wait', '1', '--timeout', '2s'], { env: { SCT_BASE_URL: url }, timeout: 60_000 });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`timed out after 2s: the service asked sct to wait 1m( \\ds)? \\(${said}\\) before asking about statement 1 again`));
      expect(r.stderr).not.toContain('did not answer');
    }
  });
});
