// --columns in every format, --json FIELDS, and --jq, with sct in-process against the sandbox.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

describe('--columns in json and ndjson', () => {
  it('keeps only the chosen fields, nested as in the API object', async () => {
    const full = (await t.api('/orders?order_action=buying&limit=2')).results;
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '2', '-o', 'json', '--columns', 'id,seller_company.name']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(full.map((o: any) => ({ id: o.id, seller_company: { name: o.seller_company.name } })));

    const nd = await t.sct(['orders', 'list', '--buying', '--limit', '2', '-o', 'ndjson', '--columns', 'external_id,id']);
    expect(nd.exitCode, nd.stderr).toBe(0);
    const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual(full.map((o: any) => ({ external_id: o.external_id, id: o.id })));
    expect(Object.keys(lines[0])).toEqual(['external_id', 'id']);
  });

  it('applies to one resource too', async () => {
    const r = await t.sct(['products', 'get', '1', '-o', 'json', '--columns', 'id,name']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['id', 'name']);
  });
});

describe('--json FIELDS', () => {
  it('is -o json --columns FIELDS', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '3', '--json', 'id,external_id']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Object.keys(row)).toEqual(['id', 'external_id']);
  });

  it('a bare --json is -o json, and a positional after it stays a positional', async () => {
    const r = await t.sct(['orders', 'get', '--json', '5']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 5, items: expect.any(Array) });
    expect(t.sb.requests[0].path).toBe('/api/orders/5');

    const fields = await t.sct(['orders', 'get', '5', '--json', 'id,type']);
    expect(fields.exitCode, fields.stderr).toBe(0);
    expect(Object.keys(JSON.parse(fields.stdout))).toEqual(['id', 'type']);

    const atEnd = await t.sct(['products', 'list', '--limit', '1', '--json']);
    expect(JSON.parse(atEnd.stdout)).toHaveLength(1);
  });

  it('a bare --json before the command: the command word stays the command', async () => {
    const who = await t.sct(['--json', 'whoami']);
    expect(who.exitCode, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ id: expect.anything() });

    const list = await t.sct(['--json', 'products', 'list', '--limit', '1']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(1);

    const fields = await t.sct(['--json', 'id', 'products', 'list', '--limit', '1']);
    expect(fields.exitCode, fields.stderr).toBe(0);
    expect(Object.keys(JSON.parse(fields.stdout)[0])).toEqual(['id']);
  });

  it('fields inside a list of objects: picked in each element (json), read from each (csv, table); an unknown one refused', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '3', '--json', 'id,items.id,items.volume']);
    expect(r.exitCode, r.stderr).toBe(0);
    const full = JSON.parse((await t.sct(['orders', 'list', '--buying', '--limit', '3', '-o', 'json'])).stdout) as Array<{ id: number; items: Array<{ id: number; volume: number }> }>;
    expect(JSON.parse(r.stdout)).toEqual(full.map((o) => ({ id: o.id, items: o.items.map((i) => ({ id: i.id, volume: i.volume })) })));
    const csv = parse((await t.sct(['orders', 'list', '--buying', '--limit', '3', '--columns', 'id,items.id', '-o', 'csv'])).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(csv.map((row) => row['items.id'])).toEqual(full.map((o) => JSON.stringify(o.items.map((i) => i.id))));
    const table = await t.sct(['orders', 'list', '--buying', '--limit', '3', '--columns', 'id,items.id']);
    expect(table.stdout.trim().split('\n').slice(1).map((l) => l.split('\t')[1])).toEqual(full.map((o) => o.items.map((i) => i.id).join(', ')));
    t.sb.requests.length = 0;
    await t.expectUsageErrors([
      [['orders', 'list', '--buying', '--json', 'items.bogus'], /--json: orders list has no field "items.bogus"[\s\S]*hint: valid fields of items: .*line_number/],
      [['products', 'list', '--json', 'metadata.species.bogus'], /no field "metadata.species.bogus"/],
      [['dds', 'get', '1', '--json', 'orders_detail.bogus'], /no field "orders_detail.bogus"/],
      // Rows the documents list in prose are documented fields too.
      [['orders', 'stats', '--buying', '--json', 'bogus,order_count'], /orders stats has no field "bogus"[\s\S]*hint: valid fields: .*order_count/],
      [['dds', 'available-orders', '--json', 'bogus'], /dds available-orders has no field "bogus"/],
      [['invitations', 'public', '03a80526-ef80-4dbe-83f6-fbed3ddd2cdc', '--json', 'company.bogus'], /invitations public has no field "company.bogus"/],
    ]);
  });

  it('a field the resource does not have is exit 2 listing the valid names, nothing sent', async () => {
    await t.expectUsageErrors([
      [['orders', 'list', '--buying', '--json', 'id,bogus'], /--json: orders list has no field "bogus"[\s\S]*hint: valid fields: .*external_id/],
      [['products', 'list', '--columns', 'nme'], /--columns: products list has no field "nme" \(did you mean name\?\)/],
      [['members', 'list', '-o', 'ndjson', '--columns', 'user_detail.email,role'], /members list has no field "role"/],
      [['orders', 'list', '--buying', '--json', 'id', '--columns', 'id'], /give one of them/],
      [['orders', 'list', '--buying', '--json', '-o', 'csv'], /--json is -o json: it cannot be combined with -o csv/],
      // A field list mistyped is read as one, and its check says what is wrong (not "too many arguments").
      [['orders', 'list', '--buying', '--json', 'id-x'], /--json: orders list has no field "id-x"/],
      [['orders', 'list', '--buying', '-o', 'ndjson', '--json', 'id'], /--json is -o json: it cannot be combined with -o ndjson/],
      // A byte-order mark is for a spreadsheet's CSV: asked beside another format, it would be dropped without a word.
      [['products', 'list', '--bom', '-o', 'json'], /--bom starts -o csv output for Excel: it cannot be combined with -o json/],
      [['products', 'list', '--bom', '--json', 'id'], /--bom starts -o csv output for Excel: it cannot be combined with --json/],
      [['products', 'list', '--bom', '--jq', '.[0]'], /--bom starts -o csv output for Excel: it cannot be combined with --jq/],
      // Without -o the output is a table (or the profile's): --bom alone is a forgotten -o csv.
      [['products', 'list', '--bom'], /--bom starts -o csv output for Excel, and the output here is table: give -o csv/],
      [['api', '/products', '--bom'], /--bom starts -o csv output for Excel, and api writes no csv without -o csv/],
      // A script's `--json "$FIELDS"` with FIELDS unset names --json, not "too many arguments".
      [['orders', 'get', '1', '--json', ''], /error: --json needs at least one field name\n[\s\S]*hint: a bare --json/],
      [['products', 'list', '--json', ','], '--json needs at least one field name'],
      // Resources whose fields are not documented too: no field is no output.
      [['risk', 'list', '--columns', ''], '--columns needs at least one field name'],
      [['risk', 'list', '--json=,'], '--json needs at least one field name'],
      // `--json="$FIELDS"` with FIELDS unset, as `--columns=`.
      [['orders', 'list', '--buying', '--json='], '--json needs at least one field name'],
    ]);
    // A list with an empty name in it (`"$A,$B"`, A unset) is the names there are.
    const lead = await t.sctBin(['orders', 'list', '--buying', '--limit', '1', '--json', ',id']);
    expect(lead.exitCode, lead.stderr).toBe(0);
    expect(Object.keys(JSON.parse(lead.stdout)[0])).toEqual(['id']);
  });

  it('a field list typed with spaces after the commas after --json is read as --columns reads it', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--json', 'id, external_id']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout)[0])).toEqual(['id', 'external_id']);
  });

  it('a usage error with -o csv or -o table beside --jq or --json is no JSON object: the format asked for is not JSON', async () => {
    for (const args of [['orders', 'list', '--buying', '-o', 'csv', '--jq', '.'], ['orders', 'list', '--buying', '-o', 'table', '--json', 'id']]) {
      const r = await t.sctBin(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr, args.join(' ')).not.toContain('"exit_code"');
    }
    // -o json with either still gets it.
    const json = await t.sctBin(['orders', 'list', '--buying', '-o', 'json', '--jq', '.', '--columns', 'id', '--json', 'id']);
    expect(json.exitCode).toBe(2);
    expect(json.stderr).toContain('"exit_code":2');
  });

  it('a dotted path is checked as deep as the documents list fields', async () => {
    await t.expectUsageErrors([
      [['orders', 'list', '--buying', '--json', 'id,seller_company.bogus'], /--json: orders list has no field "seller_company.bogus"[\s\S]*hint: valid fields of seller_company: .*default_currency/],
      [['orders', 'list', '--buying', '--columns', 'id,seller_company.nmae'], /has no field "seller_company.nmae" \(did you mean seller_company.name\?\)/],
      [['members', 'list', '--json', 'id,user_detail.bogus'], /members list has no field "user_detail.bogus"/],
      [['orders', 'list', '--buying', '--json', 'border_cross_country.alpha_4'], /has no field "border_cross_country.alpha_4"/],
      // The user profile and the workspace's company are documented too (accounts.md).
      [['whoami', '--json', 'bogus'], /--json: whoami has no field "bogus"[\s\S]*hint: valid fields: .*is_mfa_enrolled/],
      // The profile's table has no e-mail (only support_email_hash), whatever the sandbox returns.
      [['whoami', '--json', 'email'], /--json: whoami has no field "email"/],
      [['whoami', '--json', 'company.nmae'], /whoami has no field "company.nmae" \(did you mean company.name\?\)/],
      [['workspaces', 'current', '--json', 'id,bogus'], /workspaces current has no field "bogus"/],
      // An order item's metadata is its own (supply-chain.md, "Nested order item request"), not a product's.
      [['orders', 'list', '--buying', '--json', 'items.metadata.species'], /has no field "items.metadata.species"[\s\S]*hint: valid fields of items.metadata: percentage_estimation_or_deviation, supplementary_unit, supplementary_unit_qualifier/],
    ]);
    const item = await t.sct(['orders', 'list', '--buying', '--limit', '1', '--json', 'id,items.metadata.supplementary_unit,items.metadata.supplementary_unit_qualifier']);
    expect(item.exitCode, item.stderr).toBe(0);
    // Below a field whose own fields the documents do not list, any path goes.
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '1', '--json', 'id,seller_company.name,items.seller_traced_suggestions.anything,value_chain_detail.country.alpha_2']);
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it("a write's printed object and sct's own objects refuse an unknown field too: exit 2, nothing sent (the trace's PATCH not either)", async () => {
    await t.expectUsageErrors([
      [['orders', 'trace', '217', '--item', '416', '--to-origin', '1', '--json', 'bogus'], /--json: orders trace has no field "bogus"[\s\S]*hint: valid fields: .*traced_origin_count/],
      [['orders', 'trace', '217', '--item', '416', '--to-origin', '1', '--columns', 'id,trace.bogus'], /orders trace has no field "trace.bogus"/],
      [['workspaces', 'switch', '1', '--json', 'bogus'], /--json: workspaces switch has no field "bogus"[\s\S]*hint: valid fields: company_id, message, profile/],
      [['version', '--json', 'bogus'], /--json: version has no field "bogus"[\s\S]*hint: valid fields: arch, node, platform, version/],
      [['auth', 'status', '--json', 'tokn_storage'], /--json: auth status has no field "tokn_storage" \(did you mean token_storage\?\)/],
      [['config', 'profiles', '--json', 'nme'], /config profiles has no field "nme" \(did you mean name\?\)/],
      [['config', 'path', '--columns', 'file'], /config path has no field "file"/],
      [['doctor', '--json', 'name,status'], /doctor has no field "status"/],
    ]);
    // A bulk run's rows are sct's own too: a typo stops it before any row is sent.
    const orders = t.writeFile('typo-orders.csv', 'external_id,type,order_created_at,seller_company_id,product,volume,unit\nTYPO-1,order,2025-04-01,2,17,10,kg\n');
    const people = t.writeFile('typo-people.csv', 'email,auth_group\ntypo@fields.example,3\n');
    await t.expectUsageErrors([
      [['orders', 'import', '--purchase', '--file', orders, '--json', 'bogus'], /--json: orders import has no field "bogus"[\s\S]*hint: valid fields: error, fields, id, key, lines, status/],
      [['invitations', 'bulk-create', '--file', people, '--columns', 'stauts'], /invitations bulk-create has no field "stauts" \(did you mean status\?\)/],
    ]);
    // -o json's rows have `lines`; a table's and -o csv's a `line` cell: each is checked as it prints.
    await t.expectUsageErrors([
      [['orders', 'import', '--purchase', '--file', orders, '--json', 'line,key'], /--json: orders import has no field "line" \(did you mean lines\?\)/],
      [['orders', 'import', '--purchase', '--file', orders, '-o', 'csv', '--columns', 'lines,status'], /--columns: orders import has no field "lines" \(did you mean line\?\)/],
    ]);
    // A dry run prints the requests it would send, and --template a header: not the rows' shape.
    const dry = await t.sctBin(['orders', 'import', '--purchase', '--file', orders, '--dry-run', '--json', 'method,path']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual([{ method: 'POST', path: '/orders/purchase' }]);
    await t.expectUsageErrors([[['invitations', 'bulk-create', '--file', people, '--dry-run', '--json', 'status'], /invitations bulk-create --dry-run has no field "status"|has no field "status"/]]);
    expect((await t.sctBin(['orders', 'import', '--purchase', '--template', '--json', 'anything'])).exitCode).toBe(0);
    const picked = await t.sctBin(['invitations', 'bulk-create', '--file', people, '--json', 'key,status']);
    expect(picked.exitCode, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout)).toEqual([{ key: 'typo@fields.example', status: 'created' }]);
    const csv = await t.sctBin(['invitations', 'bulk-create', '--file', people, '-o', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('line,key,status,id,error');
    const v = await t.sctBin(['version', '--json', 'version,node']);
    expect(v.exitCode, v.stderr).toBe(0);
    expect(Object.keys(JSON.parse(v.stdout))).toEqual(['version', 'node']);
  });

  it('after the files or pairs of a command that takes many, a field list after --json is fields; a file of that name is a file', async () => {
    const plot = (id: string) => JSON.stringify({ type: 'Feature', id, properties: { name: id, country_code: 'CI' }, geometry: { type: 'Point', coordinates: [-5.54708, 7.539989] } });
    const a = t.writeFile('a.geojson', plot('pa'));
    t.writeFile('b.geojson', plot('pb'));
    const picked = await t.sctBin(['origins', 'check', a, '--json', 'feature,level']);
    expect(picked.exitCode, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout)).toEqual([{ feature: 1, level: 'warning' }]);
    // A second file after --json, there by that name: checked, not taken for fields.
    const both = await t.sctBin(['origins', 'check', 'a.geojson', '--json', 'b.geojson'], { cwd: t.dir });
    expect(both.exitCode, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout).map((f: { id: string }) => f.id)).toEqual(['pa', 'pb']);
    // A name that is neither: the field check says so (a file missed would say so too).
    const typo = await t.sctBin(['origins', 'check', a, '--json', 'levle']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('--json: origins check has no field "levle" (did you mean level?)');
    // --columns picks fields in every format: the lines for people become a table of them.
    const table = await t.sctBin(['origins', 'check', a, '--columns', 'level,message']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe('LEVEL\tMESSAGE');
    expect(table.stdout.split('\n')[1]).toMatch(/^warning\ta point without an "Area" property/);
    // stdin (`-`) is a file given too.
    const stdin = await t.sctBin(['origins', 'check', '-', '--json', 'feature,level'], { input: plot('ps') });
    expect(stdin.exitCode, stdin.stderr).toBe(0);
    expect(JSON.parse(stdin.stdout)).toEqual([{ feature: 1, level: 'warning' }]);
    const set = await t.sctBin(['user-config', 'set', 'theme=light', '--json', 'config.theme']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ config: { theme: 'light' } });
    // No pair given (a --file body): a word without "=" is still no pair.
    const body = t.writeFile('uc.json', '{"config":{"theme":"dark"}}');
    const fromFile = await t.sctBin(['user-config', 'set', '--file', body, '--json', 'config.theme']);
    expect(fromFile.exitCode, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toEqual({ config: { theme: 'dark' } });
  });

  it('an index in a path picks that element in json as in the table and csv', async () => {
    const risk = (await t.api('/compliance/risk-assessments?limit=5')).results.find((r: any) => Array.isArray(r.orders) && r.orders.length > 1);
    expect(risk, 'a risk assessment with two orders in the sandbox').toBeDefined();
    const args = ['risk', 'list', '--limit', '5', '--columns', 'id,orders.1'];
    const json = await t.sct([...args, '-o', 'json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).find((r: any) => r.id === risk.id)).toEqual({ id: risk.id, orders: [risk.orders[1]] });
    const csv = await t.sct([...args, '-o', 'csv']);
    expect(parse(csv.stdout, { columns: true }).find((r: any) => r.id === String(risk.id))).toEqual({ id: String(risk.id), 'orders.1': String(risk.orders[1]) });
  });

  it('resources whose fields the documents do not show take any name', async () => {
    const r = await t.sct(['risk', 'list', '--json', 'id,anything_at_all']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });
});

describe('--jq', () => {
  it('runs once on the whole array, across every page of --all', async () => {
    const total = (await t.api('/orders?order_action=buying&limit=1')).count;
    const r = await t.sct(['orders', 'list', '--buying', '--all', '--page-size', '50', '--jq', 'length']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${total}\n`);
    expect(t.sb.requests.length).toBeGreaterThanOrEqual(Math.ceil(total / 50));
  });

  it('prints strings raw, one result per line, and other values as compact JSON', async () => {
    const full = (await t.api('/orders?order_action=buying&limit=3')).results;
    // The built binary: the bundle loads jq-web (kept outside it) from node_modules.
    const r = await t.sctBin(['orders', 'list', '--buying', '--limit', '3', '--jq', '.[].external_id']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(full.map((o: any) => o.external_id).join('\n') + '\n');
    const obj = await t.sct(['orders', 'list', '--buying', '--limit', '2', '--jq', '.[] | {id}']);
    expect(obj.stdout).toBe(full.slice(0, 2).map((o: any) => JSON.stringify({ id: o.id })).join('\n') + '\n');
    const one = await t.sct(['products', 'get', '1', '--jq', '.id']);
    expect(one.stdout).toBe('1\n');
  });

  it('no result prints nothing, as jq does; an empty string is an empty line', async () => {
    const none = await t.sct(['orders', 'list', '--buying', '--limit', '3', '--jq', '.[] | select(.id < 0)']);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stdout).toBe('');
    expect((await t.sct(['products', 'get', '1', '--jq', 'empty'])).stdout).toBe('');
    expect((await t.sct(['products', 'get', '1', '--jq', '""'])).stdout).toBe('\n');
  });

  it('sees the --columns pick', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '1', '--json', 'id', '--jq', '.[0] | keys']);
    expect(r.stdout).toBe('["id"]\n');
  });

  it('a bad expression is exit 2 before any request; a runtime error is exit 1', async () => {
    await t.expectUsageErrors([
      // jq's line naming the place and the expression's line it quotes: one sentence, not "line 1:; .[".
      [['orders', 'list', '--buying', '--jq', '.['], /invalid --jq expression: syntax error, unexpected end of file .*at <top-level>, line 1: \.\[$/m],
      [['orders', 'list', '--buying', '--jq', 'nosuchfn(1)'], /invalid --jq expression: nosuchfn\/1 is not defined/],
      [['orders', 'list', '--buying', '--jq', '.', '-o', 'csv'], /--jq filters JSON output/],
    ]);
    const r = await t.sct(['orders', 'list', '--buying', '--limit', '1', '--jq', '.a']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: --jq: (at <stdin>:0): Cannot index array with string "a"');
  });
});
describe('--jq out of memory', () => {
  it('says jq ran out of memory and how to hand a large list to jq instead', async () => {
    const r = await t.sct(['orders', 'get', '1', '--jq', 'reduce range(40) as $i ("x"; . + .) | length']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: --jq: cannot allocate memory');
    expect(r.stderr).toContain('hint: jq ran out of the memory sct can give it (at most 4 GB, for the whole JSON and all the expression makes of it): for a large list, write it one object a line (-o ndjson) and give that to jq');
    // jq's words after a debug line of the expression's own still get it.
    const debugged = await t.sct(['orders', 'get', '1', '--jq', '"start" | debug | reduce range(40) as $i ("x"; . + .) | length']);
    expect(debugged.stderr).toContain('hint: jq ran out of the memory');
    // The expression's own error naming a size is no memory of sct's.
    const own = await t.sct(['orders', 'get', '1', '--jq', 'error("upload too large")']);
    expect(own.exitCode).toBe(1);
    expect(own.stderr).not.toContain('ran out of the memory');
    // Nor are jq's words written by the expression itself, in its error or on stderr.
    for (const expr of ['error("x; cannot allocate memory")', 'error("boom\\ncannot allocate memory")', '"jq: error: cannot allocate memory\\n" | stderr | error("bad")']) {
      const written = await t.sct(['orders', 'get', '1', '--jq', expr]);
      expect(written.exitCode, expr).toBe(1);
      expect(written.stderr, expr).not.toContain('ran out of the memory');
    }
  });
});
