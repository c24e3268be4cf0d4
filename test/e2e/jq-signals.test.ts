// A --jq filter that runs long (a typo's endless recursion, a huge export) is stopped by Ctrl-C,
// SIGTERM and SIGHUP as any run is: jq runs synchronously, so while it runs the signals keep
// their default action, and the process ends with the signal's own code. The built sct against
// a server on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, spawnSct, TEST_CACHE_HOME } from '../helpers/sct.js';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';

let asked = 0;
const server = useLocalServer((req, res) => {
  asked++;
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 1, external_id: 'PO-1' }));
});
const run = useServerEnv(server);

describe('a long --jq filter', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(`ends at ${signal} with ${code}`, { timeout: 30_000 }, async () => {
      const before = asked;
      const child = spawnSct(['orders', 'get', '1', '--jq', 'last(range(1e12))'], { env: run.env(), timeout: 25_000 });
      for (let waited = 0; asked === before && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      // Into the filter: the answer is read and jq is running.
      await new Promise((r) => setTimeout(r, 700));
      const sent = Date.now();
      child.kill(signal);
      const r = await child;
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect(r.exitCode ?? 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const)[r.signal as 'SIGINT']).toBe(code);
    });
  }
});

// jq is WebAssembly: a Node without it (`--jitless`) or a process that may not reserve its memory
// (`ulimit -v`) cannot run --jq. That is one error of sct's, exit 1, before anything is sent —
// not jq-web's own lines and a stack from a promise of its loader that nobody awaits.
describe('--jq where WebAssembly cannot start', () => {
  const cases: [string, (args: string[]) => ReturnType<typeof execa>][] = [
    ['NODE_OPTIONS=--jitless', (args) => spawnSct(args, { env: { ...run.env(), NODE_OPTIONS: '--jitless' }, timeout: 25_000 })],
  ];
  if (process.platform === 'linux') {
    cases.push([
      'ulimit -v 2000000',
      // Too little address space for WebAssembly's memory, plenty for Node itself.
      (args) =>
        execa('/bin/sh', ['-c', 'ulimit -v 2000000 && exec "$0" "$@"', process.execPath, BIN, ...args], {
          env: { PATH: process.env.PATH ?? '', CI: 'true', XDG_CACHE_HOME: TEST_CACHE_HOME, ...run.env() },
          extendEnv: false,
          reject: false,
          timeout: 25_000,
        }),
    ]);
  }
  for (const [name, start] of cases) {
    it(`${name}: one error, exit 1, nothing sent`, { timeout: 30_000 }, async () => {
      const before = asked;
      const r = await start(['orders', 'get', '1', '--jq', '.id']);
      // Node 24 reserves less address space for WebAssembly's memory: there jq starts within the
      // limit, and runs as anywhere else.
      if (name.startsWith('ulimit') && r.exitCode === 0) {
        expect(String(r.stdout).trim()).toBe('1');
        return;
      }
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: --jq cannot run here: /m);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toMatch(/Node\.js v|Aborted\(|failed to asynchronously|-sASSERTIONS/);
      expect(String(r.stderr).match(/^error: /gm)).toHaveLength(1);
      expect(asked).toBe(before);
    });
  }
});
