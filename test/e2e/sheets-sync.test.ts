// Round trips with spreadsheets: a sync row that updates needs only external_id and the fields
// that change; every file command prints a template that reads back as it is; `-o csv` has the
// same columns whatever the data.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { useSandbox } from '../helpers/sandbox.js';
import { startHostile } from '../helpers/hostile.js';
import { sctFor } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';
import { csvColumnsOfCommand } from '../helpers/printed.js';

const t = useSandbox({}, { inProcess: true });
const writes = () => t.sb.requests.filter((q) => q.method !== 'GET');

/** Cells as a spreadsheet program saves them: quoted when they hold a comma, a quote or a line break. */
function csvText(rows: string[][]): string {
  return rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n') + '\n';
}

async function firstOrigin(): Promise<{ id: number; external_id: string; name: string; country_code: string }> {
  const r = await t.sct(['origins', 'list', '-o', 'json', '--limit', '50']);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ id: number; external_id: string | null; name: string; country_code: string }>).find((o) => o.external_id)! as never;
}

describe('sync: an update row needs only external_id and the fields that change', () => {
  it('a row naming an order of another kind or another company is invalid, never created a second time', async () => {
    const all = await t.sct(['orders', 'list', '--buying', '--all', '-o', 'json']);
    type Listed = { id: number; external_id: string; company_id: number; buyer_company_id: number; seller_company_id: number };
    const orders = JSON.parse(all.stdout) as Listed[];
    const batch = orders.find((o) => o.external_id && o.buyer_company_id === o.seller_company_id)!;
    // On the buying side the company is the buyer: an order another company recorded is theirs.
    const theirs = orders.find((o) => o.external_id && o.company_id !== o.buyer_company_id)!;
    expect(batch && theirs).toBeTruthy();
    const list = await t.sct(['orders', 'list', '--buying', '--all', '-o', 'csv']);
    const rows = parse(list.stdout) as string[][];
    const keep = rows.filter((r, i) => i === 0 || r.includes(batch.external_id) || r.includes(theirs.external_id));
    const file = t.writeFile('whole-buying-side.csv', csvText(keep));
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`external_id: order ${batch.id} on the service has this external_id and is a batch, not a purchase: sync it with --batch`);
    expect(r.stderr).toContain(`external_id: order ${theirs.id} on the service has this external_id and was recorded by another company: not yours to sync`);
    const skipped = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes', '--skip-invalid']);
    expect(skipped.exitCode, skipped.stderr).toBe(3);
    expect(writes()).toEqual([]);
  });

  it('orders list -o csv → one cell edited, the create-only cells blanked → orders sync PATCHes exactly that field', async () => {
    const list = await t.sct(['orders', 'list', '--buying', '--type', 'order', '-o', 'csv', '--limit', '2']);
    expect(list.exitCode, list.stderr).toBe(0);
    const rows = parse(list.stdout) as string[][];
    const at = (name: string) => rows[0].indexOf(name);
    // A system of record that does not keep the order's date or type: those cells are empty.
    for (const r of rows.slice(1)) r[at('order_created_at')] = r[at('type')] = '';
    rows[1][at('order_arrival_at')] = '2027-05-06';
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', t.writeFile('listed.csv', csvText(rows)), '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes()).toHaveLength(1);
    expect(writes()[0]).toMatchObject({ method: 'PATCH', path: `/api/orders/purchase/${rows[1][at('id')]}` });
    expect(JSON.parse(writes()[0].body)).toEqual({ order_arrival_at: '2027-05-06' });
  });

  it('orders sync of external_id and one column updates that field of an existing order', async () => {
    const list = await t.sct(['orders', 'list', '--buying', '--type', 'order', '-o', 'json', '--limit', '3']);
    const order = (JSON.parse(list.stdout) as Array<{ id: number; external_id: string }>)[2];
    const file = t.writeFile('tags.csv', `external_id,tags\n${order.external_id},late|checked\n`);
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes().map((w) => [w.method, w.path, JSON.parse(w.body)])).toEqual([['PATCH', `/api/orders/purchase/${order.id}`, { tags: ['late', 'checked'] }]]);
  });

  it('an order the service does not have still needs the create fields: exit 2 naming line and field, nothing written', async () => {
    const list = await t.sct(['orders', 'list', '--buying', '--type', 'order', '-o', 'json', '--limit', '1']);
    const order = (JSON.parse(list.stdout) as Array<{ external_id: string }>)[0];
    const file = t.writeFile('new.csv', `external_id,order_arrival_at\n${order.external_id},2027-01-01\nPO-NOT-THERE-1,2027-01-02\n`);
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('line 3, order_created_at: This field is required.');
    expect(r.stderr).toContain('line 3, type: This field is required.');
    expect(r.stderr).not.toContain('line 2');
    expect(writes()).toEqual([]);
  });

  it('origins sync of external_id,latitude,longitude moves the origin and sends nothing else', async () => {
    const origin = await firstOrigin();
    const file = t.writeFile('moved.csv', `external_id,latitude,longitude\n${origin.external_id},-12.5,-55.75\n`);
    const r = await t.sct(['origins', 'sync', '--file', file, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes().map((w) => [w.method, w.path, JSON.parse(w.body)])).toEqual([
      ['PATCH', `/api/origins/${origin.id}`, { location: { type: 'Point', coordinates: [-55.75, -12.5] } }],
    ]);
    const after = await t.sct(['origins', 'get', String(origin.id), '-o', 'json']);
    expect(JSON.parse(after.stdout)).toMatchObject({ name: origin.name, country_code: origin.country_code, location: { coordinates: [-55.75, -12.5] } });
  });

  it('origins list -o csv → a location.coordinates cell edited → origins sync moves the origin; unedited, nothing', async () => {
    const origin = await firstOrigin();
    const exported = await t.sct(['origins', 'get', String(origin.id), '-o', 'csv']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const unedited = t.writeFile('origin-export.csv', exported.stdout);
    const same = await t.sct(['origins', 'sync', '--file', unedited, '--dry-run', '-o', 'json']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stderr).not.toMatch(/ignoring .*location/);
    expect(JSON.parse(same.stdout).update).toEqual([]);
    const [header, row] = parse(exported.stdout) as string[][];
    const at = header!.indexOf('location.coordinates');
    row![at] = JSON.stringify([-55.7, -12.6]);
    const file = t.writeFile('origin-edited.csv', stringify([header!, row!]));
    const r = await t.sct(['origins', 'sync', '--file', file, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(writes().map((w) => [w.method, w.path, JSON.parse(w.body)])).toEqual([
      ['PATCH', `/api/origins/${origin.id}`, { location: { type: 'Point', coordinates: [-55.7, -12.6] } }],
    ]);
  });

  it('origins list -o csv of text with a leading tab, a CR, spaces at either end → origins sync plans nothing; the import sends it unchanged', async () => {
    const texts = ['\ttab desc', ' leading space', '\rCR first', 'trailing space '];
    const ids: number[] = [];
    for (const [i, description] of texts.entries()) {
      const r = await t.sct(['origins', 'create', '--country-code', 'CI', '--location', '6.820311,-5.289712', '--name', `Name ${i}`, '--external-id', `WS-${i}`, '--description', description, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      ids.push(JSON.parse(r.stdout).id);
    }
    const rows: string[] = [];
    for (const id of ids) {
      const r = await t.sct(['origins', 'get', String(id), '-o', 'csv']);
      expect(r.exitCode, r.stderr).toBe(0);
      rows.push(rows.length === 0 ? r.stdout : r.stdout.slice(r.stdout.indexOf('\n') + 1));
    }
    const file = t.writeFile('spaces.csv', rows.join(''));
    const sync = await t.sct(['origins', 'sync', '--file', file, '--dry-run', '-o', 'json']);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout).update).toEqual([]);
    const imported = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout).map((q: { body: { description: string; name: string } }) => [q.body.name, q.body.description])).toEqual(texts.map((d, i) => [`Name ${i}`, d]));
  });

  it('a token pasted into a cell is masked in the plan, as in a dry run\'s requests', async () => {
    const TOKEN = 'sct_demo_owner_cacao';
    const made = await t.sct(['origins', 'create', '--country-code', 'CI', '--location', '6.820311,-5.289712', '--name', 'Tok', '--external-id', 'WS-TOK']);
    expect(made.exitCode, made.stderr).toBe(0);
    const file = t.writeFile('tok.csv', `external_id,description\nWS-TOK,key ${TOKEN}\nWS-NEW-TOK,${TOKEN}\n`);
    for (const format of [[], ['-o', 'json'], ['-o', 'csv']]) {
      const r = await t.sct(['origins', 'sync', '--file', file, '--dry-run', '--skip-invalid', ...format]);
      expect(r.stdout, format.join(' ')).not.toContain(TOKEN);
      expect(r.stdout, format.join(' ')).toContain('sct_…****');
    }
  });

  it('an origin the service does not have needs name and country_code: exit 2, or with --skip-invalid the update goes and the row is reported (exit 3)', async () => {
    const origin = await firstOrigin();
    const file = t.writeFile('mixed.csv', `external_id,latitude,longitude\n${origin.external_id},-12.25,-55.5\nORI-NEW-1,1.5,2.5\n`);
    const r = await t.sct(['origins', 'sync', '--file', file, '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('line 3, name: This field is required.');
    expect(r.stderr).toContain('line 3, country_code: This field is required.');
    expect(writes()).toEqual([]);

    const skip = await t.sct(['origins', 'sync', '--file', file, '--yes', '--skip-invalid', '-o', 'json']);
    expect(skip.exitCode, skip.stderr).toBe(3);
    expect(writes().map((w) => [w.method, w.path])).toEqual([['PATCH', `/api/origins/${origin.id}`]]);
    const report = JSON.parse(skip.stdout).results as Array<{ lines: number[]; status: string }>;
    expect(report.map((o) => [o.lines, o.status])).toEqual([
      [[2], 'updated'],
      [[3], 'invalid'],
    ]);
  });
});

describe('--template: every file command prints the header of the file it reads and one example row that reads back as it is', () => {
  const cases: Array<[command: string[], header: string[]]> = [
    [['origins', 'import'], ['name', 'country_code', 'description', 'external_id', 'latitude', 'longitude']],
    [['origins', 'sync'], ['name', 'country_code', 'description', 'external_id', 'latitude', 'longitude']],
    [['invitations', 'bulk-create'], ['email', 'auth_group']],
    [['dds', 'trace'], ['dds_id', 'order_id']],
    [['info-requests', 'send'], ['order_id', 'value_chain_id']],
  ];
  it.each(cases)('%j --template → file → --dry-run exit 0, nothing sent', async (command, header) => {
    const r = await t.sct([...command, '--template']);
    expect(r.exitCode, r.stderr).toBe(0);
    const [head, example, ...rest] = parse(r.stdout) as string[][];
    expect(head).toEqual(header);
    expect(example).toHaveLength(header.length);
    expect(example.every((cell) => cell !== '')).toBe(true);
    expect(rest).toEqual([]);
    const file = t.writeFile(`${command.join('-')}.csv`, r.stdout);
    const dry = await t.sct([...command, '--file', file, '--dry-run', '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    // A sync's dry run prints its plan: the example is an object to create.
    const out = JSON.parse(dry.stdout) as unknown[] | { create: unknown[] };
    expect(Array.isArray(out) ? out : out.create).toHaveLength(1);
    expect(writes()).toEqual([]);
    // The template is a file to start from: with --file it is a usage error.
    const both = await t.sct([...command, '--template', '--file', file]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--template prints a file to start from: give it without --file');
    expect(writes()).toEqual([]);
  });

  it('without --file and without --template the file commands still say --file is required', async () => {
    for (const command of [['origins', 'import'], ['origins', 'sync'], ['invitations', 'bulk-create'], ['info-requests', 'send']]) {
      const r = await t.sct(command);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("required option '--file <file>'");
    }
  });

  it('dds trace --dry-run and info-requests send --dry-run check every row and send nothing', async () => {
    const pairs = await t.sct(['dds', 'trace', '--dds', '1,31', '--order', '217', '--dry-run', '-o', 'json']);
    expect(pairs.exitCode, pairs.stderr).toBe(0);
    // The request it would send (one: both statements and the order fit in one), as every dry run prints.
    expect(JSON.parse(pairs.stdout)).toEqual([{ method: 'POST', path: '/due-diligence-statements/trace-orders', body: { dds_id: [1, 31], order_id: [217] } }]);
    const bad = await t.sct(['info-requests', 'send', '--file', t.writeFile('bad-requests.csv', 'order_id\nx\n'), '--dry-run']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('line 2, order_id: "x" is not a whole number');
    expect(writes()).toEqual([]);
  });
});

describe('-o csv: the same columns in the same order whatever the data', () => {
  const header = async (args: string[]) => {
    const r = await t.sct([...args, '-o', 'csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = parse(r.stdout, { relax_column_count: false }) as string[][];
    // Every row has as many cells as the header.
    for (const row of rows) expect(row).toHaveLength(rows[0].length);
    return rows[0];
  };

  // Each list, and views of it whose first rows differ (other pages, filters that pick other kinds of rows).
  const lists: Array<[command: string, views: string[][]]> = [
    ['orders list', [['--buying', '--limit', '1'], ['--buying', '--type', 'order', '--limit', '1'], ['--buying', '--type', 'produced_batch', '--limit', '1'], ['--selling', '--limit', '3', '--offset', '5'], ['--buying', '--limit', '50']]],
    ['products list', [['--limit', '1'], ['--limit', '1', '--offset', '7'], ['--limit', '40']]],
    ['origins list', [['--limit', '1'], ['--limit', '1', '--offset', '1'], ['--limit', '40']]],
    ['value-chains list', [['--limit', '1'], ['--limit', '1', '--offset', '3'], ['--limit', '40']]],
    ['dds list', [['--status', 'complete', '--limit', '1'], ['--status', 'draft', '--limit', '1'], ['--status', 'failed', '--limit', '1'], ['--limit', '40']]],
    ['invitations list', [['--limit', '1'], ['--limit', '1', '--offset', '2'], ['--limit', '40']]],
    ['members list', [['--limit', '1'], ['--limit', '40']]],
    ['users list', [['--limit', '1'], ['--limit', '40']]],
    ['workspaces list', [['--limit', '1'], ['--limit', '40']]],
    ['countries list', [['--limit', '1'], ['--limit', '1', '--offset', '100'], ['--limit', '40']]],
  ];
  it.each(lists)('%s: one header for every view, the documented fields flattened', async (command, views) => {
    const documented = (await csvColumnsOfCommand(command))!;
    expect(documented.length).toBeGreaterThan(3);
    for (const view of views) expect(await header([...command.split(' '), ...view]), view.join(' ')).toEqual(documented);
    // An empty list has the same header.
    expect(await header([...command.split(' '), ...views[0], '--search', 'nothing-matches-this-at-all'])).toEqual(documented);
  });

  it('an order without a value chain has the value chain columns, empty; a statement has one dds_data column whatever it holds', async () => {
    const orders = parse((await t.sct(['orders', 'list', '--buying', '--limit', '50', '-o', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    const [batch, order] = [orders.find((o) => o.id === '195')!, orders.find((o) => o.id === '217')!];
    expect(order['value_chain_detail.company_name']).toBe('Hanseatic Commodity Trading GmbH');
    expect(batch['value_chain_detail.company_name']).toBe('');
    expect(order['value_chain_detail.country.alpha_2']).toBe('DE');
    const dds = await header(['dds', 'list', '--status', 'complete', '--limit', '1']);
    expect(dds).toContain('dds_data');
    expect(dds.filter((c) => c.startsWith('dds_data.'))).toEqual([]);
    const complete = parse((await t.sct(['dds', 'list', '--status', 'complete', '--limit', '1', '-o', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(JSON.parse(complete[0].dds_data)).toBeTypeOf('object');
  });

  it('a field the documents do not name, in a later row, is left out of the CSV (-o json keeps it) and breaks nothing', async () => {
    const h = await startHostile(t.sb.url);
    try {
      h.on('GET /api/orders', async (_req, res, _body, forward) => {
        const up = await forward({ identity: true });
        const page = JSON.parse(up.body.toString('utf8'));
        page.results[1].surprise = 'new';
        page.results[1].value_chain_detail = { ...(page.results[1].value_chain_detail ?? {}), surprise_sub: 'x,y' };
        res.writeHead(up.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(page));
      });
      const args = ['orders', 'list', '--buying', '--limit', '3', '-o', 'csv'];
      const through = await sctFor(h.url, OWNER, t.dir, { inProcess: true })(args);
      expect(through.exitCode, through.stderr).toBe(0);
      const direct = await t.sct(args);
      expect(through.stdout).toBe(direct.stdout);
    } finally {
      await h.close();
    }
  });
});

describe('-o csv of a command that prints a resource it did not list', () => {
  it('invitations renew prints the invitation with the documented columns, as invitations list does, whatever the answer holds', async () => {
    const list = await t.sct(['invitations', 'list', '--status', 'pending', '--limit', '1', '-o', 'json']);
    const [pending] = JSON.parse(list.stdout) as Array<{ id: string }>;
    const h = await startHostile(t.sb.url);
    try {
      // An answer without the inviter's details (null would do as well): the columns stay.
      h.on('POST /api/accounts/user-invitations/renew', async (_req, res, _body, forward) => {
        const up = await forward({ identity: true });
        const { invited_by_detail: _gone, ...rest } = JSON.parse(up.body.toString('utf8'));
        res.writeHead(up.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(rest));
      });
      const r = await sctFor(h.url, OWNER, t.dir, { inProcess: true })(['invitations', 'renew', pending.id, '-o', 'csv']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect((parse(r.stdout) as string[][])[0]).toEqual(await csvColumnsOfCommand('invitations list'));
    } finally {
      await h.close();
    }
  });
});
