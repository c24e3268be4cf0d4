// Round trips through the file reader every command uses: any table of strings, written as sct
// writes CSV (the -o csv writer with its spreadsheet guard; the same rules with `;`, tab or `|`),
// with or without a byte-order mark, then saved in any encoding the reader names, reads back to
// the same values, each row with the line it starts on.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { readCsv } from '../../src/bulk/csv.js';
import { readsAsLatinUtf8 } from '../../src/bulk/decode.js';
import { createListWriter } from '../../src/output/format.js';
import { CSV_WRITE_OPTIONS, guardFormula } from '../../src/output/spreadsheet.js';
import { createTestIO } from '../helpers/io.js';

const SEPARATORS = [',', ';', '\t', '|'] as const;

/**
 * How the file is saved and how the reader learns its encoding: a byte-order mark, `--encoding`,
 * or both. `alphabet` is what the encoding can hold, as the reader decodes it.
 */
interface Saving {
  name: string;
  bom: boolean;
  /** The --encoding given, if any. */
  flag?: string;
  encode: (text: string) => Buffer;
  alphabet?: string[];
}

/** Every character a one-byte encoding holds, read back as the reader decodes it (`as`). */
function singleByteAlphabet(encoding: string, as = encoding): string[] {
  const chars: string[] = [];
  for (let b = 0; b < 256; b++) {
    const written = iconv.decode(Buffer.from([b]), encoding);
    if (written !== '\ufffd' && iconv.decode(Buffer.from([b]), as) === written) chars.push(written);
  }
  return chars;
}

const SAVINGS: Saving[] = [
  { name: 'utf-8', bom: false, encode: (s) => Buffer.from(s) },
  { name: 'utf-8 with BOM', bom: true, encode: (s) => Buffer.from(s) },
  { name: 'utf-8, --encoding utf-8', bom: false, flag: 'utf-8', encode: (s) => Buffer.from(s) },
  { name: 'utf-8 with BOM, --encoding utf-8', bom: true, flag: 'utf-8', encode: (s) => Buffer.from(s) },
  { name: 'utf-16le with BOM', bom: true, encode: (s) => Buffer.from(s, 'utf16le') },
  { name: 'utf-16le with BOM, --encoding utf-16le', bom: true, flag: 'utf-16le', encode: (s) => Buffer.from(s, 'utf16le') },
  { name: 'utf-16be with BOM', bom: true, encode: (s) => Buffer.from(s, 'utf16le').swap16() },
  { name: 'utf-16be with BOM, --encoding utf-16be', bom: true, flag: 'utf-16be', encode: (s) => Buffer.from(s, 'utf16le').swap16() },
  { name: 'windows-1252', bom: false, flag: 'windows-1252', encode: (s) => iconv.encode(s, 'windows-1252'), alphabet: singleByteAlphabet('windows-1252') },
  { name: 'cp1252', bom: false, flag: 'cp1252', encode: (s) => iconv.encode(s, 'windows-1252'), alphabet: singleByteAlphabet('windows-1252') },
  // The Encoding Standard reads the label iso-8859-1 as windows-1252 (docs/decisions/sheets.md):
  // a Latin-1 file fits when it has none of the C1 controls 0x80-0x9F, which no spreadsheet writes.
  { name: 'iso-8859-1', bom: false, flag: 'iso-8859-1', encode: (s) => iconv.encode(s, 'latin1'), alphabet: singleByteAlphabet('latin1', 'windows-1252') },
  { name: 'iso-8859-15', bom: false, flag: 'iso-8859-15', encode: (s) => iconv.encode(s, 'iso-8859-15'), alphabet: singleByteAlphabet('iso-8859-15') },
];

/** What spreadsheets, CSV and sct's guard treat specially, and the text of EU supply chains. */
const SPECIAL = [
  '"', ',', ';', '\t', '|', '\n', '\r', '\r\n', ' ', '  ', '\u00a0', "'", "''", '=', '+', '-', '@', '=SUM(A1)', '-1', '+33 1', '@x',
  '0', '00123', '007', '1.234,5', '12,5', 'é', 'è', 'ü', 'ß', 'Ç', 'ñ', 'ø', 'Å', '€', 'Œ', 'œ', 'Š', 'š', 'Ž', 'ž', 'Ÿ', '’', '—', '“', '”', '…',
  'Coopérative', 'Kakaobohnen', 'Ĺ', 'ő', 'ł', '😀', '中', '\u0085', '\u2028', '\ufeff', '\u0000', '\u001f', '\u007f',
];

/** Cells of text the saving can hold: special pieces and any characters, joined. */
function cell(saving: Saving): fc.Arbitrary<string> {
  const fits = (s: string) => saving.alphabet === undefined || [...s].every((c) => saving.alphabet!.includes(c));
  const special = SPECIAL.filter(fits);
  const char = saving.alphabet ? fc.constantFrom(...saving.alphabet) : fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 });
  const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...special) }, { weight: 2, arbitrary: char });
  // Empty and plain cells often, so that many files need no quotes (the reader's quick path).
  const plain = fc.stringMatching(/^[A-Za-z0-9 .]{0,8}$/);
  return fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: plain }, { weight: 4, arbitrary: fc.array(piece, { maxLength: 6 }).map((p) => p.join('')) });
}

const NAME = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);

const file = fc.constantFrom(...SAVINGS).chain((saving) =>
  fc.uniqueArray(NAME, { minLength: 1, maxLength: 5 }).chain((header) =>
    fc.record({
      // By name, so that a counterexample shows the name rather than the alphabet.
      saving: fc.constant(saving.name),
      separator: fc.constantFrom(...SEPARATORS),
      header: fc.constant(header),
      rows: fc.array(fc.array(cell(saving), { minLength: header.length, maxLength: header.length }), { minLength: 1, maxLength: 5 }),
      eol: fc.constantFrom('\n', '\r\n'),
      // One column cannot show its separator: it is then given, as a user would.
      giveSeparator: header.length === 1 ? fc.constant(true) : fc.boolean(),
    }),
  ),
);

const lineEnds = (s: string) => s.match(/\r\n|\r|\n/g)?.length ?? 0;

/** The table as sct's -o csv writer writes it (comma, LF), through the writer itself. */
async function exported(header: string[], rows: string[][], bom: boolean): Promise<string> {
  const t = createTestIO();
  const w = createListWriter(t.io, { format: 'csv', defaults: [], bom });
  await w.write(rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))));
  await w.end();
  return t.stdout();
}

describe('a table written as sct writes CSV and saved in any encoding reads back unchanged', () => {
  it('with any separator, line end and byte-order mark, in every encoding the reader names', async () => {
    await fc.assert(
      fc.asyncProperty(file, async (f) => {
        const saving = SAVINGS.find((s) => s.name === f.saving)!;
        // sct's writing rules with the file's separator, record by record so each row's first
        // line is known. With a comma and LF it is byte for byte what -o csv writes.
        const opts = { ...CSV_WRITE_OPTIONS, delimiter: f.separator, record_delimiter: f.eol };
        const record = (cells: string[]) => stringify([cells.map(guardFormula)], opts);
        let text = record(f.header);
        const expected: { line: number; values: Record<string, string> }[] = [];
        for (const row of f.rows) {
          const line = 1 + lineEnds(text);
          text += record(row);
          // A row with no value in any cell is a blank row (`,` is what a spreadsheet writes for
          // one), which every reader skips.
          if (row.every((v) => v === '')) continue;
          expected.push({ line, values: Object.fromEntries(f.header.map((h, i) => [h, row[i]])) });
        }
        const saved = (saving.bom ? '\ufeff' : '') + text;
        if (f.separator === ',' && f.eol === '\n') expect(await exported(f.header, f.rows, saving.bom)).toBe(saved);
        const bytes = saving.encode(saved);
        // A file in a code page whose bytes read as UTF-8 Latin text (`Ã©` side by side) is taken
        // for UTF-8 and refused under --encoding of a code page (src/bulk/decode.ts).
        if (saving.flag !== undefined && !saving.flag.startsWith('utf') && readsAsLatinUtf8(bytes)) return;
        const read = readCsv('-', Readable.from([bytes]), [], { known: f.header, encoding: saving.flag, delimiter: f.giveSeparator ? f.separator : undefined });
        if (expected.length === 0) return void (await expect(read).rejects.toThrow('stdin has no data rows'));
        const csv = await read;
        expect(csv.delimiter).toBe(f.separator);
        expect(csv.columns).toEqual(f.header);
        expect(csv.rows).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});

describe('a code page file whose bytes happen to be valid UTF-8', () => {
  it('is read as the flag says unless it reads as Latin letters', () => {
    // `ß”` in windows-1252 is DF 94: valid UTF-8, an N'Ko letter, so no UTF-8 file of Latin text.
    expect(readsAsLatinUtf8(iconv.encode('Straße”', 'windows-1252'))).toBe(false);
    expect(readsAsLatinUtf8(Buffer.from('Café crème, “Été” – 5 €'))).toBe(true);
    expect(readsAsLatinUtf8(Buffer.from('plain ASCII'))).toBe(false);
  });
});
