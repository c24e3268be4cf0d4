// sct dds as a user runs it: list filters, the creation rules, update/delete, waiting for a
// statement, available-orders and trace with flags — sct in-process against the sandbox.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { until, useSandbox } from '../helpers/sandbox.js';
import { createTestIO } from '../helpers/io.js';
import { main } from '../../src/cli.js';
import { OWNER } from '../sandbox/helpers.js';
import type { Prompter } from '../../src/prompt.js';

// EUDR retrievals and filings finish this long after creation.
const t = useSandbox({ statementDelayMs: 300 }, { inProcess: true });

const RUN = '3f6c2a1e-8b4d-4c9a-9e2f-1a2b3c4d5e6f';

/** Orders the demo company buys (asked directly; the request log is cleared after). */
async function boughtOrders(n: number): Promise<number[]> {
  const page = await t.api(`/orders?order_action=buying&limit=${n}&ordering=id`);
  t.sb.requests.length = 0;
  return page.results.map((o: { id: number }) => o.id);
}

describe('dds list', () => {
  it('maps every named filter to its query parameter', async () => {
    const r = await t.sct([
      'dds', 'list', '-o', 'json',
      '--type', 'EUDR',
      '--status', 'complete,failed',
      '--name', 'cocoa',
      '--dds-identifier', 'A1', '--dds-identifier', 'B2',
      '--order', '1,2',
      '--product', '3',
      '--created-from', '2020-01-01', '--created-to', '2030-01-01',
      '--updated-from', '2020-01-01T08:00:00Z', '--updated-to', '2030-01-02',
      '--id', '1,2', '--exclude-id', '3',
      '--ordering', '-created_at',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBeInstanceOf(Array);
    expect(t.sb.requests).toHaveLength(1);
    expect(t.sb.requests[0]).toMatchObject({ method: 'GET', path: '/api/due-diligence-statements', status: 200 });
    expect(t.queryOf()).toEqual({
      type: 'EUDR',
      status__in: 'complete,failed',
      name__icontains: 'cocoa',
      dds_identifier__in: 'A1,B2',
      orders__in: '1,2',
      products__in: '3',
      created_at__gte: '2020-01-01T00:00:00Z',
      created_at__lte: '2030-01-01T23:59:59.999999Z',
      updated_at__gte: '2020-01-01T08:00:00Z',
      updated_at__lte: '2030-01-02T23:59:59.999999Z',
      id__in: '1,2',
      id__exclude_in: '3',
      ordering: '-created_at',
      limit: '10',
      offset: '0',
    });
  });

  it('filters for real and prints a table, JSON and CSV', async () => {
    const json = await t.sct(['dds', 'list', '--json', '--type', 'PPWR,EUTR', '--limit', '50']);
    expect(json.exitCode, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<{ type: string; id: number }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((s) => s.type))).toEqual(new Set(['PPWR', 'EUTR']));
    expect(t.queryOf()).toMatchObject({ type__in: 'PPWR,EUTR', limit: '50' });

    const table = await t.sct(['dds', 'list', '--limit', '2']);
    expect(table.exitCode, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TYPE\s+NAME\s+STATUS\s+IDENTIFIER\s+ORDERS\s+PRODUCTS\s+CREATED$/);
    expect(lines).toHaveLength(3);

    const csv = await t.sct(['dds', 'list', '-o', 'csv', '--limit', '1', '--columns', 'id,type,metadata.was_filed']);
    expect(csv.stdout.split('\n')[0]).toBe('id,type,metadata.was_filed');
  });

  it('a range of an offset-less date-time and a day is judged the same in every zone sct runs in, and sent as typed', async () => {
    for (const TZ of ['America/Los_Angeles', 'Pacific/Kiritimati']) {
      const r = await t.sctBin(['dds', 'list', '--created-from', '2026-03-01T20:00', '--created-to', '2026-03-01', '-o', 'json'], { env: { TZ } });
      expect(r.exitCode, `${TZ}: ${r.stderr}`).toBe(0);
      const q = t.searchParamsOf(t.sb.requests.length - 1);
      expect(q.get('created_at__gte')).toBe('2026-03-01T20:00');
      expect(q.get('created_at__lte')).toBe('2026-03-01T23:59:59.999999Z');
    }
    // Empty in every zone: refused.
    const empty = await t.sctBin(['dds', 'list', '--created-from', '2026-03-03T20:00', '--created-to', '2026-03-01']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('the range is empty');
  });

  it('rejects bad filter values before sending anything', async () => {
    await t.expectUsageErrors([
      [['dds', 'list', '--type', 'EUXX'], 'invalid --type "EUXX": allowed values are EUDR, EUTR, PPWR'],
      [['dds', 'list', '--status', 'done'], 'invalid --status "done"'],
      [['dds', 'list', '--status', ','], '--status needs a value'],
      [['dds', 'list', '--created-from', '2025-13-01'], 'invalid --created-from "2025-13-01"'],
      [['dds', 'list', '--updated-to', 'yesterday'], 'invalid --updated-to "yesterday": expected YYYY-MM-DD or an ISO 8601 date-time'],
      [['dds', 'list', '--created-from', '2025-02-01', '--created-to', '2025-01-01'], '--created-from 2025-02-01 is after --created-to 2025-01-01'],
      // A day its month lacks, with a time: no date-time (Date.parse would roll it into March).
      [['dds', 'list', '--created-from', '2026-02-30T10:00:00Z'], 'invalid --created-from "2026-02-30T10:00:00Z"'],
      [['dds', 'list', '--updated-to', '2026-02-31T00:00:00'], 'invalid --updated-to "2026-02-31T00:00:00"'],
      [['dds', 'list', '--order', '1,x'], 'invalid --order "x"'],
      [['dds', 'list', '--all', '--limit', '5'], '--all and --limit cannot be combined'],
    ]);
  });
});

describe('dds get, create, update, delete', () => {
  it('creates an EUTR statement with every field flag and shows it', async () => {
    const [order] = await boughtOrders(1);
    const r = await t.sct([
      // An id given twice is one (as dds trace takes it).
      'dds', 'create', '--type', 'EUTR', '--name', 'Timber 2025', '--orders', `${order},${order}`, '--products', '1', '--product', '1',
      '--assessment-run-ids', RUN, '--set', 'excluded_propagation_identifiers=["x"]', '-o', 'json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.bodyOf()).toEqual({
      type: 'EUTR', name: 'Timber 2025', orders: [order], products: [1], assessment_run_ids: [RUN], excluded_propagation_identifiers: ['x'],
    });
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ type: 'EUTR', status: 'complete', name: 'Timber 2025', orders: [order] });
    expect(r.stderr).toContain(`Created statement ${created.id}`);

    const got = await t.sct(['dds', 'get', String(created.id), '-o', 'json']);
    expect(got.exitCode, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout).orders_detail.map((o: { id: number }) => o.id)).toEqual([order]);
    const table = await t.sct(['dds', 'get', String(created.id)]);
    expect(table.stdout).toMatch(/^IDENTIFIER\s+EUTR-/m);
    expect(table.stdout).toMatch(new RegExp(`^ORDERS\\s+${order}$`, 'm'));
  });

  it('takes a whole body from --file and the creation rules from it', async () => {
    const file = t.writeFile('dds.json', JSON.stringify({ type: 'PPWR', dds_identifier: 'PPWR-1', assessment_run_ids: [RUN] }));
    const r = await t.sct(['dds', 'create', '--file', file, '--name', 'Packaging', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.bodyOf()).toEqual({ type: 'PPWR', dds_identifier: 'PPWR-1', assessment_run_ids: [RUN], name: 'Packaging' });
    expect(JSON.parse(r.stdout).status).toBe('draft');
  });

  it('checks the creation rules and every field before sending anything', async () => {
    await t.expectUsageErrors([
      [['dds', 'create'], 'type: This field is required.'],
      [['dds', 'create', '--type', 'XX'], 'type: "XX" is not one of the allowed values: EUDR, EUTR, PPWR'],
      [['dds', 'create', '--type', 'PPWR'], /assessment_run_ids: required and non-empty for a PPWR statement \(--assessment-run-id ID, the assessment_run_id of `sct risk list -o json`\)\n\s+dds_identifier: required for a PPWR statement \(--dds-identifier\)/],
      [['dds', 'create', '--type', 'PPWR', '--dds-identifier', 'P-1'], 'assessment_run_ids: required and non-empty for a PPWR statement'],
      [['dds', 'create', '--type', 'PPWR', '--assessment-run-ids', RUN], 'dds_identifier: required for a PPWR statement'],
      [['dds', 'create', '--type', 'EUDR'], 'assessment_run_ids: required and non-empty for an EUDR statement without dds_identifier'],
      [['dds', 'create', '--type', 'EUDR', '--dds-identifier', ''], 'assessment_run_ids: required and non-empty for an EUDR statement without dds_identifier'],
      [['dds', 'create', '--type', 'EUDR', '--dds-identifier', '   '], 'assessment_run_ids: required and non-empty for an EUDR statement without dds_identifier'],
      [['dds', 'create', '--type', 'PPWR', '--dds-identifier', ' ', '--assessment-run-ids', RUN], 'dds_identifier: required for a PPWR statement'],
      [['dds', 'create', '--type', 'EUDR', '--assessment-run-ids', 'nope'], 'assessment_run_ids[0]: expected a UUID'],
      [['dds', 'create', '--type', 'EUTR', '--order', '1,x'], 'invalid --order "x"'],
      [['dds', 'create', '--type', 'EUTR', '--name', 'n'.repeat(256)], 'name: at most 255 characters'],
      [['dds', 'create', '--type', 'EUDR', '--dds-identifier', 'X', '--wait', '--timeout', 'soon'], 'invalid --timeout "soon"'],
      [['dds', 'update', '1'], 'nothing to update: give --status or --name'],
      [['dds', 'update', '1', '--status', 'done'], 'status: "done" is not one of the allowed values: draft, in_progress, complete, failed'],
      [['dds', 'update', 'x', '--name', 'a'], 'invalid ID "x"'],
      [['dds', 'update', '1', '--set', 'type=EUTR'], "unknown option '--set'"],
      [['dds', 'get', 'abc'], 'invalid ID "abc"'],
      [['dds', 'delete', '1'], 'confirm with --yes'],
      [['dds', 'wait', '1', '--timeout', 'xx'], 'invalid --timeout "xx"'],
    ]);
  });

  it('EUDR without identifier needs only assessment runs; EUDR with one needs none', async () => {
    const filed = await t.sct(['dds', 'create', '--type', 'EUDR', '--assessment-run-ids', RUN, '-o', 'json']);
    expect(filed.exitCode, filed.stderr).toBe(0);
    expect(JSON.parse(filed.stdout).status).toBe('in_progress');
    const retrieved = await t.sct(['dds', 'create', '--type', 'EUDR', '--dds-identifier', '25BEAAAA', '-o', 'json']);
    expect(retrieved.exitCode, retrieved.stderr).toBe(0);
    expect(t.bodyOf(1)).toEqual({ type: 'EUDR', dds_identifier: '25BEAAAA' });
  });

  it('updates only the status and the name', async () => {
    const created = JSON.parse((await t.sct(['dds', 'create', '--type', 'PPWR', '--dds-identifier', 'P-2', '--assessment-run-ids', RUN, '--json'])).stdout);
    t.sb.requests.length = 0;
    const r = await t.sct(['dds', 'update', String(created.id), '--status', 'complete', '--name', 'Done', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0]).toMatchObject({ method: 'PATCH', path: `/api/due-diligence-statements/${created.id}` });
    expect(t.bodyOf()).toEqual({ status: 'complete', name: 'Done' });
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'complete', name: 'Done' });
  });

  it('exits 1 with the API error when the service refuses', async () => {
    const missing = await t.sct(['dds', 'get', '999999']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('404 Not Found on GET /due-diligence-statements/999999');

    const eutr = JSON.parse((await t.sct(['dds', 'create', '--type', 'EUTR', '--json'])).stdout);
    const update = await t.sct(['dds', 'update', String(eutr.id), '--status', 'failed']);
    expect(update.exitCode).toBe(1);
    expect(update.stderr).toContain('status: The status of an EUTR statement cannot change.');

    // Only an EUDR statement the service filed can be withdrawn; nothing is deleted.
    const withdraw = await t.sct(['dds', 'delete', String(eutr.id), '--withdraw', '--yes', '-o', 'json']);
    expect(withdraw.exitCode).toBe(1);
    const err = JSON.parse(withdraw.stderr.trim().split('\n').pop()!);
    expect(err).toMatchObject({ status: 400, exit_code: 1, fields: { has_withdraw_request: ['Only an EUDR statement filed by the service can be withdrawn.'] } });
    expect((await t.sct(['dds', 'get', String(eutr.id)])).exitCode).toBe(0);
  });

  it('deletes, and with --withdraw asks the registry to withdraw it too', async () => {
    const filed = JSON.parse((await t.sct(['dds', 'create', '--type', 'EUDR', '--assessment-run-ids', RUN, '--json'])).stdout);
    const plain = JSON.parse((await t.sct(['dds', 'create', '--type', 'EUTR', '--json'])).stdout);
    t.sb.requests.length = 0;
    const a = await t.sct(['dds', 'delete', String(filed.id), '--withdraw', '--yes']);
    const b = await t.sct(['dds', 'delete', String(plain.id), '--yes']);
    expect(a.exitCode, a.stderr).toBe(0);
    expect(b.exitCode, b.stderr).toBe(0);
    expect(t.sb.requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ['DELETE', `/api/due-diligence-statements/${filed.id}`, 'has_withdraw_request=true'],
      ['DELETE', `/api/due-diligence-statements/${plain.id}`, ''],
    ]);
    expect(a.stderr).toContain(`Deleted statement ${filed.id} and asked the EU registry to withdraw it`);
    expect((await t.sct(['dds', 'get', String(filed.id)])).exitCode).toBe(1);
  });

  it('on a terminal, asks for the type and confirms a delete', async () => {
    const asked: string[] = [];
    const prompter = {
      password: async () => '',
      input: async () => '',
      confirm: async (m: string) => (asked.push(m), true),
      select: async (m: string, choices: Array<{ value: unknown }>) => (asked.push(`${m}: ${choices.map((c) => c.value).join('|')}`), 'EUDR'),
    } as unknown as Prompter;
    const run = async (args: string[]) => {
      const io = createTestIO({ stdoutIsTTY: true, stderrIsTTY: true, stdinIsTTY: true, columns: 100 });
      const env = { SCT_CONFIG_DIR: t.dir, SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, NO_COLOR: '1' };
      const code = await main(args, { streams: io.streams, env, prompter, signal: new AbortController().signal });
      process.exitCode = undefined;
      return { code, stdout: io.stdout(), stderr: io.stderr() };
    };
    const created = await run(['dds', 'create', '--assessment-run-ids', RUN, '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    expect(t.bodyOf()).toEqual({ assessment_run_ids: [RUN], type: 'EUDR' });
    const id = JSON.parse(created.stdout).id;
    const deleted = await run(['dds', 'delete', String(id), '--withdraw']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(asked).toEqual(['type: EUDR|EUTR|PPWR', `Delete statement ${id} and withdraw it from the EU registry?`]);
  });
});

describe('dds wait and create --wait', () => {
  it('create --wait polls until complete and prints the final statement once', async () => {
    const r = await t.sct(['dds', 'create', '--type', 'EUDR', '--dds-identifier', '25BEWAIT01', '--wait', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ status: 'complete', dds_identifier: '25BEWAIT01' });
    expect(s.dds_data.reference_number).toBe('25BEWAIT01');
    expect(r.stderr).toContain(`Statement ${s.id} is complete (25BEWAIT01)`);
    const methods = t.sb.requests.map((x) => x.method);
    expect(methods[0]).toBe('POST');
    expect(methods.slice(1).every((m) => m === 'GET')).toBe(true);
    expect(methods.length).toBeGreaterThanOrEqual(2);
  });

  it('dds wait exits 0 on complete and 1 with the reason on failed', async () => {
    const ok = JSON.parse((await t.sct(['dds', 'create', '--type', 'EUDR', '--assessment-run-ids', RUN, '--json'])).stdout);
    const bad = JSON.parse((await t.sct(['dds', 'create', '--type', 'EUDR', '--dds-identifier', 'FAIL-42', '--json'])).stdout);
    const [a, b] = await Promise.all([t.sct(['dds', 'wait', String(ok.id), '-o', 'json']), t.sct(['dds', 'wait', String(bad.id), '-o', 'json'])]);
    expect(a.exitCode, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout)).toMatchObject({ id: ok.id, status: 'complete' });
    expect(JSON.parse(a.stdout).dds_identifier).toMatch(/^26BE/);
    expect(b.exitCode).toBe(1);
    expect(JSON.parse(b.stdout)).toMatchObject({ id: bad.id, status: 'failed' });
    expect(b.stderr).toContain(`error: statement ${bad.id} failed: Registry retrieval failed: reference number FAIL-42 was not found`);
  });

  it('create --wait on a failing retrieval exits 1; a draft or an EUTR needs no polling', async () => {
    const failed = await t.sct(['dds', 'create', '--type', 'EUDR', '--dds-identifier', 'FAIL-7', '--wait']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('failed: Registry retrieval failed');
    t.sb.requests.length = 0;
    const draft = await t.sct(['dds', 'create', '--type', 'PPWR', '--dds-identifier', 'P-3', '--assessment-run-ids', RUN, '--wait', '--json']);
    const eutr = await t.sct(['dds', 'create', '--type', 'EUTR', '--wait', '--json']);
    expect(draft.exitCode, draft.stderr).toBe(0);
    expect(draft.stderr).toContain('is a draft: nothing to wait for');
    expect(eutr.exitCode, eutr.stderr).toBe(0);
    expect(JSON.parse(eutr.stdout).status).toBe('complete');
    expect(t.sb.requests.map((x) => x.method)).toEqual(['POST', 'POST']);
  });

  it('dds wait on a draft exits 1 at once', async () => {
    const draft = (await t.api('/due-diligence-statements?status=draft&limit=1')).results[0];
    t.sb.requests.length = 0;
    const r = await t.sct(['dds', 'wait', String(draft.id)]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`statement ${draft.id} is a draft`);
    expect(t.sb.requests).toHaveLength(1);
  });

  it('times out with exit 1 naming the last status, and Ctrl-C is 130', async () => {
    const slow = await startSandbox({ port: 0, statementDelayMs: 600_000 });
    try {
      const env = { SCT_BASE_URL: slow.url };
      const timedOut = await t.sctIn(['dds', 'create', '--type', 'EUDR', '--dds-identifier', 'SLOW-1', '--wait', '--timeout', '1500ms', '--json', 'id,status'], { env });
      expect(timedOut.exitCode).toBe(1);
      expect(timedOut.stderr).toMatch(/error: timed out after \d+(\.\d)?(ms|s): statement \d+ is still in_progress/);
      // The statement exists: a script reading its id from stdout gets it, as it does for a
      // failed one, rather than creating another on a rerun.
      expect(JSON.parse(timedOut.stdout)).toEqual({ id: Number(/statement (\d+)/.exec(timedOut.stderr)![1]), status: 'in_progress' });
      // Polled at once, then after 1 s, then at the deadline.
      expect(slow.requests.filter((x) => x.method === 'GET').length).toBe(3);

      const id = /statement (\d+)/.exec(timedOut.stderr)![1];
      const ctl = new AbortController();
      const running = t.sctIn(['dds', 'wait', id], { env, tty: true, signal: ctl.signal });
      await until(() => slow.requests.filter((x) => x.method === 'GET').length >= 4, 'the first poll');
      ctl.abort();
      const r = await running;
      expect(r.exitCode).toBe(130);
      expect(r.stderr).toContain('error: interrupted');

      // Stopped while a create waits: the statement it made is named, with how to keep waiting
      // (a rerun of the create would make another).
      const ctl2 = new AbortController();
      const before = slow.requests.filter((x) => x.method === 'GET').length;
      const creating = t.sctIn(['dds', 'create', '--type', 'EUDR', '--dds-identifier', 'SLOW-2', '--wait', '-o', 'json'], { env, tty: true, signal: ctl2.signal });
      await until(() => slow.requests.filter((x) => x.method === 'GET').length > before, 'the first poll');
      ctl2.abort();
      const stopped = await creating;
      expect(stopped.exitCode).toBe(130);
      const made = JSON.parse(stopped.stdout).id;
      expect(stopped.stderr).toContain(`statement ${made} was created`);
      expect(stopped.stderr).toContain(`hint: keep waiting with \`sct dds wait ${made}\``);
      expect(stopped.stderr).toMatch(new RegExp(`"error":"[^"]*statement ${made} was created`));
    } finally {
      await slow.close();
    }
  });
});

describe('dds available-orders', () => {
  it('unwraps the results, honours --limit and --exclude-dds, and prints a table', async () => {
    const r = await t.sct(['dds', 'available-orders', '--exclude-dds', '1,9', '--limit', '3', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.queryOf()).toEqual({ exclude_dds: '1,9', limit: '3', offset: '0' });
    const orders = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(orders).toHaveLength(3);
    for (const o of orders) expect(Object.keys(o).sort()).toEqual(['buyer_external_id', 'id', 'order_created_at', 'seller_external_id', 'type']);

    const all = await t.sct(['dds', 'available-orders', '--all', '--page-size', '60', '-o', 'ndjson']);
    expect(all.exitCode, all.stderr).toBe(0);
    const total = (await t.api('/due-diligence-statements/available-orders?limit=1')).count;
    t.sb.requests.length = 0;
    expect(all.stdout.trim().split('\n')).toHaveLength(total);

    const table = await t.sct(['dds', 'available-orders', '--limit', '2']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+BUYER EXTERNAL ID\s+SELLER EXTERNAL ID\s+TYPE\s+CREATED$/);
  });

  it('rejects a bad --exclude-dds before sending', async () => {
    await t.expectUsageErrors([[['dds', 'available-orders', '--exclude-dds', 'a'], 'invalid --exclude-dds "a"']]);
  });
});

describe('dds trace with flags', () => {
  it('traces every order to every statement and reports the API results', async () => {
    const [a, b] = await boughtOrders(2);
    const r = await t.sct(['dds', 'trace', '--dds', '17', '--order', `${a},${b}`, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0]).toMatchObject({ method: 'POST', path: '/api/due-diligence-statements/trace-orders' });
    expect(t.bodyOf()).toEqual({ dds_id: [17], order_id: [a, b] });
    const [result] = JSON.parse(r.stdout);
    expect(result.dds_id).toBe(17);
    expect(result.total_orders).toBeGreaterThanOrEqual(2);

    const table = await t.sct(['dds', 'trace', '--dds', '17', '--order', String(a)]);
    expect(table.stdout).toMatch(/^DDS\s+ADDED ORDERS\s+TOTAL ORDERS\s+MESSAGE$/m);
    expect(table.stderr).toContain('0 orders added to 1 statement');
  });

  it('splits more than 100 orders into requests of 100', async () => {
    const orders = await boughtOrders(150);
    const r = await t.sct(['dds', 'trace', '--dds', '25,33', '--order', orders.join(','), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests).toHaveLength(2);
    expect([t.bodyOf(0).order_id.length, t.bodyOf(1).order_id.length]).toEqual([100, 50]);
    expect(t.bodyOf(0).dds_id).toEqual([25, 33]);
    expect(JSON.parse(r.stdout)).toHaveLength(4);
  });

  it('a request refused after others went through: what they added is printed, exit 3, the rest not sent', async () => {
    const orders = await boughtOrders(150);
    const dds = JSON.parse((await t.sct(['dds', 'create', '--type', 'EUTR', '--name', 'half', '-o', 'json'])).stdout).id;
    t.sb.requests.length = 0;
    // 100 orders, then a second request that holds one the service refuses.
    const ids = [...orders.slice(0, 100), 999999, ...orders.slice(100, 150)];
    const r = await t.sct(['dds', 'trace', '--dds', String(dds), '--order', ids.join(','), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(t.sb.requests.map((q) => q.method)).toEqual(['POST', 'POST']);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ dds_id: dds, added_orders: orders.slice(0, 100) })]);
    expect(r.stderr).toContain(`1 of 2 requests went through (100 orders added); the one of 51 orders from 999999 to statement ${dds} failed: `);
    expect(r.stderr).toContain('order_id: Invalid pk "999999" - object does not exist.');
    expect((await t.api(`/due-diligence-statements/${dds}`)).orders).toHaveLength(100);
  });

  it('exits 1 when the service refuses an order, and 2 for bad flags', async () => {
    const r = await t.sct(['dds', 'trace', '--dds', '17', '--order', '999999']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('order_id: Invalid pk "999999" - object does not exist.');
    t.sb.requests.length = 0;
    await t.expectUsageErrors([
      [['dds', 'trace'], '--dds and --order are both required (or --file pairs.csv)'],
      [['dds', 'trace', '--dds', '1'], '--dds and --order are both required'],
      [['dds', 'trace', '--dds', '1', '--order', 'x'], 'invalid --order "x"'],
      [['dds', 'trace', '--dds', '1', '--order', '2', '--file', 'pairs.csv'], 'give either --file or --dds with --order, not both'],
      [['dds', 'trace', '--dds', '1', '--order', '2', '--report', 'r.csv'], '--report goes with --file'],
      [['dds', 'trace', '--dds', '1', '--order', '2', '--skip-invalid'], '--skip-invalid goes with --file'],
      [['dds', 'trace', '--dds', '1', '--order', '2', '--encoding', 'windows-1252'], '--encoding goes with --file'],
      [['dds', 'trace', '--dds', '1', '--order', '2', '--delimiter', ';'], '--delimiter goes with --file'],
      [['dds', 'trace', '--dds', '1', '--order', '2', '--decimal-comma'], '--decimal-comma goes with --file'],
      [['dds', 'trace', '--dds', '1', '--order', '2', '--sheet', 'Pairs'], '--sheet goes with --file'],
    ]);
  });
});
