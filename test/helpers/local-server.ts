// A server of a test's own on 127.0.0.1, for one file: listening before its tests, closed after
// them (and never keeping the process alive), its base URL ending in /api.
import { afterAll, beforeAll } from 'vitest';
import { createServer, type RequestListener, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

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
