// Accounts: roles and permissions, members, users, workspaces and switching, countries,
// user configuration, and the invitation lifecycle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { ADMIN, all, client, MEMBER, MULTI, OWNER, TRADER } from './helpers.js';

let sb: Sandbox;
let owner: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  owner = client(sb, OWNER);
  admin = client(sb, ADMIN);
  member = client(sb, MEMBER);
});
afterAll(async () => {
  await sb.close();
});

const ROLE = { OWNER: 1, ADMIN: 2, MEMBER: 3 };

describe('members and users', () => {
  it('lists the users of the company only with view_user', async () => {
    const r = await admin.get('/accounts/users?limit=100');
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toEqual(expect.objectContaining({ id: expect.any(Number), username: expect.any(String), account: 1, auth_group: expect.any(Number), user_group: expect.any(Number) }));
    expect((await admin.get('/accounts/users?search=janssens')).body.count).toBe(1);
    const denied = await member.get('/accounts/users');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('lists members with filters, search and ordering', async () => {
    const rows = await all(member, '/accounts/user-companies?limit=100');
    expect(rows.length).toBeGreaterThan(20);
    expect(rows[0]).toHaveProperty('user_detail.email');
    expect(rows.map((m) => m.user_detail.first_name)).toEqual([...rows.map((m) => m.user_detail.first_name)].sort((a, b) => a.localeCompare(b, 'en')));
    expect((await all(member, '/accounts/user-companies?auth_group=1')).every((m) => m.auth_group === 1)).toBe(true);
    expect((await all(member, '/accounts/user-companies?auth_group__name__in=OWNER,ADMIN')).every((m) => ['OWNER', 'ADMIN'].includes(m.auth_group_detail.name))).toBe(true);
    expect((await all(member, '/accounts/user-companies?user__email__icontains=janssens')).length).toBe(1);
    expect((await all(member, '/accounts/user-companies?user__first_name__istartswith=no')).every((m) => /^no/i.test(m.user_detail.first_name))).toBe(true);
    expect((await all(member, '/accounts/user-companies?search=compliance')).length).toBeGreaterThan(0);
    expect((await all(member, '/accounts/user-companies?created_at__date__lte=2030-01-01')).length).toBe(rows.length);
    const byEmail = await all(member, '/accounts/user-companies?ordering=-user__email&limit=100');
    expect(byEmail[0].user_detail.email >= byEmail[1].user_detail.email).toBe(true);
    expect((await member.get('/accounts/user-companies?ordering=salary')).status).toBe(400);
  });

  it('ignores member, workspace and invitation filters their document does not list', async () => {
    const members = (await member.get('/accounts/user-companies?limit=1')).body.count;
    for (const q of ['id=1', 'user=1', 'user__email__iexact=x', 'auth_group__gt=5', 'user__job_title__istartswith=zz', 'created_at__gt=2100-01-01'])
      expect((await member.get(`/accounts/user-companies?limit=1&${q}`)).body.count, q).toBe(members);
    const workspaces = (await client(sb, MULTI).get('/accounts/workspaces?limit=1')).body.count;
    expect(workspaces).toBeGreaterThan(1);
    for (const q of ['id=1', 'name__startswith=zz', 'country__iexact=zz', 'type__exact=zz'])
      expect((await client(sb, MULTI).get(`/accounts/workspaces?limit=1&${q}`)).body.count, q).toBe(workspaces);
    const invitations = (await owner.get('/accounts/user-invitations?limit=1')).body.count;
    for (const q of ['email__startswith=zz', 'invited_by__in=9999', 'status__in=revoked', 'expires_at__gt=2100-01-01', 'auth_group__name__icontains=zz'])
      expect((await owner.get(`/accounts/user-invitations?limit=1&${q}`)).body.count, q).toBe(invitations);
  });

  it('changes roles by the rules', async () => {
    const rows = await all(owner, '/accounts/user-companies?limit=100&auth_group=3');
    const target = rows.find((m) => m.user_detail.last_name !== 'De Smet');
    expect((await member.patch(`/accounts/user-companies/${target.id}`, { auth_group: ROLE.ADMIN })).status).toBe(403);
    expect((await admin.patch(`/accounts/user-companies/${target.id}`, { auth_group: ROLE.OWNER })).status).toBe(403);
    const ok = await admin.patch(`/accounts/user-companies/${target.id}`, { auth_group: ROLE.ADMIN });
    expect(ok.body).toMatchObject({ id: target.id, auth_group: ROLE.ADMIN, auth_group_detail: { name: 'ADMIN' } });
    expect((await admin.patch(`/accounts/user-companies/${target.id}`, { auth_group: 42 })).body.auth_group[0]).toMatch(/Invalid pk/);
    const ownerRow = (await all(owner, '/accounts/user-companies?auth_group=1'))[0];
    expect((await owner.patch(`/accounts/user-companies/${ownerRow.id}`, { auth_group: ROLE.MEMBER })).body.auth_group[0]).toMatch(/at least one owner/);
    const foreign = (await all(client(sb, TRADER), '/accounts/user-companies'))[0];
    expect((await owner.patch(`/accounts/user-companies/${foreign.id}`, { auth_group: 3 })).status).toBe(404);
  });
});

describe('workspaces', () => {
  it('lists the workspaces of the user and switches between them', async () => {
    const multi = client(sb, MULTI);
    const ws = await multi.get('/accounts/workspaces');
    expect(ws.body.count).toBe(3);
    expect(ws.body.results[0]).toEqual(expect.objectContaining({ workspace_id: expect.any(Number), workspace_name: expect.any(String), member_count: expect.any(Number), is_mfa_enabled: false, type: expect.any(String) }));
    expect((await multi.get('/accounts/workspaces?type__exclude=test')).body.count).toBe(2);
    expect((await multi.get('/accounts/workspaces?type__in=trial,test')).body.count).toBe(2);
    expect((await multi.get('/accounts/workspaces?name__icontains=timber')).body.count).toBe(1);
    expect((await multi.get('/accounts/workspaces?country__in=SE')).body.count).toBe(1);
    expect((await multi.get('/accounts/workspaces?search=brussels')).body.count).toBe(2);
    const grouped = await multi.get('/accounts/workspaces/grouped');
    expect(grouped.body.results.flatMap((g: any) => g.workspaces)).toHaveLength(3);

    expect((await multi.get('/accounts/me')).body.company.id).toBe(1);
    const cocoa = (await multi.get('/products?limit=1')).body.results[0];
    expect((await multi.post('/accounts/workspaces/switch', { company_id: 2 })).body.company_id[0]).toMatch(/not a member/);
    expect((await multi.post('/accounts/workspaces/switch', {})).body).toEqual({ company_id: ['This field is required.'] });
    const sw = await multi.post('/accounts/workspaces/switch', { company_id: 3 });
    expect(sw.status).toBe(200);
    expect(sw.body.message).toMatch(/Nordic Timber/);
    const me = await multi.get('/accounts/me');
    expect(me.body).toMatchObject({ company: { id: 3 }, auth_group: { name: 'OWNER' } });
    expect((await multi.get(`/products/${cocoa.id}`)).status).toBe(404);
    expect((await all(multi, '/products?limit=100')).every((p) => p.commodity === 'wood')).toBe(true);
    await multi.post('/accounts/workspaces/switch', { company_id: 1 });
    expect((await multi.get(`/products/${cocoa.id}`)).status).toBe(200);
  });
});

describe('reference data and configuration', () => {
  it('serves countries with filters and by code', async () => {
    const all30 = await all(owner, '/accounts/countries?limit=100');
    expect(all30.length).toBeGreaterThanOrEqual(30);
    expect(all30.filter((c) => c.eu_status === 'member')).toHaveLength(27);
    for (const a2 of ['BR', 'CI', 'GH', 'ID', 'CO', 'VN']) expect(all30.map((c) => c.alpha_2)).toContain(a2);
    expect((await owner.get('/accounts/countries?search=ivoire')).body.results[0]).toMatchObject({ alpha_2: 'CI', alpha_3: 'CIV', numeric: '384', flag: '🇨🇮' });
    expect((await owner.get('/accounts/countries?alpha_2__in=DE,FR')).body.count).toBe(2);
    expect((await owner.get('/accounts/countries/gh')).body.name).toBe('Ghana');
    expect((await owner.get('/accounts/countries/XX')).status).toBe(404);
  });

  it('reads and merges user configuration', async () => {
    const r = await member.get('/accounts/user-config');
    expect(r.body.available_actions).not.toContain('users.view');
    expect((await owner.get('/accounts/user-config')).body.available_actions).toContain('users.view');
    const p = await member.patch('/accounts/user-config', { config: { page_size: 100, columns: ['id'] } });
    expect(p.body.config).toMatchObject({ page_size: 100, columns: ['id'], theme: 'light' });
    expect((await member.get('/accounts/me')).body.user_company.config.page_size).toBe(100);
    expect((await member.patch('/accounts/user-config', { config: 5 })).status).toBe(400);
  });
});

describe('invitations', () => {
  const base = '/accounts/user-invitations';

  it('has demo invitations in every state, newest first', async () => {
    const rows = await all(owner, `${base}?limit=100`);
    expect(new Set(rows.map((i) => i.status))).toEqual(new Set(['pending', 'accepted', 'revoked', 'expired']));
    expect(rows.map((i) => i.created_at)).toEqual([...rows.map((i) => i.created_at)].sort().reverse());
    const some = await all(owner, `${base}?status=expired&status=revoked`);
    expect(some.every((i) => ['expired', 'revoked'].includes(i.status))).toBe(true);
    expect(some.length).toBe(rows.filter((i) => ['expired', 'revoked'].includes(i.status)).length);
    expect((await all(owner, `${base}?status=expired,revoked`)).length).toBe(some.length);
    expect((await all(owner, `${base}?auth_group=2`)).every((i) => i.auth_group === 2)).toBe(true);
    expect((await all(owner, `${base}?auth_group__name__in=ADMIN`)).every((i) => i.auth_group_detail.name === 'ADMIN')).toBe(true);
    expect((await all(owner, `${base}?expires_at__date__gte=2090-01-01`)).every((i) => i.status === 'pending')).toBe(true);
    expect((await all(owner, `${base}?id__in=${rows[0].id},${rows[1].id}`)).length).toBe(2);
    expect((await all(owner, `${base}?id__exclude_in=${rows[0].id}`)).length).toBe(rows.length - 1);
    expect((await all(owner, `${base}?invited_by=2`)).every((i) => i.invited_by === 2)).toBe(true);
    expect((await all(owner, `${base}?ordering=email`)).map((i) => i.email)).toEqual(rows.map((i) => i.email).sort((a, b) => a.localeCompare(b, 'en')));
    expect((await owner.get(`${base}?status=lost`)).status).toBe(400);
    expect((await owner.get(`${base}?ordering=auth_group_name,-expires_at`)).status).toBe(200);
  });

  it('creates, enforces one pending per e-mail and the role rules', async () => {
    const r = await member.post(base, { email: 'new.buyer@example.com', auth_group: ROLE.MEMBER });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'pending', auth_group_detail: { name: 'MEMBER' }, invited_by_detail: { last_name: 'De Smet' } });
    expect((await owner.get(`${base}/${r.body.id}`)).body.id).toBe(r.body.id);
    expect((await client(sb, TRADER).get(`${base}/${r.body.id}`)).status).toBe(404);
    expect((await owner.post(base, { email: 'NEW.buyer@example.com', auth_group: ROLE.MEMBER })).body.email[0]).toMatch(/pending invitation/);
    expect((await member.post(base, { email: 'boss@example.com', auth_group: ROLE.ADMIN })).status).toBe(403);
    expect((await admin.post(base, { email: 'boss@example.com', auth_group: ROLE.ADMIN })).status).toBe(201);
    expect((await owner.post(base, { email: 'king@example.com', auth_group: ROLE.OWNER })).body.auth_group[0]).toMatch(/Owners cannot be invited/);
    expect((await owner.post(base, { email: 'not-an-email', auth_group: 3 })).body.email[0]).toMatch(/valid email/);
    expect((await owner.post(base, { email: `${'a'.repeat(1020)}@x.io`, auth_group: 3 })).body.email[0]).toMatch(/1024/);
    expect((await owner.post(base, { email: 'amelie.janssens@brussels-cacao.example', auth_group: 3 })).body.email[0]).toMatch(/already a member/);
  });

  it('bulk creates with per-index results', async () => {
    const r = await member.post(`${base}/bulk-create`, {
      operations: [
        { email: 'bulk.one@example.com', auth_group: 3 },
        { email: 'bulk.two@example.com', auth_group: 2 },
        { email: 'bulk.one@example.com', auth_group: 3 },
        { email: 'broken', auth_group: 3 },
        { email: 'bulk.three@example.com', auth_group: 1 },
        { email: 'bulk.four@example.com' },
        { email: 'bulk.five@example.com', auth_group: 3 },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body.results.map((x: any) => [x.index, x.status])).toEqual([
      [0, 'created'], [1, 'rejected'], [2, 'rejected'], [3, 'rejected'], [4, 'rejected'], [5, 'rejected'], [6, 'created'],
    ]);
    expect(r.body.results[0].invitation.email).toBe('bulk.one@example.com');
    expect(r.body.results[1].error.auth_group[0]).toMatch(/ADMIN/);
    expect(r.body.results[2].error.email[0]).toMatch(/pending/);
    expect(r.body.results[3].error.email[0]).toMatch(/valid email/);
    expect(r.body.results[5].error).toEqual({ auth_group: ['This field is required.'] });
    expect((await owner.post(`${base}/bulk-create`, { operations: [] })).status).toBe(400);
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ email: `x${i}@example.com`, auth_group: 3 }));
    expect((await owner.post(`${base}/bulk-create`, { operations: tooMany })).body.operations[0]).toMatch(/100/);
  });

  it('renews one pending invitation: old revoked, new pending, public link of the old one gone', async () => {
    const inv = (await owner.post(base, { email: 'renew.me@example.com', auth_group: 3 })).body;
    const pub = await client(sb, null).get(`${base}/public/${inv.id}`);
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ id: inv.id, company: { id: 1, slug: 'brussels-cacao-chocolatiers' }, auth_group_id: 3, is_existing_user: false, is_active: true });
    expect((await member.post(`${base}/renew`, { invitation: inv.id })).status).toBe(403);
    const fresh = await owner.post(`${base}/renew`, { invitation: inv.id });
    expect(fresh.status).toBe(201);
    expect(fresh.body).toMatchObject({ email: 'renew.me@example.com', status: 'pending', auth_group: 3 });
    expect(fresh.body.id).not.toBe(inv.id);
    expect((await owner.get(`${base}/${inv.id}`)).body.status).toBe('revoked');
    expect((await client(sb, null).get(`${base}/public/${inv.id}`)).status).toBe(404);
    expect((await owner.post(`${base}/renew`, { invitation: inv.id })).body.invitation[0]).toMatch(/Only pending/);
    expect((await client(sb, null).get(`${base}/${fresh.body.id}/status`)).body.status).toBe('pending');
  });

  it('bulk revokes by filters, skipping accepted and revoked ones', async () => {
    await owner.post(base, { email: 'revoke.a@example.org', auth_group: 3 });
    await owner.post(base, { email: 'revoke.b@example.org', auth_group: 3 });
    const r = await owner.post(`${base}/bulk-revoke`, { operations: [{ invitation_filters: { email__icontains: 'revoke.' } }, { invitation_filters: { email__icontains: 'revoke.' } }, { invitation_filters: { status: ['lost'] } }] });
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toMatchObject({ index: 0, status: 'accepted', revoked_count: 2 });
    expect(r.body.results[1]).toMatchObject({ index: 1, revoked_count: 0 });
    expect(r.body.results[2].status).toBe('rejected');
    expect((await all(owner, `${base}?email__icontains=revoke.`)).every((i) => i.status === 'revoked')).toBe(true);
    expect((await member.post(`${base}/bulk-revoke`, { operations: [{ invitation_filters: {} }] })).status).toBe(403);
  });

  it('rejects only the bulk renew operation matching more than 100; the others run', async () => {
    const ops = Array.from({ length: 100 }, (_, i) => ({ email: `mass${i}@example.net`, auth_group: 3 }));
    await owner.post(`${base}/bulk-create`, { operations: ops });
    await owner.post(`${base}/bulk-create`, { operations: ops.map((o) => ({ ...o, email: o.email.replace('mass', 'more') })) });
    const netPending = async () => (await owner.get(`${base}?status=pending&email__icontains=@example.net&limit=1`)).body.count;
    expect(await netPending()).toBe(200);
    const r = await owner.post(`${base}/bulk-renew`, { operations: [{ invitation_filters: { email__icontains: '@example.net' } }, { invitation_filters: { email__icontains: 'more1' } }] });
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toEqual({
      index: 0,
      status: 'rejected',
      error: { invitation_filters: ['These filters match 200 pending invitations; one bulk renew operation may match at most 100. Narrow the filters.'] },
      renewed_count: 0,
      invitations: [],
    });
    expect(r.body.results[1]).toMatchObject({ index: 1, status: 'accepted', renewed_count: 11 });
    expect(r.body.results[1].invitations).toHaveLength(11);
    // The rejected operation renewed nothing: only the 11 of the second were replaced.
    expect(await netPending()).toBe(200);
    expect((await all(owner, `${base}?status=revoked&email__icontains=@example.net`)).length).toBe(11);
    const ok = await owner.post(`${base}/bulk-renew`, { operations: [{ invitation_filters: { email__icontains: 'mass1' } }, { invitation_filters: { email__icontains: 'mass1' } }] });
    expect(ok.status).toBe(200);
    expect(ok.body.results[0]).toMatchObject({ status: 'accepted', renewed_count: 11 });
    // The second operation does not renew what the first one just issued.
    expect(ok.body.results[1].renewed_count).toBe(0);
    const expired = (await all(owner, `${base}?status=expired`))[0];
    const re = await owner.post(`${base}/bulk-renew`, { operations: [{ invitation_filters: { id: expired.id } }] });
    expect(re.body.results[0].renewed_count).toBe(1);
  });
});
