// Runs the built bin/sct.js as a user would, with a clean environment: nothing from the
// developer's own config, token or proxy settings leaks into a test.
import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// SCT_TEST_BIN runs the e2e tests against another build (an older checkout's bin/sct.js), to
// show that a new test fails there.
export const BIN = process.env.SCT_TEST_BIN || join(ROOT, 'bin', 'sct.js');

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  timeout?: number;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export function tempDir(prefix = 'sct-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function baseEnv(extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: 'true' };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
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
    stripFinalNewline: false,
  });
}

export async function runSct(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const r = await spawnSct(args, opts);
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** HOME is the config dir too, so nothing sct might look up there is the developer's own. */
function boundEnv(baseUrl: string, token: string | undefined, configDir: string, extra: RunOptions['env']): RunOptions['env'] {
  return { SCT_CONFIG_DIR: configDir, SCT_BASE_URL: baseUrl, SCT_TOKEN: token, HOME: configDir, ...extra };
}

/**
 * An sct bound to one sandbox and one throwaway config dir: `sct(['orders','list'])`.
 */
export function sctFor(baseUrl: string, token: string | undefined, configDir: string) {
  return (args: string[], opts: RunOptions = {}) => runSct(args, { ...opts, env: boundEnv(baseUrl, token, configDir, opts.env) });
}

/** The same binding as sctFor, for tests that signal the running process. */
export function spawnSctFor(baseUrl: string, token: string | undefined, configDir: string) {
  return (args: string[], opts: RunOptions = {}) => spawnSct(args, { ...opts, env: boundEnv(baseUrl, token, configDir, opts.env) });
}
