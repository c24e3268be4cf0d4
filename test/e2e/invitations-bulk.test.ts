// sct invitations bulk-create: every row checked before sending, 100 rows per request, one
// report line per row, exit 3 on rejected rows, and reruns that neither lose nor duplicate.
import { beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { until, useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });
let run = 0;
beforeEach(() => {
  run++;
});

const UUID5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const posts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/accounts/user-invitations/bulk-create');
const domain = () => `bulk${run}.example`;

/** A people.csv of n addresses unique to this test; `role` fills the auth_group column. */
function people(n: number, role: (i: number) => string = () => '3'): string {
  const lines = ['email,auth_group'];
  for (let i = 0; i < n; i++) lines.push(`p${i}@${domain()},${role(i)}`);
  return t.writeFile('people.csv', lines.join('\n') + '\n');
}

/** Invitations of this test's domain in the sandbox, by status. */
async function invitationsOfDomain(status = 'pending'): Promise<Array<{ id: string; email: string }>> {
  return (await t.api(`/accounts/user-invitations?email__icontains=${domain()}&status=${status}&limit=1000`)).results;
}

describe('invitations bulk-create', () => {
  it('sends 100 rows per request, reports each row, and exits 3 with the API errors of the rejected ones', async () => {
    // Line 7 asks for the OWNER role, line 152 invites an existing member, line 232 leaves its role to --role.
    const file = people(230, (i) => (i === 5 ? '1' : i === 229 ? '' : '3'));
    const text = readFileSync(file, 'utf8').replace(`p150@${domain()}`, 'amelie.janssens@brussels-cacao.example');
    writeFileSync(file, text);
    const report = join(t.dir, 'report.csv');
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--role', '2', '--report', report, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(posts()).toHaveLength(3);
    const bodies = posts().map((p) => JSON.parse(p.body) as { operations: Array<{ email: string; auth_group: number }> });
    expect(bodies.map((b) => b.operations.length)).toEqual([100, 100, 30]);
    expect(bodies[0].operations[0]).toEqual({ email: `p0@${domain()}`, auth_group: 3 });
    expect(bodies[2].operations[29]).toEqual({ email: `p229@${domain()}`, auth_group: 2 });
    const keys = posts().map((p) => p.headers['idempotency-key'] as string);
    expect(new Set(keys).size).toBe(3);
    for (const k of keys) expect(k).toMatch(UUID5);

    expect(r.stderr).toContain('invitations: 228 created, 2 rejected — report in');
    expect(r.stderr).toContain('line 7 (p5@');
    expect(r.stderr).toContain('auth_group: Owners cannot be invited.');
    expect(r.stderr).toContain('error: 2 of 230 invitations rejected');
    // The hint is a command that runs as it is: it replaces the report this run wrote.
    expect(r.stderr).toContain(`hint: fix the rejected rows in the file, then rerun: sct invitations bulk-create --file ${file} --role 2 --report ${report} -o json --force (what went through is skipped`);

    const rows = JSON.parse(r.stdout) as Array<{ lines: number[]; key: string; status: string; id: string | null; error: string | null; fields: Record<string, string[]> | null }>;
    expect(rows).toHaveLength(230);
    expect(rows[0]).toMatchObject({ lines: [2], key: `p0@${domain()}`, status: 'created', error: null, fields: null });
    expect(rows[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows[5]).toEqual({ lines: [7], key: `p5@${domain()}`, status: 'rejected', id: null, error: 'rejected', fields: { auth_group: ['Owners cannot be invited.'] } });
    expect(rows[150]).toMatchObject({ lines: [152], status: 'rejected', fields: { email: ['This user is already a member of the workspace.'] } });

    const csv = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(csv).toHaveLength(230);
    expect(csv.filter((l) => l.status === 'rejected').map((l) => [l.line, l.key, l.error])).toEqual([
      ['7', `p5@${domain()}`, 'rejected — auth_group: Owners cannot be invited.'],
      ['152', 'amelie.janssens@brussels-cacao.example', 'rejected — email: This user is already a member of the workspace.'],
    ]);
    expect(await invitationsOfDomain()).toHaveLength(228);

    // The rerun sends only the two rejected rows, in one request under a new key.
    t.sb.requests.length = 0;
    const again = await t.sct(['invitations', 'bulk-create', '--file', file, '--role', '2', '--report', report, '-o', 'json', '--force']);
    expect(again.exitCode).toBe(3);
    expect(posts()).toHaveLength(1);
    expect(JSON.parse(posts()[0].body).operations.map((o: { email: string }) => o.email)).toEqual([`p5@${domain()}`, 'amelie.janssens@brussels-cacao.example']);
    expect(keys).not.toContain(posts()[0].headers['idempotency-key']);
    expect(again.stderr).toContain('0 created, 228 skipped (done in an earlier run), 2 rejected');

    // Fixed in the file, the row goes through on the next run.
    writeFileSync(file, readFileSync(file, 'utf8').replace(`p5@${domain()},1`, `p5@${domain()},3`));
    t.sb.requests.length = 0;
    const fixed = await t.sct(['invitations', 'bulk-create', '--file', file, '--role', '2']);
    expect(fixed.exitCode).toBe(3);
    expect(fixed.stderr).toContain('1 created, 228 skipped (done in an earlier run), 1 rejected');
    expect(await invitationsOfDomain()).toHaveLength(229);
  });

  it("the report's path is said on one line, its escapes written as escapes: a file name is no way to retitle the terminal", async () => {
    const people = t.writeFile('report-name.csv', 'email,auth_group\nreport.name@example.com,3\n');
    const report = join(t.dir, 'r\u001b]0;pwned\u0007\nerror: forged.csv');
    const r = await t.sct(['invitations', 'bulk-create', '--file', people, '--report', report]);
    expect(r.exitCode, r.stderr).toBe(0);
    // Written as a shell reads it back, its control characters as escapes: the path named is the file's.
    expect(r.stderr).toContain(`— report in $'${join(t.dir, 'r\\x1b]0;pwned\\x07\\nerror: forged.csv')}'`);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toMatch(/^error: forged/m);
    expect(readFileSync(report, 'utf8')).toContain('report.name@example.com');
  });

  it('validates every row first: exit 2 naming file, line and column, nothing sent', async () => {
    const file = t.writeFile(
      'bad-people.csv',
      'Email,Auth Group\n' +
        `ok@${domain()},3\n` +
        `not-an-address,3\n` +
        `,3\n` +
        `OK@${domain()},3\n` +
        `role@${domain()},\n` +
        `x@${domain()},boss\n`,
    );
    const r = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(r.exitCode).toBe(2);
    // A role name sct has not seen is looked up (reads only); nothing is written.
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
    expect(r.stderr).toContain('error: bad-people.csv: 5 invalid rows; nothing was sent');
    expect(r.stderr).toContain('line 3, email: Enter a valid email address.');
    expect(r.stderr).toContain('line 4, email: This field is required.');
    expect(r.stderr).toContain(`line 5, email: "OK@${domain()}" is also on line 2; one invitation per address`);
    expect(r.stderr).toContain('line 6, auth_group: This field is required. (or give --role for rows without one)');
    expect(r.stderr).toContain('line 7, auth_group: unknown role "boss": the roles are OWNER (1), ADMIN (2), MEMBER (3)');
  });

  it('more invalid rows than the error lists: its message says so, in the JSON error object too', async () => {
    const file = people(60, () => 'boss');
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
    expect(r.exitCode).toBe(2);
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(error.error).toBe('people.csv: 60 invalid rows; nothing was sent (the first 50 errors are listed, 10 more are not: --report FILE lists them all)');
    expect(Object.keys(error.fields)).toHaveLength(50);
  });

  it('--skip-invalid: the rows left out stand in the report and on stdout at their lines, between the rows sent', async () => {
    const file = join(t.dir, 'skip-middle.csv');
    writeFileSync(file, `email,auth_group\nfirst@${domain()},3\nnot-an-address,3\nthird@${domain()},3\nfirst@${domain()},3\nfifth@${domain()},3\n`);
    const report = join(t.dir, 'skip-middle-report.csv');
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--skip-invalid', '--report', report, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('invitations: 3 created, 0 rejected, 2 invalid (not sent)');
    const rows = JSON.parse(r.stdout) as Array<{ lines: number[]; status: string }>;
    const expected = [
      [2, 'created'],
      [3, 'invalid'],
      [4, 'created'],
      [5, 'invalid'],
      [6, 'created'],
    ];
    expect(rows.map((x) => [x.lines[0], x.status])).toEqual(expected);
    const inReport = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<{ line: string; status: string }>;
    expect(inReport.map((x) => [Number(x.line), x.status])).toEqual(expected);
  });

  it('lists row errors in file order, a role name looked up after every row was read among them', async () => {
    const file = join(t.dir, 'order-of-errors.csv');
    writeFileSync(file, `email,auth_group\nfirst@${domain()},chief\nnot-an-address,3\nthird@${domain()},nobody\n`);
    const r = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => /line \d, /.test(l));
    expect(lines.map((l) => /line (\d)/.exec(l)![1])).toEqual(['2', '3', '4']);
  });

  it('refuses a file without auth_group and without --role at its header, before any row is checked', async () => {
    const file = join(t.dir, 'no-role-column.csv');
    writeFileSync(file, `email\nnot-an-address\n`);
    const r = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no-role-column.csv: missing column auth_group (found: email); add it, or give --role for every row');
    expect(r.stderr).not.toContain('Enter a valid email address');
  });

  it('with --report at a terminal prints only the summary; piped or with -o json stdout keeps the rows', async () => {
    const file = people(3);
    const report = join(t.dir, 'tty-report.csv');
    const tty = await t.sctIn(['invitations', 'bulk-create', '--file', file, '--role', '3', '--report', report], { tty: true });
    expect(tty.exitCode, tty.stderr).toBe(0);
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toContain('invitations: 3 created, 0 rejected — report in');
    expect(parse(readFileSync(report, 'utf8'), { columns: true })).toHaveLength(3);

    const piped = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('piped.csv', `email\nq0@${domain()}\nq1@${domain()}\n`), '--role', '3', '--report', join(t.dir, 'piped-report.csv')]);
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.stdout.trim().split('\n')).toHaveLength(3);
    const json = await t.sctIn(['invitations', 'bulk-create', '--file', t.writeFile('json.csv', `email\nr0@${domain()}\n`), '--role', '3', '--report', join(t.dir, 'json-report.csv'), '-o', 'json'], { tty: true });
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toHaveLength(1);
  });

  it('rejects a missing role column, a bad --role, a missing file and an existing report, sending nothing', async () => {
    const noRole = t.writeFile('no-role.csv', `email\na@${domain()}\n`);
    const noEmail = t.writeFile('no-email.csv', `auth_group\n3\n`);
    const good = people(1);
    const report = t.writeFile('report.csv', 'keep me');
    await t.expectUsageErrors(
      [
        [['invitations', 'bulk-create', '--file', noRole], 'no-role.csv: missing column auth_group (found: email); add it, or give --role'],
        [['invitations', 'bulk-create', '--file', noEmail], 'no-email.csv: missing column email'],
        [['invitations', 'bulk-create', '--file', join(t.dir, 'nope.csv')], 'cannot read'],
        [['invitations', 'bulk-create', '--file', good, '--report', report], 'already exists: pass --force'],
        [['invitations', 'bulk-create'], "required option '--file <file>'"],
      ],
      { inProcess: true },
    );
    expect(readFileSync(report, 'utf8')).toBe('keep me');
  });

  it('--role applies to every row of a file without auth_group; --dry-run sends nothing', async () => {
    const file = t.writeFile('emails.csv', `email\na@${domain()}\nb@${domain()}\n`);
    const dry = await t.sct(['invitations', 'bulk-create', '--file', file, '--role', '3', '--dry-run', '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(t.sb.requests).toHaveLength(0);
    expect(JSON.parse(dry.stdout)).toEqual([
      {
        method: 'POST',
        path: '/accounts/user-invitations/bulk-create',
        body: { operations: [{ email: `a@${domain()}`, auth_group: 3 }, { email: `b@${domain()}`, auth_group: 3 }] },
      },
    ]);
    expect(dry.stderr).toContain('emails.csv: 2 valid invitations in 1 request; nothing sent (dry run)');

    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--role', '3']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(posts()[0].body)).toEqual({ operations: [{ email: `a@${domain()}`, auth_group: 3 }, { email: `b@${domain()}`, auth_group: 3 }] });
    expect(r.stdout).toMatch(/^LINE\s+KEY\s+STATUS\s+ID\s+ERROR$/m);
    expect(r.stderr).toContain('invitations: 2 created, 0 rejected');
  });

  it('a chunk whose answer was lost is sent again under the same key on the rerun: replayed, not duplicated', async () => {
    const file = people(150);
    // The first request is processed, then every answer to it (the try and its three retries) is lost.
    t.sb.setFaults({ dropFirst: 4, dropAfterProcessing: true, methods: ['POST'] });
    // One chunk at a time: the second is never sent, as the first's fault stops the run.
    const r = await t.sctIn(['invitations', 'bulk-create', '--file', file, '--concurrency', '1'], { clientOptions: { retryBaseMs: 1 } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('invitations: 0 created, 0 rejected, 50 not sent, 100 unknown (sent, no answer says what became of them: they may exist)');
    expect(r.stderr).toContain('to continue, rerun: sct ');
    const lostKey = posts()[0].headers['idempotency-key'];
    // The service did create the first chunk's 100 invitations.
    expect(await invitationsOfDomain()).toHaveLength(100);

    t.sb.setFaults({});
    t.sb.requests.length = 0;
    const again = await t.sct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(posts()[0].headers['idempotency-key']).toBe(lostKey);
    // Replayed: the first 100 come back created, not refused as already pending.
    const statuses = (JSON.parse(again.stdout) as Array<{ status: string }>).map((x) => x.status);
    expect(statuses.every((s) => s === 'created')).toBe(true);
    const found = await invitationsOfDomain();
    expect(found).toHaveLength(150);
    expect(new Set(found.map((i) => i.email)).size).toBe(150);
  });

  it('a chunk whose answer was lost goes out again under its key with its rows, though the file changed since: replayed, never refused', async () => {
    const file = people(150);
    t.sb.setFaults({ dropFirst: 4, dropAfterProcessing: true, methods: ['POST'] });
    const r = await t.sctIn(['invitations', 'bulk-create', '--file', file, '--concurrency', '1'], { clientOptions: { retryBaseMs: 1 } });
    expect(r.exitCode).toBe(1);
    const lostKey = posts()[0].headers['idempotency-key'];
    const lostBody = posts()[0].body;
    t.sb.setFaults({});

    // The file gains a row at its top and another at its end: every chunk of it moves.
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    writeFileSync(file, [lines[0], `first@${domain()},3`, ...lines.slice(1), `last@${domain()},3`].join('\n') + '\n');
    t.sb.requests.length = 0;
    const again = await t.sct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    const resent = posts().find((p) => p.headers['idempotency-key'] === lostKey);
    expect(resent?.body).toBe(lostBody);
    const rows = JSON.parse(again.stdout) as Array<{ status: string }>;
    expect(rows.map((x) => x.status).every((s) => s === 'created')).toBe(true);
    expect(rows).toHaveLength(152);
    const found = await invitationsOfDomain();
    expect(new Set(found.map((i) => i.email)).size).toBe(152);
  });

  it('a row removed from a chunk whose answer was lost: the other rows are said as changed, not as edited, and nothing is sent twice', async () => {
    const file = people(150);
    t.sb.setFaults({ dropFirst: 4, dropAfterProcessing: true, methods: ['POST'] });
    const r = await t.sctIn(['invitations', 'bulk-create', '--file', file, '--concurrency', '1'], { clientOptions: { retryBaseMs: 1 } });
    expect(r.exitCode).toBe(1);
    t.sb.setFaults({});
    // The tenth row of the lost chunk taken out of the file.
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    writeFileSync(file, [...lines.slice(0, 10), ...lines.slice(11)].join('\n') + '\n');
    const again = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(again.exitCode).toBe(3);
    expect(again.stderr).toContain("in a request whose answer was lost (it may exist), and that request's rows are not all in the file as they were (one edited or removed)");
    expect(again.stderr).toContain('99 not done (changed since an earlier run sent them without an answer');
    expect(again.stderr).not.toContain('the edited row');
    const found = await invitationsOfDomain();
    expect(new Set(found.map((i) => i.email)).size).toBe(found.length);
  });

  it('--dry-run --skip-invalid with invalid rows ends as the real run would: exit 3, nothing sent', async () => {
    const file = t.writeFile('some-bad.csv', `email,auth_group\nok@${domain()},3\nnot-an-address,3\n`);
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--dry-run', '--skip-invalid']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('1 invalid row left out (--skip-invalid); nothing sent (dry run)');
    expect(posts()).toHaveLength(0);
  });

  it('stops cleanly on Ctrl-C (exit 130) with four chunks in flight, and a rerun finishes without duplicates', async () => {
    // The sandbox logs a request when it has answered it: the signal comes after the first chunks
    // came back, while the next ones are out. 10 chunks leave some unsent on a loaded machine too.
    const rows = 950;
    const file = people(rows);
    t.sb.setFaults({ latencyMs: 800 });
    const child = t.spawnSct(['invitations', 'bulk-create', '--file', file]);
    await until(() => posts().length >= 1, 'the first chunk to be sent');
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(Math.max(...posts().map((p) => p.inFlight))).toBe(4);
    // The chunks in flight finish; the others are not sent.
    const summary = /invitations: (\d+) created, 0 rejected, (\d+) not sent/.exec(String(r.stderr));
    expect(summary, String(r.stderr)).not.toBeNull();
    expect(Number(summary![1]) + Number(summary![2])).toBe(rows);
    expect(Number(summary![2])).toBeGreaterThan(0);
    expect(String(r.stderr)).toContain('to continue, rerun: sct ');
    t.sb.setFaults({});
    await new Promise((res) => setTimeout(res, 400));
    const firstRun = (await invitationsOfDomain()).length;
    expect(firstRun).toBeLessThan(rows);

    const again = await t.sct(['invitations', 'bulk-create', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    const statuses = (JSON.parse(again.stdout) as Array<{ status: string }>).map((x) => x.status);
    expect(statuses.filter((s) => s === 'skipped')).toHaveLength(firstRun);
    expect(statuses.filter((s) => s === 'created')).toHaveLength(rows - firstRun);
    const found = await invitationsOfDomain();
    expect(found).toHaveLength(rows);
    expect(new Set(found.map((i) => i.email)).size).toBe(rows);
  });
});

describe('a header of very many columns', () => {
  it('names the first 20 it does not know and how many more, never all of them (a million made a line of 9 MB)', async () => {
    const extra = Array.from({ length: 100_000 }, (_, i) => `c${i}`);
    const file = t.writeFile('wide.csv', `email,auth_group,${extra.join(',')}\nx@wide.example,member\n`);
    for (const json of [[], ['-o', 'json']]) {
      const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--dry-run', ...json]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('unknown columns c0, c1, c2');
      expect(r.stderr).toContain('c19 and 99,980 more');
      expect(r.stderr.length).toBeLessThan(5_000);
    }
  });

  it('a misspelt column past the 20th is still named with the close name, first; a header of no known column and huge cells stays short', async () => {
    const wide = ['email', ...Array.from({ length: 24 }, (_, i) => `survey_q${i}`), 'auth_grup'];
    const misspelt = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('wide-typo.csv', `${wide.join(',')}\nx@wide.example\n`), '--dry-run']);
    expect(misspelt.exitCode).toBe(2);
    expect(misspelt.stderr).toContain('auth_grup (did you mean auth_group?)');
    const huge = Array.from({ length: 30 }, (_, i) => `h${i}${'x'.repeat(100_000)}`);
    const none = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('wide-none.csv', `${huge.join(',')}\n${huge.map(() => 'y').join(',')}\n`), '--dry-run']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no known column in the header');
    expect(none.stderr).toContain('and 10 more');
    expect(none.stderr.length).toBeLessThan(10_000);
  });

  it('a header whose only columns are misspelt names the close ones, as a header with one known column does', async () => {
    const one = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('only-typo.csv', 'emial\na@typo.example\n'), '--dry-run']);
    expect(one.exitCode).toBe(2);
    expect(one.stderr).toContain('only-typo.csv line 1: no known column in the header (found: emial; tried the separators , ; tab |); unknown column emial (did you mean email?)');
    const two = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('two-typos.csv', 'emial;auth_grup\na@typo.example;member\n'), '--dry-run', '--delimiter', ';']);
    expect(two.exitCode).toBe(2);
    expect(two.stderr).toContain('unknown columns emial (did you mean email?), auth_grup (did you mean auth_group?)');
  });
});

describe('role names looked up when the service cannot answer', () => {
  it('ends as a run stopped before its first write: every row not sent, the report, the summary and the rerun hint', async () => {
    const file = t.writeFile('named.csv', `email,auth_group\nn1@${domain()},admin\nn2@${domain()},3\n`);
    const report = join(t.dir, 'named-report.csv');
    // The first read of the roles (GET /accounts/me) and its three retries are answered 503.
    t.sb.setFaults({ failFirst: 4, methods: ['GET'] });
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', file, '--report', report, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).map((x: { lines: number[]; status: string }) => [x.lines[0], x.status])).toEqual([
      [2, 'not_sent'],
      [3, 'not_sent'],
    ]);
    expect((parse(readFileSync(report, 'utf8'), { columns: true }) as Array<{ status: string }>).map((x) => x.status)).toEqual(['not_sent', 'not_sent']);
    expect(r.stderr).toContain('invitations: 0 created, 0 rejected, 2 not sent — report in');
    expect(r.stderr).toContain(`hint: to continue, rerun: sct invitations bulk-create --file ${file} --report ${report} -o json --force`);
    expect(posts()).toHaveLength(0);
  });

  it('--role by name, the service down: the same end, the rows read first', async () => {
    const file = t.writeFile('emails.csv', `email\nd1@${domain()}\n`);
    const report = join(t.dir, 'down-report.csv');
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', file, '--role', 'admin', '--report', report, '-o', 'json'], { env: { SCT_BASE_URL: 'http://127.0.0.1:9/api' } });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).map((x: { status: string }) => x.status)).toEqual(['not_sent']);
    expect(r.stderr).toContain('invitations: 0 created, 0 rejected, 1 not sent — report in');
    expect(r.stderr).toContain('connection refused');
    expect(r.stderr).toContain('hint: to continue, rerun: sct invitations bulk-create');
    expect(readFileSync(report, 'utf8')).toContain('not_sent');
  });

  it('an unknown --role name stays exit 2 naming the flag, nothing sent', async () => {
    const file = t.writeFile('emails.csv', `email\nu1@${domain()}\n`);
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', file, '--role', 'boss']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('error: --role: unknown role "boss": the roles are OWNER (1), ADMIN (2), MEMBER (3)');
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
  });
});
