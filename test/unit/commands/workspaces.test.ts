import { describe, expect, it } from 'vitest';
import { runRegistered, runWith, useHttpMock } from '../../helpers/http-mock.js';
import { register, switchWorkspace } from '../../../src/commands/workspaces.js';

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

  it('list with every named filter: their documented keys in one GET; JSON is the service\'s objects, no /accounts/me', async () => {
    const page = { count: 1, next: null, previous: null, results: [{ id: 7, name: 'Cocoa Coop', type: 'active', country: 'CI' }] };
    const query = { type__in: 'active,trial', type__exclude: 'demo,test', country: 'CI', name__icontains: 'coop', limit: '10', offset: '0' };
    http.stub('GET', '/accounts/workspaces', { query }, { json: page });
    const { stdout } = await runRegistered(http, register, ['workspaces', 'list', '--type', 'Active,trial', '--exclude-type', 'demo', '--exclude-type', 'test', '--country', 'ci', '--name', 'coop', '--limit', '10', '-o', 'json']);
    expect(http.sent()).toEqual(['GET /accounts/workspaces']);
    expect(JSON.parse(stdout)).toEqual(page.results);
  });
});
