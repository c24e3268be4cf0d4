// Runs the built bin/sct.js as a user would, with a clean environment: nothing from the
// developer's own config, token or proxy settings leaks into a test. runSctIn runs the same
// command in this process, for the many tests that check what a command does rather than what
// a process does.
import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MainDeps } from '../../src/cli.js';
import type { Prompter } from '../../src/prompt.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// SCT_TEST_BIN runs the e2e tests against another build (an older checkout's bin/sct.js), to
// show that a new test fails there. In-process runs are then spawned too, except those that
// need this process (a fake terminal, prompts answered, Ctrl-C as an aborted signal).
export const BIN = process.env.SCT_TEST_BIN || join(ROOT, 'bin', 'sct.js');

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  timeout?: number;
  /** Standard output and error to these files rather than pipes (spawnSct only). */
  stdoutFile?: string;
  stderrFile?: string;
  /** A process group of its own, as a command a shell runs at a terminal (spawnSct only): kill(-pid) then reaches it and its children, as Ctrl-C does. */
  detached?: boolean;
}

/** What only an in-process run can be given (a spawned run is never a terminal). */
export interface InProcessOptions {
  /** stdin, stdout and stderr are a terminal (a fake one, `columns` wide). */
  tty?: boolean;
  /** Aborting it is Ctrl-C. */
  signal?: AbortSignal;
  clientOptions?: MainDeps['clientOptions'];
  /** Answers the prompts a terminal run asks (with `tty`). */
  prompter?: Prompter;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Where the test runs keep sct's code cache: never the user's own (a test's odd run would be every later run's cache). */
export const TEST_CACHE_HOME = join(tmpdir(), 'sct-test-cache');

export function tempDir(prefix = 'sct-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function baseEnv(extra: Record<string, string | undefined>): Record<string, string> {
  // The code cache of dist/cli.cjs (src/cli/code-cache.ts) in a directory of the test runs' own,
  // not the user's: every spawned run after the first of a build starts from it.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: 'true', XDG_CACHE_HOME: TEST_CACHE_HOME };
  // A variable given as undefined is not set at all, these defaults included.
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Starts sct and returns the running process (for tests that signal it). */
export function spawnSct(args: string[], opts: RunOptions = {}): ResultPromise {
  return execa(process.execPath, [BIN, ...args], {
    env: baseEnv(opts.env ?? {}),
    extendEnv: false,
    input: opts.input,
    cwd: opts.cwd,
    reject: false,
    timeout: opts.timeout ?? 60_000,
    detached: opts.detached,
    stripFinalNewline: false,
    ...(opts.stdoutFile ? { stdout: { file: opts.stdoutFile } } : {}),
    ...(opts.stderrFile ? { stderr: { file: opts.stderrFile } } : {}),
    // As a shell's background job with its output in files: nothing on stdin either.
    ...(opts.stdoutFile && opts.input === undefined ? { stdin: 'ignore' as const } : {}),
  });
}

export async function runSct(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const r = await spawnSct(args, opts);
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/**
 * The same run as runSct, in this process: main(), which bin/sct.js runs for every command
 * but --version and help (answered from dist/help/), with fake pipes for stdin, stdout and
 * stderr and the same environment, so no Node process starts (each start costs 0.1–0.3 s of
 * CPU). Not for what only a process has: signals, its working directory (a run given `cwd` is
 * spawned), the exit itself, Node's own warnings, the built bundle and its prebuilt help (with
 * SCT_TEST_BIN set, a run is spawned where it can be).
 */
export async function runSctIn(args: string[], opts: RunOptions & InProcessOptions = {}): Promise<RunResult> {
  if (opts.cwd !== undefined || (process.env.SCT_TEST_BIN && !opts.tty && !opts.prompter && !opts.signal)) return runSct(args, opts);
  const [{ main }, { createTestIO }] = await Promise.all([import('../../src/cli.js'), import('./io.js')]);
  const io = createTestIO({ stdoutIsTTY: opts.tty, stderrIsTTY: opts.tty, stdinIsTTY: opts.tty, columns: 120, input: opts.input });
  // As the child's timeout, a run that hangs ends (as Ctrl-C would) rather than outlive the test.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), opts.timeout ?? 60_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
  try {
    const exitCode = await main(args, { streams: io.streams, env: baseEnv(opts.env ?? {}), prompter: opts.prompter, signal, clientOptions: opts.clientOptions });
    return { exitCode, stdout: io.stdout(), stderr: io.stderr() };
  } finally {
    clearTimeout(timer);
    // main() leaves the exit code for the process to end with, and this process is the test runner.
    process.exitCode = undefined;
  }
}

/** HOME is the config dir too, so nothing sct might look up there is the developer's own. */
function boundEnv(baseUrl: string, token: string | undefined, configDir: string, extra: RunOptions['env']): RunOptions['env'] {
  return { SCT_CONFIG_DIR: configDir, SCT_BASE_URL: baseUrl, SCT_TOKEN: token, HOME: configDir, ...extra };
}

/**
 * An sct bound to one sandbox and one throwaway config dir: `sct(['orders','list'])`; the built
 * binary, or with `inProcess` the same command through runSctIn.
 */
export function sctFor(baseUrl: string, token: string | undefined, configDir: string, how: { inProcess?: boolean } = {}) {
  const run = how.inProcess ? runSctIn : runSct;
  return (args: string[], opts: RunOptions & InProcessOptions = {}) => run(args, { ...opts, env: boundEnv(baseUrl, token, configDir, opts.env) });
}

/** The same binding as sctFor, for tests that signal the running process. */
export function spawnSctFor(baseUrl: string, token: string | undefined, configDir: string) {
  return (args: string[], opts: RunOptions = {}) => spawnSct(args, { ...opts, env: boundEnv(baseUrl, token, configDir, opts.env) });
}
