// After a stop signal a bulk run or sync waits a few seconds for the answers to requests already
// on the wire, and sends nothing new meanwhile: no redirect followed, no write after the read made
// right before it. The built sct, spawned (signals), through a hostile proxy before the sandbox.
import { beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { until, useSandbox } from '../helpers/sandbox.js';
import { execa } from 'execa';
import { BIN, spawnSctFor, TEST_CACHE_HOME } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';
import { useHostile } from '../helpers/hostile.js';

const t = useSandbox({});
const hostile = useHostile(() => t.sb);
const spawn = (args: string[]) => spawnSctFor(hostile().url, OWNER, t.dir)(args);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let run = 0;
beforeEach(() => {
  run++;
});

describe('a stop signal while requests are out', () => {
  it('a 307 answered during the wait is not followed: the write is not sent again', async () => {
    let posts = 0;
    hostile().on('POST /api/accounts/user-invitations/bulk-create', (_req, res) => {
      posts++;
      setTimeout(() => {
        res.writeHead(307, { location: '/api/accounts/user-invitations/bulk-create' });
        res.end();
      }, 1200);
    });
    const file = t.writeFile(`stop-307-${run}.csv`, `email,auth_group\nstop${run}@redirect.example,member\n`);
    const child = spawn(['invitations', 'bulk-create', '--file', file]);
    await until(() => posts === 1, 'the POST', 20_000);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(posts).toBe(1);
  });

  it('an output that failed (a full disk) is said beside the interruption, and a row let go after the wait says why', async () => {
    hostile().on('POST /api/accounts/user-invitations/bulk-create', () => {
      // Never answered: the run lets it go 3 s after the stop.
    });
    const file = t.writeFile(`stop-full-${run}.csv`, `email,auth_group\nfull${run}@stop.example,member\n`);
    const report = `${t.dir}/stop-full-${run}.csv.report`;
    // stdout is /dev/full itself (a shell's redirection), not a pipe the test reads.
    const child = execa('bash', ['-c', `exec "${process.execPath}" "${BIN}" invitations bulk-create --file '${file}' --report '${report}' -o json > /dev/full`], {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: 'true', SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: hostile().url, SCT_TOKEN: OWNER, XDG_CACHE_HOME: TEST_CACHE_HOME },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    await until(() => hostile().log.some((x) => x.method === 'POST'), 'the POST', 20_000);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(String(r.stderr)).toMatch(/error: writing output: .*(ENOSPC|no space left)/i);
    expect(readFileSync(report, 'utf8')).toContain('unknown,,interrupted: no answer within 3s of the stop');
  });

  it("a sync's update whose read right before it is answered during the wait is not sent", async () => {
    const made = (await fetch(`${t.sb.url}/origins`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Farm stop ${run}`, country_code: 'CI', external_id: `STOP-${run}` }),
    }).then((r) => r.json())) as { id: number };
    let reads = 0;
    hostile().on(`GET /api/origins/${made.id}`, async (_req, res, _body, forward) => {
      reads++;
      await sleep(1200);
      const up = await forward({ identity: true });
      res.writeHead(up.status, { 'content-type': 'application/json' });
      res.end(up.body);
    });
    const file = t.writeFile(`stop-sync-${run}.csv`, `external_id,name,country_code\nSTOP-${run},Farm stop ${run} renamed,CI\n`);
    const child = spawn(['origins', 'sync', '--file', file, '--yes']);
    await until(() => reads === 1, 'the read before the update', 20_000);
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(143);
    expect(hostile().log.filter((x) => x.method === 'PATCH')).toEqual([]);
  });
});
