// sct api with gh api's flags, against the sandbox.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

describe('sct api fields', () => {
  it('-f is always a string, -F is typed, and fields make the default method POST', async () => {
    const name = t.writeFile('name.txt', 'Plot from a file');
    const r = await t.sct(['api', '/origins', '-f', 'external_id=1984', '-F', 'name=@' + name, '-F', 'country_code=GH', '-F', 'description=null']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0].method).toBe('POST');
    expect(t.bodyOf()).toEqual({ external_id: '1984', name: 'Plot from a file', country_code: 'GH', description: null });
    expect(JSON.parse(r.stdout)).toMatchObject({ external_id: '1984', name: 'Plot from a file' });
  });

  it('-F reads @- from stdin, and types numbers and booleans', async () => {
    const r = await t.sct(['api', '-X', 'PATCH', '/origins/1', '-F', 'name=@-', '-F', 'x.n=12', '-F', 'x.b=true'], { input: 'From stdin' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.bodyOf()).toEqual({ name: 'From stdin', x: { n: 12, b: true } });
  });

  it('with GET the fields go in the query string', async () => {
    const r = await t.sct(['api', '/orders', '-X', 'GET', '-f', 'order_action=buying', '-F', 'limit=2']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.queryOf()).toEqual({ order_action: 'buying', limit: '2' });
    expect(JSON.parse(r.stdout).results).toHaveLength(2);
  });
});

describe('sct api headers', () => {
  it('-H adds a header; -i prints the status line and headers before the body', async () => {
    const r = await t.sct(['api', '-i', '/accounts/me', '-H', 'X-Trace-Id: abc 123']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0].headers['x-trace-id']).toBe('abc 123');
    const [head, body] = r.stdout.split('\n\n');
    expect(head.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^Content-Type: application\/json/m);
    expect(JSON.parse(body)).toMatchObject({ id: expect.any(Number) });
  });

  it('refuses an Authorization header: the token is sct\'s own', async () => {
    await t.expectUsageErrors([
      [['api', '/accounts/me', '-H', 'Authorization: Bearer other'], /-H Authorization: sct sends the token itself, and only to the configured base URL/],
      // Each header sct owns is refused for its own reason, never with the token's words.
      [['api', '/accounts/me', '-H', 'Cookie: a=b'], /-H Cookie: sct sends no cookie: the token is the one credential it sends/],
      [['api', '/accounts/me', '-H', 'Host: other.example'], /-H Host: sct sets it from the base URL \(--base-url to ask another host\)/],
      [['api', '/accounts/me', '-H', 'Content-Length: 5'], /-H Content-Length: sct sets it from the body it sends/],
      [['api', '/accounts/me', '-H', 'no colon'], /expected 'Name: value'/],
      [['api', '/origins', '-X', 'POST', '--paginate'], /--paginate works with GET only/],
      [['api', 'https://elsewhere.example/api/orders'], /not a full URL/],
    ]);
  });
});

describe('flags checked before the first request', () => {
  it('an empty path (an unset $P), a bad list flag beside a read of its own, doctor\'s --timeout and --max-wait: exit 2, nothing sent', async () => {
    t.sb.requests.length = 0;
    await t.expectUsageErrors([
      [['api', ''], /give the API path, e.g\. \/orders/],
      [['api', ' '], /give the API path/],
      [['api', '', '-X', 'DELETE'], /give the API path/],
      [['api', '', '-f', 'a=1', '--dry-run'], /give the API path/],
      // workspaces list reads /accounts/me for its table's "current" mark: not before its flags are checked.
      [['workspaces', 'list', '--offset='], /invalid --offset ""/],
      [['workspaces', 'list', '--limit', 'abc'], /invalid --limit "abc"/],
      [['workspaces', 'list', '--all', '--parallel', '99'], /--parallel/],
      [['doctor', '--timeout', '0'], /invalid --timeout "0"/],
      [['doctor', '--max-wait', 'x'], /invalid --max-wait "x"/],
    ]);
  });
});

describe('sct api output', () => {
  it('--jq filters the answer', async () => {
    const me = await t.api('/accounts/me');
    const r = await t.sct(['api', '/accounts/me', '--jq', '.auth_group.name']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${me.auth_group.name}\n`);
  });

  it('--paginate prints one array of every result, and --jq runs once on it', async () => {
    const count = (await t.api('/products?limit=1')).count;
    const r = await t.sct(['api', '/products?limit=5', '--paginate']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(count);
    expect(t.sb.requests.length).toBeGreaterThanOrEqual(Math.ceil(count / 5));
    const jq = await t.sct(['api', '/products?limit=5', '--paginate', '--jq', 'length']);
    expect(jq.stdout).toBe(`${count}\n`);
  });

  it('--paginate on an answer that is no list prints it as without --paginate', async () => {
    const r = await t.sct(['api', '/accounts/me', '--paginate']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: expect.any(Number), email: expect.any(String) });
    const jq = await t.sct(['api', '/accounts/me', '--paginate', '--jq', '.id']);
    expect(jq.exitCode, jq.stderr).toBe(0);
    expect(jq.stdout).toBe(`${JSON.parse(r.stdout).id}\n`);
  });

  it('-o csv and ndjson print the rows of a list answer', async () => {
    const csv = await t.sct(['api', '/products', '-X', 'GET', '-f', 'limit=2', '-o', 'csv', '--columns', 'id,name']);
    expect(csv.exitCode, csv.stderr).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('id,name');
    expect(lines).toHaveLength(3);
    const nd = await t.sct(['api', '/products?limit=5', '--paginate', '-o', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l)).every((p: any) => typeof p.id === 'number')).toBe(true);
    // Known once the answer came: exit 1 with the answer as JSON, never 2 ("nothing sent").
    const one = await t.sct(['api', '/accounts/me', '-o', 'csv']);
    expect(one.exitCode).toBe(1);
    expect(one.stderr).toContain('GET /accounts/me went through (200), but -o csv needs a list answer');
    expect(JSON.parse(one.stdout).id).toBeDefined();
    // -o table, the table of everything else, is one object's key/value view.
    const table = await t.sct(['api', '/accounts/me', '-o', 'table']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^id\t\d+$/m);
  });

  it('-o csv on a write whose answer is no list: the answer written as JSON, exit 1 saying it went through, never exit 2', async () => {
    const r = await t.sct(['api', '-X', 'POST', '/products', '-f', 'name=CSV write', '-o', 'csv']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/POST \/products went through \(201\), but -o csv needs a list answer/);
    const created = JSON.parse(r.stdout);
    expect(created.name).toBe('CSV write');
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  it('--jq failing on a write\'s answer: the answer written as JSON, exit 1 saying it went through', async () => {
    const r = await t.sct(['api', '-X', 'POST', '/products', '-f', 'name=Jq write', '-f', 'sku=JQ-1', '-f', 'type=raw_material', '-f', 'commodity=cocoa', '--jq', '.id | .x']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('POST /products went through (201), but --jq failed: (at <stdin>:0): Cannot index number with string "x"');
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ id: expect.any(Number), name: 'Jq write' });
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    // A GET's answer can be asked for again: its failed filter is the error alone.
    const read = await t.sct(['api', `/products/${created.id}`, '--jq', '.id | .x']);
    expect(read.exitCode).toBe(1);
    expect(read.stdout).toBe('');
  });
});

describe('sct api paths', () => {
  it('a path that repeats the base URL\'s /api gets the path meant as a hint', async () => {
    const r = await t.sct(['api', '/api/orders?order_action=buying&limit=1']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('which ends in /api already: did you mean /orders?order_action=buying&limit=1?');
  });
});

// "The token never appears in output, logs or --verbose traces": not when the user typed it into
// the request either (a path, a field, a header), as the service's echoes of it are masked.
describe('sct api: a token typed into the request is masked', () => {
  const TOKEN = 'sct_demo_owner_cacao';
  const masked = 'sct_…****';

  it('in the --verbose trace of the URL, the body and a header', async () => {
    const r = await t.sctBin(['api', '-v', '-X', 'PATCH', `/origins/1?t=${TOKEN}`, '-f', `description=key ${TOKEN}`, '-H', `X-Note: ${TOKEN}`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(TOKEN);
    expect(r.stderr).toContain(`?t=${masked}`);
    expect(r.stderr).toContain(`"description":"key ${masked}"`);
    expect(r.stderr).toContain(`x-note: ${masked}`);
    // What was sent is the token itself: only what is shown is masked (the sandbox's request
    // log masks it too, so the origin as stored says what arrived).
    expect((await t.api('/origins/1')).description).toBe(`key ${TOKEN}`);
  });

  it('in an error naming the request, as text and as the JSON error object', async () => {
    const r = await t.sctBin(['api', `/no-such-thing/${TOKEN}`, '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain(TOKEN);
    expect(r.stderr).toContain(`/no-such-thing/${masked}`);
  });

  it('in the hint of a path that doubles /api', async () => {
    const r = await t.sctBin(['api', `/api/orders?t=${TOKEN}`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`did you mean /orders?t=${masked}?`);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('in the dry run of a bulk file whose cell holds it, as the --verbose trace of its request does', async () => {
    const file = t.writeFile('tok.csv', `external_id,name,country_code,latitude,longitude,description\nTK-1,Farm,GH,6.5,-1.5,${TOKEN}\n`);
    for (const format of [[], ['-o', 'json']]) {
      const r = await t.sctBin(['origins', 'import', '--file', file, '--dry-run', ...format]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).not.toContain(TOKEN);
      expect(r.stdout).toContain(masked);
    }
  });

  it('in a dry run', async () => {
    const r = await t.sctBin(['api', '-X', 'POST', `/origins?t=${TOKEN}`, '-f', `name=${TOKEN}`, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(r.stdout).toContain(masked);
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toEqual([]);
  });
});
