import { describe, expect, it } from 'vitest';
import { runWith, useHttpMock } from '../../helpers/http-mock.js';
import { setUserConfig } from '../../../src/commands/user-config.js';

const http = useHttpMock();

describe('user-config', () => {
  it('set KEY=VALUE…: one PATCH, the pairs under config, values parsed as JSON', async () => {
    const config = { theme: 'dark', page_size: 50 };
    http.stub('PATCH', '/accounts/user-config', { body: { config } }, { json: { config } });
    const { stdout } = await runWith(http, (ctx) => setUserConfig(ctx, {}, ['theme=dark', 'page_size=50']), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['PATCH /accounts/user-config']);
    expect(JSON.parse(stdout)).toEqual({ config });
  });
});
