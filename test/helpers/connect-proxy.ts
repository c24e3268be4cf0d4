// A CONNECT proxy on 127.0.0.1, as undici's proxy agent speaks to one: it counts the tunnels it
// opens and keeps the Proxy-Authorization each CONNECT carried. `sandbox.test` is a name for this
// machine that is not loopback (a loopback base URL is never proxied), so a test can send the
// sandbox's requests through it.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { once } from 'node:events';

export interface ConnectProxy {
  server: Server;
  port: number;
  /** Tunnels opened since the proxy started or was reset. */
  tunnels: number;
  /** The Proxy-Authorization header of each CONNECT ('' when none). */
  auth: string[];
  reset(): void;
  close(): void;
}

export async function startConnectProxy(): Promise<ConnectProxy> {
  const server = createServer();
  const proxy: ConnectProxy = {
    server,
    port: 0,
    tunnels: 0,
    auth: [],
    reset() {
      proxy.tunnels = 0;
      proxy.auth = [];
    },
    close: () => void server.close(),
  };
  server.on('connect', (req, client, head) => {
    proxy.tunnels++;
    proxy.auth.push(String(req.headers['proxy-authorization'] ?? ''));
    const [host, port] = String(req.url).split(':');
    const upstream = connect(Number(port), host === 'sandbox.test' ? '127.0.0.1' : host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  server.unref();
  proxy.port = (server.address() as { port: number }).port;
  return proxy;
}
