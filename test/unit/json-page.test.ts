// The list-page scanner (src/api/json-page.ts): whatever it vouches for, JSON.parse reads the
// same way — the same items, count and next — and every page that is not JSON, or not in the
// shape it handles, it leaves to JSON.parse. Checked on hand-picked pages and on pages
// fast-check makes up and then breaks byte by byte.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonText, leadingNumericId, scanListPage, type ScannedPage } from '../../src/api/json-page.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const items = (page: ScannedPage | undefined) => {
  const list = Array.isArray(page) ? page : page?.results;
  return list?.map((t) => {
    expect(t).toBeInstanceOf(JsonText);
    return Buffer.from(t.bytes).toString('utf8');
  });
};

/** What the scanner found, as JSON.parse would have read the page. */
function asParsed(page: ScannedPage | undefined): unknown {
  if (!page) return undefined;
  if (Array.isArray(page)) return page.map((t) => JSON.parse(Buffer.from(t.bytes).toString('utf8')));
  return listView({ ...page, results: page.results.map((t) => JSON.parse(Buffer.from(t.bytes).toString('utf8'))) });
}

/** What a list page is to the client: its items, count and next. */
function listView(page: unknown): unknown {
  if (Array.isArray(page) || page === null || typeof page !== 'object') return page;
  const { results, count, next } = page as Record<string, unknown>;
  return { results, count, next };
}

const TRICKY = {
  id: 1,
  text: 'quote " backslash \\ slash / newline \n tab \t cr \r nul \u0000 esc \u001b[31m',
  accents: 'Côte d’Ivoire — Soubré, Ærø, Ελληνικά',
  emoji: 'cocoa 🍫 flag 🇨🇮 zwj 👩‍🌾',
  bidi: 'abc\u202edef',
  lineSeparators: '\u2028\u2029',
  nothing: null,
  no: false,
  yes: true,
  numbers: [0, -0, 1.5, -12.25e-3, 1e21, 123456789012345],
  nested: [[[]], [{}], { a: [{ b: [null, [false]] }] }],
  empty: '',
};

describe('scanListPage', () => {
  it('finds the items of a compact page as the service wrote them, and decodes count and next', () => {
    const results = [TRICKY, { id: 2 }, [1, 2], 'text', 3, null, true];
    const page = scanListPage(bytes(JSON.stringify({ count: 7, next: 'http://x/api/orders?offset=7', previous: null, results })));
    expect(items(page)).toEqual(results.map((r) => JSON.stringify(r)));
    expect(page).toMatchObject({ count: 7, next: 'http://x/api/orders?offset=7' });
  });

  it('keeps the service own spelling of numbers and escapes', () => {
    const text = '{"count":1,"next":null,"results":[{"volume":1.50,"name":"\\u00e9t\\u00e9","big":1E+2,"slash":"a\\/b"}]}';
    expect(items(scanListPage(bytes(text)))).toEqual(['{"volume":1.50,"name":"\\u00e9t\\u00e9","big":1E+2,"slash":"a\\/b"}']);
  });

  it('reads spaces and tabs between tokens (a page written with separators ", " and ": ")', () => {
    const text = '  {"count": 2,\t"next": null, "results": [ {"a": [1, 2], "b": {"c": "d e"}} , {"e" :true} ] }  ';
    const page = scanListPage(bytes(text));
    expect(asParsed(page)).toEqual(listView(JSON.parse(text)));
    expect(items(page)).toEqual(['{"a": [1, 2], "b": {"c": "d e"}}', '{"e" :true}']);
  });

  it('reads a bare array page and an empty results', () => {
    expect(items(scanListPage(bytes('[{"id":1},{"id":2}]')))).toEqual(['{"id":1}', '{"id":2}']);
    expect(items(scanListPage(bytes('[]')))).toEqual([]);
    expect(scanListPage(bytes('{"count":0,"next":null,"results":[]}'))).toEqual({ results: [], count: 0, next: null });
  });

  it('takes the last of repeated keys, as JSON.parse does', () => {
    const text = '{"results":[1],"count":1,"count":2,"results":[3,4],"next":"a","next":null}';
    expect(asParsed(scanListPage(bytes(text)))).toEqual(listView(JSON.parse(text)));
  });

  it('takes line breaks before and after the page (a body ended by a newline), as JSON.parse does', () => {
    for (const text of ['{"count":1,"next":null,"results":[1]}\n', '\r\n{"count":1,"next":null,"results":[1]}\r\n', '[1]\n']) {
      expect(asParsed(scanListPage(bytes(text))), JSON.stringify(text)).toEqual(listView(JSON.parse(text)));
    }
  });

  it('decodes escaped keys as JSON.parse does', () => {
    const text = '{"res\\u0075lts":[1],"count":1,"next":null}';
    expect(asParsed(scanListPage(bytes(text)))).toEqual(listView(JSON.parse(text)));
  });

  it.each([
    ['a pretty-printed page (line breaks)', JSON.stringify({ count: 1, next: null, results: [{ a: 1 }] }, null, 2)],
    ['a carriage return between tokens', '{"count":1,\r"next":null,"results":[1]}'],
    ['no results', '{"count":1,"next":null}'],
    ['results that are not an array', '{"count":1,"next":null,"results":{"a":1}}'],
    ['a top-level string', '"results"'],
    ['a top-level number', '42'],
    ['an empty body', ''],
    ['white space alone', '   '],
    ['an empty object', '{}'],
    ['a byte order mark', '\ufeff{"count":0,"next":null,"results":[]}'],
  ])('leaves %s to JSON.parse', (_what, text) => {
    expect(scanListPage(bytes(text))).toBeUndefined();
  });

  it.each([
    ['a trailing comma in the results', '{"results":[1,]}'],
    ['a trailing comma in an item', '{"results":[{"a":1,}]}'],
    ['a missing colon', '{"results":[{"a" 1}]}'],
    ['a missing comma', '{"results":[{"a":1 "b":2}]}'],
    ['a key that is not a string', '{"results":[{a:1}]}'],
    ['single quotes', "{\"results\":[{'a':1}]}"],
    ['an unterminated string', '{"results":["abc]}'],
    ['an unterminated array', '{"results":[1,2'],
    ['an unterminated object', '{"results":[{"a":1]}'],
    ['mismatched brackets', '{"results":[{"a":[1}]]}'],
    ['a raw control character in a string', '{"results":["a\u0001b"]}'],
    ['a raw tab in a string', '{"results":["a\tb"]}'],
    ['a raw line break in a string', '{"results":["a\nb"]}'],
    ['an unknown escape', '{"results":["a\\xb"]}'],
    ['a short \\u escape', '{"results":["\\u12g4"]}'],
    ['a backslash at the end', '{"results":["a\\'],
    ['a leading zero', '{"results":[01]}'],
    ['a lone minus', '{"results":[-]}'],
    ['a dot without digits', '{"results":[1.]}'],
    ['an exponent without digits', '{"results":[1e+]}'],
    ['a leading dot', '{"results":[.5]}'],
    ['a plus sign', '{"results":[+1]}'],
    ['NaN', '{"results":[NaN]}'],
    ['Infinity', '{"results":[Infinity]}'],
    ['a misspelt literal', '{"results":[tru]}'],
    ['a capitalised literal', '{"results":[True]}'],
    ['a comment', '{"results":[1]/* x */}'],
    ['text after the page', '{"results":[1]} x'],
    ['a second page after the first', '{"results":[1]}{"results":[2]}'],
    ['an invalid value in another field', '{"count":01,"next":null,"results":[1]}'],
    ['an HTML page', '<!DOCTYPE html><html><body>{"results":[]}</body></html>'],
    ['a non-breaking space between tokens', '{"results":[1,\u00a02]}'],
  ])('refuses %s', (_what, text) => {
    expect(scanListPage(bytes(text))).toBeUndefined();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('refuses bytes that are not UTF-8 (JSON.parse would have read them as U+FFFD)', () => {
    const page = Buffer.concat([bytes('{"count":1,"next":null,"results":["caf'), Buffer.from([0xe9]), bytes('"]}')]);
    expect(scanListPage(page)).toBeUndefined();
  });

  it('leaves nesting deeper than it follows to JSON.parse, without overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(scanListPage(bytes(`{"results":[${deep}]}`))).toBeUndefined();
    const fine = '['.repeat(500) + ']'.repeat(500);
    expect(items(scanListPage(bytes(`{"results":[${fine}]}`)))).toEqual([fine]);
  });

  it('works on a view into a larger buffer', () => {
    const whole = bytes('xx{"results":[{"a":"é"}],"count":1,"next":null}yy');
    expect(asParsed(scanListPage(whole.subarray(2, whole.length - 2)))).toEqual({ results: [{ a: 'é' }], count: 1, next: null });
  });
});

describe('scanListPage on made-up pages', () => {
  const page = fc.record({
    count: fc.oneof(fc.nat(), fc.constant(null)),
    next: fc.oneof(fc.webUrl(), fc.constant(null)),
    results: fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 6 }),
  });

  it('vouches for every compact page, with the items and fields JSON.parse reads', () => {
    fc.assert(
      fc.property(page, (p) => {
        const text = JSON.stringify(p);
        expect(asParsed(scanListPage(bytes(text)))).toEqual(listView(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });

  it('reads pages with spaces between tokens as JSON.parse does', () => {
    fc.assert(
      fc.property(page, fc.nat(), (p, seed) => {
        // Spaces after every structural character outside strings.
        let inString = false;
        let out = '';
        const text = JSON.stringify(p);
        for (let i = 0; i < text.length; i++) {
          const c = text[i];
          out += c;
          if (c === '"' && text[i - 1] !== '\\') inString = !inString;
          else if (c === '\\' && inString) out += text[++i];
          else if (!inString && ',:[]{}'.includes(c) && (i + seed) % 3 !== 0) out += ' ';
        }
        // A backslash run before a quote makes the simple toggle above unreliable: check it parses.
        let parsed: unknown;
        try {
          parsed = JSON.parse(out);
        } catch {
          return;
        }
        expect(asParsed(scanListPage(bytes(out)))).toEqual(listView(parsed));
      }),
      { numRuns: 200 },
    );
  });

  it('never vouches for a page JSON.parse refuses, nor reads one differently, whatever byte is broken', () => {
    const replacement = fc.constantFrom(...'{}[],:"\\ \t\n\r0-+.eEtfnu1x\u0000\u00e9'.split(''), '');
    fc.assert(
      fc.property(page, fc.nat(), replacement, fc.boolean(), (p, at, by, insert) => {
        const text = JSON.stringify(p);
        const i = at % (text.length + 1);
        const broken = text.slice(0, i) + by + text.slice(insert ? i : i + 1);
        const scanned = scanListPage(bytes(broken));
        if (scanned === undefined) return;
        expect(asParsed(scanned)).toEqual(listView(JSON.parse(broken)));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('leadingNumericId', () => {
  const id = (text: string) => leadingNumericId(new JsonText(Buffer.from(text)));

  it('reads an id written first, as JSON.parse would', () => {
    expect(id('{"id":7,"name":"x"}')).toBe(7);
    expect(id('{ "id" : 123456789012345 }')).toBe(123456789012345);
    expect(id('{"id":0}')).toBe(0);
  });

  it('leaves every other start to the parser', () => {
    for (const text of ['{"name":"x","id":7}', '{"id":"a-uuid"}', '{"id":-1}', '{"id":1.5}', '{"id":1e3}', '{"id":1234567890123456}', '{"identifier":1}', '[1]', '{"id":null}']) {
      expect(id(text), text).toBeUndefined();
    }
  });

  it('never disagrees with JSON.parse', () => {
    fc.assert(
      fc.property(fc.record({ id: fc.oneof(fc.nat(), fc.maxSafeNat(), fc.string(), fc.double()), n: fc.string() }), (item) => {
        // Compared with what JSON.parse reads, not the value written: -0 is written as 0.
        const text = JSON.stringify(item);
        const got = id(text);
        if (got !== undefined) expect(got).toBe(JSON.parse(text).id);
      }),
    );
  });
});
