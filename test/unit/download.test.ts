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
    expect(safeFileName('/etc/x')).toBe('x');
    // An identifier's slashes are kept apart, not cut off: two assessments never share a file.
    expect(safeFileName('EU/2025/001.zip')).toBe('EU_2025_001.zip');
    expect(safeFileName('US\\2025\\001.zip')).toBe('US_2025_001.zip');
    // A name that is an extension alone gets a name in front, rather than becoming a bare "zip".
    expect(safeFileName('.hidden')).toBe('download.hidden');
    expect(safeFileName('.zip')).toBe('download.zip');
    expect(safeFileName('..')).toBe('download');
    expect(safeFileName('a\u001b[31mb:c.zip')).toBe('ab_c.zip');
  });
  it('fits in 255 bytes of UTF-8, never cutting a character, keeping the extension', () => {
    const accents = safeFileName('é'.repeat(150) + '.pdf');
    expect(accents).toBe('é'.repeat(125) + '.pdf');
    const ascii = safeFileName('a'.repeat(300) + '.zip');
    expect(ascii).toBe('a'.repeat(251) + '.zip');
    // 4-byte characters: a cut at 251 bytes falls inside one, which is left out whole.
    const emoji = safeFileName('😀'.repeat(100) + '.zip');
    expect(Buffer.byteLength(emoji)).toBe(252);
    expect(emoji).toBe('😀'.repeat(62) + '.zip');
    expect(Buffer.byteLength(safeFileName('x'.repeat(400)))).toBe(255);
    // Nor a letter made of several code points: a flag (two regional indicators), a letter and
    // its accent, a family joined by ZWJ.
    const flags = safeFileName('abcd' + '🇧🇪'.repeat(40) + '.pdf');
    expect(flags).toBe('abcd' + '🇧🇪'.repeat(30) + '.pdf');
    expect(safeFileName('e\u0301'.repeat(100) + '.zip')).toBe('e\u0301'.repeat(83) + '.zip');
    // The Unicode line and paragraph separators are no part of a file name.
    expect(safeFileName('line\u2028sep\u2029x.pdf')).toBe('line_sep_x.pdf');
    // Without a short extension the name is cut at its end.
    expect(safeFileName('b'.repeat(200) + '.' + 'c'.repeat(100))).toBe('b'.repeat(200) + '.' + 'c'.repeat(54));
  });
  it('never makes a name Windows reads as a device, or one ending in a dot or a space', () => {
    expect(safeFileName('CON')).toBe('_CON');
    expect(safeFileName('aux.txt')).toBe('_aux.txt');
    expect(safeFileName('NUL.pdf')).toBe('_NUL.pdf');
    expect(safeFileName('com1')).toBe('_com1');
    expect(safeFileName('lpt9.zip')).toBe('_lpt9.zip');
    expect(safeFileName('name.')).toBe('name');
    expect(safeFileName('report .pdf')).toBe('report.pdf');
    expect(safeFileName('CONSOLE.txt')).toBe('CONSOLE.txt');
    expect(safeFileName('com10')).toBe('com10');
  });
  it('never makes a name out of dots alone', () => {
    expect(safeFileName('...zip')).toBe('download.zip');
    expect(safeFileName('..zip')).toBe('download.zip');
    expect(safeFileName('...')).toBe('download');
    expect(safeFileName(' . .zip')).toBe('download.zip');
    expect(safeFileName('../..')).toBe('download');
    expect(safeFileName('..', 'evidence')).toBe('evidence');
    expect(safeFileName(' .hidden.')).toBe('hidden');
    expect(safeFileName('report.tar.gz')).toBe('report.tar.gz');
  });
  it('reads Content-Disposition names', () => {
    expect(fileNameFromDisposition('attachment; filename="RA-1.zip"')).toBe('RA-1.zip');
    // A quoted name's `;` and escaped quotes (RFC 6266).
    expect(fileNameFromDisposition('attachment; filename="RA-7; final.zip"')).toBe('RA-7; final.zip');
    expect(fileNameFromDisposition('attachment; filename="RA \\"7\\".zip"; size=3')).toBe('RA "7".zip');
    expect(fileNameFromDisposition('attachment; filename=RA-8.zip; size=3')).toBe('RA-8.zip');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%C3%A9vidence.zip")).toBe('évidence.zip');
    expect(fileNameFromDisposition(undefined)).toBeUndefined();
    expect(fileNameFromDisposition("attachment; FILENAME*=utf-8'en'r%C3%A9sum%C3%A9.pdf")).toBe('résumé.pdf');
    // A plain filename in UTF-8, as Node hands a header over (a character a byte): read as UTF-8.
    expect(fileNameFromDisposition(`attachment; filename="${Buffer.from('naïve ⌘.zip').toString('latin1')}"`)).toBe('naïve ⌘.zip');
    // Latin-1 that is no UTF-8 stays as it is.
    expect(fileNameFromDisposition('attachment; filename="caf\u00e9.zip"')).toBe('café.zip');
  });
  it('reads a Content-Disposition name made of dots as no name, so the caller picks one', () => {
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%2E%2E")).toBeUndefined();
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%2E%2E.zip")).toBeUndefined();
    expect(fileNameFromDisposition('attachment; filename=".."')).toBeUndefined();
    expect(fileNameFromDisposition('attachment; filename="../../.zip"')).toBeUndefined();
    // A useless filename* leaves the plain filename to be read.
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''%2E%2E; filename="RA-7.zip"`)).toBe('RA-7.zip');
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
  it('saves a file whose name takes all 255 bytes (the temporary name fits too)', async () => {
    const cwd = dir();
    for (const name of ['é'.repeat(150) + '.pdf', 'a'.repeat(300) + '.zip', '😀'.repeat(100)]) {
      const target = resolveTarget(undefined, name, { cwd });
      await saveStream(Readable.from([Buffer.from('x')]), target);
      expect(readFileSync(target.path, 'utf8')).toBe('x');
    }
    expect(readdirSync(cwd).sort()).toEqual(['a'.repeat(251) + '.zip', 'é'.repeat(125) + '.pdf', '😀'.repeat(63)].sort());
    // --out naming a file of 255 bytes: the temporary file beside it is shortened, not refused.
    const named = resolveTarget(join(cwd, 'n'.repeat(255)), 'ignored', { cwd });
    await saveStream(Readable.from([Buffer.from('y')]), named);
    expect(readFileSync(named.path, 'utf8')).toBe('y');
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
    const { progressLine, byteProgress } = await import('../../src/output/progress.js');
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
