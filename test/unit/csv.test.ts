import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { decimalText, parsedRecords, quoteFreeRecords, readCsv, type NumberStyle } from '../../src/bulk/csv.js';
import { UsageError } from '../../src/errors.js';
import { CSV_WRITE_OPTIONS, guardFormula } from '../../src/output/spreadsheet.js';

const fromText = (text: string) => readCsv('-', Readable.from([text]));

async function usage(p: Promise<unknown>): Promise<UsageError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UsageError);
  return e as UsageError;
}

describe('readCsv', () => {
  it('normalises headers and numbers the lines from the header', async () => {
    const csv = await fromText('External ID,unit-price\nA,1\n\nB,2\n');
    expect(csv.columns).toEqual(['external_id', 'unit_price']);
    expect(csv.rows).toEqual([
      { line: 2, values: { external_id: 'A', unit_price: '1' } },
      { line: 4, values: { external_id: 'B', unit_price: '2' } },
    ]);
  });

  it('refuses two headers that are the same column', async () => {
    const e = await usage(fromText('name,type,Type\nx,a,b\n'));
    expect(e.message).toBe('stdin line 1: columns 2 ("type") and 3 ("Type") are the same column, type');
    const dashed = await usage(fromText('external-id,External ID\n1,2\n'));
    expect(dashed.message).toContain('are the same column, external_id');
  });

  it('refuses a bad header before reading the rows after it', async () => {
    const e = await usage(fromText('type,Type\n"never closed\n'));
    expect(e.message).toBe('stdin line 1: columns 1 ("type") and 2 ("Type") are the same column, type');
  });

  it('reads a column without a name as a spacer: left out, and a value in it refused', async () => {
    const e = await usage(fromText('name,,country_code\nx,y,CI\n'));
    expect(e.message).toBe('stdin line 2: column 2 has a value ("y"), but no header');
    const read = await fromText('name,,country_code\nx,,CI\n');
    expect(read.columns).toEqual(['name', 'country_code']);
    expect(read.rows[0].values).toEqual({ name: 'x', country_code: 'CI' });
  });

  it('names the line of a row with the wrong number of cells', async () => {
    const e = await usage(fromText('a,b\n1,2\n3\n'));
    expect(e.message).toMatch(/^stdin line 3: /);
  });

  it('needs a data row and the required columns', async () => {
    expect((await usage(fromText('a,b\n'))).message).toContain('no data rows');
    expect((await usage(readCsv('-', Readable.from(['a\n1\n']), ['email']))).message).toBe(
      'stdin line 1: no known column in the header (found: a; tried the separators , ; tab |)',
    );
    const people = { known: ['email', 'auth_group'] };
    expect((await usage(readCsv('-', Readable.from(['auth_group;x\n1;2\n']), ['email'], people))).message).toBe('stdin: missing column email (found: auth_group, x)');
  });

  describe('a record over several lines (a newline inside quotes)', () => {
    it('is numbered by its first line, with LF, CRLF or CR line ends', async () => {
      for (const [end, what] of [['\n', 'LF'], ['\r\n', 'CRLF'], ['\r', 'CR']]) {
        const text = ['a,b', '"x', 'y', 'z",1', '3,4', ''].join(end);
        const csv = await fromText(text);
        expect(csv.rows, what).toEqual([
          { line: 2, values: { a: ['x', 'y', 'z'].join(end), b: '1' } },
          { line: 5, values: { a: '3', b: '4' } },
        ]);
      }
    });

    it('reads a file whose line ends are mixed (rows added by `echo >>` to a file Excel saved) as the lines an editor shows', async () => {
      for (const quoted of [false, true]) {
        const first = quoted ? '"a@x.example",member' : 'a@x.example,member';
        const csv = await fromText(`email,auth_group\r\n${first}\r\nb@x.example,admin\nc@x.example,member\rd@x.example,member\n`);
        expect(csv.rows.map((r) => [r.line, r.values.email, r.values.auth_group]), String(quoted)).toEqual([
          [2, 'a@x.example', 'member'],
          [3, 'b@x.example', 'admin'],
          [4, 'c@x.example', 'member'],
          [5, 'd@x.example', 'member'],
        ]);
      }
      // A CRLF where the parser is handed the file's next 64 kB: one line end, not a line and a blank one.
      const rows = Array.from({ length: 3000 }, (_, i) => `"r${String(i).padStart(5, '0')}",${'x'.repeat(20)}`);
      const text = `a,b\n${rows.join('\r\n')}\n`;
      const csv = await fromText(text);
      expect(csv.rows).toHaveLength(3000);
      expect(csv.rows.map((r) => r.line)).toEqual(rows.map((_, i) => i + 2));
      expect(csv.rows.every((r) => r.values.b === 'x'.repeat(20))).toBe(true);
    });

    it('counts the blank lines before it, and those inside other records', async () => {
      const csv = await fromText('a,b\n\n  \n"p\n\nq",1\n\n"r",2\r\n\r\n5,6');
      expect(csv.rows.map((r) => r.line)).toEqual([4, 8, 10]);
    });

    it('names its first line in an error about its cells', async () => {
      const e = await usage(fromText('a,b\n1,2\n"x\ny\nz",1,extra\n3,4\n'));
      expect(e.message).toBe('stdin line 3: 3 cells, but the header has 2 columns');
      const crlf = await usage(fromText('a,b\r\n"x\r\ny",1\r\n\r\n"p\r\nq"\r\n'));
      expect(crlf.message).toBe('stdin line 5: 1 cell, but the header has 2 columns');
    });

    it('names the line a quote that is never closed opens on', async () => {
      const e = await usage(fromText('a,b\n1,2\n\n"x,3\n4,5\n6,7\n'));
      expect(e.message).toMatch(/^stdin line 4: /);
      expect(e.message).toContain('never closed');
      const second = await usage(fromText('a,b\n"ok\nok",2\n3,"x\n4,5\n'));
      expect(second.message).toMatch(/^stdin line 4: /);
    });

    it('names the first line in other quoting errors', async () => {
      const e = await usage(fromText('a,b\n1,2\n"x\ny"z,3\n'));
      expect(e.message).toMatch(/^stdin line 3: /);
      const opening = await usage(fromText('a,b\n"m\nn",1\n5" screw,2\n'));
      expect(opening.message).toMatch(/^stdin line 4: /);
    });

    it('names the real line of a header after blank lines', async () => {
      const e = await usage(fromText('\n\nname,,x\n1,2,3\n'));
      expect(e.message).toBe('stdin line 4: column 2 has a value ("2"), but no header');
      expect((await fromText('\n\na,b\n1,2\n')).rows[0].line).toBe(4);
    });
  });

  describe('cells guarded against spreadsheet formulas', () => {
    it('lose the leading quote sct wrote', async () => {
      const csv = await fromText(`name,note,other\n"'=HYPERLINK(""http://x"")",'@SUM(1),''=x\n'+1,'-2,'x\n`);
      expect(csv.rows.map((r) => r.values)).toEqual([
        { name: '=HYPERLINK("http://x")', note: '@SUM(1)', other: "'=x" },
        { name: '+1', note: '-2', other: "'x" },
      ]);
    });

    it('take the guard off before trimming: a guarded tab or a guard after spaces reads back as written', async () => {
      // sct quotes such cells when it writes them; the untrimmed quoted cell keeps its tab.
      const csv = await fromText(`a,b,c\n"'\t"," '=x",'\t=y \n`);
      expect(csv.rows[0].values).toEqual({ a: '\t', b: " '=x", c: '\t=y' });
    });

    it('read back every value an sct export wrote, exactly', async () => {
      const values = ['=HYPERLINK("http://x")', '@SUM(1)', '+33 6', '-', "'", "''=", '\t', '\r\n=x', ' =x ', " '=x", 'plain', '', 'a,b', '"q"'];
      const text = stringify([values.map((_, i) => `c${i}`), values.map(guardFormula)], CSV_WRITE_OPTIONS);
      const csv = await fromText(text);
      expect(Object.values(csv.rows[0].values)).toEqual(values);
    });

    it('guarded headers are read as their names', async () => {
      const csv = await fromText(`'=a,b\n1,2\n`);
      expect(csv.columns).toEqual(['=a', 'b']);
    });
  });

  it('keeps a column named like an Object property as an ordinary own value', async () => {
    const csv = await fromText('__proto__,constructor,tostring\n1,2,3\n');
    expect(Object.getPrototypeOf(csv.rows[0].values)).toBe(Object.prototype);
    expect(Object.keys(csv.rows[0].values)).toEqual(['__proto__', 'constructor', 'tostring']);
    expect(csv.rows[0].values.__proto__).toBe('1');
  });

  describe('a file without quotes, read without csv-parse', () => {
    const csvParse = (bytes: Buffer) => parsedRecords(bytes, 'f', () => {});
    // What can sit in a cell or between cells: every character either reader trims, line ends
    // of every kind, a byte order mark, and multi-byte characters.
    const PIECES = ['a', 'é', '😀', ',', ' ', '\t', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u2028', '\u3000', '\ufeff', "'", '=', '\u0000', '\r', '\n', '\r\n'];
    const line = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) }), { maxLength: 8 }).map((p) => p.join('').replaceAll('"', ''));
    const file = fc.record({ lines: fc.array(line, { maxLength: 8 }), eol: fc.constantFrom('\n', '\r\n'), bom: fc.boolean(), last: fc.boolean() }).map(
      (f) => Buffer.from((f.bom ? '\ufeff' : '') + f.lines.join(f.eol) + (f.last ? f.eol : '')),
    );

    it('reads every record and its line as csv-parse does', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(file, fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b.filter((x) => x !== 0x22)))), async (bytes) => {
          const quick = quoteFreeRecords(bytes);
          if (quick) expect(quick).toEqual(await csvParse(bytes));
        }),
        { numRuns: 3000 },
      );
    });

    it('reads every record and its line as csv-parse does, with each separator', async () => {
      for (const d of [';', '\t', '|', ' ']) {
        const lines = file.map((b) => Buffer.from(b.toString().replaceAll(',', d)));
        await fc.assert(
          fc.asyncProperty(lines, async (bytes) => {
            const quick = quoteFreeRecords(bytes, d);
            if (quick) expect(quick).toEqual(await parsedRecords(bytes, 'f', () => {}, d));
          }),
          { numRuns: 1000 },
        );
      }
    });

    it('reads a tab-separated row of empty cells as a record, as csv-parse and the other separators do, and skips it as a blank row', async () => {
      const records = [['email', 'auth_group'], ['', ''], ['ana@example.com', '3']];
      for (const d of [',', ';', '\t', '|']) {
        expect(quoteFreeRecords(Buffer.from(`email${d}auth_group\n${d}\nana@example.com${d}3\n`), d)).toEqual({ records, starts: [1, 2, 3] });
        expect(quoteFreeRecords(Buffer.from(`email${d}auth_group\r\n ${d} \r\nana@example.com${d}3\r\n`), d)).toEqual({ records, starts: [1, 2, 3] });
      }
      const csv = await readCsv('-', Readable.from(['email\tauth_group\n\t\nana@example.com\t3\n']), [], { known: ['email', 'auth_group'] });
      // A row with no value in any cell is a row left blank in the sheet, as a workbook's are.
      expect(csv.rows).toEqual([{ line: 3, values: { email: 'ana@example.com', auth_group: '3' } }]);
    });

    it('takes files with LF or CRLF line ends, and leaves quotes, CR and mixed line ends to csv-parse', () => {
      const records = [['email', 'auth_group'], ['ana@example.com', '3'], ['ben@example.com', '']];
      for (const text of ['email,auth_group\nana@example.com,3\n\n ben@example.com , \n', '\ufeffemail,auth_group\r\nana@example.com,3\r\n\r\nben@example.com,']) {
        expect(quoteFreeRecords(Buffer.from(text))).toEqual({ records, starts: [1, 2, 4] });
      }
      for (const text of ['a,b\n"x",1\n', 'a,b\r1,2\r', 'a,b\r\n1,2\n3,4\r\n', 'a,b\n1,\r2\n']) expect(quoteFreeRecords(Buffer.from(text))).toBeUndefined();
      expect(quoteFreeRecords(Buffer.from('\ufeffa,b\n1,2\n', 'utf16le'))).toBeUndefined();
    });
  });
});

describe('files from spreadsheets', () => {
  const read = (bytes: Buffer | string, opts: Parameters<typeof readCsv>[3] = {}) => readCsv('-', Readable.from([Buffer.from(bytes)]), [], { known: ['name', 'volume'], ...opts });

  it('finds the separator that splits the header into known columns, quoted or not', async () => {
    for (const d of [',', ';', '\t', '|']) {
      const csv = await read(`name${d}volume\n"a${d}b"${d}1\nc${d}2\n`);
      expect(csv.delimiter).toBe(d);
      expect(csv.rows.map((r) => r.values)).toEqual([{ name: `a${d}b`, volume: '1' }, { name: 'c', volume: '2' }]);
      expect(csv.numbers).toBe(d === ';' ? 'semicolon' : d === ',' ? 'point' : 'either');
    }
    expect((await usage(read('name;volume\nx;1\n', { delimiter: ',' }))).message).toBe('stdin line 1: no known column in the header (found: name;volume; tried the separator ",", from --delimiter)');
    expect((await read('name;volume\nx;1\n', { delimiter: ';' })).columns).toEqual(['name', 'volume']);
    expect((await read('name,volume\nx,1\n', { decimalComma: true })).numbers).toBe('comma');
  });

  it('reads byte-order marks, refuses what is not UTF-8 without --encoding, and reads it with one', async () => {
    const text = 'name,volume\nCoopérative € ’,1\n';
    const expected = [{ name: 'Coopérative € ’', volume: '1' }];
    expect((await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).rows.map((r) => r.values)).toEqual(expected);
    expect((await read(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).rows.map((r) => r.values)).toEqual(expected);
    const be = Buffer.from(text, 'utf16le').swap16();
    expect((await read(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).rows.map((r) => r.values)).toEqual(expected);
    const cp1252 = Buffer.from([...Buffer.from('name,volume\nCoop'), 0xe9, ...Buffer.from('rative '), 0x80, 0x20, 0x92, ...Buffer.from(',1\n')]);
    const e = await usage(read(cp1252));
    expect(e.message).toBe('stdin line 2: not UTF-8 text (a spreadsheet program saved it in another encoding)');
    expect(e.hint).toContain('--encoding windows-1252');
    expect((await read(cp1252, { encoding: 'windows-1252' })).rows.map((r) => r.values)).toEqual(expected);
    // 0x81 is a byte windows-1252 leaves undefined: refused, not read as U+FFFD.
    expect((await usage(read(Buffer.from([...Buffer.from('name\n'), 0x81, 0x0a]), { encoding: 'cp1252' }))).message).toContain('not valid windows-1252 text');
  });

  it('reads a number cell in the file convention, and refuses a comma or a dot it cannot settle', () => {
    expect(decimalText('1.234,5', 'comma')).toBe('1234.5');
    expect(decimalText('12,5', 'comma')).toBe('12.5');
    expect(decimalText('-0,25', 'comma')).toBe('-0.25');
    expect(decimalText('12.5', 'comma')).toBe('12.5');
    expect(decimalText('1.234.567', 'comma')).toBe('1234567');
    // A group of thousands never begins with 0: 0.001 is a decimal point, not one thousand.
    expect(decimalText('0.001', 'comma')).toBe('0.001');
    expect(decimalText('-0.250', 'comma')).toBe('-0.250');
    expect(decimalText('0.001', 'either')).toBe('0.001');
    expect(decimalText('12.5', 'point')).toBe('12.5');
    expect(decimalText('1.250', 'point')).toBe('1.250');
    expect(() => decimalText('1,234', 'point')).toThrow('give --decimal-comma');
    // A US sheet's grouping beside a decimal point reads one way only.
    expect(decimalText('1,250.50', 'point')).toBe('1250.50');
    expect(decimalText('-12,345,678.9', 'either')).toBe('-12345678.9');
    expect(() => decimalText('1,25.5', 'point')).toThrow('give --decimal-comma');
    expect(() => decimalText('1,234.5', 'comma')).toThrow('not a number with a decimal comma');
    // Tab or |: the separator says nothing, so only what reads the same both ways passes.
    expect(decimalText('12.5', 'either')).toBe('12.5');
    expect(decimalText('1.2500', 'either')).toBe('1.2500');
    expect(decimalText('1250', 'either')).toBe('1250');
    expect(() => decimalText('1.250', 'either')).toThrow('"1.250" reads as 1.25 with a decimal point and as 1250 with a decimal comma');
    expect(() => decimalText('-12.500', 'either')).toThrow('as -12500 with a decimal comma');
    expect(() => decimalText('1.234', 'either')).toThrow('write 1.2340 or 1234,');
    expect(() => decimalText('1.250', 'either')).toThrow('write 1.25 or 1250,');
    expect(decimalText('12.500.000', 'either')).toBe('12500000');
    expect(decimalText('-1.000.000', 'either')).toBe('-1000000');
    expect(() => decimalText('1,5', 'either')).toThrow('give --decimal-comma');
    // A ;-separated file without --decimal-comma: one group of three after a dot reads both ways.
    expect(() => decimalText('1.234', 'semicolon')).toThrow('"1.234" reads as 1234 with a decimal comma and as 1.234 with a decimal point');
    // What it offers reads one way only: 1,234 would be refused in turn.
    expect(() => decimalText('1.250', 'semicolon')).toThrow('write 1250 or 1,25,');
    // Its mirror: one group of three after a comma is 1.25 with decimal commas and 1250 as an
    // English locale groups thousands in a ;-separated file.
    expect(() => decimalText('1,250', 'semicolon')).toThrow('"1,250" reads as 1.25 with a decimal comma and as 1250 with a comma grouping thousands');
    expect(() => decimalText('-12,500', 'semicolon')).toThrow('write -12,5 or -12500,');
    expect(decimalText('1,250', 'comma')).toBe('1.250');
    // A coordinate cannot be a thousand and more: its bound settles the reading.
    expect(decimalText('5,350', 'semicolon', { max: 90 })).toBe('5.350');
    expect(decimalText('-4,020', 'semicolon', { max: 180 })).toBe('-4.020');
    expect(decimalText('5.350', 'semicolon', { max: 90 })).toBe('5.350');
    expect(decimalText('6.800', 'either', { max: 90 })).toBe('6.800');
    // Within the bound both ways, still refused.
    expect(() => decimalText('1,250', 'semicolon', { max: 2000 })).toThrow('reads as 1.25 with a decimal comma');
    // Within it neither way: said so, not what to write in which convention.
    expect(() => decimalText('100,500', 'semicolon', { max: 90 })).toThrow('"100,500" reads as 100.5 or as 100500, and neither is within -90..90');
    const readOneWay: Array<[string, NumberStyle, string]> = [
      ['1.234', 'comma', '1234'],
      ['1.234,5', 'semicolon', '1234.5'],
      ['1.234.567', 'semicolon', '1234567'],
      ['12,5', 'semicolon', '12.5'],
      ['1250.5', 'semicolon', '1250.5'],
      ['0.001', 'semicolon', '0.001'],
      // Commas grouping more than once, or beside a decimal point, can only be an English locale's.
      ['12,500,000', 'semicolon', '12500000'],
      ['1,250.50', 'semicolon', '1250.50'],
      ['1,25', 'semicolon', '1.25'],
      ['0,250', 'semicolon', '0.250'],
    ];
    for (const [text, style, read] of readOneWay) expect(decimalText(text, style), `${text} (${style})`).toBe(read);
  });
});
