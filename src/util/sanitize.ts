// Strings from the API are untrusted: an order's external_id could carry an escape sequence
// that rewrites the terminal title or hides text, or a bidi override that makes text read
// differently from what it is. Everything bound for a terminal goes through here.

// CSI / OSC / other ESC sequences, then any remaining C0/C1 control character except tab/newline,
// and the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

// Every character that ESCAPES, CONTROLS or a cell's tab and newline rule can act on: text
// without any (nearly every cell of a large table) is returned as it is, unscanned by those.
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export function stripControl(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(ESCAPES, '').replace(CONTROLS, '');
}

/**
 * For one table cell: newlines and tabs become spaces too, and so do the Unicode line and
 * paragraph separators (U+2028, U+2029), which break a line as a newline does and which a
 * terminal measures as no width.
 */
export function cleanCell(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return stripControl(text).replace(/[\t\n\u2028\u2029]+/g, ' ');
}

const KEY_SHOWN_MAX = 80;

/**
 * A row's or feature's key from the user's file, named in a line on stderr: one line, as
 * cleanCell makes it, and cut (a key of thousands of characters is why its row was refused).
 */
export function keyShown(key: string): string {
  const one = cleanCell(key);
  if (one.length <= KEY_SHOWN_MAX) return one;
  // By code point: a character of two UTF-16 units (an emoji) is never cut in half.
  const points = Array.from(one);
  return points.length <= KEY_SHOWN_MAX ? one : `${points.slice(0, KEY_SHOWN_MAX).join('')}…`;
}

/**
 * Every string in a JSON value, keys included, through stripControl: what JSON output prints
 * on a terminal. JSON.stringify escapes C0 characters but lets C1, DEL and bidi controls through.
 */
export function stripControlDeep(value: unknown): unknown {
  if (typeof value === 'string') return stripControl(value);
  if (Array.isArray(value)) return value.map(stripControlDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripControl(k), stripControlDeep(v)]));
  }
  return value;
}

/** A JSON string literal, escapes and all. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
/** A literal holding, raw or escaped, a character stripControl removes (or an escaped backslash before b, f, r: parsed, found clean, kept). */
const CONTROL_IN_LITERAL = /\\[bfr]|\\u00[01][0-9a-fA-F]|\\u007[fF]|\\u00[89][0-9a-fA-F]|\\u20(?:2[a-eA-E]|6[6-9])|[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * JSON text as the service sent it, for a terminal: each string literal holding a control
 * character (raw, or as its escape) is cleaned as stripControlDeep cleans a parsed value's
 * strings, and everything else is left as sent — the numbers above all (an id past 2^53, which
 * JSON.parse would round into another id).
 */
export function cleanJsonText(bytes: Uint8Array): Uint8Array {
  // A backslash (an escape) or the lead byte of DEL, C1 (0xC2) or the bidi controls (0xE2): most rows hold none.
  if (!bytes.some((b) => b === 0x5c || b === 0x7f || b === 0xc2 || b === 0xe2)) return bytes;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const cleaned = text.replace(JSON_STRING, (literal) => {
    if (!CONTROL_IN_LITERAL.test(literal)) return literal;
    const value = JSON.parse(literal) as string;
    const clean = stripControl(value);
    return clean === value ? literal : JSON.stringify(clean);
  });
  return cleaned === text ? bytes : Buffer.from(cleaned);
}
