import { describe, expect, it } from 'vitest';
import { runRegistered, runWith, useHttpMock } from '../../helpers/http-mock.js';
import { listValueChains, register } from '../../../src/commands/value-chains.js';

const http = useHttpMock();
const CHAIN = { id: 3, company_name: 'Kumasi Cocoa Traders Ltd', country_code: 'GH', status: 'active' };

describe('value-chains', () => {
  it('list --status --no-self-managed: one GET with the filters', async () => {
    http.stub('GET', '/value-chains', { query: { status: 'active', is_self_managed: 'false', limit: '10', offset: '0' } }, { json: { count: 1, next: null, previous: null, results: [CHAIN] } });
    await runWith(http, (ctx) => listValueChains(ctx, { status: 'active', selfManaged: false }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['GET /value-chains']);
  });

  it('create: one POST with an Idempotency-Key', async () => {
    const body = { company_name: 'Kumasi Cocoa Traders Ltd', country_code: 'GH', external_id: 'VC-1-0900', permission_granted: true };
    http.stub('POST', '/value-chains', { body }, { status: 201, json: CHAIN });
    await runRegistered(http, register, ['value-chains', 'create', '--company-name', 'Kumasi Cocoa Traders Ltd', '--country-code', 'GH', '--external-id', 'VC-1-0900', '--permission-granted', '-o', 'json']);
    expect(http.sent()).toEqual(['POST /value-chains']);
    expect(http.requests[0].headers['idempotency-key']).toBeTruthy();
  });

  it('update --tag: one PATCH replacing the tags', async () => {
    http.stub('PATCH', '/value-chains/3', { body: { tags: ['cocoa', 'ghana'] } }, { json: CHAIN });
    await runRegistered(http, register, ['value-chains', 'update', '3', '--tag', 'cocoa', '--tag', 'ghana', '-o', 'json']);
    expect(http.sent()).toEqual(['PATCH /value-chains/3']);
  });

  it('delete --yes: one DELETE', async () => {
    http.stub('DELETE', '/value-chains/3', { status: 204 });
    await runRegistered(http, register, ['value-chains', 'delete', '3', '--yes']);
    expect(http.sent()).toEqual(['DELETE /value-chains/3']);
  });
});
