// sct help TOPIC, sct version, unquoted defaults, and the --filter key warning.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runSct, runSctIn } from '../helpers/sct.js';
import { useSandbox } from '../helpers/sandbox.js';
import { hasScript, runAtTerminal } from '../helpers/terminal.js';

const t = useSandbox();

describe('sct help', () => {
  it('each topic fits 80 columns in a pipe, and its man page the 72 man leaves at 80', async () => {
    // A line over the width is only one word that cannot be cut (a URL), after its indent.
    const over = (text: string, width: number) => text.split('\n').filter((l) => [...l].length > width && /\S\s+\S/.test(l.trim()));
    for (const topic of ['config', 'environment', 'exit-codes', 'filters', 'formatting']) {
      const r = await runSct(['help', topic]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(over(r.stdout, 80), topic).toEqual([]);
      const man = readFileSync(join(ROOT, 'man', `sct-help-${topic}.1`), 'utf8');
      const text = man.slice(man.indexOf('.nf\n') + 4, man.indexOf('\n.fi')).replace(/\\-/g, '-').replace(/\\\[u[0-9A-F]{4}\]/g, '?').replace(/\\&/g, '');
      expect(over(text, 72), `man ${topic}`).toEqual([]);
    }
    expect(over((await runSct(['--help'])).stdout, 80)).toEqual([]);
  });

  it("every command's own help fits 80 columns in a pipe, but for its examples (commands to copy whole)", async () => {
    // dist/help/ holds what `sct … --help` prints into a pipe, rendered by the build as sct renders it.
    const files = readdirSync(join(ROOT, 'dist', 'help'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('index.txt'));
    expect(files.length).toBeGreaterThan(80);
    const long: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, 'dist', 'help', file), 'utf8');
      const beforeExamples = text.split('\nExamples:\n')[0]!;
      for (const line of beforeExamples.split('\n')) if ([...line].length > 80 && /\S\s+\S/.test(line.trim())) long.push(`${file}: ${line}`);
    }
    expect(long).toEqual([]);
    const piped = await runSct(['orders', 'import', '--help']);
    expect(piped.stdout).toBe(readFileSync(join(ROOT, 'dist', 'help', 'orders', 'import', 'index.txt'), 'utf8'));
  });

  it('lists the commands and the help topics', async () => {
    const r = await runSct(['help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('orders');
    expect(r.stdout).toContain('Help topics: environment, exit-codes, formatting, filters, config, reference');
  });

  it.each([
    ['environment', 'SCT_TOKEN'],
    ['environment', 'FORCE_COLOR, CLICOLOR_FORCE=1'],
    ['exit-codes', '130'],
    ['formatting', '--jq EXPR'],
    ['filters', 'items__buyer_product__commodity__in'],
    ['config', 'sct config profiles'],
  ])('prints the %s topic', async (topic, text) => {
    const r = await runSct(['help', topic]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(text);
    expect(r.stderr).toBe('');
  });

  it('the config and environment topics say where macOS keeps the configuration, which XDG_CONFIG_HOME does not move', async () => {
    for (const topic of ['config', 'environment']) {
      const r = await runSct(['help', topic]);
      expect(r.stdout.replace(/\s+/g, ' '), topic).toContain('macOS ~/Library/Preferences/sct'.replace('macOS', topic === 'config' ? 'macOS' : 'macOS in'));
    }
  });

  it("completion's install lines are printed whole, each a command or line to copy", async () => {
    const lines = [
      '$ mkdir -p ~/.local/share/bash-completion/completions',
      '$ sct completion bash > ~/.local/share/bash-completion/completions/sct',
      "$ echo 'source <(sct completion bash)' >> ~/.bashrc",
      '$ mkdir -p ~/.zfunc && sct completion zsh > ~/.zfunc/_sct',
      "$ echo 'fpath=(~/.zfunc $fpath)' >> ~/.zshenv",
      "$ echo 'autoload -U compinit; compinit' >> ~/.zshrc",
      '$ sct completion fish > ~/.config/fish/completions/sct.fish',
    ];
    const r = await runSct(['completion', '--help']);
    for (const line of lines) expect(r.stdout).toContain(`\n    ${line}\n`);
    // At a terminal narrower than a command, the command is still one line (a split tmux pane).
    if (!hasScript) return;
    const narrow = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['completion', '--help'], [], { SCT_PAGER: 'cat' }, { columns: 50 });
    const screen = narrow.screen.replace(/\r/g, '');
    for (const line of lines) expect(screen).toContain(`\n    ${line}\n`);
  });

  it('the formatting topic names every format -o takes', async () => {
    const r = await runSct(['help', 'formatting']);
    for (const format of ['table', 'json', 'ndjson', 'csv', 'geojson']) expect(r.stdout).toMatch(new RegExp(`^  ${format} `, 'm'));
  });

  it('the filters topic shows which keys each named flag of a list sends', async () => {
    const r = await runSct(['help', 'filters']);
    expect(r.stdout).toMatch(/^sct origins list:\n  Flags, and the keys they send:\n    --country-code +country_code, country_code__in\n/m);
    expect(r.stdout).toMatch(/^ +--created-from, --created-to +created_at__date__gte, created_at__date__lte$/m);
    expect(r.stdout).toMatch(/^ +--order +orders__in$/m);
    // Keys --filter refuses are no list's keys: the paging flags', and the orders' side.
    const keyLines = r.stdout.split('\n').filter((l) => /^ {2,4}[a-z_]+(, [a-z_]+)*,?$/.test(l)).join(' ');
    expect(keyLines).toContain('buyer_company_status');
    expect(keyLines).not.toMatch(/\b(limit|offset|order_action)\b/);
    // A key given twice is refused, except invitations' status, which the documents say repeats.
    expect(r.stdout).toMatch(/^sct invitations list:\n(  .*\n)+  Repeatable \(any of the values matches\): status\n/m);
    expect(r.stdout.match(/Repeatable/g)).toHaveLength(1);
  });

  it('an unknown topic or command is exit 2 with a suggestion', async () => {
    const r = await runSct(['help', 'ordrs']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown help topic or command "ordrs": did you mean orders?');
    const topic = await runSct(['help', 'formating']);
    expect(topic.exitCode).toBe(2);
    expect(topic.stderr).toContain('did you mean formatting?');
    const extra = await runSct(['help', 'exit-codes', 'extra']);
    expect(extra.exitCode).toBe(2);
    expect(extra.stderr).toContain('error: help topic exit-codes takes nothing after it (got "extra")');
    expect(extra.stderr).not.toContain('did you mean');
  });

  it('help exit-codes and its man page have one row per code', async () => {
    const r = await runSct(['help', 'exit-codes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const codes = r.stdout.split('\n').map((l) => /^\s+(\d+)\s{2,}\S/.exec(l)?.[1]).filter(Boolean);
    expect(codes).toEqual(['0', '1', '2', '3', '4', '130', '143', '129']);
    const man = readFileSync(join(__dirname, '..', '..', 'man', 'sct-help-exit-codes.1'), 'utf8');
    for (const code of codes) expect(man, code).toMatch(new RegExp(`^\\s*${code}\\s{2,}\\S`, 'm'));
  });

  it('a command still gets its own help', async () => {
    const r = await runSct(['help', 'orders']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Usage: sct orders');
  });

  it('sct help GROUP LEAF is the leaf\'s own help, as GROUP LEAF --help is', async () => {
    // The built help (a pipe), and the help commander renders (in-process, as at a terminal).
    for (const run of [runSct, runSctIn]) {
      const own = await run(['orders', 'list', '--help']);
      const r = await run(['help', 'orders', 'list']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(own.stdout);
      expect(r.stdout).toContain('Usage: sct orders list');
      expect(r.stdout).toContain('Examples:');
    }
    const dds = await runSct(['help', 'dds', 'create']);
    expect(dds.stdout).toContain('Usage: sct dds create');
  });

  it("a group's own help command: `sct auth help login` is the leaf's help, `sct auth help` the group's", async () => {
    for (const run of [runSct, runSctIn]) {
      const own = await run(['auth', 'login', '--help']);
      const r = await run(['auth', 'help', 'login']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(own.stdout);
      const group = await run(['auth', 'help']);
      expect(group.exitCode).toBe(0);
      expect(group.stdout).toBe((await run(['auth', '--help'])).stdout);
    }
    const typo = await runSct(['auth', 'help', 'logn']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("unknown command 'logn'\n(Did you mean login?)");
  });

  it('sct alone, or a group alone, prints its help on stdout, exit 0 (as --help, so `sct | less` shows it)', async () => {
    const bare = await runSct([]);
    expect(bare.exitCode).toBe(0);
    expect(bare.stderr).toBe('');
    expect(bare.stdout).toBe((await runSct(['--help'])).stdout);
    const group = await runSct(['orders']);
    expect(group.exitCode).toBe(0);
    expect(group.stderr).toBe('');
    expect(group.stdout).toBe((await runSct(['orders', '--help'])).stdout);
    // `sct help help` is `sct help`, on stdout too (it was the root help on stderr).
    for (const [args, same] of [[['help', 'help'], ['--help']], [['help', 'help', 'help'], ['--help']], [['help', 'help', 'orders'], ['orders', '--help']]]) {
      const r = await runSct(args);
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe((await runSct(same)).stdout);
    }
  });

  it('an unknown command with no name close to it says where the names are', async () => {
    const r = await runSct(['risk', 'get', '1']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("error: unknown command 'get'\nhint: `sct risk --help` lists its commands\n");
    const top = await runSct(['frobnicate']);
    expect(top.exitCode).toBe(2);
    expect(top.stderr).toBe("error: unknown command 'frobnicate'\nhint: `sct --help` lists the commands\n");
  });

  it('an unknown command under a group is exit 2 with a suggestion, asked either way', async () => {
    const plain = await runSct(['orders', 'lst']);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain("unknown command 'lst'\n(Did you mean list?)");
    for (const args of [['help', 'orders', 'lst'], ['orders', 'lst', '--help'], ['orders', 'lst', '-h'], ['orders', 'help', 'lst']]) {
      const r = await runSct(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(plain.stderr);
      expect(r.stdout).toBe('');
    }
  });

  it("a leaf command's help lists its own options and only the inherited ones that matter", async () => {
    const r = await runSct(['orders', 'list', '--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('--buying');
    expect(r.stdout).toContain('Inherited options:');
    for (const flag of ['-o, --output', '--json [fields]', '--jq <expr>', '--columns <list>', '--profile <name>']) expect(r.stdout).toContain(flag);
    for (const flag of ['--max-wait', '--csv-formulas', '--verbose', '--quiet', '--timeout <seconds>']) expect(r.stdout).not.toContain(flag);
    expect(r.stdout).not.toContain('Global Options:');
    expect(r.stdout).toContain('Global options (-q, -v, -y, --no-color, --base-url, …): see `sct --help`.');
    // Not --timeout: dds wait and dds create have their own, which that line would contradict.
    expect((await runSct(['dds', 'wait', '--help'])).stdout).toContain('Global options (-q, -v, -y, --no-color, --base-url, …)');
    expect(r.stdout).toContain('Examples:');
    // `sct --help` still lists every global option.
    const root = await runSct(['--help']);
    for (const flag of ['--max-wait', '--csv-formulas', '-v, --verbose', '-q, --quiet', '--timeout <seconds>', '--base-url <url>']) expect(root.stdout).toContain(flag);
    expect(root.stdout).not.toContain('Inherited options:');
  });

  it('shows defaults unquoted', async () => {
    const r = await runSct(['--help']);
    expect(r.stdout).toContain('(default: 30)');
    expect(r.stdout).not.toContain('(default: "');
  });
});

describe('sct help with a global option', () => {
  it('the value of -o is no topic: `sct help -o json filters` and `sct help filters -o json` print the topic', async () => {
    for (const args of [['help', '-o', 'json', 'filters'], ['help', 'filters', '-o', 'json'], ['help', '--profile', 'x', 'filters']]) {
      const r = await runSct(args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toContain('Documented filters of each list');
    }
  });
});

describe('what a newcomer most likely meant', () => {
  it('a command without its group, an option before its command, another CLI\'s spelling, a file without --file: each hinted, exit 2', async () => {
    const cases: Array<[string[], string]> = [
      [['login'], 'hint: did you mean `sct auth login`?'],
      [['--limit', '1', 'orders', 'list', '--buying'], 'hint: --limit is an option of `sct orders list`: give it after the command'],
      [['orders', 'list', '--buying', '--format', 'json'], "hint: sct's option for that is -o/--output FORMAT"],
      [['invitations', 'bulk-create', 'people.csv'], 'hint: give the file with --file: `sct invitations bulk-create --file people.csv`'],
    ];
    for (const [args, hint] of cases) {
      const r = await runSct(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(hint);
    }
    // Nothing close: where the names are, as before.
    const none = await runSct(['frobnicate']);
    expect(none.stderr).toContain('hint: `sct --help` lists the commands');
  });
});

describe('sct version', () => {
  it("prints sct's version, Node's and the platform", async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const r = await runSct(['version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`sct ${pkg.version} (node ${process.versions.node}; ${process.platform} ${process.arch})\n`);
  });
});

describe('--filter keys', () => {
  it('dds available-orders has its documented keys too: a typo gets the warning, and help filters lists them', async () => {
    const r = await t.sct(['dds', 'available-orders', '--filter', 'exclude_ds=1', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: --filter exclude_ds: not a documented filter of dds available-orders (did you mean exclude_dds?)');
    const topic = await runSct(['help', 'filters']);
    expect(topic.stdout).toMatch(/\nsct dds available-orders:\n  Flags, and the keys they send:\n    --exclude-dds\s+exclude_dds\n  Keys:\n    exclude_dds, search, ordering\n/);
  });

  it('an undocumented key gets a warning naming the closest documented one, and is still sent', async () => {
    const r = await t.sct(['origins', 'list', '--filter', 'extrnal_id=ORI-1', '--filter', 'name__icontains=farm', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: --filter extrnal_id: not a documented filter of origins list (did you mean external_id?)');
    expect(r.stderr).not.toContain('name__icontains');
    expect(t.queryOf()).toMatchObject({ extrnal_id: 'ORI-1', name__icontains: 'farm' });
    // Said once per key, however often the key is given (with one value: two are refused).
    const twice = await t.sct(['origins', 'list', '--filter', 'tagz=a', '--filter', 'tagz=a', '-o', 'json']);
    expect(twice.stderr.match(/--filter tagz: not a documented filter/g)).toHaveLength(1);
  });

  it('a --filter that is no KEY=VALUE is exit 2, with no warning that it went out', async () => {
    const r = await t.sct(['orders', 'list', '--buying', '--filter', 'foo']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: invalid --filter "foo": expected KEY=VALUE');
    expect(r.stderr).not.toContain('sent anyway');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('lists whose filters are not documented take any key silently', async () => {
    const r = await t.sct(['products', 'list', '--filter', 'whatever=1', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    // Value chains have a filter table for their named flags, but no documented keys.
    const chains = await t.sct(['value-chains', 'list', '--filter', 'whatever=1', '--status', 'active', '-o', 'json']);
    expect(chains.exitCode, chains.stderr).toBe(0);
    expect(chains.stderr).toBe('');
    expect(t.queryOf(1)).toMatchObject({ whatever: '1', status: 'active' });
  });
});
