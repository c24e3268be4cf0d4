// Entry point: global options, the command-group registry, and the one place where errors
// become exit codes. Only commander is loaded at start-up; a group's module (and the API
// client, formatters, prompts it needs) is imported only when that group runs.
import { Command, CommanderError, Option, type Help } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from './version.js';
import { createIO, loadColor, pagerCommand, type IOStreams, type IOOptions } from './output/iostreams.js';
import { exitCodeFor, SctError, isAbortError, UsageError, ClosedPipeError, InterruptedError } from './errors.js';
import { stripControl } from './output/sanitize.js';
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
  { name: 'roles', section: PEOPLE, summary: 'The roles of the workspace, by name and id', load: () => import('./commands/roles.js') },
  { name: 'countries', section: PEOPLE, summary: 'Country reference data', load: () => import('./commands/countries.js') },
  { name: 'user-config', section: PEOPLE, summary: 'Read and change your per-user configuration', load: () => import('./commands/user-config.js') },
  { name: 'auth', section: SETUP, summary: 'Log in, log out and show the login status', load: () => import('./commands/auth.js') },
  { name: 'config', section: SETUP, summary: 'Read and write profile settings', load: () => import('./commands/config.js') },
  { name: 'whoami', section: SETUP, summary: 'Show the logged-in user and company', load: () => import('./commands/whoami.js') },
  { name: 'api', section: SETUP, summary: 'Make an authenticated API request', load: () => import('./commands/api.js') },
  { name: 'completion', section: SETUP, summary: 'Print a shell completion script', load: () => import('./commands/completion.js') },
  { name: 'sandbox', section: SETUP, summary: 'Run a local emulator of the service with demo data', load: () => import('./commands/sandbox.js') },
  { name: 'version', section: SETUP, summary: "Print sct's version, Node's and the platform", load: () => import('./commands/version.js') },
  { name: 'doctor', section: SETUP, summary: 'Check configuration, connectivity and credentials', load: () => import('./commands/doctor.js') },
];

/** `sct help TOPIC`: the texts are in src/help/topics.ts, loaded only when one is asked for. */
export const HELP_TOPICS = ['environment', 'exit-codes', 'formatting', 'filters', 'config', 'reference'];

/** Global options that take a value: their values are not command names. */
const VALUE_FLAGS = new Set(['-o', '--output', '--columns', '--jq', '--profile', '--base-url', '--timeout', '--max-wait']);

/** What `--json FIELDS` takes: field names (dotted paths), comma-separated, never only digits. */
const FIELD_LIST = /^[A-Za-z_]\w*(\.\w+)*(,[A-Za-z_]\w*(\.\w+)*)*$/;

/** The signals that stop a run cleanly, and the exit code each ends with (128 + its number). */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT_CODES;
const STOP_SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[];

export interface MainDeps {
  env?: NodeJS.ProcessEnv;
  /** Streams and terminal facts (tests pass fakes); colour, quiet and verbose still follow the flags. */
  streams?: Omit<IOOptions, 'noColor' | 'quiet' | 'verbose'>;
  prompter?: Prompter;
  signal?: AbortSignal;
  /** Passed to the API client (tests: fast retries). */
  clientOptions?: Record<string, unknown>;
}

/** An option of choices that takes them in any case (`-o JSON`), as every enum value is taken. */
function caseInsensitive(option: Option): Option {
  const check = option.parseArg!;
  return option.argParser((value: string, previous: unknown) => check(value.toLowerCase(), previous));
}

export function buildProgram(io: IOStreams): Command {
  const program = new Command('sct')
    .description('Supply Chain Transparency from the terminal: orders, origins, statements, invitations and more.')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(caseInsensitive(new Option('-o, --output <format>', 'output format (geojson: origins list and get)').choices(['table', 'json', 'ndjson', 'csv', 'geojson'])))
    .option('--json [fields]', 'short for --output json; --json FIELDS also picks the fields (= -o json --columns FIELDS)')
    .option('--columns <list>', 'fields to show, comma-separated, dotted paths allowed (every format; json keeps them nested)')
    .option('--jq <expr>', 'filter the JSON output with a jq expression (strings printed raw, one result per line)')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('-q, --quiet', 'no spinners, progress or info lines')
    .option('-v, --verbose', 'print an HTTP trace on stderr (token masked)')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--profile <name>', 'configuration profile (env SCT_PROFILE)')
    .option('--base-url <url>', 'API base URL ending in /api (env SCT_BASE_URL)')
    .option('--timeout <seconds>', 'per-request timeout (e.g. 30, 30s, 2m)', '30')
    .option('--max-wait <duration>', 'longest rate-limit wait to sleep through', '10m')
    .option('--csv-formulas', "write CSV cells exactly as the service sent them, without the leading ' that stops spreadsheet formulas")
    .option('--bom', 'start -o csv with a UTF-8 byte-order mark, so Excel reads accented text correctly')
    .showSuggestionAfterError(true)
    // A sub-command's --help lists its own options, then only the few global options that
    // matter for it (as gh's INHERITED FLAGS) and one line pointing at the rest.
    .configureHelp(LEAF_HELP)
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(s),
      // The width of the streams sct writes to (commander would ask process.stdout), so the help
      // rendered in-process for dist/help/ is what a pipe gets: 80 columns.
      getOutHelpWidth: () => (io.stdoutIsTTY ? io.terminalWidth() : 80),
      getErrHelpWidth: () => (io.stderrIsTTY ? ((io.stderr as NodeJS.WriteStream).columns ?? 80) : 80),
    })
    // Usage errors exit 2 (commander's own default is 1); main() decides every exit code.
    .exitOverride()
    .hook('preAction', (_program, action) => refuseGeojson(action));
  program.addHelpText(
    'after',
    `
Environment: SCT_TOKEN, SCT_BASE_URL, SCT_PROFILE, SCT_CONFIG_DIR, NO_COLOR, HTTPS_PROXY, NO_PROXY.
Exit codes: 0 ok, 1 request failed, 2 usage error, 3 partial failure, 4 not authenticated, 130 interrupted.
Help topics: ${HELP_TOPICS.join(', ')} (\`sct help TOPIC\`).
Run \`sct <command> --help\` for a command's options.`,
  );
  return program;
}

/** The global options a sub-command's help repeats; `sct --help` lists them all. */
export const INHERITED_OPTIONS = ['--output', '--json', '--jq', '--columns', '--profile'];

/** The line under a sub-command's inherited options that points at the rest. */
export const GLOBAL_OPTIONS_LINE =
  'Global options (-q, -v, -y, --no-color, --base-url, --timeout, …): see `sct --help`.';

const LEAF_HELP: Partial<Help> = {
  showGlobalOptions: true,
  visibleGlobalOptions(cmd: Command): Option[] {
    let root = cmd;
    while (root.parent) root = root.parent;
    if (root === cmd) return [];
    return INHERITED_OPTIONS.map((long) => root.options.find((o) => o.long === long)).filter((o): o is Option => o !== undefined && !o.hidden);
  },
  formatItemList(heading: string, items: string[], helper: Help): string[] {
    if (items.length === 0) return [];
    if (heading === 'Global Options:') return [helper.styleTitle('Inherited options:'), ...items, '', GLOBAL_OPTIONS_LINE, ''];
    return [helper.styleTitle(heading), ...items, ''];
  },
};

/** The commands whose resources have a location to write as GeoJSON (`-o geojson`). */
const GEOJSON_COMMANDS = ['origins list', 'origins get'];

/** Anywhere else `-o geojson` is a usage error, before anything is read or sent. */
function refuseGeojson(action: Command): void {
  if (action.optsWithGlobals().output !== 'geojson') return;
  const path = [action.parent?.parent ? action.parent.name() : undefined, action.name()].filter(Boolean).join(' ');
  if (!GEOJSON_COMMANDS.includes(path)) {
    throw new UsageError(`-o geojson is for ${GEOJSON_COMMANDS.map((c) => `sct ${c}`).join(' and ')}: sct ${path} writes table, json, ndjson or csv`);
  }
}

/** The first word that is a command, skipping global options and their values. */
export function commandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (VALUE_FLAGS.has(a) || (a === '--json' && FIELD_LIST.test(argv[i + 1] ?? '') && !GROUPS.some((g) => g.name === argv[i + 1]))) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return undefined;
}

/**
 * Registers the named groups' real commands, and a one-line stub for every other group. Given
 * `leaf`, a named group registers only its sub-command of that name; returns false when it had
 * sub-commands but none of that name (a mistyped one: only the whole group can suggest another).
 */
export async function registerGroups(program: Command, factory: Factory, load: 'all' | string[], leaf?: string): Promise<boolean> {
  let skipped = false;
  const only: Factory = {
    ...factory,
    leaf(name) {
      if (name === leaf) return true;
      skipped = true;
      return false;
    },
  };
  for (const group of GROUPS) {
    if (load === 'all' || load.includes(group.name)) {
      const mod = await group.load();
      mod.register(program, leaf === undefined ? factory : only);
    } else {
      program.command(group.name).description(group.summary);
    }
    program.commands.find((c) => c.name() === group.name)?.helpGroup(group.section);
  }
  program.commandsGroup(SETUP).helpCommand(true);
  unquoteDefaults(program);
  return !skipped || program.commands.some((group) => group.commands.some((c) => c.name() === leaf));
}

/** Help shows `(default: 30)`, not commander's `(default: "30")`. */
function unquoteDefaults(cmd: Command): void {
  for (const o of cmd.options) {
    if (typeof o.defaultValue === 'string' && o.defaultValueDescription === undefined) o.defaultValueDescription = o.defaultValue;
  }
  cmd.commands.forEach(unquoteDefaults);
}

/**
 * `sct help WORD`: a help topic is printed here; a command goes on to commander's own help; any
 * other word is exit 2 with the closest command or topic. Returns true when it printed a topic.
 */
async function helpTopic(argv: string[], io: IOStreams): Promise<boolean> {
  const words = argv.slice(argv.indexOf('help') + 1).filter((a) => !a.startsWith('-'));
  const word = words[0];
  // `config` is a topic and a command: the topic wins (it lists the commands; `sct config --help`
  // has their options), as the spec names it among the topics.
  if (HELP_TOPICS.includes(word) && words.length === 1) {
    const { TOPICS } = await import('./help/topics.js');
    if (word === 'reference') {
      // The whole manual: the only topic that needs every command group loaded.
      const { renderReference } = await import('./help/manual.js');
      await io.write(renderReference(await fullProgram(io), TOPICS));
    } else await io.write(TOPICS[word].text());
    return true;
  }
  if (word === undefined || GROUPS.some((g) => g.name === word) || word === 'help') return false;
  const { closest } = await import('./output/suggest.js');
  const guess = closest(word, [...GROUPS.map((g) => g.name), ...HELP_TOPICS]);
  throw new UsageError(`unknown help topic or command "${word}"${guess ? `: did you mean ${guess}?` : ''}`, {}, `commands: sct --help; topics: ${HELP_TOPICS.join(', ')}`);
}

export async function main(argv: string[], deps: MainDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const controller = new AbortController();
  const noColor = argv.includes('--no-color');
  // Long data at a terminal goes through a pager (SCT_PAGER, PAGER, less -FRX), as gh does.
  // Looked up only for a terminal: a pipe or a file is never paged, and start-up stays lean.
  const paging: Pick<IOOptions, 'pager' | 'rows'> = deps.streams || !process.stdout.isTTY ? {} : { pager: pagerCommand(env), rows: process.stdout.rows };
  const io = createIO(
    { ...paging, ...deps.streams, noColor, quiet: argv.includes('-q') || argv.includes('--quiet'), verbose: argv.includes('-v') || argv.includes('--verbose') },
    env,
  );

  // SIGTERM and SIGHUP (timeout, a CI cancellation, docker stop, a closed terminal) stop a run as
  // Ctrl-C does: it reports what was done and exits with the signal's own code. A second signal
  // exits at once; it cannot cut a bulk run's report, its journal or the config file half-way,
  // as each is written synchronously, from its temporary file's creation to its rename or removal.
  let firstSignal: { name: StopSignal; at: number } | undefined;
  const onSignal = (name: StopSignal) => {
    // A SIGINT re-raised within moments of the first is not a person pressing again: conf's
    // atomic-write library re-sent the signal after its own clean-up; another may.
    const now = Date.now();
    if (firstSignal && now - firstSignal.at > 300) process.exit(SIGNAL_EXIT_CODES[name]);
    firstSignal ??= { name, at: now };
    controller.abort();
  };
  const handlers = STOP_SIGNALS.map((name) => [name, () => onSignal(name)] as const);
  if (!deps.signal) for (const [name, handler] of handlers) process.on(name, handler);
  deps.signal?.addEventListener('abort', () => controller.abort(), { once: true });

  let program = buildProgram(io);
  const base: Prompter = deps.prompter ?? {
    password: async (m) => (await import('./prompt.js')).createPrompter(io).password(m),
    input: async (m, o) => (await import('./prompt.js')).createPrompter(io).input(m, o),
    confirm: async (m, d) => (await import('./prompt.js')).createPrompter(io).confirm(m, d),
    select: async (m, c) => (await import('./prompt.js')).createPrompter(io).select(m, c),
  };
  // A prompt is never paged: what was written before it is shown (the pager closed) first.
  const lazyPrompter: Prompter = {
    password: async (m) => (await io.endPager(), base.password(m)),
    input: async (m, o) => (await io.endPager(), base.input(m, o)),
    confirm: async (m, d) => (await io.endPager(), base.confirm(m, d)),
    select: async (m, c) => (await io.endPager(), base.select(m, c)),
  };
  const factory = createFactory({
    io,
    env,
    prompter: lazyPrompter,
    signal: controller.signal,
    clientOptions: deps.clientOptions,
    argv,
  }, fullProgram);

  let code = 0;
  try {
    let word = commandWord(argv);
    const topic = word === 'help' && (await helpTopic(argv, io));
    if (word === 'help') word = commandWord(argv.slice(argv.indexOf('help') + 1));
    const wanted = word && GROUPS.some((g) => g.name === word) ? [word] : [];
    // `sct orders get 1`: only `orders get` is registered (help is data, see main.ts).
    const leaf = wanted.length > 0 && !topic ? commandWord(argv.slice(argv.indexOf(wanted[0]) + 1)) : undefined;
    if (!(await registerGroups(program, factory, wanted, leaf))) {
      program = buildProgram(io);
      await registerGroups(program, factory, wanted);
    }
    if (!topic) await program.parseAsync(resolveJsonFlag(program, attachDashValues(program, argv)), { from: 'user' });
    await io.endPager();
    // Output that never arrived (a full disk) must not end as a success.
    await io.flush();
  } catch (err) {
    // The data written so far is shown (and the pager quit) before the error.
    await io.endPager();
    // The run stopped as for Ctrl-C; the message names what stopped it when that was not a person.
    if (firstSignal && firstSignal.name !== 'SIGINT' && err instanceof InterruptedError) err.message = err.message.replace(/^interrupted/, `stopped by ${firstSignal.name}`);
    // --help and --version end as commander "errors" too: they must not pay for reading the config.
    code = isHelpOrVersion(err) ? 0 : await reportError(err, io, argv, await errorsAsJson(argv, program, env));
    if (code === SIGNAL_EXIT_CODES.SIGINT && firstSignal) code = SIGNAL_EXIT_CODES[firstSignal.name];
  } finally {
    if (!deps.signal) for (const [name, handler] of handlers) process.off(name, handler);
  }
  // The exit code is set, not forced: process.exit() would cut off output still queued for a pipe.
  process.exitCode = code;
  return code;
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
    if (a !== '--json') return [[a], 1];
    if (next !== undefined && FIELD_LIST.test(next) && !positionalExpected(program, argv, i + 1)) return [[`--json=${next}`], 2];
    return [['--json='], 1];
  });
}

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

/** Whether the command typed in argv has room for one more positional argument than those given besides argv[skip]. */
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
    if (i === skip) continue;
    if (a === '--json') {
      if (i + 1 !== skip && FIELD_LIST.test(argv[i + 1] ?? '')) i++;
      continue;
    }
    if (a.startsWith('-')) {
      if (!a.includes('=') && takesValue(cmd, a)) i++;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (sub && given === 0) cmd = sub;
    else given++;
  }
  const args = cmd.registeredArguments;
  if (args.some((x) => x.variadic)) return true;
  return given < args.length;
}

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

/** The -o/--json value on the command line, if any. */
function outputFlag(argv: string[]): string | undefined {
  if (argv.some((a) => a === '--json' || a.startsWith('--json=') || a === '--jq' || a.startsWith('--jq='))) return 'json';
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
  // `sct … | head`: the reader has gone, and there is nobody to tell.
  if (err instanceof ClosedPipeError) return err.exitCode;
  await loadColor(io);
  const code = exitCodeFor(err);
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const e = err instanceof Error ? err : new Error(String(err));
  // Messages quote what the service holds (a name, an id, a field error): never raw to a terminal.
  const message = code === 130 && isAbortError(err) ? 'interrupted' : stripControl(e.message);
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
  }, fullProgram);
  await registerGroups(program, factory, 'all');
  return program;
}

/** The whole tree, writing nowhere: what the build and the manual read. */
async function detachedProgram(): Promise<Command> {
  const { PassThrough } = await import('node:stream');
  return fullProgram(createIO({ stdout: new PassThrough(), stderr: new PassThrough() }, {}));
}

/** docs/ and man/ (`npm run docs`, scripts/docs.mjs), keyed by path from the repository's root. */
export async function renderManualFiles(): Promise<Map<string, string>> {
  const [{ renderManual }, { TOPICS }] = await Promise.all([import('./help/manual.js'), import('./help/topics.js')]);
  return renderManual(await detachedProgram(), TOPICS);
}

/**
 * Every command's help as a pipe gets it (80 columns), keyed by command path ('' for sct
 * itself), each rendered by main() exactly as `sct … --help` renders it: the build writes
 * them to dist/help/ for the start-up path (main.ts) to print without loading the tree.
 */
export async function renderHelpTexts(): Promise<Map<string, string>> {
  const { Writable, PassThrough } = await import('node:stream');
  const paths: string[][] = [[]];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      if (sub.name() === 'help') continue;
      paths.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(await detachedProgram(), []);
  const texts = new Map<string, string>();
  for (const path of paths) {
    let out = '';
    const stdout = new Writable({
      write(chunk, _enc, cb) {
        out += String(chunk);
        cb();
      },
    });
    const code = await main([...path, '--help'], {
      env: {},
      streams: { stdout, stderr: new PassThrough(), stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
      signal: new AbortController().signal,
    });
    if (code !== 0) throw new Error(`sct ${path.join(' ')} --help exited ${code}`);
    texts.set(path.join(' '), out);
  }
  return texts;
}
