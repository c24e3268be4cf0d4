import { describe, expect, it } from 'vitest';
import { runRegistered, useHttpMock } from '../../helpers/http-mock.js';
import { register } from '../../../src/commands/imports.js';

const http = useHttpMock();

describe('imports', () => {
  it('create: one POST of the named fields, the document as a number', async () => {
    const body = { type: 'orders', source: 'csv', document: 4 };
    http.stub('POST', '/imports', { body }, { status: 201, json: { id: 10, ...body, status: 'pending' } });
    await runRegistered(http, register, ['imports', 'create', '--type', 'orders', '--source', 'csv', '--document', '4', '-o', 'json']);
    expect(http.sent()).toEqual(['POST /imports']);
    expect(http.requests[0].headers['idempotency-key']).toBeTruthy();
  });

  it('get: one GET', async () => {
    http.stub('GET', '/imports/10', { json: { id: 10, status: 'done' } });
    await runRegistered(http, register, ['imports', 'get', '10', '-o', 'json']);
    expect(http.sent()).toEqual(['GET /imports/10']);
  });
});
