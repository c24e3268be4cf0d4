import { describe, it, expect, afterEach } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileNameFromDisposition, resolveTarget, safeFileName, saveStream } from '../../src/output/download.js';
import { tempDir, removeDir } from '../helpers/sct.js';

const dirs: string[] = [];
const dir = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('safeFileName', () => {
  it('keeps one harmless path segment', () => {
    expect(safeFileName('RA-2026-0042.zip')).toBe('RA-2026-0042.zip');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('..\\..\\boot.ini')).toBe('boot.ini');
    expect(safeFileName('.hidden')).toBe('hidden');
    expect(safeFileName('..')).toBe('download');
    expect(safeFileName('a\u001b[31mb:c.zip')).toBe('ab_c.zip');
  });
  it('reads Content-Disposition names', () => {
    expect(fileNameFromDisposition('attachment; filename="RA-1.zip"')).toBe('RA-1.zip');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%C3%A9vidence.zip")).toBe('évidence.zip');
    expect(fileNameFromDisposition(undefined)).toBeUndefined();
  });
});

describe('resolveTarget', () => {
  it('puts the file in the current directory, a named directory, or at a named path', () => {
    const cwd = dir();
    mkdirSync(join(cwd, 'evidence'));
    expect(resolveTarget(undefined, 'a.zip', { cwd }).path).toBe(join(cwd, 'a.zip'));
    expect(resolveTarget('evidence', 'a.zip', { cwd }).path).toBe(join(cwd, 'evidence', 'a.zip'));
    expect(resolveTarget('new-dir/', 'a.zip', { cwd }).path).toBe(join(cwd, 'new-dir', 'a.zip'));
    expect(resolveTarget('out.zip', 'a.zip', { cwd }).path).toBe(join(cwd, 'out.zip'));
  });
  it('never leaves the directory, even for a hostile name', () => {
    const cwd = dir();
    expect(resolveTarget('.', '../../x.zip', { cwd }).path).toBe(join(cwd, 'x.zip'));
  });
  it('refuses to overwrite without force', () => {
    const cwd = dir();
    writeFileSync(join(cwd, 'a.zip'), 'old');
    expect(() => resolveTarget(undefined, 'a.zip', { cwd })).toThrow(/already exists: pass --force/);
    expect(resolveTarget(undefined, 'a.zip', { cwd, force: true }).path).toBe(join(cwd, 'a.zip'));
  });
});

describe('saveStream', () => {
  it('writes the whole body, then renames it into place', async () => {
    const cwd = dir();
    const target = resolveTarget(undefined, 'f.bin', { cwd });
    const n = await saveStream(Readable.from([Buffer.from('hello '), Buffer.from('world')]), target);
    expect(n).toBe(11);
    expect(readFileSync(target.path, 'utf8')).toBe('hello world');
    expect(readdirSync(cwd)).toEqual(['f.bin']);
  });
  it('leaves nothing behind when the stream fails', async () => {
    const cwd = dir();
    const target = resolveTarget(undefined, 'f.bin', { cwd });
    const broken = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(saveStream(broken, target)).rejects.toThrow('connection reset');
    expect(existsSync(target.path)).toBe(false);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('progress', () => {
  it('formats sizes and draws a bar when the total is known', async () => {
    const { formatBytes, progressLine, byteProgress } = await import('../../src/output/progress.js');
    expect([0, 999, 1536, 12_345_678, 3e12].map(formatBytes)).toEqual(['0 B', '999 B', '1.5 kB', '12 MB', '3.0 TB']);
    expect(progressLine('Uploading a.pdf', 250, 1000)).toBe('Uploading a.pdf █████░░░░░░░░░░░░░░░ 25% 250 B of 1.0 kB');
    expect(progressLine('Downloading', 2048)).toBe('Downloading 2.0 kB');
    // Redrawn at most every 100 ms, and always at the end.
    const texts: string[] = [];
    let now = 0;
    const onBytes = byteProgress({ update: (t) => texts.push(t), stop() {} }, 'x', 300, () => now);
    onBytes(100);
    now = 50;
    onBytes(200);
    onBytes(300);
    expect(texts).toEqual(['x ███████░░░░░░░░░░░░░ 33% 100 B of 300 B', 'x ████████████████████ 100% 300 B of 300 B']);
  });
});
