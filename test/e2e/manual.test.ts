// The manual: docs/ and man/ are what the command tree renders (npm run docs), each page a real
// man page, and `sct help reference` prints every command and topic as one Markdown document.
import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderManualFiles } from '../../src/cli.js';
import { TOPICS } from '../../src/help/topics.js';
import { ROOT, runSct } from '../helpers/sct.js';

let files: Map<string, string>;
beforeAll(async () => {
  files = await renderManualFiles();
});

const onPath = (cmd: string) => (process.env.PATH ?? '').split(':').some((dir) => existsSync(join(dir, cmd)));

describe('the manual', () => {
  it('docs/ and man/ hold exactly what the command tree renders', () => {
    const leaves = [...files.keys()].filter((p) => p.startsWith('man/sct-orders-'));
    expect(leaves).toContain('man/sct-orders-list.1');
    const stale = [...files].filter(([path, text]) => !existsSync(join(ROOT, path)) || readFileSync(join(ROOT, path), 'utf8') !== text).map(([p]) => p);
    expect(stale, 'docs/ or man/ is out of date: run npm run docs').toEqual([]);
    // Pages of commands that no longer exist are gone too.
    const onDisk = [
      ...readdirSync(join(ROOT, 'docs')).filter((n) => /^sct(-.+)?\.md$/.test(n) || n === 'README.md').map((n) => `docs/${n}`),
      ...readdirSync(join(ROOT, 'man')).map((n) => `man/${n}`),
    ];
    expect(onDisk.filter((p) => !files.has(p)), 'run npm run docs').toEqual([]);
  });

  it('package.json declares every man page, so that npm links them on a global install', () => {
    const { man } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const pages = [...files.keys()].filter((p) => p.startsWith('man/')).sort().map((p) => `./${p}`);
    expect(man, 'run npm run docs').toEqual(pages);
  });

  it('has a page per command and per help topic, and an index linking every page', () => {
    const index = files.get('docs/README.md')!;
    for (const path of ['sct', 'sct-orders-list', 'sct-invitations-bulk-create', 'sct-dds-trace', ...Object.keys(TOPICS).map((t) => `sct-help-${t}`)]) {
      expect(files.has(`docs/${path}.md`), path).toBe(true);
      expect(files.has(`man/${path}.1`), path).toBe(true);
      if (path !== 'sct') expect(index, path).toContain(`](${path}.md)`);
    }
    const page = files.get('docs/sct-orders-list.md')!;
    expect(page).toMatch(/^# sct orders list\n/);
    expect(page).toContain('- `--buying`: orders your company buys');
    expect(page).toContain('## Examples\n\n```sh\nsct orders list --buying');
    // A file-reading command's columns come along from its help.
    expect(files.get('docs/sct-invitations-bulk-create.md')).toContain('auth_group');
    // Where the other options are, as in --help and the man pages.
    expect(page).toContain('## Inherited options');
    expect(page).toContain('Global options (-q, -v, -y, --no-color, --base-url, …): see `sct --help`.');
    // Other man pages by the names man finds them under, the topics' among them.
    const root = files.get('man/sct.1')!;
    expect(root).toContain('.SH COMMANDS\n.TP\n\\fBsct\\-orders\\fR(1)');
    expect(root).toMatch(/\.SH SEE ALSO\n.*\\fBsct\\-help\\-filters\\fR\(1\)/);
  });

  it.skipIf(!onPath('man'))('man -l renders a page: name, synopsis, options, examples', async () => {
    const r = await execa('man', ['-l', join(ROOT, 'man', 'sct-orders-list.1')], { env: { PATH: process.env.PATH ?? '', MANPAGER: 'cat', MANWIDTH: '100', LANG: 'C.UTF-8' }, extendEnv: false });
    expect(r.stdout).toContain('sct-orders-list - List orders you buy');
    expect(r.stdout).toMatch(/SYNOPSIS\n\s+sct orders list \[options\]/);
    expect(r.stdout).toMatch(/--buying\n\s+orders your company buys/);
    expect(r.stdout).toContain('sct orders list --selling --commodity cocoa --no-dds --all -o csv > orders.csv');
  });

  it.skipIf(!onPath('groff'))('every man page is valid roff: groff warns about none', async () => {
    const pages = [...files.keys()].filter((p) => p.startsWith('man/'));
    // One groff over them all: its warnings name the file and line.
    const r = await execa('groff', ['-man', '-Tutf8', '-ww', '-z', ...pages], { cwd: ROOT, reject: false });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });

  it('sct help reference prints every command and topic as one Markdown document', async () => {
    const r = await runSct(['help', 'reference']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^# sct reference\n/);
    const commands = [...files.keys()].filter((p) => /^docs\/sct(-.+)?\.md$/.test(p) && !p.startsWith('docs/sct-help-'));
    for (const p of commands) {
      // Headings one level down, links to anchors of this document rather than to files.
      const heading = files.get(p)!.split('\n')[0];
      expect(r.stdout, p).toContain(`\n#${heading}\n`);
    }
    expect(r.stdout).toContain('](#sct-orders-list)');
    expect(r.stdout).not.toContain('.md)');
    for (const topic of Object.keys(TOPICS)) expect(r.stdout).toContain(`\n## sct help ${topic}\n`);
  });
});
