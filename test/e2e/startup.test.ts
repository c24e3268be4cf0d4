// `--version` and help are answered by src/main.ts from data the build wrote (dist/help/), before
// commander or any command is loaded. The data must be exactly what the command tree renders,
// and a terminal of another width must still get help wrapped to it.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderHelpTexts } from '../../src/cli.js';
import { BIN, ROOT, runSct, TEST_CACHE_HOME } from '../helpers/sct.js';

const HELP_DIR = join(ROOT, 'dist', 'help');
const helpFile = (path: string) => join(HELP_DIR, ...path.split(' ').filter(Boolean), 'index.txt');

describe('start-up answers from data', () => {
  it('dist/help holds every command path, each exactly as the command tree renders it from source', async () => {
    const texts = await renderHelpTexts();
    expect(texts.size).toBeGreaterThan(90);
    const stale = [...texts].filter(([path, text]) => !existsSync(helpFile(path)) || readFileSync(helpFile(path), 'utf8') !== text).map(([p]) => p || '(root)');
    expect(stale, 'dist/help is out of date: run npm run build').toEqual([]);
  });

  it('the built sct prints the prebuilt help for --help, -h and `sct help`, exit 0', async () => {
    for (const args of [['--help'], ['help'], ['orders', 'get', '--help'], ['value-chains', 'list', '-h'], ['dds', '--help']]) {
      const r = await runSct(args);
      expect(r.exitCode, args.join(' ')).toBe(0);
      const path = args.filter((a) => !a.startsWith('-') && a !== 'help').join(' ');
      expect(r.stdout, args.join(' ')).toBe(readFileSync(helpFile(path), 'utf8'));
      expect(r.stderr).toBe('');
    }
  });

  it('anything else on the line goes to the full parser: an unknown command, a value, other flags', async () => {
    const value = await runSct(['orders', 'get', '5', '--help']);
    expect(value.exitCode).toBe(0);
    expect(value.stdout).toBe(readFileSync(helpFile('orders get'), 'utf8'));
    // No such command: commander's answer, the root help (as before help became data).
    const unknown = await runSct(['ordrs', '--help']);
    expect(unknown.exitCode).toBe(0);
    expect(unknown.stdout).toBe(readFileSync(helpFile(''), 'utf8'));
    const withFlag = await runSct(['--no-color', 'orders', '--help']);
    expect(withFlag.exitCode).toBe(0);
    expect(withFlag.stdout).toBe(readFileSync(helpFile('orders'), 'utf8'));
    const topic = await runSct(['help', 'exit-codes']);
    expect(topic.exitCode).toBe(0);
    expect(topic.stdout).toContain('130');
  });

  it('--version and -V print the package version alone', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const r = await runSct([flag]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
    }
  });

  it('into a pipe or /dev/null, --version and help are written to the descriptor: no stream is made for stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sct-startup-'));
    try {
      const preload = join(dir, 'modules.cjs');
      // Written to descriptor 2 itself: process.stderr into a pipe would be a socket of the preload's making.
      writeFileSync(preload, "process.on('exit', () => require('fs').writeSync(2, `MODULES ${JSON.stringify(process.moduleLoadList)}\\n`));\n");
      for (const args of [['--version'], ['--help'], ['orders', 'list', '--help']]) {
        const r = await runSct(args, { env: { NODE_OPTIONS: `--require ${preload}` } });
        expect(r.exitCode, args.join(' ')).toBe(0);
        expect(r.stdout.length).toBeGreaterThan(0);
        const loaded: string[] = JSON.parse(/^MODULES (.*)$/m.exec(r.stderr)![1]);
        // process.stdout into a pipe is a net.Socket: making it loaded more than the answer cost.
        expect(loaded, args.join(' ')).not.toContain('NativeModule net');
        expect(loaded, args.join(' ')).not.toContain('NativeModule tty');
      }
      // /dev/null is a character device, as a terminal is, and no terminal: no stream is made for it either.
      const quiet = await execa('bash', ['-c', `'${process.execPath}' '${BIN}' --help > /dev/null`], { env: { NODE_OPTIONS: `--require ${preload}`, XDG_CACHE_HOME: TEST_CACHE_HOME }, reject: false });
      expect(quiet.exitCode).toBe(0);
      const loaded: string[] = JSON.parse(/^MODULES (.*)$/m.exec(quiet.stderr)![1]);
      expect(loaded).not.toContain('NativeModule internal/fs/sync_write_stream');
      expect(loaded).not.toContain('NativeModule tty');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync('/dev/full'))('--version and help into a full device: exit 1, "writing output: …", never 0', async () => {
    for (const args of ['--version', '--help', 'dds list --help', 'orders', 'help orders', 'orders help', 'help']) {
      const r = await execa('bash', ['-c', `'${process.execPath}' '${BIN}' ${args} > /dev/full`], { reject: false, env: { XDG_CACHE_HOME: TEST_CACHE_HOME } });
      expect(r.exitCode, args).toBe(1);
      expect(r.stderr, args).toMatch(/^error: writing output: ENOSPC/);
    }
  });

  it.skipIf(!existsSync('/dev/full'))('the sandbox into a full device: exit 1, no server left running without its URL told', async () => {
    const r = await execa('bash', ['-c', `'${process.execPath}' '${BIN}' sandbox --port 0 > /dev/full`], { reject: false, timeout: 20_000 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: writing output: ENOSPC/);
  });

  it.skipIf(!existsSync('/usr/bin/script'))('at a terminal 150 columns wide, help is wrapped to the terminal, not read from the 80-column data', async () => {
    const r = await execa('/usr/bin/script', ['-q', '-e', '-c', `stty cols 150; '${process.execPath}' '${BIN}' orders list --help`, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm', NO_COLOR: '1', SCT_PAGER: 'cat', XDG_CACHE_HOME: TEST_CACHE_HOME },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(0);
    const lines = String(r.stdout).split(/\r?\n/);
    // Descriptions fill the width of the terminal (the data wraps them at 80; only examples,
    // which are never wrapped, are longer there).
    const widest = (text: string[]) => Math.max(...text.map((l) => l.length));
    expect(widest(lines)).toBeGreaterThan(120);
    expect(widest(readFileSync(helpFile('orders list'), 'utf8').split('\n'))).toBeLessThan(100);
  });
});
