// Completion scripts are generated from the commander tree itself, so they can never drift
// from the real commands. `npm run completions` writes the same scripts into completions/.
import type { Command, Option } from 'commander';
import type { Context } from '../context.js';
import type { Register } from './shared/command.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import { UsageError } from '../errors.js';
import { argumentValues, enumOptionValues } from './shared/flags.js';
import { filtersOf } from './shared/filters.js';
import { PAGING } from '../api/filters/keys.js';
import { isGeojsonCommand } from './shared/output-facts.js';
import { HELP_TOPICS } from '../help/topic-names.js';
import { orList } from '../util/format.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

// Commands to copy start with "$ ", which help never fills again at any width (src/help/wrap.ts).
// zsh's fpath goes in ~/.zshenv, which zsh reads before ~/.zshrc runs compinit.
const INSTALL_HELP = `
Install (then open a new shell):
  bash, with the bash-completion package:
    $ mkdir -p ~/.local/share/bash-completion/completions
    $ sct completion bash > ~/.local/share/bash-completion/completions/sct
  bash, without it:
    $ echo 'source <(sct completion bash)' >> ~/.bashrc
  zsh:
    $ mkdir -p ~/.zfunc && sct completion zsh > ~/.zfunc/_sct
    $ echo 'fpath=(~/.zfunc $fpath)' >> ~/.zshenv
  and, if ~/.zshrc runs no compinit:
    $ echo 'autoload -U compinit; compinit' >> ~/.zshrc
  fish (under $XDG_CONFIG_HOME/fish/completions when XDG_CONFIG_HOME is set):
    $ mkdir -p ~/.config/fish/completions
    $ sct completion fish > ~/.config/fish/completions/sct.fish
The same scripts are shipped in the package's completions/ directory.`;

// The run needs the whole command tree, which only the Factory builds: the record is made with it.
export const register: Register = (program, f) =>
  registerOf(defineLeaf({
    name: 'completion',
    summary: `Print a shell completion script (${orList(SHELLS)})`,
    args: [{ name: '[shell]', description: `${SHELLS.join(', ')} (default: from $SHELL)`, values: SHELLS }],
    help: INSTALL_HELP,
    // Installing is the help text above, step by step: the examples only print a script.
    examples: ['sct completion zsh', 'sct completion bash | less'],
    run: (ctx, _o, [shell]) => completion(ctx, shell, () => f.fullProgram(ctx.io)),
  }))(program, f);

export async function completion(ctx: Context, shell: string | undefined, tree: () => Promise<Command>): Promise<void> {
  if (shell === undefined) {
    const fromEnv = (ctx.env.SHELL ?? '').split('/').pop() ?? '';
    if (!(SHELLS as readonly string[]).includes(fromEnv)) {
      throw new UsageError(`name the shell: sct completion ${SHELLS.join('|')} ($SHELL is "${ctx.env.SHELL ?? ''}")`);
    }
    shell = fromEnv;
  }
  // An enum value in any case, as every other (`sct completion ZSH`).
  const named = shell.toLowerCase();
  if (!(SHELLS as readonly string[]).includes(named)) throw new UsageError(`unsupported shell "${shell}": use one of ${SHELLS.join(', ')}`);
  shell = named;
  await ctx.io.write(completionScript(await tree(), shell as Shell));
}

interface Opt {
  flags: string[];
  description: string;
  /** Allowed values of an enum flag; with `open`, the starts of a value (`--filter`'s `key=`). */
  values?: string[];
  /** The value goes on after a completed word: no space after it. */
  open?: boolean;
  /** Completed from the profiles in the config file at completion time. */
  profiles?: boolean;
  takesValue: boolean;
  /** Its value is a file or a directory (`<file>`, `<path>`, `<dir>`): file names are offered, for no other value. */
  files: boolean;
  /** Declared on the program (a global option) rather than on this command. */
  global: boolean;
}

interface Node {
  path: string;
  description: string;
  subcommands: { name: string; description: string }[];
  options: Opt[];
  /** Values of the first positional argument (shells, config keys). */
  positional?: string[];
  /** Its arguments are files (`<file>`, `<files...>`): file names are offered for them, and for no other argument. */
  fileArguments?: boolean;
  /** Hidden spellings that take a value (`--orders`, `--country`): never offered, but the word after one is its value. */
  hiddenValueFlags: string[];
}

/** Every flag the word after which is its value, hidden aliases included. */
function valueFlagsOf(nodes: Node[]): string[] {
  return [...new Set(nodes.flatMap((n) => [...n.options.filter((o) => o.takesValue).flatMap((o) => o.flags), ...n.hiddenValueFlags]))];
}

/** The allowed values of an enum flag, as the option holds them: commander's `.choices()`, or enumOption's. */
export function enumValues(o: Option): string[] | undefined {
  if (o.argChoices) return [...o.argChoices];
  const values = enumOptionValues(o);
  return values ? [...values] : undefined;
}

/**
 * A list's `--filter` takes `key=value`: its documented keys (those the list's own flags do not
 * already send: --search, --ordering, --limit, --offset), each ready for its value.
 */
function filterKeys(cmd: Command, o: Option): string[] | undefined {
  if (o.long !== '--filter') return undefined;
  const keys = filtersOf(cmd)?.keys.filter((k) => !PAGING.includes(k));
  return keys?.length ? keys.map((k) => `${k}=`) : undefined;
}

/** The values of a command's first argument, where it declares them (a shell, a config key). */
function positionalValues(cmd: Command): string[] | undefined {
  const first = cmd.registeredArguments[0];
  const values = first && argumentValues(first);
  return values ? [...values] : undefined;
}

function walk(cmd: Command, prefix: string, out: Node[], inherited: Option[]): void {
  const own = (cmd.options as readonly Option[]).filter((o) => !o.hidden);
  const toOpt = (o: Option, global: boolean): Opt => {
    const keys = filterKeys(cmd, o);
    // `-o geojson` is offered where it is taken (origins list and get): there as a value of the
    // command's own, every other command's -o without it.
    const geojson = o.long === '--output' && isGeojsonCommand(cmd);
    const values = o.long === '--output' && !geojson ? enumValues(o)?.filter((v) => v !== 'geojson') : enumValues(o);
    return {
      flags: [o.short, o.long].filter((x): x is string => Boolean(x)),
      description: o.description,
      ...(keys ? { values: keys, open: true } : { values }),
      profiles: o.long === '--profile' || undefined,
      // `--json [fields]`: the next word may as well be a command or an argument.
      takesValue: o.required,
      files: o.required && /<(file|path|dir)\b/i.test(o.flags),
      global: global && !geojson,
    };
  };
  out.push({
    path: prefix,
    description: cmd.description(),
    // A command's line in a list is its summary where it has one (the groups: src/cli/groups.ts).
    subcommands: cmd.commands.map((c) => ({ name: c.name(), description: c.summary() || c.description() })),
    options: [...own.map((o) => toOpt(o, prefix === '')), ...inherited.map((o) => toOpt(o, true))],
    hiddenValueFlags: (cmd.options as readonly Option[]).filter((o) => o.hidden && o.required).flatMap((o) => [o.short, o.long].filter((x): x is string => Boolean(x))),
    positional: positionalValues(cmd),
    fileArguments: cmd.registeredArguments.some((a) => /^files?$/.test(a.name())) || undefined,
  });
  for (const c of cmd.commands) walk(c, prefix ? `${prefix} ${c.name()}` : c.name(), out, prefix === '' ? [...own] : inherited);
}

export function completionScript(program: Command, shell: Shell): string {
  const nodes: Node[] = [];
  walk(program, '', nodes, []);
  // `sct help WORD`: commander's help command is no command of the tree; it takes a group or a topic.
  const groups = nodes[0]!.subcommands.map((c) => c.name);
  if (!groups.includes('help')) {
    nodes[0]!.subcommands.push({ name: 'help', description: 'help for a command, or a topic (sct help TOPIC)' });
    // A topic may share a group's name (config): offered once.
    nodes.push({ path: 'help', description: 'help for a command, or a topic', subcommands: [], options: [], hiddenValueFlags: [], positional: [...new Set([...groups, ...HELP_TOPICS])] });
    // `sct help orders WORD`: the group's commands.
    for (const group of nodes.filter((n) => n.path !== '' && !n.path.includes(' ') && n.subcommands.length > 0)) {
      nodes.push({ path: `help ${group.path}`, description: group.description, subcommands: [], options: [], hiddenValueFlags: [], positional: group.subcommands.map((c) => c.name) });
    }
  }
  if (shell === 'fish') return fish(nodes);
  return shell === 'bash' ? bash(nodes) : zsh(nodes);
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
// Without SCT_PROFILE: one naming a profile not made yet (the moment its name is wanted) makes
// `config profiles` exit 2, and the completion would offer nothing.
// Only names sct takes as --profile (src/config/settings.ts): a config file edited by hand may hold others.
const PROFILES_CMD = `env -u SCT_PROFILE sct config profiles -o json --jq '.[].name | select(test("^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))' 2>/dev/null`;

/** `path|flag` case patterns: global options once for every path, then each command's own. */
function valueCases(nodes: Node[], body: (o: Opt) => string): string {
  const lines: { global: boolean; text: string }[] = [];
  const seenGlobal = new Set<string>();
  for (const n of nodes) {
    for (const o of n.options) {
      if (!o.takesValue) continue;
      const pats = o.global ? o.flags.filter((f) => !seenGlobal.has(f)).map((f) => `*${q('|' + f)}`) : o.flags.map((f) => q(`${n.path}|${f}`));
      if (o.global) o.flags.forEach((f) => seenGlobal.add(f));
      if (pats.length) lines.push({ global: o.global, text: `    ${pats.join('|')}) ${body(o)} ;;` });
    }
  }
  // Specific (per command) patterns first: `*|--x` must not shadow `dds list|--x`.
  return [...lines.filter((l) => !l.global), ...lines.filter((l) => l.global)].map((l) => l.text).join('\n');
}

/**
 * Shell code shared by bash and zsh: find the command path and count positionals before the
 * cursor. The words are whole, as the shell took them (bash's pieces joined again by _sct).
 */
function pathLoop(nodes: Node[], words: string, first: number, last: string): string {
  const valueFlags = valueFlagsOf(nodes);
  return `  cmdpath="" npos=0 afterdash=0
  paths="|${nodes.map((n) => n.path).filter(Boolean).join('|')}|"
  # What --json takes as its field list (src/cli/argv.ts): names, dotted, comma-separated.
  fieldre='^[A-Za-z_][A-Za-z0-9_]*([.][A-Za-z0-9_]+)*(,[A-Za-z_][A-Za-z0-9_]*([.][A-Za-z0-9_]+)*)*$'
  for ((i=${first}; i<${last}; i++)); do
    w="\${${words}[i]}"
    case "$w" in
      --) afterdash=1; continue ;;
      # --json id,name: the fields are no argument, unless the word is a command (sct --json whoami).
      --json) w="\${${words}[i+1]}"
        if [[ "$w" =~ $fieldre && "$paths" != *"|\${cmdpath:+$cmdpath }$w|"* ]]; then i=$((i+1)); fi
        continue ;;
      # The word after a flag that takes a value is its value (--flag=value is one word: both).
      -*) case " ${valueFlags.join(' ')} " in *" $w "*) i=$((i+1)) ;; esac; continue ;;
    esac
    candidate="\${cmdpath:+$cmdpath }$w"
    case "$paths" in
      *"|$candidate|"*) cmdpath="$candidate" ;;
      *) npos=$((npos+1)) ;;
    esac
  done`;
}

function bash(nodes: Node[]): string {
  const valCases = valueCases(nodes, (o) =>
    // Matched here, not by compgen -W, which would expand a $(…) in a name from the config file.
    o.profiles ? `COMPREPLY=(); while IFS= read -r w; do [[ "$w" == "$cur"* ]] && COMPREPLY+=( "$w" ); done < <(${PROFILES_CMD}); return` : o.values ? `COMPREPLY=( $(compgen -W ${q(o.values.join(' '))} -- "$cur") );${o.open ? ' compopt -o nospace 2>/dev/null;' : ''} return` : o.files ? `__sct_files "$cur"; return` : 'COMPREPLY=(); return',
  );
  const subCases = nodes.map((n) => `    ${q(n.path)}) opts=${q([...n.subcommands.map((s) => s.name), ...(n.positional ?? [])].join(' '))} ;;`).join('\n');
  const flagCases = nodes.map((n) => `    ${q(n.path)}) opts=${q(n.options.flatMap((o) => o.flags).join(' '))} ;;`).join('\n');
  return `# bash completion for sct — generated from the command tree by \`sct completion bash\`
# File names one to a line (a space is part of a name), quoted and with a "/" after a directory.
__sct_files() {
  compopt -o filenames 2>/dev/null
  local IFS=$'\\n'
  COMPREPLY=( $(compgen -f -- "$1") )
}
_sct() {
  local cur prev cmdpath w i npos opts candidate afterdash paths fieldre at blanks
  local -a glued whole
  # bash splits a word at its COMP_WORDBREAKS (--type=order as --type = order, a URL as
  # https : //u : p @ host : 8443/api): a word no blank precedes in the line is a piece of the
  # word before it (glued). COMP_WORDS holds each word as typed, quotes included; from a word the
  # line does not hold there on, every word is taken whole.
  at=0
  for ((i=0; i<=COMP_CWORD; i++)); do
    blanks="\${COMP_LINE:at}"; blanks="\${blanks%%[^[:space:]]*}"
    at=$((at+\${#blanks}))
    [[ "\${COMP_LINE:at:\${#COMP_WORDS[i]}}" == "\${COMP_WORDS[i]}" ]] || break
    (( i > 0 && \${#blanks} == 0 )) && glued[i]=1
    at=$((at+\${#COMP_WORDS[i]}))
  done
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # --type=<TAB>: the word at the cursor is the "=" itself, and what is completed comes after it.
  if [[ "$cur" == "=" && -n "\${glued[COMP_CWORD]}" ]]; then cur=""
  # --type=or<TAB>: the flag is the word before the "=".
  elif [[ "$prev" == "=" ]]; then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  # The words before the one at the cursor, each piece joined to the word it was split from: a
  # value is one word, whatever its pieces are (a URL's host called "api" is no command).
  at=$COMP_CWORD
  while [[ -n "\${glued[at]}" ]]; do at=$((at-1)); done
  for ((i=0; i<at; i++)); do
    if [[ -n "\${glued[i]}" ]]; then whole[\${#whole[@]}-1]+="\${COMP_WORDS[i]}"; else whole+=( "\${COMP_WORDS[i]}" ); fi
  done
${pathLoop(nodes, 'whole', 1, '${#whole[@]}')}
  case "$cmdpath|$prev" in
${valCases}
  esac
  opts=""
  # After "--" every word is an argument: no flags.
  if [[ "$cur" == -* && $afterdash == 0 ]]; then
    case "$cmdpath" in
${flagCases}
    esac
  elif [[ $npos == 0 ]]; then
    # Subcommands (or the first argument's values) only: flags after a "-".
    case "$cmdpath" in
${subCases}
    esac
  fi
  if [[ -z "$opts" && ( "$cur" != -* || $afterdash == 1 ) ]]; then
    # An argument: file names where it is a file, else nothing.
    case "|${nodes.filter((n) => n.fileArguments).map((n) => n.path).join('|')}|" in
      *"|$cmdpath|"*) __sct_files "$cur"; return ;;
    esac
    COMPREPLY=(); return
  fi
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
# Without -o default: where nothing sct knows matches, nothing is offered (never file names in
# place of a flag's value or a command); file names only where a file is taken (__sct_files).
complete -F _sct sct
`;
}

const zq = (name: string, description: string) => q(`${name.replace(/:/g, '\\:')}:${description.replace(/\n/g, ' ')}`);

function zsh(nodes: Node[]): string {
  const valCases = valueCases(nodes, (o) =>
    o.profiles
      ? `vals=( \${(f)"$(${PROFILES_CMD})"} ); _describe -t profiles 'profile' vals; return`
      : o.values
        ? // The description must not start with "-": _describe would take it for one of its options.
          `vals=( ${o.values.map(q).join(' ')} ); _describe -t values ${q(`value of ${o.flags[o.flags.length - 1]}`)} vals${o.open ? " -S ''" : ''}; return`
        : o.files
          ? `_files; return`
          : `return 1`,
  );
  const subCases = nodes
    .map((n) => `    ${q(n.path)}) items=( ${[...n.subcommands.map((s) => zq(s.name, s.description)), ...(n.positional ?? []).map((p) => q(p))].join(' ')} ) ;;`)
    .join('\n');
  const flagCases = nodes.map((n) => `    ${q(n.path)}) items=( ${n.options.flatMap((o) => o.flags.map((f) => zq(f, o.description))).join(' ')} ) ;;`).join('\n');
  return `#compdef sct
# zsh completion for sct — generated from the command tree by \`sct completion zsh\`
_sct() {
  # Not "path": in zsh that is $PATH.
  local cur prev cmdpath w i npos candidate afterdash paths fieldre
  local -a items vals
  cur="\${words[CURRENT]}"
  prev="\${words[CURRENT-1]}"
  # --type=<TAB>: the flag is the word up to "=", and what follows it is completed as its value.
  if [[ "$cur" == --*=* ]]; then
    prev="\${cur%%=*}"
    compset -P '*='
    cur="\${cur#*=}"
  fi
${pathLoop(nodes, 'words', 2, 'CURRENT')}
  case "$cmdpath|$prev" in
${valCases}
  esac
  if [[ $afterdash == 1 ]]; then
    # After "--" every word is an argument: no flags.
    __sct_arguments
  elif [[ "$cur" == -* ]]; then
    case "$cmdpath" in
${flagCases}
    esac
    _describe -t options 'option' items
  elif [[ $npos == 0 ]]; then
    # Subcommands (or the first argument's values) only: flags after a "-".
    case "$cmdpath" in
${subCases}
    esac
    (( \${#items} )) && _describe -t commands 'command' items || __sct_arguments
  else
    __sct_arguments
  fi
}
# An argument: file names where it is a file, else nothing.
__sct_arguments() {
  case "|${nodes.filter((n) => n.fileArguments).map((n) => n.path).join('|')}|" in
    *"|$cmdpath|"*) _files ;;
    *) return 1 ;;
  esac
}
if [ "\${funcstack[1]}" = "_sct" ]; then
  _sct "$@"
else
  compdef _sct sct
fi
`;
}

function fish(nodes: Node[]): string {
  const valueFlags = valueFlagsOf(nodes);
  // Both functions skip flags and the word after a flag that takes a value.
  // And, after --json, a field list (no command's name), as the bash and zsh loops do.
  const skip = [
    '        if test $skip = 1; set skip 0; continue; end',
    '        if test $skip = 2; set skip 0; if string match -qr -- $__sct_fieldre $w; and not contains -- $w $__sct_names; continue; end; end',
    '        if test $w = --json; set skip 2; continue; end',
    '        if string match -q -- "-*" $w; contains -- $w $__sct_value_flags; and set skip 1; continue; end',
  ];
  const lines = [
    '# fish completion for sct — generated from the command tree by `sct completion fish`',
    `set -g __sct_value_flags ${valueFlags.map(q).join(' ')}`,
    `set -g __sct_names ${[...new Set(nodes.flatMap((n) => n.subcommands.map((c) => c.name)))].map(q).join(' ')}`,
    `set -g __sct_fieldre ${q('^[A-Za-z_][A-Za-z0-9_]*([.][A-Za-z0-9_]+)*(,[A-Za-z_][A-Za-z0-9_]*([.][A-Za-z0-9_]+)*)*$')}`,
    'function __sct_path',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l path ""',
    '    set -l skip 0',
    `    set -l known ${nodes.map((n) => n.path).filter(Boolean).map(q).join(' ')}`,
    '    for w in $words',
    ...skip,
    '        set -l candidate (string trim -- "$path $w")',
    '        contains -- $candidate $known; and set path $candidate',
    '    end',
    '    echo $path',
    'end',
    '# How many arguments (words neither flags nor part of the command path) precede the cursor.',
    'function __sct_npos',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l n 0',
    '    set -l skip 0',
    '    for w in $words',
    ...skip,
    '        set n (math $n + 1)',
    '    end',
    '    math $n - (count (string split -n " " -- (__sct_path)))',
    'end',
    'complete -c sct -f',
  ];
  for (const n of nodes) {
    const cond = `test (__sct_path) = ${q(n.path)}`;
    for (const s of n.subcommands) lines.push(`complete -c sct -n ${q(cond)} -a ${q(s.name)} -d ${q(s.description)}`);
    if (n.positional) lines.push(`complete -c sct -n ${q(`${cond}; and test (__sct_npos) = 0`)} -a ${q(n.positional.join(' '))}`);
    if (n.fileArguments) lines.push(`complete -c sct -n ${q(cond)} -F`);
    for (const o of n.options) {
      const parts = o.flags.map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`)).join(' ');
      const value = o.profiles ? ` -x -a ${q(`(${PROFILES_CMD})`)}` : o.values ? ` -x -a ${q(o.values.join(' '))}` : o.files ? ' -r -F' : o.takesValue ? ' -x' : '';
      lines.push(`complete -c sct -n ${q(cond)} ${parts}${value} -d ${q(o.description)}`);
    }
  }
  return lines.join('\n') + '\n';
}
