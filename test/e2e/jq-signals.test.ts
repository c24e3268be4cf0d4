// A --jq filter that runs long (a typo's endless recursion, a huge export) is stopped by Ctrl-C,
// SIGTERM and SIGHUP as any run is: jq runs synchronously, so while it runs the signals keep
// their default action, and the process ends with the signal's own code. The built sct against
// a server on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { spawnSct } from '../helpers/sct.js';
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
