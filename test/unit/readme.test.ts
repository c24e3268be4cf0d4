// The README is a newcomer's page: short, and every `sct …` line in it a command that exists,
// with flags that exist, read against the command tree as commander would parse it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { fullProgram } from '../../src/cli.js';
import { HELP_TOPICS } from '../../src/help/topic-names.js';
import { createTestIO } from '../helpers/io.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The `sct …` command lines of a Markdown text: in code blocks and in inline code. */
export function commandLines(markdown: string): string[] {
  const lines: string[] = [];
  const blocks = markdown.split(/^```.*$/m);
  blocks.forEach((block, i) => {
    if (i % 2 === 1) {
      for (const raw of block.split('\n')) {
        // A prompt, and variables set for the one command, come before sct.
        const line = raw.replace(/^\$ /, '').replace(/^(\w+=\S*\s+)+/, '');
        if (/^sct(\s|$)/.test(line)) lines.push(line);
        // `x | sct …` and `a && sct …`: the sct part too.
        for (const m of raw.matchAll(/(?:\||&&)\s*(sct\s[^|&;#]*)/g)) lines.push(m[1]);
      }
    } else {
      for (const m of block.matchAll(/`(sct(?:\s[^`]*)?)`/g)) lines.push(m[1]);
    }
  });
  return lines;
}

/** Shell words up to the end of the command (a pipe, redirection, comment or `;`). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:'([^']*)'|"([^"]*)"|([|<>;&#])|((?:[^\s'"|<>;&]|'[^']*'|"[^"]*")+))/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) {
    if (m[3] !== undefined) break;
    out.push(m[1] ?? m[2] ?? m[4].replace(/'([^']*)'|"([^"]*)"/g, '$1$2'));
  }
  return out;
}

const FIELD_LIST = /^[A-Za-z_]\w*(\.\w+)*(,[A-Za-z_]\w*(\.\w+)*)*$/;

function findOption(cmd: Command, flag: string): Option | undefined {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const o = c.options.find((x) => x.long === flag || x.short === flag);
    if (o) return o;
  }
  return undefined;
}

/** What is wrong with a command line by the tree, or undefined when commander would take it. */
export function check(program: Command, line: string): string | undefined {
  const argv = words(line).slice(1);
  // commander's own: help and the version, and `sct help TOPIC|COMMAND…`.
  if (argv.some((w) => w === '--help' || w === '-h') || (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'))) return undefined;
  if (argv[0] === 'help') {
    if (argv.length === 1 || (argv.length === 2 && HELP_TOPICS.includes(argv[1]))) return undefined;
    return check(program, ['sct', ...argv.slice(1), '--help'].join(' ')) ?? (program.commands.some((c) => c.name() === argv[1]) ? undefined : `unknown help topic ${argv[1]}`);
  }
  let cmd = program;
  let positionals = 0;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') {
      positionals += argv.length - i - 1;
      break;
    }
    if (word.startsWith('-') && word !== '-') {
      const [flag, inline] = word.split(/=(.*)/s);
      const option = findOption(cmd, flag);
      if (!option) return `unknown option ${flag} of ${cmd.name()}`;
      if (option.required && inline === undefined) {
        if (i + 1 >= argv.length) return `${flag} needs a value`;
        i++;
      } else if (option.optional && inline === undefined && FIELD_LIST.test(argv[i + 1] ?? '') && !cmd.commands.some((c) => c.name() === argv[i + 1]) && positionals >= cmd.registeredArguments.length) {
        // `--json id,type` picks fields only once the command has its positional arguments.
        i++;
      }
      continue;
    }
    const sub = positionals === 0 ? cmd.commands.find((c) => c.name() === word || c.aliases().includes(word)) : undefined;
    if (sub) cmd = sub;
    else if (cmd.commands.length > 0) return `unknown command ${word} of ${cmd.name()}`;
    else positionals++;
  }
  const args = cmd.registeredArguments;
  if (!args.some((a) => a.variadic) && positionals > args.length) return `too many arguments for ${cmd.name()}`;
  const required = args.filter((a) => a.required).length;
  if (positionals < required) return `missing argument of ${cmd.name()}`;
  return undefined;
}

let program: Command;
beforeAll(async () => {
  program = await fullProgram(createTestIO().io);
});

describe('the README', () => {
  it('is at most 250 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('the checker reads command lines as commander does', () => {
    expect(commandLines('```sh\n$ SCT_TOKEN=x sct orders list --buying -o json | jq .\nfoo | sct api /x\n```\nand `sct help`')).toEqual([
      'sct orders list --buying -o json | jq .',
      'sct api /x',
      'sct help',
    ]);
    expect(check(program, 'sct orders list --buying --json id,external_id --limit 5')).toBeUndefined();
    expect(check(program, 'sct config get --json workspace')).toBeUndefined();
    expect(check(program, "sct api /orders -X GET -f order_action=buying --jq '.results[].id' # a comment")).toBeUndefined();
    expect(check(program, 'sct orders lst --buying')).toBe('unknown command lst of orders');
    expect(check(program, 'sct help exit-codes')).toBeUndefined();
    expect(check(program, 'sct help orders list')).toBeUndefined();
    expect(check(program, 'sct help exit-code')).toBe('unknown help topic exit-code');
    expect(check(program, 'sct orders list --byuing')).toBe('unknown option --byuing of list');
    expect(check(program, 'sct orders get')).toBe('missing argument of get');
    expect(check(program, 'sct orders get 1 2')).toBe('too many arguments for get');
    expect(check(program, 'sct risk evidence 42 --out')).toBe('--out needs a value');
  });

  it('every sct command line in it is a real command with real flags', () => {
    const lines = commandLines(README);
    expect(lines.length).toBeGreaterThan(10);
    const wrong = lines.map((l) => [l, check(program, l)]).filter(([, why]) => why !== undefined);
    expect(wrong.map(([l, why]) => `${l}: ${why}`)).toEqual([]);
  });

  it('says what the spec asks: the quick start, the test command .ci/run runs, the four users, the manual', () => {
    const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    expect(ci.trimEnd().split('\n').at(-1)).toBe('npm test');
    expect(README).toContain('npm ci && npm run demo');
    expect(README).toMatch(/^npm test\b/m);
    for (const first of ['sct orders list --buying', 'sct dds list --all -o json', 'sct invitations bulk-create --file people.csv', 'sct risk evidence 12 --out ./evidence/']) {
      expect(README).toContain(first);
    }
    for (const page of ['docs/README.md', 'docs/development.md', 'docs/decisions.md', 'man/']) expect(README).toContain(page);
  });
});
