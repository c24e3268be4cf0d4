// sct orders import against the sandbox: one POST per order with its own Idempotency-Key, the
// per-order report, exit 3 on partial failure, nothing sent for an invalid file, and a run
// interrupted with Ctrl-C that a rerun finishes without creating anything twice.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { until, useSandbox } from '../helpers/sandbox.js';
import { dryRunBodies } from '../helpers/dry-run.js';

const t = useSandbox({}, { inProcess: true });
let products: number[];

beforeAll(async () => {
  products = (await t.api('/products?limit=3')).results.map((p: any) => p.id);
});

/** How many of the company's purchase orders carry each external id. */
async function existing(ids: string[]): Promise<Record<string, number>> {
  const list = { results: await t.ordersWith(ids) };
  const counts: Record<string, number> = Object.fromEntries(ids.map((i) => [i, 0]));
  for (const o of list.results) counts[o.external_id]++;
  return counts;
}

const posts = () => t.sb.requests.filter((q) => q.method === 'POST');

const writeCsv = (name: string, text: string): string => t.writeFile(name, text.trim() + '\n');

describe('orders import', () => {
  it("an order of 8,000 item rows: the report's line cell names them as a range, within a spreadsheet cell's 32,767 characters", async () => {
    const [a] = products;
    const rows = Array.from({ length: 8000 }, (_, i) => (i === 0 ? `BIG-1,order,2025-04-01,101,${a},1,kg,${i + 1}` : `BIG-1,,,,${a},1,kg,${i + 1}`));
    const file = writeCsv('big-order.csv', `external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number\n${rows.join('\n')}\nBIG-2,order,2025-04-01,101,${a},1,kg,1\nBIG-3,order,2025-04-01,101,${a},1,kg,1\nBIG-2,,,,${a},2,kg,2`);
    const report = join(t.dir, 'big-report.csv');
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--report', report, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const cells = (parse(readFileSync(report, 'utf8'), { columns: true }) as Record<string, string>[]).map((x) => [x.line, x.key]);
    expect(cells).toEqual([['2..8001', 'BIG-1'], ['8002 8004', 'BIG-2'], ['8003', 'BIG-3']]);
    // -o json keeps every line, as numbers.
    expect((JSON.parse(r.stdout) as Array<{ lines: number[] }>)[0]!.lines).toHaveLength(8000);
    // A sync's plan as CSV names them alike.
    const plan = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run', '-o', 'csv']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect((parse(plan.stdout, { columns: true }) as Record<string, string>[]).filter((x) => x.external_id.startsWith('BIG-')).map((x) => [x.lines, x.external_id, x.action])).toEqual([
      ['2..8001', 'BIG-1', 'unchanged'],
      ['8002 8004', 'BIG-2', 'unchanged'],
      ['8003', 'BIG-3', 'unchanged'],
    ]);
  });

  it('creates one order per external_id with its rows as items, reports it, and skips it on a rerun', async () => {
    const [a, b, c] = products;
    const file = writeCsv(
      'purchases.csv',
      `external_id,type,order_created_at,seller_company_id,tags,product,volume,unit,line_number,item_external_id
IMP-A,order,2025-04-01,101,eudr|organic,${a},100,kg,1,IMP-A-1
IMP-B,order,2025-04-02,102,,${b},7.5,t,1,
IMP-A,,,,,${c},50,kg,2,IMP-A-2
IMP-C,order,2025-04-03,103,priority,,,,,`,
    );
    const report = join(t.dir, 'report.csv');
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--report', report, '-o', 'csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('purchase orders: 3 created, 0 rejected');
    expect(posts().map((q) => q.path)).toEqual(Array(3).fill('/api/orders/purchase'));
    const keys = posts().map((q) => q.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(3);
    const bodies = Object.fromEntries(posts().map((q) => [JSON.parse(q.body).external_id, JSON.parse(q.body)]));
    expect(bodies['IMP-A']).toEqual({
      external_id: 'IMP-A',
      type: 'order',
      order_created_at: '2025-04-01',
      seller_company_id: 101,
      tags: ['eudr', 'organic'],
      items: [
        { buyer_product: a, volume: 100, unit: 'kg', line_number: 1, external_id: 'IMP-A-1' },
        { buyer_product: c, volume: 50, unit: 'kg', line_number: 2, external_id: 'IMP-A-2' },
      ],
    });
    expect(bodies['IMP-C']).toEqual({ external_id: 'IMP-C', type: 'order', order_created_at: '2025-04-03', seller_company_id: 103, tags: ['priority'] });

    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => [x.line, x.key, x.status])).toEqual([
      ['2 4', 'IMP-A', 'created'],
      ['3', 'IMP-B', 'created'],
      ['5', 'IMP-C', 'created'],
    ]);
    expect(parse(r.stdout, { columns: true })).toEqual(rows);
    expect(await existing(['IMP-A', 'IMP-B', 'IMP-C'])).toEqual({ 'IMP-A': 1, 'IMP-B': 1, 'IMP-C': 1 });

    t.sb.requests.length = 0;
    const again = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('3 skipped (done in an earlier run)');
    expect(posts()).toHaveLength(0);

    // --fresh sends everything under new keys: an order deleted since is created again (not a
    // replay of the first answer), the others are refused by the service as existing.
    const deleted = (await t.ordersWith(['IMP-B']))[0];
    expect((await t.sct(['orders', 'delete', String(deleted.id), '--yes'])).exitCode).toBe(0);
    t.sb.requests.length = 0;
    const fresh = await t.sct(['orders', 'import', '--purchase', '--file', file, '--fresh']);
    expect(fresh.exitCode, fresh.stderr).toBe(3);
    expect(fresh.stderr).toContain('purchase orders: 1 created, 2 rejected');
    expect(posts().map((q) => q.headers['idempotency-key']).filter((k) => keys.includes(k))).toEqual([]);
    expect(await existing(['IMP-A', 'IMP-B', 'IMP-C'])).toEqual({ 'IMP-A': 1, 'IMP-B': 1, 'IMP-C': 1 });
    expect((await t.ordersWith(['IMP-B']))[0].id).not.toBe(deleted.id);
  });

  it('a list written with -o csv imports back with its items (the items column, as JSON), new external ids aside', async () => {
    const exported = await t.sct(['orders', 'list', '--buying', '--limit', '3', '-o', 'csv']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const rows = parse(exported.stdout, { columns: true }) as Array<Record<string, string>>;
    // As a user copies orders: under new external ids.
    const file = writeCsv('exported.csv', exported.stdout.replace(/^(\d+,\d+,\w+,)([^,]+),/gm, '$1COPY-$2,'));
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/ignoring .*items/);
    const bodies = dryRunBodies(r.stdout);
    expect(bodies).toHaveLength(3);
    rows.forEach((row, i) => {
      const items = (JSON.parse(row.items) as Array<Record<string, unknown>>).map((it) => ({
        buyer_product: it.buyer_product ?? undefined,
        volume: it.volume,
        unit: it.unit,
        line_number: it.line_number ?? undefined,
        external_id: it.external_id ?? undefined,
        metadata: it.metadata ?? undefined,
        trace: it.trace ?? undefined,
      }));
      expect(bodies[i]!.external_id).toBe(`COPY-${row.external_id}`);
      expect(bodies[i]!.items).toEqual(items.map((it) => Object.fromEntries(Object.entries(it).filter(([, v]) => v !== undefined && v !== null))));
    });
    // Items as rows and as the column at once: which would it be?
    const both = writeCsv('both.csv', `external_id,type,order_created_at,seller_company_id,volume,unit,items\nB-1,order,2025-01-01,101,5,kg,"[{""volume"":1,""unit"":""kg""}]"`);
    const twice = await t.sct(['orders', 'import', '--purchase', '--file', both, '--dry-run']);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('line 2, items: give the items as rows (product, volume, unit…) or as this column, not both');
    const bad = writeCsv('bad-items.csv', 'external_id,type,order_created_at,seller_company_id,items\nB-2,order,2025-01-01,101,not json');
    const notJson = await t.sct(['orders', 'import', '--purchase', '--file', bad, '--dry-run']);
    expect(notJson.exitCode).toBe(2);
    expect(notJson.stderr).toContain('line 2, items: not a JSON list of items');
    expect(posts()).toEqual([]);
  });

  it('reports rejected orders with their lines and exits 3; the others go through', async () => {
    const taken = (await t.api('/orders?order_action=buying&limit=20')).results.find((o: any) => o.company_id === 1).external_id;
    const file = writeCsv(
      'partial.csv',
      `external_id,type,order_created_at,seller_company_id,product,volume,unit
P-OK-1,order,2025-05-01,101,${products[0]},1,kg
${taken},order,2025-05-02,101,${products[0]},1,kg
P-BAD-PRODUCT,order,2025-05-03,101,999999,1,kg
P-OK-2,order,2025-05-04,101,${products[1]},2,kg`,
    );
    const report = join(t.dir, 'partial-report.csv');
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--report', report, '--concurrency', '2', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    // -o json: the same outcomes typed for scripts, with the API's field errors as an object.
    const json = JSON.parse(r.stdout);
    expect(json[1]).toMatchObject({ lines: [3], key: taken, status: 'rejected', id: null, fields: { external_id: ['order with this external id already exists.'] } });
    expect(json[0]).toMatchObject({ lines: [2], status: 'created', error: null, fields: null });
    expect(typeof json[0].id).toBe('number');
    expect(r.stderr).toContain('purchase orders: 2 created, 2 rejected');
    expect(r.stderr).toContain('2 of 4 purchase orders rejected');
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => [x.line, x.key, x.status])).toEqual([
      ['2', 'P-OK-1', 'created'],
      ['3', taken, 'rejected'],
      ['4', 'P-BAD-PRODUCT', 'rejected'],
      ['5', 'P-OK-2', 'created'],
    ]);
    expect(rows[1].error).toContain('external_id: order with this external id already exists.');
    expect(rows[2].error).toContain('items[0].buyer_product (line 4): Invalid pk "999999"');
    expect(Number(rows[0].id)).toBeGreaterThan(0);
  });

  it('imports batches whose tags cell is blank as batches without tags', async () => {
    const file = writeCsv('batches.csv', `external_id,type,order_created_at,company_id,tags,product,volume
BT-1,produced_batch,2025-05-01,1,,${products[0]},4
BT-2,produced_batch,2025-05-02,1,lot-9,${products[1]},2`);
    const r = await t.sct(['orders', 'import', '--batch', '--file', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts().map((q) => q.path)).toEqual(['/api/orders/batch', '/api/orders/batch']);
    const bodies = posts().map((q) => JSON.parse(q.body));
    expect(bodies.map((b) => b.tags).sort()).toEqual([[], ['lot-9']]);
  });

  it('an item given twice in one order (a line_number or an item_external_id again, or the same row pasted twice) is exit 2, nothing sent', async () => {
    const [a, b] = products;
    const file = writeCsv(
      'twice.csv',
      [
        'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number,item_external_id',
        `TW-1,order,2025-04-01,101,${a},10,kg,1,A`,
        `TW-1,order,2025-04-01,101,${b},5,kg,1,B`,
        `TW-2,order,2025-04-01,101,${a},10,kg,,C`,
        `TW-2,order,2025-04-01,101,${b},10,kg,,C`,
        `TW-3,order,2025-04-01,101,${a},10,kg,,`,
        `TW-3,order,2025-04-01,101,${a},10,kg,,`,
        `TW-4,order,2025-04-01,101,${a},10,kg,1,`,
        `TW-5,order,2025-04-01,101,${a},10,kg,1,`,
      ].join('\n'),
    );
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(posts()).toHaveLength(0);
    expect(r.stderr).toContain('line 3, line_number: 1 is also the line number of line 2 of order TW-1');
    expect(r.stderr).toContain('line 5, item_external_id: "C" is also the item of line 4 of order TW-2');
    expect(r.stderr).toContain('line 7: the same item as line 6 of order TW-3 (a row given twice? give each item its own line_number)');
    expect(r.stderr).not.toMatch(/line (8|9)/);
  });

  it('checks every row first: exit 2, each problem with line and column, nothing sent', async () => {
    const bad = writeCsv(
      'bad.csv',
      `external_id,type,order_created_at,seller_company_id,product,volume,unit
B-1,order,2025-04-01,101,1,abc,kg
B-1,produced_batch,2025-04-01,101,1,5,kg
B-2,ordr,2025-02-30,x,1,5,kg
,order,2025-04-01,101,1,5,kg`,
    );
    // Tags separated by a comma (as in a sentence) are one tag "eudr, organic" if taken as written.
    const commaTags = writeCsv('comma-tags.csv', 'external_id,type,order_created_at,tags\nT-1,order,2025-01-01,"eudr, organic"\nT-2,order,2025-01-01,"[""eudr, organic""]"');
    const twice = writeCsv('twice.csv', 'external_id,type,Type,order_created_at\nX,order,order,2025-01-01');
    const signed = writeCsv('signed.csv', 'external_id,type,order_created_at,signed_off_at\nX,order,2025-01-01,1 Jan 2025');
    const unknown = writeCsv('unknown.csv', 'external_id,company_id,colour\nX,1,red');
    const good = writeCsv('good.csv', `external_id,type,order_created_at\nD-1,order,2025-01-01\nD-2,order,2025-01-02`);
    const existingReport = writeCsv('exists.csv', 'x');
    const [r, u, noKind, noFile, report, dry, dup, when, tags] = await Promise.all([
      t.sct(['orders', 'import', '--purchase', '--file', bad]),
      t.sct(['orders', 'import', '--purchase', '--file', unknown]),
      t.sct(['orders', 'import', '--file', good]),
      t.sct(['orders', 'import', '--sale', '--file', join(t.dir, 'missing.csv')]),
      t.sct(['orders', 'import', '--sale', '--file', good, '--report', existingReport]),
      t.sct(['orders', 'import', '--sale', '--file', good, '--dry-run', '-o', 'json']),
      t.sct(['orders', 'import', '--purchase', '--file', twice]),
      t.sct(['orders', 'import', '--purchase', '--file', signed]),
      t.sct(['orders', 'import', '--purchase', '--file', commaTags]),
    ]);
    expect(tags.exitCode).toBe(2);
    expect(tags.stderr).toContain('comma-tags.csv: 1 invalid row; nothing was sent');
    expect(tags.stderr).toContain('line 2, tags: "eudr, organic" has a comma: the values of a list are separated by | or ; (eudr|organic); one that holds a comma is written in a JSON list, ["eudr, organic"]');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('bad.csv: 4 invalid rows; nothing was sent');
    expect(r.stderr).toMatch(/line 2, volume: "abc" is not a number/);
    expect(r.stderr).toMatch(/line 3, type: "produced_batch" conflicts with line 2 of order B-1/);
    expect(r.stderr).toMatch(/line 4, seller_company_id: "x" is not a whole number/);
    expect(r.stderr).toMatch(/line 4, order_created_at: expected a date YYYY-MM-DD/);
    expect(r.stderr).toMatch(/line 5, external_id: required: it names the order/);
    expect(dup.exitCode).toBe(2);
    expect(dup.stderr).toContain('twice.csv line 1: columns 2 ("type") and 3 ("Type") are the same column, type');
    expect(when.exitCode).toBe(2);
    expect(when.stderr).toContain('line 2, signed_off_at: expected an ISO 8601 date-time');
    expect(u.exitCode).toBe(2);
    expect(u.stderr).toContain('unknown.csv: ignoring 1 column the service sets itself (company_id)');
    expect(u.stderr).toContain('unknown column colour');
    expect(noKind.exitCode).toBe(2);
    expect(noKind.stderr).toContain('one of --purchase, --sale or --batch is required');
    expect(noFile.exitCode).toBe(2);
    expect(noFile.stderr).toContain('cannot read');
    expect(report.exitCode).toBe(2);
    expect(report.stderr).toContain('already exists: pass --force');
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dryRunBodies(dry.stdout)).toEqual([
      { external_id: 'D-1', type: 'order', order_created_at: '2025-01-01' },
      { external_id: 'D-2', type: 'order', order_created_at: '2025-01-02' },
    ]);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('a number with more digits than one holds exactly is exit 2 (it would go changed); one that goes as written is taken, whatever its spelling', async () => {
    const head = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';
    const long = writeCsv('long-volume.csv', `${head}\nL-1,order,2025-01-01,101,1,12345678901234567890,kg,1\nL-2,order,2025-01-01,101,1,0.1234567890123456789,kg,1`);
    const r = await t.sct(['orders', 'import', '--purchase', '--file', long, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('line 2, volume: "12345678901234567890" has more digits than a number holds exactly (it would be sent as 12345678901234567000)');
    expect(r.stderr).toContain('line 3, volume: "0.1234567890123456789" has more digits than a number holds exactly (it would be sent as 0.12345678901234568)');
    const tiny = writeCsv('tiny-volume.csv', `${head}\nT-1,order,2025-01-01,101,1,1e-400,kg,1`);
    const small = await t.sct(['orders', 'import', '--purchase', '--file', tiny, '--dry-run']);
    expect(small.stderr).toContain('line 2, volume: "1e-400" is closer to 0 than a number holds (it would be sent as 0)');
    const fine = writeCsv('fine-volume.csv', `${head}\nF-1,order,2025-01-01,101,1,0.30000000000000004,kg,1\nF-2,order,2025-01-01,101,1,1250.500,kg,1\nF-3,order,2025-01-01,101,1,1.5e3,kg,1\nF-4,order,2025-01-01,101,1,007,kg,1`);
    const ok = await t.sct(['orders', 'import', '--purchase', '--file', fine, '--dry-run', '-o', 'json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as Array<{ body: { items: Array<{ volume: number }> } }>).map((q) => q.body.items[0]!.volume)).toEqual([0.30000000000000004, 1250.5, 1500, 7]);
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('stops on Ctrl-C with exit 130, and a rerun creates the rest without duplicates', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `INT-${i + 1}`);
    const file = writeCsv(
      'interrupt.csv',
      ['external_id,type,order_created_at,seller_company_id,product,volume,unit', ...ids.map((id) => `${id},order,2025-06-01,101,${products[0]},1,kg`)].join('\n'),
    );
    t.sb.setFaults({ latencyMs: 300 });
    const child = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '2']);
    await until(() => posts().filter((q) => q.status === 201).length >= 2, 'two orders to be created', 20_000);
    child.kill('SIGINT');
    const first = await child;
    expect(first.exitCode, String(first.stderr)).toBe(130);
    const notSent = Number(/interrupted: (\d+) purchase orders? not sent/.exec(String(first.stderr))?.[1]);
    expect(notSent).toBeGreaterThan(0);
    expect(String(first.stderr)).toContain('to continue, rerun: sct ');

    t.sb.setFaults({});
    // Requests the interrupted run had in flight may still land; let them before counting.
    await new Promise((r) => setTimeout(r, 400));
    const second = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/\d+ skipped \(done in an earlier run\)/);
    expect(second.stderr).toContain('0 rejected');
    expect(await existing(ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
  });

  it('an order sent without an answer goes out again under its key: edited since, it is a conflict, never a second order', async () => {
    const header = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';
    const rowsOf = (volume: number) => [`LOST-1,order,2025-07-01,101,${products[0]},${volume},kg,1`, `LOST-1,order,2025-07-01,101,${products[1]},20,kg,2`];
    const file = writeCsv('lost.csv', [header, ...rowsOf(10)].join('\n'));
    // The order is created, then every answer to it (the try and its three retries) is lost.
    t.sb.setFaults({ dropFirst: 4, dropAfterProcessing: true, methods: ['POST'] });
    const first = await t.sctIn(['orders', 'import', '--purchase', '--file', file], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stderr).toContain('1 unknown');
    const key = posts()[0].headers['idempotency-key'];
    expect(await existing(['LOST-1'])).toEqual({ 'LOST-1': 1 });

    // A volume edited before the rerun: the same key, which the service keeps for the first body.
    writeCsv('lost.csv', [header, ...rowsOf(11)].join('\n'));
    t.sb.requests.length = 0;
    const edited = await t.sct(['orders', 'import', '--purchase', '--file', file, '-o', 'json']);
    expect(edited.exitCode, edited.stderr).toBe(3);
    expect(posts().map((q) => q.headers['idempotency-key'])).toEqual([key]);
    expect((JSON.parse(edited.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['conflict']);
    expect(edited.stderr).toContain('LOST-1 went out in an earlier run with other content and its answer was lost (it may exist)');
    expect(edited.stderr).toContain('purchase orders: 0 created, 0 rejected, 1 not done (changed since an earlier run sent them without an answer: the service keeps what was sent then)');
    // Still on record as sent: the next run keys it the same.
    t.sb.requests.length = 0;
    expect((await t.sct(['orders', 'import', '--purchase', '--file', file])).exitCode).toBe(3);
    expect(posts().map((q) => q.headers['idempotency-key'])).toEqual([key]);

    // The row as it went: replayed, the order the service made.
    writeCsv('lost.csv', [header, ...rowsOf(10)].join('\n'));
    const restored = await t.sct(['orders', 'import', '--purchase', '--file', file, '-o', 'json']);
    expect(restored.exitCode, restored.stderr).toBe(0);
    expect((JSON.parse(restored.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['created']);
    expect(await existing(['LOST-1'])).toEqual({ 'LOST-1': 1 });
  });

  it("an order's item rows sorted otherwise since a run that lost its answer (the same items by line_number) replay under its key, no conflict; a done order is not said to differ", async () => {
    const header = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';
    const rows = (id: string) => [`${id},order,2025-07-02,101,${products[0]},10,kg,1`, `${id},order,2025-07-02,101,${products[1]},20,kg,2`];
    const file = writeCsv('sorted.csv', [header, ...rows('SORT-1')].join('\n'));
    t.sb.setFaults({ dropFirst: 4, dropAfterProcessing: true, methods: ['POST'] });
    const first = await t.sctIn(['orders', 'import', '--purchase', '--file', file], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(first.exitCode, first.stderr).toBe(1);
    const done = writeCsv('sorted-done.csv', [header, ...rows('SORT-2')].join('\n'));
    expect((await t.sct(['orders', 'import', '--purchase', '--file', done])).exitCode).toBe(0);

    // Sorted by product, descending, in a spreadsheet: the item rows swap.
    writeCsv('sorted.csv', [header, ...rows('SORT-1').reverse()].join('\n'));
    const again = await t.sct(['orders', 'import', '--purchase', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['created']);
    expect(await existing(['SORT-1'])).toEqual({ 'SORT-1': 1 });
    writeCsv('sorted-done.csv', [header, ...rows('SORT-2').reverse()].join('\n'));
    const skipped = await t.sct(['orders', 'import', '--purchase', '--file', done]);
    expect(skipped.exitCode, skipped.stderr).toBe(0);
    expect(skipped.stderr).not.toContain('differs from the file now');
  });

  it("a rejected row's key from the file is one line on stderr: a line break in it forges no line of sct's", async () => {
    const header = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';
    const file = writeCsv('forged-key.csv', [header, `"FORGED-1
error: forged	T",order,2025-07-04,101,99999,10,kg,1`].join('\n'));
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('(FORGED-1 error: forged T)');
    expect(r.stderr).not.toMatch(/^error: forged/m);
  });

  it("an earlier run's order whose key holds a line break is named on one line when the file says otherwise of it now", async () => {
    const header = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';
    const key = `"CHANGED-1
error: forged	T"`;
    const file = writeCsv('changed-key.csv', [header, `${key},order,2025-07-02,101,${products[0]},10,kg,1`].join('\n'));
    expect((await t.sct(['orders', 'import', '--purchase', '--file', file])).exitCode).toBe(0);
    writeCsv('changed-key.csv', [header, `${key},order,2025-07-02,101,${products[0]},11,kg,1`].join('\n'));
    const again = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('differs from the file now (CHANGED-1 error: forged T)');
    expect(again.stderr).not.toMatch(/^error: forged/m);
  });

  it("a rejected item is named with its file line, though the body holds the items in line-number order", async () => {
    const header = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';
    const file = writeCsv('item-line.csv', [header, `ITEMLINE-1,order,2025-07-04,101,${products[0]},10,kg,3`, 'ITEMLINE-1,order,2025-07-04,101,99999,20,kg,1', `ITEMLINE-1,order,2025-07-04,101,${products[1]},30,kg,2`].join('\n'));
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/items\[0\]\.buyer_product \(line 3\): Invalid pk "99999"/);
    // orders sync creates it with the same body, and says the same.
    writeCsv('item-line.csv', readFileSync(file, 'utf8').replaceAll('ITEMLINE-1', 'ITEMLINE-2'));
    const sync = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(sync.exitCode, sync.stderr).toBe(3);
    expect(sync.stderr).toMatch(/items\[0\]\.buyer_product \(line 3\): Invalid pk "99999"/);
    // An update's item list is the service's items, then the new: each said with its file line.
    const made = writeCsv('item-line-update.csv', [header, `ITEMLINE-3,order,2025-07-04,101,${products[0]},10,kg,1`, `ITEMLINE-3,order,2025-07-04,101,${products[0]},20,kg,2`].join('\n'));
    expect((await t.sct(['orders', 'sync', '--purchase', '--file', made, '--yes'])).exitCode).toBe(0);
    writeCsv('item-line-update.csv', [header, 'ITEMLINE-3,order,2025-07-04,101,99999,20,kg,2', `ITEMLINE-3,order,2025-07-04,101,${products[0]},11,kg,1`].join('\n'));
    const update = await t.sct(['orders', 'sync', '--purchase', '--file', made, '--yes']);
    expect(update.exitCode, update.stderr).toBe(3);
    expect(update.stderr).toMatch(/items\[1\]\.buyer_product \(line 2\): Invalid pk "99999"/);
  });

  it('an order an earlier run sent without an answer stays unknown when a rerun cannot get it through: edited after, a conflict, never a second order', async () => {
    const header = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';
    const rowsOf = (volume: number) => [`LOST-2,order,2025-07-03,101,${products[0]},${volume},kg,1`];
    const file = writeCsv('lost2.csv', [header, ...rowsOf(10)].join('\n'));
    t.sb.setFaults({ dropFirst: 4, dropAfterProcessing: true, methods: ['POST'] });
    const first = await t.sctIn(['orders', 'import', '--purchase', '--file', file], { clientOptions: { retryBaseMs: 1 } });
    expect(first.exitCode, first.stderr).toBe(1);
    expect(await existing(['LOST-2'])).toEqual({ 'LOST-2': 1 });

    // The rerun gets only 503s: it never reached the service, but the first run's request did.
    t.sb.setFaults({ failFirst: 100, methods: ['POST'] });
    const blocked = await t.sctIn(['orders', 'import', '--purchase', '--file', file, '-o', 'json'], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(blocked.exitCode, blocked.stderr).toBe(1);
    expect((JSON.parse(blocked.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['unknown']);
    expect(blocked.stderr).toContain('1 unknown');

    writeCsv('lost2.csv', [header, ...rowsOf(11)].join('\n'));
    const edited = await t.sct(['orders', 'import', '--purchase', '--file', file, '-o', 'json']);
    expect(edited.exitCode, edited.stderr).toBe(3);
    expect((JSON.parse(edited.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['conflict']);
    expect(await existing(['LOST-2'])).toEqual({ 'LOST-2': 1 });
  });

  it('an order created by an earlier run that the file now says otherwise of (an item added): skipped, and said so', async () => {
    const header = 'external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number';
    const rows = [`GROWN-1,order,2025-07-02,101,${products[0]},10,kg,1`, `SAME-1,order,2025-07-02,101,${products[0]},5,kg,1`];
    const file = writeCsv('grown.csv', [header, ...rows].join('\n'));
    expect((await t.sct(['orders', 'import', '--purchase', '--file', file])).exitCode).toBe(0);
    writeCsv('grown.csv', [header, ...rows, `GROWN-1,order,2025-07-02,101,${products[1]},22,kg,2`].join('\n'));
    t.sb.requests.length = 0;
    const again = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('warning: 1 purchase order created by an earlier run differs from the file now (GROWN-1): an import does not change what it created, and skips it; `sync` updates what exists');
    expect(again.stderr).toContain('2 skipped (done in an earlier run)');
    expect(posts()).toHaveLength(0);
  });

  it('a quote-free file (read three times, each order made as its rows come) sends what the same file with quotes sends', async () => {
    const [a, b, c] = products;
    // Orders whose rows are apart (Q-A, Q-B), one that is together (Q-C), a row without an
    // external_id, and an invalid cell in a scattered order (Q-D): left out whole with --skip-invalid.
    const plain = [
      'external_id;type;order_created_at;seller_company_id;product;volume;unit',
      `Q-A;order;2025-04-01;101;${a};100,5;kg`,
      `Q-B;order;2025-04-02;102;${b};7;t`,
      `Q-D;order;2025-04-02;102;${b};7;t`,
      `Q-A;;;;${c};50;kg`,
      `Q-C;order;2025-04-03;103;${a};1;kg`,
      `Q-C;;;;${b};2;kg`,
      `;order;2025-04-03;103;${a};1;kg`,
      `Q-D;;;;${c};lots;kg`,
      `Q-B;;;;${c};3;t`,
    ];
    const quoted = plain.map((line) => line.split(';').map((cell) => `"${cell}"`).join(';'));
    // One name for both: the Idempotency-Keys derive from the file's journal, which its path names.
    const name = 'orders-q.csv';
    const run = async (lines: string[]) => {
      const file = writeCsv(name, lines.join('\n'));
      const refused = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '--decimal-comma']);
      expect(refused.exitCode).toBe(2);
      const dry = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '--skip-invalid', '--decimal-comma', '-o', 'json']);
      // As the real run will end: rows left out are exit 3.
      expect(dry.exitCode, dry.stderr).toBe(3);
      t.sb.requests.length = 0;
      // The journal of the other run taken away: the keys derive from the file's identity and each order.
      rmSync(join(t.dir, 'journals'), { recursive: true, force: true });
      const real = await t.sct(['orders', 'import', '--purchase', '--file', file, '--skip-invalid', '--decimal-comma', '-o', 'json']);
      expect(real.exitCode, real.stderr).toBe(3);
      return {
        refused: refused.stderr.replaceAll(name, 'FILE'),
        dry: dryRunBodies(dry.stdout),
        said: dry.stderr.replaceAll(name, 'FILE'),
        sent: posts().map((q) => JSON.parse(q.body)),
        keys: posts().map((q) => q.headers['idempotency-key']),
      };
    };
    const x = await run(plain);
    const y = await run(quoted);
    expect(x).toEqual(y);
    expect(x.dry.map((body) => body.external_id)).toEqual(['Q-A', 'Q-B', 'Q-C']);
    expect(x.dry[0].items).toEqual([{ buyer_product: a, volume: 100.5, unit: 'kg' }, { buyer_product: c, volume: 50, unit: 'kg' }]);
    expect(x.refused).toMatch(/line 4, external_id: not sent: line 9 of order Q-D is invalid\n.*line 8, external_id: required/);
    expect(x.refused).toMatch(/line 9, volume: "lots" is not a number/);
    expect(x.said).toContain('3 valid purchase orders from 6 rows: 3 requests; nothing sent (dry run)');
  });
});
