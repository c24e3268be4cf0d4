// Where the client sends and with what, checked before a byte is sent: the base URL (plain
// http, the /api prefix) and the token (what a header can carry, what to do when it is refused).
// The proxy the environment names: proxy-env.ts.
import { UsageError } from '../errors.js';
import { credentialsInText, withoutCredentials } from '../util/redact.js';
import { isLoopback } from './proxy-env.js';

/** The base URL as given, or a usage error that names it without its credentials. */
export function parseBaseUrl(baseUrl: string): URL {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new UsageError(`invalid base URL: ${credentialsInText(baseUrl)}`, {}, 'it looks like https://host/api');
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    throw new UsageError(`invalid base URL: ${withoutCredentials(baseUrl)} (http or https only)`);
  }
  // Paths and queries are added to a base URL: one of its own would end up inside them.
  if (/[?#]/.test(baseUrl)) {
    throw new UsageError(`invalid base URL: ${withoutCredentials(baseUrl)} (no query or fragment: sct adds the paths and queries)`, {}, 'it looks like https://host/api');
  }
  return base;
}

/**
 * What to do about a 401. While SCT_TOKEN is set it wins over the profile, so `sct auth login`
 * could not help: the hint names the variable.
 */
/** `login`: the login to run, quoted for a hint (settings.ts loginHint). */
export function rejectedTokenHint(token: string | undefined, source: string | undefined, login = '`sct auth login`', profileHasToken = true): string {
  if (!token) return `run ${login}`;
  if (source === 'SCT_TOKEN') {
    // Unsetting it helps only where the profile keeps a token of its own.
    return `the token in SCT_TOKEN was rejected: set SCT_TOKEN to a valid token, ${profileHasToken ? "or unset it to use the profile's stored token" : `or unset it and run ${login} (the profile stores no token for this base URL)`}`;
  }
  return `the token was rejected: run ${login}`;
}

/**
 * A token over plain http can be read by anyone on the way: only loopback (the sandbox, a local
 * tunnel) is spared. SCT_ALLOW_HTTP=1 is the user accepting it, said on every command that does.
 */
export function checkPlainHttp(base: URL, env: NodeJS.ProcessEnv, warn?: (message: string) => void): void {
  if (base.protocol !== 'http:' || isLoopback(base.hostname)) return;
  const origin = base.origin;
  if (env.SCT_ALLOW_HTTP === '1') {
    warn?.(`the token goes over plain http to ${origin}, unencrypted (SCT_ALLOW_HTTP=1)`);
    return;
  }
  const secure = httpsTwin(base);
  const given = env.SCT_ALLOW_HTTP;
  throw new UsageError(
    `the token is never sent over plain http to a host other than this machine's loopback (${origin}; 127.0.0.1, ::1 and localhost are)`,
    {},
    given === undefined || given === ''
      ? `use ${secure}, or set SCT_ALLOW_HTTP=1 to send it unencrypted all the same`
      : `use ${secure}, or set SCT_ALLOW_HTTP=1 to send it unencrypted all the same (it is ${JSON.stringify(given.slice(0, 20))}: only 1 allows it)`,
  );
}

/**
 * The https form of a base URL whose token checkPlainHttp would refuse to send (plain http to
 * another host, SCT_ALLOW_HTTP not 1): what a login hint names instead of one sct then refuses.
 * Undefined for any other URL.
 */
export function httpsInstead(baseUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return undefined;
  }
  return base.protocol === 'http:' && !isLoopback(base.hostname) && env.SCT_ALLOW_HTTP !== '1' ? httpsTwin(base) : undefined;
}

/** Host, port and path as given; never the user and password. */
function httpsTwin(base: URL): string {
  return `https://${base.host}${base.pathname.replace(/\/+$/, '')}`;
}

/**
 * The API documents' base URL ends in /api, and paths are relative to it. A base URL without
 * it (`http://host:8080`) is still used as given — a gateway may mount the API elsewhere — but
 * this says what is most likely meant. Undefined when the path ends in /api.
 */
export function missingApiPrefix(baseUrl: string): string | undefined {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api')) return undefined;
  // `/API` or `/Api/orders` is the /api the documents name, typed in another case: meant as it, not below it.
  const lower = path.toLowerCase();
  const at = lower.endsWith('/api') ? path.length - 4 : lower.lastIndexOf('/api/');
  const meant = at >= 0 ? `${path.slice(0, at)}/api` : `${path}/api`;
  return `the base URL ${u.origin}${path} does not end in /api, as the API's base URL does: did you mean ${u.origin}${meant}?`;
}

/**
 * A token goes into a header: a newline or other control character (a token file with a
 * trailing CRLF, a paste gone wrong) would make the request fail in the HTTP library. Said
 * here, before anything is sent, with where the token came from.
 */
export function checkToken(token: string, source: string): void {
  // What a paste brings along: an Authorization header's scheme, a shell's or a file's quotes.
  const scheme = /^(Bearer|Token)\s+\S/i.exec(token);
  if (scheme) throw new UsageError(`the token from ${source} starts with "${scheme[1]} "`, {}, `give the token alone, without the "${scheme[1]} " of an Authorization header`);
  if (/^(["']).+\1$/.test(token)) throw new UsageError(`the token from ${source} is in quotes`, {}, 'give the token without its quotes');
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError(
      `the token from ${source} contains invalid characters (control characters, spaces or non-ASCII)`,
      {},
      'a token is printable ASCII on one line: check for a trailing newline or carriage return',
    );
  }
}
