// A list page read without parsing its items: `-o json` and `-o ndjson` into a file or a pipe
// print the items as the service sent them, so building objects only to serialise them again is
// wasted work. The scanner below checks that the page is JSON — every byte, as JSON.parse would
// — and finds where each element of `results` begins and ends; only the page's own fields
// (`count`, `next`) are decoded.
//
// A page is vouched for only in the shape list endpoints answer: valid UTF-8, an object with a
// `results` array (or a bare array), and nothing but spaces and tabs between tokens (an item
// holding a line break would break an ndjson line; before and after the page, line breaks are
// fine). Anything else — a pretty-printed page, a page that is not JSON at all, an unusual shape
// — is left to JSON.parse, which then reads it or rejects it with the usual error: a page the
// scanner vouches for is one JSON.parse accepts.
import { isUtf8 } from 'node:buffer';

/** One JSON value as the service wrote it: valid JSON, on one line. */
export class JsonText {
  constructor(readonly bytes: Uint8Array) {}
}

/** What JSON.parse would have made of a list page, but with the items as JsonText. */
export type ScannedPage = JsonText[] | { results: JsonText[]; count?: unknown; next?: unknown };

// A const enum, so the bundle has the numbers themselves in the hot loops: esbuild turns
// top-level consts into module variables, which V8 reads from memory on every comparison.
const enum Byte {
  Tab = 0x09,
  LineFeed = 0x0a,
  Return = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Zero = 0x30,
  Nine = 0x39,
  Colon = 0x3a,
  UpperE = 0x45,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  LowerE = 0x65,
  LowerF = 0x66,
  LowerN = 0x6e,
  LowerT = 0x74,
  LowerU = 0x75,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
}
const enum Limit {
  /** What the skip functions return for bytes that are not JSON. */
  Fail = -1,
  /** Deeper nesting is left to JSON.parse (no list item nests anywhere near this). */
  MaxDepth = 512,
}

// Whether each container open in skipValue is an object (1) or an array (0), innermost last.
const inObject = new Uint8Array(Limit.MaxDepth);

const SIMPLE_ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
function isDigit(c: number): boolean {
  return c >= Byte.Zero && c <= Byte.Nine;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

const ID_KEY = [Byte.Quote, 0x69, 0x64, Byte.Quote]; // "id"

/**
 * The id of an item that begins `{"id": <digits>` (as list endpoints write their items), read
 * from its bytes without making a string; undefined for any other start (the caller parses).
 * Called on every item of an --all export, so it must cost next to nothing.
 */
export function leadingNumericId(item: JsonText): number | undefined {
  const b = item.bytes;
  if (b[0] !== Byte.OpenBrace) return undefined;
  let i = skipSpace(b, 1);
  for (const c of ID_KEY) if (b[i++] !== c) return undefined;
  i = skipSpace(b, i);
  if (b[i++] !== Byte.Colon) return undefined;
  i = skipSpace(b, i);
  let id = 0;
  const start = i;
  // Up to 15 digits: always a safe integer, and exactly the number JSON.parse would read.
  while (isDigit(b[i]) && i - start < 15) id = id * 10 + (b[i++] - Byte.Zero);
  if (i === start) return undefined;
  const after = skipSpace(b, i);
  return b[after] === Byte.Comma || b[after] === Byte.CloseBrace ? id : undefined;
}

/** The page, or undefined when it is not one the scanner vouches for (parse it instead). */
export function scanListPage(bytes: Uint8Array): ScannedPage | undefined {
  if (!isUtf8(bytes)) return undefined;
  let i = skipLineSpace(bytes, 0);
  let page: ScannedPage | undefined;
  if (bytes[i] === Byte.OpenBracket) {
    const array = scanArray(bytes, i);
    if (!array) return undefined;
    page = array.elements;
    i = array.end;
  } else if (bytes[i] === Byte.OpenBrace) {
    const object = scanTopObject(bytes, i);
    if (!object) return undefined;
    page = object.page;
    i = object.end;
  }
  if (page === undefined || skipLineSpace(bytes, i) !== bytes.length) return undefined;
  return page;
}

/** Space around the page itself may hold line breaks (a body ended by a newline): no item is there to break. */
function skipLineSpace(b: Uint8Array, i: number): number {
  while (b[i] === Byte.Space || b[i] === Byte.Tab || b[i] === Byte.LineFeed || b[i] === Byte.Return) i++;
  return i;
}

/** The page object: `results` as elements, the other fields skipped, `count` and `next` decoded. */
function scanTopObject(b: Uint8Array, i: number): { page: ScannedPage; end: number } | undefined {
  let results: JsonText[] | undefined;
  const fields: Record<string, unknown> = {};
  i = skipSpace(b, i + 1);
  if (b[i] === Byte.CloseBrace) return undefined;
  for (;;) {
    if (b[i] !== Byte.Quote) return undefined;
    const keyEnd = skipString(b, i);
    if (keyEnd === Limit.Fail) return undefined;
    const key = decode(b, i, keyEnd) as string;
    i = skipSpace(b, keyEnd);
    if (b[i] !== Byte.Colon) return undefined;
    i = skipSpace(b, i + 1);
    if (key === 'results') {
      // As JSON.parse, the last of repeated keys counts.
      const array = b[i] === Byte.OpenBracket ? scanArray(b, i) : undefined;
      if (!array) return undefined;
      results = array.elements;
      i = array.end;
    } else {
      const end = skipValue(b, i);
      if (end === Limit.Fail) return undefined;
      if (key === 'count' || key === 'next') fields[key] = decode(b, i, end);
      i = end;
    }
    i = skipSpace(b, i);
    if (b[i] === Byte.CloseBrace) break;
    if (b[i] !== Byte.Comma) return undefined;
    i = skipSpace(b, i + 1);
  }
  if (!results) return undefined;
  return { page: { results, count: fields.count, next: fields.next }, end: i + 1 };
}

/** The elements of the array opening at `i`, each checked, and the index after its `]`. */
function scanArray(b: Uint8Array, i: number): { elements: JsonText[]; end: number } | undefined {
  const elements: JsonText[] = [];
  i = skipSpace(b, i + 1);
  if (b[i] === Byte.CloseBracket) return { elements, end: i + 1 };
  for (;;) {
    const end = skipValue(b, i);
    if (end === Limit.Fail) return undefined;
    elements.push(new JsonText(b.subarray(i, end)));
    i = skipSpace(b, end);
    if (b[i] === Byte.CloseBracket) return { elements, end: i + 1 };
    if (b[i] !== Byte.Comma) return undefined;
    i = skipSpace(b, i + 1);
  }
}

function decode(b: Uint8Array, start: number, end: number): unknown {
  return JSON.parse(Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('utf8'));
}

function skipSpace(b: Uint8Array, i: number): number {
  while (b[i] === Byte.Space || b[i] === Byte.Tab) i++;
  return i;
}

/**
 * The index after the JSON value that starts at `i`, or Limit.Fail. Containers are followed with a
 * stack of their kinds rather than by recursion, so a deep value cannot overflow the call stack.
 */
function skipValue(b: Uint8Array, i: number): number {
  let depth = 0;
  for (;;) {
    // A value starts at i.
    const c = b[i];
    if (c === Byte.Quote) i = skipString(b, i);
    else if (c === Byte.OpenBrace || c === Byte.OpenBracket) {
      if (depth === Limit.MaxDepth) return Limit.Fail;
      const close = c === Byte.OpenBrace ? Byte.CloseBrace : Byte.CloseBracket;
      i = skipSpace(b, i + 1);
      if (b[i] === close) i++;
      else {
        inObject[depth++] = c === Byte.OpenBrace ? 1 : 0;
        i = c === Byte.OpenBrace ? skipKey(b, i) : i;
        if (i === Limit.Fail) return Limit.Fail;
        continue;
      }
    } else if (c === Byte.Minus || isDigit(c)) i = skipNumber(b, i);
    else if (c === Byte.LowerT || c === Byte.LowerF || c === Byte.LowerN) i = skipLiteral(b, i);
    else return Limit.Fail;
    if (i === Limit.Fail) return Limit.Fail;
    // The value is complete: a separator for the next one, or the end of containers.
    for (;;) {
      if (depth === 0) return i;
      i = skipSpace(b, i);
      const object = inObject[depth - 1] === 1;
      if (b[i] === Byte.Comma) {
        i = skipSpace(b, i + 1);
        if (object) i = skipKey(b, i);
        if (i === Limit.Fail) return Limit.Fail;
        break;
      }
      if (b[i] !== (object ? Byte.CloseBrace : Byte.CloseBracket)) return Limit.Fail;
      depth--;
      i++;
    }
  }
}

/** A key, its colon and the space after: the index where its value starts. */
function skipKey(b: Uint8Array, i: number): number {
  if (b[i] !== Byte.Quote) return Limit.Fail;
  i = skipString(b, i);
  if (i === Limit.Fail) return Limit.Fail;
  i = skipSpace(b, i);
  if (b[i] !== Byte.Colon) return Limit.Fail;
  return skipSpace(b, i + 1);
}

/** The index after the string whose opening quote is at `i`, or Limit.Fail. */
function skipString(b: Uint8Array, i: number): number {
  i++;
  for (;;) {
    // Most of a page is string bytes: this loop is its hot path. It runs to the closing quote, an
    // escape or a control character, letters (above the backslash) first; past the end b[i] is
    // undefined, which stops it as well. (A table of stop bytes is slower: in the bundle it is a
    // mutable module variable, which V8 reads and bounds-checks on every byte.)
    for (;;) {
      const c = b[i];
      if (c > Byte.Backslash || (c > Byte.Quote ? c !== Byte.Backslash : c >= Byte.Space && c !== Byte.Quote)) i++;
      else break;
    }
    if (i >= b.length) return Limit.Fail;
    const c = b[i];
    if (c === Byte.Quote) return i + 1;
    if (c !== Byte.Backslash) return Limit.Fail; // a control character: JSON strings escape them
    const e = b[i + 1];
    if (SIMPLE_ESCAPES.has(e)) i += 2;
    else if (e === Byte.LowerU && isHex(b[i + 2]) && isHex(b[i + 3]) && isHex(b[i + 4]) && isHex(b[i + 5])) i += 6;
    else return Limit.Fail;
  }
}

/** -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
function skipNumber(b: Uint8Array, i: number): number {
  if (b[i] === Byte.Minus) i++;
  if (b[i] === Byte.Zero) i++;
  else if (isDigit(b[i])) while (isDigit(b[i])) i++;
  else return Limit.Fail;
  if (b[i] === Byte.Dot) {
    i++;
    if (!isDigit(b[i])) return Limit.Fail;
    while (isDigit(b[i])) i++;
  }
  if (b[i] === Byte.LowerE || b[i] === Byte.UpperE) {
    i++;
    if (b[i] === Byte.Plus || b[i] === Byte.Minus) i++;
    if (!isDigit(b[i])) return Limit.Fail;
    while (isDigit(b[i])) i++;
  }
  return i;
}

/** true, false or null, compared byte by byte (a loop over the word is measurably slower). */
function skipLiteral(b: Uint8Array, i: number): number {
  switch (b[i]) {
    case Byte.LowerT: // r u e
      return b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65 ? i + 4 : Limit.Fail;
    case Byte.LowerF: // a l s e
      return b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65 ? i + 5 : Limit.Fail;
    default: // n: u l l
      return b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c ? i + 4 : Limit.Fail;
  }
}
