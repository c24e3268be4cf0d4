// cli-spec "Journal damage": records are flushed to disk before the requests they describe are
// sent. A run killed with -9 while the service holds a request (and then carries it out, its
// answer lost) leaves the row on record as sent: the rerun says it resends it under its original
// Idempotency-Key, the service replays its answer, and nothing exists twice. A row the run knows
// it never sent (Ctrl-C in a retry's backoff) is not left on record as sent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });
let run = 0;
beforeEach(() => {
  run++;
});
/** The release of the POSTs a test holds: a failed test must not leave them held. */
let releaseHeld: (() => void) | undefined;
afterEach(() => {
  t.sb.setBeforeHandle(undefined);
  releaseHeld?.();
  releaseHeld = undefined;
  t.sb.setFaults({});
});

const RESENT = /(\d+) (purchase orders?|invitations?) an earlier run sent without learning the outcome (?:is|are) sent again under (?:its|their) original Idempotency-Key/;

/** Every record of the run's journals on disk right now. */
function journalRecords(): Array<{ key: string; status: string; sent?: string }> {
  const dir = join(t.dir, 'journals');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line));
}

/** The rows the journal holds as sent without a known outcome: each row's last record says. */
function onRecordAsSent(): string[] {
  const last = new Map(journalRecords().map((r) => [r.key, r.status]));
  return [...last].filter(([, status]) => status === 'unknown').map(([key]) => key);
}

/** Holds every POST until released, noting the journal's records as each arrives. */
function holdPosts(): { seen: ReturnType<typeof journalRecords>[]; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  releaseHeld = release;
  const seen: ReturnType<typeof journalRecords>[] = [];
  t.sb.setBeforeHandle(async ({ method }) => {
    if (method !== 'POST') return;
    seen.push(journalRecords());
    await held;
  });
  return { seen, release };
}

async function productId(): Promise<number> {
  return (await t.api('/products?limit=1')).results[0].id;
}

describe('a row is on record as sent before its request leaves', () => {
  it('orders import killed with -9 while the service holds the first POST: the rerun resends it under its key, one order each', async () => {
    const product = await productId();
    const file = t.writeFile(
      'orders.csv',
      ['external_id,type,order_created_at,seller_company_id,product,volume,unit', `J${run}-1,order,2025-05-01,101,${product},1,kg`, `J${run}-2,order,2025-05-01,101,${product},2,kg`].join('\n') + '\n',
    );
    const hold = holdPosts();
    const child = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '1']);
    await until(() => hold.seen.length >= 1, 'the first POST');
    // When the request reached the service, its row was already on disk as sent.
    expect(hold.seen[0].map((r) => r.status)).toEqual(['unknown']);
    child.kill('SIGKILL');
    await child;
    // The service carries the request out; its answer goes to nobody.
    t.sb.setBeforeHandle(undefined);
    hold.release();
    await t.sb.settled();
    const firstKey = t.sb.requests.find((r) => r.method === 'POST' && r.body.includes(`J${run}-1`))!.headers['idempotency-key'];

    const again = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(RESENT);
    expect(again.stderr.match(RESENT)![1]).toBe('1');
    const keys = t.sb.requests.filter((r) => r.method === 'POST' && r.body.includes(`J${run}-1`)).map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([firstKey, firstKey]);
    const list = { results: await t.ordersWith([`J${run}-1`, `J${run}-2`]) };
    expect(list.results.map((o: { external_id: string }) => o.external_id).sort()).toEqual([`J${run}-1`, `J${run}-2`]);
  });

  it('invitations bulk-create killed with -9 while its chunk is held: every row of it is on record, and the rerun says so', async () => {
    const file = t.writeFile('people.csv', ['email,auth_group', `a${run}@held.example,3`, `b${run}@held.example,3`].join('\n') + '\n');
    const hold = holdPosts();
    const child = t.spawnSct(['invitations', 'bulk-create', '--file', file]);
    await until(() => hold.seen.length >= 1, 'the chunk');
    const records = hold.seen[0];
    expect(records.map((r) => r.status)).toEqual(['unknown', 'unknown']);
    child.kill('SIGKILL');
    await child;
    t.sb.setBeforeHandle(undefined);
    hold.release();
    await t.sb.settled();

    const again = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr.match(RESENT)?.[1]).toBe('2');
    const list = await t.api(`/accounts/user-invitations?email__icontains=${run}@held.example&status=pending&limit=100`);
    expect(list.results).toHaveLength(2);
  });

  it('rows Ctrl-C stopped in a retry backoff are not on record as sent: the rerun claims nothing of the kind', async () => {
    const file = t.writeFile('people.csv', ['email,auth_group', `c${run}@backoff.example,3`, `d${run}@backoff.example,3`].join('\n') + '\n');
    t.sb.setFaults({ failFirst: 100, methods: ['POST'] });
    const child = t.spawnSct(['invitations', 'bulk-create', '--file', file]);
    await until(() => t.sb.requests.some((r) => r.method === 'POST'), 'the first attempt');
    await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    t.sb.setFaults({});
    expect(onRecordAsSent()).toEqual([]);

    const again = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(RESENT);
  });

  it('an import whose POSTs all answer 503 until Ctrl-C: not on record as sent either', async () => {
    const product = await productId();
    const file = t.writeFile('orders.csv', ['external_id,type,order_created_at,seller_company_id,product,volume,unit', `K${run}-1,order,2025-05-01,101,${product},1,kg`].join('\n') + '\n');
    t.sb.setFaults({ failFirst: 100, methods: ['POST'] });
    const child = t.spawnSct(['orders', 'import', '--purchase', '--file', file]);
    await until(() => t.sb.requests.some((r) => r.method === 'POST'), 'the first attempt');
    await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
    t.sb.setFaults({});
    expect(onRecordAsSent()).toEqual([]);
    const again = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(RESENT);
  });
});
