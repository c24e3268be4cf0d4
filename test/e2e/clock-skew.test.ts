// The service's clock and this one disagree (a laptop's clock a day off, a server's minutes off):
// X-RateLimit-Reset and a Retry-After date are the service's times, read against its own Date
// header, so a reset ten seconds away is waited for ten seconds, not a day. The built sct against
// a server on 127.0.0.1 whose clock runs ahead.
import { describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runSct } from '../helpers/sct.js';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';

let ahead = 0;
let asked: string[] = [];
/** page 1 spends the budget (reset 1 s later, in the server's time); after it a 429, then page 2. */
let throttled = false;
const server = useLocalServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  const now = Date.now() + ahead;
  const url = new URL(req.url!, 'http://x');
  asked.push(url.search);
  const headers = { 'content-type': 'application/json', date: new Date(now).toUTCString(), 'x-ratelimit-limit': '100' };
  if (url.searchParams.get('offset') === '1') {
    if (throttled) {
      throttled = false;
      res.writeHead(429, { ...headers, 'retry-after': new Date(now + 1000).toUTCString(), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil((now + 1000) / 1000)) });
      res.end(JSON.stringify({ detail: 'Request was throttled.' }));
      return;
    }
    res.writeHead(200, { ...headers, 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': String(Math.ceil((now + 60_000) / 1000)) });
    res.end(JSON.stringify({ count: 2, next: null, previous: null, results: [{ id: 2, external_id: 'B' }] }));
    return;
  }
  const next = `http://${req.headers.host}/api/orders?order_action=buying&limit=1&offset=1`;
  res.writeHead(200, { ...headers, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil((now + 1000) / 1000)) });
  res.end(JSON.stringify({ count: 2, next, previous: null, results: [{ id: 1, external_id: 'A' }] }));
});
const run = useServerEnv(server);

describe('a service whose clock runs ahead of this one', () => {
  for (const [name, skew] of [['a day', 86_400_000], ['five minutes', 300_000], ['five minutes behind', -300_000]] as const) {
    for (const with429 of [false, true]) {
      it(`${name}${with429 ? ', and a 429 with a Retry-After date' : ''}: the reset is waited for as the service counts it`, { timeout: 30_000 }, async () => {
        ahead = skew;
        asked = [];
        throttled = with429;
        const started = Date.now();
        const r = await runSct(['orders', 'list', '--buying', '--all', '--page-size', '1', '--parallel', '1', '-o', 'json', '--max-wait', '1m'], { env: run.env() });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout).map((o: { id: number }) => o.id)).toEqual([1, 2]);
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(asked).toHaveLength(with429 ? 3 : 2);
      });
    }
  }
});
