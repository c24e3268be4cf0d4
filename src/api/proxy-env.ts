// How the environment says the service is reached: through the proxy it names, or directly
// for a base URL on this machine; and where a URL connects. Apart from endpoint.ts and the
// transport, for sct's start (src/cli/early-connection.ts).

/** The proxy settings of the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/** The variable each proxy comes from, as undici reads them (the upper-case name first). */
function proxyVariables(env: NodeJS.ProcessEnv): { http?: [string, string]; https?: [string, string] } {
  const pick = (...names: string[]): [string, string] | undefined => {
    for (const name of names) if (env[name]) return [name, env[name]!];
    return undefined;
  };
  const http = pick('HTTP_PROXY', 'http_proxy');
  return { http, https: pick('HTTPS_PROXY', 'https_proxy') ?? http };
}

/**
 * A proxy variable's value as the URL it names. Without a scheme, http is meant, as curl and Go
 * take `host:port` and `user:password@host:port`; undefined when it names no http(s) proxy.
 */
function proxyUrl(value: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  try {
    const u = new URL(withScheme);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with the proxy variables, if anything: the variable and its value with any user
 * and password hidden. (undici's own word for it is a bare "Invalid URL".)
 */
export function proxyProblem(env: NodeJS.ProcessEnv): string | undefined {
  const { http, https } = proxyVariables(env);
  for (const [name, value] of [http, https].filter((v) => v !== undefined)) {
    if (proxyUrl(value) === undefined) {
      // Not a URL, so nothing says where its password ends ("/", "?" and "#" may be in it): hidden up to the last "@".
      const shown = value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/i, (_m, scheme: string | undefined) => `${scheme ?? ''}***@`);
      return `${name} is not a proxy URL: ${JSON.stringify(shown)} (http://host:port, with user:password@ before the host if the proxy wants them)`;
    }
  }
  return undefined;
}

export function proxyFromEnv(env: NodeJS.ProcessEnv, base?: URL): ProxySettings | null {
  const vars = proxyVariables(env);
  if (!vars.http && !vars.https) return null;
  const httpProxy = vars.http && (proxyUrl(vars.http[1]) ?? vars.http[1]);
  const httpsProxy = vars.https && (proxyUrl(vars.https[1]) ?? vars.https[1]);
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  // A base URL on this machine is never reached through a proxy (as Go's http client does): a
  // proxy elsewhere cannot reach it, and the token that plain http may carry there
  // (checkPlainHttp) would cross the network to the proxy in clear. A proxy variable that names
  // no proxy then stops nothing: the requests that would use it are none of the API's.
  if (base && isLoopback(base.hostname)) {
    if (proxyProblem(env)) return null;
    const { host } = hostAndPort(base);
    return { httpProxy, httpsProxy, noProxy: [noProxy, host, base.hostname].filter(Boolean).join(',') };
  }
  return { httpProxy, httpsProxy, noProxy };
}

/**
 * The proxy a request to `url` goes through, or undefined when it goes directly: NO_PROXY read as
 * undici's EnvHttpProxyAgent reads it (entries split at commas and spaces, `*` for every host, a
 * leading `.` or `*.` for a domain and its hosts, `:port` to match one port only).
 */
export function proxyFor(url: URL, settings: ProxySettings): string | undefined {
  const proxy = url.protocol === 'https:' ? settings.httpsProxy : settings.httpProxy;
  if (!proxy) return undefined;
  const noProxy = settings.noProxy ?? '';
  if (noProxy === '*') return undefined;
  // As undici compares them: the host name with an IPv6 address's brackets, the port it connects to.
  const hostname = url.hostname.toLowerCase();
  const { port } = hostAndPort(url);
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const host = (parsed ? parsed[1] : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number(parsed[2]) !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return undefined;
  }
  return proxy;
}

/** Where a URL connects: its host as a socket takes it (an IPv6 address without brackets) and its port. */
export function hostAndPort(url: URL): { host: string; port: number } {
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
}

/**
 * 127.0.0.0/8 (as an IPv4-mapped IPv6 address too), ::1 and localhost: traffic that never leaves
 * the machine. Not `localhost.`: a name with its root dot may be asked of DNS, which could
 * answer with another host.
 */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname) || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname);
}
