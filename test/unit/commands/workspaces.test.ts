import { describe, expect, it } from 'vitest';
import { runWith, useHttpMock } from '../../helpers/http-mock.js';
import { switchWorkspace } from '../../../src/commands/workspaces.js';

const http = useHttpMock();

describe('workspaces', () => {
  it('switch ID: one POST, and the workspace recorded in the profile', async () => {
    http.stub('POST', '/accounts/workspaces/switch', { body: { company_id: 7 } }, { json: { message: 'Switched.' } });
    let recorded: unknown;
    const { stdout } = await runWith(http, async (ctx) => {
      await switchWorkspace(ctx, '7');
      recorded = ctx.config().profile('default').workspace;
    }, { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['POST /accounts/workspaces/switch']);
    expect(recorded).toBe('7');
    expect(JSON.parse(stdout)).toEqual({ company_id: 7, message: 'Switched.', profile: 'default' });
  });
});
