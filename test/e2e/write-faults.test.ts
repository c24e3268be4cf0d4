// What sct does when the files and pipes it writes to fail: a --report path that cannot work is
// refused before the first request; a full disk under stdout, the report, the journal or the
// config file is an error naming what failed, with nothing claimed done that was not and no
// temporary file left; a closed pipe ends quietly, but a bulk run still writes its report and
// keeps the exit code its rows make.
//
// The full disks are small tmpfs mounts (tests run as root on Linux); where one cannot be
// mounted, those tests are skipped and say why.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { until, useSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });
let run = 0;
const posts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/accounts/user-invitations/bulk-create');

/** A people.csv of n addresses unique to this call; `role` fills the auth_group column (1, the owner role, is rejected). */
function people(n: number, role: (i: number) => string = () => '3'): { file: string; domain: string } {
  const domain = `wf${++run}.example`;
  const lines = ['email,auth_group', ...Array.from({ length: n }, (_, i) => `p${i}@${domain},${role(i)}`)];
  return { file: t.writeFile(`people${run}.csv`, lines.join('\n') + '\n'), domain };
}

async function invitedCounts(domain: string): Promise<Map<string, number>> {
  const found = (await t.api(`/accounts/user-invitations?email__icontains=${domain}&limit=1000`)).results as Array<{ email: string }>;
  const counts = new Map<string, number>();
  for (const inv of found) counts.set(inv.email, (counts.get(inv.email) ?? 0) + 1);
  return counts;
}

/** A bash script run with sct's environment bound to the sandbox; `$SCT` is the built sct. */
function bash(script: string, env: Record<string, string> = {}) {
  return execa('bash', ['-c', script], {
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: 'true', SCT: `${process.execPath} ${BIN}`, SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, ...env },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
}

const tempFiles = (dir: string) => readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.tmp'));

describe('--report is checked before the first request', () => {
  it('refuses the input file itself as the report, even with --force: exit 2, the file kept, nothing sent', async () => {
    const { file } = people(3);
    const before = readFileSync(file, 'utf8');
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--report', file, '--force']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--report ${file} is the input file`);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('refuses a report whose directory does not exist or is not a directory: exit 2, nothing sent', async () => {
    const { file } = people(3);
    await t.expectUsageErrors(
      [
        [['invitations', 'bulk-create', '--file', file, '--report', join(t.dir, 'missing', 'report.csv')], `the directory of --report ${join(t.dir, 'missing', 'report.csv')} does not exist`],
        [['invitations', 'bulk-create', '--file', file, '--report', join(file, 'report.csv')], `the directory of --report ${join(file, 'report.csv')} is not a directory`],
        [['orders', 'import', '--purchase', '--file', file, '--report', join(t.dir, 'nowhere', 'r.csv')], 'the directory of --report'],
      ],
      { inProcess: true },
    );
  });
});

describe('closed pipes', () => {
  it('`set -o pipefail; sct … | head -1` on a bulk run with a rejected row: exit 3, report and journal written', async () => {
    // 1,000 rows of JSON are far more than a pipe holds: head leaves while sct still writes.
    const { file, domain } = people(1000, (i) => (i === 7 ? '1' : '3'));
    const report = join(t.dir, 'report.csv');
    const r = await bash(`set -o pipefail; $SCT invitations bulk-create --file '${file}' --report '${report}' -o json | head -1`);
    expect(r.stdout).toBe('[');
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('invitations: 999 created, 1 rejected');
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
    const rows = parse(readFileSync(report), { columns: true }) as Array<{ status: string }>;
    expect(rows.filter((x) => x.status === 'created')).toHaveLength(999);
    expect((await invitedCounts(domain)).size).toBe(999);
    // The journal knows what went through: a rerun sends only the rejected row again.
    const before = posts().length;
    const again = await bash(`$SCT invitations bulk-create --file '${file}' --report '${report}' --force -o json > /dev/null`);
    expect(again.exitCode, again.stderr).toBe(3);
    expect(again.stderr).toContain('999 skipped');
    expect(posts().length - before).toBe(1);
  });

  it('a closed stderr pipe in a -v bulk run is no crash: the run ends, its report is written, exit 3', async () => {
    const { file } = people(300, (i) => (i === 250 ? '1' : '3'));
    const report = join(t.dir, 'report.csv');
    // stderr goes to head (which leaves after one line of the HTTP trace), stdout to /dev/null.
    const r = await bash(`$SCT -v invitations bulk-create --file '${file}' --report '${report}' -o json 2>&1 >/dev/null | head -1; exit \${PIPESTATUS[0]}`);
    expect(r.exitCode, r.stdout + r.stderr).toBe(3);
    const rows = parse(readFileSync(report), { columns: true }) as Array<{ status: string }>;
    expect(rows.filter((x) => x.status === 'created')).toHaveLength(299);
  });

  it('help and the version into a closed pipe end quietly with exit 0', async () => {
    // The reader closes its end before sct writes a byte: every write meets a closed pipe.
    for (const args of ['dds list --help', 'origins check --help', '--version', 'help reference', 'help filters']) {
      const r = await bash(`set -o pipefail; $SCT ${args} | (exec 0<&-; sleep 0.5)`);
      expect(r.exitCode, `${args}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args).toBe('');
    }
  });

  it('a list into a closed pipe ends quietly with exit 0', async () => {
    const r = await bash(`set -o pipefail; $SCT orders list --buying --all -o ndjson | head -c 0`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('the rerun hint after Ctrl-C', () => {
  it('is a command a shell runs as it is, awkward names included: it replaces the report and converges', async () => {
    const dir = join(t.dir, "it's here");
    mkdirSync(dir);
    const { domain } = people(0);
    const lines = ['email,auth_group', ...Array.from({ length: 900 }, (_, i) => `p${i}@${domain},3`)];
    const file = join(dir, 'people $1.csv');
    writeFileSync(file, lines.join('\n') + '\n');
    const report = join(dir, 'report (1).csv');
    t.sb.setFaults({ latencyMs: 300, methods: ['POST'] });
    const stop = new AbortController();
    const running = t.sctIn(['invitations', 'bulk-create', '--file', file, '--report', report], { signal: stop.signal });
    await until(() => posts().length >= 1, 'the first request');
    stop.abort();
    const r = await running;
    t.sb.setFaults({});
    expect(r.exitCode, r.stderr).toBe(130);
    const created = /invitations: (\d+) created, 0 rejected, \d+ not sent — report in/.exec(r.stderr)?.[1];
    expect(created, r.stderr).toBeDefined();
    const hinted = /hint: to continue, rerun: (sct .*) \(what went through/.exec(r.stderr)?.[1];
    expect(hinted, r.stderr).toContain('--force');
    const rest = await bash(hinted!.replace(/^sct /, '$SCT '));
    expect(rest.exitCode, rest.stderr).toBe(0);
    expect(rest.stderr).toContain(`invitations: ${900 - Number(created)} created, ${created} skipped (done in an earlier run), 0 rejected`);
    const after = await invitedCounts(domain);
    expect(after.size).toBe(900);
    expect([...after.values()].every((n) => n === 1), 'an address invited twice').toBe(true);
  });
});

// ---- full disks -----------------------------------------------------------------------------

const PAGE = 4096;
const mounts: string[] = [];
const mountProblem = ((): string | undefined => {
  if (process.platform !== 'linux') return 'tmpfs mounts need Linux';
  const probe = mkdtempSync(join(tmpdir(), 'sct-tmpfs-probe-'));
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', probe], { encoding: 'utf8' });
  if (m.status !== 0) {
    rmSync(probe, { recursive: true, force: true });
    return `cannot mount a tmpfs (${(m.stderr || m.error?.message || '').trim() || `exit ${m.status}`}): run as root to test full disks`;
  }
  spawnSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return undefined;
})();

afterAll(() => {
  for (const dir of mounts) {
    spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A tmpfs of `pages` pages, filled up but for `free` pages: sct's next writes there get ENOSPC
 * once those are used. Returns the mount point and a function that frees the filler.
 */
function fullDisk(pages: number, free: number): { dir: string; makeRoom: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sct-full-'));
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${pages * PAGE}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (m.status !== 0) throw new Error(`mount: ${m.stderr}`);
  mounts.push(dir);
  const filler = fillUp(dir, free, '.filler');
  return { dir, makeRoom: () => rmSync(filler, { recursive: true, force: true }) };
}

/** Fills the disk of `dir` but for `free` pages, with files in the directory `name`; returns that directory. */
function fillUp(dir: string, free: number, name: string): string {
  const filler = join(dir, name);
  mkdirSync(filler);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(filler, String(i)), Buffer.alloc(PAGE, 1));
    } catch {
      rmSync(join(filler, String(i)), { force: true });
      for (let j = 0; j < free; j++) rmSync(join(filler, String(i - 1 - j)));
      return filler;
    }
  }
}

const listFiles = (dir: string) => readdirSync(dir).filter((f) => !f.startsWith('.filler'));

describe('a journal that cannot be written', () => {
  it('rows an earlier run created are reported skipped, with their ids, not "not sent"; the hint says what is wrong with the journal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-journal-link-'));
    try {
      const origins = (from: number, to: number) =>
        Array.from({ length: to - from + 1 }, (_, k) => `Farm ${from + k},CI,JL${run}-${from + k},6.8${from + k},-5.2${from + k}`);
      const header = 'name,country_code,external_id,latitude,longitude';
      const file = t.writeFile(`journal-link${++run}.csv`, [header, ...origins(1, 5)].join('\n') + '\n');
      const first = await t.sct(['origins', 'import', '--file', file, '-q'], { env: { SCT_CONFIG_DIR: dir } });
      expect(first.exitCode, first.stderr).toBe(0);
      // The file grows (an export newest first), and its journal is now a link: nothing may be written through it.
      writeFileSync(file, [header, ...origins(1, 5), ...origins(6, 8)].join('\n') + '\n');
      const journal = readdirSync(join(dir, 'journals')).find((f) => f.endsWith('.ndjson'))!;
      const path = join(dir, 'journals', journal);
      writeFileSync(join(dir, 'elsewhere.ndjson'), readFileSync(path));
      rmSync(path);
      symlinkSync(join(dir, 'elsewhere.ndjson'), path);
      const report = join(dir, 'report.csv');
      const r = await t.sct(['origins', 'import', '--file', file, '--report', report], { env: { SCT_CONFIG_DIR: dir } });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('5 of 8 origins were created by an earlier run');
      expect(r.stderr).toContain("origins: 0 created, 5 skipped (done in an earlier run), 0 rejected, 3 not sent");
      expect(r.stderr).not.toContain('make room');
      expect(r.stderr).toContain('not a regular file');
      const rows = parse(readFileSync(report), { columns: true }) as Array<{ line: string; status: string; id: string }>;
      expect(rows.map((x) => [x.line, x.status, x.id !== ''])).toEqual([
        ['2', 'skipped', true], ['3', 'skipped', true], ['4', 'skipped', true], ['5', 'skipped', true], ['6', 'skipped', true],
        ['7', 'not_sent', false], ['8', 'not_sent', false], ['9', 'not_sent', false],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(mountProblem !== undefined)(`full disks${mountProblem ? ` (skipped: ${mountProblem})` : ''}`, () => {
  it('stdout redirected into a file on a full disk: exit 1, "writing output: …", never exit 0', async () => {
    const { dir } = fullDisk(8, 1);
    const out = join(dir, 'export.json');
    const r = await bash(`$SCT orders list --buying --all -o json > '${out}'`);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: writing output: .*(ENOSPC|no space left)/i);
    const full = await bash(`$SCT orders list --buying --all -o json`);
    expect(full.stdout.length, 'the export is larger than the room left').toBeGreaterThan(PAGE);
  });

  it('an export for the registry split into files that the disk cannot hold whole: no file of it is written, and an earlier export stays as it was', async () => {
    const { dir, makeRoom } = fullDisk(64, 2);
    const out = join(dir, 'exp');
    const args = ['origins', 'list', '-o', 'geojson', '--eudr', '--max-size', '2kB', '--out', `${out}/`];
    const cut = await t.sct(args);
    expect(cut.exitCode, cut.stderr).toBe(1);
    expect(cut.stderr).toMatch(/error: writing .*origins-\d+\.geojson: .*(ENOSPC|no space left)/i);
    // Neither some files of the set nor their part files: the directory made for them goes too.
    expect(existsSync(out)).toBe(false);
    makeRoom();
    const whole = await t.sct(args);
    expect(whole.exitCode, whole.stderr).toBe(0);
    const before = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]));
    expect(before.size, 'the export is split into several files').toBeGreaterThan(2);
    // A new origin, the disk full again: the rerun with --force fails, and the earlier set is whole.
    expect((await t.sct(['origins', 'create', '--name', 'Farm Late', '--country-code', 'CI', '--location', '6.1,-5.9'])).exitCode).toBe(0);
    fillUp(dir, 1, '.filler2');
    const again = await t.sct([...args, '--force']);
    expect(again.exitCode, again.stderr).toBe(1);
    expect(new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]))).toEqual(before);
  });

  it('a --report in a read-only directory is refused before the first request: exit 2', async () => {
    const { dir } = fullDisk(4, 4);
    const ro = spawnSync('mount', ['-o', 'remount,ro', dir], { encoding: 'utf8' });
    expect(ro.status, ro.stderr).toBe(0);
    const { file } = people(3);
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--report', join(dir, 'report.csv')]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the directory of --report ${join(dir, 'report.csv')} is not writable`);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('a bulk run whose stdout is a file on a full disk: the report and the summary are written, exit 1 "writing output"', async () => {
    const { dir } = fullDisk(4, 0);
    const { file, domain } = people(200, (i) => (i === 3 ? '1' : '3'));
    const report = join(t.dir, 'report.csv');
    const r = await bash(`$SCT invitations bulk-create --file '${file}' --report '${report}' -o json > '${join(dir, 'rows.json')}'`);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('invitations: 199 created, 1 rejected — report in');
    expect(r.stderr).toMatch(/error: writing output: .*(ENOSPC|no space left)/i);
    const rows = parse(readFileSync(report), { columns: true }) as Array<{ status: string }>;
    expect(rows.filter((x) => x.status === 'created')).toHaveLength(199);
    expect((await invitedCounts(domain)).size).toBe(199);
  });

  it('stdout and the report both on a full disk: each failure is said, not the report alone', async () => {
    const { dir } = fullDisk(4, 0);
    const { file } = people(120);
    const report = join(dir, 'report.csv');
    const r = await bash(`$SCT invitations bulk-create --file '${file}' --report '${report}' -o json > '${join(dir, 'rows.json')}'`);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`error: writing the report ${report}: .*(ENOSPC|no space left)`, 'i'));
    expect(r.stderr).toMatch(/error: writing output: .*(ENOSPC|no space left)/i);
  });

  it('a report that cannot be written after the rows went through: the rows and the summary on stderr, exit 1, no temporary file', async () => {
    const { dir, makeRoom } = fullDisk(4, 0);
    const { file, domain } = people(5, (i) => (i === 2 ? '1' : '3'));
    const report = join(dir, 'report.csv');
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--report', report]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`error: writing the report ${report}: .*(ENOSPC|no space left)`, 'i'));
    expect(r.stderr).toContain('invitations: 4 created, 1 rejected');
    for (let i = 0; i < 5; i++) expect(r.stderr).toMatch(new RegExp(`line ${i + 2} \\(p${i}@${domain}\\): ${i === 2 ? 'rejected' : 'created [0-9a-f-]{36}'}`));
    expect(listFiles(dir)).toEqual([]);
    expect((await invitedCounts(domain)).size).toBe(4);
    // With room again, the rerun (same command) skips what went through and writes the report.
    makeRoom();
    const again = await t.sct(['invitations', 'bulk-create', '--file', file, '--report', report]);
    expect(again.exitCode, again.stderr).toBe(3);
    expect(again.stderr).toContain('4 skipped');
    expect(listFiles(dir)).toEqual(['report.csv']);
  });

  it('a journal that cannot be written mid-run: what went through is reported, the rest not sent, exit 1; the rerun converges', async () => {
    // Room for the run's lock, the record of the file's name (journals/files/) and the journal's
    // first page of lines, not for 100 orders.
    const { dir, makeRoom } = fullDisk(16, 3);
    const product = (await t.api('/products?limit=1')).results[0].id;
    const ids = Array.from({ length: 100 }, (_, i) => `JF${run}-${i + 1}`);
    const lines = ['external_id,type,order_created_at,seller_company_id,product,volume,unit', ...ids.map((id, i) => `${id},order,2025-06-01,101,${product},${i + 1},kg`)];
    const file = t.writeFile(`orders${++run}.csv`, lines.join('\n') + '\n');
    const args = ['orders', 'import', '--purchase', '--file', file, '--concurrency', '3', '-o', 'json'];
    const orderCounts = async () => {
      const list = { results: await t.ordersWith(ids) };
      const counts = new Map<string, number>();
      for (const o of list.results as Array<{ external_id: string }>) counts.set(o.external_id, (counts.get(o.external_id) ?? 0) + 1);
      return counts;
    };

    const r = await t.sct(args, { env: { SCT_CONFIG_DIR: dir } });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: writing the journal .*(ENOSPC|no space left)/i);
    expect(r.stderr).toMatch(/purchase orders: \d+ created, 0 rejected, \d+ not sent/);
    const rows = JSON.parse(r.stdout) as Array<{ key: string; status: string }>;
    // Nothing claimed done that was not, nothing done that is not claimed; each row on stderr too.
    const counts = await orderCounts();
    expect(new Set(rows.filter((x) => x.status === 'created').map((x) => x.key))).toEqual(new Set(counts.keys()));
    expect(counts.size).toBeGreaterThan(0);
    expect(counts.size).toBeLessThan(100);
    expect(r.stderr).toContain(`line 2 (${ids[0]}): created`);
    expect(r.stderr).toContain(`line 101 (${ids[99]}): not_sent`);
    expect(tempFiles(dir)).toEqual([]);
    expect(readdirSync(join(dir, 'journals')).filter((f) => f.endsWith('.lock'))).toEqual([]);

    makeRoom();
    const again = await t.sct(args, { env: { SCT_CONFIG_DIR: dir } });
    expect(again.exitCode, again.stderr).toBe(0);
    const after = await orderCounts();
    expect(after.size).toBe(100);
    expect([...after.values()].every((n) => n === 1), 'an order created twice').toBe(true);
  });

  it('a damaged journal that cannot be repaired on a full disk: exit 1 naming the journal and where to make room, nothing sent', async () => {
    const { dir } = fullDisk(64, 40);
    const { file } = people(60);
    const args = ['invitations', 'bulk-create', '--file', file, '--concurrency', '1'];
    const first = await t.sct(args, { env: { SCT_CONFIG_DIR: dir } });
    expect(first.exitCode, first.stderr).toBe(0);
    // Torn as a power cut leaves it (its last record cut), then the disk filled by something else.
    const journal = readdirSync(join(dir, 'journals')).find((f) => f.endsWith('.ndjson'))!;
    const path = join(dir, 'journals', journal);
    const text = readFileSync(path);
    writeFileSync(path, text.subarray(0, text.length - 30));
    // Room for the run's lock (a page), not for the repaired journal's copy (several).
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(dir, `.more-filler-${i}`), Buffer.alloc(PAGE, 1));
      } catch {
        rmSync(join(dir, `.more-filler-${i}`), { force: true });
        rmSync(join(dir, `.more-filler-${i - 1}`));
        break;
      }
    }
    const before = posts().length;
    const r = await t.sct(args, { env: { SCT_CONFIG_DIR: dir } });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`error: writing the journal ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*(ENOSPC|no space left)`, 'i'));
    expect(r.stderr).toContain('make room where sct keeps its configuration (SCT_CONFIG_DIR)');
    expect(posts().length).toBe(before);
    expect(tempFiles(dir)).toEqual([]);
  });

  it('a journal that fails on a bulk answer: its rows are still reported as the service answered, and no row is created twice', async () => {
    // Room for the lock, the record of the file's name and a few pages of the journal, whose rows
    // are each on record twice (as sent, then its answer): it fills before the 300 rows are through.
    const { dir, makeRoom } = fullDisk(32, 12);
    const { file, domain } = people(300);
    // One chunk at a time, so some are left unsent when the journal fails, wherever the disk fills.
    const args = ['invitations', 'bulk-create', '--file', file, '--concurrency', '1', '-o', 'json'];
    const r = await t.sct(args, { env: { SCT_CONFIG_DIR: dir } });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: writing the journal .*(ENOSPC|no space left)/i);
    // Where the disk fills depends on the journal's record size: some chunks went through, not all.
    const summary = /invitations: (\d+) created, 0 rejected, (\d+) not sent/.exec(r.stderr);
    expect(summary, r.stderr).not.toBeNull();
    const [created, notSent] = [Number(summary![1]), Number(summary![2])];
    expect(created).toBeGreaterThan(0);
    expect(created + notSent, r.stderr).toBe(300);
    expect(notSent).toBeGreaterThan(0);
    const rows = JSON.parse(r.stdout) as Array<{ key: string; status: string }>;
    expect(new Set(rows.filter((x) => x.status === 'created').map((x) => x.key))).toEqual(new Set((await invitedCounts(domain)).keys()));
    expect(tempFiles(dir)).toEqual([]);
    makeRoom();
    const rerun = await t.sct(args, { env: { SCT_CONFIG_DIR: dir } });
    const after = await invitedCounts(domain);
    expect(after.size, `${r.stderr}\n${rerun.stderr}`).toBe(300);
    expect([...after.values()].every((n) => n === 1), 'an address invited twice').toBe(true);
  });

  it('records of the requests about to go out that only part fits: nothing more is sent, and an edited rerun converges with no row rejected', async () => {
    // Room for the lock and a few pages of records: the record of the first four requests in
    // flight (400 rows) is cut short by the full disk, where a write of part of it raised nothing.
    const { dir, makeRoom } = fullDisk(96, 4);
    const { file, domain } = people(450);
    const args = ['invitations', 'bulk-create', '--file', file, '--concurrency', '4', '--report', join(t.dir, `r${run}.csv`)];
    const r = await t.sct(args, { env: { SCT_CONFIG_DIR: dir } });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: writing the journal .*(ENOSPC|no space left)/i);
    const sentFirst = posts().length;
    makeRoom();
    // An ordinary edit: one row more, at the top.
    writeFileSync(file, readFileSync(file, 'utf8').replace('email,auth_group\n', `email,auth_group\nfirst@${domain},3\n`));
    const again = await t.sct([...args, '--force'], { env: { SCT_CONFIG_DIR: dir } });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/rejected: [1-9]|\d+ rejected(?<!0 rejected)/);
    const invited = (await t.api(`/accounts/user-invitations?limit=1000&search=${domain}`)).results as Array<{ email: string }>;
    expect(invited).toHaveLength(451);
    expect(new Set(invited.map((i) => i.email)).size).toBe(451);
    expect(sentFirst).toBeLessThan(4);
  });

  it('a configuration directory on a read-only file system: the bulk run says so (Node says "no such file"), nothing sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-ro-'));
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', dir], { encoding: 'utf8' });
    if (m.status !== 0) throw new Error(`mount: ${m.stderr}`);
    mounts.push(dir);
    const { file } = people(2);
    const r = await t.sct(['invitations', 'bulk-create', '--file', file], { env: { SCT_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`error: making the journals directory ${join(dir, 'journals')}: ${dir} cannot be written (a read-only file system)`);
    expect(r.stderr).toContain('is read-only now: make it writable, or give SCT_CONFIG_DIR on one that is');
    expect(r.stderr).not.toContain('make room');
    expect(posts()).toHaveLength(0);
  });

  it("a journals directory that is there but on a read-only file system: the lock file's error says so in words, with what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-rojournals-'));
    mkdirSync(join(dir, 'journals'));
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', join(dir, 'journals')], { encoding: 'utf8' });
    if (m.status !== 0) throw new Error(`mount: ${m.stderr}`);
    mounts.push(join(dir, 'journals'));
    const { file } = people(2);
    const r = await t.sct(['invitations', 'bulk-create', '--file', file], { env: { SCT_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/error: cannot create the lock file .*: a read-only file system/);
    expect(r.stderr).toContain(`hint: ${join(dir, 'journals')} is on a read-only file system: set SCT_CONFIG_DIR to a directory on one that is not`);
    expect(posts()).toHaveLength(0);
  });

  it('doctor: a configuration directory that cannot be made (its parent on a read-only file system) is said, not "ok"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-ro-'));
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', dir], { encoding: 'utf8' });
    if (m.status !== 0) throw new Error(`mount: ${m.stderr}`);
    mounts.push(dir);
    const r = await t.sct(['doctor', '-o', 'json'], { env: { SCT_CONFIG_DIR: join(dir, 'sct') } });
    const check = (JSON.parse(r.stdout) as Array<{ name: string; level: string; detail: string }>).find((c) => c.name === 'config_dir');
    expect(check).toMatchObject({ level: 'warn' });
    expect(check!.detail).toContain(`${join(dir, 'sct')} does not exist and cannot be made: ${dir} cannot be written (a read-only file system)`);
    expect(check!.detail).toContain('SCT_CONFIG_DIR');
    // A link to nothing on the way (a moved dotfiles folder): said too, not looked through.
    const home = mkdtempSync(join(tmpdir(), 'sct-link-'));
    symlinkSync(join(home, 'gone'), join(home, '.config'));
    const linked = await t.sct(['doctor', '-o', 'json'], { env: { SCT_CONFIG_DIR: join(home, '.config', 'sct') } });
    const said = (JSON.parse(linked.stdout) as Array<{ name: string; level: string; detail: string }>).find((c) => c.name === 'config_dir');
    expect(said).toMatchObject({ level: 'warn' });
    expect(said!.detail).toContain(`${join(home, '.config')} is a link to ${join(home, 'gone')}, which does not exist`);
    rmSync(home, { recursive: true, force: true });
  });

  it('a workspace switch the profile cannot record: the service has switched, and the error says so', async () => {
    const { dir } = fullDisk(16, 8);
    const env = { SCT_CONFIG_DIR: dir, SCT_TOKEN: undefined };
    const login = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token', '--insecure-storage'], { env, input: 'sct_demo_multi' });
    expect(login.exitCode, login.stderr).toBe(0);
    fillUp(dir, 0, '.filler2');
    const r = await t.sct(['workspaces', 'switch', '3'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: switched to workspace 3 on the service, but profile "default" could not record it: ');
    expect(r.stderr).toContain('hint: run `sct workspaces switch 3` again once the config file can be written');
  });

  it('a config file that cannot be written: non-zero exit, the file as it was, no temporary file', async () => {
    const { dir, makeRoom } = fullDisk(4, 0);
    makeRoom();
    const first = await t.sct(['config', 'set', 'output', 'json'], { env: { SCT_CONFIG_DIR: dir } });
    expect(first.exitCode, first.stderr).toBe(0);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    // Fill the disk again, to the last byte.
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(dir, `.fill${i}`), Buffer.alloc(PAGE, 1));
      } catch {
        break;
      }
    }
    const r = await t.sct(['config', 'set', 'output', 'ndjson'], { env: { SCT_CONFIG_DIR: dir } });
    expect(r.exitCode, r.stderr).not.toBe(0);
    expect(r.stderr).toMatch(/ENOSPC|no space left/i);
    expect(r.stderr).toContain(`cannot create the lock file ${join(dir, 'config.json.lock')}: `);
    // A page free: room for the lock, not for the new file: the file is named too.
    rmSync(join(dir, '.fill0'));
    const named = await t.sct(['config', 'set', 'output', 'ndjson'], { env: { SCT_CONFIG_DIR: dir } });
    expect(named.exitCode, named.stderr).toBe(1);
    expect(named.stderr).toMatch(new RegExp(`writing the config file ${join(dir, 'config.json').replace(/[.*+?^$()|[\]\\]/g, '\\$&')}: .*(ENOSPC|no space left).*; it is as it was`));
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    expect(tempFiles(dir)).toEqual([]);
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  });
});
