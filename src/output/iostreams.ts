// The one I/O object: commands never touch process.stdout/stderr directly, so tests can run
// them in-process with fake streams and check TTY and piped behaviour alike.
import type { Writable, Readable } from 'node:stream';

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
 * chalk is loaded when a command runs or an error is printed, not at start-up: `sct --version`
 * and `sct --help` never need colour.
 */
export async function loadColor(): Promise<void> {
  chalkModule ??= await import('chalk');
}

function colors(enabled: boolean): ColorFns {
  return enabled && chalkModule ? new chalkModule.Chalk({ level: 1 }) : plain;
}

/**
 * The one place that decides colour, per stream. chalk's own detection ignores NO_COLOR and
 * looks at process.stdout only, so it is not used. In order: `--no-color` removes colour;
 * `FORCE_COLOR` (set, and not `0`/`false`) or `CLICOLOR_FORCE` (set, not `0`) force it, even
 * into a pipe and over NO_COLOR; `NO_COLOR` (non-empty) or `TERM=dumb` remove it; otherwise a
 * terminal has colour and a pipe or a file has none.
 */
export function colorDecision(isTTY: boolean, noColorFlag: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  if (noColorFlag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force.toLowerCase() !== 'false') return true;
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '' && env.CLICOLOR_FORCE !== '0') return true;
  if (env.NO_COLOR || env.TERM === 'dumb') return false;
  return isTTY;
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
  quiet: boolean;
  verbose: boolean;
  /** Colour for what goes to stdout / stderr. */
  color: ColorFns;
  colorErr: ColorFns;
  colorEnabled: boolean;
  terminalWidth(): number;
  /** Prompts only when a person can answer: stdin and stderr are terminals. */
  canPrompt(): boolean;
  /** Writes data to stdout, waiting when the pipe is full so huge exports keep memory flat. */
  write(chunk: string): Promise<void>;
  /** An informational line on stderr (suppressed by --quiet). */
  info(line: string): void;
  warn(line: string): void;
  /** Raw stderr line that --quiet does not suppress (errors). */
  error(line: string): void;
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
}

export function createIO(opts: IOOptions = {}, env: NodeJS.ProcessEnv = process.env): IOStreams {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  const stdin = opts.stdin ?? process.stdin;
  const stdoutIsTTY = opts.stdoutIsTTY ?? Boolean((stdout as NodeJS.WriteStream).isTTY);
  const stderrIsTTY = opts.stderrIsTTY ?? Boolean((stderr as NodeJS.WriteStream).isTTY);
  const stdinIsTTY = opts.stdinIsTTY ?? Boolean((stdin as NodeJS.ReadStream).isTTY);
  const colorEnabled = colorDecision(stdoutIsTTY, Boolean(opts.noColor), env);
  const colorErrEnabled = colorDecision(stderrIsTTY, Boolean(opts.noColor), env);
  const quiet = Boolean(opts.quiet);

  const io: IOStreams = {
    stdin,
    stdout,
    stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    quiet,
    verbose: Boolean(opts.verbose),
    get color() {
      return colors(colorEnabled);
    },
    get colorErr() {
      return colors(colorErrEnabled);
    },
    colorEnabled,
    terminalWidth() {
      const cols = opts.columns ?? (stdout as NodeJS.WriteStream).columns ?? Number(env.COLUMNS);
      return Number.isFinite(cols) && cols > 0 ? cols : 120;
    },
    canPrompt() {
      return stdinIsTTY && stderrIsTTY && env.CI !== 'true';
    },
    async write(chunk: string) {
      if (!stdout.write(chunk)) {
        // EPIPE (e.g. `| head`) ends the wait too: the error handler in main() takes it from there.
        // The listeners are removed after each wait, so a long export does not pile them up.
        await new Promise<void>((resolve) => {
          const done = () => {
            stdout.off('drain', done);
            stdout.off('close', done);
            stdout.off('error', done);
            resolve();
          };
          stdout.on('drain', done);
          stdout.on('close', done);
          stdout.on('error', done);
        });
      }
    },
    info(line: string) {
      if (!quiet) stderr.write(line + '\n');
    },
    warn(line: string) {
      stderr.write(io.colorErr.yellow('warning: ') + line + '\n');
    },
    error(line: string) {
      stderr.write(line + '\n');
    },
  };
  return io;
}
