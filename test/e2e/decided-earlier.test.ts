// Writes decided earlier: what a person agreed to at a terminal is what is written, even when
// a colleague changes the service while the question waits. The built binary at a real
// pseudo-terminal, the colleague's change made through the sandbox before the answer is typed.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { hasScript, runAtTerminal, type Step } from '../helpers/terminal.js';
import { OWNER } from '../sandbox/helpers.js';
import { startHostile, type Hostile } from '../helpers/hostile.js';
import { sctFor } from '../helpers/sct.js';

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

/** `origins sync --file FILE --yes -o json` through a proxy in front of the sandbox, which `arrange` sets up: the run, its results and what the proxy saw. */
async function syncThroughProxy(file: string, arrange: (h: Hostile) => void) {
  const h = await startHostile(t.sb.url);
  try {
    arrange(h);
    const r = await sctFor(h.url, OWNER, t.dir)(['origins', 'sync', '--file', file, '--yes', '-o', 'json']);
    return { r, results: JSON.parse(r.stdout).results as Array<{ key: string; status: string; error?: string }>, log: [...h.log] };
  } finally {
    await h.close();
  }
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

describe('orders update --item that would drop existing items', () => {
  /** A purchase order with two items, as if created in the web app. */
  async function twoItemOrder(): Promise<{ id: number; items: Array<{ id: number }>; product: number }> {
    run++;
    const [p1, p2] = (await send('GET', '/products?limit=2')).results.map((p: any) => p.id);
    const order = await send('POST', '/orders/purchase', {
      type: 'order', external_id: `DROP-${run}`, order_created_at: '2025-03-01', seller_company_id: 101,
      items: [{ buyer_product: p1, volume: 100, unit: 'kg', line_number: 1 }, { buyer_product: p2, volume: 5, unit: 't', line_number: 2 }],
    });
    return { id: order.id, items: order.items, product: p1 };
  }
  const patches = () => t.sb.requests.filter((q) => q.method === 'PATCH');

  it('asks at a terminal, naming the items dropped; no keeps the order as it was', async () => {
    const o = await twoItemOrder();
    const [a, b] = o.items.map((i) => i.id);
    const r = await atTerminal(['orders', 'update', String(o.id), '--purchase', '--item', `product=${o.product},volume=1,unit=kg`], [{ when: '?', type: 'n\r' }]);
    expect(r.exitCode, r.screen).toBe(2);
    // The question wraps at the terminal's width.
    expect(r.screen.replace(/\s*\r?\n\s*/g, ' ')).toContain(`delete the 2 items the new list leaves out (item ${a} (line 1, external_id DROP-${run}-L1, product ${o.product}, 100 kg); item ${b} (line 2,`);
    expect(r.screen).toContain(`cancelled: order ${o.id} was not updated`);
    expect(patches()).toHaveLength(0);
    expect((await send('GET', `/orders/${o.id}`)).items.map((i: any) => i.id)).toEqual([a, b]);

    const yes = await atTerminal(['orders', 'update', String(o.id), '--purchase', '--item', `id=${a},volume=7`], [{ when: `(y/N)`, type: 'y\r' }]);
    expect(yes.exitCode, yes.screen).toBe(0);
    expect((await send('GET', `/orders/${o.id}`)).items.map((i: any) => [i.id, i.volume])).toEqual([[a, 7]]);
  });

  it('an item a colleague adds while the question waits is never deleted unnamed: nothing is sent, exit 1', async () => {
    const o = await twoItemOrder();
    const [a, b] = o.items.map((i) => i.id);
    let added = 0;
    const r = await atTerminal(['orders', 'update', String(o.id), '--purchase', '--item', `id=${a},volume=7`], [
      {
        when: '(y/N)',
        before: async () => {
          const order = await send('PATCH', `/orders/purchase/${o.id}`, { items: [{ id: a }, { id: b }, { buyer_product: o.product, volume: 9, unit: 'kg', line_number: 3 }] });
          added = order.items.find((i: any) => i.line_number === 3).id;
        },
        type: 'y\r',
      },
    ]);
    expect(r.exitCode, r.screen).toBe(1);
    expect(r.screen.replace(/\s*\r?\n\s*/g, ' ')).toContain(`order ${o.id} changed while the question waited: item ${added} (line 3`);
    expect(r.screen.replace(/\s*\r?\n\s*/g, ' ')).toContain('nothing was sent');
    expect((await send('GET', `/orders/${o.id}`)).items.map((i: any) => [i.id, i.volume])).toEqual([[a, 100], [b, 5], [added, 9]]);
  });

  it('forty items dropped: five named on one line each, then a count; a line break in an external_id stays on its line', async () => {
    run++;
    const [p1] = (await send('GET', '/products?limit=1')).results.map((p: any) => p.id);
    const items = Array.from({ length: 40 }, (_, i) => ({ buyer_product: p1, volume: 1, unit: 'kg', line_number: i + 1, external_id: i === 0 ? 'L0-first\nsecond' : `L${i}` }));
    const order = await send('POST', '/orders/purchase', { type: 'order', external_id: `DROP-${run}`, order_created_at: '2025-03-01', seller_company_id: 101, items });
    const refused = await t.sct(['orders', 'update', String(order.id), '--purchase', '--item', `product=${p1},volume=5,unit=kg`]);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('external_id L0-first second');
    expect(refused.stderr).toContain('; and 35 more)');
    expect(refused.stderr).not.toContain('external_id L5,');
    expect(patches()).toHaveLength(0);
  });

  it('in a script it needs --yes; naming every item asks nothing', async () => {
    const o = await twoItemOrder();
    const [a, b] = o.items.map((i) => i.id);
    const refused = await t.sct(['orders', 'update', String(o.id), '--purchase', '--item', `id=${a},volume=2`]);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`delete the item the new list leaves out (item ${b} (line 2`);
    expect(refused.stderr).toContain('confirm with --yes');
    expect(patches()).toHaveLength(0);
    // A dry run prints the PATCH and says what it would delete, asking nothing.
    const dry = await t.sct(['orders', 'update', String(o.id), '--purchase', '--item', `id=${a},volume=2`, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(`warning: the update would delete the item the new list leaves out (item ${b} (line 2`);
    expect(dry.stdout).toContain(`PATCH /orders/purchase/${o.id}`);
    expect(patches()).toHaveLength(0);

    const kept = await t.sct(['orders', 'update', String(o.id), '--purchase', '--item', `id=${a},volume=2`, '--item', `id=${b}`]);
    expect(kept.exitCode, kept.stderr).toBe(0);
    const forced = await t.sct(['orders', 'update', String(o.id), '--purchase', '--set', `items=[{"id":${b}}]`, '--yes']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect((await send('GET', `/orders/${o.id}`)).items.map((i: any) => i.id)).toEqual([b]);
  });
});

describe('orders sync: an order changed since the plan is not written', () => {
  const HEADER = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';

  /** A purchase order with two items on the service, and a file that changes the first item's volume. */
  async function orderAndFile(): Promise<{ id: number; items: number[]; product: number; file: string; key: string }> {
    run++;
    const key = `RACE-${run}`;
    const [p1, p2] = (await send('GET', '/products?limit=2')).results.map((p: any) => p.id);
    const order = await send('POST', '/orders/purchase', {
      type: 'order', external_id: key, order_created_at: '2025-03-01', seller_company_id: 101,
      items: [{ buyer_product: p1, volume: 100, unit: 'kg', line_number: 1 }, { buyer_product: p2, volume: 5, unit: 't', line_number: 2 }],
    });
    const file = t.writeFile(`${key}.csv`, `${HEADER}\n${key},order,2025-03-01,101,${p1},250,kg,1\n${key},,,,${p2},5,t,2\n`);
    return { id: order.id, items: order.items.map((i: any) => i.id), product: p1, file, key };
  }

  /** A colleague adds a third item in the web app (the whole list, as the app sends it). */
  const colleagueAddsItem = (o: { id: number; items: number[]; product: number }) =>
    send('PATCH', `/orders/purchase/${o.id}`, { items: [...o.items.map((id) => ({ id })), { buyer_product: o.product, volume: 9, unit: 'kg', line_number: 3 }] });
  /** Runs the change once, on the first request sct sends after it listed the orders (the plan is made by then). */
  const afterListing = (change: () => Promise<unknown>) => {
    let listed = false;
    t.sb.setBeforeHandle(async (q) => {
      if (q.path === '/orders') listed = true;
      else if (listed) {
        t.sb.setBeforeHandle(undefined);
        await change();
      }
    });
  };
  const itemsOf = async (id: number) => (await send('GET', `/orders/${id}`)).items.map((i: any) => [i.line_number, i.volume]);

  it.skipIf(!hasScript)('at a terminal: a colleague adds an item while "Apply the plan?" waits; the row ends as conflict, the rerun keeps the item', async () => {
    const o = await orderAndFile();
    const r = await atTerminal(['orders', 'sync', '--purchase', '--file', o.file], [{ when: 'Apply the plan', before: () => colleagueAddsItem(o), type: 'y\r' }]);
    expect(r.exitCode, r.screen).toBe(3);
    expect(r.screen).toContain('conflict');
    expect(r.screen).toContain(`purchase order ${o.id} changed on the service since the plan: not written`);
    expect(t.sb.requests.filter((q) => q.method === 'PATCH' && q.headers['authorization'] !== undefined && q.path === `/api/orders/purchase/${o.id}`)).toHaveLength(1); // the colleague's
    expect(await itemsOf(o.id)).toEqual([[1, 100], [2, 5], [3, 9]]);

    const rerun = await t.sct(['orders', 'sync', '--purchase', '--file', o.file, '--yes']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(await itemsOf(o.id)).toEqual([[1, 250], [2, 5], [3, 9]]);
  });

  it('with --yes: a change made between the plan and the write ends as conflict (exit 3, -o json says so), nothing written', async () => {
    const o = await orderAndFile();
    // The request after the listing (the re-read, or without one the PATCH) finds the colleague's item there.
    afterListing(() => colleagueAddsItem(o));
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', o.file, '--yes', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    // The object it is about, for a script reading .results[] (not only in the message's words).
    expect(JSON.parse(r.stdout).results).toEqual([expect.objectContaining({ key: o.key, status: 'conflict', id: o.id })]);
    expect(r.stderr).toContain('1 changed on the service since the plan');
    expect(await itemsOf(o.id)).toEqual([[1, 100], [2, 5], [3, 9]]);

    const rerun = await t.sct(['orders', 'sync', '--purchase', '--file', o.file, '--yes', '-o', 'json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout).results).toEqual([expect.objectContaining({ key: o.key, status: 'updated' })]);
    expect(await itemsOf(o.id)).toEqual([[1, 250], [2, 5], [3, 9]]);
  });

  it('an order deleted since the plan is a conflict too, not a rejection', async () => {
    const o = await orderAndFile();
    afterListing(() => send('DELETE', `/orders/${o.id}`));
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', o.file, '--yes', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(JSON.parse(r.stdout).results).toEqual([expect.objectContaining({ status: 'conflict', id: o.id, error: `purchase order ${o.id} was deleted on the service since the plan: not written` })]);
  });
});

describe.skipIf(!hasScript)('orders sync: an order created while the question waited', () => {
  it('is not created a second time: the row ends as conflict, the rerun compares with it', async () => {
    run++;
    const key = `LATE-${run}`;
    const [p1] = (await send('GET', '/products?limit=1')).results.map((p: any) => p.id);
    const file = t.writeFile(`${key}.csv`, `external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number\n${key},order,2025-03-01,101,${p1},10,kg,1\n`);
    const colleagueCreates = () => send('POST', '/orders/purchase', { type: 'order', external_id: key, order_created_at: '2025-03-01', seller_company_id: 101, items: [{ buyer_product: p1, volume: 12, unit: 'kg', line_number: 1 }] });
    const r = await atTerminal(['orders', 'sync', '--purchase', '--file', file], [{ when: 'Apply the plan', before: colleagueCreates, type: 'y\r' }]);
    expect(r.exitCode, r.screen).toBe(3);
    // The object it found, as the other conflicts name theirs.
    expect(r.screen).toMatch(new RegExp(`${key} was created on the service since the plan \\(id \\d+\\): not created again`));
    const ofKey = () => t.ordersWith([key]);
    expect(await ofKey()).toHaveLength(1);

    const rerun = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '-o', 'json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout).results).toEqual([expect.objectContaining({ key, status: 'updated' })]);
    expect((await ofKey()).map((o: any) => o.items[0].volume)).toEqual([10]);
  });
});

describe('origins sync: an origin created by someone else during the apply', () => {
  it('is read again right before its create: the row ends as conflict, not a second origin under its key', async () => {
    run++;
    const keys = [`ORI-RACE-${run}-A`, `ORI-RACE-${run}-B`];
    const file = t.writeFile(`race-${run}.csv`, `external_id,name,country_code,latitude,longitude\n${keys[0]},Race farm A,CI,5.350001,-4.020001\n${keys[1]},Race farm B,CI,5.360001,-4.030001\n`);
    // A colleague creates the second origin as the sync sends its first create.
    t.sb.setBeforeHandle(async (q) => {
      if (q.method !== 'POST' || q.path !== '/origins') return;
      t.sb.setBeforeHandle(undefined);
      await send('POST', '/origins', { name: 'Elsewhere', country_code: 'CI', external_id: keys[1] });
    });
    const r = await t.sct(['origins', 'sync', '--file', file, '--yes', '--concurrency', '1', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    const results = JSON.parse(r.stdout).results as Array<{ key: string; status: string; error?: string }>;
    expect(results.map((x) => [x.key, x.status])).toEqual([
      [keys[0], 'created'],
      [keys[1], 'conflict'],
    ]);
    expect(results[1]!.error).toMatch(new RegExp(`${keys[1]} was created on the service since the plan \\(id \\d+\\): not created again`));
    const held = (await send('GET', `/origins?external_id=${keys[1]}&limit=10`)).results;
    expect(held.map((o: { name: string }) => o.name)).toEqual(['Elsewhere']);
    expect((results[1] as { id?: unknown }).id).toBe(held[0].id);
  });
});

describe('origins sync: a change made while a write waits to be sent again', () => {
  it('a colleague\'s edit during a 503\'s back-off is read before the retry: conflict, their edit kept', async () => {
    run++;
    const origin = (await send('GET', '/origins?limit=50')).results.find((o: { external_id: string | null }) => o.external_id);
    const file = t.writeFile(`retry-${run}.csv`, `external_id,description\n${origin.external_id},from the nightly file ${run}\n`);
    // The first PATCH is refused with a 503 (nothing done); the colleague edits meanwhile.
    const { r, results, log } = await syncThroughProxy(file, (h) =>
      h.on(`PATCH /api/origins/${origin.id}`, async (_req, res) => {
        await send('PATCH', `/origins/${origin.id}`, { description: `colleague's fix ${run}` });
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ detail: 'Service temporarily unavailable.' }));
      }, { times: 1 }),
    );
    expect(r.exitCode, r.stderr).toBe(3);
    expect(results.map((x) => [x.key, x.status])).toEqual([[origin.external_id, 'conflict']]);
    expect(results[0]!.error).toMatch(/changed on the service since the plan \(perhaps by this very write: .*\): not written/);
    expect((await send('GET', `/origins/${origin.id}`)).description).toBe(`colleague's fix ${run}`);
    expect(log.filter((x) => x.method === 'PATCH')).toHaveLength(1);
  });

  it('a 503 a proxy says after passing the write on (Envoy\'s "reset before headers"): the write found done is updated, not a colleague\'s change', async () => {
    run++;
    const origin = (await send('GET', '/origins?limit=50')).results.find((o: { external_id: string | null }) => o.external_id);
    const file = t.writeFile(`proxied-${run}.csv`, `external_id,description\n${origin.external_id},proxied ${run}\n`);
    const { r, results, log } = await syncThroughProxy(file, (h) =>
      h.on(`PATCH /api/origins/${origin.id}`, async (_req, res, _body, forward) => {
        await forward();
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('upstream connect error or disconnect/reset before headers');
      }, { times: 1 }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(results.map((x) => [x.key, x.status])).toEqual([[origin.external_id, 'updated']]);
    expect((await send('GET', `/origins/${origin.id}`)).description).toBe(`proxied ${run}`);
    expect(log.filter((x) => x.method === 'PATCH')).toHaveLength(1);
  });

  it('the same for a create: the origin found with what it sends is created, once', async () => {
    run++;
    const key = `ORI-PROXIED-${run}`;
    const file = t.writeFile(`proxied-create-${run}.csv`, `external_id,name,country_code,latitude,longitude\n${key},Proxied farm,CI,5.380001,-4.050001\n`);
    const { r, results } = await syncThroughProxy(file, (h) =>
      h.on('POST /api/origins', async (_req, res, _body, forward) => {
        await forward();
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('upstream connect error or disconnect/reset before headers');
      }, { times: 1 }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(results.map((x) => [x.key, x.status])).toEqual([[key, 'created']]);
    expect((await send('GET', `/origins?external_id=${key}&limit=10`)).results).toHaveLength(1);
  });
});

describe('origins sync: the read before a write fails', () => {
  it('the row whose write never left is not_sent, not unknown', async () => {
    run++;
    const key = `ORI-READFAIL-${run}`;
    const file = t.writeFile(`readfail-${run}.csv`, `external_id,name,country_code,latitude,longitude\n${key},Read fail farm,CI,5.370001,-4.040001\n`);
    // The check of the key, right before the create, fails: the POST is never sent.
    const { r, results, log } = await syncThroughProxy(file, (h) =>
      h.on('GET /api/origins', (_req, res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: 'Server error.' }));
      }, { times: 10, when: (u) => u.searchParams.get('external_id') === key }),
    );
    expect(r.exitCode, r.stderr).toBe(1);
    expect(results.map((x) => [x.key, x.status])).toEqual([[key, 'not_sent']]);
    expect(log.filter((x) => x.method === 'POST')).toHaveLength(0);
  });
});

describe('orders sync: an order created by someone else during the apply', () => {
  it('the service refusing its taken external_id makes the row a conflict (the rerun plans from it), not a rejected row to fix', async () => {
    run++;
    const keys = [`PO-RACE-${run}-A`, `PO-RACE-${run}-B`];
    const [p1] = (await send('GET', '/products?limit=1')).results.map((p: any) => p.id);
    const rows = keys.map((k) => `${k},order,2025-03-01,101,${p1},10,kg,1`).join('\n');
    const file = t.writeFile(`po-race-${run}.csv`, `external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number\n${rows}\n`);
    t.sb.setBeforeHandle(async (q) => {
      if (q.method !== 'POST' || q.path !== '/orders/purchase') return;
      t.sb.setBeforeHandle(undefined);
      await send('POST', '/orders/purchase', { type: 'order', external_id: keys[1], order_created_at: '2025-03-01', seller_company_id: 101, items: [{ buyer_product: p1, volume: 12, unit: 'kg', line_number: 1 }] });
    });
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '--concurrency', '1', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    const results = JSON.parse(r.stdout).results as Array<{ key: string; status: string; error?: string }>;
    expect(results.map((x) => [x.key, x.status])).toEqual([
      [keys[0], 'created'],
      [keys[1], 'conflict'],
    ]);
    expect(results[1]!.error).toContain(`${keys[1]} was created on the service since the plan: not created again`);
    expect(r.stderr).not.toContain('fix the rejected rows');
  });
});
