// Entry point: builds the program and runs it. Only commander is loaded at start-up; a group's
// module (and the API client, formatters, prompts it needs) is imported only when that group
// runs. What it builds from lives in src/cli/: the global options, the group registry, the
// reading of argv, help topics, stop signals and the error report.
import { Command } from 'commander';
import { VERSION } from './version.js';
import { createIO, pagerCommand, type IOStreams, type IOOptions } from './output/iostreams.js';
import { createFactory } from './commands/shared/command.js';
import type { Prompter } from './prompt.js';
import { addGlobalOptions, LEAF_HELP } from './cli/global-options.js';
import { isGroup, registerGroups } from './cli/groups.js';
import { attachDashValues, commandWord, groupHelpAsFlag, hasShortFlag, leafHelpAsFlag, resolveJsonFlag } from './cli/argv.js';
import { helpTopic } from './cli/help-topic.js';
import { HELP_TOPICS } from './help/topic-names.js';
import { errorsAsJson, isHelpOrVersion, reportError, withoutFlagSecrets } from './cli/report-error.js';
import { withoutTokenInMessage } from './util/redact.js';
import { abortOnStopSignals } from './cli/signals.js';
import { ClosedPipeError, InterruptedError } from './errors.js';
import { lazyPrompter } from './cli/prompter.js';
import { refuseGeojson } from './cli/geojson-check.js';
import { helpTextsOf, manualFilesOf } from './cli/prebuilt-help.js';
import { environmentLine } from './help/environment.js';
import { exitCodesLine } from './help/exit-codes.js';
import { fitLines } from './help/wrap.js';

export interface MainDeps {
  env?: NodeJS.ProcessEnv;
  /** Streams and terminal facts (tests pass fakes); colour, quiet and verbose still follow the flags. */
  streams?: Omit<IOOptions, 'noColor' | 'quiet' | 'verbose'>;
  prompter?: Prompter;
  signal?: AbortSignal;
  /** Passed to the API client (tests: fast retries). */
  clientOptions?: Record<string, unknown>;
}

/** `env`: the run's, whose SCT_TOKEN commander's own errors never repeat. */
export function buildProgram(io: IOStreams, env: NodeJS.ProcessEnv = {}): Command {
  const program = addGlobalOptions(
    new Command('sct')
      .description('Supply Chain Transparency from the terminal: orders, origins, statements, invitations and more.')
      .version(VERSION, '-V, --version', 'print the version'),
  )
    .showSuggestionAfterError(true)
    // A sub-command's --help lists its own options, then only the few global options that
    // matter for it (as gh's INHERITED FLAGS) and one line pointing at the rest.
    .configureHelp(LEAF_HELP)
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      // SCT_TOKEN given as an option's value is never repeated, as in every other error.
      outputError: (s, write) => write(withoutTokenInMessage(withoutFlagSecrets(s), env.SCT_TOKEN)),
      // The width of the streams sct writes to (commander would ask process.stdout), so the help
      // rendered in-process for dist/help/ is what a pipe gets: 80 columns.
      getOutHelpWidth: () => (io.stdoutIsTTY ? io.terminalWidth() : 80),
      getErrHelpWidth: () => (io.stderrIsTTY ? ((io.stderr as NodeJS.WriteStream).columns ?? 80) : 80),
    })
    // Usage errors exit 2 (commander's own default is 1); main() decides every exit code.
    .exitOverride()
    .hook('preAction', (_program, action) => refuseGeojson(action, () => fullProgram(io)));
  // Each line on its own, fitted to the width commander's help has.
  const after = ['', environmentLine(), exitCodesLine(), `Help topics: ${HELP_TOPICS.join(', ')} (\`sct help TOPIC\`).`, "Run `sct <command> --help` for a command's options."];
  program.addHelpText('after', () => after.map((line) => fitLines(line, io.stdoutIsTTY ? io.terminalWidth() : 80)).join('\n'));
  return program;
}

export async function main(argv: string[], deps: MainDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const controller = new AbortController();
  const noColor = argv.includes('--no-color');
  const quiet = argv.includes('--quiet') || hasShortFlag(argv, 'q');
  const verbose = argv.includes('--verbose') || hasShortFlag(argv, 'v');
  // Long data at a terminal goes through a pager (SCT_PAGER, PAGER, less -FRX), as gh does.
  // Looked up only for a terminal: a pipe or a file is never paged, and start-up stays lean.
  const paging: Pick<IOOptions, 'pager' | 'rows'> = deps.streams || !process.stdout.isTTY ? {} : { pager: pagerCommand(env), rows: process.stdout.rows };
  const signals = abortOnStopSignals(controller, deps.signal);
  const io = createIO(
    { ...paging, ...deps.streams, noColor, quiet, verbose, stop: controller.signal, terminated: signals.terminated },
    env,
  );

  let program = buildProgram(io, env);
  const factory = createFactory({
    io,
    env,
    prompter: lazyPrompter(io, deps.prompter, controller.signal),
    signal: controller.signal,
    clientOptions: deps.clientOptions,
    argv,
  }, fullProgram);

  let code = 0;
  try {
    let word = commandWord(program, argv);
    if (word === 'help') {
      // `sct help help` is `sct help`: commander's help command found no command `help` and
      // wrote the root help to stderr.
      const first = argv.indexOf('help');
      while (commandWord(program, argv.slice(first + 1)) === 'help') {
        const again = argv.indexOf('help', first + 1);
        argv = argv.filter((_, i) => i !== again);
      }
      argv = leafHelpAsFlag(program, argv);
      word = commandWord(program, argv);
    }
    if (word && isGroup(word)) argv = groupHelpAsFlag(program, argv, word);
    if (argv.length === 0) argv = ['--help'];
    const topic = word === 'help' && (await helpTopic(argv, io, fullProgram));
    if (word === 'help') word = commandWord(program, argv.slice(argv.indexOf('help') + 1));
    const wanted = word && isGroup(word) ? [word] : [];
    // `sct orders get 1`: only `orders get` is registered (help is data, see main.ts).
    const leaf = wanted.length > 0 && !topic ? commandWord(program, argv.slice(argv.indexOf(wanted[0]) + 1)) : undefined;
    if (!(await registerGroups(program, factory, wanted, leaf))) {
      program = buildProgram(io, env);
      await registerGroups(program, factory, wanted);
      // A mistyped command's --help would show the group's help and exit 0: it is the same
      // unknown command, with its suggestion, as without --help.
      argv = argv.filter((a) => a !== '--help' && a !== '-h');
    }
    // `sct orders` alone is `sct orders --help`, on stdout (commander writes it to stderr).
    if (argv.length === 1 && argv[0] === word && (program.commands.find((c) => c.name() === word)?.commands.length ?? 0) > 0) argv = [word, '--help'];
    if (!topic) await program.parseAsync(resolveJsonFlag(program, attachDashValues(program, argv)), { from: 'user' });
    await io.endPager();
    // A signal that came during a long synchronous stretch (a large plot file checked) is
    // handled when the event loop next polls: given that, so it is not lost with the run.
    await signalsDelivered();
    // SIGTERM or SIGHUP once the command had done its work (its output in the pager): still the
    // signal's exit code, as at any other moment. Not for a server, which runs until stopped:
    // a signal is how it ends (`docker stop`, a CI job's teardown), as Ctrl-C is.
    if (signals.terminated.aborted && word !== 'sandbox') throw new InterruptedError();
    // Output that never arrived (a full disk) must not end as a success.
    await io.flush();
  } catch (caught) {
    let err = caught;
    // The data written so far is shown (and the pager quit) before the error; a run stopped
    // (Ctrl-C, SIGTERM) ends a pager that shows it rather than wait for a person to quit it.
    try {
      await io.endPager(controller.signal);
    } catch (pagerFailure) {
      // A pager that failed (`cat --no-such-option`) closed its input first: the write that found
      // it gone ended the run as a closed pipe, and the failure is what to report, never a crash.
      if (err instanceof ClosedPipeError) err = pagerFailure;
    }
    // As after a success: a SIGTERM or SIGHUP that came during the command's last synchronous
    // stretch is the run's end, not the error that stretch ended with.
    await signalsDelivered();
    if (signals.terminated.aborted && !(err instanceof InterruptedError) && commandWord(program, argv) !== 'sandbox') err = new InterruptedError();
    signals.explain(err);
    // --help and --version end as commander "errors" too: they must not pay for reading the
    // config. What they wrote must have arrived (`sct orders > /dev/full` is no success).
    if (isHelpOrVersion(err)) err = await io.flush().then(() => undefined, (failure: unknown) => failure);
    code = err === undefined ? 0 : await reportError(err, io, argv, await errorsAsJson(argv, program, env), (c) => signals.exitCode(c), () => fullProgram(io));
  } finally {
    signals.release();
  }
  // The exit code is set, not forced: process.exit() would cut off output still queued for a pipe.
  process.exitCode = code;
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
  return manualFilesOf(await detachedProgram());
}

/** Every command's help as a pipe gets it, for dist/help/ (scripts/build.mjs). */
export async function renderHelpTexts(): Promise<Map<string, string>> {
  return helpTextsOf(await detachedProgram(), main);
}

/**
 * Lets the event loop poll once more, so a signal that arrived while JavaScript was busy reaches
 * its handler. One setImmediate is not enough when the busy stretch ran in the loop's poll phase
 * (a file read's callback): its check phase comes before the next poll. The second comes after.
 */
async function signalsDelivered(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}
