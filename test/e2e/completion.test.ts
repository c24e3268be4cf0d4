// The shipped completion scripts (completions/, kept equal to `sct completion SHELL` by
// foundation.test.ts) run in the real shells: bash, zsh and fish. A shell that is not installed
// skips its tests, saying so (.ci/run installs zsh and fish).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdtempSync, mkdirSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
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
// zsh completes files where a flag takes any value: in an empty directory it lists none.
let emptyDir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sct-completion-'));
  emptyDir = join(dir, 'empty');
  mkdirSync(emptyDir);
  writeFileSync(join(dir, 'sct'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/sct.js')}" "$@"\n`);
  chmodSync(join(dir, 'sct'), 0o755);
  env = { PATH: `${dir}:${process.env.PATH}`, SCT_CONFIG_DIR: join(dir, 'config'), HOME: dir };
  for (const p of ['staging', 'prod']) {
    await execa(join(dir, 'sct'), ['config', 'set', 'base_url', `https://${p}.test/api`, '--profile', p], { env });
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Complete = (line: string) => Promise<string[]>;

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * COMP_WORDS as bash makes them of a line: split at blanks, then each run of COMP_WORDBREAKS
 * characters is a word of its own ("::" one word); after a blank the cursor's word is empty.
 */
function bashWords(line: string): string[] {
  return line.split(/[ \t\n]+/).flatMap((chunk) => chunk.match(/["'@><=;|&(:]+|[^"'@><=;|&(:]+/g) ?? ['']);
}

/** What each shell offers with the cursor at the end of the line typed (fish and zsh: "word\tdescription"). */
const shells: Record<'bash' | 'zsh' | 'fish', Complete> = {
  bash: async (line) => {
    const words = bashWords(line);
    const script = `source completions/sct.bash; COMP_WORDS=(${words.map(sq).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE=${sq(line)}; COMP_POINT=${line.length}; _sct; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = await execa('bash', ['--norc', '-c', script], { cwd: root, env, reject: false });
    return r.stdout.split('\n').filter(Boolean);
  },
  // zsh's own completion engine at a pseudo-terminal (test/helpers/zsh-complete.zsh): the line
  // typed, then the list-choices key; what zsh lists is read off the screen. A listed line is
  // "name  -- description" (names sharing a description on one line), or names side by side.
  zsh: async (line) => {
    const r = await execa('zsh', ['-f', join(root, 'test/helpers/zsh-complete.zsh'), join(root, 'completions'), line], {
      cwd: emptyDir,
      env,
      reject: false,
      timeout: 30_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const listed = r.stdout
      .slice(0, r.stdout.indexOf('<line>'))
      .split('\n')
      .slice(1)
      // Each line up to zsh's redraw of the prompt (a carriage return), without escape sequences.
      .map((l) => l.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').split('\r')[0].replace(/[\u0000-\u001f]/g, ''))
      .filter((l) => l.trim() !== '');
    // The completion functions' own errors (`_describe:21: bad option: --`) reach the terminal too.
    expect(listed.filter((l) => /^_?\w+:\d+: /.test(l))).toEqual([]);
    return listed.flatMap((l) => {
      const [names, description] = l.split(/ +-- /);
      return names.trim().split(/ +/).map((name) => (description === undefined ? name : `${name}\t${description}`));
    });
  },
  fish: async (line) => {
    const r = await execa('fish', ['--no-config', '-c', 'source completions/sct.fish; complete -C -- $argv[1]', line], {
      cwd: root,
      env,
      reject: false,
    });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  },
};

const names = (lines: string[]) => lines.map((l) => l.split('\t')[0]).sort();

describe.skipIf(!has('bash') || !existsSync('/usr/bin/script'))('bash at a real terminal', () => {
  it('offers nothing where nothing sct knows matches: never a file name in place of a value, a shell or a profile; after --type= its values, after a URL the commands', async () => {
    const cwd = mkdtempSync(join(dir, 'files-'));
    writeFileSync(join(cwd, 'plain.csv'), '');
    // Typed at an interactive bash as a person would; each line is cancelled (Ctrl-C) after its
    // TAB. The next line is typed once bash has shown what it completes (or, where it completes
    // nothing, a moment after) and its prompt again: a busy machine runs a completion slowly.
    const lines: Array<[keys: string, shows?: string]> = [
      ['sct orders list --type pl\t'],
      ['sct completion pl\t'],
      ['sct --profile pl\t'],
      ['sct documents upload pl\t', 'plain.csv'],
      ['sct orders list --type=\t\t', 'produced_batch'],
      ['sct --base-url https://u:p@api:8443/api ord\t', 'api orders '],
    ];
    const child = execa('script', ['-qfec', 'bash --norc --noprofile -i', '/dev/null'], { cwd, env: { ...env, TERM: 'dumb' }, reject: false, timeout: 60_000 });
    let screen = '';
    child.stdout!.on('data', (d: Buffer) => (screen += d.toString()));
    // A prompt of its own, which the line that sets it does not echo ('PRO''MPT> ').
    const prompts = () => screen.split('PROMPT> ').length - 1;
    const until = async (ready: () => boolean) => {
      for (const end = Date.now() + 15_000; !ready() && Date.now() < end; ) await new Promise((go) => setTimeout(go, 50));
    };
    child.stdin!.write(`PS1='PRO''MPT> '; source ${join(root, 'completions/sct.bash')}\n`);
    await until(() => prompts() >= 1);
    for (const [keys, shows] of lines) {
      const from = screen.length;
      child.stdin!.write(keys);
      if (shows) await until(() => screen.slice(from).includes(shows));
      // A list of choices is followed by the prompt and line drawn again: that too is waited for.
      await new Promise((go) => setTimeout(go, shows ? 300 : 1000));
      const shown = prompts();
      child.stdin!.write('\u0003');
      await until(() => prompts() > shown);
    }
    child.stdin!.write('exit\n');
    await child;
    expect(screen).toContain('sct orders list --type pl');
    // A file is taken by documents upload: completed there, and only there.
    expect(screen.match(/plain\.csv/g) ?? [], screen).toHaveLength(1);
    expect(screen).toContain('sct documents upload plain.csv');
    // --type=: bash hands the "=" as the word at the cursor; the values go after it.
    expect(screen).toMatch(/manufactured_batch +produced_batch/);
    // A URL's pieces that bash split at its breaks are one value, "api" among them no command.
    expect(screen).toContain('sct --base-url https://u:p@api:8443/api orders ');
  }, 90_000);
});

for (const [shell, complete] of Object.entries(shells)) {
  describe.skipIf(!has(shell))(`${shell} completion${skipReason(shell)}`, () => {
    it('a field list after --json is no argument: the command after it still completes', async () => {
      expect(names(await complete('sct --json id,name orders li'))).toEqual(['list']);
      expect(names(await complete('sct --json orders li'))).toEqual(['list']);
      // bash splits the word at "=" before _sct sees it (COMP_WORDBREAKS); zsh and fish hand it whole.
      expect(names(await complete('sct --json=id,name orders li'))).toEqual(['list']);
      // A positional's values after the field list: the help topics, the shells.
      expect(names(await complete('sct --json id,name completion '))).toEqual(['bash', 'fish', 'zsh']);
    });

    it("a flag's value holding \":\" (a URL) is one value: the command after it still completes", async () => {
      // bash splits the word at ":" before _sct sees it (COMP_WORDBREAKS); zsh and fish hand it whole.
      expect(names(await complete('sct --base-url https://sct.example.com:8443/api orders l'))).toEqual(['list']);
      // A gateway's user and password, an IPv6 host: bash splits at "@" too, and hands "::" whole.
      expect(names(await complete('sct --base-url https://u:p@gw.example:8443/api orders l'))).toEqual(['list']);
      expect(names(await complete('sct --base-url http://[::1]:8080/api orders l'))).toEqual(['list']);
      // A value that ends at a break: the command after it is no piece of it.
      expect(names(await complete('sct --base-url http://h: orders l'))).toEqual(['list']);
      // Pieces after a break that are a command's name (a gateway host called api, a password
      // orders): one value all the same, up to the blank.
      expect(names(await complete('sct --base-url https://u:p@api:8443/api ord'))).toEqual(['orders']);
      expect(names(await complete('sct --base-url https://u:orders@host:8443/api prod'))).toEqual(['products']);
      expect(names(await complete('sct --base-url=https://u:p@api:8443/api orders l'))).toEqual(['list']);
    });

    it('offers the shells for `sct completion` and the setting keys for `sct config get/set/unset`', async () => {
      expect(names(await complete('sct completion '))).toEqual(['bash', 'fish', 'zsh']);
      expect(names(await complete('sct config get '))).toEqual(['base_url', 'output', 'workspace']);
      expect(names(await complete('sct config set '))).toEqual(['base_url', 'output', 'workspace']);
      expect(names(await complete('sct config unset w'))).toEqual(['workspace']);
      // The value after the key is not a key again.
      expect(names(await complete('sct config set base_url ')).filter((w) => w !== '<files>')).toEqual([]);
    });

    it('offers an enum flag\'s values after --flag= as after --flag and a space', async () => {
      // bash splits the word at "=" before _sct sees it (COMP_WORDBREAKS): with nothing after it, the
      // word at the cursor is the "=" itself. zsh and fish hand it whole.
      expect(names(await complete('sct orders list --type=')).map((w) => w.replace(/^--type=/, ''))).toEqual(['manufactured_batch', 'order', 'produced_batch', 'product_chain']);
      expect(names(await complete('sct orders list --type=pro')).map((w) => w.replace(/^--type=/, ''))).toEqual(['produced_batch', 'product_chain']);
      expect(names(await complete('sct orders list --type=order --assessment-status '))).toEqual(['failing', 'in_progress', 'mitigated', 'passing', 'pending']);
      expect(names(await complete('sct orders list --type=order --assessment-status=')).map((w) => w.replace(/^--assessment-status=/, ''))).toEqual(['failing', 'in_progress', 'mitigated', 'passing', 'pending']);
    });

    it('offers the profile names even when SCT_PROFILE names one not made yet', async () => {
      env.SCT_PROFILE = 'nope';
      try {
        expect(names(await complete('sct orders list --profile '))).toEqual(expect.arrayContaining(['prod', 'staging']));
      } finally {
        delete env.SCT_PROFILE;
      }
    });

    it('offers the allowed values of enum flags, per command', async () => {
      expect(names(await complete('sct orders list --assessment-status '))).toEqual(['failing', 'in_progress', 'mitigated', 'passing', 'pending']);
      expect(names(await complete('sct products list --commodity '))).toEqual(['cattle', 'cocoa', 'coffee', 'palm_oil', 'rubber', 'soya', 'wood']);
      expect(names(await complete('sct dds list --type '))).toEqual(['EUDR', 'EUTR', 'PPWR']);
      expect(names(await complete('sct orders list --type '))).toEqual(['manufactured_batch', 'order', 'produced_batch', 'product_chain']);
      // -o geojson only where it is taken: origins list and get.
      expect(names(await complete('sct orders list -o '))).toEqual(['csv', 'json', 'ndjson', 'table']);
      expect(names(await complete('sct origins list -o '))).toEqual(['csv', 'geojson', 'json', 'ndjson', 'table']);
      expect(names(await complete('sct origins get 1 -o '))).toEqual(['csv', 'geojson', 'json', 'ndjson', 'table']);
    });

    it("offers a list's documented filter keys for --filter, from its filter table", async () => {
      expect(names(await complete('sct origins list --filter external_id__i'))).toEqual([
        'external_id__icontains=', 'external_id__iendswith=', 'external_id__in=', 'external_id__istartswith=',
      ]);
      expect(names(await complete('sct dds list --filter orders'))).toEqual(['orders__in=']);
    });

    it('offers file names only for a value that is a file or a directory', async () => {
      // A role, an id, a text: nothing to offer (bash falls back to no file names either).
      expect(await complete('sct invitations create --role ')).toEqual([]);
      expect(await complete('sct invitations bulk-create --role ')).toEqual([]);
      expect(await complete('sct orders list --search ')).toEqual([]);
      // zsh runs in an empty directory: no file to list there.
      if (shell !== 'zsh') expect(names(await complete('sct invitations bulk-create --file packa'))).toContain('package.json');
    });

    it('offers file names for an argument that is a file (documents upload, origins check), none for an id', async () => {
      // zsh runs in an empty directory: no file to list there.
      if (shell !== 'zsh') {
        expect(names(await complete('sct documents upload packa'))).toContain('package.json');
        expect(names(await complete('sct origins check README.md packa'))).toContain('package.json');
      }
      expect(await complete('sct orders get packa')).toEqual([]);
    });

    it('offers a file name with a space as one name (a spreadsheet export\'s "People list.csv")', async () => {
      // zsh runs in an empty directory, and its _files is the shell's own.
      if (shell === 'zsh') return;
      const spaced = join(dir, 'spaced');
      mkdirSync(spaced, { recursive: true });
      writeFileSync(join(spaced, 'People list.csv'), 'email\n');
      const offered = names(await complete(`sct invitations bulk-create --file ${join(spaced, 'Peo')}`));
      expect(offered.map((w) => w.replace(/\\ /g, ' '))).toEqual([join(spaced, 'People list.csv')]);
      expect(names(await complete(`sct documents upload ${join(spaced, 'Peo')}`)).map((w) => w.replace(/\\ /g, ' '))).toEqual([join(spaced, 'People list.csv')]);
    });

    it('offers no flag after "--": every word there is an argument', async () => {
      const after = names(await complete('sct orders list -- --t'));
      expect(after.filter((w) => w.startsWith('--'))).toEqual([]);
    });

    it('offers a group\'s commands after `sct help GROUP`, and each help word once', async () => {
      expect(names(await complete('sct help orders '))).toEqual(expect.arrayContaining(['get', 'list', 'stats', 'sync']));
      const words = names(await complete('sct help '));
      expect(words).toEqual(expect.arrayContaining(['config', 'exit-codes', 'orders']));
      expect(new Set(words).size).toBe(words.length);
    });

    it('offers the profile names from the config file for --profile', async () => {
      expect(names(await complete('sct orders list --profile '))).toEqual(expect.arrayContaining(['prod', 'staging']));
    });

    it('offers only the profile names sct takes, as written: a name from a file edited by hand is never run', async () => {
      const hostile = join(dir, 'hostile');
      mkdirSync(hostile, { recursive: true });
      const touched = join(dir, 'pwned');
      writeFileSync(join(hostile, 'config.json'), JSON.stringify({ profiles: { prod: {}, 'a b': {}, [`$(touch ${touched})`]: {} } }), { mode: 0o600 });
      const before = env.SCT_CONFIG_DIR;
      env.SCT_CONFIG_DIR = hostile;
      try {
        expect(names(await complete('sct --profile '))).toEqual(expect.arrayContaining(['prod']));
        expect(names(await complete('sct --profile ')).filter((n) => n !== 'default')).toEqual(['prod']);
        expect(existsSync(touched)).toBe(false);
      } finally {
        env.SCT_CONFIG_DIR = before!;
      }
    });

    it('offers subcommands first and flags only after a "-"', async () => {
      const subs = names(await complete('sct dds '));
      expect(subs).toEqual(['available-orders', 'create', 'delete', 'get', 'list', 'trace', 'update', 'wait']);
      const flags = names(await complete('sct dds list --'));
      expect(flags).toEqual(expect.arrayContaining(['--type', '--status', '--output', '--profile']));
      expect(flags.every((f) => f.startsWith('--'))).toBe(true);
      // A flag's value is not taken for a command: `-o json` before the command path.
      expect(names(await complete('sct -o json dds l'))).toEqual(['list']);
    });

    if (shell !== 'bash') {
      it('shows descriptions of commands and flags', async () => {
        expect(await complete('sct dds li')).toEqual(['list\tList due diligence statements']);
        expect(await complete('sct dds list --stat')).toEqual([expect.stringMatching(/^--status\tstatus, comma-separated/)]);
      });
    }
  });
}
