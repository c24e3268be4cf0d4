// sct against a hostile server (test/helpers/hostile.ts) in front of the sandbox:
// answers that are not the API's, bodies that never end or never finish, absurd rate-limit
// headers and bad redirects. Each ends in a clear error naming the request, exit 1, no crash
// and no hang — and in a bulk run, never a row counted as created, or rejected, wrongly.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN, sctFor } from '../helpers/sct.js';
import { execa } from 'execa';
import { OWNER } from '../sandbox/helpers.js';
import { answer, cutAfterHeaders, htmlPage, hugeJson, startHostile, trickle, withHeaders, type Hostile } from '../helpers/hostile.js';

const t = useSandbox();
let h: Hostile;
let run = 0;

beforeAll(async () => {
  h = await startHostile(t.sb.url);
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.reset();
  run++;
});

/** sct through the hostile server, in-process; sctBin is the built binary. */
const sct = (args: string[], env: Record<string, string> = {}) => sctFor(h.url, OWNER, t.dir, { inProcess: true })(args, { env });
/** As sct, retrying as many times after a 1 ms backoff instead of 0.5–3.5 s (the backoff itself: test/unit/client.test.ts). */
const sctFastRetries = (args: string[]) => sctFor(h.url, OWNER, t.dir, { inProcess: true })(args, { clientOptions: { retryBaseMs: 1 } });
const sctBin = (args: string[]) => sctFor(h.url, OWNER, t.dir)(args);
const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |FATAL|Invalid time value|Invalid URL/);

async function productId(): Promise<number> {
  return (await t.api('/products?limit=1')).results[0].id;
}

function ordersCsv(n: number, product: number): string {
  const lines = ['external_id,type,order_created_at,seller_company_id,product,volume,unit'];
  for (let i = 1; i <= n; i++) lines.push(`H${run}-${i},order,2025-04-0${i},101,${product},10,kg`);
  return t.writeFile('orders.csv', lines.join('\n') + '\n');
}

async function countOrders(ids: string[]): Promise<number> {
  const list = { results: await t.ordersWith(ids) };
  return list.results.length;
}

describe('answers that are not the API speaking', () => {
  it('a 200 HTML page to a create is never "created": the row is unknown, exit 1, and the rerun sends it under the same key', async () => {
    const file = ordersCsv(2, await productId());
    h.on('POST /api/orders/purchase', htmlPage(200), { times: 1 });
    const r = await sct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '1', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/POST \/orders\/purchase: the answer is not JSON \(200 OK, an HTML page\)/);
    expect(r.stderr).toContain('purchase orders: 0 created, 0 rejected, 1 not sent, 1 unknown');
    const rows = JSON.parse(r.stdout) as Array<{ key: string; status: string }>;
    expect(rows.map((x) => x.status)).toEqual(['unknown', 'not_sent']);
    noStack(r.stderr);
    const posts = () => h.log.filter((x) => x.method === 'POST');
    const firstKey = posts()[0].key;

    h.log.length = 0;
    const again = await sct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '1']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('1 purchase order an earlier run sent without learning the outcome is sent again under its original Idempotency-Key');
    expect(again.stderr).toContain('purchase orders: 2 created, 0 rejected');
    expect(posts()[0].key).toBe(firstKey);
    expect(await countOrders([`H${run}-1`, `H${run}-2`])).toBe(2);
  });

  it('an update answered with a list is an error, not "Updated"; a create answered with an HTML page says its answer could not be read', async () => {
    h.on('PATCH /api/products/1', answer(201, {}, [{ id: 1 }]), { times: 1 });
    const r = await sct(['products', 'update', '1', '--name', 'Z', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('PATCH /products/1: the service answered 201 with a list, not the product: it may or may not have been changed');
    expect(r.stderr).not.toContain('✓ Updated');
    expect(r.stdout).toBe('');
    h.on('PATCH /api/orders/purchase/9', answer(200, {}, [{ id: 9 }, { id: 10 }]), { times: 1 });
    const order = await sct(['orders', 'update', '9', '--purchase', '--external-id', 'E10']);
    expect(order.exitCode, order.stderr).toBe(1);
    expect(order.stderr).toContain('PATCH /orders/purchase/9: the service answered 200 with a list, not the purchase order');
    expect(order.stderr).not.toContain('✓ Updated');
    h.on('PATCH /api/accounts/user-config', answer(200, {}, [{ id: 9 }]), { times: 1 });
    const config = await sct(['user-config', 'set', 'page_size=20']);
    expect(config.exitCode, config.stderr).toBe(1);
    expect(config.stderr).toContain('the service answered 200 with a list, not the configuration');
    h.on('POST /api/products', htmlPage(200), { times: 1 });
    const created = await sct(['products', 'create', '--name', 'Cocoa', '--commodity', 'cocoa']);
    expect(created.exitCode).toBe(1);
    expect(created.stderr).toContain('it may have been created (its answer was not one sct can read)');
  });

  it('a create answered 201 without an object is an error, not "created"', async () => {
    h.on('POST /api/products', answer(201, {}, { ok: true }));
    const r = await sct(['products', 'create', '--name', 'Cocoa', '--commodity', 'cocoa']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/POST \/products: the service answered 201 Created without the created object \(no id\)/);
  });

  it('an answer about another object than the one asked or changed is an error, never its success', async () => {
    // dds wait: the statement polled is 1; an answer about 2 (complete) must not end the wait as 1's.
    h.on('GET /api/due-diligence-statements/1', answer(200, {}, { id: 2, status: 'complete', dds_identifier: 'X', dds_data: null }), { times: 1 });
    const other = await sct(['dds', 'wait', '1', '--timeout', '5s']);
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toContain('error: unexpected answer from GET /due-diligence-statements/1: statement 2, not 1');
    expect(other.stderr).not.toContain('is complete');
    h.on('GET /api/due-diligence-statements/1', answer(200, {}, { id: 1, dds_data: null }), { times: 1 });
    const statusless = await sct(['dds', 'wait', '1', '--timeout', '5s']);
    expect(statusless.exitCode).toBe(1);
    expect(statusless.stderr).toContain('error: unexpected answer from GET /due-diligence-statements/1: not a statement (no status)');
    // members set-role: the member as answered has another role than the one sent.
    const member = (await t.api('/accounts/user-companies?limit=1')).results[0].id;
    h.on(`PATCH /api/accounts/user-companies/${member}`, answer(200, {}, { id: member, auth_group: 1, auth_group_detail: { id: 1, name: 'OWNER' } }), { times: 1 });
    const role = await sct(['members', 'set-role', String(member), '3']);
    expect(role.exitCode).toBe(1);
    expect(role.stderr).toContain(`error: PATCH /accounts/user-companies/${member}: the service answered that member ${member} has role 1 (OWNER), not 3`);
    expect(role.stderr).not.toContain('✓');
    h.on(`PATCH /api/accounts/user-companies/${member}`, answer(200, {}, {}), { times: 1 });
    const empty = await sct(['members', 'set-role', String(member), '3']);
    expect(empty.exitCode).toBe(1);
    expect(empty.stderr).toContain(`unexpected answer from PATCH /accounts/user-companies/${member}: not the member (no auth_group)`);
    // workspaces switch: an answer naming another workspace is not recorded as the one asked.
    h.on('POST /api/accounts/workspaces/switch', answer(200, {}, { company_id: 999, message: 'Switched.' }), { times: 1 });
    const switched = await sct(['workspaces', 'switch', '1']);
    expect(switched.exitCode).toBe(1);
    expect(switched.stderr).toContain('error: POST /accounts/workspaces/switch: the service answered that it switched to workspace 999, not 1: nothing was recorded');
    // workspaces current: a profile without a company is no workspace of blanks.
    const me = await t.api('/accounts/me');
    h.on('GET /api/accounts/me', answer(200, {}, { ...me, company: null, active_user_company_id: null }), { times: 1 });
    const none = await sct(['workspaces', 'current']);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('error: no active workspace: GET /accounts/me names no company');
  });

  it('an order read before an update whose items hold a null is an answer error, not a TypeError', async () => {
    const order = (await t.api('/orders?order_action=buying&limit=1')).results[0];
    const full = await t.api(`/orders/${order.id}`);
    h.on(`GET /api/orders/${order.id}`, answer(200, {}, { ...full, items: [null, ...full.items] }), { times: 1 });
    const product = await productId();
    const r = await sct(['orders', 'update', String(order.id), '--purchase', '--item', `product=${product},volume=2`, '--dry-run']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`error: unexpected answer from GET /orders/${order.id}: item 1 is null`);
    expect(r.stderr).not.toContain('Cannot read properties');
  });

  it('-o csv of a list whose field is text in one item and an object in another keeps the text in a column of its own', async () => {
    h.on('GET /api/documents', answer(200, {}, { count: 2, next: null, previous: null, results: [{ id: 1, name: { en: 'Permit', fr: 'Permis' } }, { id: 2, name: '=Plain' }] }), { times: 1 });
    const r = await sct(['documents', 'list', '-o', 'csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("id,name,name.en,name.fr\n1,,Permit,Permis\n2,'=Plain,,\n");
  });

  it('a date column shows the date of a date-time, and any other text whole: nothing cut into a pipe', async () => {
    const page = await t.api('/products?limit=2');
    const [a, b] = page.results;
    h.on('GET /api/products', answer(200, {}, { count: 2, next: null, previous: null, results: [{ ...a, created_at: 'sometime in 2026, maybe' }, { ...b, created_at: '2026-03-04T05:06:07Z' }] }), { times: 1 });
    const r = await sct(['products', 'list', '--limit', '2']);
    expect(r.exitCode, r.stderr).toBe(0);
    const [header, first, second] = r.stdout.trim().split('\n').map((l) => l.split('\t'));
    const at = header!.indexOf('CREATED');
    expect(first![at]).toBe('sometime in 2026, maybe');
    expect(second![at]).toBe('2026-03-04');
  });

  it('a create answered with a null item is still a create that went through: exit 0, the item said, not an error a script would retry', async () => {
    const product = await productId();
    h.on('POST /api/orders/purchase', async (_req, res, _body, forward) => {
      const up = await forward({ identity: true });
      const created = JSON.parse(up.body.toString('utf8'));
      res.writeHead(up.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...created, items: [...(created.items ?? []), null] }));
    }, { times: 1 });
    const r = await sct(['orders', 'create', '--purchase', '--external-id', `NULL-ITEM-${run}`, '--type', 'order', '--order-created-at', '2025-01-01', '--item', `product=${product},volume=2,unit=kg`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/✓ Created purchase order \d+/);
    expect(r.stderr).toMatch(/warning: unexpected answer from POST \/orders\/purchase: item 2 is null: the items that are no object are not shown/);
  });

  it('orders get of an order read with a null item is an answer error before anything is shown, not a blank item row', async () => {
    const order = (await t.api('/orders?order_action=buying&limit=1')).results[0];
    const full = await t.api(`/orders/${order.id}`);
    h.on(`GET /api/orders/${order.id}`, answer(200, {}, { ...full, items: [...full.items, null] }), { times: 2 });
    const r = await sct(['orders', 'get', String(order.id)]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`error: unexpected answer from GET /orders/${order.id}: item ${full.items.length + 1} is null`);
    expect(r.stdout).toBe('');
    // JSON shows the answer as it came: the null is there for the reader to see.
    const json = await sct(['orders', 'get', String(order.id), '-o', 'json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).items.at(-1)).toBeNull();
  });

  it('a sync whose listing holds an order with a null item is an answer error naming it, not a TypeError', async () => {
    const order = (await t.api('/orders?order_action=buying&limit=1')).results[0];
    const full = await t.api(`/orders/${order.id}`);
    h.on('GET /api/orders', answer(200, {}, { count: 1, next: null, previous: null, results: [{ ...full, items: [null] }] }), { times: 1 });
    const file = t.writeFile('sync-null.csv', `external_id,volume,line_number\n${full.external_id},99,1\n`);
    const r = await sct(['orders', 'sync', full.type === 'batch' ? '--batch' : '--purchase', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`unexpected answer from GET /orders: external_id ${full.external_id}: item 1 is null`);
    expect(r.stderr).not.toContain('Cannot read properties');
  });

  it('a sync\'s update answered with a list is unknown, not "updated" (as orders update reads it)', async () => {
    const file = ordersCsv(1, await productId());
    const first = await sct(['orders', 'import', '--purchase', '--file', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    const created = (await t.api(`/orders?order_action=buying&search=H${run}-1`)).results[0];
    writeFileSync(file, readFileSync(file, 'utf8').replace(',10,kg', ',11,kg'));
    h.on(`PATCH /api/orders/purchase/${created.id}`, answer(200, {}, [{ id: created.id }]), { times: 1 });
    const r = await sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain(`PATCH /orders/purchase/${created.id}: the service answered 200 with a list, not the purchase order: it may or may not have been changed`);
    expect(r.stderr).not.toMatch(/1 updated/);
  });

  it('a revoke answered with a null result, fewer ids than asked, or ids never asked for is no green "Revoked"', async () => {
    const made: string[] = [];
    for (let i = 0; i < 2; i++) {
      const c = await sct(['invitations', 'create', '--email', `h${run}-${i}@revoke.example`, '--role', '3', '-o', 'json']);
      expect(c.exitCode, c.stderr).toBe(0);
      made.push(JSON.parse(c.stdout).id as string);
    }
    const ids = made.join(',');
    h.on('POST /api/accounts/user-invitations/bulk-revoke', answer(200, {}, { results: [null] }), { times: 1 });
    const nul = await sct(['invitations', 'revoke', '--id', ids, '--yes']);
    expect(nul.exitCode).toBe(1);
    expect(nul.stderr).toContain('unexpected answer from POST /accounts/user-invitations/bulk-revoke: result 1 is null, so what it did is unknown');
    expect(nul.stderr).not.toContain('Cannot read properties');
    h.on('POST /api/accounts/user-invitations/bulk-revoke', answer(200, {}, { results: [{ index: 0, status: 'ok', revoked_count: 1, revoked_ids: [made[0]] }] }), { times: 1 });
    const fewer = await sct(['invitations', 'revoke', '--id', ids, '--yes']);
    expect(fewer.exitCode).toBe(3);
    expect(fewer.stderr).toContain('! Revoked 1 of 2 pending invitations');
    expect(fewer.stderr).toContain(`1 of 2 invitations were not revoked (accepted or changed since?): ${made[1]}`);
    h.on('POST /api/accounts/user-invitations/bulk-revoke', answer(200, {}, { results: [{ index: 0, status: 'ok', revoked_count: 3, revoked_ids: [...made, '03a80526-ef80-4dbe-83f6-fbed3ddd2cdc'] }] }), { times: 1 });
    const foreign = await sct(['invitations', 'revoke', '--id', ids, '--yes']);
    expect(foreign.exitCode).toBe(1);
    expect(foreign.stderr).toContain('it names as revoked invitations not asked for: 03a80526-ef80-4dbe-83f6-fbed3ddd2cdc');
  });

  it('a create answered with another object (another external_id) leaves the row unknown, never created under that id', async () => {
    const file = ordersCsv(2, await productId());
    h.on('POST /api/orders/purchase', answer(201, {}, { id: 1, external_id: 'OTHER', type: 'order' }));
    const r = await sct(['orders', 'import', '--purchase', '--file', file, '-o', 'json']);
    expect(r.exitCode).toBe(1);
    const rows = JSON.parse(r.stdout) as Array<{ status: string; id: unknown; error: string }>;
    expect(rows.map((x) => x.status)).toEqual(['unknown', 'unknown']);
    expect(rows[0]!.error).toContain(`the service answered 201 Created with the object of external_id "OTHER", not "H${run}-1": it may or may not have been created`);
  });

  it('dds trace --file answered with no result for the statement (none, or another\'s) leaves its rows unknown, never traced', async () => {
    const file = t.writeFile('pairs-h.csv', 'dds_id,order_id\n31,217\n31,195\n');
    for (const results of [[], [{ dds_id: 999, added_orders: [217, 195], total_orders: 2, message: 'ok' }]]) {
      h.on('POST /api/due-diligence-statements/trace-orders', answer(200, {}, { results, summary: { total_dds_processed: 1, total_orders_added: 2 } }), { times: 1 });
      const r = await sct(['dds', 'trace', '--file', file, '--fresh', '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(1);
      const rows = JSON.parse(r.stdout) as Array<{ status: string; error: string }>;
      expect(rows.map((x) => x.status)).toEqual(['unknown', 'unknown']);
      expect(rows[0]!.error).toBe('the answer holds no result for statement 31: it may have traced these orders');
    }
  });

  it('a download link that is no http(s) URL (file:///etc/passwd) is an answer error, never a request to the base URL', async () => {
    h.on('GET /api/documents/4/download', answer(200, {}, { url: 'file:///etc/passwd' }), { times: 1 });
    const out = join(t.dir, 'dl-file');
    const r = await sct(['documents', 'download', '4', '--out', out]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('unexpected answer from GET /documents/4/download: its url is no http(s) URL ("file:///etc/passwd")');
    expect(r.stderr).not.toContain('404');
  });

  it('a create answered with an id that is none (-1, 0, 1.5, a blank, past 2^53) is an error, not "Created -1"', async () => {
    for (const [id, said] of [[-1, 'id -1'], [0, 'id 0'], [1.5, 'id 1.5'], [' ', 'id " "'], [9007199254740993, 'a number past 2^53, which JSON reads as another']] as const) {
      h.on('POST /api/products', answer(201, {}, { id, name: 'Cocoa' }), { times: 1 });
      const r = await sct(['products', 'create', '--name', 'Cocoa', '--commodity', 'cocoa']);
      expect(r.exitCode, `${id}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(`POST /products: the service answered 201 Created without a usable id (${said}`);
      expect(r.stderr).not.toContain('✓ Created');
    }
  });

  it('an order created without an object (201 with no id, or 204) is an error, not "Created"', async () => {
    const product = await productId();
    h.on('POST /api/orders/purchase', answer(201, {}, { name: 'x' }), { times: 1 });
    const purchase = await sct(['orders', 'create', '--purchase', '--type', 'order', '--external-id', `H${run}-p`, '--order-created-at', '2025-04-01', '--seller-company-id', '101', '--item', `product=${product},volume=10,unit=kg`, '-o', 'json']);
    expect(purchase.exitCode, purchase.stderr).toBe(1);
    expect(purchase.stderr).toMatch(/POST \/orders\/purchase: the service answered 201 Created without the created object \(no id\)/);
    expect(purchase.stderr).not.toContain('✓ Created');
    expect(purchase.stdout).toBe('');

    h.on('POST /api/orders/batch', answer(204, {}, ''), { times: 1 });
    const batch = await sct(['orders', 'create', '--batch', '--set', 'company_id=1', '--set', 'type=order', '--set', `external_id=H${run}-b`, '--set', 'order_created_at=2025-04-01', '--set', 'tags=["a"]']);
    expect(batch.exitCode, batch.stderr).toBe(1);
    expect(batch.stderr).toMatch(/POST \/orders\/batch: the service answered 204 No Content without the created object \(no id\)/);
    expect(batch.stderr).not.toContain('✓ Created');
  });

  it('a renew answered without the new invitation (200 without an id, or 204) is an error, not "Renewed"', async () => {
    const uuid = '3f1c2a9e-5b7d-4e8f-9a1b-2c3d4e5f6a7b';
    for (const [status, body] of [[200, { name: 'x' }], [204, '']] as const) {
      h.on('POST /api/accounts/user-invitations/renew', answer(status, {}, body), { times: 1 });
      const r = await sct(['invitations', 'renew', uuid]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/POST \/accounts\/user-invitations\/renew: the service answered 20[04] [A-Za-z ]+ without the created object \(no id\)/);
      expect(r.stderr).not.toContain('✓ Renewed');
    }
  });

  it('a 404 on a path sct assumes (the documents show none) says so; on a documented one with an id, it is the id', async () => {
    h.on('GET /api/due-diligence-statements', answer(404, {}, { detail: 'Not found.' }));
    const r = await sct(['dds', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('hint: /due-diligence-statements is a path the API documents do not show, which sct assumes');
    h.on('GET /api/products/999999', answer(404, {}, { detail: 'Not found.' }));
    const missing = await sct(['products', 'get', '999999']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).not.toContain('sct assumes');
  });

  it('-o json writes a list page\'s numbers as the service wrote them, with or without --all (beyond 2^53, 1.10, 1e2)', async () => {
    // Ended by a line break, as many servers end a body.
    const page = '{"count": 2, "next": null, "previous": null, "results": [{"id": 9007199254740993, "v": 1.10, "w": 1e2}, {"id": 2, "volume": 12345678901234567890.5}]}\r\n';
    h.on('GET /api/products', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(page));
    for (const args of [['products', 'list', '-o', 'json'], ['products', 'list', '-o', 'json', '--all'], ['products', 'list', '-o', 'ndjson']]) {
      const r = await sct(args);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout, args.join(' ')).toContain('{"id": 9007199254740993, "v": 1.10, "w": 1e2}');
      expect(r.stdout, args.join(' ')).toContain('12345678901234567890.5');
    }
  });

  it('sct api prints an answer that is not JSON as it came (a ZIP, a CSV); an HTML page at 200 is still named, not printed', async () => {
    const zip = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.from([0x00, 0x80, 0xff, 0xfe, 0x0a, 0x1b, 0x7f]), Buffer.alloc(64, 0xc3)]);
    h.on('POST /api/compliance/risk-assessments/12/evidence-downloads', (_req, res) => void res.writeHead(200, { 'content-type': 'application/zip' }).end(zip));
    const env = { SCT_CONFIG_DIR: t.dir, SCT_BASE_URL: h.url, SCT_TOKEN: OWNER, HOME: t.dir, NO_COLOR: '1', PATH: process.env.PATH ?? '' };
    const raw = await execa(process.execPath, [BIN, 'api', '-X', 'POST', '/compliance/risk-assessments/12/evidence-downloads'], { env, extendEnv: false, encoding: 'buffer', reject: false });
    expect(raw.exitCode, Buffer.from(raw.stderr).toString()).toBe(0);
    expect(Buffer.compare(Buffer.from(raw.stdout), zip)).toBe(0);

    h.on('GET /api/products/export', (_req, res) => void res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end('id,name\n1,Cocoa\n'));
    const csv = await sct(['api', '/products/export', '-i']);
    expect(csv.exitCode, csv.stderr).toBe(0);
    expect(csv.stdout).toMatch(/^HTTP\/1\.1 200 OK\n[\s\S]*Content-Type: text\/csv; charset=utf-8\n[\s\S]*\n\nid,name\n1,Cocoa\n$/);

    h.on('GET /api/products', htmlPage(200), { times: 1 });
    const html = await sct(['api', '/products']);
    expect(html.exitCode).toBe(1);
    expect(html.stderr).toContain('the answer is not JSON (200 OK, an HTML page)');
  });

  it('a token the service echoes back is masked in errors, their JSON, --verbose and data alike', async () => {
    h.on('GET /api/products', answer(400, { 'x-request-id': `req for ${OWNER}` }, { detail: `token ${OWNER} is not valid here`, token: [OWNER] }), { times: 2 });
    const r = await sct(['products', 'list', '-v']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('token sct_…**** is not valid here');
    expect(r.stderr).not.toContain(OWNER);
    const asJson = await sct(['products', 'list', '-o', 'json']);
    expect(asJson.exitCode).toBe(1);
    expect(asJson.stderr).toContain('sct_…****');
    expect(asJson.stderr).not.toContain(OWNER);

    h.on('GET /api/products', answer(200, {}, { count: 1, next: null, previous: null, results: [{ id: 1, name: `made with ${OWNER}` }] }), { times: 2 });
    for (const format of ['json', 'table']) {
      const data = await sct(['products', 'list', '-o', format]);
      expect(data.exitCode, data.stderr).toBe(0);
      expect(data.stdout).toContain('made with sct_…****');
      expect(data.stdout).not.toContain(OWNER);
    }
  });

  it('a token echoed with "/" written "\\/" (PHP\'s JSON) or percent-encoded is masked too', async () => {
    const token = 'sct_ab/cd+ef/gh12345';
    const body = `{"detail":"Invalid token ${token.replaceAll('/', '\\/')}.","next":["/api/x?t=${encodeURIComponent(token)}"]}`;
    h.on('GET /api/products', (_req, res) => void res.writeHead(400, { 'content-type': 'application/json' }).end(body), { times: 1 });
    const r = await sct(['products', 'list', '-o', 'json'], { SCT_TOKEN: token });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Invalid token sct_…****.');
    expect(r.stderr).not.toContain('ab/cd');
    expect(r.stderr).not.toContain('ab%2Fcd');
  });

  it('a token the service echoes in a header is masked: a redirect is followed masked, api -i shows it masked', async () => {
    h.on('GET /api/products', (_req, res) => {
      res.writeHead(302, { location: `/api/leak/${OWNER}` });
      res.end();
    }, { times: 1 });
    const followed = await sct(['products', 'list', '-v']);
    expect(followed.exitCode).toBe(1);
    expect(followed.stderr).toContain('/leak/sct_…****');
    expect(followed.stderr).not.toContain(OWNER);
    expect(h.log.map((x) => x.path).join(' ')).not.toContain(`/leak/${OWNER}`);

    h.on('GET /api/products', (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:9/${OWNER}` });
      res.end();
    }, { times: 1 });
    const away = await sct(['products', 'list']);
    expect(away.exitCode).toBe(1);
    expect(away.stderr).toContain('another host');
    expect(away.stderr).not.toContain(OWNER);

    h.on('GET /api/products', answer(200, { 'x-echo': `Bearer ${OWNER}` }, { count: 0, next: null, previous: null, results: [] }), { times: 1 });
    const included = await sct(['api', '/products', '-i']);
    expect(included.exitCode, included.stderr).toBe(0);
    expect(included.stdout).toMatch(/x-echo: Bearer sct_…\*\*\*\*/i);
    expect(included.stdout).not.toContain(OWNER);
  });

  it('a write redirected to another host may have been made: the hint never offers a rerun that only gets the same redirect', async () => {
    h.on('POST /api/products', (_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.2:9/products/created' });
      res.end();
    }, { times: 1 });
    const create = await sct(['products', 'create', '--name', `Redirected ${run}`]);
    expect(create.exitCode).toBe(1);
    expect(create.stderr).toContain('another host');
    expect(create.stderr).toContain('it may have been created (the service answered with a redirect sct does not follow)');
    expect(create.stderr).toContain('a rerun with its key gets the same redirect');
    expect(create.stderr).not.toContain('--idempotency-key');
    const id = await productId();
    h.on(`PATCH /api/products/${id}`, (_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.2:9/products/updated' });
      res.end();
    }, { times: 1 });
    const update = await sct(['products', 'update', String(id), '--name', `Renamed ${run}`]);
    expect(update.exitCode).toBe(1);
    expect(update.stderr).toContain(`it may have been updated (the service answered with a redirect sct does not follow): \`sct products get ${id}\``);
  });

  it("a service error's detail and field names with line breaks or controls: one line each, stripped in the JSON too", async () => {
    h.on('GET /api/products', answer(400, {}, { detail: 'bad\nerror: fake second line', ['na\u202eme\u009b']: ['line one\nline two'] }), { times: 2 });
    const r = await sct(['products', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: bad error: fake second line');
    expect(r.stderr).not.toMatch(/^error: fake/m);
    expect(r.stderr).toContain('  name: line one line two');
    const asJson = await sct(['products', 'list', '-o', 'json']);
    const last = JSON.parse(asJson.stderr.trim().split('\n').at(-1)!);
    expect(Object.keys(last.fields)).toEqual(['name']);
  });

  it('an HTML error page is named by its status, never printed', async () => {
    h.on('GET /api/orders', htmlPage(502));
    const r = await sctFastRetries(['orders', 'list', '--buying']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: 502 Bad Gateway (HTML page) on GET /orders');
    expect(r.stderr).not.toMatch(/DOCTYPE|<html/i);
    expect(h.log.filter((x) => x.path === '/api/orders')).toHaveLength(4);
  });

  it('a JSON answer over 256 MB is refused while it streams (exit 1, "answer too large"), declared or not', async () => {
    h.on('GET /api/orders', hugeJson({ declare: true }), { times: 1 });
    const declared = await sct(['orders', 'list', '--buying']);
    expect(declared.exitCode, declared.stderr).toBe(1);
    expect(declared.stderr).toMatch(/error: GET \/orders: answer too large \(2\.1 GB, more than the 256 MB sct reads\)/);

    h.on('GET /api/orders', hugeJson(), { times: 1 });
    const streamed = await sct(['orders', 'list', '--buying']);
    expect(streamed.exitCode, streamed.stderr).toBe(1);
    expect(streamed.stderr).toMatch(/error: GET \/orders: answer too large \(more than the 256 MB sct reads\)/);
    noStack(streamed.stderr);
  });
});

describe('time limits', () => {
  it('--timeout bounds the whole request: a body trickled byte by byte is cut off, and the error names request and limit', async () => {
    h.on('GET /api/orders', trickle(50));
    const r = await sctFastRetries(['orders', 'list', '--buying', '--timeout', '300ms']);
    expect(r.exitCode, r.stderr).toBe(1);
    // The first try and three retries, each cut off at the limit, as a silent server's are said.
    expect(r.stderr).toContain('error: GET /orders: no complete answer within 300ms (--timeout) (after 4 attempts)');
    expect(h.log.filter((x) => x.path === '/api/orders')).toHaveLength(4);
  });

  it('--timeout must be more than 0: 0 and 0.0001 are usage errors, sent nowhere', async () => {
    for (const v of ['0', '0.0001', '0ms', '-1', 'soon', '']) {
      const r = await sct(['orders', 'list', '--buying', '--timeout', v]);
      expect(r.exitCode, `${v}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`invalid --timeout "${v}"`);
    }
    // Empty (`--max-wait "$W"` with W unset) is no default either.
    const empty = await sct(['orders', 'list', '--buying', '--max-wait=']);
    expect(empty.exitCode, empty.stderr).toBe(2);
    expect(empty.stderr).toContain('invalid --max-wait ""');
    expect(h.log).toHaveLength(0);
  });

  it('a --timeout past what a timer holds (10000h, as "no limit") is the longest one: the request is answered, no warning', async () => {
    h.on('GET /api/orders', answer(200, {}, { count: 0, next: null, previous: null, results: [] }));
    for (const v of ['10000h', '999999999999']) {
      const r = await sct(['orders', 'list', '--buying', '--timeout', v, '-o', 'json']);
      expect(r.exitCode, `${v}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('TimeoutOverflowWarning');
    }
    // Waits are said in days past two of them, and may be allowed in days.
    const days = await sct(['orders', 'list', '--buying', '--max-wait', '2d', '-o', 'json']);
    expect(days.exitCode, days.stderr).toBe(0);
  });

  it('a 503 asking to retry in a day stops at once with exit 1 and says when, instead of sleeping', async () => {
    h.on('GET /api/orders', answer(503, { 'retry-after': '86400' }, { detail: 'Down for maintenance.' }));
    const r = await sct(['orders', 'list', '--buying']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: the service is unavailable and asks sct to retry at \S+ \(in 24h\), longer than --max-wait \(GET \/orders\)/);
    expect(h.log).toHaveLength(1);
  });

  it('a Retry-After past a year (a date in 2099, a number of seconds past it) is "more than a year from now", not a date of sct\'s making', async () => {
    for (const retryAfter of ['Thu, 01 Jan 2099 00:00:00 GMT', '99999999999']) {
      h.on('GET /api/orders', answer(503, { 'retry-after': retryAfter }, { detail: 'Down for maintenance.' }));
      const r = await sct(['orders', 'list', '--buying']);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('error: the service is unavailable and asks sct to retry more than a year from now, longer than --max-wait (GET /orders)');
    }
  });

  it('waits add up against --max-wait, and the stop says the time already waited', async () => {
    h.on('GET /api/orders', answer(503, { 'retry-after': '2' }, { detail: 'Busy.' }));
    const r = await sct(['orders', 'list', '--buying', '--max-wait', '3s']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: the service is unavailable and asks sct to retry at \S+ \(in 2s\); with the 2s waited already, longer than --max-wait \(GET \/orders\)/);
    expect(h.log.filter((x) => x.path === '/api/orders')).toHaveLength(2);
  });

  it('a 429 whose reset is already past by the client clock waits for Retry-After, then goes on', async () => {
    const past = String(Math.floor(Date.now() / 1000) - 120);
    h.on('GET /api/orders', answer(429, { 'retry-after': '1', 'x-ratelimit-reset': past, 'x-ratelimit-remaining': '0' }), { times: 1 });
    const r = await sct(['orders', 'list', '--buying', '--limit', '1', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    const calls = h.log.filter((x) => x.path === '/api/orders');
    expect(calls).toHaveLength(2);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(1000);
  });

  it('absurd rate-limit headers give a readable stop, never "Invalid time value"', async () => {
    h.on('GET /api/orders', answer(429, { 'x-ratelimit-reset': '1e20', 'x-ratelimit-remaining': '0' }));
    const r = await sct(['orders', 'list', '--buying', '--max-wait', '2s']);
    expect(r.exitCode, r.stderr).toBe(1);
    // A reset 1e20 seconds away is no time sct can use: its own back-off, said as such.
    expect(r.stderr).toMatch(/error: rate limit exhausted, and the service gave no reset time: sct's next try would be at \S+ \(in 2s\); with the 1s waited already, longer than --max-wait \(GET \/orders\)/);
    noStack(r.stderr);
  });

  it('many waits in one run leave no listener behind (no MaxListenersExceededWarning)', async () => {
    h.on('GET /api/orders', answer(429, { 'retry-after': '0.001' }), { times: 12 });
    // Node prints the warning on the process's own stderr: a real process.
    const r = await sctBin(['orders', 'list', '--buying', '--limit', '1']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    expect(h.log.filter((x) => x.path === '/api/orders')).toHaveLength(13);
  });
});

describe('broken connections and redirects', () => {
  it('a POST whose connection is cut after the headers is unknown, not rejected; the rerun replays it under the same key', async () => {
    const file = ordersCsv(1, await productId());
    const report = join(t.dir, 'report.csv');
    h.on('POST /api/orders/purchase', cutAfterHeaders);
    const r = await sctFastRetries(['orders', 'import', '--purchase', '--file', file, '--report', report]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/the connection broke while reading the answer/);
    expect(r.stderr).not.toContain('rejected:');
    const lines = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(lines.map((l) => l.status)).toEqual(['unknown']);
    // The service did create it (each retry was replayed under the key).
    expect(await countOrders([`H${run}-1`])).toBe(1);
    const keys = new Set(h.log.filter((x) => x.method === 'POST').map((x) => x.key));
    expect(keys.size).toBe(1);

    h.reset();
    const again = await sct(['orders', 'import', '--purchase', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(h.log.filter((x) => x.method === 'POST').map((x) => x.key)).toEqual([...keys]);
    expect(JSON.parse(again.stdout)[0].status).toBe('created');
    expect(await countOrders([`H${run}-1`])).toBe(1);
  });

  it('a redirect to an invalid location names the request, never "Invalid URL"', async () => {
    h.on('GET /api/orders', answer(302, { location: 'http://[::1' }, {}));
    const r = await sct(['orders', 'list', '--buying']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`error: GET /orders: the service redirected (302 Found) from ${h.url}/orders?order_action=buying&limit=10&offset=0 to "http://[::1", which is not an http or https URL: not followed`);
    noStack(r.stderr);

    h.on('GET /api/orders', answer(301, { location: 'file:///etc/passwd' }, {}));
    const f = await sct(['orders', 'list', '--buying']);
    expect(f.exitCode).toBe(1);
    expect(f.stderr).toContain(`the service redirected (301 Moved Permanently) from ${h.url}/orders?order_action=buying&limit=10&offset=0 to "file:///etc/passwd", which is not an http or https URL: not followed`);
    h.on('GET /api/orders', answer(302, { location: 'ftp://user:secret@evil.example/x' }, {}));
    const ftp = await sct(['orders', 'list', '--buying']);
    expect(ftp.stderr).toContain('to "ftp://***@evil.example/x", which is not an http or https URL');
    expect(ftp.stderr).not.toContain('secret');
  });

  it('a redirect loop stops after 5 hops, naming the request', async () => {
    h.on('GET /api/orders', answer(307, { location: '/api/orders?again=1' }, {}));
    const r = await sct(['orders', 'list', '--buying']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: GET /orders: too many redirects (more than 5)');
  });
});

describe('doctor against answers that are not what it reads', () => {
  it('says a Date or X-RateLimit header it cannot read is unreadable, not missing', async () => {
    h.on('GET /api/accounts/me', withHeaders({ date: 'yesterday-ish', 'x-ratelimit-remaining': 'lots', 'x-ratelimit-limit': '1000' }), { times: 1 });
    const r = await sct(['doctor']);
    expect(r.stdout).toMatch(/^warn\s+clock\s+the server's Date header cannot be read \("yesterday-ish"\)$/m);
    expect(r.stdout).toMatch(/^warn\s+rate_limit\s+the server's X-RateLimit headers cannot be read \(Remaining "lots", Limit "1000"\)$/m);
    expect(r.stdout).not.toMatch(/sent no/);
  });

  it('a clock an hour off: the reset is told as the service counts it (an hour away), not corrected for the skew twice', async () => {
    for (const skew of [-3600, 3600]) {
      // The service's clock `skew` seconds from ours; its reset an hour away by its own clock.
      const server = Math.floor(Date.now() / 1000) + skew;
      h.on('GET /api/accounts/me', withHeaders({ date: new Date(server * 1000).toUTCString(), 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '50', 'x-ratelimit-reset': String(server + 3600) }), { times: 1 });
      const r = await sct(['doctor']);
      // Date has whole seconds: an hour, give or take the second the answer took.
      expect(r.stdout, String(skew)).toMatch(/^fail\s+clock\s+local clock is (1h|59m 59s) (ahead of|behind) the server/m);
      expect(r.stdout, String(skew)).toMatch(/^ok\s+rate_limit\s+50 of 100 requests left this hour \(resets in (1h|59m)\)$/m);
    }
  });

  it('takes an HTML page at the base URL for what it is, not the API answering; JSON under another type is the API', async () => {
    h.on('GET /api/accounts/countries', withHeaders({ 'content-type': 'text/json' }), { times: 1 });
    const json = await sct(['doctor']);
    expect(json.stdout).toMatch(/^ok\s+base_url\s+/m);
    h.on('GET /api/accounts/countries', htmlPage(200), { times: 1 });
    const r = await sct(['doctor']);
    expect(r.stdout).toMatch(/^warn\s+base_url\s+http:\/\/127\.0\.0\.1:\d+\/api answered with text\/html, not the API's JSON \(GET \/accounts\/countries\): is it the service's URL, or a proxy's or network's sign-in page\?$/m);
  });
  it("a service's message of 200,000 characters is cut to a line's worth, saying how much more there was, in text and in -o json", async () => {
    for (const json of [[], ['-o', 'json']]) {
      h.on('GET /api/products/907', answer(404, {}, { detail: 'x'.repeat(200_000), name: ['y'.repeat(200_000)] }), { times: 1 });
      const r = await sct(['products', 'get', '907', ...json]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('… (199,500 more characters)');
      expect(r.stderr.length).toBeLessThan(4_000);
    }
    // Thousands of fields, names of thousands of characters, an emoji where the cut falls.
    const many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, ['m'.repeat(500)]]));
    h.on('GET /api/products/908', answer(400, {}, { ['n'.repeat(3000)]: ['x'], ...many }), { times: 1 });
    const fields = await sct(['products', 'get', '908']);
    expect(fields.exitCode).toBe(1);
    expect(fields.stderr).toContain('(1,951 more field errors not shown)');
    expect(fields.stderr.length).toBeLessThan(40_000);
    // One field of 1,900 messages, in text and in -o json (where the count is a member of its own).
    h.on('GET /api/products/910', answer(400, {}, { name: Array.from({ length: 1900 }, (_, i) => `message ${i} ${'m'.repeat(480)}`) }), { times: 2 });
    const one = await sct(['products', 'get', '910']);
    expect(one.stderr).toContain('(1,850 more field errors not shown)');
    expect(one.stderr.length).toBeLessThan(40_000);
    const oneJson = await sct(['products', 'get', '910', '-o', 'json']);
    const object = JSON.parse(oneJson.stderr.trim().split('\n').pop()!);
    expect(object.fields.name).toHaveLength(50);
    expect(object.fields_not_shown).toBe(1850);
    h.on('GET /api/products/909', answer(404, {}, { detail: `${'a'.repeat(499)}😀${'b'.repeat(10)}` }), { times: 1 });
    const emoji = await sct(['products', 'get', '909', '-o', 'json']);
    expect(emoji.stderr).toContain('😀… (10 more characters)');
    // Whole characters: no half of the emoji's surrogate pair is left before the cut.
    // (Half of one is written as U+FFFD, or escaped as the text \ud83d in JSON.)
    expect(emoji.stderr).not.toContain('\uFFFD');
    expect(emoji.stderr).not.toContain('\\ud83d');
  });

  it("a row rejected with 2,000 field errors: its report line, summary line and -o json row show 50 and say how many more", async () => {
    const many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, ['x'.repeat(400)]]));
    h.on('POST /api/origins', answer(400, {}, many), { times: 2 });
    const file = t.writeFile(`plots-${run}.csv`, 'name,country_code,latitude,longitude\nPlot A,CI,6.8,-5.3\n');
    const report = join(t.dir, `plots-${run}-report.csv`);
    const r = await sct(['origins', 'import', '--file', file, '--report', report, '--fresh']);
    expect(r.exitCode, r.stderr.slice(0, 500)).toBe(3);
    expect(r.stderr).toContain('(1,950 more field errors not shown)');
    expect(r.stderr.length).toBeLessThan(60_000);
    expect(readFileSync(report, 'utf8').length).toBeLessThan(60_000);
    const json = await sct(['origins', 'import', '--file', file, '--fresh', '-o', 'json']);
    const [row] = JSON.parse(json.stdout);
    expect(Object.keys(row.fields)).toHaveLength(50);
    expect(row.fields_not_shown).toBe(1950);
  });

  it('a create answered 302 to an object ("created, see Location") is not taken as created from what is there: unknown, nothing read or sent again', async () => {
    const id = await productId();
    h.on('POST /api/products', answer(302, { location: `/api/products/${id}` }, {}), { times: 1 });
    const r = await sct(['products', 'create', '--name', `Redirected ${run}`, '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('Created product');
    expect(r.stderr).toContain(`POST /products: the service answered with a redirect (302 Found) to /products/${id}: not followed`);
    expect(r.stderr).toContain('it may have been created (the service answered with a redirect sct does not follow): a rerun with its key gets the same redirect');
    const sent = h.log.filter((q) => q.path.startsWith('/api/products'));
    expect(sent.map((q) => [q.method, q.path])).toEqual([['POST', '/api/products']]);
  });

  it('a chunk refused whole for the errors of 60 of its 100 rows: each of them reported with its own, the others not sent', async () => {
    h.on('POST /api/information-requests/bulk', (req, res, body) => {
      const n = JSON.parse(body.toString()).information_requests.length;
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ information_requests: Array.from({ length: n }, (_, i) => (i < 60 ? { order_id: [`order ${i} is not yours`] } : {})) }));
    }, { times: 1 });
    const file = t.writeFile(`requests-${run}.csv`, ['order_id', ...Array.from({ length: 100 }, (_, i) => String(1001 + i))].join('\n') + '\n');
    const report = join(t.dir, `requests-${run}-report.csv`);
    const r = await sct(['info-requests', 'send', '--file', file, '--report', report]);
    expect(r.exitCode, r.stderr).toBe(3);
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.filter((x) => x.status === 'rejected')).toHaveLength(60);
    expect(rows[55]).toMatchObject({ status: 'rejected' });
    expect(Object.values(rows[55]).join(' ')).toContain('order 55 is not yours');
    expect(Object.values(rows[55]).join(' ')).not.toContain('order 54 is not yours');
    expect(rows.slice(60).every((x) => x.status === 'not_sent')).toBe(true);
  });

  it('keys of the service are no column headers raw: sct api -o table, and a rejected field in a bulk report', async () => {
    const key = 'k\u001b]0;PWNED\u001b\\ey\u202e';
    h.on('GET /api/products', answer(200, {}, { count: 1, next: null, previous: null, results: [{ id: 1, [key]: 'v' }] }), { times: 1 });
    const table = await sct(['api', '/products', '-o', 'table']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toContain('key');
    expect(table.stdout).not.toMatch(/[\u001b\u202e]/);
    const report = join(t.dir, `rejected-${run}.csv`);
    h.on('POST /api/accounts/user-invitations/bulk-create', answer(200, {}, { results: [{ index: 0, status: 'rejected', invitation: null, error: { [`f${key}`]: ['x'] } }] }), { times: 1 });
    const file = t.writeFile(`people-${run}.csv`, 'email,auth_group\nrow1@example.com,3\n');
    const bulk = await sct(['invitations', 'bulk-create', '--file', file, '--report', report]);
    expect(bulk.exitCode, bulk.stderr).toBe(3);
    expect(readFileSync(report, 'utf8')).toContain('fkey');
    expect(readFileSync(report, 'utf8')).not.toMatch(/[\u001b\u202e]/);
  });
});

describe('a plot file whose features the service rejects', () => {
  it('names each by its feature and key, never a line; the rerun hint speaks of features', async () => {
    h.on('POST /api/origins', answer(400, {}, { name: ['This name is taken.'] }));
    const file = t.writeFile(
      'rejected.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [1, 2].map((n) => ({ type: 'Feature', properties: { external_id: `HOSTILE-PLOT-${run}-${n}`, name: `Plot ${n}`, country_code: 'CI', Area: 1 }, geometry: { type: 'Point', coordinates: [-5.289712, 6.820341] } })),
      }),
    );
    const r = await sct(['origins', 'import', '--file', file]);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain(`  feature 1 (HOSTILE-PLOT-${run}-1): `);
    expect(r.stderr).toContain(`  feature 2 (HOSTILE-PLOT-${run}-2): `);
    expect(r.stderr).not.toMatch(/\bline \d|\brows?\b/);
    expect(r.stderr).toContain('hint: fix the rejected features in the file, then rerun');
  });
});
