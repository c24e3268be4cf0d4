// Where sct connects as it starts, before the command's code loads: the service the command will
// send to (flag, environment, profile, in that order), and nowhere for a command that sends
// nothing, through a proxy, or over plain http to a host the client would refuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { connectEarly } from '../../src/cli/early-connection.js';
import { removeDir, tempDir } from '../helpers/sct.js';

let server: Server;
let url: string;
const accepted: Socket[] = [];
let dir: string;
beforeAll(async () => {
  server = createServer((s) => accepted.push(s.on('error', () => {})));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
  dir = tempDir('sct-early-');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { work: { base_url: url }, default: { base_url: 'https://sct.invalid/api' } } }));
});
afterAll(async () => {
  for (const s of accepted) s.destroy();
  await new Promise((r) => server.close(r));
  removeDir(dir);
});

const env = (more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ SCT_CONFIG_DIR: dir, ...more });

/** The origin connectEarly connected to, or undefined; the socket closed. */
function connectsTo(argv: string[], e: NodeJS.ProcessEnv): string | undefined {
  const early = connectEarly(argv, e);
  if (!early) return undefined;
  for (const candidate of [url, 'https://sct.invalid/api', 'http://sct.invalid/api']) {
    const socket = early.take(new URL(candidate));
    if (socket) {
      socket.destroy();
      return new URL(candidate).origin;
    }
  }
  early.close();
  return 'elsewhere';
}

describe('connectEarly', () => {
  it('connects to the base URL of --base-url, else SCT_BASE_URL, else the profile of --profile or SCT_PROFILE', () => {
    const origin = new URL(url).origin;
    expect(connectsTo(['orders', 'get', '1', '--base-url', url], env({ SCT_BASE_URL: 'https://sct.invalid/api' }))).toBe(origin);
    expect(connectsTo(['--base-url=' + url, 'orders', 'get', '1'], env())).toBe(origin);
    expect(connectsTo(['orders', 'get', '1'], env({ SCT_BASE_URL: url }))).toBe(origin);
    expect(connectsTo(['--profile', 'work', 'orders', 'list'], env())).toBe(origin);
    expect(connectsTo(['orders', 'list', '--profile=work'], env())).toBe(origin);
    expect(connectsTo(['-o', 'json', 'orders', 'list'], env({ SCT_PROFILE: 'work' }))).toBe(origin);
    expect(connectsTo(['orders', 'list'], env())).toBe('https://sct.invalid');
  });

  it('opens nothing for a command that sends nothing, nor where the client would not connect directly', () => {
    const e = env({ SCT_BASE_URL: url });
    for (const argv of [[], ['--version'], ['sandbox'], ['config', 'list'], ['completion', 'bash'], ['help', 'orders'], ['orders', 'get', '--help'], ['orders', '-h'], ['-o', 'config'], ['version'], ['auth', 'token'], ['auth', 'logout'], ['origins', 'check', 'plots.geojson'], ['invitations', 'bulk-create', '--template']]) {
      expect(connectEarly(argv, e), argv.join(' ')).toBeUndefined();
    }
    // The word after a global option that takes a value is that value, never a command.
    expect(connectEarly(['--profile', 'orders'], e)).toBeUndefined();
    expect(connectEarly(['orders', 'get', '1'], env({ HTTPS_PROXY: 'http://127.0.0.1:1', SCT_BASE_URL: 'https://sct.invalid/api' }))).toBeUndefined();
    expect(connectEarly(['orders', 'get', '1'], env({ HTTP_PROXY: 'http://127.0.0.1:1', SCT_BASE_URL: url }))).toBeUndefined();
    expect(connectEarly(['orders', 'get', '1'], env({ SCT_BASE_URL: 'http://sct.invalid/api' }))).toBeUndefined();
    expect(connectsTo(['orders', 'get', '1'], env({ SCT_BASE_URL: 'http://sct.invalid/api', SCT_ALLOW_HTTP: '1' }))).toBe('http://sct.invalid');
    expect(connectEarly(['orders', 'get', '1'], env({ SCT_BASE_URL: 'ftp://sct.invalid/api' }))).toBeUndefined();
    expect(connectEarly(['orders', 'get', '1'], env({ SCT_BASE_URL: 'not a url' }))).toBeUndefined();
    expect(connectEarly(['orders', 'get', '1'], { SCT_CONFIG_DIR: join(dir, 'none') })).toBeUndefined();
    // A config.json that is not a file (a FIFO no one writes to) is not waited on.
    const fifo = join(dir, 'fifo');
    mkdirSync(fifo);
    execFileSync('mkfifo', [join(fifo, 'config.json')]);
    expect(connectEarly(['orders', 'get', '1'], { SCT_CONFIG_DIR: fifo })).toBeUndefined();
  });

  it('gives its socket once, to a request to its own origin only', async () => {
    const early = connectEarly(['orders', 'get', '1'], env({ SCT_BASE_URL: url }))!;
    const other = new URL(url);
    other.port = String(Number(other.port) + 1);
    expect(early.take(other)).toBeUndefined();
    expect(early.take(new URL(url.replace('http:', 'https:')))).toBeUndefined();
    const socket = early.take(new URL(`${url}/orders/1`));
    expect(socket).toBeDefined();
    expect(early.take(new URL(url))).toBeUndefined();
    await new Promise((r) => socket!.once('connect', r));
    socket!.destroy();
  });

  it('gives nothing once it has waited unused as long as an idle connection is kept', async () => {
    const early = connectEarly(['orders', 'get', '1'], env({ SCT_BASE_URL: url }), { idleMs: 100 })!;
    await new Promise((r) => setTimeout(r, 300));
    expect(early.take(new URL(url))).toBeUndefined();
  });

  it('gives nothing once that long has passed, even when the event loop was held all along', () => {
    const early = connectEarly(['orders', 'get', '1'], env({ SCT_BASE_URL: url }), { idleMs: 100 })!;
    // A large file parsed, synchronously: the socket's own timer cannot fire meanwhile.
    const start = Date.now();
    while (Date.now() - start < 200);
    expect(early.take(new URL(url))).toBeUndefined();
  });

  it('gives nothing once its connection failed', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const dead = `http://127.0.0.1:${(closed.address() as { port: number }).port}/api`;
    await new Promise((r) => closed.close(r));
    const early = connectEarly(['orders', 'get', '1'], env({ SCT_BASE_URL: dead }))!;
    expect(early).toBeDefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(early.take(new URL(dead))).toBeUndefined();
  });
});
