// "Files from spreadsheets" for every command that reads a file: the files spreadsheet programs
// write (test/fixtures/sheets/, made by LibreOffice; see test/fixtures/README.md) read by
// orders import/sync, origins import/sync, invitations bulk-create, dds trace --file and
// info-requests send, and files written by sct's own CSV rules in any separator and encoding read
// back by the built binary. test/e2e/sheets.test.ts has the first cases, mostly of origins import.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { stringify } from 'csv-stringify/sync';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { CSV_WRITE_OPTIONS, guardFormula } from '../../src/output/spreadsheet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { dryRunBodies, dryRunInvitations } from '../helpers/dry-run.js';

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
        const out = dryRunBodies(r.stdout).map((o) => ({ external_id: o.external_id, seller_external_id: o.seller_external_id, items: o.items }));
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

const COOP = 'Coopérative Agricole du Bandama';
const NOTE = 'Achat cacao n° 7, lot "Été" €';
const ORIGINS = [
  { name: COOP, country_code: 'CI', external_id: '00123', description: NOTE, location: { type: 'Point', coordinates: [-5.2897, 6.8203] } },
  { name: 'Société Kumasi Nord', country_code: 'GH', external_id: 'GH-7', description: 'deux\nlignes', location: { type: 'Point', coordinates: [-1.6244, 6.6885] } },
];
const reportRows = (file: string) => parse(readFileSync(file, 'utf8'), { columns: true }) as Array<Record<string, string>>;
const posts = (path: string) => sent().filter((q) => q.method === 'POST' && q.path === path).map((q) => JSON.parse(q.body));

describe('spreadsheet files: encodings and line ends', () => {
  it('origins import reads Excel’s "CSV UTF-8": a byte-order mark, CRLF record ends and a LF line break inside a cell', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('origins-utf8-bom-crlf.csv'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)).toMatchObject(ORIGINS);
    expect(sent()).toEqual([]);
  });

  it('origins sync reads UTF-16BE with a byte-order mark (tab-separated) without flags', async () => {
    const r = await t.sct(['origins', 'sync', '--file', fixture('origins-utf16be.txt'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { create: Array<{ external_id: string; lines: number[]; body: unknown }> };
    expect(plan.create.map((c) => [c.external_id, c.lines])).toEqual([
      ['00123', [2]],
      ['GH-7', [3]],
    ]);
    expect(plan.create.map((c) => c.body)).toMatchObject(ORIGINS);
    expect(sent()).toEqual([]);
  });

  it('orders sync refuses a Windows-1252 file without --encoding, naming the line and the flag, and reads it with the flag', async () => {
    const bad = await t.sct(['orders', 'sync', '--purchase', '--file', fixture('orders-semicolon-windows-1252.csv'), '--dry-run']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('orders-semicolon-windows-1252.csv line 2: not UTF-8 text');
    expect(bad.stderr).toContain('--encoding windows-1252');
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', fixture('orders-semicolon-windows-1252.csv'), '--encoding', 'windows-1252', '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { create: Array<{ external_id: string; body: { items: unknown[] } }> };
    expect(plan.create.map((c) => c.external_id)).toEqual(['SHEET-1']);
    expect(plan.create[0].body.items).toEqual([
      { volume: 1234.5, unit: 'kg', external_id: 'Lot n° 7 — Coopérative' },
      { volume: 12.5, unit: 't', external_id: 'Lot 8 Été' },
    ]);
    expect(sent()).toEqual([]);
  });
});

describe('spreadsheet files: every file command reads its encoding and separator', () => {
  it('invitations bulk-create: UTF-16LE "Unicode text", tab, headers "Email " and " Auth Group"; a bad row is reported, --skip-invalid sends the others with exit 3', async () => {
    const report = join(t.dir, 'people-report.csv');
    const r = await t.sct(['invitations', 'bulk-create', '--file', fixture('people-utf16le.txt'), '--report', report]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('line 4, email');
    expect(sent()).toEqual([]);
    expect(reportRows(report).map((x) => [x.line, x.status])).toEqual([['4', 'invalid']]);
    const skip = await t.sct(['invitations', 'bulk-create', '--file', fixture('people-utf16le.txt'), '--report', report, '--force', '--skip-invalid']);
    expect(skip.exitCode, skip.stderr).toBe(3);
    expect(posts('/api/accounts/user-invitations/bulk-create').flatMap((b) => b.operations)).toEqual([
      { email: 'ana.dupont@sheets.example', auth_group: 3 },
      { email: 'bjorn.weiss@sheets.example', auth_group: 3 },
    ]);
    expect(reportRows(report).map((x) => [x.line, x.status])).toEqual([
      ['2', 'created'],
      ['3', 'created'],
      ['4', 'invalid'],
    ]);
  });

  it('dds trace --file: UTF-16BE, tab, headers "DDS ID" and "Order ID"', async () => {
    const r = await t.sct(['dds', 'trace', '--file', fixture('pairs-utf16be.txt'), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts('/api/due-diligence-statements/trace-orders')).toEqual([
      { dds_id: 1, order_id: [3, 4] },
      { dds_id: 9, order_id: [3] },
    ]);
  });

  it('info-requests send: Windows-1252, ;-separated', async () => {
    const r = await t.sct(['info-requests', 'send', '--file', fixture('requests-semicolon-windows-1252.csv'), '--encoding', 'windows-1252', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts('/api/information-requests/bulk').flatMap((b) => b.information_requests)).toEqual([{ order_id: 3 }, { order_id: 4 }, { value_chain_id: 1 }]);
  });
});

describe('spreadsheet files: numbers and columns', () => {
  it('a decimal comma in a comma-separated file (a text cell of LibreOffice) is exit 2 naming the line; --decimal-comma reads it', async () => {
    const args = ['orders', 'import', '--purchase', '--file', fixture('orders-decimal-text.csv'), '--dry-run', '-o', 'json'];
    const bad = await t.sct(args);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('line 2, volume');
    expect(bad.stderr).toContain('line 3, volume');
    expect(bad.stderr).toContain('--decimal-comma');
    const r = await t.sct([...args, '--decimal-comma']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)[0].items.map((i: { volume: number }) => i.volume)).toEqual([1234.5, 12.5]);
    expect(sent()).toEqual([]);
  });

  it('a header with none of the command’s columns is exit 2 naming the columns found and the separators tried', async () => {
    const r = await t.sct(['dds', 'trace', '--file', fixture('people-utf16le.txt')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('people-utf16le.txt line 1: no known column in the header (found: email, auth_group; tried the separators , ; tab |)');
    expect(sent()).toEqual([]);
  });

  it('a column that names no field is exit 2 with the closest known name, in every file command', async () => {
    const typo = fixture('people-typo-semicolon-windows-1252.csv');
    const r = await t.sct(['invitations', 'bulk-create', '--file', typo, '--encoding', 'windows-1252', '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('people-typo-semicolon-windows-1252.csv: unknown column auth_grup (did you mean auth_group?)');
    const cases: Array<[string[], string, string]> = [
      [['dds', 'trace'], 'dds_id,order_id,oder_id\n1,3,\n', 'unknown column oder_id (did you mean order_id?)'],
      [['info-requests', 'send'], 'order_id,value_chain,note\n3,,\n', 'unknown columns value_chain (did you mean value_chain_id?), note'],
      [['origins', 'import'], 'name,country_code,latitud,longitude\nA,CI,1,2\n', 'unknown column latitud (did you mean latitude?)'],
      [['origins', 'sync'], 'external_id,name,country_code,descripton\nX,A,CI,\n', 'unknown column descripton (did you mean description?)'],
      [['orders', 'import', '--purchase'], 'external_id,type,order_created_at,seller_company_id,volum,unit\nU-1,order,2025-04-01,101,1,kg\n', 'unknown column volum (did you mean volume?)'],
      [['orders', 'sync', '--purchase'], 'external_id,type,order_created_at,seller_company_id,volume,unt\nU-1,order,2025-04-01,101,1,kg\n', 'unknown column unt (did you mean unit?)'],
    ];
    for (const [command, text, message] of cases) {
      const file = t.writeFile(`unknown-${command.join('-')}.csv`, text);
      const u = await t.sct([...command, '--file', file]);
      expect(u.exitCode, `${command.join(' ')}: ${u.stderr}`).toBe(2);
      expect(u.stderr).toContain(message);
    }
    expect(sent()).toEqual([]);
  });
});

describe('spreadsheet files: read back from -o csv', () => {
  it('invitations list -o csv reads back into invitations bulk-create: the columns the service sets are ignored with one line', async () => {
    const list = await t.sct(['invitations', 'list', '-o', 'csv', '--limit', '2']);
    expect(list.exitCode, list.stderr).toBe(0);
    const r = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('invitations.csv', list.stdout), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/invitations\.csv: ignoring \d+ columns the service sets itself \(id, /);
    const listed = parse(list.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(dryRunInvitations(r.stdout)).toEqual(listed.map((x) => ({ email: x.email, auth_group: Number(x.auth_group) })));
  });
});

describe('a row left blank, and an empty column at the right, as LibreOffice writes them', () => {
  it('a blank row (`,` or `;`) is skipped and an empty unnamed last column ignored, as in a workbook', async () => {
    for (const name of ['people-gaps.csv', 'people-gaps-semicolon.csv']) {
      const r = await t.sct(['invitations', 'bulk-create', '--file', fixture(name), '--dry-run', '-o', 'json']);
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(0);
      expect(dryRunInvitations(r.stdout).map((x) => x.email)).toEqual(['lo.one@example.com', 'lo.two@example.com']);
    }
    // A row of empty cells in any separator, quoted or not, is a blank row: the next is line 4.
    for (const text of ['email\tauth_group\nana@tabs.example\tmember\n\t\nnot-an-email\tmember\n', 'email\tauth_group\n"ana@tabs.example"\tmember\n\t\nnot-an-email\tmember\n', 'email,auth_group\nana@tabs.example,member\n"",""\nnot-an-email,member\n']) {
      const r = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('tabs.txt', text), '--dry-run']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('line 4, email');
      expect(r.stderr).not.toContain('line 3');
    }
    expect(sent()).toEqual([]);
  });

  it('a value under a column with no name is exit 2 naming its line and column', async () => {
    const r = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('beyond.csv', 'email,auth_group,\nana@x.example,member,\nben@x.example,member,oops\n'), '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('beyond.csv line 3: 3 cells, but the header has 2 columns');
    // A nameless column between named ones is a spacer, as a sheet leaves one: read when it is
    // empty, and a value in it is exit 2 naming its line and column.
    const spacer = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('middle.csv', 'email,,auth_group\nana@x.example,,member\n'), '--dry-run', '-o', 'json']);
    expect(spacer.exitCode, spacer.stderr).toBe(0);
    expect(JSON.parse(spacer.stdout)[0].body.operations).toEqual([{ email: 'ana@x.example', auth_group: 3 }]);
    const filled = await t.sct(['invitations', 'bulk-create', '--file', t.writeFile('middle2.csv', 'email,,auth_group\nana@x.example,,member\nben@x.example,note,member\n'), '--dry-run']);
    expect(filled.exitCode).toBe(2);
    expect(filled.stderr).toContain('middle2.csv line 3: column 2 has a value ("note"), but no header');
    expect(sent()).toEqual([]);
  });
});

describe('a workbook cell that holds a formula error', () => {
  it('makes its row invalid, not the file: --skip-invalid sends the others, the report names the cell; in an ignored column it is nothing', async () => {
    const report = join(t.dir, 'formula-errors.csv');
    const strict = await t.sctBin(['origins', 'import', '--file', fixture('origins-formula-errors.xlsx'), '--report', report]);
    expect(strict.exitCode, strict.stderr).toBe(2);
    expect(strict.stderr).toContain('line 3, latitude: the cell (E3) holds the error #DIV/0!');
    expect(strict.stderr).not.toContain('#N/A');
    expect(t.sb.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(readFileSync(report, 'utf8')).toMatch(/^3,line 3,invalid,,.*#DIV\/0!/m);

    const skipping = await t.sctBin(['origins', 'import', '--file', fixture('origins-formula-errors.xlsx'), '--skip-invalid', '--report', report, '--force', '-o', 'json']);
    expect(skipping.exitCode, skipping.stderr).toBe(3);
    const sent = t.sb.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body).external_id);
    expect(sent).toEqual(['DX1', 'DX3']);
  });
});
