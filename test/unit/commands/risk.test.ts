import { describe, expect, it } from 'vitest';
import { runRegistered, useHttpMock } from '../../helpers/http-mock.js';
import { register } from '../../../src/commands/risk.js';

const http = useHttpMock();

describe('risk', () => {
  it('create: one POST of the scope as id lists, with an Idempotency-Key', async () => {
    const body = { identifier: 'RA-2025-07', origins: [24, 18], orders: [217] };
    http.stub('POST', '/compliance/risk-assessments', { body }, { status: 201, json: { id: 1, ...body, status: 'pending' } });
    const { stderr } = await runRegistered(http, register, ['risk', 'create', '--identifier', 'RA-2025-07', '--origin', '24,18', '--order', '217', '-o', 'json']);
    expect(http.sent()).toEqual(['POST /compliance/risk-assessments']);
    expect(http.requests[0].headers['idempotency-key']).toBeTruthy();
    expect(stderr).toContain('Created risk assessment 1');
  });

  it('list: one GET of the first page', async () => {
    http.stub('GET', '/compliance/risk-assessments', { query: { limit: '10', offset: '0' } }, { json: { count: 0, next: null, previous: null, results: [] } });
    await runRegistered(http, register, ['risk', 'list', '-o', 'json']);
    expect(http.sent()).toEqual(['GET /compliance/risk-assessments']);
  });
});
