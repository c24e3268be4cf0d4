// The built sct opens the connection of a command's first request as it starts, before its code
// loads (over a far link the two overlap: a round trip saved), and the request then goes on it:
// over http, and over https with the TLS handshake made on it. A command that sends nothing
// opens nothing, and a connection that fails is the same error as before.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { startRelay, TLS_FIXTURES, type Relay } from '../helpers/relay.js';

const t = useSandbox({}, { inProcess: true });
let relays: Relay[] = [];
async function relay(tls = false): Promise<Relay> {
  const r = await startRelay(t.sb.port, { tls });
  relays.push(r);
  return r;
}
beforeEach(() => {
  relays = [];
});
afterEach(async () => {
  for (const r of relays) await r.close();
});

/**
 * A preload that holds sct for 1.2 s as it reads its hot file (dist/cli.cjs), and notes when:
 * a connection accepted during that hold was opened before sct's code was loaded.
 */
function holdingLoad(): { env: NodeJS.ProcessEnv; held: () => { start: number; end: number } } {
  const preload = join(t.dir, 'hold-load.cjs');
  const noted = join(t.dir, 'held.json');
  writeFileSync(
    preload,
    `const fs = require('node:fs');
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (String(file).endsWith('cli.cjs') && !fs.existsSync(${JSON.stringify(noted)})) {
    const start = Date.now();
    while (Date.now() - start < 1200);
    fs.writeFileSync(${JSON.stringify(noted)}, JSON.stringify({ start, end: Date.now() }));
  }
  return read.call(this, file, ...rest);
};
`,
  );
  return { env: { NODE_OPTIONS: `--require ${preload}` }, held: () => JSON.parse(readFileSync(noted, 'utf8')) };
}

describe('the connection opened as sct starts', () => {
  it('over http: opened before sct loads its code, and the request goes on it', async () => {
    const r = await relay();
    const { env, held } = holdingLoad();
    const res = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env: { ...env, SCT_BASE_URL: r.url } });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).id).toBe(1);
    expect(r.accepted).toHaveLength(1);
    // Before the hold ended (the process could not have connected during it otherwise).
    expect(r.accepted[0]).toBeLessThan(held().end - 400);
  });

  it('over https: the TLS handshake made on it, the certificate checked as always', async () => {
    const r = await relay(true);
    const { env, held } = holdingLoad();
    const ca = { NODE_EXTRA_CA_CERTS: join(TLS_FIXTURES, 'cert.pem') };
    const res = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env: { ...env, ...ca, SCT_BASE_URL: r.url } });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).id).toBe(1);
    expect(r.accepted).toHaveLength(1);
    expect(r.accepted[0]).toBeLessThan(held().end - 400);
    // Without the certificate trusted, the early connection changes nothing: refused, nothing sent.
    const untrusted = await t.sctBin(['orders', 'get', '1', '-o', 'json'], { env: { SCT_BASE_URL: r.url } });
    expect(untrusted.exitCode).toBe(1);
    expect(untrusted.stderr).toMatch(/certificate/i);
  });

  it('opens nothing for a command that sends nothing', async () => {
    const r = await relay();
    for (const args of [['config', 'list'], ['orders', 'get', '--help'], ['help', 'orders'], ['--version']]) {
      const res = await t.sctBin(args, { env: { SCT_BASE_URL: r.url } });
      expect(res.exitCode, args.join(' ')).toBe(0);
    }
    await new Promise((done) => setTimeout(done, 100));
    expect(r.accepted).toHaveLength(0);
  });

  it('a service that cannot be reached is the same error as without it', async () => {
    const r = await relay();
    const dead = r.url;
    await r.close();
    const bin = await t.sctBin(['orders', 'get', '1', '--timeout', '5s'], { env: { SCT_BASE_URL: dead } });
    const inProcess = await t.sctIn(['orders', 'get', '1', '--timeout', '5s'], { env: { SCT_BASE_URL: dead } });
    expect(bin.exitCode).toBe(1);
    expect(bin.exitCode).toBe(inProcess.exitCode);
    expect(bin.stderr.trim()).toBe(inProcess.stderr.trim());
  });
});
