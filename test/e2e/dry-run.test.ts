// --dry-run on every command that writes: each request it would send printed (method, path,
// body; -o json as objects), nothing written to the service, no question asked, exit 0; the
// reads a write is built from still go out. A usage error is still exit 2.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { OWNER } from '../sandbox/helpers.js';
import type { Prompter } from '../../src/prompt.js';

const t = useSandbox({}, { inProcess: true });

interface Planned {
  method: string;
  path: string;
  body: unknown;
}

/** Every request that reached the sandbox, as "METHOD /path" (the /api prefix left out). */
const received = () => t.sb.requests.map((r) => `${r.method} ${r.path.replace(/^\/api/, '')}`);
const writesReceived = () => t.sb.requests.filter((r) => r.method !== 'GET');

/** A terminal whose every question fails the test: a dry run asks none. */
const noQuestions: Prompter = {
  password: () => Promise.reject(new Error('asked for a password')),
  input: (m) => Promise.reject(new Error(`asked: ${m}`)),
  confirm: (m) => Promise.reject(new Error(`asked: ${m}`)),
  select: (m) => Promise.reject(new Error(`asked: ${m}`)),
};
/** A person at a terminal (no CI in the environment), whom nothing may be asked. */
const atTerminal = { tty: true, prompter: noQuestions, env: { CI: undefined } };

/** Runs the command with --dry-run -o json: exit 0, no write received, the planned requests. */
async function planned(args: string[], o: { input?: string; reads?: string[] } = {}): Promise<Planned[]> {
  const r = await t.sct([...args, '--dry-run', '-o', 'json'], { input: o.input });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(writesReceived()).toEqual([]);
  if (o.reads) expect(received()).toEqual(o.reads);
  expect(r.stderr).toMatch(/\d+ requests?; nothing sent \(dry run\)/);
  const requests = JSON.parse(r.stdout) as Planned[];
  for (const q of requests) expect(Object.keys(q)).toEqual(['method', 'path', 'body']);
  t.sb.requests.length = 0;
  return requests;
}

describe('--dry-run on the single writes', () => {
  // [command line, the one request it would send (method, path), what its body holds]
  const cases: Array<[string[], string, string, Record<string, unknown> | null, string[]?]> = [
    [['orders', 'create', '--purchase', '--external-id', 'DRY-1', '--order-created-at', '2025-01-01', '--type', 'order'], 'POST', '/orders/purchase', { external_id: 'DRY-1', type: 'order' }],
    [['orders', 'update', '217', '--purchase', '--tag', 'dry'], 'PATCH', '/orders/purchase/217', { tags: ['dry'] }],
    [['orders', 'delete', '217'], 'DELETE', '/orders/217', null],
    [['products', 'create', '--name', 'Dry product'], 'POST', '/products', { name: 'Dry product' }],
    [['products', 'update', '17', '--name', 'Dry product'], 'PATCH', '/products/17', { name: 'Dry product' }],
    [['products', 'delete', '17'], 'DELETE', '/products/17', null],
    [['origins', 'create', '--name', 'Dry origin', '--country-code', 'CI'], 'POST', '/origins', { name: 'Dry origin', country_code: 'CI' }],
    [['origins', 'update', '24', '--name', 'Dry origin'], 'PATCH', '/origins/24', { name: 'Dry origin' }],
    [['origins', 'delete', '24'], 'DELETE', '/origins/24', null],
    [['value-chains', 'create', '--company-name', 'Dry Co'], 'POST', '/value-chains', { company_name: 'Dry Co' }],
    [['value-chains', 'update', '1', '--description', 'dry'], 'PATCH', '/value-chains/1', { description: 'dry' }],
    [['value-chains', 'delete', '1'], 'DELETE', '/value-chains/1', null],
    [['dds', 'create', '--type', 'EUTR', '--name', 'Dry'], 'POST', '/due-diligence-statements', { type: 'EUTR', name: 'Dry' }],
    [['dds', 'create', '--type', 'EUTR', '--name', 'Dry', '--wait'], 'POST', '/due-diligence-statements', { type: 'EUTR', name: 'Dry' }],
    [['dds', 'update', '38', '--name', 'Dry name'], 'PATCH', '/due-diligence-statements/38', { name: 'Dry name' }],
    [['dds', 'delete', '38', '--withdraw'], 'DELETE', '/due-diligence-statements/38?has_withdraw_request=true', null],
    [['invitations', 'create', '--email', 'dry@example.com', '--role', '2'], 'POST', '/accounts/user-invitations', { email: 'dry@example.com', auth_group: 2 }],
    [['invitations', 'renew', '03a80526-ef80-4dbe-83f6-fbed3ddd2cdc'], 'POST', '/accounts/user-invitations/renew', { invitation: '03a80526-ef80-4dbe-83f6-fbed3ddd2cdc' }],
    [['members', 'set-role', '20', '2'], 'PATCH', '/accounts/user-companies/20', { auth_group: 2 }],
    [['user-config', 'set', 'language=en'], 'PATCH', '/accounts/user-config', { config: { language: 'en' } }],
    [['imports', 'create', '--type', 'orders', '--source', 'csv', '--document', '4'], 'POST', '/imports', { type: 'orders', source: 'csv', document: 4 }],
    [['risk', 'create', '--identifier', 'DRY-RISK', '--order', '217'], 'POST', '/compliance/risk-assessments', { identifier: 'DRY-RISK' }],
    [['workspaces', 'switch', '2'], 'POST', '/accounts/workspaces/switch', { company_id: 2 }],
    [['api', '/products', '-X', 'POST', '-f', 'name=Dry'], 'POST', '/products', { name: 'Dry' }],
  ];

  it.each(cases)('%j prints the request and sends nothing', async (args, method, path, body) => {
    const requests = await planned(args, { reads: [] });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method, path: expect.stringMatching(new RegExp(`^${path.replace(/[?]/g, '\\?')}$`)) });
    if (body === null) expect(requests[0].body).toBeNull();
    else expect(requests[0].body).toMatchObject(body);
  });

  it('prints each request as text on a terminal, asks nothing (not even delete’s question), and never the token', async () => {
    // Without --dry-run the same terminal is asked.
    const asked = await t.sct(['orders', 'delete', '217'], atTerminal);
    expect(asked.exitCode).not.toBe(0);
    expect(asked.stderr).toContain('asked: Delete');
    t.sb.requests.length = 0;

    const r = await t.sct(['orders', 'delete', '217', '--dry-run', '--verbose'], atTerminal);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('DELETE /orders/217\n');
    expect(r.stderr).toContain('1 request; nothing sent (dry run)');
    expect(t.sb.requests).toHaveLength(0);

    const create = await t.sct(['products', 'create', '--name', 'Dry product', '--dry-run', '--verbose'], atTerminal);
    expect(create.exitCode, create.stderr).toBe(0);
    expect(create.stdout).toBe('POST /products\n{\n  "name": "Dry product"\n}\n');
    expect(create.stderr).not.toContain('Created');
    for (const out of [r.stdout, r.stderr, create.stdout, create.stderr]) expect(out).not.toContain(OWNER);
    expect(writesReceived()).toEqual([]);
  });

  it('leaves the profile alone: workspaces switch records nothing', async () => {
    await planned(['workspaces', 'switch', '2']);
    const config = join(t.dir, 'config.json');
    expect(existsSync(config) ? readFileSync(config, 'utf8') : '').not.toContain('"workspace"');
  });

  it('still sends the reads a write is built from, and says so in help', async () => {
    // orders trace reads the order (and who you are) to send every item back.
    const trace = await planned(['orders', 'trace', '217', '--item', '416', '--to-origin', '24'], { reads: ['GET /accounts/me', 'GET /orders/217'] });
    expect(trace).toHaveLength(1);
    expect(trace[0]).toMatchObject({ method: 'PATCH', path: '/orders/purchase/217' });
    const items = (trace[0].body as { items: Array<{ id: number; trace?: { traced_origins: number[] } }> }).items;
    expect(items.find((i) => i.id === 416)?.trace?.traced_origins).toContain(24);

    // A role by name is looked up.
    const invite = await planned(['invitations', 'create', '--email', 'dry@example.com', '--role', 'admin']);
    expect(invite[0].body).toEqual({ email: 'dry@example.com', auth_group: 2 });

    const help = await t.sct(['orders', 'trace', '--help']);
    expect(help.stdout).toMatch(/--dry-run\s+print each request/);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('the reads a request is built from still go out');
  });

  it('keeps usage errors: exit 2, nothing sent', async () => {
    await t.expectUsageErrors(
      [
        [['orders', 'update', '217', '--purchase', '--dry-run'], 'nothing to update'],
        [['dds', 'create', '--type', 'EUDR', '--dry-run'], /assessment/],
        [['members', 'set-role', 'abc', '2', '--dry-run'], 'MEMBER_ID'],
        [['user-config', 'set', '--dry-run'], 'nothing to set'],
        [['invitations', 'revoke', '--dry-run'], 'give at least one filter'],
        [['api', '/products', '--dry-run'], '--dry-run'],
      ],
      { inProcess: true },
    );
  });

  it('asks for no missing field: without it a dry run is a usage error', async () => {
    const r = await t.sct(['products', 'create', '--dry-run'], atTerminal);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
  });
});

describe('--dry-run on the commands that send several requests', () => {
  it('dds trace prints each request of 100 orders', async () => {
    const orders = Array.from({ length: 150 }, (_, i) => i + 1).join(',');
    const requests = await planned(['dds', 'trace', '--dds', '1', '--order', orders], { reads: [] });
    expect(requests.map((q) => [q.method, q.path])).toEqual([
      ['POST', '/due-diligence-statements/trace-orders'],
      ['POST', '/due-diligence-statements/trace-orders'],
    ]);
    expect((requests[0].body as { order_id: number[] }).order_id).toHaveLength(100);
    expect(requests[1].body).toEqual({ dds_id: [1], order_id: Array.from({ length: 50 }, (_, i) => i + 101) });
  });

  it('dds trace --file prints one request per statement and chunk, and keeps no journal', async () => {
    const file = t.writeFile('pairs.csv', 'dds_id,order_id\n1,17\n38,18\n1,195\n');
    const requests = await planned(['dds', 'trace', '--file', file], { reads: [] });
    expect(requests.map((q) => q.body)).toEqual([
      { dds_id: 1, order_id: [17, 195] },
      { dds_id: 38, order_id: [18] },
    ]);
    // A real run afterwards sends every row: the dry run left no record of rows done.
    const real = await t.sct(['dds', 'trace', '--file', file, '-o', 'json']);
    expect(real.exitCode, real.stderr).toBe(0);
    expect(writesReceived()).toHaveLength(2);
  });

  it('the file commands print the requests their rows make: bulk-create 100 rows a request, each import one a unit', async () => {
    const people = t.writeFile('people.csv', `email,auth_group\n${Array.from({ length: 101 }, (_, i) => `p${i}@dry.example,3`).join('\n')}\n`);
    const invitations = await planned(['invitations', 'bulk-create', '--file', people]);
    expect(invitations.map((q) => [q.method, q.path, (q.body as { operations: unknown[] }).operations.length])).toEqual([
      ['POST', '/accounts/user-invitations/bulk-create', 100],
      ['POST', '/accounts/user-invitations/bulk-create', 1],
    ]);
    expect((invitations[1].body as { operations: unknown[] }).operations).toEqual([{ email: 'p100@dry.example', auth_group: 3 }]);

    const orders = t.writeFile('orders.csv', 'external_id,type,order_created_at,seller_company_id,volume,unit\nDR-1,order,2025-04-01,101,10,kg\nDR-1,order,2025-04-01,101,5,t\nDR-2,order,2025-04-02,101,1,kg\n');
    const created = await planned(['orders', 'import', '--purchase', '--file', orders]);
    expect(created.map((q) => [q.method, q.path, (q.body as { external_id: string }).external_id])).toEqual([
      ['POST', '/orders/purchase', 'DR-1'],
      ['POST', '/orders/purchase', 'DR-2'],
    ]);

    const origins = t.writeFile('origins.csv', 'name,country_code,latitude,longitude\nDry farm,CI,6.8203,-5.2897\n');
    expect(await planned(['origins', 'import', '--file', origins])).toEqual([
      { method: 'POST', path: '/origins', body: { name: 'Dry farm', country_code: 'CI', location: { type: 'Point', coordinates: [-5.2897, 6.8203] } } },
    ]);

    // As text, as every dry run: METHOD /path, then the body.
    const text = await t.sct(['origins', 'import', '--file', origins, '--dry-run']);
    expect(text.stdout).toMatch(/^POST \/origins\n\{\n {2}"name": "Dry farm",/);
    expect(text.stderr).toContain('origins.csv: 1 valid origin in 1 request; nothing sent (dry run)');
  });

  it('info-requests send prints its requests of 100 rows', async () => {
    const rows = Array.from({ length: 101 }, (_, i) => `${i + 1}`).join('\n');
    const file = t.writeFile('requests.csv', `order_id\n${rows}\n`);
    const requests = await planned(['info-requests', 'send', '--file', file], { reads: [] });
    expect(requests.map((q) => [q.method, q.path])).toEqual([
      ['POST', '/information-requests/bulk'],
      ['POST', '/information-requests/bulk'],
    ]);
    expect((requests[1].body as { information_requests: unknown[] }).information_requests).toEqual([{ order_id: 101 }]);
  });

  it('dds trace --file and info-requests send with --skip-invalid print the valid rows\' requests, then exit 3 as the real run would', async () => {
    const pairs = t.writeFile('pairs-bad.csv', 'dds_id,order_id\n1,17\n1,abc\n38,18\n');
    const trace = await t.sct(['dds', 'trace', '--file', pairs, '--skip-invalid', '--dry-run', '-o', 'json']);
    expect(trace.exitCode, trace.stderr).toBe(3);
    expect((JSON.parse(trace.stdout) as Planned[]).map((q) => q.body)).toEqual([{ dds_id: 1, order_id: [17] }, { dds_id: 38, order_id: [18] }]);
    expect(trace.stderr).toContain('1 invalid row left out (--skip-invalid); nothing sent (dry run)');

    const rows = t.writeFile('requests-bad.csv', 'order_id,value_chain_id\n217,1\nabc,1\n195,\n');
    const send = await t.sct(['info-requests', 'send', '--file', rows, '--skip-invalid', '--dry-run', '-o', 'json']);
    expect(send.exitCode, send.stderr).toBe(3);
    expect((JSON.parse(send.stdout) as Planned[]).map((q) => (q.body as { information_requests: unknown[] }).information_requests)).toEqual([
      [{ order_id: 217, value_chain_id: 1 }, { order_id: 195 }],
    ]);
    expect(writesReceived()).toEqual([]);
  });

  it('invitations revoke and renew by filter read the matches, then print the writes by id without asking', async () => {
    const pending = (await t.api('/accounts/user-invitations?status=pending&limit=1000')).results.map((i: { id: string }) => i.id);
    expect(pending.length).toBeGreaterThan(0);
    for (const verb of ['revoke', 'renew']) {
      const r = await t.sct(['invitations', verb, '--status', 'pending', '--dry-run', '-o', 'json'], atTerminal);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(received().every((q) => q.startsWith('GET /accounts/user-invitations'))).toBe(true);
      const requests = JSON.parse(r.stdout) as Planned[];
      expect(requests).toEqual([
        { method: 'POST', path: `/accounts/user-invitations/bulk-${verb}`, body: { operations: [{ invitation_filters: { id__in: pending.join(',') } }] } },
      ]);
      t.sb.requests.length = 0;
    }
    // Without a terminal a dry run needs no --yes, and a filter matching nothing plans nothing.
    const none = await planned(['invitations', 'revoke', '--email', 'nobody@nowhere.example']);
    expect(none).toEqual([]);
  });

  it('documents upload prints its three requests, the second and third naming what the first answers', async () => {
    const file = t.writeFile('certificate.txt', 'hello\n');
    const requests = await planned(['documents', 'upload', file, '--tag', 'fsc'], { reads: [] });
    expect(requests).toEqual([
      { method: 'POST', path: '/documents', body: { name: 'certificate.txt', size: 6, tags: ['fsc'] } },
      { method: 'PUT', path: '{upload_url}', body: '(the 6 bytes of certificate.txt)' },
      { method: 'POST', path: '/documents/{id}/confirm_upload', body: null },
    ]);
  });

  it('-o csv and --jq work on the printed requests', async () => {
    const csv = await t.sct(['dds', 'delete', '38', '--dry-run', '-o', 'csv']);
    expect(csv.exitCode, csv.stderr).toBe(0);
    expect(csv.stdout.split(/\r?\n/)[0]).toBe('method,path,body');
    // A create or update whose command prints a resource: still the requests, not the resource's
    // columns over a row of empty cells.
    for (const [args, lines] of [
      [['origins', 'create', '--name', 'A', '--country-code', 'CI'], ['method,path,body.name,body.country_code', 'POST,/origins,A,CI']],
      [['members', 'set-role', '2', '3'], ['method,path,body.auth_group', 'PATCH,/accounts/user-companies/2,3']],
    ] as const) {
      const r = await t.sct([...args, '--dry-run', '-o', 'csv']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout.trim().split(/\r?\n/)).toEqual(lines);
    }
    const jq = await t.sct(['dds', 'update', '38', '--name', 'x', '--dry-run', '--jq', '.[0].body.name']);
    expect(jq.stdout).toBe('x\n');
    // --json FIELDS picks among the request's fields, not the statement's.
    const fields = await t.sct(['dds', 'update', '38', '--name', 'x', '--dry-run', '--json', 'method,path']);
    expect(fields.exitCode, fields.stderr).toBe(0);
    expect(JSON.parse(fields.stdout)).toEqual([{ method: 'PATCH', path: '/due-diligence-statements/38' }]);
    // A field of the resource, not of a request: exit 2 naming the request's fields (it printed [{}]).
    const resourceField = await t.sct(['origins', 'create', '--name', 'A', '--country-code', 'CI', '--dry-run', '--json', 'name']);
    expect(resourceField.exitCode).toBe(2);
    expect(resourceField.stderr).toContain('--json: origins create --dry-run has no field "name"');
    expect(resourceField.stderr).toContain('valid fields: body, method, path');
    const nested = await t.sct(['origins', 'create', '--name', 'A', '--country-code', 'CI', '--dry-run', '--json', 'method,body.name']);
    expect(JSON.parse(nested.stdout)).toEqual([{ method: 'POST', body: { name: 'A' } }]);
    expect(writesReceived()).toEqual([]);
  });
});
