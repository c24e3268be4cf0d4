import { describe, expect, it } from 'vitest';
import { runWith, useHttpMock } from '../../helpers/http-mock.js';
import { createInvitation, renewInvitations, revokeInvitations } from '../../../src/commands/invitations.js';

const http = useHttpMock();
const A = '0b6f3a52-6a1e-4c3e-9d1e-3f4a5b6c7d01';
const B = '0b6f3a52-6a1e-4c3e-9d1e-3f4a5b6c7d02';
const page = (ids: string[]) => ({ count: ids.length, next: null, previous: null, results: ids.map((id) => ({ id, email: `${id.slice(-2)}@example.com`, status: 'pending' })) });
const ME = { id: 1, email: 'owner@example.com', company: { id: 1 }, auth_group: { id: 1, name: 'OWNER' } };

describe('invitations', () => {
  it('create --role ID: one POST, with an Idempotency-Key; a role id needs no look-up', async () => {
    http.stub('POST', '/accounts/user-invitations', { body: { email: 'ama@example.com', auth_group: 2 } }, { status: 201, json: { id: A, email: 'ama@example.com', auth_group: 2 } });
    await runWith(http, (ctx) => createInvitation(ctx, { email: 'ama@example.com', role: '2' }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['POST /accounts/user-invitations']);
    expect(http.requests[0].headers['idempotency-key']).toBeTruthy();
  });

  it('create --role NAME: the roles are learnt (the profile, then the members) before the POST', async () => {
    http.stub('GET', '/accounts/me', { json: ME });
    http.stub('GET', '/accounts/user-companies', { query: { limit: '1000' } }, { json: { count: 1, next: null, previous: null, results: [{ id: 5, auth_group_detail: { id: 2, name: 'ADMIN' } }] } });
    http.stub('POST', '/accounts/user-invitations', { body: { email: 'ama@example.com', auth_group: 2 } }, { status: 201, json: { id: A } });
    await runWith(http, (ctx) => createInvitation(ctx, { email: 'ama@example.com', role: 'admin' }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['GET /accounts/me', 'GET /accounts/user-companies', 'POST /accounts/user-invitations']);
  });

  it('revoke --id: the matching pending invitations are read, then revoked by id in one bulk request', async () => {
    http.stub('GET', '/accounts/user-invitations', { query: { status: ['pending', 'expired'], id__in: `${A},${B}`, limit: '10000', offset: '0' } }, { json: page([A, B]) });
    http.stub('POST', '/accounts/user-invitations/bulk-revoke', { body: { operations: [{ invitation_filters: { id__in: `${A},${B}` } }] } }, { json: { results: [{ index: 0, status: 'accepted', revoked_count: 2, revoked_ids: [A, B] }] } });
    const { stdout } = await runWith(http, (ctx) => revokeInvitations(ctx, { id: `${A},${B}` }), { flags: { yes: true, output: 'json' } });
    expect(http.sent()).toEqual(['GET /accounts/user-invitations', 'POST /accounts/user-invitations/bulk-revoke']);
    expect(JSON.parse(stdout)).toEqual({ revoked_count: 2, revoked_ids: [A, B] });
  });

  it('revoke without --yes and no terminal: refused, nothing sent', async () => {
    await expect(runWith(http, (ctx) => revokeInvitations(ctx, { id: A }))).rejects.toThrow(/confirm with --yes/);
    expect(http.sent()).toEqual([]);
  });

  it('renew --email: the matches are read, then renewed by id (never by the filter itself)', async () => {
    http.stub('GET', '/accounts/user-invitations', { query: { status: ['pending', 'expired'], email: 'ama@example.com', limit: '10000', offset: '0' } }, { json: page([A]) });
    http.stub('POST', '/accounts/user-invitations/bulk-renew', { body: { operations: [{ invitation_filters: { id__in: A } }] } }, { json: { results: [{ index: 0, status: 'accepted', renewed_count: 1, invitations: [{ id: B }] }] } });
    const { stdout } = await runWith(http, (ctx) => renewInvitations(ctx, { email: 'ama@example.com' }), { flags: { yes: true, output: 'json' } });
    expect(http.sent()).toEqual(['GET /accounts/user-invitations', 'POST /accounts/user-invitations/bulk-renew']);
    expect(JSON.parse(stdout)).toEqual([{ id: B }]);
  });

  it('renew ID: one POST to renew, no read', async () => {
    http.stub('POST', '/accounts/user-invitations/renew', { body: { invitation: A } }, { json: { id: B } });
    await runWith(http, (ctx) => renewInvitations(ctx, {}, A), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['POST /accounts/user-invitations/renew']);
  });
});
