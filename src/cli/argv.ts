// Reading argv before commander does: which command a run names (so only its group is loaded),
// and the rewrites that keep commander from guessing (`--json FIELDS`, values starting with `-`).
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { isGroup } from './groups.js';
import { globalValueFlags } from './global-options.js';

/** What `--json FIELDS` takes: field names (dotted paths), comma-separated, never only digits. */
const FIELD_LIST = /^[A-Za-z_]\w*(\.\w+)*(,[A-Za-z_]\w*(\.\w+)*)*$/;

/** The first word that is a command, skipping program's global options and their values. */
export function commandWord(program: Command, argv: string[]): string | undefined {
  const valueFlags = globalValueFlags(program);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (valueFlags.has(a) || (a === '--json' && FIELD_LIST.test(argv[i + 1] ?? '') && !isGroup(argv[i + 1]))) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return undefined;
}

/**
 * `sct help orders list` asks what `sct orders list --help` answers. `sct help orders` and the
 * topics (`sct help config`) stay as they are: a group's help, or the topic.
 */
export function leafHelpAsFlag(program: Command, argv: string[]): string[] {
  const at = argv.indexOf('help');
  const rest = argv.slice(at + 1);
  const group = commandWord(program, rest);
  if (group === undefined || !isGroup(group) || commandWord(program, rest.slice(rest.indexOf(group) + 1)) === undefined) return argv;
  return [...argv.slice(0, at), ...rest, '--help'];
}

/**
 * `sct auth help login` as `sct auth login --help`, `sct auth help` as `sct auth --help`:
 * commander's own `help [command]` of a group showed the group's help, exit 0, for a command the
 * group does not have (`sct auth help logn`), which is now the unknown command it is (exit 2,
 * with its suggestion), as `sct help auth logn` is.
 */
export function groupHelpAsFlag(program: Command, argv: string[], group: string): string[] {
  const at = argv.indexOf(group);
  const rest = argv.slice(at + 1);
  if (commandWord(program, rest) !== 'help') return argv;
  const help = at + 1 + rest.indexOf('help');
  return [...argv.slice(0, help), ...argv.slice(help + 1), '--help'];
}

/**
 * `--json` takes an optional field list, and the word after it is that list only when it reads as
 * one (names made of letters, digits and `_`, dotted, comma-separated, the first character not a
 * digit: `5` or a UUID never is) **and** the command is not still waiting for a positional
 * argument that this word would be: `sct orders get --json 5` gets order 5 as JSON,
 * `sct config get --json workspace` reads the key, `sct orders get 5 --json id,type` picks fields.
 * Rewritten as `--json=FIELDS` or `--json=` (bare) so commander never guesses.
 */
export function resolveJsonFlag(program: Command, argv: string[]): string[] {
  return rewriteArgs(argv, (a, next, i) => {
    // `--json="$FIELDS"` with FIELDS unset: an empty list, as `--columns=` is (a bare --json has no "=").
    if (a === '--json=') throw noFields();
    if (a !== '--json') return [[a], 1];
    // A word meant as fields but mistyped (`id, external_id`, `id-x`, `,id` of "$A,$B" with A
    // unset), where no argument is due, is the field list too: its check names what is wrong,
    // not "too many arguments".
    const fieldsLike = (w: string) => FIELD_LIST.test(w) || (/^[\s,]*[A-Za-z_][\w., -]*$/.test(w) && /[,.\s-]/.test(w));
    if (next !== undefined && fieldsLike(next) && !positionalExpected(program, argv, i + 1)) return [[`--json=${next}`], 2];
    // `--json "$FIELDS"` with FIELDS unset: the empty word is no positional either.
    if (next !== undefined && /^[\s,]*$/.test(next) && !positionalExpected(program, argv, i + 1)) throw noFields();
    return [['--json='], 1];
  });
}

const noFields = () => new UsageError('--json needs at least one field name', {}, 'a bare --json (no word after it) is -o json with every field');

/**
 * argv rewritten word by word up to a `--` (which and what follows it are copied as they are):
 * `step` says what to put out for argv[i] and how many words it took.
 */
function rewriteArgs(argv: string[], step: (a: string, next: string | undefined, i: number) => [string[], number]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; ) {
    if (argv[i] === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const [emit, used] = step(argv[i], argv[i + 1], i);
    out.push(...emit);
    i += used;
  }
  return out;
}

/**
 * Whether the word argv[skip] cannot be a field list: it names a sub-command where one may still
 * come, or the command typed in argv has room for one more positional argument than those given
 * besides it.
 */
function positionalExpected(program: Command, argv: string[], skip: number): boolean {
  let cmd = program;
  const takesValue = (c: Command, flag: string) => {
    for (let x: Command | null = c; x; x = x.parent) {
      const o = x.options.find((opt) => opt.long === flag || opt.short === flag);
      if (o) return o.required && o.long !== '--json';
    }
    return false;
  };
  let given = 0;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      given += argv.length - i - 1;
      break;
    }
    if (i === skip) {
      // `sct --json whoami`: a word naming a sub-command where one may still come is the command.
      if (given === 0 && subCommand(cmd, a)) return true;
      continue;
    }
    if (a === '--json') {
      if (i + 1 !== skip && FIELD_LIST.test(argv[i + 1] ?? '')) i++;
      continue;
    }
    // `-` alone is an argument (stdin), not an option.
    if (a.startsWith('-') && a !== '-') {
      if (!a.includes('=') && takesValue(cmd, a)) i++;
      continue;
    }
    const sub = subCommand(cmd, a);
    if (sub && given === 0) cmd = sub;
    else given++;
  }
  const args = cmd.registeredArguments;
  // A list of arguments (files, key=value pairs) takes any number of words, but once it has one,
  // a field list after --json is fields (`origins check a.geojson --json feature,level`), unless a
  // file of that name is there (`origins check a.geojson --json b.geojson`).
  const list = args.find((x) => x.variadic);
  if (list) {
    // A list of key=value pairs never takes a word without "=" (`user-config set --file f --json config.theme`).
    if (list.name().includes('=') && !(argv[skip] ?? '').includes('=')) return false;
    return given < args.length || existsSync(argv[skip] ?? '');
  }
  return given < args.length;
}

const subCommand = (cmd: Command, word: string): Command | undefined => cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));

/**
 * `--ordering -created_at`: a value that starts with a dash belongs to the option before it.
 * Commander would read it as options of its own (`-o rdering…`), because global options are
 * parsed before the sub-command's; joining it as `--ordering=-created_at` says what is meant.
 */
export function attachDashValues(program: Command, argv: string[]): string[] {
  const takesValue = new Set<string>();
  const walk = (cmd: Command) => {
    // Options whose value is optional (--json [fields]) are --json's own rule's business.
    for (const o of cmd.options) if (o.long && o.required) takesValue.add(o.long);
    cmd.commands.forEach(walk);
  };
  walk(program);
  return rewriteArgs(argv, (a, next) =>
    // As getopt and gh's pflag do, an option that needs a value takes the next word whatever it
    // is, `--` included (`--search --` searches for "--"; the marker ends options only elsewhere).
    takesValue.has(a) && next !== undefined && next.startsWith('-') ? [[`${a}=${next}`], 2] : [[a], 1],
  );
}

/**
 * A global short flag given alone (`-q`) or among others (`-qy`, `-yq`), as commander reads
 * them: `-o` takes the rest of its word as its value (`-oq` is `-o q`). Read before commander,
 * as the streams are made before the command line is.
 */
export function hasShortFlag(argv: string[], flag: string): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (!/^-[A-Za-z]+$/.test(a)) continue;
    for (const c of a.slice(1)) {
      if (c === flag) return true;
      if (c === 'o') break;
    }
  }
  return false;
}
