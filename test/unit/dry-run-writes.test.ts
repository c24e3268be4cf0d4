// A dry run's requests as text are written in pieces as they are made: a file of a million rows prints
// thousands of requests, which joined into one string held several times the file in memory
// (bench/results.md: 765 MB for 1,000,000 rows, against 500 MB).
import { describe, expect, it, vi } from 'vitest';
import { runWith, useHttpMock } from '../helpers/http-mock.js';
import { writeRequests } from '../../src/commands/shared/dry-run.js';
import type { PlannedRequest } from '../../src/api/client.js';

const http = useHttpMock();

describe('writeRequests, as text', () => {
  it('writes the requests in pieces as they come, with the same text as all at once', async () => {
    // 2,000 requests of a few rows: about 500 KB of text.
    const operations = (i: number) => Array.from({ length: 3 }, (_, k) => ({ email: `p${i}-${k}@x.example`, auth_group: 3 }));
    const requests: PlannedRequest[] = Array.from({ length: 2000 }, (_, i) => ({ method: 'POST', path: '/accounts/user-invitations/bulk-create', body: { operations: operations(i) } }));
    let most = 0;
    let writes = 0;
    const { stdout } = await runWith(http, async (ctx) => {
      const write = ctx.io.write.bind(ctx.io);
      vi.spyOn(ctx.io, 'write').mockImplementation((chunk) => {
        writes++;
        most = Math.max(most, chunk.length);
        return write(chunk);
      });
      await writeRequests(ctx, requests);
    });
    const blocks = requests.map((r) => `${r.method} ${r.path}\n${JSON.stringify(r.body, null, 2)}`);
    expect(stdout).toBe(`${blocks.join('\n\n')}\n`);
    expect(stdout.length).toBeGreaterThan(400_000);
    expect(writes).toBeGreaterThan(5);
    expect(most).toBeLessThan(64 * 1024 + 2 * Math.max(...blocks.map((b) => b.length)));
  });

  it('ends with one line end when the last piece was full', async () => {
    // One request a piece: every piece full, none left for the end.
    const big = 'x'.repeat(70 * 1024);
    const requests: PlannedRequest[] = [1, 2, 3].map((i) => ({ method: 'POST', path: `/p/${i}`, body: big }));
    const { stdout } = await runWith(http, (ctx) => writeRequests(ctx, requests));
    expect(stdout).toBe(`${requests.map((r) => `${r.method} ${r.path}\n${big}`).join('\n\n')}\n`);
  });

  it('writes nothing for no requests', async () => {
    const { stdout } = await runWith(http, (ctx) => writeRequests(ctx, []));
    expect(stdout).toBe('');
  });
});
