import { describe, expect, it } from 'vitest';
import { runWith, useHttpMock } from '../../helpers/http-mock.js';
import { sendInformationRequests } from '../../../src/commands/info-requests.js';

const http = useHttpMock();

describe('info-requests', () => {
  it('send --file: who the token is (for the journal), then one POST of every row, with an Idempotency-Key', async () => {
    http.stub('GET', '/accounts/me', { json: { id: 1, company: { id: 1 } } });
    http.stub('POST', '/information-requests/bulk', { body: { information_requests: [{ order_id: 17 }, { value_chain_id: 3 }] } }, {
      json: { results: { processed: [{ index: 0, invitation_action: 'request_sent' }, { index: 1, invitation_action: 'reminder_sent' }], failed: [] } },
    });
    await runWith(http, (ctx) => sendInformationRequests(ctx, { file: '-' }), { input: 'order_id,value_chain_id\n17,\n,3\n' });
    expect(http.sent()).toEqual(['GET /accounts/me', 'POST /information-requests/bulk']);
    expect(http.requests[1].headers['idempotency-key']).toBeTruthy();
  });

  it('a bad row: exit 2 before anything is sent', async () => {
    await expect(runWith(http, (ctx) => sendInformationRequests(ctx, { file: '-' }), { input: 'order_id\nx\n' })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/^stdin: 1 invalid row; nothing/) });
    expect(http.sent()).toEqual([]);
  });
});
