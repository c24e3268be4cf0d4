// The one place where an error becomes an exit code and a message on stderr (and, with
// `-o json`, a JSON object too).
import { CommanderError, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadColor, type IOStreams } from '../output/iostreams.js';
import { exitCodeFor, SctError, isAbortError, ClosedPipeError } from '../errors.js';
import { stripControl, stripControlDeep } from '../output/sanitize.js';
import { isGroup } from './groups.js';

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
 * `--password=…`) left out: commander repeats an unknown option as typed.
 */
export function withoutFlagSecrets(text: string): string {
  return text.replace(/(--[\w-]*(?:token|password|secret)[\w-]*=)[^'\s]*/gi, '$1…');
}

export function isHelpOrVersion(err: unknown): boolean {
  return err instanceof CommanderError && (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help');
}

/**
 * Prints the error (and with -o json its object) and returns the exit code. `exitCode` maps the
 * code the error has to the one the process ends with (130 → 143 when SIGTERM stopped the run),
 * so the JSON object says the same code as the process.
 */
export async function reportError(err: unknown, io: IOStreams, argv: string[], asJson: boolean, exitCode: (code: number) => number = (c) => c): Promise<number> {
  if (err instanceof CommanderError) {
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
    if (err.code === 'commander.unknownCommand' && !/Did you mean/.test(err.message)) {
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
  await loadColor(io);
  const own = exitCodeFor(err);
  const code = exitCode(own);
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const e = err instanceof Error ? err : new Error(String(err));
  // Messages quote what the service holds (a name, an id, a field error): never raw to a terminal.
  const message = own === 130 && isAbortError(err) ? 'interrupted' : stripControl(e.message);
  const red = io.colorErr.red;
  io.error(`${red('error:')} ${message}`);
  const fields = err instanceof SctError ? err.fields : {};
  for (const [field, msgs] of Object.entries(fields)) {
    for (const m of msgs) io.error(`  ${stripControl(field)}: ${stripControl(m)}`);
  }
  if (err instanceof SctError && err.hint) io.error(io.colorErr.dim(`hint: ${stripControl(err.hint)}`));
  if (verbose && !(err instanceof SctError) && e.stack) io.error(io.colorErr.dim(e.stack));
  if (asJson) {
    const status = err instanceof SctError ? err.status : null;
    // Field names are the service's too: stripped as their messages are.
    io.error(JSON.stringify(stripControlDeep({ error: message, status, fields, exit_code: code })));
  }
  return code;
}

