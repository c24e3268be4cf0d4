// The chunked bulk commands: sct dds trace --file pairs.csv and sct info-requests send —
// validation before sending, 100 rows per request, per-row reports, exit 3, and reruns that
// resend only what did not go through.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { until, useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

const TRACE = '/api/due-diligence-statements/trace-orders';
const INFO = '/api/information-requests/bulk';
const posts = (path: string) => t.sb.requests.filter((r) => r.method === 'POST' && r.path === path);
const bodies = (path: string) => posts(path).map((p) => JSON.parse(p.body));

let bought: number[] = [];
/** An order the demo company sells to someone else: not one it may trace or ask about. */
let foreign = 0;
let chains: number[] = [];

beforeAll(async () => {
  bought = (await t.api('/orders?order_action=buying&limit=300&ordering=id')).results.map((o: { id: number }) => o.id);
  const selling = (await t.api('/orders?order_action=selling&limit=300')).results as Array<{ id: number; buyer_company_id: number }>;
  foreign = selling.find((o) => o.buyer_company_id !== 1)!.id;
  chains = (await t.api('/value-chains?limit=20&ordering=id')).results.map((v: { id: number }) => v.id);
});

function pairsCsv(pairs: Array<[number, number]>): string {
  return ['dds_id,order_id', ...pairs.map(([d, o]) => `${d},${o}`)].join('\n') + '\n';
}

describe('dds trace --file', () => {
  it('sends one request per statement with its orders, and reports each row', async () => {
    const file = t.writeFile('pairs.csv', pairsCsv([[1, bought[0]], [9, bought[1]], [1, bought[2]]]));
    const r = await t.sct(['dds', 'trace', '--file', file, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(bodies(TRACE)).toEqual([
      { dds_id: 1, order_id: [bought[0], bought[2]] },
      { dds_id: 9, order_id: [bought[1]] },
    ]);
    const keys = posts(TRACE).map((p) => p.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
    const report = JSON.parse(r.stdout) as Array<{ lines: number[]; key: string; status: string }>;
    expect(report.map((x) => [x.lines, x.key, x.status])).toEqual([
      [[2], `dds 1 order ${bought[0]}`, 'created'],
      [[3], `dds 9 order ${bought[1]}`, 'created'],
      [[4], `dds 1 order ${bought[2]}`, 'created'],
    ]);
    expect(r.stderr).toContain('pairs: 3 traced, 0 rejected');
    const statement = await t.api('/due-diligence-statements/1');
    expect(statement.orders).toEqual(expect.arrayContaining([bought[0], bought[2]]));
  });

  it('checks every row before sending anything', async () => {
    const bad = t.writeFile('bad.csv', 'dds_id,order_id\n1,x\n,2\n1,3\n1,3\n-4,5\n');
    const noColumn = t.writeFile('nocol.csv', 'dds,order_id\n1,2\n');
    const existing = t.writeFile('report.csv', 'keep me');
    const good = t.writeFile('good.csv', pairsCsv([[1, 2]]));
    await t.expectUsageErrors([
      [['dds', 'trace', '--file', bad], /bad\.csv: 4 invalid rows; nothing was sent[\s\S]*line 2, order_id: "x" is not a whole number[\s\S]*line 3, dds_id: This field is required\.[\s\S]*line 5: the pair dds_id 1, order_id 3 is also on line 4[\s\S]*line 6, dds_id: "-4" is not a whole number/],
      [['dds', 'trace', '--file', noColumn], 'nocol.csv: missing column dds_id'],
      [['dds', 'trace', '--file', good, '--report', existing], 'already exists: pass --force'],
      [['dds', 'trace', '--file', good, '--concurrency', '99'], 'invalid --concurrency'],
      [['dds', 'trace', '--file', join(t.dir, 'nope.csv')], 'nope.csv: no such file'],
      [['dds', 'trace', '--file', t.dir], `cannot read ${t.dir}: it is a directory`],
      // A cell's value as it is: a control character shown, not hidden (a NUL before 217 looked
      // like a good id); a value of 100,000 characters cut, with its length.
      [['dds', 'trace', '--file', t.writeFile('nul.csv', 'dds_id,order_id\n1,\u0000217\n')], 'line 2, order_id: "\\u0000217" is not a whole number'],
      [['dds', 'trace', '--file', t.writeFile('long.csv', `dds_id,order_id\n${'X'.repeat(100_000)},2\n`)], /line 2, dds_id: "X{60}…" \(100,000 characters\) is not a whole number/],
    ]);
    expect(readFileSync(existing, 'utf8')).toBe('keep me');
  });

  it('fails only the rows the service refuses, exits 3 with a report, and a rerun resends only those', async () => {
    const file = t.writeFile('pairs.csv', pairsCsv([[17, bought[3]], [17, foreign], [17, bought[4]], [999999, bought[5]]]));
    const report = join(t.dir, 'report.csv');
    const r = await t.sct(['dds', 'trace', '--file', file, '--report', report, '--concurrency', '1']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('pairs: 2 traced, 2 rejected');
    expect(r.stderr).toContain('error: 2 of 4 pairs rejected');
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => [x.line, x.status])).toEqual([['2', 'created'], ['3', 'rejected'], ['4', 'created'], ['5', 'rejected']]);
    expect(rows[1].error).toContain(`order_id: Invalid pk "${foreign}"`);
    expect(rows[3].error).toContain('dds_id');
    // The refused order's request was sent again without it.
    expect(bodies(TRACE)).toEqual([
      { dds_id: 17, order_id: [bought[3], foreign, bought[4]] },
      { dds_id: 17, order_id: [bought[3], bought[4]] },
      { dds_id: 999999, order_id: [bought[5]] },
    ]);

    t.sb.requests.length = 0;
    const again = await t.sct(['dds', 'trace', '--file', file, '--report', report, '--force', '--concurrency', '1', '-o', 'json']);
    expect(again.exitCode).toBe(3);
    expect(bodies(TRACE)).toEqual([{ dds_id: 17, order_id: [foreign] }, { dds_id: 999999, order_id: [bought[5]] }]);
    expect((JSON.parse(again.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['skipped', 'rejected', 'skipped', 'rejected']);
  });

  it('stops on Ctrl-C (exit 130) and a rerun sends only the chunks not done, none twice', async () => {
    // Two statements with 125 orders each: chunks of 100 and 25 per statement, four requests.
    const orders = bought.slice(0, 125);
    const pairs: Array<[number, number]> = [...orders.map((o): [number, number] => [25, o]), ...orders.map((o): [number, number] => [33, o])];
    const file = t.writeFile('many.csv', pairsCsv(pairs));
    t.sb.setFaults({ latencyMs: 200 });
    const ctl = new AbortController();
    const running = t.sctIn(['dds', 'trace', '--file', file, '--concurrency', '1'], { signal: ctl.signal });
    await until(() => posts(TRACE).length >= 1, 'the first chunk');
    ctl.abort();
    const r = await running;
    expect(r.exitCode).toBe(130);
    // The chunk in flight at Ctrl-C finishes; the later ones are not sent.
    const [, traced, notSent] = /pairs: (\d+) traced, 0 rejected, (\d+) not sent/.exec(r.stderr)!.map(Number);
    expect(traced + notSent).toBe(250);
    expect(notSent).toBeGreaterThan(0);
    expect(r.stderr).toContain('to continue, rerun: sct ');
    t.sb.setFaults({});
    const first = bodies(TRACE);

    t.sb.requests.length = 0;
    const again = await t.sct(['dds', 'trace', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${traced} of 250 pairs were traced by an earlier run`);
    // Every pair sent exactly once over both runs.
    const sent = [...first, ...bodies(TRACE)].flatMap((b) => b.order_id.map((o: number) => `${b.dds_id}:${o}`));
    expect(sent.sort()).toEqual(pairs.map(([d, o]) => `${d}:${o}`).sort());
  });
});

describe('info-requests send', () => {
  it('sends 100 per call and reports each row with what the service did; exit 3 on rejected rows', async () => {
    const lines = ['order_id,value_chain_id'];
    for (const o of bought.slice(0, 120)) lines.push(`${o},`);
    lines.push(`${foreign},`, `,${chains[0]}`, `${bought[0]},${chains[1]}`);
    const file = t.writeFile('requests.csv', lines.join('\n') + '\n');
    const report = join(t.dir, 'sent.csv');
    const r = await t.sct(['info-requests', 'send', '--file', file, '--report', report, '--concurrency', '1']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('information requests: 122 sent, 1 rejected');
    expect(r.stderr).toContain(`line 122 (order ${foreign}): Order ${foreign} does not exist or is not bought by your company.`);
    expect(r.stderr).toMatch(/what was sent: \d+ \w+_sent/);
    const sent = bodies(INFO);
    expect(sent.map((b) => b.information_requests.length)).toEqual([100, 23]);
    expect(sent[0].information_requests[0]).toEqual({ order_id: bought[0] });
    expect(sent[1].information_requests.slice(-2)).toEqual([{ value_chain_id: chains[0] }, { order_id: bought[0], value_chain_id: chains[1] }]);
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(123);
    expect(rows[0]).toMatchObject({ line: '2', key: `order ${bought[0]}`, status: 'created' });
    expect(rows[0].id).toMatch(/^(request|reminder|invitation)_sent$/);
    expect(rows[120]).toMatchObject({ line: '122', key: `order ${foreign}`, status: 'rejected' });
    expect(rows[122]).toMatchObject({ key: `order ${bought[0]} value chain ${chains[1]}`, status: 'created' });

    // A rerun sends only the rejected row.
    t.sb.requests.length = 0;
    const again = await t.sct(['info-requests', 'send', '--file', file, '-o', 'json']);
    expect(again.exitCode).toBe(3);
    expect(bodies(INFO)).toEqual([{ information_requests: [{ order_id: foreign }] }]);
  });

  it('checks every row before sending anything', async () => {
    const bad = t.writeFile('bad.csv', `order_id,value_chain_id\nx,\n,\n5,\n5,\n,1.5\n`);
    const none = t.writeFile('none.csv', 'order,chain\n1,2\n');
    await t.expectUsageErrors([
      // Line 3 (`,`) is a row left blank in the sheet: skipped, as a workbook's blank rows are.
      [['info-requests', 'send', '--file', bad], /bad\.csv: 3 invalid rows; nothing was sent[\s\S]*line 2, order_id: "x" is not a whole number[\s\S]*line 5: the same request \(order 5\) is also on line 4[\s\S]*line 6, value_chain_id: "1\.5" is not a whole number/],
      [['info-requests', 'send', '--file', none], 'none.csv line 1: no known column in the header (found: order, chain; tried the separators , ; tab |)'],
      [['info-requests', 'send'], "required option '--file <file>'"],
    ]);
  });

  it('reuses the chunk Idempotency-Key when a request is retried, so nothing is sent twice', async () => {
    const file = t.writeFile('one.csv', `order_id\n${bought[10]}\n${bought[11]}\n`);
    // The first request is processed but its answer is lost: the retry gets the replay.
    t.sb.setFaults({ dropFirst: 1, dropAfterProcessing: true, methods: ['POST'] });
    const r = await t.sctIn(['info-requests', 'send', '--file', file, '-o', 'json'], { clientOptions: { retryBaseMs: 1 } });
    expect(r.exitCode, r.stderr).toBe(0);
    const keys = t.sb.requests.filter((x) => x.path === INFO).map((x) => x.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect((JSON.parse(r.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['created', 'created']);
  });

  it('rows an earlier run sent without an answer stay unknown when a rerun cannot get them through: never sent again under a new key', async () => {
    const file = t.writeFile('lost.csv', `order_id\n${bought[20]}\n${bought[21]}\n${bought[22]}\n`);
    t.sb.setFaults({ dropFirst: 4, dropAfterProcessing: true, methods: ['POST'] });
    const first = await t.sctIn(['info-requests', 'send', '--file', file], { clientOptions: { retryBaseMs: 1 } });
    expect(first.exitCode, first.stderr).toBe(1);
    const key = posts(INFO)[0].headers['idempotency-key'];

    t.sb.setFaults({ failFirst: 100, methods: ['POST'] });
    const blocked = await t.sctIn(['info-requests', 'send', '--file', file, '-o', 'json'], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(blocked.exitCode, blocked.stderr).toBe(1);
    expect((JSON.parse(blocked.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['unknown', 'unknown', 'unknown']);

    // A row taken out of the file: the other two go again under the first run's key, as one
    // request the service already carried out, never as a new one.
    t.writeFile('lost.csv', `order_id\n${bought[20]}\n${bought[21]}\n`);
    t.sb.requests.length = 0;
    await t.sct(['info-requests', 'send', '--file', file, '-o', 'json']);
    expect(posts(INFO).map((x) => x.headers['idempotency-key'])).not.toContain(undefined);
    expect(posts(INFO).every((x) => x.headers['idempotency-key'] === key)).toBe(true);
  });

  it('exits 130 on Ctrl-C and a rerun sends only the rest', async () => {
    // 207 rows: three calls of 100, 100 and 7.
    const lines = ['order_id,value_chain_id', ...bought.map((o) => `${o},`), ...chains.slice(0, 207 - bought.length).map((c) => `,${c}`)];
    expect(lines).toHaveLength(208);
    const file = t.writeFile('many.csv', lines.join('\n') + '\n');
    t.sb.setFaults({ latencyMs: 200 });
    const ctl = new AbortController();
    const running = t.sctIn(['info-requests', 'send', '--file', file, '--concurrency', '1'], { signal: ctl.signal });
    await until(() => posts(INFO).length >= 1, 'the first chunk');
    ctl.abort();
    const r = await running;
    expect(r.exitCode).toBe(130);
    const [, sent, notSent] = /information requests: (\d+) sent, 0 rejected, (\d+) not sent/.exec(r.stderr)!.map(Number);
    expect(sent + notSent).toBe(207);
    expect(notSent).toBeGreaterThan(0);
    t.sb.setFaults({});
    const first = bodies(INFO).flatMap((b) => b.information_requests);
    t.sb.requests.length = 0;
    const again = await t.sct(['info-requests', 'send', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    const rest = bodies(INFO).flatMap((b) => b.information_requests);
    expect(first.length + rest.length).toBe(207);
    expect(rest).toHaveLength(notSent);
    const statuses = (JSON.parse(again.stdout) as Array<{ status: string }>).map((x) => x.status);
    expect(statuses.filter((s) => s === 'skipped')).toHaveLength(sent);
    expect(statuses.filter((s) => s === 'created')).toHaveLength(notSent);
  });
});
