// Secrets that travel inside values sct shows: the token, the user and password a base or proxy
// URL may carry, and the signature of a signed upload/download link. Whatever prints a URL or a
// header for a person (errors, --verbose, doctor, the sandbox's request log) passes it through here.

/** Shows enough of a token to tell two apart, never enough to use it. */
export function maskToken(token: string): string {
  // A token with control characters in its head shows nothing of it: they would reach the terminal.
  if (token.length <= 8 || /[^\x21-\x7e]/.test(token.slice(0, 4))) return '********';
  return `${token.slice(0, 4)}…${'*'.repeat(4)}`;
}

/** An `Authorization` header's value with its credential masked (`Bearer sct_…****`). */
export function maskAuthorization(value: string): string {
  const [scheme, credential] = value.split(/\s+/, 2);
  return credential === undefined ? maskToken(value) : `${scheme} ${maskToken(credential)}`;
}

/** A URL with the user and password it may carry hidden: `https://***@host/api` (or left out, `shownAs` ''). */
export function withoutCredentials(href: string, shownAs = '***'): string {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return credentialsInText(href);
  }
  if (!u.username && !u.password) return href;
  u.username = shownAs;
  u.password = '';
  return u.href;
}

/** A URL on another host, whose query string may carry a credential: without it, and without a user and password. */
export function redactUrl(href: string): string {
  const shown = withoutCredentials(href);
  try {
    const u = new URL(shown);
    return u.search ? `${u.origin}${u.pathname}?…` : shown;
  } catch {
    return shown;
  }
}

/** A signed URL's credential is its last path segment or its query string: neither is shown. */
export function redactSignedUrl(href: string): string {
  try {
    const u = new URL(href);
    return `${u.origin}${u.pathname.replace(/[^/]+$/, '…')}${u.search ? '?…' : ''}`;
  } catch {
    return '(signed URL)';
  }
}

/**
 * A text (a storage service's error page, say) with a signed URL's credential hidden wherever it
 * repeats it: the whole link, its query string, each of its parameters' values, and its last path
 * segment, when long enough to be a secret (8 characters).
 */
export function withoutSignedUrl(text: string, href: string): string {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return text;
  }
  let out = text.replaceAll(href, redactSignedUrl(href));
  // Each parameter's value too: S3's SignatureDoesNotMatch page repeats the signature alone.
  const values = [...u.searchParams.values()].flatMap((v) => [v, encodeURIComponent(v)]);
  for (const part of u.search.slice(1).split('&')) values.push(part.slice(part.indexOf('=') + 1));
  const secrets = [u.search.slice(1), u.pathname.split('/').pop() ?? '', ...values].filter((v) => v.length >= 8);
  // The longest first, so a value inside a longer one is not cut out of it before it is hidden.
  for (const secret of secrets.sort((a, b) => b.length - a.length)) out = out.replaceAll(secret, '…');
  return out;
}

/** Any `scheme://user:password@` inside a text (a library's error naming its proxy) hidden. */
export function credentialsInText(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s"'<>]*)/gi, (word, scheme: string, rest: string) => {
    const authority = rest.search(/[/?#]/);
    const inAuthority = rest.lastIndexOf('@', authority < 0 ? rest.length : authority);
    if (inAuthority >= 0) return `${scheme}***${rest.slice(inAuthority)}`;
    // A password with "/", "?" or "#" not encoded makes no URL: hidden up to the word's last "@".
    // A URL that parses has its "@" past the host (a query's e-mail address), and is left whole.
    const last = rest.lastIndexOf('@');
    if (last < 0 || URL.canParse(word)) return word;
    return `${scheme}***${rest.slice(last)}`;
  });
}

/**
 * `text` with every occurrence of `token` masked: a service that echoes the token it was sent
 * (in an error's detail, a field, a debugging value) never gets it printed. A token shorter than
 * 8 characters is left alone, as it could be any word of the data.
 */
export function withoutToken(text: string, token: string | undefined): string {
  if (token === undefined || token.length < 8) return text;
  // A function, not a string: a token beginning `$&` would put itself back as a replacement pattern.
  const masked = maskToken(token);
  for (const form of tokenForms(token)) if (text.includes(form)) text = text.replaceAll(form, () => masked);
  return text;
}

/**
 * `text` with SCT_TOKEN masked, for sct's own messages, where the user may have pasted it (a
 * --filter key, an option's value). A token shorter than 12 characters is left alone there: one
 * that is a word (`accounts`) would mask that word in every path and message.
 */
export function withoutTokenInMessage(text: string, token: string | undefined): string {
  return token !== undefined && token.length >= 12 ? withoutToken(text, token) : text;
}

/**
 * The token as a service may echo it: as sent, with "/" written "\/" (PHP's json_encode, some
 * JSON writers), and percent-encoded (in a URL it puts in a Location or a body).
 */
function tokenForms(token: string): string[] {
  return [...new Set([token, token.replaceAll('/', '\\/'), encodeURIComponent(token)])];
}

/** A value (a request's body, a plan) with the token masked in every string of it; the value itself when the token is not in it. */
export function valueWithoutToken<T>(value: T, token: string | undefined): T {
  if (token === undefined || token.length < 8) return value;
  const text = JSON.stringify(value);
  return text !== undefined && text.includes(token) ? (JSON.parse(withoutToken(text, token)) as T) : value;
}

/** The same for an answer's bytes: the buffer itself when the token is not in it (the usual case, a scan). */
export function bytesWithoutToken(bytes: Buffer, token: string | undefined): Buffer {
  if (token === undefined || token.length < 8) return bytes;
  for (const form of tokenForms(token)) bytes = replaceBytes(bytes, Buffer.from(form), maskToken(token));
  return bytes;
}

function replaceBytes(bytes: Buffer, needle: Buffer, replacement: string): Buffer {
  let at = bytes.indexOf(needle);
  if (at < 0) return bytes;
  const mask = Buffer.from(replacement);
  const parts: Buffer[] = [];
  let from = 0;
  for (; at >= 0; at = bytes.indexOf(needle, from)) {
    parts.push(bytes.subarray(from, at), mask);
    from = at + needle.length;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
