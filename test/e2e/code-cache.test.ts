// On Node 20, dist/cli.cjs and the chunks it requires are compiled with V8's code of an earlier
// run, kept in the user's cache directory (src/cli/code-cache.ts); Node 22.1+ keeps its own and
// sct writes none. The cache must only ever make a run faster: a missing, damaged or foreign file
// is a run like the first.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN, removeDir, tempDir } from '../helpers/sct.js';

const t = useSandbox();

function cacheHome(): { home: string; dir: string; files: () => string[] } {
  const home = tempDir('sct-cache-');
  afterAll(() => removeDir(home));
  const dir = join(home, 'sct');
  return { home, dir, files: () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8')) : []) };
}

describe('the code cache', () => {
  it('the first run writes it (0600, in a 0700 directory), later runs use it unchanged and print the same, on every Node', async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    const first = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(c.files()).toHaveLength(1);
    const file = join(c.dir, c.files()[0]);
    // One per copy of sct (a hash of its path), build, command, Node and file; orders get needs no chunk.
    expect(c.files()[0]).toMatch(new RegExp(`^[0-9a-f]{8}-[0-9a-f]{16}-orders-get-node${process.version.replace(/\./g, '\\.')}-${process.arch}-cli\\.cjs\\.v8$`));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(c.dir).mode & 0o777).toBe(0o700);
    const bytes = readFileSync(file);
    const mtime = statSync(file).mtimeMs;

    const second = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toBe('');
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('commands in chunks work from cached code too: each chunk has its file, written once; their error classes and exit codes hold', async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    const mtimes = () => new Map(c.files().map((f) => [f, statSync(join(c.dir, f)).mtimeMs]));
    let before = new Map<string, number>();
    for (let i = 0; i < 2; i++) {
      const who = await t.sctBin(['whoami', '-o', 'json'], { env });
      expect(who.exitCode, who.stderr).toBe(0);
      expect(JSON.parse(who.stdout).first_name).toBe('Amélie');
      expect(who.stderr).toBe('');
      const usage = await t.sctBin(['orders', 'update', '1', '--purchase'], { env });
      expect(usage.stderr).toContain('nothing to update');
      expect(usage.exitCode).toBe(2);
      if (i === 0) before = mtimes();
    }
    expect(c.files().some((f) => /-whoami-node.*-chunks_whoami-\w+\.cjs\.v8$/.test(f))).toBe(true);
    // Each command has its own: a cache holds what the run that wrote it compiled.
    // The usage error's cache is partial (see below); read, not written, by the second round.
    expect(c.files().filter((f) => f.endsWith('-cli.cjs.v8')).map((f) => f.replace(/^\w+-\w+-(.*)-node.*$/, '$1'))).toEqual(['whoami']);
    expect(c.files().filter((f) => f.endsWith('-cli.cjs.partial.v8')).map((f) => f.replace(/^\w+-\w+-(.*)-node.*$/, '$1'))).toEqual(['orders-update']);
    for (const f of c.files()) expect(statSync(join(c.dir, f)).mode & 0o777).toBe(0o600);
    // The second round read every file and wrote none.
    expect(mtimes()).toEqual(before);

    // A damaged chunk file is refused and written again; the command does not notice.
    const chunk = c.files().find((f) => /-chunks_whoami-/.test(f))!;
    writeFileSync(join(c.dir, chunk), 'not a code cache');
    const again = await t.sctBin(['whoami', '-o', 'json'], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(readFileSync(join(c.dir, chunk)).length).toBeGreaterThan(100);
  });

  it("a run that writes the cache removes this copy's files of other builds, and the one-file cache of older versions, but not another copy's", async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    mkdirSync(c.dir, { recursive: true, mode: 0o700 });
    expect((await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env })).exitCode).toBe(0);
    const [ours] = c.files();
    const copy = ours.slice(0, 8);
    const planted = [`${copy}-0000000000000000-orders-get-node${process.version}-${process.arch}-cli.cjs.v8`, `cli-${copy}-0000000000000000-node${process.version}-${process.arch}.v8`, `ffffffff-0000000000000000-orders-get-node${process.version}-${process.arch}-cli.cjs.v8`];
    for (const f of planted) writeFileSync(join(c.dir, f), 'old', { mode: 0o600 });
    // whoami writes its chunks' files, and tidies up then.
    expect((await t.sctBin(['whoami'], { env })).exitCode).toBe(0);
    expect(c.files()).toContain(ours);
    expect(c.files()).not.toContain(planted[0]);
    expect(c.files()).not.toContain(planted[1]);
    expect(c.files()).toContain(planted[2]);
  });

  it("another copy's files that none of its runs has written for a month go too (a copy deleted, an npx version no longer run), and so do this copy's of a Node no longer run", async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    mkdirSync(c.dir, { recursive: true, mode: 0o700 });
    expect((await t.sctBin(['whoami'], { env })).exitCode).toBe(0);
    const [ourCopy, build] = c.files()[0]!.split('-');
    const name = (copy: string) => `${copy}-0000000000000000-whoami-node${process.version}-${process.arch}-cli.cjs.v8`;
    // This copy and build, under a Node upgraded since (brew, apt, nvm keep the same sct).
    const olderNode = (node: string) => `${ourCopy}-${build}-whoami-node${node}-${process.arch}-cli.cjs.v8`;
    const [stale, recent, notOurs, oldNode, otherNode] = [name('eeeeeeee'), name('dddddddd'), 'notes.txt', olderNode('v20.11.0'), olderNode('v22.1.0')];
    for (const f of [stale, recent, notOurs, oldNode, otherNode]) writeFileSync(join(c.dir, f), 'old', { mode: 0o600 });
    const fortyDaysAgo = new Date(Date.now() - 40 * 24 * 3600_000);
    for (const f of [stale, notOurs, oldNode]) utimesSync(join(c.dir, f), fortyDaysAgo, fortyDaysAgo);
    // This build's files under this Node are written once and read from then on: old, and in use.
    // Found by this copy's name: the planted files match the rest, and sort before or after ours.
    const whoami = c.files().find((f) => f.startsWith(`${ourCopy}-${build}-whoami-node${process.version}-`))!;
    utimesSync(join(c.dir, whoami), fortyDaysAgo, fortyDaysAgo);
    expect((await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env })).exitCode).toBe(0);
    expect(c.files()).not.toContain(stale);
    expect(c.files()).toContain(recent);
    expect(c.files()).not.toContain(oldNode);
    expect(c.files()).toContain(whoami);
    // A Node run this month (two Nodes side by side) keeps its files.
    expect(c.files()).toContain(otherNode);
    // Only cache files: anything else in the directory is left as it is.
    expect(existsSync(join(c.dir, notOurs))).toBe(true);
  });

  it("a run that fails writes a partial cache, which the command's first run that succeeds replaces with its own; failing again writes nothing", async () => {
    // A run that stops at an error compiles the error's path, not the command's: kept as the
    // command's cache, every later run compiled the rest of its path at each start (the cache of
    // a --jq run that could not start jq: 169 KB, `orders get 1` 134 ms against 105 ms).
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    const ofCli = () => c.files().filter((f) => /-orders-get-node.*-cli\.cjs\./.test(f));
    expect((await t.sctBin(['orders', 'get', '1', '--jq', '.['], { env })).exitCode).toBe(2);
    const [partial] = ofCli();
    expect(partial).toMatch(/-cli\.cjs\.partial\.v8$/);
    const partialSize = statSync(join(c.dir, partial!)).size;
    // Read by the next failing run, not written again.
    const mtime = statSync(join(c.dir, partial!)).mtimeMs;
    expect((await t.sctBin(['orders', 'get', '1', '--jq', '.['], { env })).exitCode).toBe(2);
    expect(statSync(join(c.dir, partial!)).mtimeMs).toBe(mtime);
    // The first run that succeeds writes the command's own cache; the partial one goes.
    const ok = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).toBe('');
    const [full] = ofCli();
    expect(ofCli()).toHaveLength(1);
    expect(full).toMatch(/-orders-get-node.*-cli\.cjs\.v8$/);
    expect(statSync(join(c.dir, full!)).size).toBeGreaterThan(partialSize);
    // From then on a failing run (a 404) and a succeeding one read it and write nothing.
    const written = statSync(join(c.dir, full!)).mtimeMs;
    expect((await t.sctBin(['orders', 'get', '999999', '-o', 'json'], { env })).exitCode).toBe(1);
    expect((await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env })).exitCode).toBe(0);
    expect(ofCli()).toEqual([full]);
    expect(statSync(join(c.dir, full!)).mtimeMs).toBe(written);
  });

  it.skipIf(!existsSync('/usr/bin/script'))("a command's help at a terminal (made by cli.cjs there) writes a partial cache too: the command's first run writes its own", async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    const help = await execa('/usr/bin/script', ['-q', '-e', '-c', `stty cols 150; '${process.execPath}' '${BIN}' orders list --help`, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm', NO_COLOR: '1', SCT_PAGER: 'cat', XDG_CACHE_HOME: c.home },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: sct orders list');
    const ofCli = () => c.files().filter((f) => /-orders-list-node.*-cli\.cjs\./.test(f));
    expect(ofCli()).toEqual([expect.stringMatching(/-cli\.cjs\.partial\.v8$/)]);
    expect((await t.sctBin(['orders', 'list', '--buying', '-o', 'json'], { env })).exitCode).toBe(0);
    expect(ofCli()).toEqual([expect.stringMatching(/-orders-list-node.*-cli\.cjs\.v8$/)]);
  });

  it("a command's cache is its own: a mistyped first command leaves orders get none of its making, which its first run then writes", async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    expect((await t.sctBin(['orders', 'gett', '1'], { env })).exitCode).toBe(2);
    const typo = c.files();
    expect(typo.every((f) => f.includes('-orders-gett-'))).toBe(true);
    expect((await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env })).exitCode).toBe(0);
    const mine = c.files().filter((f) => f.includes('-orders-get-node'));
    expect(mine).toHaveLength(1);
    // The same command with other values reads the same file.
    const mtime = statSync(join(c.dir, mine[0]!)).mtimeMs;
    expect((await t.sctBin(['orders', 'get', '2', '-o', 'json'], { env })).exitCode).toBe(0);
    // So does the same command after a global flag that takes no value (-q is no value of `orders`).
    expect((await t.sctBin(['-q', '--no-color', 'orders', 'get', '3', '-o', 'json'], { env })).exitCode).toBe(0);
    expect((await t.sctBin(['--json', 'id', 'orders', 'get', '4'], { env })).exitCode).toBe(0);
    expect(statSync(join(c.dir, mine[0]!)).mtimeMs).toBe(mtime);
    expect(c.files()).toHaveLength(typo.length + 1);
  });

  it('a damaged file is refused by V8, the run goes on as the first, and the file is written again', async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    expect((await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env })).exitCode).toBe(0);
    const file = join(c.dir, c.files()[0]);
    const good = readFileSync(file);
    const damaged = Buffer.from(good);
    for (let i = 0; i < damaged.length; i += 97) damaged[i] ^= 0x5a;
    for (const junk of [damaged, Buffer.alloc(0), Buffer.from('not a code cache')]) {
      writeFileSync(file, junk);
      const r = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).id).toBe(1);
      expect(r.stderr).toBe('');
      expect(readFileSync(file).length).toBeGreaterThan(1000);
      expect(readFileSync(file).equals(junk)).toBe(false);
    }
  });

  it('a file others may write is never read: it is replaced by one of the user own, 0600', async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    expect((await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env })).exitCode).toBe(0);
    const file = join(c.dir, c.files()[0]);
    // Compiled code from a file another user could have written would run as this user.
    writeFileSync(file, 'planted');
    chmodSync(file, 0o666);
    const r = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toBe('planted');
  });

  it('a cache file that is a symlink is neither read nor written through: it is replaced, and what it pointed at is untouched', async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    expect((await t.sctBin(['whoami'], { env })).exitCode).toBe(0);
    const chunk = c.files().find((f) => /-chunks_whoami-/.test(f))!;
    const elsewhere = join(c.home, 'elsewhere.v8');
    writeFileSync(elsewhere, readFileSync(join(c.dir, chunk)));
    const before = readFileSync(elsewhere);
    rmSync(join(c.dir, chunk));
    symlinkSync(elsewhere, join(c.dir, chunk));
    const r = await t.sctBin(['whoami', '-o', 'json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).first_name).toBe('Amélie');
    expect(lstatSync(join(c.dir, chunk)).isFile()).toBe(true);
    expect(readFileSync(elsewhere).equals(before)).toBe(true);
  });

  it('runs at once with no cache each write whole files: a run after them reads every file and writes none', async () => {
    const c = cacheHome();
    const env = { XDG_CACHE_HOME: c.home };
    const runs = await Promise.all(Array.from({ length: 4 }, () => t.sctBin(['whoami', '-o', 'json'], { env })));
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    // No temporary file left behind by the renames.
    expect(readdirSync(c.dir).filter((f) => !f.endsWith('.v8'))).toEqual([]);
    const mtimes = new Map(c.files().map((f) => [f, statSync(join(c.dir, f)).mtimeMs]));
    const after = await t.sctBin(['whoami', '-o', 'json'], { env });
    expect(after.exitCode, after.stderr).toBe(0);
    expect(new Map(c.files().map((f) => [f, statSync(join(c.dir, f)).mtimeMs]))).toEqual(mtimes);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node its own; an unwritable directory only costs the cache', async () => {
    const c = cacheHome();
    const off = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env: { XDG_CACHE_HOME: c.home, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(off.exitCode, off.stderr).toBe(0);
    expect(existsSync(c.dir)).toBe(false);

    const blocked = cacheHome();
    // A file where the directory should be: nothing can be written, and nothing is said.
    writeFileSync(join(blocked.home, 'sct'), '');
    const r = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env: { XDG_CACHE_HOME: blocked.home } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).id).toBe(1);
  });
});
