// The one I/O object: commands never touch process.stdout/stderr directly, so tests can run
// them in-process with fake streams and check TTY and piped behaviour alike.
import { withoutTokenInMessage } from '../util/redact.js';
import type { Writable, Readable } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, fstatSync, writeFileSync } from 'node:fs';
import { ClosedPipeError, OutputError } from '../errors.js';
import { delimiter, join } from 'node:path';
import { isatty } from 'node:tty';

/** The styles sct uses; chalk provides them once loaded (see loadColor). */
export interface ColorFns {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const plain: ColorFns = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, cyan: (s) => s };
let chalkModule: typeof import('chalk') | undefined;

/**
 * chalk is loaded when a command runs or an error is printed, and only when one of the streams
 * is coloured: `sct --version`, help and everything written to pipes never need it.
 */
export async function loadColor(io: IOStreams): Promise<void> {
  if (io.colorEnabled || io.colorErrEnabled) chalkModule ??= await import('chalk');
}

function colors(enabled: boolean): ColorFns {
  return enabled && chalkModule ? new chalkModule.Chalk({ level: 1 }) : plain;
}

/**
 * The one place that decides colour, per stream. chalk's own detection ignores NO_COLOR and
 * looks at process.stdout only, so it is not used. In order: `--no-color` removes colour;
 * `FORCE_COLOR` (set, and not `0`/`false`) or `CLICOLOR_FORCE` (set, not `0`) force it, even
 * into a pipe and over NO_COLOR; `FORCE_COLOR=0` (or `false`), `NO_COLOR` (non-empty),
 * `CLICOLOR=0` (CLICOLOR_FORCE's convention, as gh and ls read it) or `TERM=dumb` remove it;
 * otherwise a terminal has colour and a pipe or a file has none. A terminal that names no TERM
 * is not known to show colour (Node and chalk read it so), but on Windows, whose consoles set
 * none and have it.
 */
export function colorDecision(isTTY: boolean, noColorFlag: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  if (noColorFlag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force.toLowerCase() !== 'false') return true;
  if (force !== undefined) return false;
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '' && env.CLICOLOR_FORCE !== '0') return true;
  if (env.NO_COLOR || env.CLICOLOR === '0' || env.TERM === 'dumb') return false;
  return isTTY && namesTerminal(env);
}

const GREEN_STATUSES = new Set(['passing', 'complete', 'completed', 'accepted', 'created', 'succeeded', 'success', 'mitigated']);
const RED_STATUSES = new Set(['failing', 'failed', 'revoked', 'expired', 'rejected', 'declined', 'error']);
const YELLOW_STATUSES = new Set(['pending', 'in_progress', 'draft', 'not_sent', 'unknown', 'queued', 'running', 'partially_succeeded', 'pending_upload', 'untraced']);

/** Which colour a status value has, the same in every table and view (undefined: none). */
export function statusColor(value: string): 'green' | 'red' | 'yellow' | undefined {
  const v = value.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (GREEN_STATUSES.has(v)) return 'green';
  if (RED_STATUSES.has(v)) return 'red';
  if (YELLOW_STATUSES.has(v) || v.startsWith('waiting') || v.startsWith('pending')) return 'yellow';
  return undefined;
}

/** A status coloured by statusColor (plain when colour is off: `c` is then the plain set). */
export function colorStatus(c: ColorFns, value: string): string {
  const name = statusColor(value);
  return name ? c[name](value) : value;
}

/** Is this field (dotted path or header) a status? */
export function isStatusField(pathOrHeader: string): boolean {
  const last = (pathOrHeader.split('.').pop() ?? '').toLowerCase().replace(/\s+/g, '_');
  return last === 'status' || last.endsWith('_status') || last === 'assessment';
}

export interface IOStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /**
   * Whether stderr is a terminal a line can be drawn over (a spinner, a countdown): not a dumb
   * one or one that names no TERM, not a CI job's pseudo-terminal, which is a log, and not while
   * stdout is a pipe.
   */
  stderrRedraws: boolean;
  quiet: boolean;
  verbose: boolean;
  /** Colour for what goes to stdout / stderr. */
  color: ColorFns;
  colorErr: ColorFns;
  colorEnabled: boolean;
  colorErrEnabled: boolean;
  terminalWidth(): number;
  /** Prompts only when a person can answer: stdin and stderr are terminals. */
  canPrompt(): boolean;
  /** Why nothing can be asked, for the message that says so: no terminal, or CI=true at one. */
  noPromptReason(): string;
  /**
   * Writes data to stdout, waiting when the pipe is full so huge exports keep memory flat.
   * Rejects with OutputError when stdout fails (a full disk), ClosedPipeError when its reader has gone.
   */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Waits until what was written has left, and rejects as write() does when it could not be. */
  flush(): Promise<void>;
  /** An informational line on stderr (suppressed by --quiet). */
  info(line: string): void;
  warn(line: string): void;
  /** Raw stderr line that --quiet does not suppress (errors). */
  error(line: string): void;
  /**
   * A line about the data at a terminal (a table's columns left out, the rows not shown): after
   * the data inside the pager when one shows it, else on stderr, where a script's `2>` puts it.
   */
  note(line: string): Promise<void>;
  /**
   * A line that follows the data and belongs with it, which --quiet does not suppress (a bulk
   * run's summary after its table): placed as a note is, but not dimmed.
   */
  after(line: string): Promise<void>;
  /**
   * Ends paging: output held back is written out, a running pager gets the end of its input and
   * is waited for (ended at once when `stop` aborts; by default, the run's SIGTERM or SIGHUP).
   * Called before a prompt (never paged) and when the command is done.
   */
  endPager(stop?: AbortSignal): Promise<void>;
}

export interface IOOptions {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  noColor?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  columns?: number;
  /** The pager command (see pagerCommand); tests pass one with `rows`. Off when undefined. */
  pager?: string;
  /** The terminal's height: output longer than this goes through the pager. */
  rows?: number;
  /**
   * The run's stop (Ctrl-C, SIGTERM): once it is given, what was held for the pager goes to the
   * terminal as it is, and no pager is started to wait on.
   */
  stop?: AbortSignal;
  /**
   * SIGTERM or SIGHUP (a CI's cancel, a closed terminal): what ends a pager that shows the output
   * rather than wait for a person to quit it, wherever it is closed (a question after a plan
   * included). Ctrl-C is the pager's own to handle.
   */
  terminated?: AbortSignal;
}

/**
 * A CI job, even at a pseudo-terminal (`docker run -t`, `script`): nobody to answer a question,
 * page through a pager or watch a spinner. CI set to anything but empty, false or 0, as CI
 * services set it (true, 1, yes).
 */
function inCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && !['', 'false', '0'].includes(env.CI.trim().toLowerCase());
}

/**
 * Whether the terminal is one that can move its cursor: TERM set and not dumb. Windows consoles
 * (cmd, PowerShell, Windows Terminal) set no TERM and can.
 */
function namesTerminal(env: NodeJS.ProcessEnv): boolean {
  return env.TERM ? env.TERM !== 'dumb' : process.platform === 'win32';
}

/**
 * The pager for data at a terminal, as gh: SCT_PAGER, else PAGER, else `less -FRX` when it is
 * installed. `cat` or an empty value turns paging off (SCT_PAGER='' wins over PAGER).
 */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  // A CI job's log has nobody to press q: a pager there waits until the job is killed. Only
  // SCT_PAGER, named for sct alone, is taken there (a PAGER set for the image is not).
  if (inCi(env) && env.SCT_PAGER === undefined) return undefined;
  const chosen = env.SCT_PAGER !== undefined ? env.SCT_PAGER : env.PAGER;
  if (chosen !== undefined) return chosen.trim() === '' || chosen.trim() === 'cat' ? undefined : chosen;
  // A dumb terminal (an editor's shell) cannot draw less: it would wait for RETURN and run the
  // lines together; so would one that names no TERM at all.
  if (!namesTerminal(env)) return undefined;
  return onPath('less', env) ? 'less -FRX' : undefined;
}

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && isProgram(join(dir, name), env));
}

function isProgram(file: string, env: NodeJS.ProcessEnv): boolean {
  // Windows finds `more` as more.com: a name is tried with each of PATHEXT's endings.
  const endings = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  return endings.some((ending) => {
    try {
      accessSync(file + ending, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The program a pager command runs when it is not installed (`nonexistent-pager -R` →
 * `nonexistent-pager`), else undefined. The command goes through a shell, whose "not found" would
 * be all the person sees of the output: a missing program is found out before it is started.
 * Only a command that starts with a plain word is checked; anything else (`LESS=R less`, a
 * quoted path) is left to the shell.
 */
function missingPager(command: string, env: NodeJS.ProcessEnv): string | undefined {
  const program = /^\s*([\w./+-]+)(\s|$)/.exec(command)?.[1];
  if (program === undefined) return undefined;
  const found = program.includes('/') ? isProgram(program, env) : onPath(program, env);
  return found ? undefined : program;
}

/** What a stream writes into, by its descriptor: a regular file (`sct … > export.json`), a pipe or socket, or neither. */
function streamTarget(stream: NodeJS.WriteStream): { fileFd?: number; pipe: boolean } {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return { pipe: false };
  try {
    const st = fstatSync(fd);
    return { fileFd: st.isFile() ? fd : undefined, pipe: st.isFIFO() || st.isSocket() };
  } catch {
    return { pipe: false };
  }
}

/** Resolves when `stream` can take more, or will never take any (closed, failed). */
function drained(stream: Writable): Promise<void> {
  // The listeners are removed after each wait, so a long export does not pile them up.
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

/**
 * The rows of the screen `s` fills at `columns`: a line longer than the terminal wraps onto more
 * (a page of JSON has lines of thousands). By characters, not display cells: near enough to
 * decide whether it fits, and no width tables loaded for it.
 */
const screenRows = (s: string, columns: number) => {
  let n = 0;
  let start = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', (start = i + 1))) n += Math.max(1, Math.ceil((i - start) / columns));
  return n;
};

export function createIO(opts: IOOptions = {}, env: NodeJS.ProcessEnv = process.env): IOStreams {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  const stdoutIsTTY = opts.stdoutIsTTY ?? Boolean((stdout as NodeJS.WriteStream).isTTY);
  const stderrIsTTY = opts.stderrIsTTY ?? Boolean((stderr as NodeJS.WriteStream).isTTY);
  const ci = inCi(env);
  // process.stdin is made when first read (a command that reads no input never pays the few ms
  // Node takes to set it up); whether it is a terminal is asked of the descriptor.
  const stdinIsTTY = opts.stdinIsTTY ?? (opts.stdin ? Boolean((opts.stdin as NodeJS.ReadStream).isTTY) : isatty(0));
  const colorEnabled = colorDecision(stdoutIsTTY, Boolean(opts.noColor), env);
  const colorErrEnabled = colorDecision(stderrIsTTY, Boolean(opts.noColor), env);
  const quiet = Boolean(opts.quiet);
  const token = env.SCT_TOKEN;

  // The first failure of stdout decides the rest of the output: a closed pipe ends it quietly,
  // anything else is an error. A listener is always there, so neither is ever an uncaught error.
  let outputFailure: NodeJS.ErrnoException | undefined;
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    outputFailure ??= err;
  });
  const throwIfFailed = () => {
    if (outputFailure) throw outputFailure.code === 'EPIPE' ? new ClosedPipeError() : new OutputError(outputFailure);
  };
  // A closed or broken stderr leaves nobody to tell anything to: the run goes on without it.
  stderr.on('error', () => undefined);
  // Node's stream for a file as stdout drops the rest of a chunk the disk had no room for
  // without an error: a file is written here instead, where a short write is retried and
  // a full disk fails.
  const target = opts.stdout === undefined ? streamTarget(stdout as NodeJS.WriteStream) : { pipe: false };
  const stdoutFile = target.fileFd;

  // Whether a command has taken stdin (`--file -`): read to its end, no prompt can read it.
  let stdinTaken = false;
  const stdinEnded = () => stdinTaken && (opts.stdin ?? process.stdin).readableEnded;
  const io: IOStreams = {
    get stdin() {
      stdinTaken = true;
      return opts.stdin ?? process.stdin;
    },
    stdout,
    stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    // Nor when stdout is a pipe: its reader may print to the same terminal (`sct … | cat`, `| jq`),
    // where a line redrawn on stderr is drawn over that output and clears its last line. As gh,
    // which draws its progress only when stdout is a terminal too; to a file there is nothing to
    // draw over.
    stderrRedraws: stderrIsTTY && !ci && namesTerminal(env) && !target.pipe,
    quiet,
    verbose: Boolean(opts.verbose),
    get color() {
      return colors(colorEnabled);
    },
    get colorErr() {
      return colors(colorErrEnabled);
    },
    colorEnabled,
    colorErrEnabled,
    terminalWidth() {
      // A terminal that says 0 (a pseudo-terminal of `docker run -t`, `script` in CI) says nothing.
      const own = opts.columns ?? (stdout as NodeJS.WriteStream).columns;
      const cols = own !== undefined && own > 0 ? own : Number(env.COLUMNS);
      return Number.isFinite(cols) && cols > 0 ? cols : 120;
    },
    canPrompt() {
      return stdinIsTTY && stderrIsTTY && !ci && !stdinEnded();
    },
    noPromptReason() {
      if (stdinEnded()) return 'standard input was read to its end (--file -): nothing is left to ask on';
      return stdinIsTTY && stderrIsTTY && ci ? `CI=${env.CI}: nothing is asked` : 'no terminal to ask on';
    },
    async write(chunk: string | Uint8Array) {
      if (paging === 'held' && opts.stop?.aborted) {
        paging = 'off';
        if (held) chunk = held + (typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk));
        held = '';
      }
      if (paging === 'held') {
        held += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
        // Longer than the terminal: from here on the data goes through the pager.
        if (screenRows(held, io.terminalWidth()) < rows) return;
        await startPager();
        chunk = held;
        held = '';
      }
      if (pagerProcess) {
        // The pager quit (q) with data still coming: as a pipe's reader gone, the command ends
        // quietly rather than read every page for nobody. A pager that failed is said at its end.
        if (pagerGone && !pagerStatus) throw new ClosedPipeError();
        if (!pagerGone && !pagerProcess.stdin!.write(chunk)) await drained(pagerProcess.stdin!);
        return;
      }
      throwIfFailed();
      if (stdoutFile !== undefined) {
        try {
          writeFileSync(stdoutFile, chunk);
        } catch (err) {
          outputFailure ??= err as NodeJS.ErrnoException;
        }
      } else if (!stdout.write(chunk)) {
        await drained(stdout);
      }
      throwIfFailed();
    },
    async flush() {
      if (stdoutFile === undefined && stdout.writableNeedDrain) await drained(stdout);
      // A stream reports the failure of its last write on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      throwIfFailed();
    },
    // SCT_TOKEN is never repeated on stderr, wherever a message might quote it (a value the user
    // pasted it into: a --filter key, a base URL).
    info(line: string) {
      if (!quiet) stderr.write(withoutTokenInMessage(line, token) + '\n');
    },
    warn(line: string) {
      stderr.write(io.colorErr.yellow('warning: ') + withoutTokenInMessage(line, token) + '\n');
    },
    error(line: string) {
      stderr.write(withoutTokenInMessage(line, token) + '\n');
    },
    async note(line: string) {
      if (!quiet) await follow(line, true);
    },
    async after(line: string) {
      await follow(line, false);
    },
    async endPager(stop = opts.terminated) {
      if (paging === 'held') {
        paging = 'off';
        const rest = held;
        held = '';
        if (rest) await io.write(rest);
      }
      paging = 'off';
      const after = notes.splice(0);
      for (const n of after) await follow(n.line, n.dim);
      const child = pagerProcess;
      if (!child) return;
      await new Promise<void>((resolve) => {
        if (pagerClosed) return resolve();
        child.once('close', () => resolve());
        // SIGTERM or SIGHUP (a CI's cancel, a closed terminal) ends the pager too, rather than
        // wait for a person to quit it; Ctrl-C is the pager's own to handle.
        const quit = () => child.kill('SIGTERM');
        if (stop?.aborted) quit();
        else stop?.addEventListener('abort', quit, { once: true });
        child.stdin!.end();
      });
      pagerProcess = undefined;
      // A pager that failed (`false`, an option it refuses) showed nothing, or not all: never
      // a success. Quitting it early (q) is its exit 0.
      if (pagerStatus) throw new OutputError(new Error(`the pager "${opts.pager}" ${pagerStatus}: the output was not all shown (SCT_PAGER=cat turns paging off)`));
    },
  };

  // Paging: only data at a terminal whose height is known, and only when a pager is set.
  const rows = opts.rows ?? 0;
  let paging: 'off' | 'held' = opts.pager && stdoutIsTTY && rows > 0 ? 'held' : 'off';
  let held = '';
  /** Notes written while the data was held: the pager's if one starts, else stderr's. */
  const notes: Array<{ line: string; dim: boolean }> = [];
  /** A line after the data: held with it, else into the pager showing it, else on stderr. */
  const follow = async (line: string, dim: boolean) => {
    // Held: whether a pager shows the data is known at its end (endPager).
    if (paging === 'held') notes.push({ line, dim });
    else if (pagerProcess && dim) await io.write(io.color.dim(line) + '\n');
    else if (pagerProcess) {
      // A pager already quit (q): the line is still said, on stderr, and what it ends (a bulk
      // run's exit code) is not taken for a closed pipe.
      await io.write(line + '\n').catch(() => stderr.write(line + '\n'));
    } else stderr.write((dim ? io.colorErr.dim(line) : line) + '\n');
  };
  let pagerProcess: ChildProcess | undefined;
  let pagerGone = false;
  let pagerClosed = false;
  /** How the pager failed, if it did. */
  let pagerStatus: string | undefined;
  const startPager = async () => {
    paging = 'off';
    const missing = missingPager(opts.pager!, env);
    if (missing !== undefined) {
      io.warn(`pager "${missing}" not found: the output is written directly (SCT_PAGER=cat turns paging off)`);
      return;
    }
    // Loaded here, not at start-up: most runs never page.
    const { spawn } = await import('node:child_process');
    // As gh: less is told to quit on a short screen, keep colours and not clear the screen.
    const child = spawn(opts.pager!, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' } });
    // Quitting the pager early (q) closes its input: the rest of the data is dropped quietly.
    child.stdin!.on('error', () => {
      pagerGone = true;
    });
    child.on('error', (err) => {
      pagerGone = true;
      pagerStatus ??= `could not be run (${err.message})`;
    });
    child.on('close', (code) => {
      pagerGone = true;
      pagerClosed = true;
      if (code) pagerStatus ??= `exited with status ${code}`;
    });
    pagerProcess = child;
  };
  return io;
}
