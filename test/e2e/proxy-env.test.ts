// The proxy variables as users set them: a value without a scheme (as curl and Go take it), a
// value that is no URL at all, and what --verbose and doctor say about which requests go through
// the proxy. The built sct against the sandbox, through a CONNECT proxy on 127.0.0.1 that counts
// its tunnels and the Proxy-Authorization it was sent.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';

const t = useSandbox();
let proxy: ConnectProxy;
const proxyPort = () => proxy.port;
// sandbox.test: a name for the sandbox that is not loopback (a loopback base is never proxied).
const remote = () => `http://sandbox.test:${new URL(t.sb.url).port}/api`;

beforeAll(async () => {
  proxy = await startConnectProxy();
});
afterAll(() => proxy.close());
beforeEach(() => proxy.reset());

describe('proxy variables', () => {
  it('a proxy without a scheme is an http proxy, its user and password sent to it', async () => {
    const r = await t.sct(['whoami', '-o', 'json', '--base-url', remote()], { env: { HTTP_PROXY: `puser:psecret@127.0.0.1:${proxyPort()}`, SCT_ALLOW_HTTP: '1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(proxy.tunnels).toBeGreaterThan(0);
    expect(proxy.auth[0]).toBe(`Basic ${Buffer.from('puser:psecret').toString('base64')}`);
    expect(r.stderr).not.toContain('psecret');
  });

  it('a proxy variable that is no URL: exit 2 naming the variable, never its credentials, nothing sent', async () => {
    for (const [name, value] of [
      ['HTTPS_PROXY', 'http://puser:psecret@[bad'],
      ['https_proxy', 'ftp://puser:psecret@proxy.internal:21'],
      ['HTTP_PROXY', 'http://puser:psecret@proxy.internal:99999'],
      // A password with "/", "?" or "#" not encoded, as real ones have.
      ['HTTPS_PROXY', 'http://puser:pa/psecret@127.0.0.1:1'],
      ['HTTPS_PROXY', 'http://puser:pa#psecret@127.0.0.1:1'],
      ['HTTPS_PROXY', 'puser:pa?psecret@127.0.0.1:1'],
    ]) {
      const r = await t.sct(['orders', 'list', '--buying', '--base-url', 'https://sct.invalid/api'], { env: { [name]: value } });
      expect(r.exitCode, `${name}=${value}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(name);
      expect(r.stderr).not.toContain('psecret');
      expect(r.stderr).not.toContain('Invalid URL');
    }
    // The same password in a base URL.
    const base = await t.sct(['whoami', '-o', 'json', '--base-url', 'https://u:pa/psecret@sct.invalid/api']);
    expect(base.exitCode).toBe(2);
    expect(base.stderr).toContain('https://***@sct.invalid/api');
    expect(base.stderr).not.toContain('psecret');
    // doctor reports it on its proxy line.
    const doctor = await t.sct(['doctor', '-o', 'json', '--base-url', 'https://sct.invalid/api', '--timeout', '2s'], { env: { HTTPS_PROXY: 'http://puser:psecret@[bad' } });
    const line = JSON.parse(doctor.stdout).find((c: { name: string }) => c.name === 'proxy');
    expect(line.level).toBe('fail');
    expect(line.detail).toContain('HTTPS_PROXY');
    expect(doctor.stdout).not.toContain('psecret');
    expect(proxy.tunnels).toBe(0);
  });

  it('a broken proxy variable does not stop a loopback base URL, which no proxy carries', async () => {
    const r = await t.sct(['whoami', '-o', 'json'], { env: { HTTPS_PROXY: 'http://[bad', HTTP_PROXY: 'http://[bad' } });
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it('--verbose says a proxy is used only when the request goes through it', async () => {
    const env = { HTTP_PROXY: `http://127.0.0.1:${proxyPort()}`, SCT_ALLOW_HTTP: '1' };
    const via = await t.sct(['whoami', '-o', 'json', '-v', '--base-url', remote()], { env });
    expect(via.exitCode, via.stderr).toBe(0);
    expect(via.stderr).toContain('through the proxy from the environment');
    expect(via.stderr).not.toContain(`127.0.0.1:${proxyPort()}`);
    const before = proxy.tunnels;
    // The sandbox's own address (loopback), and a host NO_PROXY names: direct, and said so by nothing.
    const local = await t.sct(['whoami', '-o', 'json', '-v'], { env });
    expect(local.exitCode, local.stderr).toBe(0);
    expect(local.stderr).not.toContain('proxy');
    const excluded = await t.sct(['whoami', '-o', 'json', '-v', '--base-url', remote(), '--timeout', '2s'], { env: { ...env, NO_PROXY: '.test' } });
    expect(excluded.stderr).not.toContain('through the proxy');
    expect(proxy.tunnels).toBe(before);
  });

  it('doctor says whether the base URL goes through the proxy', async () => {
    const env = { HTTPS_PROXY: `http://user:pw@proxy.internal:3128` };
    const direct = await t.sct(['doctor', '-o', 'json'], { env });
    const line = JSON.parse(direct.stdout).find((c: { name: string }) => c.name === 'proxy');
    expect(line.level).toBe('ok');
    expect(line.detail).toMatch(/not through it/);
    expect(direct.stdout).not.toContain('proxy.internal');
  });
});
