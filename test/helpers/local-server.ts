// A server of a test's own on 127.0.0.1, for one file: listening before its tests, closed after
// them (and never keeping the process alive), its base URL ending in /api.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createServer, type RequestListener, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { removeDir, tempDir } from './sct.js';

export function useLocalServer(handle: RequestListener): { readonly url: string } {
  let server: Server | undefined;
  const state = { url: '' };
  beforeAll(async () => {
    server = createServer(handle);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    server.unref();
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });
  return state;
}

/**
 * A fresh config directory for each test, and the environment that points the built sct at
 * `server` with it (a token the server takes as any other).
 */
export function useServerEnv(server: { readonly url: string }): { readonly dir: string; env: () => Record<string, string> } {
  const state = {
    dir: '',
    env: () => ({ SCT_BASE_URL: server.url, SCT_TOKEN: 'sct_test_token', SCT_CONFIG_DIR: state.dir, NO_COLOR: '1' }),
  };
  beforeEach(() => {
    state.dir = tempDir();
    return () => removeDir(state.dir);
  });
  return state;
}
