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

  it('list with every named filter as typed: their keys in one GET; a --filter key goes without a warning', async () => {
    const query = {
      type__in: 'supplier,trader', country_code: 'GH', assessment_status: 'failing', company_name__icontains: 'cocoa', contact_name__icontains: 'kwame',
      external_id__in: 'VC-1,VC-2', tags__name: 'eudr', permission_granted: 'true', is_self_managed: 'false', created_at__date__gte: '2025-01-01',
      updated_at__date__lte: '2025-12-31', id__in: '3,4', id__exclude_in: '4', whatever: '1', limit: '10', offset: '0',
    };
    http.stub('GET', '/value-chains', { query }, { json: { count: 1, next: null, previous: null, results: [CHAIN] } });
    const { stderr } = await runRegistered(http, register, [
      'value-chains', 'list', '--type', 'supplier,trader', '--country', 'gh', '--assessment-status', 'FAILING', '--company-name', 'cocoa', '--contact-name', 'kwame',
      '--external-id', 'VC-1', '--external-id', 'VC-2', '--tag', 'eudr', '--permission-granted', '--no-self-managed', '--created-from', '2025-01-01',
      '--updated-to', '2025-12-31', '--id', '3,4', '--exclude-id', '4', '--filter', 'whatever=1', '--limit', '10', '-o', 'json',
    ]);
    expect(http.sent()).toEqual(['GET /value-chains']);
    expect(stderr).toBe('');
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
