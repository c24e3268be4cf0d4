// The shipped completion scripts (completions/, kept equal to `sct completion SHELL` by
// foundation.test.ts) run in the real shells: bash, zsh and fish. A shell that is not installed
// skips its tests, saying so (.ci/run installs zsh and fish).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, execaSync } from 'execa';

const root = fileURLToPath(new URL('../..', import.meta.url));
const has = (shell: string) => execaSync('sh', ['-c', `command -v ${shell}`], { reject: false }).exitCode === 0;
const skipReason = (shell: string) => (has(shell) ? '' : ` (skipped: ${shell} is not installed)`);

// `--profile <TAB>` runs `sct config profiles` at completion time: an `sct` on PATH and a config
// dir holding two profiles.
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sct-completion-'));
  writeFileSync(join(dir, 'sct'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/sct.js')}" "$@"\n`);
  chmodSync(join(dir, 'sct'), 0o755);
  env = { PATH: `${dir}:${process.env.PATH}`, SCT_CONFIG_DIR: join(dir, 'config'), HOME: dir };
  for (const p of ['staging', 'prod']) {
    await execa(join(dir, 'sct'), ['config', 'set', 'base_url', `https://${p}.test/api`, '--profile', p], { env });
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Complete = (...words: string[]) => Promise<string[]>;

/** What each shell offers with the cursor on the last word (fish and zsh: "word\tdescription"). */
const shells: Record<'bash' | 'zsh' | 'fish', Complete> = {
  bash: async (...words) => {
    const line = words.map((w) => `'${w}'`).join(' ');
    const script = `source completions/sct.bash; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _sct; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = await execa('bash', ['--norc', '-c', script], { cwd: root, env, reject: false });
    return r.stdout.split('\n').filter(Boolean);
  },
  // zsh's completion widgets only run inside the line editor, so this loads the script the way
  // compinit does (the compdef registration is checked), then calls _sct with words/CURRENT set,
  // _describe printing the "name:description" items it is given and _files standing for files.
  zsh: async (...words) => {
    const script = [
      'autoload -Uz compinit && compinit -u -D',
      'source completions/_sct',
      '[[ ${_comps[sct]} == _sct ]] || { print -u2 "_sct is not registered for sct"; exit 1 }',
      // Like the real _describe, only the items matching the word under the cursor.
      '_describe() { local -a __d; __d=( "${(@P)${@[-1]}}" ); __d=( ${(M)__d:#${(b)words[CURRENT]}*} ); print -rl -- "${__d[@]/:/\t}" }',
      "_files() { print -r -- '<files>' }",
      'words=( "$@" ); CURRENT=$#words',
      '_sct',
    ].join('\n');
    const r = await execa('zsh', ['-f', '-c', script, 'zsh', ...words], { cwd: root, env, reject: false });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  },
  fish: async (...words) => {
    const r = await execa('fish', ['--no-config', '-c', 'source completions/sct.fish; complete -C -- $argv[1]', words.slice(1).join(' ').replace(/^/, 'sct ')], {
      cwd: root,
      env,
      reject: false,
    });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  },
};

const names = (lines: string[]) => lines.map((l) => l.split('\t')[0]).sort();

for (const [shell, complete] of Object.entries(shells)) {
  describe.skipIf(!has(shell))(`${shell} completion${skipReason(shell)}`, () => {
    it('offers the shells for `sct completion` and the setting keys for `sct config get/set/unset`', async () => {
      expect(names(await complete('sct', 'completion', ''))).toEqual(['bash', 'fish', 'zsh']);
      expect(names(await complete('sct', 'config', 'get', ''))).toEqual(['base_url', 'output', 'workspace']);
      expect(names(await complete('sct', 'config', 'set', ''))).toEqual(['base_url', 'output', 'workspace']);
      expect(names(await complete('sct', 'config', 'unset', 'w'))).toEqual(['workspace']);
      // The value after the key is not a key again.
      expect(names(await complete('sct', 'config', 'set', 'base_url', '')).filter((w) => w !== '<files>')).toEqual([]);
    });

    it('offers the allowed values of enum flags, per command', async () => {
      expect(names(await complete('sct', 'orders', 'list', '--assessment-status', ''))).toEqual(['failing', 'in_progress', 'mitigated', 'passing', 'pending']);
      expect(names(await complete('sct', 'products', 'list', '--commodity', ''))).toEqual(['cattle', 'cocoa', 'coffee', 'palm_oil', 'rubber', 'soya', 'wood']);
      expect(names(await complete('sct', 'dds', 'list', '--type', ''))).toEqual(['EUDR', 'EUTR', 'PPWR']);
      expect(names(await complete('sct', 'orders', 'list', '--type', ''))).toEqual(['manufactured_batch', 'order', 'produced_batch', 'product_chain']);
      expect(names(await complete('sct', 'orders', 'list', '-o', ''))).toEqual(['csv', 'geojson', 'json', 'ndjson', 'table']);
    });

    it('offers the profile names from the config file for --profile', async () => {
      expect(names(await complete('sct', 'orders', 'list', '--profile', ''))).toEqual(expect.arrayContaining(['prod', 'staging']));
    });

    it('offers subcommands first and flags only after a "-"', async () => {
      const subs = names(await complete('sct', 'dds', ''));
      expect(subs).toEqual(['available-orders', 'create', 'delete', 'get', 'list', 'trace', 'update', 'wait']);
      const flags = names(await complete('sct', 'dds', 'list', '--'));
      expect(flags).toEqual(expect.arrayContaining(['--type', '--status', '--output', '--profile']));
      expect(flags.every((f) => f.startsWith('--'))).toBe(true);
      // A flag's value is not taken for a command: `-o json` before the command path.
      expect(names(await complete('sct', '-o', 'json', 'dds', 'l'))).toEqual(['list']);
    });

    if (shell !== 'bash') {
      it('shows descriptions of commands and flags', async () => {
        expect(await complete('sct', 'dds', 'li')).toEqual(['list\tList due diligence statements']);
        expect(await complete('sct', 'dds', 'list', '--stat')).toEqual([expect.stringMatching(/^--status\tstatus, comma-separated/)]);
      });
    }
  });
}
