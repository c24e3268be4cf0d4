// A write the service answers with a redirect, through every kind of command: a 301, 302 or 303
// may come after the write was carried out ("created: see there") and is read with a GET, never
// written again; a 307 or 308 sends the write itself again, and the answer there is its own.
// Whatever the GET then meets, the write's outcome is unknown, never a rejection nor the token's.
import { beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
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

  it('a DELETE or PATCH answered 301/302 is not taken as done from where it points, nor sent there; a 307 then 503 then 404 is no "Deleted"', async () => {
    const [a, b] = (await t.api('/products?limit=2&ordering=-id')).results as Array<{ id: number; name: string }>;
    hostile().on(`DELETE /api/products/${a.id}`, redirect(302, `/api/products/${b.id}`), { times: 1 });
    const moved = await sct(['products', 'delete', String(a.id), '--yes']);
    expect(moved.exitCode).toBe(1);
    expect(moved.stderr).not.toContain('Deleted');
    expect(moved.stderr).toContain(`it may have been deleted (the service answered with a redirect sct does not follow): \`sct products get ${a.id}\``);
    // A trailing slash's 301 leads back to the same object, still there: no "Deleted" either.
    hostile().on(`DELETE /api/products/${a.id}`, redirect(301, `/api/products/${a.id}/`), { times: 1 });
    const slash = await sct(['products', 'delete', String(a.id), '--yes']);
    expect(slash.exitCode).toBe(1);
    expect(slash.stderr).not.toContain('Deleted');
    hostile().on(`PATCH /api/products/${a.id}`, redirect(302, `/api/products/${a.id}`), { times: 1 });
    const patched = await sct(['products', 'update', String(a.id), '--name', `Renamed ${run}`]);
    expect(patched.exitCode).toBe(1);
    expect(patched.stderr).not.toContain('Updated');
    expect(sent('DELETE')).toEqual([`/api/products/${a.id}`, `/api/products/${a.id}`]);
    expect(sent('PATCH')).toEqual([`/api/products/${a.id}`]);
    expect(sent('GET').filter((p) => p.startsWith('/api/products/'))).toEqual([]);
    expect((await t.api(`/products/${b.id}`)).id).toBe(b.id);
    expect((await t.api(`/products/${a.id}`)).name).toBe(a.name);

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

  it('a create answered 302 is unknown, exit 1, and no rerun hint that only replays it; so is a bulk row redirected to an object of its kind', async () => {
    hostile().on('POST /api/origins', redirect(302, '/api/missing'), { times: 1 });
    const missing = await sct(['origins', 'create', '--name', `Farm M${run}`, '--country-code', 'CI']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('it may have been created (the service answered with a redirect sct does not follow): a rerun with its key gets the same redirect');
    expect(missing.stderr).not.toContain('--idempotency-key');

    const other = (await t.api('/origins?limit=1')).results[0] as { id: number };
    hostile().on('POST /api/origins', redirect(302, `/api/origins/${other.id}`), { times: 1 });
    const file = t.writeFile('redirected-to-another.csv', `name,country_code,external_id\nFarm N${run},CI,REDIR-N-${run}\n`);
    const r = await sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect((JSON.parse(r.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['unknown']);
    const again = await sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['created']);
  });

  it("sct api reads where a write's 302 points, as gh does; a second hop it does not follow gets no hint to rerun with the key", async () => {
    hostile().on('POST /api/origins', redirect(302, '/api/origins/landing'), { times: 1 });
    hostile().on('GET /api/origins/landing', redirect(302, 'https://login.example.com/sso'), { times: 1 });
    const r = await sct(['api', '-X', 'POST', '/origins', '-f', 'name=x']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('a rerun with its key gets the same redirect');
    expect(r.stderr).not.toContain('Idempotency-Key:');
  });

  it("sct api -o csv: a write whose 302 led to one object says the POST was answered 302, not that it went through with the GET's 200", async () => {
    hostile().on('POST /api/origins', redirect(302, '/api/origins/1'), { times: 1 });
    const r = await sct(['api', '-X', 'POST', '/origins', '-f', 'name=x', '-o', 'csv']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('went through (200)');
    expect(r.stderr).toContain('POST /origins was answered with a redirect (302 Found), and the GET of where it pointed answered 200');
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
      expect(r.stderr).toContain('a rerun with its key gets the same link');
      expect(r.stderr).not.toContain('Uploaded');
      expect(sent('POST').filter((p) => p.includes('confirm'))).toEqual([]);
      expect(sent('GET')).not.toContain('/login');
      hostile().on('POST /api/documents', answer(201, {}, { id: 78, name: 'f.txt', upload_url: signed }), { times: 1 });
    }
  });

  it('a DELETE retried after a 502, then sent on by a 307 and answered 404 there, is no "Deleted": that 404 is of another URL', async () => {
    const [a] = (await t.api('/products?limit=1&ordering=-id')).results as Array<{ id: number }>;
    let tries = 0;
    hostile().on(`DELETE /api/products/${a.id}`, (req, res, body, forward) => (tries++ === 0 ? answer(502, {}, { detail: 'bad gateway' })(req, res, body, forward) : redirect(307, '/api/products/99999')(req, res)), { times: 2 });
    const r = await sct(['products', 'delete', String(a.id), '--yes', '-v']);
    expect(sent('DELETE'), r.stderr).toEqual([`/api/products/${a.id}`, `/api/products/${a.id}`, '/api/products/99999']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('Deleted');
    expect((await t.api(`/products/${a.id}`)).id).toBe(a.id);
  });

  it('a DELETE sent on by a 308, answered 502 there, retried and answered 404 there: the first attempt there deleted it', async () => {
    let tries = 0;
    hostile().on('DELETE /api/products/777777', redirect(308, '/api/products/777777/'), { times: 2 });
    hostile().on('DELETE /api/products/777777/', (req, res, body, forward) => (tries++ === 0 ? answer(502, {}, { detail: 'bad gateway' }) : answer(404, {}, { detail: 'Not found.' }))(req, res, body, forward), { times: 2 });
    const r = await sct(['products', 'delete', '777777', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('Deleted product 777777');
  });

  it('a bulk run stopped at a row its service answers with a redirect: the hint takes that row out before the rerun, which would stop there again', async () => {
    hostile().on('POST /api/accounts/user-invitations/bulk-create', redirect(303, '/api/accounts/user-invitations'));
    const file = t.writeFile('redirected-people.csv', `email,auth_group\nr${run}@redirected.example,member\n`);
    const r = await sct(['invitations', 'bulk-create', '--file', file]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('a rerun resends it under the same key and gets the same redirect: see whether it went through, take it out of the file, then rerun for the rest');
  });

  it('a write answered 301 to another origin where the service seems to have moved: the hint says it may have been done before naming the new base URL', async () => {
    hostile().on('POST /api/products', redirect(301, 'http://127.0.0.2:9/api/products'), { times: 1 });
    const r = await sct(['products', 'create', '--name', `Moved ${run}`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/hint: the POST may have been carried out \(the service answered with a redirect sct does not follow\): see whether it was before you send it again; if the service lives there now, use that address as the base URL/);
  });

  it('a write answered with a redirect that names no place: no hint to rerun under the key, which gets the same', async () => {
    hostile().on('POST /api/products', answer(303, {}, ''), { times: 1 });
    const r = await sct(['products', 'create', '--name', `Nowhere ${run}`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('a rerun with its key gets the same redirect');
    expect(r.stderr).not.toContain('--idempotency-key');
  });

  it("sct api: a 401 on the page a write's redirect led to is exit 1 with its status and answer, never the token's", async () => {
    hostile().on('POST /api/origins', redirect(302, '/api/after'), { times: 1 });
    hostile().on('GET /api/after', answer(401, {}, { detail: 'Sign in first.' }), { times: 1 });
    const r = await sct(['api', '-X', 'POST', '/origins', '-f', 'name=x', '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr.split('\n').find((l) => l.startsWith('{'))!)).toMatchObject({ status: 401, exit_code: 1 });
  });

  it("an upload whose confirmation the service answers with a redirect: the hint is the rerun under the key, not storage's", async () => {
    const signed = `${new URL(hostile().url).origin}/bucket/79?sig=C${run}`;
    hostile().on('POST /api/documents', answer(201, {}, { id: 79, name: 'g.txt', upload_url: signed }), { times: 1 });
    hostile().on('PUT /bucket/79', answer(200, {}, ''), { times: 1 });
    hostile().on('POST /api/documents/79/confirm_upload', redirect(302, '/api/documents/'), { times: 1 });
    const file = join(t.dir, 'g.txt');
    writeFileSync(file, 'hello\n');
    const r = await sct(['documents', 'upload', file]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('storage answers its upload link');
    expect(r.stderr).toMatch(/run the same command with --idempotency-key \S+/);
    // The file reached storage, and the confirmation may have been carried out.
    expect(r.stderr).not.toContain('has no file yet');
    expect(r.stderr).toContain('document 79 has its file, and its confirmation may have been carried out');
  });

  it("a document's link that storage redirects to a sign-in page: the page is not saved as the document", async () => {
    const origin = new URL(hostile().url).origin;
    hostile().on('GET /api/documents/4', answer(200, {}, { id: 4, name: `report-${run}.pdf`, content_type: 'application/pdf' }), { times: 1 });
    hostile().on('GET /api/documents/4/download', answer(200, {}, { url: `${origin}/file/s?sig=SECRET${run}` }), { times: 1 });
    hostile().on('GET /file/s', redirect(302, '/file2/x'), { times: 1 });
    hostile().on('GET /file2/x', answer(200, { 'content-type': 'text/html; charset=utf-8' }, '<html>Sign in</html>'), { times: 1 });
    const dir = join(t.dir, `dl-${run}`);
    mkdirSync(dir);
    const r = await sct(['documents', 'download', '4', '--out', `${dir}/`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("storage answered with an HTML page (a sign-in or error page), not the document's application/pdf: nothing saved");
    expect(r.stderr).not.toContain(`SECRET${run}`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('dds trace over two requests, the second answered with a redirect: it may have gone through, never "failed"', async () => {
    let posts = 0;
    const traced = answer(200, {}, { results: [{ dds_id: 5, added_orders: [1, 2] }], summary: { total_orders_added: 2 } });
    hostile().on('POST /api/due-diligence-statements/trace-orders', (req, res, body, forward) => (++posts === 1 ? traced(req, res, body, forward) : redirect(302, '/api/due-diligence-statements/5')(req, res)));
    const orders = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    const r = await sct(['dds', 'trace', '--dds', '5', '--order', orders, '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(posts).toBe(2);
    expect(r.stderr).toContain('1 of 2 requests went through (2 orders added); the one of 1 order from 101 to statement 5 may have gone through (no answer says whether)');
    expect(r.stderr).not.toContain('failed');
    expect(r.stderr).not.toContain('run the same command again');
  });

  it('dds trace over two requests, the second failing with 500s: the rest is said to be sent by the same command again', async () => {
    let posts = 0;
    const traced = answer(200, {}, { results: [{ dds_id: 5, added_orders: [1, 2] }], summary: { total_orders_added: 2 } });
    hostile().on('POST /api/due-diligence-statements/trace-orders', (req, res, body, forward) => (++posts === 1 ? traced(req, res, body, forward) : answer(500, {}, { detail: 'Server error.' })(req, res, body, forward)));
    const orders = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    const r = await sct(['dds', 'trace', '--dds', '5', '--order', orders, '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('1 of 2 requests went through (2 orders added)');
    expect(r.stderr).toContain('to send the rest, run the same command again: an order already traced to a statement is not added twice');
  });

  it('a workspace switch answered 302 is not taken as switched: nothing recorded', async () => {
    hostile().on('POST /api/accounts/workspaces/switch', redirect(302, '/api/accounts/me'), { times: 1 });
    const r = await sct(['workspaces', 'switch', '2']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('not followed');
    expect(r.stderr).not.toContain('Switched');
  });
  it("a sync's update answered with a redirect: the hint speaks of no key (an update has none) and takes the row out before the rerun", async () => {
    const made = await fetch(`${t.sb.url}/origins`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: `Farm S${run}`, country_code: 'CI', external_id: `SYNC-REDIR-${run}` }) }).then((r) => r.json() as Promise<{ id: number }>);
    hostile().on(`PATCH /api/origins/${made.id}`, redirect(302, `/api/origins/${made.id}`));
    const file = t.writeFile('redirected-sync.csv', `external_id,name,country_code\nSYNC-REDIR-${run},Farm S${run} renamed,CI\n`);
    const r = await sct(['origins', 'sync', '--file', file, '--yes']);
    expect(r.exitCode).toBe(1);
    expect(sent('PATCH')).toEqual([`/api/origins/${made.id}`]);
    // A sync's rerun plans again: what went through is not sent again, and only what was not
    // meets the same redirect.
    expect(r.stderr).toContain('origins: 0 created, 0 rejected, 1 unknown (sent, no answer says what became of them: they may have been carried out)');
    expect(r.stderr).toContain('hint: if it went through, a rerun does not send it again; if the rerun meets the same redirect, take it out of the file then; rerun: sct origins sync');
    expect(r.stderr).toContain('(it plans again from what the service has');
    expect(r.stderr).not.toContain('same key and');
  });
});
