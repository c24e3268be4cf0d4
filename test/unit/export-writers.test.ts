// Exports, old and new writers side by side. The CSV writer encodes its fields itself and the
// json/ndjson writers print items as the service sent them (JsonText from the page scanner);
// the writers they replaced (test/helpers/reference-writers.ts) are the reference: CSV byte for
// byte, JSON value for value, on tricky data — quotes, line breaks, accents, emoji, nulls,
// false, nested arrays — and on pages served compact, with spaces, and pretty-printed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { createTestIO } from '../helpers/io.js';
import { createListWriter, type OutputOptions } from '../../src/output/format.js';
import type { Column } from '../../src/output/columns.js';
import { CSV_WRITE_OPTIONS, csvCell } from '../../src/output/spreadsheet.js';
import { scanListPage, type ScannedPage } from '../../src/api/json-page.js';
import { referenceCsv as reference, referenceJson } from '../helpers/reference-writers.js';

const DEFAULTS: Column[] = [
  { header: 'ID', path: 'id' },
  { header: 'EXTERNAL ID', path: 'external_id' },
];

async function write(pages: unknown[][], options: Partial<OutputOptions> & { format: OutputOptions['format'] }, tty = false): Promise<string> {
  const t = createTestIO({ stdoutIsTTY: tty });
  const w = createListWriter(t.io, { defaults: DEFAULTS, ...options });
  for (const p of pages) await w.write(p);
  await w.end();
  return t.stdout();
}

/** A page's items as the client hands them over: JsonText when the scanner vouches, else parsed. */
function readPage(text: string): unknown[] {
  const page: ScannedPage | undefined = scanListPage(Buffer.from(text, 'utf8'));
  if (page) return Array.isArray(page) ? page : page.results;
  return (JSON.parse(text) as { results: unknown[] }).results;
}

const referenceCsv = (pages: unknown[][], o: { columns?: string; csvFormulas?: boolean; tty?: boolean }) => reference(pages, { ...o, defaults: DEFAULTS });

const TRICKY: Record<string, unknown>[] = [
  {
    id: 1,
    external_id: 'PO "quoted", with comma',
    note: 'line one\nline two\r\nline three\rend',
    carriageReturn: 'before\rafter',
    accents: 'Côte d’Ivoire — Soubré, Ærø',
    emoji: '🍫 🇨🇮 👩‍🌾',
    nothing: null,
    no: false,
    yes: true,
    zero: 0,
    negative: -12.5,
    nested: { a: { b: 'deep', c: [1, [2, [3]]] }, empty: {} },
    items: [{ id: 10, volume: 1.5, product: { name: 'Cocoa "beans"', tags: [] } }, { id: 11, volume: null }],
    tags: ['a', 'b,c', ''],
    formula: '=HYPERLINK("http://evil")',
    minus: '-5',
    spaced: '  padded  ',
    tab: '\tstarts with a tab',
    escape: 'Evil\u001b]0;pwned\u0007 Corp\u001b[31m\u202e',
    separators: '\u2028\u2029',
    control: 'nul \u0000 bell \u0007',
    empty: '',
    nbsp: '\u00a0leading nbsp',
  },
  { id: 2, external_id: '', note: null, nested: null, items: [], tags: [], no: false, extra: 'only here' },
  { id: 3, external_id: "'=already quoted", nested: { a: null }, items: [[[]]], emoji: '\ud83c' },
];

const compact = (rows: unknown[]) => JSON.stringify({ count: rows.length, next: null, previous: null, results: rows });
const spaced = (rows: unknown[]) =>
  '{"count": ' + rows.length + ', "next": null, "results": [' + rows.map((r) => JSON.stringify(r).replace(/,"/g, ', "').replace(/":/g, '": ')).join(', ') + ']}';
const pretty = (rows: unknown[]) => JSON.stringify({ count: rows.length, next: null, results: rows }, null, 2);

describe('csv: the new writer writes the bytes csv-stringify wrote', () => {
  const pages = [TRICKY.slice(0, 2), TRICKY.slice(2)];
  it.each([
    ['every field', {}],
    ['--columns', { columns: 'id,note,nested.a.b,items,tags,formula,missing,nested' }],
    ['--csv-formulas', { csvFormulas: true }],
  ])('%s', async (_what, o: { columns?: string; csvFormulas?: boolean }) => {
    expect(await write(pages, { format: 'csv', ...o })).toBe(referenceCsv(pages, o));
  });

  it('at a terminal, with the strings cleaned first', async () => {
    expect(await write(pages, { format: 'csv' }, true)).toBe(referenceCsv(pages, { tty: true }));
  });

  it('an empty list: the header alone', async () => {
    expect(await write([], { format: 'csv' })).toBe(referenceCsv([], {}));
    expect(await write([[]], { format: 'csv', columns: 'a,b' })).toBe(referenceCsv([[]], { columns: 'a,b' }));
  });

  it('more rows than a slice, across pages', async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ ...TRICKY[i % 3], id: i }));
    const split = [many.slice(0, 130), many.slice(130)];
    expect(await write(split, { format: 'csv' })).toBe(referenceCsv(split, {}));
  });

  it('the same on pages read from text, compact or not', async () => {
    for (const serve of [compact, spaced, pretty]) {
      const parsed = pages.map((p) => (JSON.parse(serve(p)) as { results: unknown[] }).results);
      expect(await write(parsed, { format: 'csv' })).toBe(referenceCsv(pages, {}));
    }
  });

  it('csvCell: any cell csv-stringify is given, booleans and null too', () => {
    const SPECIAL = ['"', ',', '\n', '\r', ' ', '\t', '\u00a0', '\ufeff', '\u2028', "'", '=', '+', '-', '@', 'é', '😀'];
    const text = fc.array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 8 }).map((p) => p.join(''));
    const field = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { maxLength: 5 }), (records) => {
        const width = Math.max(1, ...records.map((r) => r.length));
        const rows = records.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? null));
        const mine = rows.map((r) => r.map(csvCell).join(',') + '\n').join('');
        expect(mine).toBe(stringify(rows, CSV_WRITE_OPTIONS));
      }),
      { numRuns: 500 },
    );
  });

  it('any rows, through the whole writer', async () => {
    const value = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('=1+1', '-x', ' a ', 'a"b', 'a,b', 'a\nb', ''), fc.integer(), fc.boolean(), fc.constant(null));
    const row = fc.dictionary(fc.constantFrom('id', 'name', 'note', 'x'), fc.oneof(value, fc.dictionary(fc.constantFrom('a', 'b'), value), fc.array(value, { maxLength: 3 })));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(row, { maxLength: 4 }), { maxLength: 3 }), fc.boolean(), async (pages, formulas) => {
        expect(await write(pages, { format: 'csv', csvFormulas: formulas })).toBe(referenceCsv(pages, { csvFormulas: formulas }));
      }),
      { numRuns: 200 },
    );
  });
});

describe('json and ndjson: the items as the service sent them, the same values as before', () => {
  const pages = [TRICKY.slice(0, 2), TRICKY.slice(2)];

  it.each([
    ['compact', compact],
    ['with spaces', spaced],
    ['pretty-printed (parsed instead)', pretty],
  ])('json, pages served %s', async (_how, serve) => {
    const out = await write(pages.map((p) => readPage(serve(p))), { format: 'json' });
    expect(JSON.parse(out)).toEqual(JSON.parse(referenceJson(pages)));
    if (serve === compact) expect(out).toBe(referenceJson(pages));
  });

  it.each([
    ['compact', compact],
    ['with spaces', spaced],
    ['pretty-printed (parsed instead)', pretty],
  ])('ndjson, pages served %s: one item a line', async (_how, serve) => {
    const out = await write(pages.map((p) => readPage(serve(p))), { format: 'ndjson' });
    const lines = out.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual(pages.flat().map((r) => JSON.parse(JSON.stringify(r))));
  });

  it('keeps the service own spelling (1.50, \\u00e9)', async () => {
    const text = '{"count":1,"next":null,"results":[{"volume":1.50,"name":"\\u00e9t\\u00e9"}]}';
    expect(await write([readPage(text)], { format: 'json' })).toBe('[\n  {"volume":1.50,"name":"\\u00e9t\\u00e9"}\n]\n');
    expect(await write([readPage(text)], { format: 'ndjson' })).toBe('{"volume":1.50,"name":"\\u00e9t\\u00e9"}\n');
  });

  it('an empty list is [] (json) and nothing (ndjson)', async () => {
    expect(await write([readPage(compact([]))], { format: 'json' })).toBe('[]\n');
    expect(await write([readPage(compact([]))], { format: 'ndjson' })).toBe('');
  });

  it('take items unparsed with every field, into a pipe, a file or at a terminal (its controls escaped there)', () => {
    const writer = (format: OutputOptions['format'], o: Partial<OutputOptions> = {}, tty = false) =>
      createListWriter(createTestIO({ stdoutIsTTY: tty }).io, { format, defaults: DEFAULTS, ...o });
    expect(writer('json').takesJsonText).toBe(true);
    expect(writer('ndjson').takesJsonText).toBe(true);
    expect(writer('json', {}, true).takesJsonText).toBe(true);
    expect(writer('ndjson', {}, true).takesJsonText).toBe(true);
    // --columns picks fields; --jq filters: both need values.
    expect(writer('json', { columns: 'id' }).takesJsonText).toBeFalsy();
    expect(writer('ndjson', { columns: 'id' }).takesJsonText).toBeFalsy();
    expect(writer('json', { jq: '.' }).takesJsonText).toBeFalsy();
    expect(writer('csv').takesJsonText).toBeFalsy();
    expect(writer('table').takesJsonText).toBeFalsy();
    expect(writer('geojson').takesJsonText).toBeFalsy();
  });
});
