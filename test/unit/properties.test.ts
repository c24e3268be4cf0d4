// Properties that must hold for any input, checked on inputs fast-check makes up: CSV files
// read back as written (or refused with a usage error naming the line), list filters reach the
// service unchanged, download names stay one short path segment, and the spreadsheet guard
// always comes off again. Each property is bounded so the whole file runs in seconds.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { readCsv, type CsvFile } from '../../src/bulk/csv.js';
import { UsageError } from '../../src/errors.js';
import { resolveTarget, safeFileName } from '../../src/output/download.js';
import { CSV_WRITE_OPTIONS, guardFormula, unguardFormula } from '../../src/output/spreadsheet.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

/** Characters that CSV readers, URLs, file systems and spreadsheets treat specially. */
const SPECIAL = ['"', ',', '\n', '\r', '\r\n', ' ', '\t', '\u0000', '\ufeff', '\u00a0', "'", '=', '+', '-', '@', '&', '%', '#', '/', '\\', '.', 'é', '😀', '\u001b[31m', '\u202e'];
const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SPECIAL) }, { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) });
/** Any text (no lone surrogates: they cannot come from a file or a command line). */
const text = (maxLength = 8) => fc.array(piece, { maxLength }).map((p) => p.join(''));
const longText = fc.integer({ min: 1_000, max: 50_000 }).map((n) => 'é,"\n '.repeat(n).slice(0, n * 3));
const cellText = fc.oneof({ weight: 30, arbitrary: text() }, { weight: 1, arbitrary: longText });

/** Line ends as an editor counts them: CRLF, LF or a lone CR. */
const lineEnds = (s: string) => s.match(/\r\n|\r|\n/g)?.length ?? 0;

/** The text cut into byte chunks at the given places (mid-character too), as a stream hands it over. */
function chunked(bytes: Buffer, cuts: number[]): Readable {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) chunks.push(bytes.subarray(from, to));
    from = Math.max(from, to);
  }
  return Readable.from(chunks);
}

async function settle(p: Promise<CsvFile>): Promise<{ csv?: CsvFile; error?: unknown }> {
  return p.then(
    (csv) => ({ csv }),
    (error: unknown) => ({ error }),
  );
}

describe('reading CSV files', () => {
  const NAME = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
  const table = fc.uniqueArray(NAME, { minLength: 1, maxLength: 5 }).chain((header) =>
    fc.record({
      header: fc.constant(header),
      rows: fc.array(fc.array(cellText, { minLength: header.length, maxLength: header.length }), { minLength: 1, maxLength: 6 }),
      eol: fc.constantFrom('unix', 'windows', 'mac'),
      bom: fc.boolean(),
      cuts: fc.array(fc.nat(), { maxLength: 6 }),
    }),
  );

  /**
   * Writes the table record by record (noting the line each starts on) and returns what a
   * reader must find: every record but those whose line is blank or whose cells are all empty
   * (a row left blank in a sheet), each cell through `read`.
   */
  function written(o: { header: string[]; rows: string[][]; eol: string; bom: boolean }, write: (v: string) => string, options: object, read: (v: string) => string) {
    // Line breaks in cells always quoted: a lone LF cell after a CR line end would read as CRLF.
    const opts = { quote_record_delimiter: true, ...options, record_delimiter: o.eol };
    let out = stringify([o.header], opts);
    const expected: { line: number; values: Record<string, string> }[] = [];
    for (const row of o.rows) {
      const line = 1 + lineEnds(out);
      const record = stringify([row.map(write)], opts);
      out += record;
      if (/^\s*$/.test(record) || row.every((v) => read(v) === '')) continue;
      expected.push({ line, values: Object.fromEntries(o.header.map((h, i) => [h, read(row[i])])) });
    }
    return { bytes: Buffer.from((o.bom ? '\ufeff' : '') + out), expected };
  }

  it('reads back exactly the rows an sct export wrote, each with the line it starts on', async () => {
    await fc.assert(
      fc.asyncProperty(table, async (o) => {
        const { bytes, expected } = written(o, guardFormula, CSV_WRITE_OPTIONS, (v) => v);
        const { csv, error } = await settle(readCsv('-', chunked(bytes, o.cuts)));
        if (expected.length === 0) {
          expect((error as Error).message).toBe('stdin has no data rows (a header row and at least one row are needed)');
          return;
        }
        expect(error).toBeUndefined();
        expect(csv!.columns).toEqual(o.header);
        expect(csv!.rows).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('reads any other writer’s rows, unquoted cells trimmed', async () => {
    // csv-stringify as it comes: cells quoted only when they must be; the reader trims the others.
    const quoted = (v: string) => /[",\r\n]/.test(v);
    await fc.assert(
      fc.asyncProperty(table, async (o) => {
        const { bytes, expected } = written(o, (v) => v, {}, (v) => unguardFormula(quoted(v) ? v : v.trim()));
        const { csv, error } = await settle(readCsv('-', chunked(bytes, o.cuts)));
        if (expected.length === 0) return void expect(error).toBeInstanceOf(UsageError);
        expect(error).toBeUndefined();
        expect(csv!.rows).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses anything else with a usage error naming the input and a line, never another exception', async () => {
    const prefix = fc.constantFrom([], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff]);
    const input = fc.oneof(
      fc.tuple(prefix, fc.uint8Array({ maxLength: 300 })).map(([p, b]) => Buffer.concat([Buffer.from(p), b])),
      fc.tuple(prefix, fc.array(text(), { minLength: 1, maxLength: 8 })).map(([p, lines]) => Buffer.concat([Buffer.from(p), Buffer.from(lines.join('\n'))])),
    );
    await fc.assert(
      fc.asyncProperty(input, fc.array(fc.nat(), { maxLength: 4 }), async (bytes, cuts) => {
        const { csv, error } = await settle(readCsv('-', chunked(bytes, cuts)));
        if (csv) {
          // What was read is consistent: as many cells as columns, lines in file order.
          for (const r of csv.rows) expect(Object.keys(r.values)).toEqual(csv.columns);
          const lines = csv.rows.map((r) => r.line);
          expect(lines).toEqual([...lines].sort((a, b) => a - b));
          // Bytes after a UTF-16 byte order mark that are not UTF-16 text end records in the
          // middle of characters: two may then start on one line. Any other input, never.
          if (!(bytes[0] === 0xff && bytes[1] === 0xfe)) expect(new Set(lines).size).toBe(lines.length);
          return;
        }
        expect(error).toBeInstanceOf(UsageError);
        expect((error as Error).message).toMatch(/^stdin( line \d+: | has no data rows|: missing column|: not valid utf-16[lb]e text| is not a CSV file or a workbook: it looks like )/);
      }),
      { numRuns: 200 },
    );
  });

  it('a bulk command refuses a broken file with exit 2 and the line of the broken record, sending nothing', async () => {
    const DEFECTS: Record<string, (email: string) => string> = {
      'unclosed quote': (email) => `${email},3,"never closed\nstill open`,
      'extra cell in a record over two lines': (email) => `${email},3,"two\nlines",extra`,
      'missing cells': (email) => email,
      'text after a closing quote': (email) => `${email},3,"note\nhere"x`,
      'quote inside an unquoted cell': (email) => `${email},3,5" screw`,
    };
    const good = fc.tuple(fc.constantFrom('plain', 'multi-line note', 'blank line before'), fc.constantFrom('\n', '\r\n'));
    const file = fc.record({
      before: fc.array(good, { maxLength: 4 }),
      defect: fc.constantFrom(...Object.keys(DEFECTS)),
      after: fc.array(good, { maxLength: 2 }),
      eol: fc.constantFrom('\n', '\r\n'),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(file, async (f) => {
        run++;
        const good = ([kind]: [string, string], i: number) =>
          kind === 'plain' ? `a${i}@example.com,3,` : kind === 'multi-line note' ? `b${i}@example.com,3,"one${f.eol}two"` : `${f.eol}c${i}@example.com,3,`;
        // The third column is one the service sets (ignored): an unknown one would be refused at the header.
        let text = `email,auth_group,status${f.eol}`;
        f.before.forEach((g, i) => (text += good(g, i) + f.eol));
        const line = 1 + lineEnds(text);
        text += DEFECTS[f.defect](`bad${run}@example.com`).replaceAll('\n', f.eol) + f.eol;
        f.after.forEach((g, i) => (text += good(g, i + 10) + f.eol));
        t.sb.requests.length = 0;
        const r = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile(`broken-${run}.csv`, text)]);
        expect(r.exitCode, `${f.defect}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`broken-${run}.csv line ${line}: `);
        expect(r.stderr).not.toMatch(/^\s+at /m);
        expect(t.sb.requests).toHaveLength(0);
      }),
      { numRuns: 15 },
    );
  });
});

describe('list filters reach the service unchanged', () => {
  // Values a user can type (no NUL: a command line cannot hold one), & = + % # - and spaces often.
  const value = fc
    .array(fc.oneof({ weight: 2, arbitrary: fc.constantFrom('&', '=', '+', '%', '%20', '%2B', '#', ' ', '?', '/', '-', '--', 'é', '😀', '\t') }, { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) }), { maxLength: 8 })
    .map((p) => p.join('').replaceAll('\u0000', ''))
    // An empty or blank value is exit 2, "needs a value" (e2e/orders-read).
    .filter((v) => v.trim() !== '');
  const key = fc.stringMatching(/^[a-z][a-z&+%# ]{0,6}[a-z]$/).map((k) => `zz_${k}`);

  it('--filter KEY=VALUE: the value as given, on the first page and the pages after it', async () => {
    await fc.assert(
      fc.asyncProperty(key, value, value, async (k, v, w) => {
        t.sb.requests.length = 0;
        const r = await t.sctIn(['products', 'list', '--filter', `${k}=${v}`, '--filter', `zz_other=${w}`, '--limit', '2', '--page-size', '1', '-o', 'json']);
        expect(r.exitCode, r.stderr).toBe(0);
        expect(t.sb.requests).toHaveLength(2);
        for (const req of t.sb.requests) {
          const q = new URLSearchParams(req.query);
          expect(q.getAll(k)).toEqual([v]);
          expect(q.getAll('zz_other')).toEqual([w]);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('--search TEXT: the text as given', async () => {
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        t.sb.requests.length = 0;
        const r = await t.sctIn(['origins', 'list', '--search', v, '-o', 'json']);
        expect(r.exitCode, r.stderr).toBe(0);
        expect(new URLSearchParams(t.sb.requests[0].query).getAll('search')).toEqual([v]);
      }),
      // `--` found once by this property: an option that needs a value takes it, as getopt does.
      { numRuns: 40, examples: [['--'], ['-o'], ['--json']] },
    );
  });
});

describe('download names', () => {
  const name = fc.oneof(
    text(12),
    fc.string({ unit: 'binary', minLength: 100, maxLength: 400 }),
    fc.array(fc.constantFrom('..', '.', '/', '\\', ' ', 'é', '\u0007'), { maxLength: 10 }).map((p) => p.join('')),
  );

  it('is one path segment of at most 255 bytes, never . or .., inside the directory', () => {
    const dir = join(t.dir, 'downloads');
    mkdirSync(dir);
    fc.assert(
      fc.property(name, (n) => {
        const safe = safeFileName(n);
        expect(safe).not.toMatch(/[/\\\u0000-\u001f]/);
        expect(['', '.', '..']).not.toContain(safe);
        expect(Buffer.byteLength(safe)).toBeLessThanOrEqual(255);
        expect(dirname(resolveTarget(dir + '/', n, { cwd: t.dir }).path)).toBe(dir);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a short plain extension', () => {
    fc.assert(
      fc.property(name, fc.constantFrom('.zip', '.pdf', '.csv', '.PDF', '.json'), (n, ext) => {
        expect(safeFileName(n + ext).endsWith(ext)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the spreadsheet guard', () => {
  const any = fc.string({ unit: fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 12 });

  it('always comes off again', () => {
    fc.assert(
      fc.property(any, (s) => {
        expect(unguardFormula(guardFormula(s))).toBe(s);
        expect(guardFormula(s)).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { numRuns: 200 },
    );
  });

  it('comes off a cell written as sct writes CSV and read by sct’s reader, which returns the value exactly', async () => {
    await fc.assert(
      fc.asyncProperty(any, async (s) => {
        const csv = await readCsv('-', Readable.from([stringify([['value', 'x'], [guardFormula(s), 'x']], CSV_WRITE_OPTIONS)]));
        expect(csv.rows[0].values.value).toBe(s);
      }),
      { numRuns: 200 },
    );
  });
});
