// What every end-to-end file sets up: one sandbox per file, and for each test a fresh config
// dir, an empty request log and no faults, so a test asserts on its own requests alone.
//
//   const t = useSandbox();
//   it('…', async () => {
//     const r = await t.sct(['products', 'list']);
//     expect(t.queryOf()).toEqual({ limit: '10', offset: '0' });
//   });
//
// `useSandbox(options, { inProcess: true })`: t.sct and t.sctAs run the command in-process
// (runSctIn in sct.ts), and t.sctBin is the built binary for the tests about the process.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { OWNER } from '../sandbox/helpers.js';
import { removeDir, sctFor, spawnSctFor, tempDir, type InProcessOptions, type RunOptions, type RunResult } from './sct.js';

/** The arguments, what stderr must match, and stdin if the command reads it. */
export type UsageErrorCase = [args: string[], message: RegExp | string, input?: string];

export function useSandbox(options: SandboxOptions = {}, how: { inProcess?: boolean } = {}) {
  let sandbox: Sandbox | undefined;
  let configDir: string | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(async () => {
    // A request a killed client of the test before left on the sandbox is answered before this
    // test's faults are set, and logged before its log begins.
    await sb().settled();
    const dir = (configDir = tempDir());
    sb().requests.length = 0;
    sb().setFaults({});
    sb().setBeforeHandle(undefined);
    sb().setCompression(options.compression);
    return () => removeDir(dir);
  });

  function sb(): Sandbox {
    if (!sandbox) throw new Error('the sandbox starts in beforeAll: read t.sb inside a hook or a test');
    return sandbox;
  }
  function dir(): string {
    if (!configDir) throw new Error('the config dir is made in beforeEach: read t.dir inside a test');
    return configDir;
  }

  /** sct as the owner of the first demo company, with the test's config dir: the built bin/sct.js, or in-process. */
  const sct = (args: string[], opts?: RunOptions & InProcessOptions): Promise<RunResult> => sctFor(sb().url, OWNER, dir(), how)(args, opts);

  /**
   * The same command in-process through main(), with fake streams: no process start, a fake
   * terminal with `tty`, and Ctrl-C as an aborted `signal`.
   */
  const sctIn = (args: string[], o: RunOptions & InProcessOptions = {}): Promise<RunResult> => sctFor(sb().url, OWNER, dir(), { inProcess: true })(args, o);

  return {
    get sb(): Sandbox {
      return sb();
    },
    /** The test's own config dir (and HOME), removed after it. */
    get dir(): string {
      return dir();
    },
    sct,
    sctIn,
    /** sct as another demo user, with the test's config dir. */
    sctAs: (token: string) => sctFor(sb().url, token, dir(), how),
    /** The built bin/sct.js, in-process file or not: for what only a process shows. */
    sctBin: (args: string[], opts?: RunOptions): Promise<RunResult> => sctFor(sb().url, OWNER, dir())(args, opts),
    /** sct started, not awaited: for tests that signal it. */
    spawnSct: (args: string[], opts?: RunOptions) => spawnSctFor(sb().url, OWNER, dir())(args, opts),

    /** The API's answer as JSON, asked directly rather than through sct. */
    async api(path: string, token = OWNER): Promise<any> {
      const r = await fetch(sb().url + path, { headers: { Authorization: `Bearer ${token}` } });
      return r.json();
    },
    /**
     * The company's buying-side orders whose external_id is one of `ids`. The order list has no
     * external_id filter (the service ignores one), so every page is read and the rows picked here.
     */
    async ordersWith(ids: readonly string[], token = OWNER): Promise<any[]> {
      const wanted = new Set(ids);
      const out: any[] = [];
      for (let next: string | null = `${sb().url}/orders?order_action=buying&limit=1000`; next; ) {
        const page: any = await (await fetch(next, { headers: { Authorization: `Bearer ${token}` } })).json();
        out.push(...page.results.filter((o: { external_id: string }) => wanted.has(o.external_id)));
        next = page.next;
      }
      return out;
    },
    /** The query string of the i-th request the sandbox received, as an object. */
    queryOf: (i = 0): Record<string, string> => Object.fromEntries(new URLSearchParams(sb().requests[i].query)),
    /** The same query, where a parameter may repeat. */
    searchParamsOf: (i = 0) => new URLSearchParams(sb().requests[i].query),
    /** The JSON body of the i-th request the sandbox received. */
    bodyOf: (i = 0) => JSON.parse(sb().requests[i].body),
    /** Writes a file (text, or bytes as a program saved them) into the test's dir and returns its path. */
    writeFile(name: string, text: string | Buffer): string {
      const file = join(dir(), name);
      writeFileSync(file, text);
      return file;
    },

    /**
     * Runs each argument list and expects exit 2, its message, and nothing sent. Spawned runs go
     * in parallel; in-process runs one after another, as each sets and clears this process's
     * exit code.
     */
    async expectUsageErrors(cases: UsageErrorCase[], how: { inProcess?: boolean } = {}): Promise<void> {
      const results: RunResult[] = [];
      if (how.inProcess) for (const [args, , input] of cases) results.push(await sctIn(args, { input }));
      else results.push(...(await Promise.all(cases.map(([args, , input]) => sct(args, { input })))));
      results.forEach((r, i) => {
        expect(r.exitCode, `${cases[i][0].join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(cases[i][1]);
      });
      expect(sb().requests).toHaveLength(0);
    },
  };
}

/**
 * Holds the sandbox's answers to `path` (as routed: `/accounts/me`) until released: a request
 * to it waits, its client none the wiser. `asked` says whether one has come.
 */
export function holdPath(sb: Sandbox, path: string): { asked: () => boolean; release: () => void } {
  let asked = false;
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  sb.setBeforeHandle(async (q) => {
    if (q.path !== path) return;
    asked = true;
    await held;
  });
  return {
    asked: () => asked,
    release: () => {
      sb.setBeforeHandle(undefined);
      answer();
    },
  };
}

/** Waits for something the sandbox or a running sct will do, polling every 25 ms. */
export async function until(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs && !cond(); waited += 25) await new Promise((r) => setTimeout(r, 25));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}
