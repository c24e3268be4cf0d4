// Writes decided earlier: what a person agreed to at a terminal is what is written, even when
// a colleague changes the service while the question waits. The built binary at a real
// pseudo-terminal, the colleague's change made through the sandbox before the answer is typed.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { hasScript, runAtTerminal, type Step } from '../helpers/terminal.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({ rateLimit: 100_000 });
let run = 0;

const atTerminal = (args: string[], steps: Step[]) => runAtTerminal({ dir: t.dir, url: t.sb.url }, args, steps, { SCT_TOKEN: OWNER });

/** A request to the API as a colleague in the web app would send it. */
async function send(method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(t.sb.url + path, { method, headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const invite = async (emails: string[]): Promise<Array<{ id: string }>> =>
  (await send('POST', '/accounts/user-invitations/bulk-create', { operations: emails.map((email) => ({ email, auth_group: 3 })) })).results.map((x: any) => x.invitation);

describe.skipIf(!hasScript)('invitations revoke and renew by filter', () => {
  it('revoke writes exactly the invitations the question counted, not those invited while it waited', async () => {
    run++;
    const [first] = await invite([`late.0.${run}@decided.example`]);
    const late: Array<{ id: string }> = [];
    const r = await atTerminal(['invitations', 'revoke', '--email-contains', `.${run}@decided.example`], [
      { when: 'Revoke 1 pending invitation', before: async () => late.push(...(await invite([1, 2, 3, 4, 5].map((i) => `late.${i}.${run}@decided.example`)))), type: 'y\r' },
    ]);
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).toContain('Revoked 1 of 1 pending invitation');
    expect((await send('GET', `/accounts/user-invitations/${first.id}`)).status).toBe('revoked');
    for (const i of late) expect((await send('GET', `/accounts/user-invitations/${i.id}`)).status).toBe('pending');
  });

  it('renew writes exactly the invitations the question counted', async () => {
    run++;
    const [first] = await invite([`renew.0.${run}@decided.example`]);
    const late: Array<{ id: string }> = [];
    const r = await atTerminal(['invitations', 'renew', '--email-contains', `.${run}@decided.example`], [
      { when: 'Renew 1 pending invitation', before: async () => late.push(...(await invite([`renew.1.${run}@decided.example`]))), type: 'y\r' },
    ]);
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).toContain('Renewed 1 of 1 pending invitation');
    expect((await send('GET', `/accounts/user-invitations/${late[0].id}`)).status).toBe('pending');
    expect(t.sb.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/bulk-renew')).map((q) => JSON.parse(q.body))).toEqual([{ operations: [{ invitation_filters: { id__in: first.id } }] }]);
  });
});
