// A write the service answers with a redirect, through every kind of command: a 301, 302 or 303
// may come after the write was carried out ("created: see there") and is read with a GET, never
// written again; a 307 or 308 sends the write itself again, and the answer there is its own.
// Whatever the GET then meets, the write's outcome is unknown, never a rejection nor the token's.
import { beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { sctFor } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';
import { answer, useHostile } from '../helpers/hostile.js';

const t = useSandbox({}, { inProcess: true });
const hostile = useHostile(() => t.sb);
let run = 0;
beforeEach(() => {
  run++;
});

const sct = (args: string[]) => sctFor(hostile().url, OWNER, t.dir, { inProcess: true })(args, { clientOptions: { retryBaseMs: 1 } });
const redirect = (status: number, location: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(status, { location });
  res.end();
};
const sent = (method: string) => hostile().log.filter((x) => x.method === method).map((x) => x.path);

describe('a write answered with a redirect', () => {
  it('a bulk row whose create was answered 302 to a page that 404s is unknown, never rejected (its rerun would make a second)', async () => {
    hostile().on('POST /api/origins', redirect(302, '/api/origins/gone'));
    const file = t.writeFile('redirected-origins.csv', `name,country_code,external_id\nFarm R${run},CI,REDIR-${run}\n`);
    const r = await sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(r.exitCode).not.toBe(3);
    expect(r.exitCode).not.toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ status: string }>;
    expect(rows.map((x) => x.status)).toEqual(['unknown']);
    expect(r.stderr).not.toContain('fix the rejected rows');
    expect(sent('POST')).toEqual(['/api/origins']);
  });

  it('a DELETE answered 302 reads where it points, never deletes there; a 307 then 503 then 404 is no "Deleted"', async () => {
    const [a, b] = (await t.api('/products?limit=2&ordering=-id')).results as Array<{ id: number }>;
    hostile().on(`DELETE /api/products/${a.id}`, redirect(302, `/api/products/${b.id}`), { times: 1 });
    const moved = await sct(['products', 'delete', String(a.id), '--yes']);
    expect(sent('DELETE')).toEqual([`/api/products/${a.id}`]);
    expect(sent('GET')).toContain(`/api/products/${b.id}`);
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect((await t.api(`/products/${b.id}`)).id).toBe(b.id);

    hostile().reset();
    hostile().on('DELETE /api/products/999999', redirect(307, '/api/v2/products/999999'));
    hostile().on('DELETE /api/v2/products/999999', answer(503, {}, { detail: 'busy' }), { times: 1 });
    hostile().on('DELETE /api/v2/products/999999', answer(404, {}, { detail: 'Not found.' }));
    const gone = await sct(['products', 'delete', '999999', '--yes']);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toContain('404');
    expect(gone.stderr).not.toContain('Deleted');
  });

  it('a create sent again by a 307 and refused there is refused: no "may have been created"', async () => {
    hostile().on('POST /api/products', redirect(307, '/api/products/'));
    hostile().on('POST /api/products/', answer(400, {}, { name: ['This name is taken.'] }));
    const r = await sct(['products', 'create', '--name', `Taken ${run}`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('This name is taken.');
    expect(r.stderr).not.toContain('may have been created');
    expect(sent('POST')).toEqual(['/api/products', '/api/products/']);
  });

  it("a create answered 302 whose GET 404s or 401s: unknown, exit 1, never the token's fault, and no rerun hint that only replays it", async () => {
    hostile().on('POST /api/origins', redirect(302, '/api/missing'), { times: 1 });
    const missing = await sct(['origins', 'create', '--name', `Farm M${run}`, '--country-code', 'CI']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('it may have been created (the service answered with a redirect (302 Found), and the GET of where it pointed answered 404)');
    expect(missing.stderr).toContain('a rerun with its key gets the same redirect');
    expect(missing.stderr).not.toContain('--idempotency-key');

    hostile().on('POST /api/products', redirect(302, '/app/products/1'), { times: 1 });
    hostile().on('GET /app/products/1', answer(401, {}, { detail: 'Sign in first.' }));
    const signIn = await sct(['products', 'create', '--name', `Signed ${run}`, '-o', 'json']);
    expect(signIn.exitCode).toBe(1);
    expect(signIn.stderr).not.toContain('rejected');
    expect(signIn.stderr).toContain('it may have been created');
  });

  it("sct api: the user's Idempotency-Key and the body's headers stay with the POST, not the GET its 302 makes", async () => {
    hostile().on('POST /api/origins', redirect(302, '/api/missing'), { times: 1 });
    let getHeaders: Record<string, unknown> = {};
    hostile().on('GET /api/missing', (req, res) => {
      getHeaders = req.headers;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"detail":"Not found."}');
    });
    const r = await sct(['api', '-X', 'POST', '/origins', '-f', 'name=x', '-H', 'Idempotency-Key: K1']);
    expect(r.exitCode).toBe(1);
    expect(hostile().log.find((x) => x.method === 'POST')?.key).toBe('K1');
    expect(getHeaders['idempotency-key']).toBeUndefined();
    expect(getHeaders['content-length']).toBeUndefined();
  });

  it('an upload the storage answers with a redirect (to a sign-in page) is not taken as uploaded, and nothing is confirmed', async () => {
    const signed = `${new URL(hostile().url).origin}/bucket/78?sig=S${run}`;
    hostile().on('POST /api/documents', answer(201, {}, { id: 78, name: 'f.txt', upload_url: signed }), { times: 1 });
    for (const status of [302, 303]) {
      hostile().on('PUT /bucket/78', redirect(status, '/login'), { times: 1 });
      hostile().on('GET /login', answer(200, { 'content-type': 'text/html' }, '<html>sign in</html>'));
      const file = join(t.dir, 'f.txt');
      writeFileSync(file, 'hello\n');
      const r = await sct(['documents', 'upload', file]);
      expect(r.exitCode, `${status}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain('the storage answered the upload with a redirect');
      expect(r.stderr).not.toContain('Uploaded');
      expect(sent('POST').filter((p) => p.includes('confirm'))).toEqual([]);
      expect(sent('GET')).not.toContain('/login');
      hostile().on('POST /api/documents', answer(201, {}, { id: 78, name: 'f.txt', upload_url: signed }), { times: 1 });
    }
  });

  it('a workspace switch answered 302 to the user\'s profile, which names another active workspace, is not recorded as switched', async () => {
    hostile().on('POST /api/accounts/workspaces/switch', redirect(302, '/api/accounts/me'), { times: 1 });
    const r = await sct(['workspaces', 'switch', '2']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the service answered that it switched to workspace 1, not 2: nothing was recorded');
  });
});
