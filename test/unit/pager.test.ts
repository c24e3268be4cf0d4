// The pager at a terminal (as gh): which command, and that only data longer than the terminal goes through it.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIO, pagerCommand } from '../../src/output/iostreams.js';

function terminal(pager: string | undefined, rows: number, stdoutIsTTY = true) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  const err = new PassThrough();
  let errText = '';
  err.on('data', (c: Buffer) => (errText += c.toString()));
  const io = createIO({ stdout: out, stderr: err, stdin: new PassThrough(), stdoutIsTTY, stderrIsTTY: true, stdinIsTTY: true, pager, rows }, { PATH: process.env.PATH });
  return { io, stdout: () => text, stderr: () => errText };
}

describe('pager', () => {
  it('SCT_PAGER, else PAGER, else less -FRX when installed; cat or empty turns it off', () => {
    expect(pagerCommand({ SCT_PAGER: 'most', PAGER: 'more', PATH: '' })).toBe('most');
    expect(pagerCommand({ PAGER: 'more', PATH: '' })).toBe('more');
    expect(pagerCommand({ SCT_PAGER: '', PAGER: 'more' })).toBeUndefined();
    expect(pagerCommand({ SCT_PAGER: 'cat', PAGER: 'more' })).toBeUndefined();
    expect(pagerCommand({ PAGER: 'cat' })).toBeUndefined();
    expect(pagerCommand({ PATH: '/nonexistent' })).toBeUndefined();
    if (existsSync('/usr/bin/less')) expect(pagerCommand({ PATH: '/usr/bin', TERM: 'xterm' })).toBe('less -FRX');
    // A terminal that names no TERM (less: "not fully functional", waiting for RETURN), and a CI
    // job even at a pseudo-terminal, get none; in CI only SCT_PAGER is taken.
    expect(pagerCommand({ PATH: '/usr/bin' })).toBeUndefined();
    expect(pagerCommand({ PATH: '/usr/bin', TERM: 'xterm', CI: 'true' })).toBeUndefined();
    expect(pagerCommand({ PATH: '/usr/bin', TERM: 'xterm', CI: '1', PAGER: 'less' })).toBeUndefined();
    expect(pagerCommand({ PATH: '/usr/bin', TERM: 'xterm', CI: 'true', SCT_PAGER: 'most' })).toBe('most');
    expect(pagerCommand({ PATH: '/usr/bin', TERM: 'xterm', CI: 'false', PAGER: 'more' })).toBe('more');
  });

  it('a line is drawn over (a spinner, a rate-limit countdown) only at a terminal that names its TERM, not dumb, outside CI', () => {
    const at = (env: NodeJS.ProcessEnv) => createIO({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), stdoutIsTTY: true, stderrIsTTY: true, stdinIsTTY: true }, env).stderrRedraws;
    expect(at({ TERM: 'xterm' })).toBe(true);
    expect(at({ TERM: 'xterm', CI: 'true' })).toBe(false);
    expect(at({ TERM: 'dumb' })).toBe(false);
    expect(at({})).toBe(false);
    expect(at({ TERM: 'xterm', CI: 'false' })).toBe(true);
  });

  it('output longer than the terminal goes through the pager; shorter output does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-pager-'));
    const long = terminal(`cat > ${join(dir, 'long.txt')}`, 5);
    for (let i = 1; i <= 12; i++) await long.io.write(`line ${i}\n`);
    await long.io.endPager();
    expect(long.stdout()).toBe('');
    expect(readFileSync(join(dir, 'long.txt'), 'utf8')).toBe(Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join(''));

    const short = terminal(`cat > ${join(dir, 'short.txt')}`, 5);
    await short.io.write('one\ntwo\n');
    expect(short.stdout()).toBe('');
    await short.io.endPager();
    expect(short.stdout()).toBe('one\ntwo\n');
    expect(existsSync(join(dir, 'short.txt'))).toBe(false);
  });

  it('counts the rows long lines wrap to: a few lines of JSON wider than the terminal are paged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-pager-'));
    const wide = terminal(`cat > ${join(dir, 'wide.txt')}`, 10);
    for (let i = 0; i < 4; i++) await wide.io.write(`${'x'.repeat(400)}\n`);
    await wide.io.endPager();
    expect(wide.stdout()).toBe('');
    expect(readFileSync(join(dir, 'wide.txt'), 'utf8').split('\n')).toHaveLength(5);
  });

  it('a note about the data follows it into the pager when one shows it, else goes to stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-pager-'));
    const long = terminal(`cat > ${join(dir, 'long.txt')}`, 5);
    for (let i = 1; i <= 12; i++) await long.io.write(`line ${i}\n`);
    await long.io.note('Showing 12 of 40');
    await long.io.endPager();
    expect(readFileSync(join(dir, 'long.txt'), 'utf8')).toMatch(/line 12\nShowing 12 of 40\n$/);
    expect(long.stderr()).toBe('');

    const short = terminal(`cat > ${join(dir, 'short.txt')}`, 5);
    await short.io.write('one\ntwo\n');
    await short.io.note('Showing 2 of 40');
    expect(short.stderr()).toBe('');
    await short.io.endPager();
    expect(short.stdout()).toBe('one\ntwo\n');
    expect(short.stderr()).toBe('Showing 2 of 40\n');

    const none = terminal(undefined, 5);
    await none.io.write('one\n');
    await none.io.note('Showing 1 of 40');
    expect(none.stderr()).toBe('Showing 1 of 40\n');
  });

  it('a pager command that is not found: the output is written directly, after one warning', async () => {
    for (const pager of ['nonexistent-pager', 'nonexistent-pager -R', '/nonexistent/less -FRX']) {
      const missing = terminal(pager, 5);
      for (let i = 1; i <= 12; i++) await missing.io.write(`line ${i}\n`);
      await missing.io.endPager();
      expect(missing.stdout()).toBe(Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join(''));
      expect(missing.stderr()).toBe(`warning: pager "${pager.split(' ')[0]}" not found: the output is written directly (SCT_PAGER=cat turns paging off)\n`);
    }
  });

  it('never when stdout is not a terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-pager-'));
    const piped = terminal(`cat > ${join(dir, 'p.txt')}`, 2, false);
    for (let i = 0; i < 10; i++) await piped.io.write(`${i}\n`);
    expect(piped.stdout().split('\n')).toHaveLength(11);
    await piped.io.endPager();
    expect(existsSync(join(dir, 'p.txt'))).toBe(false);
  });
});
