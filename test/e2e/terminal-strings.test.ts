// Service strings at a real terminal: an order's external_id, a workspace's name, a role's name
// and a document's name carrying escape sequences (an OSC that retitles the window, a clear
// screen, a C1 CSI) reach the screen stripped, in questions, pick lists, the cancelled line,
// errors and the download line alike.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { hasScript, runAtTerminal, type Step } from '../helpers/terminal.js';
import { MULTI, OWNER } from '../sandbox/helpers.js';

const t = useSandbox();
const EVIL = 'EVIL\u001b]0;PWNED\u0007\u001b[2J\u009b5m\u202e!';

const atTerminal = (args: string[], steps: Step[], token = OWNER, o: { columns?: number } = {}) =>
  runAtTerminal({ dir: t.dir, url: t.sb.url }, args, steps, { SCT_TOKEN: token }, o);

/** Nothing of the hostile sequences reached the terminal; their printable text did. */
function expectClean(text: string): void {
  expect(text).not.toContain('\u001b]0;');
  expect(text).not.toContain('\u001b[2J');
  expect(text).not.toContain('\u009b');
  expect(text).not.toContain('\u202e');
  expect(text).toContain('EVIL');
}

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = { 'Content-Type': 'application/json' }, raw?: string): Promise<any> {
  const r = await fetch(path.startsWith('http') ? path : t.sb.url + path, { method, headers: { Authorization: `Bearer ${OWNER}`, ...headers }, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

describe.skipIf(!hasScript)('service strings at a real terminal', () => {
  it('orders delete: the question and the cancelled line', async () => {
    const order = await send('POST', '/orders/purchase', { type: 'order', external_id: `PO-${EVIL}`, order_created_at: '2025-03-01', seller_company_id: 101 });
    const r = await atTerminal(['orders', 'delete', String(order.id)], [{ when: '(y/N)', type: 'n\r' }]);
    expect(r.exitCode, r.screen).toBe(2);
    expect(r.screen).toContain(`cancelled: purchase order ${order.id} (PO-EVIL`);
    expectClean(r.screen);
  });

  it('a confirmation takes y, yes, n or no: any other answer is asked again, never read as yes for its first letter', async () => {
    const order = await send('POST', '/orders/purchase', { type: 'order', external_id: 'PO-CONFIRM-1', order_created_at: '2025-03-01', seller_company_id: 101 });
    const r = await atTerminal(['orders', 'delete', String(order.id)], [
      { when: '(y/N)', type: 'you must be kidding, no\r' },
      // Ctrl-U clears the line, as in any readline prompt.
      { when: 'answer y or n', type: '\u0015n\r' },
    ]);
    expect(r.exitCode, r.screen).toBe(2);
    expect(r.screen).toContain('cancelled');
    expect(t.sb.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });

  it('workspaces switch: the pick list and the answer', async () => {
    for (const c of t.sb.store.companies.values()) c.name = `${c.name} ${EVIL}`;
    const r = await atTerminal(['workspaces', 'switch'], [{ when: 'Switch to which workspace?', type: '\r' }], MULTI);
    expect(r.exitCode, r.screen).toBe(0);
    expectClean(r.screen);
  });

  it('workspaces switch: a name with a line break stays on its line in the pick list and the answer', async () => {
    const names = new Map<unknown, string>();
    for (const c of t.sb.store.companies.values()) {
      names.set(c, c.name);
      c.name = `${c.name}\n  FAKE CHOICE`;
    }
    try {
      const r = await atTerminal(['workspaces', 'switch'], [{ when: 'Switch to which workspace?', type: '\r' }], MULTI);
      expect(r.exitCode, r.screen).toBe(0);
      expect(r.screen).not.toMatch(/(^|\n)\s*FAKE CHOICE/);
      expect(r.screen).toContain(' FAKE CHOICE');
    } finally {
      for (const [c, name] of names) (c as { name: string }).name = name;
    }
  });

  it('roles: the pick list of invitations create, the "unknown role" error, the line of members set-role', async () => {
    // A role of the service's own, named by someone hostile.
    const member = [...t.sb.store.authGroups.values()].find((g) => g.name === 'MEMBER')!;
    t.sb.store.authGroups.set(99, { ...member, id: 99, name: `Auditor ${EVIL}` as 'MEMBER' });
    const colleague = [...t.sb.store.memberships.values()].find((m) => m.company_id === 1 && m.auth_group_id === member.id)!;
    colleague.auth_group_id = 99;
    const pick = await atTerminal(['invitations', 'create', '--email', 'evil.pick@strings.example'], [{ when: 'Invite as which role?', type: '\r' }]);
    expect(pick.exitCode, pick.screen).toBe(0);
    expectClean(pick.screen);
    const unknown = await atTerminal(['invitations', 'create', '--email', 'evil.unknown@strings.example', '--role', 'nosuch'], []);
    expect(unknown.exitCode, unknown.screen).toBe(2);
    expect(unknown.screen).toContain('unknown role "nosuch"');
    expectClean(unknown.screen);
    const setRole = await atTerminal(['members', 'set-role', String(colleague.id), '99'], []);
    expect(setRole.exitCode, setRole.screen).toBe(0);
    expect(setRole.screen).toContain(`Member ${colleague.id} now has role Auditor EVIL`);
    expectClean(setRole.screen);
  });

  it('a line break in a service string stays on its line: the question of orders delete, the "unknown role" error, doctor\'s token line', async () => {
    const FAKE = '\n? Delete order 1 (harmless test)? (y/N) y\nerror: FAKE LINE\u2028fail  token  FAKE';
    const order = await send('POST', '/orders/purchase', { type: 'order', external_id: `PO-1${FAKE}`, order_created_at: '2025-03-01', seller_company_id: 101 });
    // Wide enough that the prompt does not wrap the question itself.
    const asked = await atTerminal(['orders', 'delete', String(order.id)], [{ when: '(y/N)', type: 'n\r' }], OWNER, { columns: 250 });
    expect(asked.exitCode, asked.screen).toBe(2);
    expect(asked.screen).not.toMatch(/(^|\n)\? Delete order 1/);
    expect(asked.screen).not.toMatch(/(^|\n)(error: FAKE|fail {2}token {2}FAKE)/);
    const deleted = await atTerminal(['orders', 'delete', String(order.id)], [{ when: '(y/N)', type: 'y\r' }], OWNER, { columns: 250 });
    expect(deleted.exitCode, deleted.screen).toBe(0);
    expect(deleted.screen).toContain('Deleted');
    expect(deleted.screen).not.toMatch(/(^|\n)(error: FAKE|fail {2}token {2}FAKE|\? Delete order 1)/);
    const member = [...t.sb.store.authGroups.values()].find((g) => g.name === 'MEMBER')!;
    t.sb.store.authGroups.set(98, { ...member, id: 98, name: `Auditor${FAKE}` as 'MEMBER' });
    const colleague = [...t.sb.store.memberships.values()].find((m) => m.company_id === 1 && m.auth_group_id === member.id)!;
    colleague.auth_group_id = 98;
    try {
      const unknown = await atTerminal(['members', 'set-role', String(colleague.id), 'nosuch'], []);
      expect(unknown.exitCode, unknown.screen).toBe(2);
      expect(unknown.screen).toContain('nosuch');
      expect(unknown.screen).not.toMatch(/(^|\n)(error: FAKE|fail {2}token {2}FAKE|\? Delete order 1)/);
    } finally {
      colleague.auth_group_id = member.id;
    }
    const users = [...t.sb.store.users.values()];
    const names = users.map((u) => u.first_name);
    for (const u of users) u.first_name = `${u.first_name}${FAKE}`;
    try {
      const doctor = await atTerminal(['doctor'], []);
      expect(doctor.screen).toContain('token');
      expect(doctor.screen).not.toMatch(/(^|\n)(error: FAKE|fail {2}token {2}FAKE|\? Delete order 1)/);
    } finally {
      users.forEach((u, i) => (u.first_name = names[i]!));
    }
  });

  it('documents download: the download line', async () => {
    const doc = await send('POST', '/documents', { name: `report ${EVIL}.txt`, content_type: 'text/plain' });
    await send('PUT', doc.upload_url, undefined, { 'Content-Type': 'text/plain' }, 'hello');
    await send('POST', `/documents/${doc.id}/confirm_upload`);
    const out = join(mkdtempSync(join(t.dir, 'dl-')), 'report.txt');
    const r = await atTerminal(['documents', 'download', String(doc.id), '--out', out], [], OWNER, { columns: 120 });
    expect(r.exitCode, r.screen).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('hello');
    expectClean(r.screen);
  });

  it('documents download --out - at a terminal: the bytes shown stripped; into a pipe, as they are', async () => {
    const doc = await send('POST', '/documents', { name: 'notes.txt', content_type: 'text/plain' });
    await send('PUT', doc.upload_url, undefined, { 'Content-Type': 'text/plain' }, `line one\n${EVIL}\n`);
    await send('POST', `/documents/${doc.id}/confirm_upload`);
    const r = await atTerminal(['documents', 'download', String(doc.id), '--out', '-'], [], OWNER, { columns: 120 });
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).toContain('line one');
    expectClean(r.screen);
    const piped = await t.sct(['documents', 'download', String(doc.id), '--out', '-']);
    expect(piped.stdout).toBe(`line one\n${EVIL}\n`);
  });
});
