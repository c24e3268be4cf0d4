// A relay in front of a server on this machine (the sandbox): plain TCP, or TLS with the fixture
// certificate (test/fixtures/tls/). It notes when each connection came, and keeps the sockets
// open through it, so a test can count connections and see which are still open.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TLS_FIXTURES = join(__dirname, '..', 'fixtures', 'tls');

export interface Relay {
  server: Server;
  url: string;
  /** When each connection was accepted (Date.now()), the TCP connection before any TLS. */
  accepted: number[];
  readonly connections: number;
  /** Both ends of every connection still open through the relay. */
  sockets: Set<Socket>;
  close(): Promise<void>;
}

export async function startRelay(port: number, o: { tls?: boolean } = {}): Promise<Relay> {
  const sockets = new Set<Socket>();
  const accepted: number[] = [];
  const pipe = (client: Socket) => {
    const up = connect(port, '127.0.0.1');
    for (const s of [client, up]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(up).pipe(client);
  };
  const server = o.tls ? createTlsServer({ key: readFileSync(join(TLS_FIXTURES, 'key.pem')), cert: readFileSync(join(TLS_FIXTURES, 'cert.pem')) }, pipe) : createServer(pipe);
  server.on('connection', () => accepted.push(Date.now()));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `${o.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as { port: number }).port}/api`;
  return {
    server,
    url,
    accepted,
    get connections() {
      return accepted.length;
    },
    sockets,
    async close() {
      for (const s of sockets) s.destroy();
      if (server.listening) await new Promise((done) => server.close(done));
    },
  };
}
