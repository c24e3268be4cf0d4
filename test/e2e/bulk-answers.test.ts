// What a bulk create's per-row results say, read as the service means them: a row with its
// invitation and an empty error (`{}`, `""`) was created; a row with neither an invitation nor an
// error (a status such as "accepted", which accounts.md says appears) is unknown, resent under
// its key by the rerun, never called rejected. The built sct against a server on 127.0.0.1.
import { beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSct } from '../helpers/sct.js';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';

const ME = { id: 1, first_name: 'A', last_name: 'B', active_user_company_id: 1, company: { id: 1, name: 'Co' }, auth_group: { id: 1, name: 'OWNER' } };
let results: unknown[] | Record<string, unknown> = [];
const keys: string[] = [];

const server = useLocalServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
    if (req.url === '/api/accounts/me') return res.end(JSON.stringify(ME));
    keys.push(String(req.headers['idempotency-key']));
    res.end(JSON.stringify({ results }));
  });
});

const run = useServerEnv(server);

beforeEach(() => {
  keys.length = 0;
});

describe('bulk create results', () => {
  it('an invitation with an empty error is created; neither an invitation nor an error is unknown, resent under its key', async () => {
    const file = join(run.dir, 'people.csv');
    writeFileSync(file, 'email,auth_group\na1@x.example,3\na2@x.example,3\na3@x.example,3\n');
    results = [
      { index: 0, status: 'created', invitation: { id: '11111111-1111-1111-1111-111111111111' }, error: {} },
      { index: 1, status: 'created', invitation: { id: '21111111-1111-1111-1111-111111111111' }, error: '' },
      { index: 2, status: 'accepted' },
    ];
    const r = await runSct(['invitations', 'bulk-create', '--file', file], { env: run.env() });
    expect(r.stderr).toMatch(/2 created, 0 rejected/);
    expect(r.stderr).not.toContain('rejected (status');
    expect(r.exitCode).toBe(1);
    // The rerun asks again under the key the request went out with (the service replays it, now settled).
    results = [...results.slice(0, 2), { index: 2, status: 'created', invitation: { id: '31111111-1111-1111-1111-111111111111' } }];
    const again = await runSct(['invitations', 'bulk-create', '--file', file], { env: run.env() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('info-requests send: a result naming another row\'s order, or a row said both processed and failed, leaves the row unknown', async () => {
    const file = join(run.dir, 'requests.csv');
    writeFileSync(file, 'order_id,value_chain_id\n217,1\n218,2\n219,3\n');
    results = {
      processed: [
        { index: 0, order_id: 218, value_chain_id: 2, invitation_action: 'request_sent' },
        { index: 1, order_id: 217, value_chain_id: 1, invitation_action: 'request_sent' },
        { index: 2, order_id: 219, value_chain_id: 3, invitation_action: 'request_sent' },
      ],
      failed: [{ index: 2, data: { order_id: 219, value_chain_id: 3 }, error: 'nope' }],
    };
    const r = await runSct(['info-requests', 'send', '--file', file, '-o', 'json'], { env: run.env() });
    expect(r.exitCode, r.stderr).toBe(1);
    const rows = JSON.parse(r.stdout) as Array<{ key: string; status: string; error: string | null }>;
    expect(rows.map((x) => x.status)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(rows[0]!.error).toBe('the result for this row names order 218, value chain 2: it may have acted on it');
    expect(rows[2]!.error).toBe('the answer says this row was both processed and failed: it may have acted on it');
  });
});
