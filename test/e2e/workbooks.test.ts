// Workbooks read directly (test/fixtures/sheets/workbook.xlsx and .ods, written by LibreOffice from
// source-workbook.fods; see test/fixtures/README.md): the first sheet or --sheet, text cells kept
// as text, numbers as numbers, dates as YYYY-MM-DD, formulas by their value, the sheet's own row
// numbers in every message; any other binary file refused, saying what it looks like.
import { describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { utils, write } from '@e965/xlsx';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';
import { dryRunBodies } from '../helpers/dry-run.js';

const t = useSandbox({}, { inProcess: true });

/** An .xlsx of the sheets given, each its rows of cells, as SheetJS writes one. */
function xlsxOf(sheets: Record<string, unknown[][]>): Buffer {
  const book = utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) utils.book_append_sheet(book, utils.aoa_to_sheet(rows), name);
  return Buffer.from(write(book, { type: 'buffer', bookType: 'xlsx' }));
}
const fixture = (name: string) => join(__dirname, '..', 'fixtures', 'sheets', name);
const sent = () => t.sb.requests.filter((q) => q.method !== 'GET');
const WORKBOOKS = ['workbook.xlsx', 'workbook.ods'];
const SHEETS = 'Orders, Origins, People, Bad origins, Errors';

/** The first sheet, Orders: a date cell in two formats, formula volumes, item ids with leading zeros, a blank row 4. */
const ORDERS = [
  {
    external_id: 'WB-1',
    type: 'order',
    order_created_at: '2025-04-01',
    seller_company_id: 101,
    items: [
      { volume: 1234.5, unit: 'kg', external_id: '00123' },
      { volume: 12.5, unit: 't', external_id: 'Lot 8 Été — Coopérative' },
    ],
  },
  { external_id: 'WB-2', type: 'order', order_created_at: '2025-12-31', seller_company_id: 101, items: [{ volume: 25, unit: 'kg', external_id: '00456' }] },
];

/** The Origins sheet: a text id with leading zeros, accents, a quote and €, a line break, a ROUND() longitude. */
const ORIGINS = [
  {
    external_id: '00123',
    name: 'Coopérative Agricole du Bandama',
    country_code: 'CI',
    description: 'Achat cacao n° 7, lot "Été" €',
    location: { type: 'Point', coordinates: [-5.2897, 6.8203] },
  },
  { external_id: 'GH-7', name: 'Société Kumasi Nord', country_code: 'GH', description: 'deux\nlignes', location: { type: 'Point', coordinates: [-1.6244, 6.6885] } },
];

describe('workbooks: values', () => {
  it.each(WORKBOOKS)('orders import --dry-run of %s reads the first sheet: dates, numbers, formulas, text with leading zeros', async (name) => {
    const r = await t.sct(['orders', 'import', '--purchase', '--file', fixture(name), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sent()).toEqual([]);
    expect(dryRunBodies(r.stdout)).toEqual(ORDERS);
    expect(r.stderr).toContain(`${name}: 2 purchase orders from 3 rows, all valid`);
  });

  it.each(['dates.xlsx', 'dates.ods'])('%s: a date cell formatted as a day is that day, whatever time it holds; one formatted with a time keeps it', async (name) => {
    const r = await t.sct(['orders', 'import', '--purchase', '--file', fixture(name), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const bodies = dryRunBodies(r.stdout) as Array<Record<string, unknown>>;
    expect(bodies.map((b) => [b.external_id, b.order_created_at, b.signed_off_at])).toEqual([
      // 10:30 and 23:59:59.7 behind a yyyy-mm-dd format: the day shown, never the next one.
      ['PO-X', '2026-03-01', undefined],
      ['PO-Y', '2026-03-01', undefined],
      ['PO-Z', '2026-03-02', '2026-03-02T08:15:30'],
    ]);
  });

  it.each(WORKBOOKS)('the report of an import of %s names the sheet rows the orders came from (row 4 is blank)', async (name) => {
    const report = join(t.dir, 'report.csv');
    const r = await t.sct(['orders', 'import', '--purchase', '--file', fixture(name), '--report', report, '--fresh']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = parse(readFileSync(report, 'utf8')) as string[][];
    expect(rows.map((row) => row.slice(0, 3))).toEqual([
      ['line', 'key', 'status'],
      ['2 3', 'WB-1', 'created'],
      ['5', 'WB-2', 'created'],
    ]);
    // The next workbook, and the tests after, create the same orders.
    for (const [, , , id] of rows.slice(1)) expect((await t.sct(['orders', 'delete', id!, '--yes'])).exitCode).toBe(0);
  });

  it('dates stay the dates of the sheet whatever the time zone sct runs in', async () => {
    for (const TZ of ['Pacific/Kiritimati', 'America/Los_Angeles']) {
      for (const name of WORKBOOKS) {
        const r = await t.sctBin(['orders', 'import', '--purchase', '--file', fixture(name), '--dry-run', '-o', 'json'], { env: { TZ } });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(dryRunBodies(r.stdout).map((o) => o.order_created_at)).toEqual(['2025-04-01', '2025-12-31']);
      }
    }
  });

  it('the built sct, the reader bundled in a chunk of its own, imports the orders of an .xlsx', async () => {
    const r = await t.sctBin(['orders', 'import', '--purchase', '--file', fixture('workbook.xlsx')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sent().map((q) => JSON.parse(q.body))).toMatchObject(ORDERS);
  });

  it('orders sync of the .ods: what it creates, a second sync finds unchanged (the values read equal what the service has)', async () => {
    const first = await t.sct(['orders', 'sync', '--purchase', '--file', fixture('workbook.ods'), '--yes']);
    expect(first.exitCode, first.stderr).toBe(0);
    // The .xlsx import above may have created them already: then there is nothing to write.
    for (const q of sent()) expect([q.method, JSON.parse(q.body).external_id]).toEqual(['POST', expect.stringMatching(/^WB-[12]$/)]);
    t.sb.requests.length = 0;
    const again = await t.sct(['orders', 'sync', '--purchase', '--file', fixture('workbook.xlsx'), '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 to create, 0 to update, 2 unchanged');
    expect(sent()).toEqual([]);
  });

  it('origins import --sheet Origins of an .xlsx sends the text unchanged; the .ods reads the same', async () => {
    const ods = await t.sct(['origins', 'import', '--file', fixture('workbook.ods'), '--sheet', 'Origins', '--dry-run', '-o', 'json']);
    expect(ods.exitCode, ods.stderr).toBe(0);
    expect(dryRunBodies(ods.stdout)).toEqual(ORIGINS);
    const r = await t.sct(['origins', 'import', '--file', fixture('workbook.xlsx'), '--sheet', 'Origins']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sent().map((q) => JSON.parse(q.body))).toEqual(ORIGINS);
  });

  it('origins sync of an .ods sheet plans and creates what the sheet has', async () => {
    const file = join(t.dir, 'sync-origins.ods');
    copyFileSync(fixture('workbook.ods'), file);
    const plan = await t.sct(['origins', 'sync', '--file', file, '--sheet', 'Bad origins', '--skip-invalid', '--dry-run', '-o', 'json']);
    // As the real sync below ends: a row left out is exit 3.
    expect(plan.exitCode, plan.stderr).toBe(3);
    expect(plan.stderr).toContain('sync-origins.ods: 1 invalid row left out (--skip-invalid): 5');
    expect(plan.stderr).toContain('plan for origins: 1 to create, 0 to update');
    const r = await t.sct(['origins', 'sync', '--file', file, '--sheet', 'Bad origins', '--skip-invalid', '--yes']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(sent().map((q) => [q.method, JSON.parse(q.body)])).toMatchObject([['POST', { external_id: 'B-1', name: 'Plantation Élise', location: { coordinates: [-5.2, 6.8] } }]]);
  });

  it('invitations bulk-create --sheet People of an .ods invites the people of that sheet', async () => {
    const r = await t.sct(['invitations', 'bulk-create', '--file', fixture('workbook.ods'), '--sheet', 'People']);
    expect(r.exitCode, r.stderr).toBe(0);
    const [body] = sent().map((q) => JSON.parse(q.body));
    expect(body.operations.map((o: { email: string }) => o.email)).toEqual(['ana.lopez@example.com', 'bo.chen@example.com']);
  });

  it('dds trace --file and info-requests send read a workbook too (their columns are not in this one)', async () => {
    const dds = await t.sct(['dds', 'trace', '--file', fixture('workbook.xlsx'), '--sheet', 'People']);
    expect(dds.exitCode).toBe(2);
    expect(dds.stderr).toContain('workbook.xlsx: missing columns dds_id, order_id (found: email, auth_group)');
    const info = await t.sct(['info-requests', 'send', '--file', fixture('workbook.ods'), '--sheet', 'People']);
    expect(info.exitCode).toBe(2);
    expect(info.stderr).toContain('workbook.ods');
    expect(info.stderr).toContain('email, auth_group');
    expect(sent()).toEqual([]);
  });

  it('a workbook is recognised by its content, whatever its name', async () => {
    const asCsv = join(t.dir, 'orders.csv');
    copyFileSync(fixture('workbook.ods'), asCsv);
    const r = await t.sct(['orders', 'import', '--purchase', '--file', asCsv, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)).toEqual(ORDERS);
    const piped = await t.sct(['origins', 'import', '--file', '-', '--sheet', 'Origins', '--dry-run', '-o', 'json'], { input: readFileSync(fixture('workbook.xlsx')) });
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(dryRunBodies(piped.stdout)).toMatchObject(ORIGINS);
  });

  it('the origins.xlsx LibreOffice wrote from a CSV reads as the CSV does', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('origins.xlsx'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)).toMatchObject(ORIGINS);
  });
});

describe('workbooks: errors name the sheet row', () => {
  it.each(WORKBOOKS)('%s: an invalid row 5 (after two blank rows) is line 5 on stderr and in the --report; nothing is sent', async (name) => {
    const report = join(t.dir, `report-${name}.csv`);
    const r = await t.sct(['origins', 'import', '--file', fixture(name), '--sheet', 'Bad origins', '--report', report]);
    expect(r.exitCode).toBe(2);
    expect(sent()).toEqual([]);
    expect(r.stderr).toContain(`${name}: 1 invalid row; nothing was sent`);
    expect(r.stderr).toMatch(/line 5, name/);
    expect(r.stderr).toMatch(/line 5, longitude/);
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => [x.line, x.status])).toEqual([['5', 'invalid']]);
  });

  it('--skip-invalid sends row 2 and reports row 5, exit 3', async () => {
    const report = join(t.dir, 'skip.csv');
    const r = await t.sct(['origins', 'import', '--file', fixture('workbook.xlsx'), '--sheet', 'Bad origins', '--skip-invalid', '--report', report]);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(sent().map((q) => JSON.parse(q.body).external_id)).toEqual(['B-1']);
    const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((x) => [x.line, x.status])).toEqual([
      ['2', 'created'],
      ['5', 'invalid'],
    ]);
  });

  it.each(WORKBOOKS)('%s: a formula error cell makes its row invalid (exit 2), naming its cell and the error', async (name) => {
    const r = await t.sct(['origins', 'import', '--file', fixture(name), '--sheet', 'Errors', '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${name}: 1 invalid row; nothing was sent`);
    expect(r.stderr).toContain('line 2, latitude: the cell (D2) holds the error #DIV/0!');
    expect(r.stderr).toContain('--skip-invalid sends the valid rows');
  });

  it.each(WORKBOOKS)('%s: an unknown --sheet is exit 2 listing the sheets', async (name) => {
    const r = await t.sct(['origins', 'import', '--file', fixture(name), '--sheet', 'Plots']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${name} has no sheet "Plots" (its sheets: ${SHEETS})`);
    expect(sent()).toEqual([]);
  });

  it.each(WORKBOOKS)('%s: --sheet in another case finds the one sheet of that name', async (name) => {
    const exact = await t.sct(['origins', 'import', '--file', fixture(name), '--sheet', 'Errors', '--dry-run']);
    const folded = await t.sct(['origins', 'import', '--file', fixture(name), '--sheet', 'errors', '--dry-run']);
    expect(folded.exitCode).toBe(exact.exitCode);
    expect(folded.stderr).toBe(exact.stderr);
  });
});

describe('workbooks: refusals', () => {
  it.each([
    ['workbook.xls', 'an old Excel (.xls) workbook'],
    ['workbook.pdf', 'a PDF'],
    ['image.png', 'a PNG image'],
    ['workbook-html.xls', 'an HTML page'],
    ['workbook-2003.xml', 'an Excel 2003 XML spreadsheet'],
  ])('%s is exit 2: it looks like %s', async (name, kind) => {
    for (const args of [
      ['invitations', 'bulk-create', '--file', fixture(name)],
      ['info-requests', 'send', '--file', fixture(name)],
      ['orders', 'sync', '--purchase', '--file', fixture(name), '--yes'],
    ]) {
      const r = await t.sct(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${name} is not a CSV file or a workbook: it looks like ${kind}`);
    }
    expect(sent()).toEqual([]);
  });

  it('a ZIP that is not a workbook is exit 2 saying so', async () => {
    const zip = join(t.dir, 'plots.xlsx');
    copyFileSync(join(__dirname, '..', 'fixtures', 'geo', 'plots-shp.zip'), zip);
    const r = await t.sct(['dds', 'trace', '--file', zip]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('plots.xlsx is not a CSV file or a workbook: it looks like a ZIP archive (neither an .xlsx nor an .ods workbook)');
    expect(sent()).toEqual([]);
  });

  it('origins import and sync name a ZIP that is neither a workbook nor plots, or a damaged one, as the other commands do', async () => {
    const zip = join(t.dir, 'people.xlsx');
    writeFileSync(zip, zipSync({ 'notes.txt': strToU8('hello') }));
    const cut = join(t.dir, 'cut.xlsx');
    writeFileSync(cut, readFileSync(fixture('workbook.xlsx')).subarray(0, 3000));
    for (const [file, kind] of [[zip, 'a ZIP archive (neither an .xlsx nor an .ods workbook)'], [cut, 'a damaged ZIP archive']] as const) {
      for (const args of [['origins', 'import', '--file', file, '--dry-run'], ['origins', 'sync', '--file', file, '--dry-run']]) {
        const r = await t.sct(args);
        expect(r.exitCode, args.join(' ')).toBe(2);
        expect(r.stderr).toContain(`is not a CSV file or a workbook: it looks like ${kind}`);
        expect(r.stderr).not.toContain('not a plot file');
      }
    }
    expect(sent()).toEqual([]);
  });

  it('a workbook whose bytes do not match its checksum (a damaged copy) is exit 2 naming the part, never read into other values', async () => {
    // Stored uncompressed, one digit changed: what a bad disk or a cut download leaves, which
    // inflates (or reads) without complaint into another latitude.
    const members = unzipSync(readFileSync(fixture('origins.xlsx')));
    const stored = Buffer.from(zipSync(members, { level: 0 }));
    const at = stored.indexOf('<v>6.8203</v>');
    expect(at).toBeGreaterThan(0);
    stored[at + 3] = '7'.charCodeAt(0);
    const bad = join(t.dir, 'damaged.xlsx');
    writeFileSync(bad, stored);
    const r = await t.sct(['origins', 'import', '--file', bad, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stdout).toBe(2);
    expect(r.stderr).toMatch(/damaged\.xlsx is damaged: its part xl\/worksheets\/sheet1\.xml does not match the checksum the archive records \(CRC-32\)/);
    expect(r.stdout).not.toContain('7.8203');
    expect(sent()).toEqual([]);
  });

  it('a workbook whose first sheet is empty names it and the others, rather than "no data rows"', async () => {
    const { utils, write } = await import('@e965/xlsx');
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet([]), 'Cover');
    utils.book_append_sheet(book, utils.aoa_to_sheet([['name', 'country_code', 'latitude', 'longitude'], ['Farm', 'GH', 6.5, -1.5]]), 'Plots');
    const file = join(t.dir, 'cover.xlsx');
    writeFileSync(file, write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('cover.xlsx: its first sheet, "Cover", is empty (its sheets: Cover, Plots)');
    expect(r.stderr).toContain('hint: give --sheet NAME to read another');
    const named = await t.sct(['origins', 'import', '--file', file, '--sheet', 'plots', '--dry-run']);
    expect(named.exitCode, named.stderr).toBe(0);
  });

  it('a first sheet of instructions, or a title above the header, is refused naming the sheet and row read as the header, the sheets, and --sheet', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('read-me-first.xlsx'), '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('read-me-first.xlsx: missing columns name, country_code (found: how_to_fill_in_this_template); the header is row 1 of its first sheet, "Read me" (its sheets: Read me, Origins)');
    expect(r.stderr).toContain('hint: give --sheet NAME to read another sheet');
    // A command that requires no one column says it the same way.
    const info = await t.sct(['info-requests', 'send', '--file', fixture('read-me-first.xlsx'), '--dry-run']);
    expect(info.exitCode).toBe(2);
    expect(info.stderr).toContain('read-me-first.xlsx: no known column in the header (found: how_to_fill_in_this_template); the header is row 1 of its first sheet, "Read me" (its sheets: Read me, Origins)');
    const sheet = await t.sct(['origins', 'import', '--file', fixture('read-me-first.xlsx'), '--sheet', 'Origins', '--dry-run']);
    expect(sheet.exitCode, sheet.stderr).toBe(0);
    const title = await t.sct(['origins', 'import', '--file', fixture('title-row.xlsx'), '--dry-run']);
    expect(title.exitCode).toBe(2);
    expect(title.stderr).toContain('title-row.xlsx: missing columns name, country_code (found: supplier_plots_q4_2026); the header is row 1 of its only sheet, "Plots"');
    expect(title.stderr).toContain("hint: sct reads a sheet's first row that is not blank as its header: delete any title rows above the header");
    expect(title.stderr).not.toContain('--sheet');
    // A real header that lacks a column is said as a CSV's is: no other sheet or title row to look for.
    const file = t.writeFile('lacking.xlsx', xlsxOf({ Origins: [['name', 'latitude', 'longitude', 'external_id'], ['Farm', 6.8, -5.2, 'F-1']], Lists: [['countries'], ['CI']] }));
    const lacking = await t.sct(['origins', 'import', '--file', file, '--dry-run']);
    expect(lacking.exitCode).toBe(2);
    expect(lacking.stderr).toContain('lacking.xlsx: missing column country_code (found: name, latitude, longitude, external_id)');
    expect(lacking.stderr).not.toContain('title rows');
    expect(lacking.stderr).not.toContain('--sheet');
    expect(sent()).toEqual([]);
  });

  it('--sheet on a CSV file, and --encoding or --delimiter on a workbook, are exit 2', async () => {
    const csv = await t.sct(['origins', 'import', '--file', fixture('origins-utf8.csv'), '--sheet', 'Origins']);
    expect(csv.exitCode).toBe(2);
    expect(csv.stderr).toContain('--sheet: origins-utf8.csv is a CSV file, not a workbook');
    const enc = await t.sct(['origins', 'import', '--file', fixture('workbook.xlsx'), '--sheet', 'Origins', '--encoding', 'windows-1252']);
    expect(enc.exitCode).toBe(2);
    expect(enc.stderr).toContain('--encoding: workbook.xlsx is a workbook (an .xlsx); its text is read as it is stored');
    const sep = await t.sct(['orders', 'import', '--purchase', '--file', fixture('workbook.ods'), '--delimiter', ';']);
    expect(sep.exitCode).toBe(2);
    expect(sep.stderr).toContain('--delimiter: workbook.ods is a workbook (an .ods)');
    expect(sent()).toEqual([]);
  });
});

// `origins list -o csv` opened in LibreOffice (or Excel) and saved as a workbook: the `'` sct puts
// before a formula-like text is kept there as text (LibreOffice shows it), and a text's spaces at
// either end were quoted in the CSV and stay in the cell. Read back, both are what the service
// holds: a sync plans nothing, however many times the file goes round.
describe('workbooks: a CSV export saved by LibreOffice reads back as exported', () => {
  const ORIGINS_GUARDED = [
    { external_id: 'RT-A', name: '=HYPERLINK("http://x","y")', description: '+32 2 555 01 01' },
    { external_id: '-RT-E', name: '-10 farm', description: '  indented text' },
    { external_id: 'RT-T', name: 'Tab farm', description: '\ttab first' },
  ];

  it.each(['origins-guarded.xlsx', 'origins-guarded.ods'])('%s: the guard comes off, the spaces stay; origins sync plans nothing', async (name) => {
    for (const o of ORIGINS_GUARDED) {
      const r = await t.sct(['origins', 'create', '--country-code', 'BE', '--location', '50.85,4.35', '--name', o.name, '--external-id', o.external_id, '--description', o.description]);
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const sync = await t.sct(['origins', 'sync', '--file', fixture(name), '--dry-run', '-o', 'json']);
    expect(sync.exitCode, sync.stderr).toBe(0);
    const plan = JSON.parse(sync.stdout);
    expect(plan.create).toEqual([]);
    expect(plan.update).toEqual([]);
    const imported = await t.sct(['origins', 'import', '--file', fixture(name), '--dry-run', '-o', 'json']);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(dryRunBodies(imported.stdout).map((b) => { const o = b as { external_id: string; name: string; description: string }; return { external_id: o.external_id, name: o.name, description: o.description }; })).toEqual(ORIGINS_GUARDED);
  });

  it('a CSV file Excel saved (CRLF) with rows added by `echo >>` (LF) reads every row on its own line, through the binary', async () => {
    const file = t.writeFile('people-mixed.csv', 'email,auth_group\r\n"a@x.example",member\r\nb@x.example,admin\nc@x.example,member\n');
    const r = await t.sctBin(['invitations', 'bulk-create', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toMatch(/a@x\.example.*b@x\.example.*c@x\.example/);
  });

  it('a number cell whose format pads it with zeros (00000, the usual way to keep an id\'s zeros) is read as shown: 00123', async () => {
    for (const name of ['origins-zero-padded.xlsx', 'origins-zero-padded.ods']) {
      const r = await t.sct(['origins', 'import', '--file', fixture(name), '--dry-run', '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(dryRunBodies(r.stdout).map((b) => (b as { external_id: string }).external_id), name).toEqual(['00123', '45']);
    }
  });

  it('a whole column formatted 00000 (an .ods keeps the format on the column, not on each cell) is read as shown, as the .xlsx is', async () => {
    for (const name of ['column-formats.xlsx', 'column-formats.ods']) {
      const r = await t.sct(['origins', 'import', '--file', fixture(name), '--dry-run', '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(dryRunBodies(r.stdout).map((b) => (b as { external_id: string }).external_id), name).toEqual(['00123', '00045']);
    }
  });

  it('a date-time column (yyyy-mm-dd hh:mm on the column of an .ods) keeps its time of day: signed_off_at is taken, a text column gets the time', async () => {
    for (const name of ['column-formats.xlsx', 'column-formats.ods']) {
      const origins = await t.sct(['origins', 'import', '--file', fixture(name), '--dry-run', '-o', 'json']);
      expect(origins.exitCode, origins.stderr).toBe(0);
      expect(dryRunBodies(origins.stdout)[0]!.description, name).toBe('2026-11-25T10:30:00');
      // Row 3 holds midnight, the test after this one.
      const orders = await t.sct(['orders', 'import', '--purchase', '--sheet', 'Orders', '--file', fixture(name), '--dry-run', '-o', 'json', '--skip-invalid']);
      expect(orders.stderr, name).not.toContain('line 2, signed_off_at');
      expect(dryRunBodies(orders.stdout).find((b) => b.external_id === 'PO-T1')?.signed_off_at, name).toBe('2026-11-25T10:30:00');
    }
  });

  it('cells in the built-in formats a file names by number alone (currency 8, accounting 44, East Asian dates 30 and 57, as openpyxl and Excel in Chinese or Japanese write them) are read, not the sheet lost', async () => {
    const r = await t.sct(['orders', 'import', '--purchase', '--file', fixture('builtin-formats.xlsx'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)).toMatchObject([
      { external_id: 'BF-1', order_created_at: '2025-04-01', items: [{ volume: 1250.5 }] },
      { external_id: 'BF-2', order_created_at: '2025-04-02', items: [{ volume: 7 }] },
    ]);
  });

  it('a value under a column without a header, in a sheet whose columns start at B, is named by its cell', async () => {
    const file = t.writeFile('spacer.xlsx', xlsxOf({ People: [[null, 'email', null, 'auth_group'], [null, 'spacer@example.org', 'note', '3']] }));
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('spacer.xlsx line 2: cell C2 has a value ("note"), but no header');
  });

  it('a column given twice, in a sheet whose columns start at B, is named by its cells', async () => {
    const file = t.writeFile('twice.xlsx', xlsxOf({ People: [[null, 'email', 'auth_group', 'Email'], [null, 'twice@example.org', 'member', 'twice@example.org']] }));
    const r = await t.sct(['invitations', 'bulk-create', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('twice.xlsx line 1: cells B1 ("email") and D1 ("Email") are the same column, email');
    expect(sent()).toEqual([]);
  });

  it('a workbook saved with a password (.xlsx, .ods) is said to be one, with the way out, nothing sent', async () => {
    const xlsx = await t.sct(['origins', 'import', '--file', fixture('password.xlsx'), '--dry-run']);
    expect(xlsx.exitCode).toBe(2);
    expect(xlsx.stderr).toContain('password.xlsx is a workbook saved with a password: sct cannot open it');
    expect(xlsx.stderr).toContain('save it without a password');
    // An .ods so saved: its parts encrypted, the manifest saying how (as LibreOffice writes it).
    const ods = t.writeFile('password.ods', Buffer.from(zipSync({
      mimetype: strToU8('application/vnd.oasis.opendocument.spreadsheet'),
      'META-INF/manifest.xml': strToU8('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="1000"><manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="x"/></manifest:encryption-data></manifest:file-entry></manifest:manifest>'),
      'content.xml': new Uint8Array([1, 2, 3, 4]),
    })));
    const r = await t.sct(['origins', 'import', '--file', ods, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('password.ods is a workbook saved with a password: sct cannot open it');
    expect(sent()).toEqual([]);
  });

  it('columns left of a <dimension> that says less than the sheet holds (a writer that left it stale) are read, as Excel and LibreOffice show them', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('stale-dimension.xlsx'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)).toMatchObject([{ external_id: 'SD-1', name: 'Ferme A', description: 'Main warehouse plot' }]);
  });

  it('an id a spreadsheet saved to CSV in scientific notation (its digits lost) is exit 2 naming the line, nothing sent: never a new external_id', async () => {
    const before = sent().length;
    // LibreOffice's (the fixture) and Excel's (General format: 1.23457E+11) ways of writing a long number.
    const excel = t.writeFile('orders-excel.csv', `external_id,type,order_created_at,seller_company_id,product,volume,unit\n1.23457E+11,order,2025-04-01,101,17,100,kg\n1.23457E+11,order,2025-04-01,101,17,250,kg\n`);
    const runs = [
      ['origins', 'sync', '--file', fixture('origins-long-ids-libreoffice.csv'), '--dry-run'],
      ['origins', 'import', '--file', fixture('origins-long-ids-libreoffice.csv'), '--dry-run'],
      ['orders', 'import', '--purchase', '--file', excel, '--dry-run'],
      ['orders', 'sync', '--purchase', '--file', excel, '--dry-run'],
    ];
    for (const args of runs) {
      const r = await t.sct(args);
      expect(r.exitCode, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toMatch(/line [23], external_id: "1\.23\d*E\+0?1[18]" is a number a spreadsheet wrote in scientific notation: the id's digits are lost; format the column as text in the spreadsheet, type the ids again and save/);
    }
    // The 12-digit id LibreOffice kept whole is read as it is.
    const skipped = await t.sct(['origins', 'import', '--file', fixture('origins-long-ids-libreoffice.csv'), '--dry-run', '--skip-invalid', '-o', 'json']);
    expect(dryRunBodies(skipped.stdout).map((b) => (b as { external_id: string }).external_id)).toEqual(['123456789012']);
    // A code with an E but no sign is no number a spreadsheet wrote: read as it is.
    const code = t.writeFile('origins-code.csv', 'external_id,name,country_code,latitude,longitude\n12E3,Farm,CI,6.5,-6.0\n');
    const coded = await t.sct(['origins', 'import', '--file', code, '--dry-run', '-o', 'json']);
    expect(coded.exitCode, coded.stderr).toBe(0);
    expect(sent().length).toBe(before);
  });

  it('a number cell past 2^53 in a text column (a long numeric id saved as a number) is exit 2 naming the cell, nothing sent', async () => {
    const before = sent().length;
    for (const args of [['origins', 'sync', '--file', fixture('origins-long-id.xlsx'), '--dry-run'], ['origins', 'import', '--file', fixture('origins-long-id.xlsx'), '--dry-run']]) {
      const r = await t.sct(args);
      expect(r.exitCode, r.stdout).toBe(2);
      // The row is invalid, as a cell holding an error value makes it: --skip-invalid and --report take it.
      expect(r.stderr).toContain('line 2, external_id: the cell (A2): the number 1.23456789012346E+18 has too many digits to be read exactly');
    }
    expect(sent().length).toBe(before);
  });
});
