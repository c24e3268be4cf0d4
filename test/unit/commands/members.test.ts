import { describe, expect, it } from 'vitest';
import { runRegistered, runWith, useHttpMock } from '../../helpers/http-mock.js';
import { register, setRole } from '../../../src/commands/members.js';

const http = useHttpMock();
const UPDATED = { id: 5, user: { email: 'ama@example.com' }, auth_group: 3, auth_group_detail: { id: 3, name: 'MEMBER' } };

describe('members', () => {
  it('set-role MEMBER ROLE_ID: one PATCH of auth_group', async () => {
    http.stub('PATCH', '/accounts/user-companies/5', { body: { auth_group: 3 } }, { json: UPDATED });
    const { stderr } = await runWith(http, (ctx) => setRole(ctx, '5', '3'), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['PATCH /accounts/user-companies/5']);
    expect(stderr).toContain('Member 5 now has role MEMBER');
  });

  it('set-role MEMBER NAME: the roles are learnt once, then remembered for the next run', async () => {
    http.stub('GET', '/accounts/me', { json: { id: 1, auth_group: { id: 1, name: 'OWNER' } } });
    http.stub('GET', '/accounts/user-companies', { query: { limit: '1000' } }, { json: { count: 1, next: null, previous: null, results: [UPDATED] } });
    http.stub('PATCH', '/accounts/user-companies/5', { body: { auth_group: 3 } }, { json: UPDATED });
    http.stub('PATCH', '/accounts/user-companies/6', { body: { auth_group: 3 } }, { json: { ...UPDATED, id: 6 } });
    await runWith(http, async (ctx) => {
      await setRole(ctx, '5', 'member');
      await setRole(ctx, '6', 'Member');
    }, { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['GET /accounts/me', 'GET /accounts/user-companies', 'PATCH /accounts/user-companies/5', 'PATCH /accounts/user-companies/6']);
  });

  it('list with the named filters: their documented keys in one GET', async () => {
    const query = {
      auth_group__name__in: 'ADMIN,MEMBER', user__email__icontains: 'cacao', user__first_name__icontains: 'ama', user__last_name__icontains: 'mensah',
      user__job_title__icontains: 'buyer', created_at__date__gte: '2025-01-01', updated_at__date__lte: '2025-06-30', auth_group: '3', limit: '10', offset: '0',
    };
    http.stub('GET', '/accounts/user-companies', { query }, { json: { count: 1, next: null, previous: null, results: [UPDATED] } });
    const { stdout } = await runRegistered(http, register, [
      'members', 'list', '--role-name', 'ADMIN', '--role-name', 'MEMBER', '--email-contains', 'cacao', '--first-name', 'ama', '--last-name', 'mensah',
      '--job-title', 'buyer', '--created-from', '2025-01-01', '--updated-to', '2025-06-30', '--role', '3', '--limit', '10', '-o', 'json',
    ]);
    expect(http.sent()).toEqual(['GET /accounts/user-companies']);
    expect(JSON.parse(stdout)).toMatchObject([{ id: 5 }]);
  });
});
