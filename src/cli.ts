// Entry point: global options, the command-group registry, and the one place where errors
// become exit codes. Only commander is loaded at start-up; a group's module (and the API
// client, formatters, prompts it needs) is imported only when that group runs.
import { Command, CommanderError, Option } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from './version.js';
import { createIO, loadColor, type IOStreams, type IOOptions } from './output/iostreams.js';
import { exitCodeFor, SctError, isAbortError } from './errors.js';
import { createFactory, type Register, type Factory } from './commands/shared/command.js';
import type { Prompter } from './prompt.js';

interface Group {
  name: string;
  /** The heading the group is listed under in `sct --help`. */
  section: string;
  summary: string;
  load: () => Promise<{ register: Register }>;
}

/** Every command group, in help order, under its help heading (as gh groups its commands). */
const SUPPLY_CHAIN = 'Supply chain commands:';
const COMPLIANCE = 'Due diligence commands:';
const PEOPLE = 'Workspace and people commands:';
const SETUP = 'Setup and other commands:';

export const GROUPS: Group[] = [
  { name: 'orders', section: SUPPLY_CHAIN, summary: 'List, create, import and trace orders', load: () => import('./commands/orders.js') },
  { name: 'products', section: SUPPLY_CHAIN, summary: 'Manage products', load: () => import('./commands/products.js') },
  { name: 'origins', section: SUPPLY_CHAIN, summary: 'Manage origins (places of production)', load: () => import('./commands/origins.js') },
  { name: 'value-chains', section: SUPPLY_CHAIN, summary: 'Manage value chains', load: () => import('./commands/value-chains.js') },
  { name: 'dds', section: COMPLIANCE, summary: 'Due diligence statements: create, wait for, trace orders to them', load: () => import('./commands/dds.js') },
  { name: 'risk', section: COMPLIANCE, summary: 'Risk assessments and their evidence packages', load: () => import('./commands/risk.js') },
  { name: 'documents', section: COMPLIANCE, summary: 'Upload, list and download documents', load: () => import('./commands/documents.js') },
  { name: 'imports', section: COMPLIANCE, summary: 'Data exchange runs (imports)', load: () => import('./commands/imports.js') },
  { name: 'info-requests', section: COMPLIANCE, summary: 'Send information requests to suppliers', load: () => import('./commands/info-requests.js') },
  { name: 'workspaces', section: PEOPLE, summary: 'List your workspaces and switch the active one', load: () => import('./commands/workspaces.js') },
  { name: 'invitations', section: PEOPLE, summary: 'Invite people, in bulk too; revoke and renew invitations', load: () => import('./commands/invitations.js') },
  { name: 'members', section: PEOPLE, summary: 'List company members and change their roles', load: () => import('./commands/members.js') },
  { name: 'users', section: PEOPLE, summary: 'List the users of the company', load: () => import('./commands/users.js') },
  { name: 'countries', section: PEOPLE, summary: 'Country reference data', load: () => import('./commands/countries.js') },
  { name: 'user-config', section: PEOPLE, summary: 'Read and change your per-user configuration', load: () => import('./commands/user-config.js') },
  { name: 'auth', section: SETUP, summary: 'Log in, log out and show the login status', load: () => import('./commands/auth.js') },
  { name: 'config', section: SETUP, summary: 'Read and write profile settings', load: () => import('./commands/config.js') },
  { name: 'whoami', section: SETUP, summary: 'Show the logged-in user and company', load: () => import('./commands/whoami.js') },
  { name: 'api', section: SETUP, summary: 'Make an authenticated API request', load: () => import('./commands/api.js') },
  { name: 'completion', section: SETUP, summary: 'Print a shell completion script', load: () => import('./commands/completion.js') },
  { name: 'sandbox', section: SETUP, summary: 'Run a local emulator of the service with demo data', load: () => import('./commands/sandbox.js') },
  { name: 'doctor', section: SETUP, summary: 'Check configuration, connectivity and credentials', load: () => import('./commands/doctor.js') },
];

/** Global options that take a value: their values are not command names. */
const VALUE_FLAGS = new Set(['-o', '--output', '--columns', '--profile', '--base-url', '--timeout', '--max-wait']);

export interface MainDeps {
  env?: NodeJS.ProcessEnv;
  /** Streams and terminal facts (tests pass fakes); colour, quiet and verbose still follow the flags. */
  streams?: Omit<IOOptions, 'noColor' | 'quiet' | 'verbose'>;
  prompter?: Prompter;
  signal?: AbortSignal;
  /** Passed to the API client (tests: fast retries). */
  clientOptions?: Record<string, unknown>;
}

export function buildProgram(io: IOStreams): Command {
  const program = new Command('sct')
    .description('Supply Chain Transparency from the terminal: orders, origins, statements, invitations and more.')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'ndjson', 'csv']))
    .option('--json', 'short for --output json')
    .option('--columns <list>', 'fields to show in table/csv output, comma-separated (dotted paths allowed)')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('-q, --quiet', 'no spinners, progress or info lines')
    .option('-v, --verbose', 'print an HTTP trace on stderr (token masked)')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--profile <name>', 'configuration profile (env SCT_PROFILE)')
    .option('--base-url <url>', 'API base URL ending in /api (env SCT_BASE_URL)')
    .option('--timeout <seconds>', 'per-request timeout (e.g. 30, 30s, 2m)', '30')
    .option('--max-wait <duration>', 'longest rate-limit wait to sleep through', '10m')
    .option('--csv-formulas', "write CSV cells exactly as the service sent them, without the leading ' that stops spreadsheet formulas")
    .showSuggestionAfterError(true)
    // A sub-command's --help lists -o, --columns and the rest too: they work everywhere.
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(s),
    })
    // Usage errors exit 2 (commander's own default is 1); main() decides every exit code.
    .exitOverride();
  program.addHelpText(
    'after',
    `
Environment: SCT_TOKEN, SCT_BASE_URL, SCT_PROFILE, SCT_CONFIG_DIR, NO_COLOR, HTTPS_PROXY, NO_PROXY.
Exit codes: 0 ok, 1 request failed, 2 usage error, 3 partial failure, 4 not authenticated, 130 interrupted.
Run \`sct <command> --help\` for a command's options.`,
  );
  return program;
}

/** The first word that is a command, skipping global options and their values. */
export function commandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (VALUE_FLAGS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return undefined;
}

/** Registers the named groups' real commands, and a one-line stub for every other group. */
export async function registerGroups(program: Command, factory: Factory, load: 'all' | string[]): Promise<void> {
  for (const group of GROUPS) {
    if (load === 'all' || load.includes(group.name)) {
      const mod = await group.load();
      mod.register(program, factory);
    } else {
      program.command(group.name).description(group.summary);
    }
    program.commands.find((c) => c.name() === group.name)?.helpGroup(group.section);
  }
  program.commandsGroup(SETUP).helpCommand(true);
}

export async function main(argv: string[], deps: MainDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const controller = new AbortController();
  const noColor = argv.includes('--no-color');
  const io = createIO(
    { ...deps.streams, noColor, quiet: argv.includes('-q') || argv.includes('--quiet'), verbose: argv.includes('-v') || argv.includes('--verbose') },
    env,
  );

  let firstInterrupt = 0;
  const onSigint = () => {
    // First Ctrl-C: let the command stop cleanly and report; a second one exits at once.
    // A SIGINT re-raised within moments of the first is not a person pressing again: conf's
    // atomic-write library re-sends the signal to the process after its own clean-up.
    const now = Date.now();
    if (firstInterrupt && now - firstInterrupt > 300) process.exit(130);
    if (!firstInterrupt) firstInterrupt = now;
    controller.abort();
  };
  if (!deps.signal) process.on('SIGINT', onSigint);
  if (!deps.streams) {
    // `sct … | head`: the reader has gone, so there is nobody left to tell anything to.
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
    });
  }
  deps.signal?.addEventListener('abort', () => controller.abort(), { once: true });

  const program = buildProgram(io);
  const lazyPrompter: Prompter = deps.prompter ?? {
    password: async (m) => (await import('./prompt.js')).createPrompter(io).password(m),
    input: async (m, o) => (await import('./prompt.js')).createPrompter(io).input(m, o),
    confirm: async (m, d) => (await import('./prompt.js')).createPrompter(io).confirm(m, d),
    select: async (m, c) => (await import('./prompt.js')).createPrompter(io).select(m, c),
  };
  const factory = createFactory({
    io,
    env,
    prompter: lazyPrompter,
    signal: controller.signal,
    clientOptions: deps.clientOptions,
  });

  let code = 0;
  try {
    let word = commandWord(argv);
    if (word === 'help') word = commandWord(argv.slice(argv.indexOf('help') + 1));
    const wanted = word && GROUPS.some((g) => g.name === word) ? [word] : [];
    await registerGroups(program, factory, wanted);
    await program.parseAsync(attachDashValues(program, argv), { from: 'user' });
  } catch (err) {
    // --help and --version end as commander "errors" too: they must not pay for reading the config.
    code = isHelpOrVersion(err) ? 0 : await reportError(err, io, argv, await errorsAsJson(argv, program, env));
  } finally {
    if (!deps.signal) process.off('SIGINT', onSigint);
  }
  // The exit code is set, not forced: process.exit() would cut off output still queued for a pipe.
  process.exitCode = code;
  return code;
}

/**
 * `--ordering -created_at`: a value that starts with a dash belongs to the option before it.
 * Commander would read it as options of its own (`-o rdering…`), because global options are
 * parsed before the sub-command's; joining it as `--ordering=-created_at` says what is meant.
 */
export function attachDashValues(program: Command, argv: string[]): string[] {
  const takesValue = new Set<string>();
  const walk = (cmd: Command) => {
    for (const o of cmd.options) if (o.long && (o.required || o.optional)) takesValue.add(o.long);
    cmd.commands.forEach(walk);
  };
  walk(program);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (takesValue.has(a) && next !== undefined && next.startsWith('-') && next !== '--') {
      out.push(`${a}=${next}`);
      i++;
    } else {
      out.push(a);
    }
  }
  return out;
}

/** The -o/--json value on the command line, if any. */
function outputFlag(argv: string[]): string | undefined {
  if (argv.includes('--json')) return 'json';
  const i = argv.findIndex((a) => a === '-o' || a === '--output');
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith('--output=') || /^-o(json|ndjson|csv|table)$/.test(a))?.replace(/^--output=|^-o/, '');
}

/**
 * Whether an error also goes out as a JSON object: the output is json or ndjson, from the flag
 * or else from the profile (`sct config set output json`), as for the data itself.
 */
async function errorsAsJson(argv: string[], program: Command, env: NodeJS.ProcessEnv): Promise<boolean> {
  const format = outputFlag(argv) ?? (await profileOutput(program, env));
  return format === 'json' || format === 'ndjson';
}

async function profileOutput(program: Command, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  // The failure may be the config file itself (it does not parse): then there is no profile
  // format to honour. A missing file is not created just to be read.
  try {
    const [{ ConfigStore, configDir }, { profileName }] = await Promise.all([import('./config/config.js'), import('./config/settings.js')]);
    const dir = configDir(env);
    if (!existsSync(join(dir, 'config.json'))) return undefined;
    return new ConfigStore(dir).profile(profileName(program.opts().profile, env)).output;
  } catch {
    return undefined;
  }
}

function isHelpOrVersion(err: unknown): boolean {
  return err instanceof CommanderError && (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help');
}

async function reportError(err: unknown, io: IOStreams, argv: string[], asJson: boolean): Promise<number> {
  if (err instanceof CommanderError) {
    // commander already printed its message ("error: unknown option '--x'").
    if (asJson) {
      const message = err.message.replace(/^error: /, '');
      io.error(JSON.stringify({ error: message, status: null, fields: {}, exit_code: 2 }));
    }
    return 2;
  }
  await loadColor();
  const code = exitCodeFor(err);
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const e = err instanceof Error ? err : new Error(String(err));
  const message = code === 130 && isAbortError(err) ? 'interrupted' : e.message;
  const red = io.colorErr.red;
  io.error(`${red('error:')} ${message}`);
  const fields = err instanceof SctError ? err.fields : {};
  for (const [field, msgs] of Object.entries(fields)) {
    for (const m of msgs) io.error(`  ${field}: ${m}`);
  }
  if (err instanceof SctError && err.hint) io.error(io.colorErr.dim(`hint: ${err.hint}`));
  if (verbose && !(err instanceof SctError) && e.stack) io.error(io.colorErr.dim(e.stack));
  if (asJson) {
    const status = err instanceof SctError ? err.status : null;
    io.error(JSON.stringify({ error: message, status, fields, exit_code: code }));
  }
  return code;
}

/** The whole command tree with every group loaded (completion scripts are generated from it). */
export async function fullProgram(io: IOStreams): Promise<Command> {
  const program = buildProgram(io);
  const factory = createFactory({
    io,
    env: {},
    prompter: undefined as never,
    signal: new AbortController().signal,
  });
  await registerGroups(program, factory, 'all');
  return program;
}
