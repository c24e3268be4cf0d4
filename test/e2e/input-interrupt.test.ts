// Ctrl-C while sct waits for its input: a FIFO no one writes to (yet), or a stdin that never ends.
// The first Ctrl-C ends the run (exit 130, "interrupted", nothing sent); before, a FIFO's open
// waited in Node's thread pool, where no Ctrl-C, no SIGTERM and not even the process's own exit
// could end it (only kill -9), and a stdin read waited for a second Ctrl-C.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

/**
 * Starts sct, waits until it reads (for a FIFO: until it has the FIFO open, found by opening the
 * writing end without waiting, kept open and never written, so sct waits for data; for stdin, a
 * while), presses Ctrl-C once, and gives what became of it.
 */
async function interrupted(args: string[], o: { fifo?: string; signal?: NodeJS.Signals } = {}) {
  const child = t.spawnSct(args, { timeout: 20_000 });
  let writer: number | undefined;
  for (let i = 0; i < 200 && writer === undefined; i++) {
    if (o.fifo) {
      try {
        writer = openSync(o.fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch {
        // No reader yet.
      }
    }
    if (writer === undefined) await new Promise((r) => setTimeout(r, o.fifo ? 50 : 2500));
    if (!o.fifo) break;
  }
  // A moment more: the read is under way.
  await new Promise((r) => setTimeout(r, 200));
  const pressed = Date.now();
  child.kill(o.signal ?? 'SIGINT');
  const r = await child;
  if (writer !== undefined) closeSync(writer);
  return { exitCode: r.exitCode, stderr: String(r.stderr), ms: Date.now() - pressed };
}

describe('Ctrl-C while the input is awaited', () => {
  it('a FIFO whose writer has not written, or that has no writer yet: the run ends at once, nothing sent', async () => {
    const fifo = join(t.dir, 'people.csv');
    execFileSync('mkfifo', [fifo]);
    for (const args of [
      ['invitations', 'bulk-create', '--file', fifo],
      ['orders', 'import', '--purchase', '--file', fifo],
      ['origins', 'import', '--file', fifo],
      ['origins', 'check', fifo],
    ]) {
      const r = await interrupted(args, { fifo });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(130);
      expect(r.stderr).toContain('interrupted');
      expect(r.ms, args.join(' ')).toBeLessThan(5_000);
    }
    // No writer at all: the open itself waited, in the thread pool.
    const none = join(t.dir, 'none.csv');
    execFileSync('mkfifo', [none]);
    const alone = await interrupted(['invitations', 'bulk-create', '--file', none]);
    expect(alone.exitCode, alone.stderr).toBe(130);
    // SIGTERM too, as a service manager stops it.
    const term = await interrupted(['invitations', 'bulk-create', '--file', fifo], { fifo, signal: 'SIGTERM' });
    expect(term.exitCode, term.stderr).toBe(143);
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
  });

  it('a stdin that never ends: the file given as - ends at once too', async () => {
    for (const args of [
      ['invitations', 'bulk-create', '--file', '-'],
      ['origins', 'import', '--file', '-'],
      ['products', 'create', '--file', '-'],
    ]) {
      const r = await interrupted(args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(130);
      expect(r.stderr).toContain('interrupted');
    }
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
  });

  it('a FIFO that is written to is read whole, as a file', async () => {
    const fifo = join(t.dir, 'plots.geojson');
    execFileSync('mkfifo', [fifo]);
    const child = t.spawnSct(['origins', 'check', fifo, '-o', 'json'], { timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 500));
    // Opening for writing waits for the reader sct opened: it did, without blocking.
    writeFileSync(fifo, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { external_id: 'P1' }, geometry: { type: 'Point', coordinates: [-1.5, 6.5] } }] }));
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('P1');
  });
});
