// The promise of every bulk run (cli-spec "Bulk runs: nothing lost, nothing doubled, nothing
// misreported"), each gap found once shown here: a journal that belongs to the user and the
// workspace, one run per file at a time, interrupts and waits that never make a row
// "rejected", the rerun hint of a --fresh run, and a report that never writes through a link.
import { beforeEach, describe, expect, it } from 'vitest';
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { execFileSync } from 'node:child_process';
import { holdPath, until, useSandbox } from '../helpers/sandbox.js';
import { utils, write } from '@e965/xlsx';
import { hasScript, runAtTerminal } from '../helpers/terminal.js';
import { BIN } from '../helpers/sct.js';
import { MULTI, OWNER, TRADER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });
let run = 0;
beforeEach(() => {
  run++;
});

const domain = () => `trust${run}.example`;
const posts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/accounts/user-invitations/bulk-create');

function people(n: number, name = 'people.csv'): string {
  const lines = ['email,auth_group'];
  for (let i = 0; i < n; i++) lines.push(`p${i}@${domain()},3`);
  return t.writeFile(name, lines.join('\n') + '\n');
}

/** Pending invitations of this test's domain, as the given user sees them (in their workspace). */
async function invited(token = OWNER): Promise<string[]> {
  const list = await t.api(`/accounts/user-invitations?email__icontains=${domain()}&status=pending&limit=1000`, token);
  return list.results.map((i: { email: string }) => i.email);
}

async function productId(): Promise<number> {
  return (await t.api('/products?limit=1')).results[0].id;
}

function ordersCsv(n: number, product: number): string {
  const lines = ['external_id,type,order_created_at,seller_company_id,product,volume,unit'];
  for (let i = 1; i <= n; i++) lines.push(`T${run}-${i},order,2025-05-01,101,${product},${i},kg`);
  return t.writeFile('orders.csv', lines.join('\n') + '\n');
}

async function ordersOf(n: number): Promise<Record<string, number>> {
  const ids = Array.from({ length: n }, (_, i) => `T${run}-${i + 1}`);
  const list = { results: await t.ordersWith(ids) };
  const counts: Record<string, number> = Object.fromEntries(ids.map((i) => [i, 0]));
  for (const o of list.results) counts[o.external_id]++;
  return counts;
}

describe('a journal belongs to the user and the workspace', () => {
  it('the same file run by another user is their own run: nothing of it is skipped', async () => {
    const file = people(2);
    const first = await t.sctAs(OWNER)(['invitations', 'bulk-create', '--file', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain('invitations: 2 created, 0 rejected');

    const other = await t.sctAs(TRADER)(['invitations', 'bulk-create', '--file', file]);
    expect(other.exitCode, other.stderr).toBe(0);
    expect(other.stderr).toContain('invitations: 2 created, 0 rejected');
    expect(other.stderr).not.toContain('skipped');
    expect((await invited(TRADER)).sort()).toEqual([`p0@${domain()}`, `p1@${domain()}`]);
    expect(await invited(OWNER)).toHaveLength(2);
  });

  it('after a workspace switch the same file starts from nothing; back in the first, it is done', async () => {
    const sct = t.sctAs(MULTI);
    const file = people(2);
    try {
      expect((await sct(['workspaces', 'switch', '3'])).exitCode).toBe(0);
      const inThree = await sct(['invitations', 'bulk-create', '--file', file]);
      expect(inThree.stderr).toContain('invitations: 2 created, 0 rejected');

      expect((await sct(['workspaces', 'switch', '1'])).exitCode).toBe(0);
      const inOne = await sct(['invitations', 'bulk-create', '--file', file]);
      expect(inOne.exitCode, inOne.stderr).toBe(0);
      expect(inOne.stderr).toContain('invitations: 2 created, 0 rejected');
      expect(await invited(MULTI)).toHaveLength(2);

      expect((await sct(['workspaces', 'switch', '3'])).exitCode).toBe(0);
      const again = await sct(['invitations', 'bulk-create', '--file', file]);
      expect(again.stderr).toContain('invitations: 0 created, 2 skipped (done in an earlier run), 0 rejected');
    } finally {
      await sct(['workspaces', 'switch', '1']);
    }
  });
});

describe('one file under several names is one run', () => {
  it('rows piped in (--file -) from another directory rerun the earlier run: nothing created twice', async () => {
    const rows = `name,country_code,external_id,latitude,longitude\nS1,CI,${domain()}-ST-1,6.1,-5.1\n`;
    const [one, two] = [join(t.dir, 'one'), join(t.dir, 'two')];
    mkdirSync(one);
    mkdirSync(two);
    writeFileSync(join(two, '-'), 'not the input\n');
    const first = await t.sctBin(['origins', 'import', '--file', '-'], { input: rows, cwd: one });
    expect(first.exitCode, first.stderr).toBe(0);
    const again = await t.sctBin(['origins', 'import', '--file', '-'], { input: rows, cwd: two });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/origins')).toHaveLength(1);
  });

  it('a symlink to the file and a hard link of it rerun the file: every row skipped, nothing sent again', async () => {
    const file = people(3);
    const first = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(first.stderr).toContain('invitations: 3 created, 0 rejected');
    const latest = join(t.dir, 'latest.csv');
    symlinkSync(file, latest);
    const hard = join(t.dir, 'hard.csv');
    linkSync(file, hard);
    const before = posts().length;
    for (const name of [latest, hard]) {
      const again = await t.sct(['invitations', 'bulk-create', '--file', name]);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stderr).toContain('invitations: 0 created, 3 skipped (done in an earlier run), 0 rejected');
    }
    expect(posts().length).toBe(before);
    expect((await invited()).sort()).toEqual([0, 1, 2].map((i) => `p${i}@${domain()}`));
  });

  it('a run through a symlink to a hard link of the file, while the file runs, is locked out; the hard link then reruns it', async () => {
    const file = ordersCsv(6, await productId());
    const hard = join(t.dir, `orders-hard-${run}.csv`);
    linkSync(file, hard);
    const link = join(t.dir, `orders-link-${run}.csv`);
    symlinkSync(hard, link);
    t.sb.setFaults({ latencyMs: 300 });
    const first = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '1']);
    await until(() => t.sb.requests.some((r) => r.method === 'POST'), 'the first run to send');
    const second = await t.sct(['orders', 'import', '--purchase', '--file', link]);
    expect(second.exitCode, second.stderr).toBe(1);
    expect(second.stderr).toContain('another run of this file is in progress');
    expect((await first).exitCode).toBe(0);
    t.sb.setFaults({});
    const third = await t.sct(['orders', 'import', '--purchase', '--file', hard]);
    expect(third.stderr).toContain('6 skipped (done in an earlier run)');
    expect(Object.values(await ordersOf(6))).toEqual(Array(6).fill(1));
  });
});

describe('one run per journal', () => {
  it("a lock left by a run on another host (journals a CI cache brought back into a new container) names the host and how to go on; removed as told, the rerun goes", async () => {
    const file = ordersCsv(3, await productId());
    t.sb.setFaults({ latencyMs: 3000 });
    const first = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '1']);
    const journals = join(t.dir, 'journals');
    const lockOf = () => (existsSync(journals) ? readdirSync(journals).find((f) => f.endsWith('.lock')) : undefined);
    await until(() => lockOf() !== undefined, 'the lock');
    first.kill('SIGKILL');
    await first;
    t.sb.setFaults({});
    const lock = join(journals, lockOf()!);
    const holder = JSON.parse(readFileSync(lock, 'utf8'));
    writeFileSync(lock, JSON.stringify({ ...holder, host: 'ci-runner-old' }));
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/error: another run of this file is in progress \(on host ci-runner-old, process \d+, since \S+\): nothing was sent/);
    expect(r.stderr).toContain(`if it is gone (a container that ended), remove ${lock} and rerun`);
    rmSync(lock);
    const rerun = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
  });

  it('a second and third run of the same file while the first is going exit 1 at once and send nothing', async () => {
    // Long enough (20 × 300 ms, one at a time) that the others start while it runs, even on a busy machine.
    const file = ordersCsv(20, await productId());
    t.sb.setFaults({ latencyMs: 300 });
    const first = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '1']);
    await until(() => t.sb.requests.some((r) => r.method === 'POST'), 'the first run to send');
    const before = t.sb.requests.length;
    const [second, third] = await Promise.all([
      t.sct(['orders', 'import', '--purchase', '--file', file]),
      t.sct(['orders', 'import', '--purchase', '--file', file, '--fresh']),
    ]);
    for (const r of [second, third]) {
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/error: another run of this file is in progress \(process \d+, since \S+\): nothing was sent/);
    }
    const firstRun = await first;
    expect(firstRun.exitCode, String(firstRun.stderr)).toBe(0);
    // Only the first run's own requests reached the service.
    expect(t.sb.requests.length - before).toBeLessThanOrEqual(20);
    t.sb.setFaults({});
    expect(Object.values(await ordersOf(20))).toEqual(Array(20).fill(1));
  });

  it('three identical runs started at once: one does the work, none reports a row rejected, each order exists once', async () => {
    const file = ordersCsv(3, await productId());
    t.sb.setFaults({ latencyMs: 100 });
    // Three processes: runs within one process are not what the lock is between.
    const runs = await Promise.all([0, 1, 2].map(() => t.sctBin(['orders', 'import', '--purchase', '--file', file, '-o', 'json'])));
    t.sb.setFaults({});
    for (const r of runs) {
      expect([0, 1], r.stderr).toContain(r.exitCode);
      expect(r.stderr).not.toMatch(/[1-9]\d* rejected/);
      if (r.exitCode === 1) expect(r.stderr).toContain('another run of this file is in progress');
    }
    expect(runs.filter((r) => r.exitCode === 0).length).toBeGreaterThanOrEqual(1);
    expect(Object.values(await ordersOf(3))).toEqual([1, 1, 1]);
  });

  it('the lock of a run killed with -9 is taken over by the next run', async () => {
    const file = ordersCsv(4, await productId());
    t.sb.setFaults({ latencyMs: 300 });
    const child = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--concurrency', '1']);
    await until(() => t.sb.requests.some((r) => r.method === 'POST'), 'the run to send');
    child.kill('SIGKILL');
    await child;
    t.sb.setFaults({});
    const again = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/purchase orders: \d created, \d skipped \(done in an earlier run\), 0 rejected|purchase orders: 4 created, 0 rejected/);
    expect(Object.values(await ordersOf(4))).toEqual([1, 1, 1, 1]);
  });
});

describe('interrupts and waits never make a row rejected', () => {
  it('Ctrl-C during a retry backoff leaves the row not_sent (exit 130), never "failed: This operation was aborted"', async () => {
    const file = people(3);
    t.sb.setFaults({ failFirst: 100, methods: ['POST'] });
    const child = t.spawnSct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
    await until(() => posts().length >= 1, 'the first attempt');
    await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGINT');
    const r = await child;
    t.sb.setFaults({});
    expect(r.exitCode, String(r.stderr)).toBe(130);
    const rows = JSON.parse(String(r.stdout)) as Array<{ status: string; error: string | null }>;
    expect(rows.map((x) => x.status)).toEqual(['not_sent', 'not_sent', 'not_sent']);
    expect(String(r.stderr)).not.toMatch(/aborted|rejected:/);
    expect(String(r.stderr)).toContain('invitations: 0 created, 0 rejected, 3 not sent');

    const again = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await invited()).toHaveLength(3);
  });

  it('Ctrl-C while the run asks who the token is (GET /accounts/me, unanswered) stops at once, nothing sent', async () => {
    const file = people(3);
    const hold = holdPath(t.sb, '/accounts/me');
    try {
      const child = t.spawnSct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
      await until(hold.asked, 'GET /accounts/me');
      child.kill('SIGINT');
      // Before the answer comes: the test fails on its own time limit if the run waits for it.
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(130);
      expect(String(r.stderr)).toContain('interrupted');
      expect(posts()).toHaveLength(0);
    } finally {
      hold.release();
    }
  });

  it('SIGTERM while the run asks who the token is: the report, the summary and the rerun hint, every row not sent (chunks and imports)', async () => {
    const file = people(3);
    const report = join(t.dir, 'early.csv');
    const product = await productId();
    const orders = t.writeFile('early-orders.csv', `external_id,type,order_created_at,seller_company_id,product,volume,unit\nEARLY-1,order,2025-04-01,2,${product},10,kg\nEARLY-2,order,2025-04-01,2,${product},20,kg\n`);
    for (const [args, rows] of [
      [['invitations', 'bulk-create', '--file', file, '--report', report, '--force'], 3],
      [['orders', 'import', '--purchase', '--file', orders, '--report', report, '--force'], 2],
    ] as const) {
      const hold = holdPath(t.sb, '/accounts/me');
      try {
        const child = t.spawnSct([...args]);
        await until(hold.asked, 'GET /accounts/me');
        child.kill('SIGTERM');
        const r = await child;
        const stderr = String(r.stderr);
        expect(r.exitCode, stderr).toBe(143);
        expect(stderr).toMatch(new RegExp(`stopped by SIGTERM: ${rows} \\w[\\w ]* not sent`));
        expect(stderr).toContain('rerun');
        const lines = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
        expect(lines.map((l) => l.status)).toEqual(Array(rows).fill('not_sent'));
        expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
      } finally {
        hold.release();
      }
    }
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} with -o json: the error object on stderr says exit ${code}, as the process does`, async () => {
      const file = people(3);
      t.sb.setFaults({ latencyMs: 3000, methods: ['POST'] });
      try {
        const child = t.spawnSct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
        await until(() => t.sb.requests.some((q) => q.path === '/api/accounts/me'), 'GET /accounts/me');
        await new Promise((r) => setTimeout(r, 300));
        child.kill(signal);
        const r = await child;
        expect(r.exitCode, String(r.stderr)).toBe(code);
        const last = JSON.parse(String(r.stderr).trim().split('\n').at(-1)!);
        expect(last).toMatchObject({ exit_code: code });
        expect(last.error).toMatch(new RegExp(`stopped by ${signal}`));
      } finally {
        t.sb.setFaults({});
      }
    });
  }

  it('Ctrl-C during a rate-limit wait leaves the rows not_sent too', async () => {
    const file = people(2);
    t.sb.setFaults({ rateLimitBurst: 1, rateLimitResetSeconds: 30, methods: ['POST'] });
    const child = t.spawnSct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
    await until(() => posts().length >= 1, 'the throttled request');
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    const r = await child;
    t.sb.setFaults({});
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect((JSON.parse(String(r.stdout)) as Array<{ status: string }>).map((x) => x.status)).toEqual(['not_sent', 'not_sent']);
    expect(String(r.stderr)).not.toMatch(/aborted|rejected:/);
  });

  it('a burst of 429s whose reset is already past is waited out (Retry-After), never reported as rejected rows', async () => {
    const file = people(250);
    t.sb.setFaults({ rateLimitBurst: 3, rateLimitResetSeconds: -60, rateLimitRetryAfterSeconds: 1, methods: ['POST'] });
    const r = await t.sct(['invitations', 'bulk-create', '--file', file]);
    t.sb.setFaults({});
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('invitations: 250 created, 0 rejected');
    expect(posts()).toHaveLength(6);
    expect(await invited()).toHaveLength(250);
  });
});

describe('a run stopped while its requests await their answers', () => {
  it('says nothing of waiting when its request waits for the rate limit to let it go again: it ends at once', async () => {
    const file = people(2);
    t.sb.setFaults({ rateLimitBurst: 1, rateLimitResetSeconds: 20, rateLimitRetryAfterSeconds: 20, methods: ['POST'] });
    try {
      const child = t.spawnSct(['invitations', 'bulk-create', '--file', file, '--concurrency', '1']);
      await until(() => posts().length >= 1, 'the 429');
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGTERM');
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(143);
      expect(String(r.stderr)).not.toContain('stopping: waiting');
    } finally {
      t.sb.setFaults({});
    }
  });

  it('says it waits for them, in a log as at a terminal, then ends as stopped', async () => {
    const file = people(400);
    const hold = holdPath(t.sb, '/accounts/user-invitations/bulk-create');
    const child = t.spawnSct(['invitations', 'bulk-create', '--file', file, '--concurrency', '4']);
    await until(() => hold.asked(), 'a request held');
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    hold.release();
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(143);
    expect(String(r.stderr)).toMatch(/stopping: waiting up to 3s for the answers? to [1-4] requests? already sent, so the journal knows what became of them; a second signal stops at once/);
  });
});

describe.skipIf(!hasScript)('a run stopped at a terminal that reports 0 columns (script, some CI ptys)', () => {
  it('says it waits for the answers, as no spinner is drawn there to say it', async () => {
    const file = people(400);
    const hold = holdPath(t.sb, '/accounts/user-invitations/bulk-create');
    const stop = async () => {
      await until(() => hold.asked(), 'a request held');
      await new Promise((r) => setTimeout(r, 200));
      execFileSync('pkill', ['-TERM', '-f', `${BIN} invitations bulk-create --file ${file}`]);
      await new Promise((r) => setTimeout(r, 500));
      hold.release();
    };
    const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['invitations', 'bulk-create', '--file', file, '--concurrency', '4'], [{ when: '', before: stop, type: '' }], { SCT_TOKEN: OWNER });
    expect(r.exitCode, r.screen).toBe(143);
    expect(r.screen).toMatch(/stopping: waiting up to 3s for the answers? to [1-4] requests? already sent/);
  });
});

describe('a dry run stopped part-way', () => {
  // Into a file the writes are synchronous and never let the signal's handler run on their own.
  for (const [what, args] of [
    ['orders import', ['orders', 'import', '--purchase', '--dry-run']],
    ['orders sync', ['orders', 'sync', '--purchase', '--dry-run', '-o', 'ndjson']],
  ] as const) {
    it(`${what}: Ctrl-C ends it at once, exit 130, into a pipe or a file, its output not all written`, async () => {
      const n = 100_000;
      const file = ordersCsv(n, await productId());
      for (const into of ['pipe', 'file'] as const) {
        const out = join(t.dir, `dry-${run}-${into}.txt`);
        const before = t.sb.requests.length;
        const child = t.spawnSct([...args, '--file', file], into === 'file' ? { stdoutFile: out } : {});
        let piped = '';
        if (into === 'pipe') child.stdout!.on('data', (c: Buffer) => (piped += c.toString()));
        const written = () => (into === 'pipe' ? piped.length : existsSync(out) ? lstatSync(out).size : 0);
        await until(() => written() > 0, 'the first of the dry run written');
        child.kill('SIGINT');
        const r = await child;
        expect(r.exitCode, `${into}: ${String(r.stderr)}`).toBe(130);
        const text = into === 'pipe' ? piped : readFileSync(out, 'utf8');
        expect(text.split('\n').filter((l) => /^POST |"action":"create"/.test(l)).length, into).toBeLessThan(n);
        expect(t.sb.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
      }
    });
  }
});

describe('a file stopped part-way through its reading (seconds of synchronous work for a large one)', () => {
  it('orders sync -o json: Ctrl-C while the rows are read ends it at once, exit 130: the service never read, no plan written', async () => {
    const file = ordersCsv(200_000, await productId());
    const before = t.sb.requests.length;
    const child = t.spawnSct(['orders', 'sync', '--purchase', '--dry-run', '-o', 'json', '--file', file]);
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    // Node's start and the file's first rows: the service is read only once all are.
    await new Promise((resolve) => setTimeout(resolve, 700));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(t.sb.requests.slice(before).filter((q) => q.path.startsWith('/api/orders'))).toEqual([]);
    expect(out).toBe('');
  });

  it('orders import of a workbook (read in one synchronous stretch): Ctrl-C while it is read ends it with nothing sent', async () => {
    const product = await productId();
    const rows = [['external_id', 'type', 'order_created_at', 'seller_company_id', 'product', 'volume', 'unit', 'line_number'], ...Array.from({ length: 150_000 }, (_, i) => [`WB-STOP-${run}-${Math.floor(i / 3)}`, 'order', '2025-03-01', 101, product, 1, 'kg', (i % 3) + 1])];
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Orders');
    const file = join(t.dir, `stop-${run}.xlsx`);
    writeFileSync(file, write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const before = t.sb.requests.length;
    const child = t.spawnSct(['orders', 'import', '--purchase', '--file', file]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(t.sb.requests.slice(before).filter((q) => q.method === 'POST')).toEqual([]);
  });
});

describe('a rate-limit wait of requests in flight', () => {
  it('four requests answered 429 at once (no Retry-After) say the wait once, not once each', async () => {
    const file = people(400);
    t.sb.setFaults({ rateLimitBurst: 4, rateLimitResetSeconds: 1, rateLimitRetryAfterSeconds: -1, methods: ['POST'] });
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--concurrency', '4']);
    t.sb.setFaults({});
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('invitations: 400 created, 0 rejected');
    expect(r.stderr.match(/rate limit reached/g) ?? []).toHaveLength(1);
  });
});

describe('--fresh', () => {
  it('after Ctrl-C in a --fresh run, the hint continues that run (without --fresh), and the rerun rejects nothing', async () => {
    const file = ordersCsv(8, await productId());
    const first = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    const deleted = { results: await t.ordersWith([`T${run}-1`]) };
    // The service loses everything: a fresh run is how a user sends it all again.
    for (const o of await t.ordersWith(Array.from({ length: 8 }, (_, i) => `T${run}-${i + 1}`))) {
      await fetch(`${t.sb.url}/orders/${o.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${OWNER}` } });
    }
    expect(deleted.results).toHaveLength(1);

    t.sb.setFaults({ latencyMs: 250 });
    t.sb.requests.length = 0;
    const child = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--fresh', '--concurrency', '1']);
    await until(() => t.sb.requests.filter((r) => r.method === 'POST').length >= 2, 'two orders to be sent');
    child.kill('SIGINT');
    const r = await child;
    t.sb.setFaults({});
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr)).toContain(`to continue this run, rerun it without --fresh: sct orders import --purchase --file ${file} --concurrency 1 (`);

    const rest = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(rest.exitCode, rest.stderr).toBe(0);
    expect(rest.stderr).toMatch(/purchase orders: \d created, \d skipped \(done in an earlier run\), 0 rejected/);
    expect(Object.values(await ordersOf(8))).toEqual(Array(8).fill(1));
    const later = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(later.exitCode, later.stderr).toBe(0);
  });
});

describe('stopped before the first row was sent', () => {
  it('a --fresh run stopped while it asks who the token is: the hint keeps --fresh (nothing fresh began), and that rerun sends every row', async () => {
    const file = ordersCsv(3, await productId());
    const first = await t.sct(['orders', 'import', '--purchase', '--file', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    // The service lost them: a fresh run is how they are sent again.
    for (const o of await t.ordersWith([`T${run}-1`, `T${run}-2`, `T${run}-3`])) {
      await fetch(`${t.sb.url}/orders/${o.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${OWNER}` } });
    }
    expect(Object.values(await ordersOf(3))).toEqual([0, 0, 0]);
    const hold = holdPath(t.sb, '/accounts/me');
    let stderr: string;
    try {
      const child = t.spawnSct(['orders', 'import', '--purchase', '--file', file, '--fresh']);
      await until(hold.asked, 'GET /accounts/me');
      child.kill('SIGTERM');
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(143);
      stderr = String(r.stderr);
    } finally {
      hold.release();
    }
    expect(stderr).toContain(`to continue, rerun: sct orders import --purchase --file ${file} --fresh (`);
    expect(stderr).not.toContain('without --fresh');
    const again = await t.sct(['orders', 'import', '--purchase', '--file', file, '--fresh']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('purchase orders: 3 created, 0 rejected');
    expect(Object.values(await ordersOf(3))).toEqual([1, 1, 1]);
  });

  it('a run whose GET /accounts/me fails (503s, a rate limit past --max-wait) still writes its report and summary: every row not sent', async () => {
    const file = people(2);
    const report = join(t.dir, 'failed-early.csv');
    t.sb.setFaults({ failFirst: 10, methods: ['GET'] });
    try {
      const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--report', report]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('/accounts/me');
      expect(r.stderr).toContain('invitations: 0 created, 0 rejected, 2 not sent — report in');
      expect(r.stderr).toMatch(/to continue, rerun: sct invitations bulk-create --file \S+ --report \S+ --force/);
      const lines = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
      expect(lines.map((l) => l.status)).toEqual(['not_sent', 'not_sent']);
    } finally {
      t.sb.setFaults({});
    }
    expect(posts()).toHaveLength(0);
  });

  it('a sync whose file has an invalid row still ends as a bad file does: its report of that row, nothing on stdout, no rerun hint', async () => {
    const file = t.writeFile('origins-bad.csv', `name,country_code,external_id\n,CI,BAD-${run}\nGood ${run},CI,GOOD-${run}\n`);
    const report = join(t.dir, 'sync-bad.csv');
    const r = await t.sctBin(['origins', 'sync', '--file', file, '--yes', '--report', report]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/already exists|not sent|to continue, rerun/);
    const lines = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(lines.map((l) => l.status)).toEqual(['invalid']);
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
  });

  it('a refused token at GET /accounts/me: its own hint, no "rerun" (rerunning as is would not help), and no report', async () => {
    const file = people(2);
    const report = join(t.dir, 'refused.csv');
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', file, '--report', report], { env: { SCT_TOKEN: 'sct_not_a_real_token' } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).not.toContain('to continue, rerun');
    expect(() => lstatSync(report)).toThrow();
  });

  it('a second run of the same file refused by the lock writes no report (the first run owns it)', async () => {
    const file = people(2);
    const report = join(t.dir, 'locked.csv');
    const hold = holdPath(t.sb, '/accounts/me');
    try {
      const child = t.spawnSct(['invitations', 'bulk-create', '--file', file]);
      await until(hold.asked, 'GET /accounts/me');
      const second = await t.sct(['invitations', 'bulk-create', '--file', file, '--report', report]);
      expect(second.exitCode).toBe(1);
      expect(second.stderr).toContain('another run of this file is in progress');
      expect(second.stderr).not.toContain('not sent —');
      expect(() => lstatSync(report)).toThrow();
      child.kill('SIGINT');
      await child.catch(() => undefined);
    } finally {
      hold.release();
    }
  });
});

describe('report files', () => {
  it('never write through a symlink: one at the report path is replaced with --force, its target untouched', async () => {
    const victim = t.writeFile('victim.txt', 'precious\n');
    const report = join(t.dir, 'report.csv');
    symlinkSync(victim, report);
    const file = people(1);
    const refused = await t.sct(['invitations', 'bulk-create', '--file', file, '--report', report]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('already exists');
    expect(posts()).toHaveLength(0);

    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--report', report, '--force']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(report).isSymbolicLink()).toBe(false);
    expect(parse(readFileSync(report, 'utf8'), { columns: true })).toHaveLength(1);
  });

  it('a dangling symlink at the report path counts as an existing file', async () => {
    const report = join(t.dir, 'report.csv');
    symlinkSync(join(t.dir, 'nowhere.csv'), report);
    const r = await t.sct(['invitations', 'bulk-create', '--file', people(1), '--report', report]);
    expect(r.exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
  });
});
