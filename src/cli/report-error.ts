// The one place where an error becomes an exit code and a message on stderr (and, with
// `-o json`, a JSON object too).
import { CommanderError, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadColor, type IOStreams } from '../output/iostreams.js';
import { exitCodeFor, SctError, isAbortError, ClosedPipeError, UsageError } from '../errors.js';
import { cleanCell, stripControlDeep } from '../util/sanitize.js';
import { shownFieldErrors } from '../api/errors.js';
import { isGroup } from './groups.js';
import { FORMATS } from '../output/formats.js';

/**
 * The -o/--json value on the command line, if any: the last one given, as commander keeps it, in
 * any case (`-o JSON`, as every enum value).
 */
function outputFlag(argv: string[]): string | undefined {
  let format: string | undefined;
  argv.forEach((a, i) => {
    if ((a === '-o' || a === '--output') && i + 1 < argv.length) format = argv[i + 1];
    else if (a.startsWith('--output=')) format = a.slice('--output='.length);
    else if (/^-o[a-z]+$/i.test(a)) format = a.slice(2);
  });
  // The -o given decides (`-o csv --jq .` asked for csv, and is told so in words); without one,
  // --json and --jq are JSON output.
  if (format !== undefined) return format.toLowerCase();
  return argv.some((a) => a === '--json' || a.startsWith('--json=') || a === '--jq' || a.startsWith('--jq=')) ? 'json' : undefined;
}

/**
 * Whether an error also goes out as a JSON object: the output is json or ndjson, from the flag
 * or else from the profile (`sct config set output json`), as for the data itself.
 */
export async function errorsAsJson(argv: string[], program: Command, env: NodeJS.ProcessEnv): Promise<boolean> {
  const format = outputFlag(argv) ?? (await profileOutput(program, env));
  return format === 'json' || format === 'ndjson';
}

async function profileOutput(program: Command, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  // The failure may be the config file itself (it does not parse): then there is no profile
  // format to honour. A missing file is not created just to be read.
  try {
    const [{ ConfigStore }, { configDir }, { profileName }] = await Promise.all([import('../config/config.js'), import('../config/paths.js'), import('../config/settings.js')]);
    const dir = configDir(env);
    if (!existsSync(join(dir, 'config.json'))) return undefined;
    return new ConfigStore(dir).profile(profileName(program.opts().profile, env)).output;
  } catch {
    return undefined;
  }
}

/**
 * A usage error's text with the value of a flag that carries a secret (`--token=…`, a mistyped
 * `--password=…`) left out, and any value given to an unknown option (`--tokn=…`, `--bearer=…`:
 * no name tells which hold one): commander repeats an unknown option as typed, into CI logs.
 */
export function withoutFlagSecrets(text: string): string {
  // An unknown option is named alone, up to its `=` or, short, its one letter (`-xVALUE`,
  // `-qxVALUE`: commander names the rest as typed, quotes and all).
  return text
    .replace(/(--[\w-]*(?:token|password|secret)[\w-]*=)[^'\s]*/gi, '$1…')
    .replace(/(unknown option ')(--[^=\s']+|-[^-\s'])[^\n]*'/g, "$1$2'");
}

export function isHelpOrVersion(err: unknown): boolean {
  return err instanceof CommanderError && (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help');
}

/**
 * Prints the error (and with -o json its object) and returns the exit code. `exitCode` maps the
 * code the error has to the one the process ends with (130 → 143 when SIGTERM stopped the run),
 * so the JSON object says the same code as the process.
 */
export async function reportError(
  err: unknown,
  io: IOStreams,
  argv: string[],
  asJson: boolean,
  exitCode: (code: number) => number = (c) => c,
  /** The whole command tree, loaded only for a usage error's hint. */
  tree?: () => Promise<Command>,
): Promise<number> {
  if (err instanceof CommanderError) {
    const hint = tree && (await usageHint(err, argv, tree));
    if (hint) io.error(`hint: ${cleanCell(hint)}`);
    // commander already printed its message ("error: unknown option '--x'").
    // `sct auth login --with-token TOKEN`: the token given where it is never taken.
    if (err.code === 'commander.excessArguments' && argv.includes('auth') && argv.includes('login')) {
      io.error('hint: a token is never an argument (it would land in shell history and `ps`): pipe it in with `sct auth login --with-token < token.txt`, or set SCT_TOKEN');
    }
    // `--token=VALUE` on a command that has no such flag: never taken, never repeated.
    if (err.code === 'commander.unknownOption' && /'--token\b/.test(err.message)) {
      io.error('hint: a token is never taken from a flag (it would land in shell history and `ps`): set SCT_TOKEN, or pipe it to `sct auth login --with-token`');
    }
    // No name close enough to suggest (`sct risk get`): where the names are.
    if (err.code === 'commander.unknownCommand' && !/Did you mean/.test(err.message) && !hint) {
      const unknown = /unknown command '([^']*)'/.exec(err.message)?.[1];
      const group = argv.find((w) => w !== unknown && isGroup(w));
      io.error(`hint: \`sct ${group ? `${group} ` : ''}--help\` lists ${group ? 'its' : 'the'} commands`);
    }
    if (asJson) {
      const message = withoutFlagSecrets(err.message.replace(/^error: /, ''));
      io.error(JSON.stringify({ error: message, status: null, fields: {}, exit_code: 2 }));
    }
    return 2;
  }
  // `sct … | head`: the reader has gone, and there is nobody to tell.
  if (err instanceof ClosedPipeError) return err.exitCode;
  // A path taken from the current directory (a relative --report, SCT_CONFIG_DIR) once that
  // directory was removed under the shell: Node's words are "ENOENT …, uv_cwd".
  if ((err as NodeJS.ErrnoException | undefined)?.syscall === 'uv_cwd') {
    err = new UsageError('the current directory no longer exists (it was removed)', {}, 'run sct from a directory that exists, or give every path in full');
  }
  // Data nested past what a call stack walks (an answer or a file of arrays in arrays, thousands
  // deep): said as what it is, not as V8's words.
  if (err instanceof RangeError && err.message.includes('Maximum call stack size exceeded')) {
    err = new SctError('the data is nested too deeply to handle (an array or object inside thousands of others): stopped there');
  }
  await loadColor(io);
  const own = exitCodeFor(err);
  const code = exitCode(own);
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const e = err instanceof Error ? err : new Error(String(err));
  // Messages quote what the service holds (a name, an id, a field error): never raw to a
  // terminal, and each on its line (a line break in a role's name would draw an error line).
  // (io's lines mask SCT_TOKEN, wherever a message might quote it: a value the user pasted it into.)
  const message = own === 130 && isAbortError(err) ? 'interrupted' : cleanCell(e.message);
  const red = io.colorErr.red;
  io.error(`${red('error:')} ${message}`);
  const { fields, notShown } = shownFieldErrors(err instanceof SctError ? err.fields : {});
  for (const [field, msgs] of Object.entries(fields)) {
    for (const m of msgs) io.error(`  ${cleanCell(field)}: ${cleanCell(m)}`);
  }
  if (notShown > 0) io.error(`  (${notShown.toLocaleString('en-US')} more field errors not shown)`);
  if (err instanceof SctError && err.hint) io.error(io.colorErr.dim(`hint: ${cleanCell(err.hint)}`));
  if (verbose && !(err instanceof SctError) && e.stack) io.error(io.colorErr.dim(e.stack));
  if (asJson) {
    const status = err instanceof SctError ? err.status : null;
    // Field names are the service's too: stripped as their messages are.
    io.error(JSON.stringify(stripControlDeep({ error: message, status, fields, ...(notShown > 0 && { fields_not_shown: notShown }), exit_code: code })));
  }
  return code;
}

/** Options that other CLIs spell another way, and sct's spelling. */
const OTHER_SPELLINGS: Record<string, string> = { '--format': `-o/--output FORMAT (${FORMATS.join(', ')})`, '--fields': '--columns FIELDS (or --json FIELDS)', '--query': '--jq EXPR (or --search TEXT on a list)' };

/**
 * What a newcomer most likely meant by a usage error commander has no suggestion for: a command
 * given without its group (`sct login`), a command's option before the command (`sct --limit 5
 * orders list`), another CLI's option name (`--format`), a file given without --file.
 */
async function usageHint(err: CommanderError, argv: string[], tree: () => Promise<Command>): Promise<string | undefined> {
  const groupAt = argv.findIndex((w) => isGroup(w));
  if (err.code === 'commander.unknownCommand' && groupAt < 0 && !/Did you mean/.test(err.message)) {
    const word = /unknown command '([^']*)'/.exec(err.message)?.[1];
    if (!word) return undefined;
    const found = (await tree()).commands.flatMap((g) => g.commands.filter((c) => c.name() === word || c.aliases().includes(word)).map((c) => `sct ${g.name()} ${c.name()}`));
    return found.length ? `did you mean ${found.slice(0, 3).map((c) => `\`${c}\``).join(' or ')}?` : undefined;
  }
  if (err.code === 'commander.unknownOption') {
    const flag = /unknown option '([^'=]*)/.exec(err.message)?.[1];
    if (!flag) return undefined;
    if (OTHER_SPELLINGS[flag]) return `sct's option for that is ${OTHER_SPELLINGS[flag]}`;
    const at = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
    if (groupAt < 0 || at < 0 || at > groupAt) return undefined;
    const group = (await tree()).commands.find((g) => g.name() === argv[groupAt]);
    const leaf = group?.commands.find((c) => c.name() === argv[groupAt + 1]);
    const cmd = leaf ?? group;
    if (!cmd?.options.some((o) => o.long === flag || o.short === flag)) return undefined;
    return `${flag} is an option of \`sct ${[group!.name(), leaf?.name()].filter(Boolean).join(' ')}\`: give it after the command`;
  }
  if (err.code === 'commander.excessArguments' && groupAt >= 0) {
    const group = (await tree()).commands.find((g) => g.name() === argv[groupAt]);
    const leaf = group?.commands.find((c) => c.name() === argv[groupAt + 1]);
    const file = argv.slice(groupAt + 2).find((a) => !a.startsWith('-') && (/\.(csv|tsv|txt|xlsx|ods|geojson|json|kml|kmz|gpx|zip|shp)$/i.test(a) || existsSync(a)));
    if (leaf && file && leaf.options.some((o) => o.long === '--file')) return `give the file with --file: \`sct ${group!.name()} ${leaf.name()} --file ${file}\``;
  }
  return undefined;
}
