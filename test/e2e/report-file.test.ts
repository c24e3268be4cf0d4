// A bulk run's --report as cli-spec "Files written" has it: checked before the first request (a
// directory is no report file), never replacing a file another process created meanwhile, and
// written into a device (/dev/null) or a FIFO rather than replacing it, and never waiting
// for a FIFO's reader.
import { describe, expect, it } from 'vitest';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ rateLimit: 100_000 }, { inProcess: true });
const people = (name: string) => t.writeFile(`in-${name}`, `email,auth_group\n${name.replace(/\W/g, '')}.${Date.now()}@report.example,3\n`);
const posts = () => t.sb.requests.filter((q) => q.method === 'POST');

describe('--report', () => {
  it('a file another process creates at that name during the run is kept: the outcomes go to stderr, exit 1', async () => {
    const report = join(t.dir, 'taken.csv');
    t.sb.setBeforeHandle(({ method }) => {
      if (method === 'POST') writeFileSync(report, 'I WAS HERE FIRST\n');
    });
    const r = await t.sct(['invitations', 'bulk-create', '--file', people('taken.csv'), '--report', report]);
    expect(r.exitCode).toBe(1);
    expect(readFileSync(report, 'utf8')).toBe('I WAS HERE FIRST\n');
    expect(r.stderr).toContain(`${report} already exists: another process created it while the run went on; nothing was replaced`);
    expect(r.stderr).toMatch(/line 2 \(.*\): created /);
  });

  it('with --force, only the file that was there at the start is replaced', async () => {
    const report = join(t.dir, 'mine.csv');
    writeFileSync(report, 'an old report\n');
    const r = await t.sct(['invitations', 'bulk-create', '--file', people('mine.csv'), '--report', report, '--force']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(report, 'utf8')).toMatch(/^line,key,status,id,error\n2,/);
  });

  it('--report - is exit 2 before anything is sent, never a file named "-" in the current directory', async () => {
    const cwd = join(t.dir, 'dash');
    mkdirSync(cwd);
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', people('dash.csv'), '--report', '-'], { cwd });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--report -: the report is a CSV file: name one');
    expect(existsSync(join(cwd, '-'))).toBe(false);
  });

  it('--report given empty (a script\'s unset variable) is exit 2, not a run without its report', async () => {
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', people('empty-report.csv'), '--report', '']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--report needs a file name');
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('a device is written into, never replaced, without --force', async () => {
    const r = await t.sct(['invitations', 'bulk-create', '--file', people('null.csv'), '--report', '/dev/null']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('a symbolic link to a device or a FIFO (/dev/stdout, /dev/fd/1) is written into through it, never replaced; a link to a file still needs --force', async () => {
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', people('stdout.csv'), '--report', '/dev/stdout', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/line,key,status,id,error\n2,.*,created,/);
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);

    const fifo = join(t.dir, 'through.fifo');
    execFileSync('mkfifo', [fifo]);
    const link = join(t.dir, 'report-link');
    symlinkSync(fifo, link);
    const reader = readFile(fifo, 'utf8');
    const viaLink = await t.sctBin(['invitations', 'bulk-create', '--file', people('link.csv'), '--report', link]);
    expect(viaLink.exitCode, viaLink.stderr).toBe(0);
    expect(await reader).toMatch(/^line,key,status,id,error\n2,.*,created,/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);

    const file = join(t.dir, 'plain.csv');
    writeFileSync(file, 'kept\n');
    const toFile = join(t.dir, 'file-link');
    symlinkSync(file, toFile);
    const refused = await t.sct(['invitations', 'bulk-create', '--file', people('file-link.csv'), '--report', toFile]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('already exists: pass --force');
    expect(readFileSync(file, 'utf8')).toBe('kept\n');
  });

  it('a FIFO is written into while its reader reads, and one no process reads ends the run at once, exit 1', async () => {
    const fifo = join(t.dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = readFile(fifo, 'utf8');
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', people('fifo.csv'), '--report', fifo]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await reader).toMatch(/^line,key,status,id,error\n2,.*,created,/);
    // No reader: the open would have waited for one, with neither Ctrl-C nor SIGTERM able to end it.
    const started = Date.now();
    const alone = await t.sctBin(['invitations', 'bulk-create', '--file', people('alone.csv'), '--report', fifo], { timeout: 20_000 });
    expect(alone.exitCode, alone.stderr).toBe(1);
    expect(alone.stderr).toContain(`--report ${fifo} is a FIFO that no process reads: the report was not written`);
    expect(alone.stderr).toMatch(/line 2 \(.*\): created /);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a journals directory that cannot be made is said as such, nothing sent', async () => {
    const config = join(t.dir, 'config-with-a-file');
    mkdirSync(config);
    writeFileSync(join(config, 'journals'), 'x');
    const r = await t.sct(['invitations', 'bulk-create', '--file', people('nojournal.csv')], { env: { SCT_CONFIG_DIR: config } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`error: making the journals directory ${join(config, 'journals')}: a file is there, not a directory`);
    // The hint follows the cause: no disk to make room on.
    expect(r.stderr).toContain('hint: a bulk run keeps its journal there, before it sends anything: a file is in the way of the directory where sct keeps its journals (SCT_CONFIG_DIR)');
    expect(r.stderr).not.toContain('make room');
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toEqual([]);
    // A link to nothing where the directory goes, one to itself, and two to each other: named as such.
    for (const [target, said] of [
      ['/nonexistent/journals', 'that leads to no file or directory'],
      ['journals', 'in a loop of links: it leads to no file or directory'],
      ['other', 'in a loop of links: it leads to no file or directory'],
    ] as const) {
      const linked = join(t.dir, `config-with-a-link-${target.length}`);
      mkdirSync(linked);
      symlinkSync(target, join(linked, 'journals'));
      if (target === 'other') symlinkSync('journals', join(linked, 'other'));
      const l = await t.sct(['invitations', 'bulk-create', '--file', people('nojournal.csv')], { env: { SCT_CONFIG_DIR: linked } });
      expect(l.exitCode).toBe(1);
      expect(l.stderr).toContain(`error: making the journals directory ${join(linked, 'journals')}: ${join(linked, 'journals')} is a symbolic link (to ${target}) ${said}\n`);
      expect(l.stderr).toContain('fix or remove the link, or give SCT_CONFIG_DIR elsewhere');
    }
  });

  it('a directory is no report file: exit 2 before any request, with --force too', async () => {
    const dir = join(t.dir, 'adir');
    mkdirSync(dir);
    for (const force of [[], ['--force']]) {
      const r = await t.sct(['invitations', 'bulk-create', '--file', people('dir.csv'), '--report', dir, ...force]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--report ${dir} is a directory: name a file in it`);
    }
    expect(posts()).toEqual([]);
  });
});
