// A journal that a crash or power cut left torn, zero-filled or empty, or that was deleted: the
// rerun repairs it, sends the same Idempotency-Keys, and no row is created twice or reported
// rejected because of the damage ("Journal damage" in the spec).
import { beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, useSandbox } from '../helpers/sandbox.js';
import { ROOT } from '../helpers/sct.js';

const t = useSandbox({}, { inProcess: true });
let run = 0;
beforeEach(() => {
  run++;
});

const originPosts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/origins');
const invitationPosts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/accounts/user-invitations/bulk-create');

function originsCsv(n: number, prefix = `JD${run}`): string {
  const lines = ['name,country_code,external_id'];
  for (let i = 1; i <= n; i++) lines.push(`Farm ${prefix}-${i},CI,${prefix}-${i}`);
  return t.writeFile('origins.csv', lines.join('\n') + '\n');
}

/** How many origins the service holds for each external id of this test. */
async function originCounts(n: number, prefix = `JD${run}`): Promise<number[]> {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
  const found = (await t.api(`/origins?external_id__in=${encodeURIComponent(ids.join(','))}&limit=1000`)).results as Array<{ external_id: string }>;
  return ids.map((id) => found.filter((o) => o.external_id === id).length);
}

const domain = () => `journal${run}.example`;
function peopleCsv(n: number): string {
  const lines = ['email,auth_group'];
  for (let i = 0; i < n; i++) lines.push(`p${i}@${domain()},3`);
  return t.writeFile('people.csv', lines.join('\n') + '\n');
}
async function pendingInvitations(): Promise<string[]> {
  const list = (await t.api(`/accounts/user-invitations?email__icontains=${domain()}&status=pending&limit=1000`)).results as Array<{ email: string }>;
  return list.map((i) => i.email).sort();
}

/** The one journal of the test's config dir. */
function journalPath(): string {
  const dir = join(t.dir, 'journals');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ndjson'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]);
}

/** Cuts the journal `bytes` before its end, as a power cut in the middle of the last write does. */
function tear(bytes: number): void {
  const path = journalPath();
  const size = readFileSync(path).length;
  truncateSync(path, size - bytes);
}

describe('a damaged journal', () => {
  it('left empty: the rerun sends the same keys and creates no origin twice', async () => {
    const file = originsCsv(10);
    const first = await t.sct(['origins', 'import', '--file', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    const keys = originPosts().map((p) => p.headers['idempotency-key']).sort();

    truncateSync(journalPath(), 0);
    t.sb.requests.length = 0;
    const again = await t.sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(originPosts().map((p) => p.headers['idempotency-key']).sort()).toEqual(keys);
    expect(await originCounts(10)).toEqual(Array(10).fill(1));
    // The rows it reports are the origins the first run created: the service replayed its answers.
    const ids = (JSON.parse(again.stdout) as Array<{ id: number }>).map((r) => r.id);
    const onService = (await t.api(`/origins?external_id__in=${encodeURIComponent(Array.from({ length: 10 }, (_, i) => `JD${run}-${i + 1}`).join(','))}&limit=1000`)).results.map((o: { id: number }) => o.id);
    expect(ids.sort()).toEqual(onService.sort());
  });

  it('torn mid-line or with a zero-filled tail: repaired, never glued to; a third run sends nothing', async () => {
    const file = originsCsv(10);
    expect((await t.sct(['origins', 'import', '--file', file])).exitCode).toBe(0);

    tear(7);
    const second = await t.sct(['origins', 'import', '--file', file]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/warning: the journal .* was damaged by a crash, a power cut or a full disk .*repaired/);
    expect(readFileSync(journalPath(), 'utf8').endsWith('\n')).toBe(true);

    // A tail of zeros, as a file system leaves after a power cut, then a third run.
    const path = journalPath();
    const text = readFileSync(path);
    writeFileSync(path, Buffer.concat([text.subarray(0, text.length - 30), Buffer.alloc(30)]));
    const third = await t.sct(['origins', 'import', '--file', file]);
    expect(third.exitCode, third.stderr).toBe(0);
    expect(third.stderr).not.toMatch(/[1-9]\d* rejected/);

    t.sb.requests.length = 0;
    const fourth = await t.sct(['origins', 'import', '--file', file]);
    expect(fourth.exitCode, fourth.stderr).toBe(0);
    expect(originPosts()).toHaveLength(0);
    expect(fourth.stderr).toContain('0 created, 10 skipped');
    expect(await originCounts(10)).toEqual(Array(10).fill(1));
  });

  it('deleted: the rerun creates nothing twice (origins import, invitations bulk-create)', async () => {
    const file = originsCsv(4);
    expect((await t.sct(['origins', 'import', '--file', file])).exitCode).toBe(0);
    rmSync(join(t.dir, 'journals'), { recursive: true });
    const again = await t.sct(['origins', 'import', '--file', file]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await originCounts(4)).toEqual([1, 1, 1, 1]);

    const people = peopleCsv(10);
    expect((await t.sct(['invitations', 'bulk-create', '--file', people])).exitCode).toBe(0);
    rmSync(join(t.dir, 'journals'), { recursive: true });
    const invited = await t.sct(['invitations', 'bulk-create', '--file', people]);
    expect(invited.exitCode, invited.stderr).toBe(0);
    expect(invited.stderr).toContain('10 created, 0 rejected');
    expect(await pendingInvitations()).toHaveLength(10);
  });

  it('invitations bulk-create torn inside a chunk: the chunk is resent whole under its key, no row rejected', async () => {
    const file = peopleCsv(10);
    const first = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    const key = invitationPosts()[0].headers['idempotency-key'];

    // Keep the records of the chunk as sent and the first 4 rows' answers: a rerun that repacked
    // the 6 others would see them refused as already invited.
    const path = journalPath();
    const lines = readFileSync(path, 'utf8').split('\n');
    const answers = lines.findIndex((l) => l.includes('"status":"done"'));
    writeFileSync(path, lines.slice(0, answers + 4).join('\n') + '\n' + lines[answers + 4].slice(0, 12));
    t.sb.requests.length = 0;
    const again = await t.sct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(invitationPosts()).toHaveLength(1);
    expect(invitationPosts()[0].headers['idempotency-key']).toBe(key);
    expect(JSON.parse(invitationPosts()[0].body).operations).toHaveLength(10);
    const rows = JSON.parse(again.stdout) as Array<{ status: string }>;
    expect(rows.map((r) => r.status)).toEqual([...Array(4).fill('skipped'), ...Array(6).fill('created')]);
    expect(await pendingInvitations()).toHaveLength(10);
  });

  it('after --fresh, the fresh run keeps its own keys across the loss of its journal', async () => {
    const file = originsCsv(3);
    expect((await t.sct(['origins', 'import', '--file', file])).exitCode).toBe(0);
    t.sb.requests.length = 0;
    const fresh = await t.sct(['origins', 'import', '--file', file, '--fresh']);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    expect(await originCounts(3)).toEqual([2, 2, 2]);
    const freshKeys = originPosts().map((p) => p.headers['idempotency-key']).sort();

    truncateSync(journalPath(), 0);
    t.sb.requests.length = 0;
    const rerun = await t.sct(['origins', 'import', '--file', file]);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(originPosts().map((p) => p.headers['idempotency-key']).sort()).toEqual(freshKeys);
    expect(await originCounts(3)).toEqual([2, 2, 2]);
  });
});

/** The built-in files of each bulk command: what a run of it sends, for the test's own run. */
const BULK: Array<[name: string, args: () => Promise<string[]>]> = [
  ['orders import', async () => {
    const product = (await t.api('/products?limit=1')).results[0].id;
    const lines = ['external_id,type,order_created_at,seller_company_id,product,volume,unit'];
    for (let i = 1; i <= 3; i++) lines.push(`JO${run}-${i},order,2025-05-01,101,${product},${i},kg`);
    return ['orders', 'import', '--purchase', '--file', t.writeFile('orders.csv', lines.join('\n') + '\n')];
  }],
  ['origins import (CSV)', async () => ['origins', 'import', '--file', originsCsv(3)]],
  ['origins import (GeoJSON)', async () => {
    // A copy per test: the journal belongs to the file's path.
    const file = join(t.dir, 'plots.geojson');
    copyFileSync(join(ROOT, 'test/fixtures/geo/valid.geojson'), file);
    return ['origins', 'import', '--file', file];
  }],
  ['invitations bulk-create', async () => ['invitations', 'bulk-create', '--file', peopleCsv(5)]],
  ['dds trace --file', async () => {
    const bought = (await t.api('/orders?order_action=buying&limit=3&ordering=id')).results.map((o: { id: number }) => o.id);
    return ['dds', 'trace', '--file', t.writeFile('pairs.csv', `dds_id,order_id\n1,${bought[0]}\n9,${bought[1]}\n1,${bought[2]}\n`)];
  }],
  ['info-requests send', async () => {
    const bought = (await t.api('/orders?order_action=buying&limit=3&ordering=id')).results.map((o: { id: number }) => o.id);
    return ['info-requests', 'send', '--file', t.writeFile('requests.csv', `order_id\n${bought.join('\n')}\n`)];
  }],
  ['orders sync --yes', async () => {
    const product = (await t.api('/products?limit=1')).results[0].id;
    const lines = ['external_id,type,order_created_at,seller_company_id,product,volume,unit,line_number'];
    for (let i = 1; i <= 2; i++) lines.push(`JS${run}-${i},order,2025-05-01,101,${product},${i},kg,1`);
    return ['orders', 'sync', '--purchase', '--yes', '--file', t.writeFile('sync.csv', lines.join('\n') + '\n')];
  }],
];

/** A bulk run's rows from its -o json: an array, or a sync's plan object holding them as `results`. */
const rowsOf = <T>(stdout: string): T[] => {
  const doc = JSON.parse(stdout) as T[] | { results: T[] };
  return Array.isArray(doc) ? doc : doc.results;
};

describe('every bulk command, its journal deleted after a run', () => {
  it.each(BULK)('%s: the rerun sends only keys the first run sent, and reports the same ids', async (_name, argsOf) => {
    const args = [...(await argsOf()), '-o', 'json'];
    const writes = () => t.sb.requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');
    const first = await t.sct(args);
    expect(first.exitCode, first.stderr).toBe(0);
    const keys = new Set(writes().map((p) => p.headers['idempotency-key']));
    expect(keys.size).toBeGreaterThan(0);
    const ids = rowsOf<{ id: unknown }>(first.stdout).map((r) => r.id);

    rmSync(journalPath());
    t.sb.requests.length = 0;
    const again = await t.sct(args);
    expect(again.exitCode, again.stderr).toBe(0);
    for (const w of writes()) expect(keys).toContain(w.headers['idempotency-key']);
    const rows = rowsOf<{ id: unknown; status: string }>(again.stdout);
    // A sync plans from the service, which already holds what the first run created: nothing to do.
    if (args[1] !== 'sync') {
      expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'created'));
      expect(rows.map((r) => r.id)).toEqual(ids);
    } else {
      expect(rows).toEqual([]);
    }
  });
});

describe('a stale lock', () => {
  it('whose pid now belongs to another process (a reboot, a container restart) is taken over', async () => {
    const file = originsCsv(3);
    t.sb.setFaults({ latencyMs: 300 });
    const killed = t.spawnSct(['origins', 'import', '--file', file, '--concurrency', '1']);
    await until(() => t.sb.requests.some((r) => r.method === 'POST'), 'the run to send');
    killed.kill('SIGKILL');
    await killed.catch(() => undefined);
    t.sb.setFaults({});

    // The lock as that run left it, its pid now another live process's, as pids are handed out
    // again after a reboot or in a restarted container.
    const dir = join(t.dir, 'journals');
    const lock = join(dir, readdirSync(dir).find((f) => f.endsWith('.lock'))!);
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const held = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number };
      writeFileSync(lock, JSON.stringify({ ...held, pid: other.pid }));
      const again = await t.sct(['origins', 'import', '--file', file]);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(await originCounts(3)).toEqual([1, 1, 1]);
    } finally {
      other.kill('SIGKILL');
    }
  });
});
