// The fault suite: bulk runs of the built sct against a sandbox that answers 503s, loses
// connections (before and after acting on a request) and throws bursts of 429s whose reset is
// already past, while the runs are killed with -9 or interrupted with Ctrl-C at chosen points
// and rerun until one finishes. Afterwards every row exists exactly once, and no run ever
// reported a row rejected: a fault is never the service's verdict on a row.
//
// Seeded (the kill points, signals and faults come from SEEDS) and bounded (a few runs per
// scenario, each with the test's timeout), so a failure replays the same way.
import { describe, expect, it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { until, useSandbox } from '../helpers/sandbox.js';
import type { FaultOptions } from '../../src/sandbox/server.js';
import { rng } from '../helpers/random.js';

const t = useSandbox({ seed: 8 });
const SEEDS = [11, 29, 47, 83];
const MAX_RUNS = 7;

interface RunLog {
  signal: 'SIGKILL' | 'SIGINT' | null;
  afterPosts: number;
  exitCode: number | undefined;
  rejected: number;
}

/**
 * Runs `args` until a run exits 0: the first runs are stopped by a signal after a chosen number
 * of POSTs, each run meets a different mix of faults. Returns what happened, for the message.
 */
async function runUntilDone(args: string[], postPath: string, seed: number, maxPosts: number): Promise<RunLog[]> {
  const random = rng(seed);
  const logs: RunLog[] = [];
  for (let i = 0; i < MAX_RUNS; i++) {
    const faults: FaultOptions = {
      failureRate: 0.12,
      dropRate: 0.12,
      dropAfterProcessing: random() < 0.6,
      rateLimitBurst: random() < 0.5 ? 2 : 0,
      rateLimitResetSeconds: -30,
      rateLimitRetryAfterSeconds: 1,
      methods: ['POST'],
    };
    t.sb.setFaults(faults);
    const posts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === postPath).length;
    const start = posts();
    // The first runs are stopped, the later ones are left to finish (faults still on).
    const signal = i < 3 ? (random() < 0.5 ? 'SIGKILL' : 'SIGINT') : null;
    const afterPosts = 1 + Math.floor(random() * maxPosts);
    const child = t.spawnSct(args, { timeout: 40_000 });
    if (signal) {
      await until(() => posts() - start >= afterPosts || child.exitCode !== null, 'the kill point', 30_000).catch(() => undefined);
      await new Promise((r) => setTimeout(r, Math.floor(random() * 150)));
      child.kill(signal);
    }
    const r = await child;
    const stdout = String(r.stdout);
    const stderr = String(r.stderr);
    let rejected = Number(/(\d+) rejected/.exec(stderr)?.[1] ?? 0);
    if (stdout.trim().startsWith('[')) {
      try {
        rejected += (JSON.parse(stdout) as Array<{ status: string }>).filter((x) => x.status === 'rejected').length;
      } catch {
        /* cut short by -9: nothing to read */
      }
    }
    logs.push({ signal, afterPosts, exitCode: r.exitCode, rejected });
    expect(rejected, `run ${i + 1} (seed ${seed}) reported rejected rows:\n${stderr}`).toBe(0);
    expect(stderr, `run ${i + 1} (seed ${seed})`).not.toMatch(/\n\s+at |FATAL/);
    if (r.exitCode === 0 && !signal) break;
    if (r.exitCode === 0 && signal) continue;
  }
  t.sb.setFaults({});
  // FAULT_LOG=file collects what each scenario went through (kill points, exits), for the record.
  if (process.env.FAULT_LOG) appendFileSync(process.env.FAULT_LOG, JSON.stringify({ args: args.slice(0, 2), seed, runs: logs }) + '\n');
  return logs;
}

describe('fault suite: kill -9, Ctrl-C, 503s, dropped connections and 429 bursts', () => {
  for (const seed of SEEDS) {
    it(`invitations bulk-create of 300 rows (seed ${seed}): every row exists exactly once`, { timeout: 120_000 }, async () => {
      const domain = `faults${seed}.example`;
      const lines = ['email,auth_group', ...Array.from({ length: 300 }, (_, i) => `f${i}@${domain},3`)];
      const file = t.writeFile('people.csv', lines.join('\n') + '\n');
      const logs = await runUntilDone(['invitations', 'bulk-create', '--file', file, '-o', 'json'], '/api/accounts/user-invitations/bulk-create', seed, 3);
      expect(logs.at(-1)?.exitCode, JSON.stringify(logs)).toBe(0);

      const found = (await t.api(`/accounts/user-invitations?email__icontains=${domain}&limit=1000`)).results as Array<{ email: string; status: string }>;
      const counts = new Map<string, number>();
      for (const inv of found) counts.set(inv.email, (counts.get(inv.email) ?? 0) + 1);
      expect(counts.size).toBe(300);
      expect([...counts.values()].every((n) => n === 1), 'an address invited twice').toBe(true);
    });

    it(`orders import of 30 orders, 4 at a time (seed ${seed}): every order exists exactly once`, { timeout: 120_000 }, async () => {
      const product = (await t.api('/products?limit=1')).results[0].id;
      const ids = Array.from({ length: 30 }, (_, i) => `F${seed}-${i + 1}`);
      const lines = ['external_id,type,order_created_at,seller_company_id,product,volume,unit', ...ids.map((id, i) => `${id},order,2025-06-01,101,${product},${i + 1},kg`)];
      const file = t.writeFile('orders.csv', lines.join('\n') + '\n');
      const logs = await runUntilDone(['orders', 'import', '--purchase', '--file', file, '--concurrency', '4', '-o', 'json'], '/api/orders/purchase', seed, 30);
      expect(logs.at(-1)?.exitCode, JSON.stringify(logs)).toBe(0);

      const list = await t.api(`/orders?order_action=buying&limit=1000&external_id__in=${encodeURIComponent(ids.join(','))}`);
      const counts = new Map<string, number>();
      for (const o of list.results as Array<{ external_id: string }>) counts.set(o.external_id, (counts.get(o.external_id) ?? 0) + 1);
      expect(counts.size).toBe(30);
      expect([...counts.values()].every((n) => n === 1), 'an order created twice').toBe(true);
    });
  }
});
