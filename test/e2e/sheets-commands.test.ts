// "Files from spreadsheets" for every command that reads a file: the files spreadsheet programs
// write (test/fixtures/sheets/, made by LibreOffice; see test/fixtures/README.md) read by
// orders import/sync, origins import/sync, invitations bulk-create, dds trace --file and
// info-requests send, and files written by sct's own CSV rules in any separator and encoding read
// back by the built binary. test/e2e/sheets.test.ts has the first cases, mostly of origins import.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { stringify } from 'csv-stringify/sync';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSV_WRITE_OPTIONS, guardFormula } from '../../src/output/spreadsheet.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });
const fixture = (name: string) => join(__dirname, '..', 'fixtures', 'sheets', name);
const sent = () => t.sb.requests.filter((q) => q.method !== 'GET');

describe('files written by sct’s CSV rules, in any separator and encoding, read back by the built sct', () => {
  // How a spreadsheet may save the file, and the flags sct then needs (none where a byte-order
  // mark says it). `fits` is what the encoding can hold.
  const latin = (enc: string) => (s: string) => iconv.decode(iconv.encode(s, enc), enc) === s;
  const SAVINGS = [
    { name: 'utf-8', bytes: (s: string) => Buffer.from(s), flags: [] as string[], fits: () => true },
    { name: 'utf-8 BOM', bytes: (s: string) => Buffer.from('\ufeff' + s), flags: [], fits: () => true },
    { name: 'utf-16le BOM', bytes: (s: string) => Buffer.from('\ufeff' + s, 'utf16le'), flags: [], fits: () => true },
    { name: 'utf-16be BOM', bytes: (s: string) => Buffer.from('\ufeff' + s, 'utf16le').swap16(), flags: [], fits: () => true },
    { name: 'windows-1252', bytes: (s: string) => iconv.encode(s, 'windows-1252'), flags: ['--encoding', 'windows-1252'], fits: latin('windows-1252') },
    { name: 'iso-8859-15', bytes: (s: string) => iconv.encode(s, 'iso-8859-15'), flags: ['--encoding', 'iso-8859-15'], fits: latin('iso-8859-15') },
  ];
  const PIECES = ['"', ',', ';', '\t', '|', '\n', '\r\n', ' ', "'", '=', '+', '-', '@', '0', '007', 'é', 'ß', '€', 'Œ', 'š', '’', '—', '😀', 'Coopérative', 'Lot n° 7', 'a', 'Z'];
  const text = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
  const order = fc.record({ id: text, seller: text, lot: text, volume: fc.integer({ min: 1, max: 9_999_999 }).map((n) => n / 100) });
  const file = fc.record({
    saving: fc.constantFrom(...SAVINGS.map((s) => s.name)),
    separator: fc.constantFrom(',', ';', '\t', '|'),
    eol: fc.constantFrom('\n', '\r\n'),
    orders: fc.uniqueArray(order, { minLength: 1, maxLength: 4, selector: (o) => o.id.trim() }).filter((os) => os.every((o) => o.id.trim() !== '')),
  });

  it('orders import --dry-run -o json sends each order’s text and numbers as they were in the table', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(file, async (f) => {
        const saving = SAVINGS.find((s) => s.name === f.saving)!;
        fc.pre(f.orders.every((o) => saving.fits(o.id + o.seller + o.lot)));
        // A ;-separated file writes its numbers with a decimal comma, as a German spreadsheet does.
        const number = (n: number) => (f.separator === ';' ? String(n).replace('.', ',') : String(n));
        const table = [
          ['external_id', 'type', 'order_created_at', 'seller_company_id', 'seller_external_id', 'volume', 'unit', 'item_external_id'],
          ...f.orders.map((o) => [o.id, 'order', '2025-04-01', '101', o.seller, number(o.volume), 'kg', o.lot]),
        ];
        const csv = stringify(
          table.map((r) => r.map(guardFormula)),
          { ...CSV_WRITE_OPTIONS, delimiter: f.separator, record_delimiter: f.eol },
        );
        const path = join(t.dir, `generated-${++run}.csv`);
        writeFileSync(path, saving.bytes(csv));
        const r = await t.sctBin(['orders', 'import', '--purchase', '--file', path, '--dry-run', '-o', 'json', ...saving.flags]);
        expect(r.exitCode, `${saving.name} ${JSON.stringify(f.separator)}: ${r.stderr}`).toBe(0);
        // The command trims what it reads from a cell: a value is its text without surrounding spaces.
        const out = (JSON.parse(r.stdout) as Array<Record<string, unknown>>).map((o) => ({ external_id: o.external_id, seller_external_id: o.seller_external_id, items: o.items }));
        expect(out).toEqual(
          f.orders.map((o) => ({
            external_id: o.id.trim(),
            seller_external_id: o.seller.trim() || undefined,
            items: [{ volume: o.volume, unit: 'kg', ...(o.lot.trim() ? { external_id: o.lot.trim() } : {}) }],
          })),
        );
      }),
      { numRuns: 6 },
    );
    expect(sent()).toEqual([]);
  });
});
