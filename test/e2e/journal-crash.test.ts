// Crash consistency, as a property: whatever a crash or power cut does to the journal — cut at
// any byte, zero-filled from any byte, left empty, deleted — after a run sent all or part of a
// file, the reruns create every row exactly once on the service and report none `rejected`.
// The sandbox keeps every answer it gave for an Idempotency-Key, as the service does.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ rateLimit: 1_000_000 }, { inProcess: true });

type Damage = { kind: 'cut' | 'zeros' | 'empty' | 'delete'; at: number };

const damageArb: fc.Arbitrary<Damage> = fc.record({
  kind: fc.constantFrom('cut' as const, 'zeros' as const, 'empty' as const, 'delete' as const),
  // Where in the file, as a share of its length: any byte of what the run wrote.
  at: fc.double({ min: 0, max: 1, noNaN: true }),
});

const tally = { damages: 0, rows: 0, duplicates: 0, misreported: 0 };
afterAll(() => {
  console.info(`journal damage: ${tally.damages} damage points tried, ${tally.rows} rows checked, ${tally.duplicates} duplicates, ${tally.misreported} misreported`);
});

/** Each case starts with no journal, so the one there is its own. */
function forgetJournals(): void {
  rmSync(join(t.dir, 'journals'), { recursive: true, force: true });
}

function damage(d: Damage): void {
  const dir = join(t.dir, 'journals');
  const name = (existsSync(dir) ? readdirSync(dir) : []).find((f) => f.endsWith('.ndjson'));
  // A first run that sent nothing left no journal to damage.
  if (!name) return;
  const path = join(dir, name);
  const bytes = readFileSync(path);
  const at = Math.min(bytes.length, Math.floor(d.at * (bytes.length + 1)));
  if (d.kind === 'cut') truncateSync(path, at);
  else if (d.kind === 'zeros') writeFileSync(path, Buffer.concat([bytes.subarray(0, at), Buffer.alloc(bytes.length - at)]));
  else if (d.kind === 'empty') truncateSync(path, 0);
  else rmSync(path);
  tally.damages++;
}

/** A rerun: exit 0 and every row reported created or skipped, never rejected. */
async function rerun(args: string[], rows: number): Promise<void> {
  const r = await t.sct([...args, '-o', 'json']);
  const statuses = r.stdout ? (JSON.parse(r.stdout) as Array<{ status: string }>).map((x) => x.status) : [];
  const misreported = statuses.filter((s) => s !== 'created' && s !== 'skipped').length;
  tally.misreported += misreported;
  expect(r.exitCode, r.stderr).toBe(0);
  expect(misreported, r.stderr).toBe(0);
  expect(statuses).toHaveLength(rows);
}

/** Counts how often each expected key is on the service; every one must be there exactly once. */
function checkOnce(expected: string[], found: string[]): void {
  const counts = new Map(expected.map((k) => [k, 0]));
  for (const k of found) if (counts.has(k)) counts.set(k, counts.get(k)! + 1);
  tally.rows += expected.length;
  tally.duplicates += [...counts.values()].filter((n) => n > 1).length;
  expect([...counts.values()]).toEqual(expected.map(() => 1));
}

let iteration = 0;

describe('a journal damaged anywhere: every row once, none rejected', () => {
  it('origins import', async () => {
    const N = 6;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: N }), fc.array(damageArb, { minLength: 1, maxLength: 2 }), async (sentFirst, damages) => {
        forgetJournals();
        const prefix = `CRASH${++iteration}`;
        const ids = Array.from({ length: N }, (_, i) => `${prefix}-${i + 1}`);
        const lines = ids.map((id) => `Farm ${id},CI,${id}`);
        const file = join(t.dir, `origins-${iteration}.csv`);
        const args = ['origins', 'import', '--file', file];
        // The first run got through the first rows only (a crash after them), then the damage.
        writeFileSync(file, ['name,country_code,external_id', ...lines.slice(0, sentFirst)].join('\n') + '\n');
        if (sentFirst > 0) expect((await t.sct(args)).exitCode).toBe(0);
        writeFileSync(file, ['name,country_code,external_id', ...lines].join('\n') + '\n');
        for (const d of damages) {
          damage(d);
          await rerun(args, N);
        }
        const found = (await t.api(`/origins?external_id__in=${encodeURIComponent(ids.join(','))}&limit=1000`)).results as Array<{ external_id: string }>;
        checkOnce(ids, found.map((o) => o.external_id));
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('invitations bulk-create (two chunks of the file)', async () => {
    const N = 110;
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(damageArb, { minLength: 1, maxLength: 2 }), async (firstChunkOnly, damages) => {
        forgetJournals();
        const domain = `crash${++iteration}.example`;
        const emails = Array.from({ length: N }, (_, i) => `p${i}@${domain}`);
        const file = join(t.dir, `people-${iteration}.csv`);
        const args = ['invitations', 'bulk-create', '--role', '3', '--file', file];
        // A run stopped after its first request: the first 100 rows, as one chunk of the whole file.
        writeFileSync(file, ['email', ...emails.slice(0, firstChunkOnly ? 100 : N)].join('\n') + '\n');
        expect((await t.sct(args)).exitCode).toBe(0);
        writeFileSync(file, ['email', ...emails].join('\n') + '\n');
        for (const d of damages) {
          damage(d);
          await rerun(args, N);
        }
        const found = (await t.api(`/accounts/user-invitations?email__icontains=${domain}&status=pending&limit=1000`)).results as Array<{ email: string }>;
        checkOnce(emails, found.map((i) => i.email));
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('a journal cut after its first record: that request goes again whole under its key, replayed', async () => {
    forgetJournals();
    const domain = `firstline${++iteration}.example`;
    const emails = Array.from({ length: 110 }, (_, i) => `p${i}@${domain}`);
    const file = join(t.dir, `people-${iteration}.csv`);
    const args = ['invitations', 'bulk-create', '--role', '3', '--file', file];
    writeFileSync(file, ['email', ...emails].join('\n') + '\n');
    expect((await t.sct(args)).exitCode).toBe(0);
    const dir = join(t.dir, 'journals');
    const path = join(dir, readdirSync(dir).find((f) => f.endsWith('.ndjson'))!);
    const first = readFileSync(path, 'utf8').split('\n')[0]!;
    writeFileSync(path, `${first}\n`);
    await rerun(args, emails.length);
    const found = (await t.api(`/accounts/user-invitations?email__icontains=${domain}&status=pending&limit=1000`)).results as Array<{ email: string }>;
    checkOnce(emails, found.map((i) => i.email));
  });
});

