import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync, lutimesSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { processStart, tryLock, withLock, type LockHolder } from '../../src/config/lock.js';
import { SctError } from '../../src/errors.js';
import { ROOT, removeDir, tempDir } from '../helpers/sct.js';

// Child processes run the module itself, bundled once: they race this process and each other.
let lockModule: string;
let buildDir: string;
beforeAll(() => {
  buildDir = tempDir('sct-lock-build-');
  lockModule = join(buildDir, 'lock.mjs');
  buildSync({ entryPoints: [join(ROOT, 'src/config/lock.ts')], bundle: true, format: 'esm', platform: 'node', outfile: lockModule, logLevel: 'silent' });
  return () => removeDir(buildDir);
});

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  dirs.splice(0).forEach(removeDir);
});
const fresh = () => {
  const d = tempDir('sct-lock-');
  dirs.push(d);
  return d;
};

function runNode(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** A child that takes the lock and holds it until killed; resolves once it holds it. */
function holdInChild(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [
    '--input-type=module',
    '-e',
    `import { tryLock } from ${JSON.stringify(lockModule)};
     const got = tryLock(${JSON.stringify(path)});
     console.log('release' in got ? 'locked' : 'busy');
     setInterval(() => {}, 1000);`,
  ]);
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => (String(d).startsWith('locked') ? resolve(child) : reject(new Error(`child did not get the lock: ${d}`))));
    child.once('exit', () => reject(new Error('child exited')));
  });
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

const holderIn = (path: string): LockHolder => JSON.parse(readFileSync(path, 'utf8'));

describe('tryLock', () => {
  it('creates the lock file with mode 0600 naming this process, and release removes it', () => {
    const path = join(fresh(), 'x.lock');
    const got = tryLock(path);
    expect('release' in got).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const h = holderIn(path);
    expect(h).toMatchObject({ pid: process.pid, host: hostname() });
    expect(Date.parse(h.since)).toBeGreaterThan(Date.now() - 5000);
    // A second attempt in the same process sees the lock held, by us.
    expect(tryLock(path)).toEqual({ holder: h });
    if ('release' in got) {
      got.release();
      got.release();
    }
    expect(existsSync(path)).toBe(false);
  });

  it('reports a live holder in another process, and takes the lock over once it is killed', async () => {
    const path = join(fresh(), 'x.lock');
    const child = await holdInChild(path);
    const got = tryLock(path);
    expect(got).toEqual({ holder: { pid: child.pid, host: hostname(), since: expect.any(String), start: processStart(child.pid!) } });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const again = tryLock(path);
    expect('release' in again).toBe(true);
    expect(holderIn(path).pid).toBe(process.pid);
    if ('release' in again) again.release();
  });

  it('takes over the lock of a dead process on this host, never one of another host', async () => {
    const dir = fresh();
    const pid = await deadPid();
    const path = join(dir, 'dead.lock');
    writeFileSync(path, JSON.stringify({ pid, host: hostname(), since: '2020-01-01T00:00:00.000Z' }));
    const got = tryLock(path);
    expect('release' in got).toBe(true);
    expect(holderIn(path).pid).toBe(process.pid);
    if ('release' in got) got.release();

    const remote = join(dir, 'remote.lock');
    const elsewhere = { pid, host: `not-${hostname()}`, since: '2020-01-01T00:00:00.000Z' };
    writeFileSync(remote, JSON.stringify(elsewhere));
    expect(tryLock(remote)).toEqual({ holder: elsewhere });
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose pid another process now has (a reboot, a container restart), never a live holder\'s', async () => {
    const path = join(fresh(), 'x.lock');
    const child = await holdInChild(path);
    const held = holderIn(path);
    expect(held.start).toBe(processStart(child.pid!));
    expect(held.start).not.toBe(processStart(process.pid));
    expect(tryLock(path)).toEqual({ holder: held });

    // The same pid in another boot, then started at another time in this one.
    const [boot, ticks] = held.start!.split(':');
    for (const start of [`${boot.replace(/^./, (c) => (c === '0' ? '1' : '0'))}:${ticks}`, `${boot}:${Number(ticks) + 1}`]) {
      writeFileSync(path, JSON.stringify({ ...held, start }));
      const got = tryLock(path);
      expect('release' in got).toBe(true);
      expect(holderIn(path)).toMatchObject({ pid: process.pid, start: processStart(process.pid) });
      if ('release' in got) got.release();
    }
  });

  it('when several processes find the same stale lock, exactly one takes it', async () => {
    for (let round = 0; round < 3; round++) {
      const path = join(fresh(), 'x.lock');
      writeFileSync(path, JSON.stringify({ pid: await deadPid(), host: hostname(), since: '2020-01-01T00:00:00.000Z' }));
      // Each holds what it got until all have answered: a late starter must not find it released.
      const script = `import { tryLock } from ${JSON.stringify(lockModule)};
        const got = tryLock(${JSON.stringify(path)});
        console.log('release' in got ? 'locked' : 'busy');
        process.stdin.resume().once('end', () => process.exit(0));`;
      const racers = [1, 2, 3, 4].map(() => spawn(process.execPath, ['--input-type=module', '-e', script]));
      children.push(...racers);
      const answers = await Promise.all(racers.map((c) => new Promise<string>((r) => c.stdout.once('data', (d: Buffer) => r(String(d).trim())))));
      for (const c of racers) c.stdin.end();
      expect(answers.filter((a) => a === 'locked'), `round ${round}`).toHaveLength(1);
    }
  });

  it('takes over a leftover lock naming our own pid (pids restart in every container)', () => {
    const path = join(fresh(), 'x.lock');
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), since: '2020-01-01T00:00:00.000Z' }));
    const got = tryLock(path);
    expect('release' in got).toBe(true);
    if ('release' in got) got.release();
  });

  it('waits 10 s before taking over a lock file that does not say who holds it', () => {
    const path = join(fresh(), 'x.lock');
    writeFileSync(path, 'not json');
    expect(tryLock(path)).toEqual({ holder: { pid: 0, host: 'unknown', since: expect.any(String) } });
    const old = new Date(Date.now() - 20_000);
    utimesSync(path, old, old);
    const got = tryLock(path);
    expect('release' in got).toBe(true);
    if ('release' in got) got.release();
  });

  it('never follows a symlink at the lock path', () => {
    const dir = fresh();
    const target = join(dir, 'precious');
    writeFileSync(target, 'keep me');
    const path = join(dir, 'x.lock');
    symlinkSync(target, path);
    expect('holder' in tryLock(path)).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    // Once old enough to be stale, the link itself is removed, never what it points to.
    const old = new Date(Date.now() - 20_000);
    lutimesSync(path, old, old);
    const got = tryLock(path);
    expect('release' in got).toBe(true);
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    if ('release' in got) got.release();
  });

  it('release never removes a lock that is no longer ours', () => {
    const path = join(fresh(), 'x.lock');
    const got = tryLock(path);
    const someoneElse = { pid: 1, host: hostname(), since: new Date().toISOString() };
    writeFileSync(path, JSON.stringify(someoneElse));
    if ('release' in got) got.release();
    expect(holderIn(path)).toEqual(someoneElse);
  });

  it('releases on exit a lock its holder forgot', async () => {
    const path = join(fresh(), 'x.lock');
    const r = await runNode(`import { tryLock } from ${JSON.stringify(lockModule)};
      if (!('release' in tryLock(${JSON.stringify(path)}))) process.exit(3);
      process.exit(0);`);
    expect(r).toMatchObject({ code: 0 });
    expect(existsSync(path)).toBe(false);
  });
});

describe('withLock', () => {
  it('lets one process at a time through: 4 racing processes lose no increment', async () => {
    const dir = fresh();
    const counter = join(dir, 'counter');
    writeFileSync(counter, '0');
    const each = 60;
    // A read-modify-write of a file, the very thing the lock exists for; without it increments are lost.
    const script = `import { readFileSync, writeFileSync } from 'node:fs';
      import { withLock } from ${JSON.stringify(lockModule)};
      for (let i = 0; i < ${each}; i++) {
        await withLock(${JSON.stringify(join(dir, 'counter.lock'))}, () => {
          const n = Number(readFileSync(${JSON.stringify(counter)}, 'utf8'));
          writeFileSync(${JSON.stringify(counter)}, String(n + 1));
        });
      }`;
    const runs = await Promise.all([1, 2, 3, 4].map(() => runNode(script)));
    for (const r of runs) expect(r, r.stderr).toMatchObject({ code: 0 });
    expect(Number(readFileSync(counter, 'utf8'))).toBe(4 * each);
    expect(existsSync(join(dir, 'counter.lock'))).toBe(false);
  });

  it('releases the lock when fn throws', async () => {
    const path = join(fresh(), 'x.lock');
    await expect(
      withLock(path, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(path)).toBe(false);
    expect(await withLock(path, () => 42)).toBe(42);
  });

  it('times out with exit 1 naming the lock file and its holder, without running fn', async () => {
    const path = join(fresh(), 'x.lock');
    const child = await holdInChild(path);
    let ran = false;
    let error: unknown;
    const started = Date.now();
    try {
      await withLock(path, () => (ran = true), { timeoutMs: 300 });
    } catch (err) {
      error = err;
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(ran).toBe(false);
    expect(error).toBeInstanceOf(SctError);
    expect((error as SctError).exitCode).toBe(1);
    expect((error as SctError).message).toContain(path);
    expect((error as SctError).message).toContain(`pid ${child.pid}`);
  });

  it('waits for a holder that lets go', async () => {
    const path = join(fresh(), 'x.lock');
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { tryLock } from ${JSON.stringify(lockModule)};
       const got = tryLock(${JSON.stringify(path)});
       console.log(Date.now());
       setTimeout(() => got.release(), 400);`,
    ]);
    children.push(child);
    // When the child took the lock, by its clock (the same as ours): its 'locked' line can reach
    // us late on a busy machine, so the time it arrives says nothing.
    const lockedAt = Number(await new Promise((r) => child.stdout.once('data', r)));
    // The child releases 400 ms after taking the lock (a timer may fire a millisecond early).
    expect(await withLock(path, () => 'mine', { timeoutMs: 5000 })).toBe('mine');
    expect(Date.now() - lockedAt).toBeGreaterThanOrEqual(399);
  });

  it('a signal ends the wait at once with exit 130, fn never run', async () => {
    const path = join(fresh(), 'x.lock');
    await holdInChild(path);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    let ran = false;
    const started = Date.now();
    const error = await withLock(path, () => (ran = true), { signal: stop.signal }).catch((err: unknown) => err);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(ran).toBe(false);
    expect(error).toBeInstanceOf(SctError);
    expect((error as SctError).exitCode).toBe(130);
  });
});
