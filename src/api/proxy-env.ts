// How the environment says the service is reached: through the proxy it names, or directly
// for a base URL on this machine; and where a URL connects. Apart from endpoint.ts and the
// transport, for sct's start (src/cli/early-connection.ts).

/** The proxy settings of the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

export function proxyFromEnv(env: NodeJS.ProcessEnv, base?: URL): ProxySettings | null {
  const httpProxy = env.HTTP_PROXY || env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY || env.https_proxy || httpProxy;
  if (!httpProxy && !httpsProxy) return null;
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  // A base URL on this machine is never reached through a proxy (as Go's http client does): a
  // proxy elsewhere cannot reach it, and the token that plain http may carry there
  // (checkPlainHttp) would cross the network to the proxy in clear.
  if (base && isLoopback(base.hostname)) {
    const { host } = hostAndPort(base);
    return { httpProxy, httpsProxy, noProxy: [noProxy, host, base.hostname].filter(Boolean).join(',') };
  }
  return { httpProxy, httpsProxy, noProxy };
}

/** Where a URL connects: its host as a socket takes it (an IPv6 address without brackets) and its port. */
export function hostAndPort(url: URL): { host: string; port: number } {
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
