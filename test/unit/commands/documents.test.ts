import { describe, expect, it } from 'vitest';
import { runRegistered, useHttpMock } from '../../helpers/http-mock.js';
import { register } from '../../../src/commands/documents.js';

const http = useHttpMock();

describe('documents', () => {
  it('get: one GET of the document', async () => {
    const doc = { id: 4, name: 'fsc-2025.pdf', status: 'uploaded' };
    http.stub('GET', '/documents/4', { json: doc });
    const { stdout } = await runRegistered(http, register, ['documents', 'get', '4', '-o', 'json']);
    expect(http.sent()).toEqual(['GET /documents/4']);
    expect(JSON.parse(stdout)).toEqual(doc);
  });

  it('list: one GET of the first page', async () => {
    http.stub('GET', '/documents', { query: { search: 'satellite', limit: '10', offset: '0' } }, { json: { count: 0, next: null, previous: null, results: [] } });
    await runRegistered(http, register, ['documents', 'list', '--search', 'satellite', '-o', 'json']);
    expect(http.sent()).toEqual(['GET /documents']);
  });
});
