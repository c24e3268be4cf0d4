import { describe, expect, it } from 'vitest';
import { runWith, useHttpMock } from '../../helpers/http-mock.js';
import { setRole } from '../../../src/commands/members.js';

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
});
