// The one reader of files and stdin, and the one atomic write every file sct keeps goes through.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, lstatSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { readInput, readInputText, writeAtomically } from '../../src/util/files.js';
import { UsageError } from '../../src/errors.js';
import { removeDir, tempDir } from '../helpers/sct.js';

let dir = '';
afterEach(() => removeDir(dir));

describe('readInput', () => {
  it('reads stdin for -, in chunks of text or bytes', async () => {
    expect((await readInput('-', Readable.from([Buffer.from('a,'), 'b\n']))).toString()).toBe('a,b\n');
    expect(await readInputText('-', Readable.from(['é', Buffer.from('x')]))).toBe('éx');
  });

  it('reads a file, and names one it cannot read (and what it was for)', async () => {
    dir = tempDir();
    writeFileSync(join(dir, 'a.json'), '{}');
    expect(await readInputText(join(dir, 'a.json'), Readable.from([]))).toBe('{}');
    const missing = join(dir, 'missing.json');
    await expect(readInput(missing, Readable.from([]))).rejects.toThrow(new RegExp(`^cannot read ${missing}: no such file$`));
    await expect(readInputText(missing, Readable.from([]), { what: '-F' })).rejects.toThrow(`cannot read ${missing} for -F: no such file`);
    await expect(readInputText(missing, Readable.from([]))).rejects.toBeInstanceOf(UsageError);
    const broken = new Readable({ read() { this.destroy(new Error('pipe broke')); } });
    await expect(readInput('-', broken)).rejects.toThrow('cannot read stdin: pipe broke');
  });
});

describe('writeAtomically', () => {
  it('replaces a symlink at the path itself, never writing through it, and leaves no temporary', () => {
    dir = tempDir();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const path = join(dir, 'state.json');
    symlinkSync(victim, path);
    writeAtomically(path, '{"a":1}\n', 0o600);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(path).isFile()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'victim.txt']);
  });

  it('gives a private file exactly its mode, whatever the mode of the file it replaces', () => {
    dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, 'old');
    chmodSync(path, 0o666);
    writeAtomically(path, 'new', 0o600);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('leaves the umask its say for a file the user reads', () => {
    dir = tempDir();
    const path = join(dir, 'report.csv');
    const old = process.umask(0o077);
    try {
      writeAtomically(path, 'line\n', 0o644, { umask: true });
    } finally {
      process.umask(old);
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('fails on a directory it cannot write to, leaving nothing', () => {
    dir = tempDir();
    expect(() => writeAtomically(join(dir, 'nope', 'x.json'), 'x', 0o600)).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
