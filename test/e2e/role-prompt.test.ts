// The role of an invitation asked at a terminal where the service shows no role but the owner's
// (none to pick): the id is typed, and 0 (no role's id) is refused there as in a flag.
import { describe, expect, it } from 'vitest';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';
import { hasScript, runAtTerminal } from '../helpers/terminal.js';

const posted: unknown[] = [];
const server = useLocalServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const json = (status: number, data: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
    const path = (req.url ?? '').split('?')[0];
    if (path === '/api/accounts/me') return json(200, { id: 1, first_name: 'O', last_name: 'Wner', auth_group: { id: 1, name: 'OWNER' }, company: { id: 1, name: 'Solo' } });
    if (path === '/api/accounts/user-companies') return json(200, { count: 0, next: null, previous: null, results: [] });
    if (req.method === 'POST' && path === '/api/accounts/user-invitations') {
      posted.push(JSON.parse(body));
      return json(201, { id: 'b7c3e8f0-0000-4000-8000-000000000009', email: 'q@x.example', status: 'pending', auth_group: JSON.parse(body).auth_group });
    }
    json(404, { detail: 'Not found.' });
  });
});
const where = useServerEnv(server);

describe.skipIf(!hasScript)('invitations create at a terminal, no role to pick', () => {
  it('the typed role id 0 is refused; a real id is sent', async () => {
    const r = await runAtTerminal(
      { dir: where.dir, url: server.url },
      ['invitations', 'create', '--email', 'q@x.example'],
      [
        { when: 'role id:', type: '0\r' },
        { when: 'unknown role "0"', type: '\x7f3\r' },
      ],
      { SCT_TOKEN: 'sct_test_token' },
    );
    expect(r.exitCode, r.screen).toBe(0);
    expect(posted).toEqual([{ email: 'q@x.example', auth_group: 3 }]);
  });
});
