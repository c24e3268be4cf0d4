// sct orders list/get/stats/delete as a user runs them: sct in-process against the sandbox,
// asserting on the query strings the sandbox received.
import type { Prompter } from '../../src/prompt.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

describe('orders list', () => {
  it('maps every named filter (buying) to its query parameter', async () => {
    const r = await t.sct([
      'orders', 'list', '--buying', '-o', 'json',
      '--type', 'order',
      '--buyer-status', 'draft',
      '--seller-status', 'pending',
      '--assessment-status', 'passing',
      '--created-from', '2024-01-01', '--created-to', '2025-12-31',
      '--arrival-from', '2024-02-01', '--arrival-to', '2026-01-31',
      '--value-chain', '1',
      '--tag', 'eudr',
      '--commodity', 'cocoa',
      '--no-dds',
      '--traced-origin', '3',
      '--limit', '5', '--ordering=-order_created_at', '--search', 'PO', '--filter', 'items__unit=kg',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBeInstanceOf(Array);
    expect(t.sb.requests).toHaveLength(1);
    expect(t.sb.requests[0]).toMatchObject({ method: 'GET', path: '/api/orders', status: 200 });
    expect(t.queryOf()).toEqual({
      order_action: 'buying',
      type: 'order',
      buyer_company_status: 'draft',
      seller_company_status: 'pending',
      assessment_status: 'passing',
      order_created_at__gte: '2024-01-01',
      order_created_at__lte: '2025-12-31',
      order_arrival_at__gte: '2024-02-01',
      order_arrival_at__lte: '2026-01-31',
      value_chain: '1',
      tags__name: 'eudr',
      items__buyer_product__commodity: 'cocoa',
      due_diligence_statements__isnull: 'true',
      items__traced_origins: '3',
      ordering: '-order_created_at',
      search: 'PO',
      items__unit: 'kg',
      limit: '5',
      offset: '0',
    });
  });

  it('sends lists as __in (comma-separated or repeated flags) and the seller side when selling', async () => {
    const r = await t.sct([
      'orders', 'list', '--selling', '-o', 'json',
      '--type', 'order,produced_batch',
      '--buyer-status', 'draft,closed',
      '--seller-status', 'pending,passing',
      '--assessment-status', 'passing,failing',
      '--tag', 'eudr',
      '--tag', 'organic',
      '--commodity', 'cocoa,coffee',
      '--has-dds',
      '--traced-origin', '3',
      '--traced-origin', '4',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const q = t.queryOf();
    expect(q).toMatchObject({
      order_action: 'selling',
      type__in: 'order,produced_batch',
      buyer_company_status__in: 'draft,closed',
      seller_company_status__in: 'pending,passing',
      assessment_status__in: 'passing,failing',
      tags__name__in: 'eudr,organic',
      items__seller_product__commodity__in: 'cocoa,coffee',
      due_diligence_statements__isnull: 'false',
      items__traced_origins__in: '3,4',
    });
    expect(q).not.toHaveProperty('items__buyer_product__commodity__in');
  });

  it('checks every flag locally: exit 2 and nothing sent', async () => {
    await t.expectUsageErrors([
      [['orders', 'list'], '--buying or --selling is required'],
      [['orders', 'list', '--buying', '--selling'], 'not both'],
      [['orders', 'list', '--buying', '--type', 'invoice'], /invalid --type "invoice": allowed values are order, produced_batch/],
      [['orders', 'list', '--buying', '--buyer-status', 'draft,done'], /invalid --buyer-status "done": allowed values are draft, waiting_for_supplier/],
      [['orders', 'list', '--buying', '--seller-status', 'ok'], /invalid --seller-status "ok"/],
      [['orders', 'list', '--buying', '--assessment-status', 'green'], /invalid --assessment-status "green": allowed values are pending/],
      [['orders', 'list', '--buying', '--created-from', '2025-13-01'], /invalid --created-from "2025-13-01": expected a date YYYY-MM-DD/],
      [['orders', 'list', '--buying', '--arrival-to', 'tomorrow'], /invalid --arrival-to "tomorrow"/],
      [['orders', 'list', '--buying', '--value-chain', 'abc'], /invalid --value-chain "abc"/],
      [['orders', 'list', '--buying', '--commodity', 'gold'], /invalid --commodity "gold": allowed values are cattle, cocoa/],
      [['orders', 'list', '--buying', '--has-dds', '--no-dds'], '--has-dds or --no-dds'],
      [['orders', 'list', '--buying', '--traced-origin', '1,x'], /invalid --traced-origin "x"/],
      [['orders', 'list', '--buying', '--limit', '0'], /invalid --limit 0/],
      // An empty value (a script's unset variable) would list, and export, everything.
      [['orders', 'list', '--buying', '--search', '', '--all', '-o', 'csv'], '--search needs a value'],
      [['orders', 'list', '--buying', '--ordering', ''], '--ordering needs a value'],
      [['orders', 'list', '--buying', '--ordering', ' , '], '--ordering needs a value'],
      [['orders', 'list', '--buying', '--filter', 'ordering=,'], '--filter ordering= needs a value'],
      [['orders', 'list', '--buying', '--filter', 'external_id='], '--filter external_id= needs a value'],
      [['products', 'list', '--search', ' '], '--search needs a value'],
      [['dds', 'list', '--search', ''], '--search needs a value'],
      [['members', 'list', '--ordering', ''], '--ordering needs a value'],
      [['origins', 'list', '--filter', 'country_code='], '--filter country_code= needs a value'],
      [['orders', 'list', '--buying', '--parallel', '2'], '--parallel goes with --all'],
      [['products', 'list', '--parallel', '8'], '--parallel goes with --all'],
      [['orders', 'stats', '--buying', '--search', ''], '--search needs a value'],
      [['orders', 'stats', '--buying', '--filter', 'type='], '--filter type= needs a value'],
    ]);
  });

  it('prints a table with the counterpart of the perspective', async () => {
    const [buying, selling] = await Promise.all([
      t.sct(['orders', 'list', '--buying', '--limit', '3']),
      t.sct(['orders', 'list', '--selling', '--limit', '3']),
    ]);
    expect(buying.exitCode, buying.stderr).toBe(0);
    const lines = buying.stdout.trimEnd().split('\n');
    expect(lines[0].split('\t')).toEqual(['ID', 'EXTERNAL ID', 'TYPE', 'SELLER', 'BUYER STATUS', 'SELLER STATUS', 'ASSESSMENT', 'CREATED', 'ITEMS', 'DDS']);
    expect(lines).toHaveLength(4);
    const bought = await t.api('/orders?order_action=buying&limit=3');
    expect(buying.stdout).toContain(bought.results[0].seller_company.name);
    expect(selling.stdout.split('\n')[0]).toMatch(/^ID\s+EXTERNAL ID\s+TYPE\s+BUYER\s+BUYER STATUS/);
  });

  it('an empty list into a pipe is still its header row, and "no results" on stderr (the built sct)', async () => {
    const r = await t.sctBin(['orders', 'list', '--buying', '--search', 'no-such-order-anywhere']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('ID\tEXTERNAL ID\tTYPE\tSELLER\tBUYER STATUS\tSELLER STATUS\tASSESSMENT\tCREATED\tITEMS\tDDS\n');
    expect(r.stderr).toContain('no results');
  });

  it('prints JSON exactly as the API returned it, and CSV and NDJSON', async () => {
    const [json, csv, ndjson] = await Promise.all([
      t.sct(['orders', 'list', '--buying', '--limit', '4', '-o', 'json']),
      t.sct(['orders', 'list', '--buying', '--limit', '4', '-o', 'csv']),
      t.sct(['orders', 'list', '--buying', '--limit', '4', '-o', 'ndjson']),
    ]);
    const expected = (await t.api('/orders?order_action=buying&limit=4')).results;
    expect(JSON.parse(json.stdout)).toEqual(expected);
    expect(ndjson.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(expected);
    const records = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => Number(r.id))).toEqual(expected.map((o: any) => o.id));
    expect(records[0]['seller_company.name']).toBe(expected[0].seller_company.name);
  });

  it('refuses a --columns field that orders do not have, by the API documents, before sending anything', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '3', '--columns', 'id,externl_id', '-o', 'csv']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--columns: orders list has no field "externl_id" (did you mean external_id?)');
    expect(r.stderr).toMatch(/hint: valid fields: .*external_id/);
    expect(r.stdout).toBe('');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('CSV of a whole page: no field is both a column and the prefix of dotted columns', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '200', '-o', 'csv']);
    const header = (parse(r.stdout, { to_line: 1 }) as string[][])[0];
    expect(header).toContain('border_cross_country.name');
    expect(header.filter((k) => header.some((o) => o.startsWith(k + '.')))).toEqual([]);
  });

  it('follows the pages with --all', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--all', '--page-size', '40', '--type', 'order', '-o', 'ndjson']);
    expect(r.exitCode, r.stderr).toBe(0);
    const requests = t.sb.requests.length;
    const count = (await t.api('/orders?order_action=buying&type=order&limit=1')).count;
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(count);
    expect(requests).toBe(Math.ceil(count / 40));
  });
  it('an undocumented --filter key is sent with its warning and narrows nothing, as on the service (the sandbox ignores it too)', async () => {
    const first = await t.api('/orders?order_action=buying&limit=1');
    const key = first.results[0].external_id;
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'list', '--buying', '--all', '--filter', `external_id=${key}`, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('--filter external_id: not a documented filter of orders list');
    expect(t.searchParamsOf(0).get('external_id')).toBe(key);
    const rows = JSON.parse(r.stdout);
    expect(rows).toHaveLength(first.count);
    expect(rows.filter((o: { external_id: string }) => o.external_id !== key).length).toBeGreaterThan(0);
  });
});

describe('orders get', () => {
  it('shows the order, its border country as flag and name, and a table of its items', async () => {
    const list = await t.api('/orders?order_action=buying&limit=100');
    const order = list.results.find((o: any) => o.items.length >= 2 && o.border_cross_country);
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'get', String(order.id)]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^ID\\s+${order.id}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^EXTERNAL ID\\s+${order.external_id}$`, 'm'));
    expect(r.stdout).toContain(`${order.border_cross_country.flag} ${order.border_cross_country.name}`);
    expect(r.stdout).toMatch(new RegExp(`^SELLER\\s+${order.seller_company.name.replace(/[()]/g, '\\$&')}$`, 'm'));
    const [, itemsPart] = r.stdout.split(`ITEMS (${order.items.length})\n`);
    const itemLines = itemsPart.trimEnd().split('\n');
    expect(itemLines[0]).toMatch(/^ID\s+LINE\s+EXTERNAL ID\s+BUYER PRODUCT/);
    expect(itemLines).toHaveLength(order.items.length + 1);
    for (const it of order.items) expect(itemsPart).toContain(it.external_id);
    expect(t.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /api/orders/${order.id}`]);

    // --columns shows the fields it names, no items table after them.
    const picked = await t.sct(['orders', 'get', String(order.id), '--columns', 'id,external_id']);
    expect(picked.exitCode, picked.stderr).toBe(0);
    expect(picked.stdout.trimEnd().split('\n')).toEqual([expect.stringMatching(new RegExp(`^ID\\s+${order.id}$`)), expect.stringMatching(/^EXTERNAL ID\s+/)]);
  });

  it('prints the whole object with -o json; an unknown id exits 1', async () => {
    const [json, missing, bad] = await Promise.all([
      t.sct(['orders', 'get', '1', '-o', 'json']),
      t.sct(['orders', 'get', '999999']),
      t.sct(['orders', 'get', 'abc']),
    ]);
    expect(JSON.parse(json.stdout)).toEqual(await t.api('/orders/1'));
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('404');
    expect(bad.exitCode).toBe(2);
  });
});

describe('orders stats', () => {
  it('sends group_by once per value and shows only the grouped columns', async () => {
    const r = await t.sct(['orders', 'stats', '--buying', '--group-by', 'type,assessment_status', '--created-from', '2025-01-01', '--tag', 'eudr']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0].path).toBe('/api/orders/statistics');
    const q = t.searchParamsOf();
    expect(q.getAll('group_by')).toEqual(['type', 'assessment_status']);
    expect(q.get('order_action')).toBe('buying');
    expect(q.get('order_created_at__gte')).toBe('2025-01-01');
    expect(q.get('tags__name')).toBe('eudr');
    expect(q.has('limit')).toBe(false);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split('\t')).toEqual(['TYPE', 'ASSESSMENT', 'ORDERS']);
    const expected = await t.api(`/orders/statistics?${t.sb.requests[0].query}`);
    expect(lines).toHaveLength(expected.length + 1);
    const total = lines.slice(1).reduce((s, l) => s + Number(l.split(/\s+/).pop()), 0);
    expect(total).toBe(expected.reduce((s: number, x: any) => s + x.order_count, 0));
  });

  it('counts per period, prints JSON as returned, and checks group_by locally', async () => {
    const [table, json] = await Promise.all([
      t.sct(['orders', 'stats', '--selling', '--delimit-by', 'yearly']),
      t.sct(['orders', 'stats', '--selling', '--delimit-by', 'monthly', '--group-by', 'value_chain_id', '-o', 'json']),
    ]);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0].split('\t')).toEqual(['DATE', 'ORDERS']);
    const jsonReq = t.sb.requests.find((q) => q.query.includes('monthly'))!;
    expect(JSON.parse(json.stdout)).toEqual(await t.api(`/orders/statistics?${jsonReq.query}`));
    t.sb.requests.length = 0;
    await t.expectUsageErrors([
      [['orders', 'stats', '--buying', '--group-by', 'country'], /invalid --group-by "country": allowed values are assessment_status, buyer_company_status, seller_company_status, type, value_chain_id/],
      [['orders', 'stats', '--buying', '--delimit-by', 'weekly'], /invalid --delimit-by "weekly": allowed values are daily, monthly, yearly/],
      [['orders', 'stats', '--group-by', 'type'], '--buying or --selling is required'],
      [['orders', 'stats', '--buying', '--limit', '5'], /unknown option '--limit'/],
      // A --filter a flag replaces, or sends beside it, is said as on orders list: never a count of other orders.
      [['orders', 'stats', '--buying', '--type', 'order', '--filter', 'type=produced_batch'], /--filter type=produced_batch: the command's own flags set type too \(order\)/],
      [['orders', 'stats', '--selling', '--filter', 'order_action=buying'], /--filter order_action=buying: the command's own flags set order_action too \(selling\)/],
      [['orders', 'stats', '--buying', '--search', 'A', '--filter', 'search=B'], /--filter search=B: the command's own flags set search too \(A\)/],
    ]);
  });

  it('takes what the rows are grouped and cut by only from --group-by and --delimit-by', async () => {
    // Through --filter, a value beside the flag's was dropped or sent with it, and one alone
    // printed counts with no column saying what each row counts.
    await t.expectUsageErrors([
      [['orders', 'stats', '--buying', '--delimit-by', 'yearly', '--filter', 'delimit_by=monthly'], '--filter delimit_by: use --delimit-by (daily, monthly, yearly)'],
      [['orders', 'stats', '--buying', '--group-by', 'type', '--filter', 'group_by=assessment_status'], '--filter group_by: use --group-by (assessment_status, buyer_company_status, seller_company_status, type, value_chain_id)'],
      [['orders', 'stats', '--buying', '--filter', 'group_by=type'], '--filter group_by: use --group-by'],
      [['orders', 'stats', '--selling', '--filter', 'delimit_by=daily'], '--filter delimit_by: use --delimit-by'],
    ]);
  });
});

describe('orders delete', () => {
  it('needs --yes without a terminal, then deletes', async () => {
    const mine = (await t.api('/orders?order_action=buying&limit=20')).results.find((o: any) => o.company_id === 1 && o.id !== 1);
    const id = String(mine.id);
    t.sb.requests.length = 0;
    const no = await t.sct(['orders', 'delete', id]);
    expect(no.exitCode).toBe(2);
    expect(no.stderr).toContain('confirm with --yes');
    expect(t.sb.requests).toHaveLength(0);

    const yes = await t.sct(['orders', 'delete', id, '--yes']);
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(yes.stderr).toContain(`Deleted order ${id}`);
    expect(t.sb.requests.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([`DELETE /api/orders/${id} 204`]);
    expect((await t.sct(['orders', 'get', id])).exitCode).toBe(1);
  });

  it('on a terminal the question names the kind and the external id', async () => {
    const mine = (await t.api('/orders?order_action=buying&limit=50')).results.find(
      (o: any) => o.company_id === 1 && o.buyer_company_id === 1 && o.seller_company_id !== 1 && o.external_id,
    );
    const questions: string[] = [];
    const prompter = { confirm: async (m: string) => (questions.push(m), false) } as unknown as Prompter;
    t.sb.requests.length = 0;
    const r = await t.sctIn(['orders', 'delete', String(mine.id)], { tty: true, prompter, env: { CI: undefined } });
    expect(r.exitCode).toBe(2);
    expect(questions).toEqual([`Delete purchase order ${mine.id} (${mine.external_id})?`]);
    expect(t.sb.requests.map((q) => q.method)).toEqual(['GET']);
    expect((await t.sct(['orders', 'get', String(mine.id)])).exitCode).toBe(0);
  });
});
