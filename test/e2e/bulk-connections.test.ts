// A bulk run opens the connections its requests in flight will use while it asks who the token
// acts for (GET /accounts/me), so over a far link the first chunks do not wait a round trip (two
// with TLS) for their connections after that answer; and the connection that GET takes while it
// reads and checks its file. It sends nothing before the file is checked, and opens no more
// connections than the requests it will have in flight.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { startRelay, type Relay } from '../helpers/relay.js';

const t = useSandbox({}, { inProcess: true });
let run = 0;

/** A TCP relay in front of the sandbox that counts the connections made through it. */
let relay: Relay;
beforeEach(async () => {
  run++;
  relay = await startRelay(t.sb.port);
});
afterEach(() => relay.close());

function people(n: number, bad = false): string {
  const lines = ['email,auth_group'];
  for (let i = 0; i < n; i++) lines.push(`p${i}@conn${run}.example,${bad && i === n - 1 ? '' : '3'}`);
  return t.writeFile('people.csv', lines.join('\n') + '\n');
}

/** Holds GET /accounts/me until `want` connections are open (or half a second has passed), and notes how many were. */
function holdMe(want: number): { atMe: number[] } {
  const seen = { atMe: [] as number[] };
  t.sb.setBeforeHandle(async ({ method, path }) => {
    if (method !== 'GET' || path !== '/accounts/me') return;
    for (let i = 0; i < 20 && relay.connections < want; i++) await new Promise((r) => setTimeout(r, 25));
    seen.atMe.push(relay.connections);
  });
  return seen;
}

const bulk = (file: string, ...more: string[]) => t.sct(['invitations', 'bulk-create', '--file', file, ...more], { env: { SCT_BASE_URL: relay.url } });

describe('bulk-create connections', () => {
  it('has its four connections open before the answer to GET /accounts/me, and uses only those', async () => {
    const seen = holdMe(4);
    const r = await bulk(people(2000));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('invitations: 2000 created, 0 rejected');
    expect(seen.atMe).toEqual([4]);
    expect(relay.connections).toBe(4);
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(20);
  });

  it('opens no more connections than requests: one for a file of one chunk, two at --concurrency 2', async () => {
    const one = holdMe(2);
    expect((await bulk(people(50))).exitCode).toBe(0);
    expect(one.atMe).toEqual([1]);
    expect(relay.connections).toBe(1);

    relay.accepted.length = 0;
    run++;
    const two = holdMe(2);
    const r = await bulk(people(500), '--concurrency', '2');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(two.atMe).toEqual([2]);
    expect(relay.connections).toBe(2);
  });

  it('opens the connection GET /accounts/me takes while it reads the file, and sends nothing on it before the file is read and checked', async () => {
    const fifo = join(t.dir, `people-${run}.csv`);
    execFileSync('mkfifo', [fifo]);
    // The built sct, as a user runs it.
    const running = t.sctBin(['invitations', 'bulk-create', '--file', fifo], { env: { SCT_BASE_URL: relay.url } });
    // sct waits for the file, which is not written yet: its connection is open already.
    for (let i = 0; i < 100 && relay.connections === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(relay.connections).toBe(1);
    expect(t.sb.requests).toHaveLength(0);
    await writeFile(fifo, ['email,auth_group', ...Array.from({ length: 50 }, (_, i) => `p${i}@early${run}.example,3`)].join('\n') + '\n');
    const r = await running;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('invitations: 50 created, 0 rejected');
    // One chunk: the early connection is the only one, GET /accounts/me and the POST both on it.
    expect(relay.connections).toBe(1);
    expect(t.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/accounts/me', 'POST /api/accounts/user-invitations/bulk-create']);
  });

  it('every bulk command opens that connection as it starts, before its file is read; --template opens none', async () => {
    const commands = [
      ['orders', 'import', '--purchase'],
      ['origins', 'import'],
      ['dds', 'trace'],
      ['info-requests', 'send'],
    ];
    for (const command of commands) {
      relay.accepted.length = 0;
      const fifo = join(t.dir, `rows-${run}-${command[0]}.csv`);
      execFileSync('mkfifo', [fifo]);
      const running = t.sctBin([...command, '--file', fifo], { env: { SCT_BASE_URL: relay.url } });
      for (let i = 0; i < 100 && relay.connections === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(relay.connections, command.join(' ')).toBe(1);
      // A file no command reads: refused, nothing sent, the connection closed unused.
      await writeFile(fifo, 'no_such_column\nx\n');
      const r = await running;
      expect(r.exitCode, `${command.join(' ')}: ${r.stderr}`).toBe(2);
      expect(t.sb.requests).toHaveLength(0);
      for (let i = 0; i < 100 && relay.sockets.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(relay.sockets.size, command.join(' ')).toBe(0);
    }
    relay.accepted.length = 0;
    const template = await t.sctBin(['invitations', 'bulk-create', '--template'], { env: { SCT_BASE_URL: relay.url } });
    expect(template.exitCode, template.stderr).toBe(0);
    expect(template.stdout).toContain('email');
    expect(relay.connections).toBe(0);
  });

  it('sends nothing for a file it refuses, and closes the connection it opened unused; a dry run opens none', async () => {
    const r = await bulk(people(300, true));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('nothing was sent');
    expect(t.sb.requests).toHaveLength(0);
    expect(relay.connections).toBe(1);
    for (let i = 0; i < 100 && relay.sockets.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(relay.sockets.size).toBe(0);

    relay.accepted.length = 0;
    const dry = await bulk(people(300), '--dry-run');
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(t.sb.requests).toHaveLength(0);
    expect(relay.connections).toBe(0);
  });
});
