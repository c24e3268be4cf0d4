// How the environment says the service is reached: through the proxy it names, or directly
// for a base URL on this machine. Apart from endpoint.ts, for sct's start (src/cli/early-connection.ts).
import type { ProxySettings } from './transport.js';

export function proxyFromEnv(env: NodeJS.ProcessEnv, base?: URL): ProxySettings | null {
  const httpProxy = env.HTTP_PROXY || env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY || env.https_proxy || httpProxy;
  if (!httpProxy && !httpsProxy) return null;
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  // A base URL on this machine is never reached through a proxy (as Go's http client does): a
  // proxy elsewhere cannot reach it, and the token that plain http may carry there
  // (checkPlainHttp) would cross the network to the proxy in clear.
  if (base && isLoopback(base.hostname)) {
    const host = base.hostname.replace(/^\[(.*)\]$/, '$1');
    return { httpProxy, httpsProxy, noProxy: [noProxy, host, base.hostname].filter(Boolean).join(',') };
  }
  return { httpProxy, httpsProxy, noProxy };
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
