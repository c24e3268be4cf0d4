import { describe, expect, it } from 'vitest';
import { runRegistered, runWith, useHttpMock } from '../../helpers/http-mock.js';
import { register } from '../../../src/commands/dds.js';
import { updateStatement } from '../../../src/commands/dds/save.js';
import { traceOrders } from '../../../src/commands/dds/trace.js';

const http = useHttpMock();
const STATEMENT = { id: 31, type: 'EUDR', status: 'draft', dds_identifier: '25FRXVV3VOS2', orders: [17, 18] };

describe('dds', () => {
  it('create: one POST of the statement, with an Idempotency-Key', async () => {
    http.stub('POST', '/due-diligence-statements', { body: { type: 'EUDR', dds_identifier: '25FRXVV3VOS2', orders: [17, 18] } }, { status: 201, json: STATEMENT });
    const { stderr } = await runRegistered(http, register, ['dds', 'create', '--type', 'EUDR', '--dds-identifier', '25FRXVV3VOS2', '--order', '17,18', '-o', 'json']);
    expect(http.sent()).toEqual(['POST /due-diligence-statements']);
    expect(http.requests[0].headers['idempotency-key']).toBeTruthy();
    expect(stderr).toContain('Created statement 31');
  });

  it('update --status: one PATCH of the status alone', async () => {
    http.stub('PATCH', '/due-diligence-statements/31', { body: { status: 'in_progress' } }, { json: { ...STATEMENT, status: 'in_progress' } });
    await runWith(http, (ctx) => updateStatement(ctx, 31, { status: 'in_progress' }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['PATCH /due-diligence-statements/31']);
  });

  it('trace --dds --order: one POST naming every statement and order', async () => {
    http.stub('POST', '/due-diligence-statements/trace-orders', { body: { dds_id: [5], order_id: [17, 18] } }, { json: { results: [{ dds_id: 5, added_orders: [17, 18], total_orders: 2 }], summary: { total_dds_processed: 1, total_orders_added: 2 } } });
    const { stdout, stderr } = await runWith(http, (ctx) => traceOrders(ctx, { dds: '5', order: '17,18,17' }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['POST /due-diligence-statements/trace-orders']);
    expect(JSON.parse(stdout)).toEqual([{ dds_id: 5, added_orders: [17, 18], total_orders: 2 }]);
    expect(stderr).toContain('2 orders added to 1 statement');
  });

  it('trace --dry-run: the POST recorded, none sent', async () => {
    await runWith(http, async (ctx) => {
      await traceOrders(ctx, { dds: '5', order: '17' });
      expect(ctx.planned).toEqual([{ method: 'POST', path: '/due-diligence-statements/trace-orders', body: { dds_id: [5], order_id: [17] } }]);
    }, { dryRun: true });
    expect(http.sent()).toEqual([]);
  });
});
