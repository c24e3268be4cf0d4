// sct invitations list/get/create/revoke/renew/public against the sandbox.
import { beforeEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { MEMBER, TRADER } from '../sandbox/helpers.js';
import type { Prompter } from '../../src/prompt.js';

const t = useSandbox({}, { inProcess: true });
let run = 0;
beforeEach(() => {
  run++;
});

/** A terminal's user who answers every question no, and the questions asked. */
function answeringNo(questions: string[]): Prompter {
  return {
    confirm: async (m: string) => {
      questions.push(m);
      return false;
    },
  } as unknown as Prompter;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Invites the addresses through the API directly; returns the invitations. */
async function invite(emails: string[], role = 3, token?: string): Promise<Array<{ id: string; email: string }>> {
  const r = await fetch(`${t.sb.url}/accounts/user-invitations/bulk-create`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token ?? 'sct_demo_owner_cacao'}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ operations: emails.map((email) => ({ email, auth_group: role })) }),
  });
  const body = (await r.json()) as { results: Array<{ invitation: { id: string; email: string } }> };
  return body.results.map((x) => x.invitation);
}

describe('invitations revoke and renew --status, as help and completion offer it', () => {
  it('offers only the statuses they write: pending and expired', async () => {
    for (const verb of ['revoke', 'renew']) {
      const help = await t.sct(['invitations', verb, '--help']);
      expect(help.stdout.replace(/\s+/g, ' ')).toContain('(pending, expired)');
      expect(help.stdout).not.toMatch(/--status[^\n]*\n[^\n]*accepted/);
    }
    const bash = await t.sct(['completion', 'bash']);
    expect(bash.stdout).toContain("'invitations revoke|--status') COMPREPLY=( $(compgen -W 'pending expired' -- \"$cur\") )");
    expect(bash.stdout).toContain("'invitations list|--status') COMPREPLY=( $(compgen -W 'pending accepted revoked expired' -- \"$cur\") )");
  });
});

describe('invitations list, get, create', () => {
  it('list maps the filters; status repeats as the API takes it', async () => {
    const r = await t.sct([
      'invitations', 'list', '-o', 'json', '--status', 'pending,expired', '--role', '2', '--role-name', 'ADMIN,MEMBER', '--email-contains', 'brussels',
      '--invited-by', '1', '--created-from', '2020-01-01', '--expires-to', '2100-01-01', '--ordering', 'email', '--limit', '50',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0].path).toBe('/api/accounts/user-invitations');
    expect(t.searchParamsOf().getAll('status')).toEqual(['pending', 'expired']);
    expect(t.queryOf()).toMatchObject({
      auth_group: '2', auth_group__name__in: 'ADMIN,MEMBER', email__icontains: 'brussels', invited_by: '1',
      created_at__date__gte: '2020-01-01', expires_at__date__lte: '2100-01-01', ordering: 'email', limit: '50', offset: '0',
    });
    const rows = JSON.parse(r.stdout) as Array<{ status: string; auth_group: number; invited_by: number; email: string }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const i of rows) expect(i).toMatchObject({ auth_group: 2, invited_by: 1 });
    for (const i of rows) expect(['pending', 'expired']).toContain(i.status);
    expect(rows.map((i) => i.email)).toEqual([...rows.map((i) => i.email)].sort());

    const ids = rows.slice(0, 2).map((i) => (i as unknown as { id: string }).id);
    const byId = await t.sct(['invitations', 'list', '--id', ids[0], '--id', ids[1], '--exclude-id', ids[1], '-o', 'json']);
    expect(t.queryOf(1)).toMatchObject({ id__in: ids.join(','), id__exclude_in: ids[1] });
    expect(JSON.parse(byId.stdout).map((i: { id: string }) => i.id)).toEqual([ids[0]]);

    const table = await t.sct(['invitations', 'list', '--limit', '3']);
    expect(table.stdout).toMatch(/^ID\s+EMAIL\s+ROLE\s+STATUS\s+INVITED BY\s+EXPIRES$/m);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(4);
  });

  it('create sends email and auth_group, prints the invitation; get shows it', async () => {
    const email = `create.${run}@invited.example`;
    const r = await t.sct(['invitations', 'create', '--email', email, '--role', '3', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0]).toMatchObject({ method: 'POST', path: '/api/accounts/user-invitations' });
    expect(t.sb.requests[0].headers['idempotency-key']).toMatch(UUID);
    expect(t.bodyOf()).toEqual({ email, auth_group: 3 });
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ email, status: 'pending', auth_group: 3 });
    expect(r.stderr).toContain(`Created invitation ${created.id}`);

    const got = await t.sct(['invitations', 'get', created.id.toUpperCase()]);
    expect(got.exitCode, got.stderr).toBe(0);
    expect(t.sb.requests[1].path).toBe(`/api/accounts/user-invitations/${created.id}`);
    expect(got.stdout).toMatch(new RegExp(`^EMAIL\\s+${email.replace(/\./g, '\\.')}$`, 'm'));
    expect(got.stdout).toMatch(/^ROLE\s+\w+ \(3\)$/m);

    const again = await t.sct(['invitations', 'create', '--email', email, '--role', '3']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('email: A pending invitation for this email already exists.');
    const owner = await t.sct(['invitations', 'create', '--email', `owner.${run}@invited.example`, '--role', '1']);
    expect(owner.exitCode).toBe(1);
    expect(owner.stderr).toContain('auth_group: Owners cannot be invited.');
    const missing = await t.sct(['invitations', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('404');
  });

  it('sends an address of any shape the service may take (a=b@, x&y@, an IDN domain) and lets it judge', async () => {
    for (const email of [`a=b.${run}@invited.example`, `x&y!${run}@invited.example`, `ana.${run}@bücher.example`, `"a@b.${run}"@invited.example`, `"a\\"b.${run}"@invited.example`]) {
      const r = await t.sct(['invitations', 'create', '--email', email, '--role', '3', '--json', 'email']);
      expect(r.exitCode, `${email}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ email });
    }
    // What the service refuses (Django's validator: no letter outside ASCII before the @) is its
    // answer, exit 1, sent once.
    const before = t.sb.requests.length;
    const refused = await t.sct(['invitations', 'create', '--email', `ü.${run}@invited.example`, '--role', '3']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('email: Enter a valid email address.');
    expect(t.sb.requests.slice(before).filter((q) => q.method === 'POST')).toHaveLength(1);
    // An invisible character pasted with an address (a soft hyphen, a zero-width space) makes it
    // another address to the service, which would invite the person twice: refused, nothing sent.
    t.sb.requests.length = 0;
    await t.expectUsageErrors([
      [['invitations', 'create', '--email', `ana@exam\u00adple.com`, '--role', '3'], 'email: has an invisible character (U+00AD) after "ana@exam": type the address again'],
      [['invitations', 'create', '--email', `ana@example.com\u200b`, '--role', '3'], 'email: has an invisible character (U+200B) after "ana@example.com"'],
      // Every character a terminal shows as nothing: a combining grapheme joiner, a variation
      // selector, a braille blank, a Hangul filler.
      [['invitations', 'create', '--email', `ana@exam\u034fple.com`, '--role', '3'], '(U+034F)'],
      [['invitations', 'create', '--email', `ana@example.com\ufe0f`, '--role', '3'], '(U+FE0F)'],
      [['invitations', 'create', '--email', `ana@exam\u2800ple.com`, '--role', '3'], '(U+2800)'],
      [['invitations', 'create', '--email', `\u3164ana@example.com`, '--role', '3'], 'has an invisible character (U+3164) at its start'],
    ]);
  });

  it('create asks for the e-mail and offers the roles by name on a terminal', async () => {
    const email = `prompted.${run}@invited.example`;
    const asked: string[] = [];
    const prompter = {
      input: async (message: string, o?: { validate?: (v: string) => true | string }) => {
        asked.push(message);
        // Each answer is checked as typed: an address that is none is refused.
        expect(o?.validate?.('not an address')).not.toBe(true);
        expect(o?.validate?.(email)).toBe(true);
        return email;
      },
      select: async (message: string, choices: Array<{ name: string; value: number }>) => {
        asked.push(message);
        expect(choices).toEqual([{ name: 'ADMIN (2)', value: 2 }, { name: 'MEMBER (3)', value: 3 }]);
        return 3;
      },
    } as unknown as Prompter;
    const r = await t.sctIn(['invitations', 'create', '-o', 'json'], { tty: true, prompter, env: { CI: undefined } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(asked).toEqual(['email:', 'Invite as which role?']);
    expect(t.bodyOf(t.sb.requests.findIndex((q) => q.method === 'POST'))).toEqual({ email, auth_group: 3 });
  });

  it('rejects bad input before sending anything', async () => {
    await t.expectUsageErrors(
      [
        [['invitations', 'create', '--role', '3'], 'email: This field is required.'],
        [['invitations', 'create', '--email', 'someone@example.com'], '--role is required: the role the person gets, by name or id (no terminal to ask on)'],
        [['invitations', 'create', '--email', 'someone@example.com', '--set', 'auth_group=x'], 'auth_group: expected a number'],
        [['invitations', 'create', '--email', 'not-an-address', '--role', '3'], 'email: Enter a valid email address.'],
        [['invitations', 'create', '--email', `a@${'b'.repeat(1100)}.com`, '--role', '3'], 'email: at most 1024 characters'],
        [['invitations', 'get', '42'], 'invalid invitation id "42": expected a UUID'],
        [['invitations', 'list', '--status', 'open'], 'invalid --status "open"'],
        [['invitations', 'list', '--id', 'abc'], 'invalid --id "abc"'],
        [['invitations', 'list', '--created-from', '2025-02-30'], 'invalid --created-from'],
        [['invitations', 'public', 'nope'], 'expected a UUID'],
      ],
      { inProcess: true },
    );
  });
});

describe('invitations revoke', () => {
  it('reads the ids the filters match, revokes exactly those by id and prints what was revoked', async () => {
    const [a, b] = await invite([`rv.a.${run}@invited.example`, `rv.b.${run}@invited.example`]);
    t.sb.requests.length = 0;
    const r = await t.sct(['invitations', 'revoke', '--email-contains', `.${run}@invited`, '--status', 'pending', '--role', '3', '--yes', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests.map((x) => `${x.method} ${x.path}`)).toEqual(['GET /api/accounts/user-invitations', 'POST /api/accounts/user-invitations/bulk-revoke']);
    expect(t.queryOf(0)).toMatchObject({ email__icontains: `.${run}@invited`, status: 'pending', auth_group: '3' });
    const [op] = t.bodyOf(1).operations;
    expect(Object.keys(op.invitation_filters)).toEqual(['id__in']);
    expect(op.invitation_filters.id__in.split(',').sort()).toEqual([a.id, b.id].sort());
    const out = JSON.parse(r.stdout);
    expect(out.revoked_count).toBe(2);
    expect(out.revoked_ids.sort()).toEqual([a.id, b.id].sort());
    expect(r.stderr).toContain('Revoked 2 of 2 pending invitations');
    expect((await t.api(`/accounts/user-invitations/${a.id}`)).status).toBe('revoked');
  });

  it('takes ids, exact e-mail, dates and --filter as the list filters; --all-pending lists every pending one', async () => {
    const [a, b] = await invite([`rv.c.${run}@invited.example`, `rv.d.${run}@invited.example`], 3, TRADER);
    t.sb.requests.length = 0;
    const byId = await t.sctAs(TRADER)(['invitations', 'revoke', '--id', `${a.id},${b.id}`, '--exclude-id', b.id, '--email', a.email, '--created-from', '2020-01-01', '--filter', 'expires_at__date__gte=2020-01-01', '--filter', 'status=pending,expired', '--yes', '-o', 'json']);
    expect(byId.exitCode, byId.stderr).toBe(0);
    expect(t.queryOf(0)).toMatchObject({ id__in: `${a.id},${b.id}`, id__exclude_in: b.id, email: a.email, created_at__date__gte: '2020-01-01', expires_at__date__gte: '2020-01-01' });
    expect(t.bodyOf(1)).toEqual({ operations: [{ invitation_filters: { id__in: a.id } }] });
    expect(JSON.parse(byId.stdout)).toEqual({ revoked_count: 1, revoked_ids: [a.id] });

    const every = await t.sctAs(TRADER)(['invitations', 'revoke', '--all-pending', '--yes']);
    expect(every.exitCode, every.stderr).toBe(0);
    expect(every.stdout).toMatch(/^revoked_count\s+\d+$/m);
    expect((await t.api('/accounts/user-invitations?status=pending', TRADER)).count).toBe(0);
  });

  it('revokes more than 100 matches in operations of 100 ids', async () => {
    const emails = Array.from({ length: 130 }, (_, i) => `rv.many${i}.${run}@invited.example`);
    const people = [...(await invite(emails.slice(0, 100))), ...(await invite(emails.slice(100)))];
    t.sb.requests.length = 0;
    const r = await t.sct(['invitations', 'revoke', '--email-contains', `.${run}@invited`, '--yes', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const post = t.sb.requests.filter((x) => x.method === 'POST');
    expect(post).toHaveLength(1);
    const ops = JSON.parse(post[0].body).operations.map((o: any) => o.invitation_filters.id__in.split(','));
    expect(ops.map((o: string[]) => o.length)).toEqual([100, 30]);
    expect(ops.flat().sort()).toEqual(people.map((p) => p.id).sort());
    expect(JSON.parse(r.stdout).revoked_count).toBe(130);
  });

  it('asks on a terminal, saying how many match; no is exit 2 with nothing revoked', async () => {
    await invite([`rv.ask1.${run}@invited.example`, `rv.ask2.${run}@invited.example`]);
    const questions: string[] = [];
    const prompter = answeringNo(questions);
    t.sb.requests.length = 0;
    const r = await t.sctIn(['invitations', 'revoke', '--email-contains', `.${run}@invited`], { tty: true, prompter, env: { CI: undefined } });
    expect(r.exitCode).toBe(2);
    expect(questions).toEqual([`Revoke 2 pending invitations matching email__icontains=.${run}@invited?`]);
    expect(r.stderr).toContain('cancelled: nothing was revoked');
    expect(t.sb.requests.map((x) => x.method)).toEqual(['GET']);
  });

  it('on a terminal, nothing matching is said without a question', async () => {
    const questions: string[] = [];
    const prompter = { confirm: async (m: string) => (questions.push(m), true) } as unknown as Prompter;
    t.sb.requests.length = 0;
    const r = await t.sctIn(['invitations', 'revoke', '--email', `nobody.${run}@example.com`], { tty: true, prompter, env: { CI: undefined } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(questions).toEqual([]);
    expect(r.stderr).toContain(`No pending invitation matches email=nobody.${run}@example.com: nothing to revoke`);
    expect(t.sb.requests.map((x) => x.method)).toEqual(['GET']);
  });

  it('an API refusal is exit 1', async () => {
    await invite([`refused.${run}@invited.example`]);
    const r = await t.sctAs(MEMBER)(['invitations', 'revoke', '--email', `refused.${run}@invited.example`, '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('403');
  });

  it('a revoke given --filter status twice matches any of them, as the list does', async () => {
    const r = await t.sct(['invitations', 'revoke', '--filter', 'status=pending', '--filter', 'status=expired', '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.searchParamsOf().getAll('status')).toEqual(['pending', 'expired']);
  });

  it('rejects missing filters and bad values before sending anything', async () => {
    await t.expectUsageErrors(
      [
        [['invitations', 'revoke', '--yes'], 'give at least one filter'],
        [['invitations', 'revoke', '--email', 'x@example.com'], 'confirm with --yes'],
        [['invitations', 'revoke', '--all-pending', '--email', 'x@example.com', '--yes'], '--all-pending matches every pending invitation'],
        [['invitations', 'revoke', '--filter', 'colour=red', '--yes'], 'unknown invitation filter "colour"'],
        [['invitations', 'revoke', '--filter', 'status=gone', '--yes'], 'invalid --filter status "gone"'],
        [['invitations', 'revoke', '--id', 'nope', '--yes'], 'invalid --id "nope"'],
        [['invitations', 'revoke', '--invited-by', 'me', '--yes'], 'invalid --invited-by "me"'],
        [['invitations', 'renew', '--yes'], 'give at least one filter'],
        [['invitations', 'renew', 'not-a-uuid'], 'expected a UUID'],
        [['invitations', 'renew', '00000000-0000-4000-8000-000000000000', '--email', 'x@example.com'], 'either an invitation id or filters'],
        // Accepted and revoked invitations fall outside a bulk revoke or renew (accounts.md).
        [['invitations', 'revoke', '--status', 'accepted', '--yes'], '--status accepted: a revoke or renew writes pending invitations only'],
        [['invitations', 'renew', '--status', 'revoked,accepted', '--yes'], '--status revoked,accepted: a revoke or renew writes pending invitations only'],
        // One status it cannot write among others is refused too, never dropped unsaid.
        [['invitations', 'revoke', '--status', 'pending,accepted', '--yes'], '--status accepted: a revoke or renew writes pending invitations only'],
        // A --filter of a key a flag set: which of the two matched would be unseen under --yes.
        [['invitations', 'revoke', '--email', 'nobody@x.example', '--filter', 'email=julie@x.example', '--yes'], "--filter email=julie@x.example: the command's own flags set email too (nobody@x.example); give it one way"],
        [['invitations', 'renew', '--search', 'a', '--filter', 'search=b', '--yes'], "the command's own flags set search too"],
        // A key given twice: the filter object holds one value, the last, and the write would match fewer.
        [['invitations', 'revoke', '--filter', 'email=a@x.example', '--filter', 'email=b@x.example', '--yes'], '--filter email given twice: the service reads only the last value (b@x.example); give it once'],
        [['invitations', 'renew', '--filter', 'auth_group=1', '--filter', 'auth_group=2', '--yes'], '--filter auth_group given twice: the service reads only the last value (2); for any of them give one: --filter auth_group__in=1,2'],
        // An empty value (a script's unset variable) is no filter: it would match every pending invitation.
        [['invitations', 'revoke', '--email', '', '--yes'], '--email needs a value'],
        [['invitations', 'revoke', '--email-contains', ' ', '--yes'], '--email-contains needs a value'],
        [['invitations', 'revoke', '--search', '', '--yes'], '--search needs a value'],
        [['invitations', 'revoke', '--filter', 'email=', '--yes'], '--filter email= needs a value'],
        [['invitations', 'renew', '--email', '', '--dry-run'], '--email needs a value'],
        [['invitations', 'list', '--email', ''], '--email needs a value'],
        [['invitations', 'list', '--status', ''], '--status needs a value'],
        [['invitations', 'list', '--status', ','], '--status needs a value'],
        [['products', 'list', '--commodity', ''], '--commodity needs a value'],
        [['products', 'list', '--composition', ''], '--composition needs a value'],
      ],
      { inProcess: true },
    );
  });
});

describe('invitations renew', () => {
  it('renews one invitation by UUID', async () => {
    const [old] = await invite([`rn.one.${run}@invited.example`]);
    t.sb.requests.length = 0;
    const r = await t.sct(['invitations', 'renew', old.id, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests.map((x) => `${x.method} ${x.path}`)).toEqual(['POST /api/accounts/user-invitations/renew']);
    expect(t.bodyOf()).toEqual({ invitation: old.id });
    const fresh = JSON.parse(r.stdout);
    expect(fresh).toMatchObject({ email: old.email, status: 'pending' });
    expect(fresh.id).not.toBe(old.id);
    expect(r.stderr).toContain(`Renewed invitation ${old.id}: the new one is ${fresh.id}`);

    const twice = await t.sct(['invitations', 'renew', old.id]);
    expect(twice.exitCode).toBe(1);
    expect(twice.stderr).toContain('invitation: Only pending invitations can be renewed.');
  });

  it('renews what the filters match; over 100 matches go as id chunks of 100', async () => {
    const domain = `renew${run}.example`;
    const emails = Array.from({ length: 130 }, (_, i) => `p${i}@${domain}`);
    const olds = [...(await invite(emails.slice(0, 100))), ...(await invite(emails.slice(100)))];
    t.sb.requests.length = 0;
    const r = await t.sct(['invitations', 'renew', '--email-contains', `@${domain}`, '--yes', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests.map((x) => `${x.method} ${x.path}`)).toEqual([
      'GET /api/accounts/user-invitations',
      'POST /api/accounts/user-invitations/bulk-renew',
    ]);
    expect(t.searchParamsOf().getAll('status')).toEqual(['pending', 'expired']);
    expect(t.queryOf()).toMatchObject({ email__icontains: `@${domain}` });
    const ops = t.bodyOf(1).operations as Array<{ invitation_filters: { id__in: string } }>;
    expect(ops.map((o) => o.invitation_filters.id__in.split(',').length)).toEqual([100, 30]);
    expect(ops.flatMap((o) => o.invitation_filters.id__in.split(',')).sort()).toEqual(olds.map((o) => o.id).sort());
    const renewed = JSON.parse(r.stdout) as Array<{ email: string; status: string }>;
    expect(renewed).toHaveLength(130);
    expect(new Set(renewed.map((i) => i.email))).toEqual(new Set(emails));
    expect(r.stderr).toContain('Renewed 130 of 130 pending invitations');
    const pending = await t.api(`/accounts/user-invitations?email__icontains=${domain}&status=pending&limit=1`);
    expect(pending.count).toBe(130);
  });

  it('with nothing matching, says so and sends no renew', async () => {
    const r = await t.sct(['invitations', 'renew', '--email', `nobody.${run}@nowhere.example`, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('No pending invitation matches');
    expect(t.sb.requests.map((x) => x.method)).toEqual(['GET']);
  });

  it('asks on a terminal with the count; an API refusal is exit 1', async () => {
    await invite([`rn.ask.${run}@invited.example`]);
    t.sb.requests.length = 0;
    const questions: string[] = [];
    const prompter = answeringNo(questions);
    const r = await t.sctIn(['invitations', 'renew', '--email', `rn.ask.${run}@invited.example`], { tty: true, prompter, env: { CI: undefined } });
    expect(r.exitCode).toBe(2);
    expect(questions).toEqual(['Renew 1 pending invitation (each gets a new e-mail; the old links stop working)?']);
    expect(t.sb.requests.map((x) => x.method)).toEqual(['GET']);

    const denied = await t.sctAs(MEMBER)(['invitations', 'renew', '--email', `rn.ask.${run}@invited.example`, '--yes']);
    expect(denied.exitCode).toBe(1);
    expect(denied.stderr).toContain('403');
  });
});

describe('invitations renew/revoke --status expired', () => {
  it('calls what it matched expired invitations, not pending ones', async () => {
    const questions: string[] = [];
    const prompter = answeringNo(questions);
    const renew = await t.sctIn(['invitations', 'renew', '--status', 'expired'], { tty: true, prompter, env: { CI: undefined } });
    expect(renew.exitCode).toBe(2);
    const revoke = await t.sctIn(['invitations', 'revoke', '--status', 'expired'], { tty: true, prompter, env: { CI: undefined } });
    expect(revoke.exitCode).toBe(2);
    expect(questions).toHaveLength(2);
    expect(questions[0]).toMatch(/^Renew \d+ expired invitations \(each gets a new e-mail/);
    expect(questions[1]).toMatch(/^Revoke \d+ expired invitations matching status=expired\?$/);
    const none = await t.sct(['invitations', 'renew', '--status', 'expired', '--email', `nobody.${run}@nowhere.example`, '--yes']);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stderr).toMatch(/^No expired invitation matches email=nobody\.\d+@nowhere\.example status=expired: nothing to renew$/m);
  });
});

describe('invitations public', () => {
  it('shows the public view without a token, and sends none', async () => {
    const [inv] = await invite([`pub.${run}@invited.example`]);
    t.sb.requests.length = 0;
    const r = await t.sct(['invitations', 'public', inv.id], { env: { SCT_TOKEN: undefined } });
    expect(r.exitCode, r.stderr).toBe(0);
    // The sandbox's log keeps the UUID, the invitation's only credential, to its first 8 digits.
    expect(t.sb.requests[0].path).toBe(`/api/accounts/user-invitations/public/${inv.id.slice(0, 8)}…`);
    expect(t.sb.requests[0].headers.authorization).toBeUndefined();
    expect(r.stdout).toMatch(/^Company\s+Brussels Cacao Chocolatiers NV$/m);
    expect(r.stdout).toMatch(/^Active\s+true$/m);
    const json = await t.sct(['invitations', 'public', inv.id, '--json']);
    expect(t.sb.requests[1].headers.authorization).toBeUndefined();
    expect(JSON.parse(json.stdout)).toMatchObject({ id: inv.id, company: { id: 1 }, auth_group_id: 3, is_active: true });
    const missing = await t.sct(['invitations', 'public', '00000000-0000-4000-8000-000000000000'], { env: { SCT_TOKEN: undefined } });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('404');
  });
});
