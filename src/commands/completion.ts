// Completion scripts are generated from the commander tree itself, so they can never drift
// from the real commands. `npm run completions` writes the same scripts into completions/.
import type { Command, Option } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { UsageError } from '../errors.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

export function register(program: Command, f: Factory): void {
  addExamples(
    program
    .command('completion')
    .description('Print a shell completion script (bash, zsh or fish)')
    .argument('<shell>', SHELLS.join(', '))
    .addHelpText('after', '\nInstall:\n  bash: sct completion bash > ~/.local/share/bash-completion/completions/sct\n  zsh:  sct completion zsh > "${fpath[1]}/_sct"\n  fish: sct completion fish > ~/.config/fish/completions/sct.fish'),
    ['sct completion bash > ~/.local/share/bash-completion/completions/sct', 'sct completion zsh > "${fpath[1]}/_sct"'],
  ).action(f.action((ctx, _o, [shell]) => completion(ctx, shell)));
}

export async function completion(ctx: Context, shell: string): Promise<void> {
  if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`unsupported shell "${shell}": use one of ${SHELLS.join(', ')}`);
  const { fullProgram } = await import('../cli.js');
  await ctx.io.write(completionScript(await fullProgram(ctx.io), shell as Shell));
}

interface Node {
  path: string;
  description: string;
  subcommands: { name: string; description: string }[];
  options: { flags: string[]; description: string; choices?: string[]; takesValue: boolean }[];
}

function walk(cmd: Command, prefix: string, out: Node[], inherited: Option[]): void {
  const own = cmd.options as readonly Option[];
  const options = [...own, ...inherited];
  out.push({
    path: prefix,
    description: cmd.description(),
    subcommands: cmd.commands.map((c) => ({ name: c.name(), description: c.description() })),
    options: options.map((o) => ({
      flags: [o.short, o.long].filter((x): x is string => Boolean(x)),
      description: o.description,
      choices: o.argChoices,
      takesValue: o.required || o.optional,
    })),
  });
  for (const c of cmd.commands) walk(c, prefix ? `${prefix} ${c.name()}` : c.name(), out, prefix === '' ? [...own] : inherited);
}

export function completionScript(program: Command, shell: Shell): string {
  const nodes: Node[] = [];
  walk(program, '', nodes, []);
  if (shell === 'fish') return fish(nodes);
  const bashScript = bash(nodes);
  return shell === 'bash' ? bashScript : `#compdef sct\n# zsh completion for sct (bash-style completion through bashcompinit)\nautoload -U +X bashcompinit && bashcompinit\n${bashScript}`;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(nodes: Node[]): string {
  const cases = nodes
    .map((n) => {
      const words = [...n.subcommands.map((s) => s.name), ...n.options.flatMap((o) => o.flags)];
      return `    ${q(n.path)}) opts=${q(words.join(' '))} ;;`;
    })
    .join('\n');
  const valueFlags = [...new Set(nodes.flatMap((n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.flags)))];
  const choiceCases = [...new Map(nodes.flatMap((n) => n.options.filter((o) => o.choices).flatMap((o) => o.flags.map((f) => [f, o.choices!] as const)))).entries()]
    .map(([flag, choices]) => `    ${flag}) COMPREPLY=( $(compgen -W ${q(choices.join(' '))} -- "$cur") ); return ;;`)
    .join('\n');
  const paths = nodes.map((n) => n.path).filter(Boolean);
  return `# bash completion for sct — generated from the command tree by \`sct completion bash\`
_sct() {
  local cur prev path w i opts candidate
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${choiceCases}
  esac
  case " ${valueFlags.join(' ')} " in
    *" $prev "*) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
  esac
  path=""
  for ((i=1; i<COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    candidate="\${path:+$path }$w"
    case "|${paths.join('|')}|" in
      *"|$candidate|"*) path="$candidate" ;;
    esac
  done
  case "$path" in
${cases}
    *) opts="" ;;
  esac
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _sct sct
`;
}

function fish(nodes: Node[]): string {
  const lines = [
    '# fish completion for sct — generated from the command tree by `sct completion fish`',
    'function __sct_path',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l path ""',
    `    set -l known ${nodes.map((n) => n.path).filter(Boolean).map(q).join(' ')}`,
    '    for w in $words',
    '        string match -q -- "-*" $w; and continue',
    '        set -l candidate (string trim -- "$path $w")',
    '        contains -- $candidate $known; and set path $candidate',
    '    end',
    '    echo $path',
    'end',
    'complete -c sct -f',
  ];
  for (const n of nodes) {
    const cond = `test (__sct_path) = ${q(n.path)}`;
    for (const s of n.subcommands) lines.push(`complete -c sct -n ${q(cond)} -a ${q(s.name)} -d ${q(s.description)}`);
    for (const o of n.options) {
      const parts = o.flags.map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`)).join(' ');
      const value = o.choices ? ` -x -a ${q(o.choices.join(' '))}` : o.takesValue ? ' -r' : '';
      lines.push(`complete -c sct -n ${q(cond)} ${parts}${value} -d ${q(o.description)}`);
    }
  }
  return lines.join('\n') + '\n';
}
