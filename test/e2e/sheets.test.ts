// Files as spreadsheet programs write them (test/fixtures/sheets/, made by LibreOffice; see
// test/fixtures/README.md): the encoding is read, never guessed; the separator is found from the
// header; decimal commas read in a ;-separated file; text reaches the service unchanged.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';
import { dryRunBodies, dryRunInvitations } from '../helpers/dry-run.js';

const t = useSandbox({}, { inProcess: true });
const fixture = (name: string) => join(__dirname, '..', 'fixtures', 'sheets', name);
const sent = () => t.sb.requests.filter((q) => q.method !== 'GET');

const COOP = 'Coopérative Agricole du Bandama';
const NOTE = 'Achat cacao n° 7, lot "Été" €';

/** The bodies of the requests `origins import --dry-run -o json` lists. */
async function dryRunOrigins(file: string, ...flags: string[]) {
  const r = await t.sct(['origins', 'import', '--file', fixture(file), '--dry-run', '-o', 'json', ...flags]);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(sent()).toEqual([]);
  return dryRunBodies(r.stdout);
}

const ORIGINS = [
  { name: COOP, country_code: 'CI', external_id: '00123', description: NOTE, location: { type: 'Point', coordinates: [-5.2897, 6.8203] } },
  { name: 'Société Kumasi Nord', country_code: 'GH', external_id: 'GH-7', description: 'deux\nlignes', location: { type: 'Point', coordinates: [-1.6244, 6.6885] } },
];

describe('files from spreadsheets: encodings', () => {
  it('reads UTF-8 as written: accents, a quoted comma, a line break, leading zeros', async () => {
    expect(await dryRunOrigins('origins-utf8.csv')).toMatchObject(ORIGINS);
  });

  it('refuses a Windows-1252 file without --encoding, naming the line and the flag; nothing is sent', async () => {
    const r = await t.sct(['origins', 'import', '--file', fixture('origins-windows-1252.csv')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('origins-windows-1252.csv line 2: not UTF-8 text');
    expect(r.stderr).toContain('--encoding windows-1252');
    expect(sent()).toEqual([]);
  });

  it('reads Windows-1252 and ISO-8859-15 with --encoding, and sends the text unchanged', async () => {
    expect(await dryRunOrigins('origins-windows-1252.csv', '--encoding', 'windows-1252')).toMatchObject(ORIGINS);
    expect(await dryRunOrigins('origins-iso-8859-15.csv', '--encoding', 'ISO-8859-15')).toMatchObject(ORIGINS);
    const r = await t.sct(['origins', 'import', '--file', fixture('origins-windows-1252.csv'), '--encoding', 'windows-1252']);
    expect(r.exitCode, r.stderr).toBe(0);
    const bodies = sent().map((q) => JSON.parse(q.body));
    expect(bodies).toMatchObject(ORIGINS);
    expect(JSON.stringify(bodies)).not.toContain('\ufffd');
  });

  it('reads code page 949 as Korean Excel saves it (--encoding euc-kr or windows-949): the syllables only 949 has are sent whole', async () => {
    // 똠 and 힣 are beyond EUC-KR proper: Node's own euc-kr decoder drops or refuses them.
    const { default: iconv } = await import('iconv-lite');
    const file = t.writeFile('ko.csv', iconv.encode('name,country_code,external_id,latitude,longitude\n똠방 농장,CI,힣-1,6.8203,-5.2897\n', 'cp949'));
    for (const encoding of ['euc-kr', 'windows-949']) {
      const r = await t.sct(['origins', 'import', '--file', file, '--encoding', encoding, '--dry-run', '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(dryRunBodies(r.stdout)).toMatchObject([{ name: '똠방 농장', external_id: '힣-1' }]);
    }
    expect(sent()).toEqual([]);
  });

  it('reads big5 with the Hong Kong characters as the Encoding Standard has them, and refuses bytes big5 or gbk do not define', async () => {
    const header = 'name,country_code,external_id,latitude,longitude\n';
    const hk = t.writeFile('hk.csv', Buffer.concat([Buffer.from(header), Buffer.from([0x87, 0x40]), Buffer.from(',CI,HK-1,6.8203,-5.2897\n')]));
    const read = await t.sct(['origins', 'import', '--file', hk, '--encoding', 'big5', '--dry-run', '-o', 'json']);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(dryRunBodies(read.stdout)).toMatchObject([{ name: '䏰' }]);
    // gbk's four-byte sequences the standard leaves undefined: between the planes, past U+10FFFF.
    for (const [encoding, bytes] of [['big5', [0x80]], ['gbk', [0xff]], ['gbk', [0x85, 0x30, 0x81, 0x30]], ['gbk', [0xe3, 0x32, 0x9a, 0x36]]] as const) {
      const file = t.writeFile(`bad-${encoding}.csv`, Buffer.concat([Buffer.from(header), Buffer.from([0x41, ...bytes, 0x42]), Buffer.from(',CI,X-1,6.8203,-5.2897\n')]));
      const r = await t.sct(['origins', 'import', '--file', file, '--encoding', encoding, '--dry-run']);
      expect(r.exitCode, encoding).toBe(2);
      expect(r.stderr).toContain(`bad-${encoding}.csv: not valid ${encoding} text`);
    }
    expect(sent()).toEqual([]);
  });

  it('reads UTF-16 "Unicode text" (tab-separated, with a byte-order mark) without flags', async () => {
    expect(await dryRunOrigins('origins-utf16le.txt')).toMatchObject(ORIGINS);
  });

  it('names UTF-16 text without a byte-order mark (ASCII in it is valid UTF-8 with NULs), and reads it with --encoding utf-16le', async () => {
    // Plain ASCII: as UTF-16 every other byte is a NUL, and the whole is valid UTF-8.
    const file = t.writeFile('no-bom.txt', Buffer.from('name\tcountry_code\texternal_id\nFinca\tCI\tE-3\n', 'utf16le'));
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no-bom.txt is not a CSV file or a workbook: it looks like UTF-16 text without a byte-order mark: give --encoding utf-16le');
    expect(sent()).toEqual([]);
    const read = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json', '--encoding', 'utf-16le']);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(dryRunBodies(read.stdout)).toMatchObject([{ name: 'Finca', country_code: 'CI', external_id: 'E-3' }]);
  });

  it('refuses a UTF-8 file (accents and all) given --encoding of a one-byte code page: read so, its accents would be sent changed', async () => {
    for (const encoding of ['windows-1252', 'iso-8859-15', 'latin1']) {
      const r = await t.sct(['origins', 'import', '--file', fixture('origins-utf8.csv'), '--encoding', encoding, '--dry-run']);
      expect(r.exitCode, encoding).toBe(2);
      expect(r.stderr).toContain(`origins-utf8.csv line 2 is UTF-8 text (accented letters as UTF-8 writes them), not ${encoding}`);
      expect(r.stderr).toContain('leave out --encoding');
    }
    // ASCII alone reads the same either way, and --encoding utf-8 says what the file is.
    const ascii = t.writeFile('ascii.csv', 'name,country_code,external_id,latitude,longitude\nFinca,CI,E-1,6.8203,-5.2897\n');
    expect((await t.sct(['origins', 'import', '--file', ascii, '--encoding', 'windows-1252', '--dry-run'])).exitCode).toBe(0);
    expect(await dryRunOrigins('origins-utf8.csv', '--encoding', 'utf-8')).toMatchObject(ORIGINS);
    expect(sent()).toEqual([]);
  });

  it('names the right line of a bad byte in a file whose lines end in CR alone (Excel for Mac\'s "CSV (Macintosh)")', async () => {
    const file = t.writeFile('mac.csv', Buffer.from('name,country_code,external_id,latitude,longitude\rFinca,CI,E-1,6.8203,-5.2897\rCaf\xe9,CI,E-3,6.8203,-5.2897\r', 'latin1'));
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('mac.csv line 3: not UTF-8 text');
  });

  it('a file of Excel for Mac\'s "CSV (Macintosh)" (lines ended by CR, Mac Roman) is hinted --encoding macintosh, which reads it', async () => {
    // é is 0x8E in Mac Roman, ü 0x9F, § 0xA4; as windows-1252 they would be Ž, Ÿ and ¤.
    const file = t.writeFile('mac-roman.csv', Buffer.from([...Buffer.from('name,country_code,external_id,latitude,longitude\rCaf'), 0x8e, ...Buffer.from(' M'), 0x9f, ...Buffer.from('ller,CI,MAC-1,6.8203,-5.2897\r')]));
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--encoding macintosh');
    const read = await t.sct(['origins', 'import', '--file', file, '--encoding', 'macintosh', '--dry-run', '-o', 'json']);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(dryRunBodies(read.stdout)).toMatchObject([{ name: 'Café Müller' }]);
  });

  it('refuses an unknown --encoding, and a binary file whatever --encoding says, saying what it is', async () => {
    const bad = await t.sct(['origins', 'import', '--file', fixture('origins-utf8.csv'), '--encoding', 'klingon']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--encoding klingon: not an encoding sct knows');
    const xls = await t.sct(['invitations', 'bulk-create', '--file', fixture('workbook.xls'), '--encoding', 'windows-1252', '--dry-run']);
    expect(xls.exitCode).toBe(2);
    expect(xls.stderr).toContain('workbook.xls is not a CSV file or a workbook: it looks like an old Excel (.xls) workbook');
    expect(sent()).toEqual([]);
  });
});

describe('files from spreadsheets: separators and decimal commas', () => {
  it('a first line sep=; (Excel\'s note of the separator) is skipped and its separator used; lines keep their numbers', async () => {
    const file = t.writeFile('sep-line.csv', 'sep=;\r\nname;country_code;external_id;latitude;longitude\r\nCafé;CI;SEP-1;6,820312;-5,289734\r\n');
    const read = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(dryRunBodies(read.stdout)).toEqual([{ name: 'Café', country_code: 'CI', external_id: 'SEP-1', location: { type: 'Point', coordinates: [-5.289734, 6.820312] } }]);
    const quoted = t.writeFile('sep-quoted.csv', '"sep=,"\nname,country_code,external_id\n"Finca, alta",CI,SEP-2\nBad,XX,SEP-3\n');
    const r = await t.sct(['origins', 'import', '--file', quoted, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/line 4, country_code/);
    expect(r.stderr).not.toContain('line 3');
  });

  it('finds the ; of a German LibreOffice file and reads its decimal commas', async () => {
    expect(await dryRunOrigins('origins-semicolon-windows-1252.csv', '--encoding', 'windows-1252')).toMatchObject(ORIGINS);
  });

  it('a number whose dot cannot group thousands (0.001) is a decimal point even in a ;-separated file', async () => {
    const file = t.writeFile('semicolon-small.csv', 'name;country_code;latitude;longitude\nFerme Petite;GH;6,8;-0.001\n');
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)[0].location).toEqual({ type: 'Point', coordinates: [-0.001, 6.8] });
  });

  it('in a ;-separated file, "1.234" alone (1234 with decimal commas, 1.234 as LibreOffice in English writes it) is exit 2 naming the line; --decimal-comma reads 1234', async () => {
    const file = t.writeFile('semicolon-points.csv', 'external_id;type;order_created_at;seller_company_id;volume;unit\nSP-1;order;2025-04-01;101;1250.5;kg\nSP-1;order;2025-04-01;101;1.234;kg\n');
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('line 3, volume: "1.234" reads as 1234 with a decimal comma and as 1.234 with a decimal point');
    const comma = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '-o', 'json', '--decimal-comma']);
    expect(comma.exitCode, comma.stderr).toBe(0);
    expect(dryRunBodies(comma.stdout)[0].items).toEqual([{ volume: 1250.5, unit: 'kg' }, { volume: 1234, unit: 'kg' }]);
    // Grouped twice, or with its decimal comma, a number reads one way only.
    const plain = t.writeFile('semicolon-grouped.csv', 'external_id;type;order_created_at;seller_company_id;volume;unit\nSP-2;order;2025-04-01;101;1.234,5;kg\nSP-2;order;2025-04-01;101;1.234.567;kg\n');
    const ok = await t.sct(['orders', 'import', '--purchase', '--file', plain, '--dry-run', '-o', 'json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(dryRunBodies(ok.stdout)[0].items).toEqual([{ volume: 1234.5, unit: 'kg' }, { volume: 1234567, unit: 'kg' }]);
    expect(sent()).toEqual([]);
  });

  it('in a ;-separated file, "1,250" alone (1.25 with decimal commas, 1250 as LibreOffice in English groups it) is exit 2 naming the line; --decimal-comma reads 1.25', async () => {
    const file = t.writeFile('semicolon-grouping.csv', 'external_id;type;order_created_at;seller_company_id;volume;unit\nSG-1;order;2025-04-01;101;980;kg\nSG-1;order;2025-04-01;101;1,250;kg\nSG-1;order;2025-04-01;101;12,500,000;kg\n');
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('line 3, volume: "1,250" reads as 1.25 with a decimal comma and as 1250 with a comma grouping thousands');
    expect(r.stderr).toContain('write 1,25 or 1250');
    const comma = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '-o', 'json', '--decimal-comma']);
    expect(comma.exitCode).toBe(2);
    // With decimal commas, commas grouping twice are no number.
    expect(comma.stderr).toContain('line 4, volume');
    const fixed = t.writeFile('semicolon-grouping-fixed.csv', 'external_id;type;order_created_at;seller_company_id;volume;unit\nSG-2;order;2025-04-01;101;980;kg\nSG-2;order;2025-04-01;101;1250;kg\nSG-2;order;2025-04-01;101;12,500,000;kg\n');
    const ok = await t.sct(['orders', 'import', '--purchase', '--file', fixed, '--dry-run', '-o', 'json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(dryRunBodies(ok.stdout)[0].items).toEqual([{ volume: 980, unit: 'kg' }, { volume: 1250, unit: 'kg' }, { volume: 12500000, unit: 'kg' }]);
    expect(sent()).toEqual([]);
  });

  it('in a ;-separated file, coordinates with three decimals ("5,350", "-4.020") read as the only reading a latitude or longitude can have', async () => {
    const file = t.writeFile('semicolon-coords.csv', 'name;country_code;latitude;longitude\nFarm A;CI;5,350;-4,020\nFarm B;CI;6.800;-5.250\n');
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout).map((b) => b.location)).toEqual([
      { type: 'Point', coordinates: [-4.02, 5.35] },
      { type: 'Point', coordinates: [-5.25, 6.8] },
    ]);
    expect(sent()).toEqual([]);
  });

  it('reads a US sheet\'s grouped volume ("1,250.50") in a comma-separated file as 1250.5', async () => {
    const product = (await t.api('/products?limit=1')).results[0].id;
    const file = t.writeFile('us-grouping.csv', `external_id,type,order_created_at,seller_company_id,product,volume,unit\nUS-1,order,2025-04-01,101,${product},"1,250.50",kg\n`);
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout)[0].items[0].volume).toBe(1250.5);
  });

  it('reads an order volume of 1234,5 from a ;-separated file as 1234.5', async () => {
    const r = await t.sct(['orders', 'import', '--purchase', '--file', fixture('orders-semicolon-windows-1252.csv'), '--encoding', 'windows-1252', '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const [order] = dryRunBodies(r.stdout);
    expect(order.items).toEqual([
      { volume: 1234.5, unit: 'kg', external_id: 'Lot n° 7 — Coopérative' },
      { volume: 12.5, unit: 't', external_id: 'Lot 8 Été' },
    ]);
  });

  it('refuses a decimal comma in a comma-separated file unless --decimal-comma, naming the line', async () => {
    const file = t.writeFile('orders.csv', 'external_id,type,order_created_at,seller_company_id,volume,unit\nDC-1,order,2025-04-01,101,"1,234",kg\n');
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('line 2, volume');
    expect(r.stderr).toContain('--decimal-comma');
    const ok = await t.sct(['orders', 'import', '--purchase', '--file', file, '--dry-run', '-o', 'json', '--decimal-comma']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(dryRunBodies(ok.stdout)[0].items).toEqual([{ volume: 1.234, unit: 'kg' }]);
    expect(sent()).toEqual([]);
  });

  it('in a tab- or |-separated file, which settles neither convention, 1.250 is exit 2 naming the line; 1.25 is read', async () => {
    for (const sep of ['\t', '|']) {
      const row = (volume: string) => ['external_id', 'type', 'order_created_at', 'seller_company_id', 'volume', 'unit'].join(sep) + `\nT-2${sep}order${sep}2025-04-01${sep}101${sep}${volume}${sep}kg\n`;
      const bad = await t.sct(['orders', 'import', '--purchase', '--file', t.writeFile('tab.csv', row('1.250')), '--dry-run', '-o', 'json']);
      expect(bad.exitCode, JSON.stringify(sep)).toBe(2);
      expect(bad.stderr).toContain('line 2, volume: "1.250" reads as 1.25 with a decimal point and as 1250 with a decimal comma');
      const ok = await t.sct(['orders', 'import', '--purchase', '--file', t.writeFile('tab.csv', row('1.25')), '--dry-run', '-o', 'json']);
      expect(ok.exitCode, ok.stderr).toBe(0);
      expect(dryRunBodies(ok.stdout)[0].items).toEqual([{ volume: 1.25, unit: 'kg' }]);
      // What it offers to write reads one way only: 1.234 as itself would be refused again.
      const same = await t.sct(['orders', 'import', '--purchase', '--file', t.writeFile('tab.csv', row('1.234')), '--dry-run', '-o', 'json']);
      expect(same.stderr).toContain('write 1.2340 or 1234,');
      // Two groups of dots are no decimal point: thousands, the one reading.
      const grouped = await t.sct(['orders', 'import', '--purchase', '--file', t.writeFile('tab.csv', row('12.500.000')), '--dry-run', '-o', 'json']);
      expect(grouped.exitCode, grouped.stderr).toBe(0);
      expect(dryRunBodies(grouped.stdout)[0].items).toEqual([{ volume: 12500000, unit: 'kg' }]);
      const comma = await t.sct(['orders', 'import', '--purchase', '--file', t.writeFile('tab.csv', row('1.250')), '--dry-run', '-o', 'json', '--decimal-comma']);
      expect(comma.exitCode, comma.stderr).toBe(0);
      expect(dryRunBodies(comma.stdout)[0].items).toEqual([{ volume: 1250, unit: 'kg' }]);
    }
    // A comma-separated file settles it: a decimal point.
    const csv = await t.sct(['orders', 'import', '--purchase', '--file', t.writeFile('c.csv', 'external_id,type,order_created_at,seller_company_id,volume,unit\nT-3,order,2025-04-01,101,1.250,kg\n'), '--dry-run', '-o', 'json']);
    expect(csv.exitCode, csv.stderr).toBe(0);
    expect(dryRunBodies(csv.stdout)[0].items).toEqual([{ volume: 1.25, unit: 'kg' }]);
    expect(sent()).toEqual([]);
  });

  it('a misspelt required column is named with the closest known one', async () => {
    const r = await t.sct(['dds', 'trace', '--file', t.writeFile('pairs.csv', 'dds_id,order\n1,5\n')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('pairs.csv: missing column order_id (found: dds_id, order); unknown column order (did you mean order_id?)');
    expect(sent()).toEqual([]);
  });

  it('a --delimiter that splits the header into no known column names the separator tried', async () => {
    const file = t.writeFile('trace.csv', 'dds_id;order_id\n1;5\n');
    const r = await t.sct(['dds', 'trace', '--file', file, '--delimiter', ',']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('trace.csv line 1: no known column in the header (found: dds_id;order_id; tried the separator ",", from --delimiter)');
    expect(sent()).toEqual([]);
  });

  it('--delimiter sets the separator; a header with no known column says what was found', async () => {
    const piped = t.writeFile('people.csv', 'email|auth_group\nana@sheets.example|3\n');
    const r = await t.sct(['invitations', 'bulk-create', '--file', piped, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunInvitations(r.stdout)).toEqual([{ email: 'ana@sheets.example', auth_group: 3 }]);
    const given = await t.sct(['invitations', 'bulk-create', '--file', piped, '--delimiter', ';', '--dry-run']);
    expect(given.exitCode).toBe(2);
    const strange = t.writeFile('strange.csv', 'mail:role\nana@sheets.example:3\n');
    const none = await t.sct(['invitations', 'bulk-create', '--file', strange, '--dry-run']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('strange.csv line 1: no known column in the header (found: mail:role; tried the separators , ; tab |)');
    expect(sent()).toEqual([]);
  });
});

describe('files from spreadsheets: date-times', () => {
  it('a date-time as LibreOffice\'s CSV export writes it (2026-11-25 10:30:00, a space for the T) is read as 2026-11-25T10:30:00, by import and by sync', async () => {
    const r = await t.sct(['orders', 'import', '--purchase', '--file', fixture('orders-datetime-libreoffice.csv'), '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(dryRunBodies(r.stdout).map((b) => [b.external_id, b.signed_off_at])).toEqual([
      ['PO-T1', '2026-11-25T10:30:00'],
      ['PO-T2', '2026-11-25T00:00:00'],
    ]);
    const sync = await t.sct(['orders', 'sync', '--purchase', '--file', fixture('orders-datetime-libreoffice.csv'), '--dry-run', '-o', 'json']);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout).create.map((o: { body: { signed_off_at: string } }) => o.body.signed_off_at)).toEqual(['2026-11-25T10:30:00', '2026-11-25T00:00:00']);
    // Any other text is still refused: a space alone is no date-time.
    const day = t.writeFile('spaced.csv', 'external_id,type,order_created_at,signed_off_at\nX,order,2025-01-01,2025-01-01 noon\n');
    const refused = await t.sct(['orders', 'import', '--purchase', '--file', day, '--dry-run']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('line 2, signed_off_at: expected an ISO 8601 date-time');
    expect(sent()).toEqual([]);
  });
});

describe('files from spreadsheets: bad rows', () => {
  /** 500 people of which lines 11, 51, 101, 201, 301, 401 are invalid (bad address, unknown role). */
  function people(domain: string): string {
    const lines = ['email,auth_group'];
    for (let i = 0; i < 500; i++) {
      const line = i + 2;
      const bad = [11, 51, 101, 201, 301, 401].includes(line);
      lines.push(bad && line % 2 === 1 && line !== 101 ? `p${i}-at-${domain},3` : bad ? `p${i}@${domain},nosuchrole` : `p${i}@${domain},3`);
    }
    return t.writeFile(`people-${domain}.csv`, lines.join('\n') + '\n');
  }
  const reportRows = (file: string) => parse(readFileSync(file, 'utf8'), { columns: true }) as Array<Record<string, string>>;

  it('without --skip-invalid: exit 2, nothing sent, and the --report lists every invalid row with its line, field and message', async () => {
    const report = join(t.dir, 'invalid-report.csv');
    const r = await t.sct(['invitations', 'bulk-create', '--file', people('bad1.example'), '--report', report]);
    expect(r.exitCode).toBe(2);
    expect(sent()).toEqual([]);
    expect(r.stderr).toContain('6 invalid rows; nothing was sent');
    expect(r.stderr).toContain(`every invalid row is in ${report}; --skip-invalid sends the valid rows (with --force to replace that report)`);
    const rows = reportRows(report);
    expect(rows.map((x) => [x.line, x.status])).toEqual([11, 51, 101, 201, 301, 401].map((l) => [String(l), 'invalid']));
    expect(rows[0].error).toMatch(/^invalid — email: /);
    expect(rows[2].error).toContain('auth_group: unknown role "nosuchrole"');
  });

  it('with --skip-invalid: the valid rows are sent, the invalid ones reported, exit 3', async () => {
    const report = join(t.dir, 'skip-report.csv');
    const r = await t.sct(['invitations', 'bulk-create', '--file', people('bad2.example'), '--report', report, '--skip-invalid']);
    expect(r.exitCode, r.stderr).toBe(3);
    // Chunks go out several at a time: which arrives first is not fixed.
    const bodies = sent().map((q) => JSON.parse(q.body).operations.length as number);
    expect(bodies.sort((a, b) => b - a)).toEqual([100, 100, 100, 100, 94]);
    expect(r.stderr).toContain('6 invalid rows left out (--skip-invalid): 11, 51, 101, 201, 301, 401');
    expect(r.stderr).toContain('invitations: 494 created, 0 rejected, 6 invalid (not sent)');
    const rows = reportRows(report);
    expect(rows).toHaveLength(500);
    expect(rows.filter((x) => x.status === 'invalid').map((x) => x.line)).toEqual(['11', '51', '101', '201', '301', '401']);
    expect(rows[9]).toMatchObject({ line: '11', status: 'invalid' });
    expect(rows[0]).toMatchObject({ line: '2', status: 'created' });
  });

  it('an order is sent whole or not at all: its other rows are reported with the invalid one', async () => {
    const file = t.writeFile(
      'skip-orders.csv',
      'external_id;type;order_created_at;seller_company_id;volume;unit\nSK-1;order;2025-04-01;101;12,5;kg\nSK-2;order;2025-04-02;102;1,5;kg\nSK-2;;;;lots;kg\n',
    );
    const r = await t.sct(['orders', 'import', '--purchase', '--file', file, '--skip-invalid', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(sent().map((q) => JSON.parse(q.body).external_id)).toEqual(['SK-1']);
    const out = JSON.parse(r.stdout) as Array<{ lines: number[]; status: string; fields: Record<string, string[]> | null }>;
    expect(out.map((o) => [o.lines, o.status])).toEqual([
      [[2], 'created'],
      [[3], 'invalid'],
      [[4], 'invalid'],
    ]);
    expect(out[1].fields).toEqual({ external_id: ['not sent: line 4 of order SK-2 is invalid'] });
    expect(out[2].fields).toEqual({ volume: ['"lots" is not a number'] });
  });
});

describe('files from spreadsheets: columns', () => {
  it('headers match in any case with spaces around; read-only columns of an origin are ignored with one line', async () => {
    const file = t.writeFile('origins-listed.csv', ' ID ,Name, Country_Code ,external_id,created_at,Assessment_Status\n9,Ferme Été,CI,RO-1,2025-01-01T00:00:00Z,pending\n');
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('origins-listed.csv: ignoring 3 columns the service sets itself (id, created_at, assessment_status)');
    // Said once, though the file is read twice (once to check it, once to send it).
    expect(r.stderr.split('ignoring 3 columns')).toHaveLength(2);
    expect(dryRunBodies(r.stdout)).toMatchObject([{ name: 'Ferme Été', country_code: 'CI', external_id: 'RO-1' }]);
    // An export's location columns are read back as the geometry; half of one is an error on its line.
    const exported = t.writeFile('origins-located.csv', 'name,country_code,location.type,location.coordinates\nFerme A,CI,Point,"[-5.2897,6.8203]"\nFerme B,CI,Point,\n');
    const half = await t.sct(['origins', 'import', '--file', exported, '--dry-run', '-o', 'json']);
    expect(half.exitCode).toBe(2);
    expect(half.stderr).toContain('line 3, location: location.coordinates is empty: an exported location needs both columns');
    expect(half.stderr).not.toContain('line 2');
  });

  it('an origins export whose plots are polygons reads back: sync plans nothing, import sends the polygons', async () => {
    const list = await t.sct(['origins', 'list', '--filter', 'id__in=5,17', '-o', 'csv']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toContain(',Polygon,');
    const file = t.writeFile('polygons.csv', list.stdout);
    const sync = await t.sct(['origins', 'sync', '--file', file, '--dry-run']);
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(sync.stderr + sync.stdout).toMatch(/2 unchanged/);
    const imported = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(dryRunBodies(imported.stdout).map((b) => b.location.type)).toEqual(['Polygon', 'Polygon']);
    // A cell that is JSON but no geometry is still its line's error.
    const bad = t.writeFile('not-geometry.csv', 'name,country_code,location\nFerme C,CI,"{""type"":""Feature""}"\n');
    const refused = await t.sct(['origins', 'import', '--file', bad, '--dry-run']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('line 2, location: expected a GeoJSON geometry (Point, Polygon, MultiPolygon, …), got type "Feature"');
  });

  it('orders list -o csv → one cell edited → orders sync changes exactly that field; the read-only columns are ignored with one line', async () => {
    const list = await t.sct(['orders', 'list', '--buying', '--type', 'order', '-o', 'csv', '--limit', '3']);
    expect(list.exitCode, list.stderr).toBe(0);
    const rows = parse(list.stdout) as string[][];
    const column = rows[0].indexOf('order_arrival_at');
    expect(column).toBeGreaterThan(0);
    rows[2][column] = '2027-02-03';
    const text = rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n') + '\n';
    const file = t.writeFile('round-trip.csv', text);
    t.sb.requests.length = 0;
    const r = await t.sct(['orders', 'sync', '--purchase', '--file', file, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/round-trip\.csv: ignoring \d+ columns the service sets itself \(id, company_id, /);
    const writes = sent();
    expect(writes).toHaveLength(1);
    expect(writes[0].method).toBe('PATCH');
    expect(writes[0].path).toBe(`/api/orders/purchase/${rows[2][0]}`);
    expect(JSON.parse(writes[0].body)).toEqual({ order_arrival_at: '2027-02-03' });
  });
});

describe('files from spreadsheets: --template', () => {
  it('orders import/sync --template print the header and an example row that imports as is', async () => {
    for (const kind of ['--purchase', '--sale', '--batch']) {
      const r = await t.sct(['orders', 'import', kind, '--template']);
      expect(r.exitCode, r.stderr).toBe(0);
      const [header, example, ...rest] = parse(r.stdout) as string[][];
      expect(rest).toEqual([]);
      expect(header.slice(0, 3)).toEqual(['external_id', 'type', 'order_created_at']);
      expect(header).toContain('volume');
      expect(example).toHaveLength(header.length);
      const file = t.writeFile(`template${kind}.csv`, r.stdout);
      const dry = await t.sct(['orders', 'import', kind, '--file', file, '--dry-run', '-o', 'json']);
      expect(dry.exitCode, dry.stderr).toBe(0);
      expect(dryRunBodies(dry.stdout)[0]).toMatchObject({ external_id: kind === '--batch' ? 'BATCH-2025-0001' : 'PO-2025-0001', items: [expect.objectContaining({ volume: 1250.5, unit: 'kg' })] });
      // And for real, into the demo data.
      const real = await t.sct(['orders', 'import', kind, '--file', file, '--fresh']);
      expect(real.exitCode, `${kind}: ${real.stderr}`).toBe(0);
    }
    t.sb.requests.length = 0;
    const sync = await t.sct(['orders', 'sync', '--purchase', '--template']);
    expect(sync.stdout).toBe((await t.sct(['orders', 'import', '--purchase', '--template'])).stdout);
    const both = await t.sct(['orders', 'import', '--purchase', '--template', '--file', 'x.csv']);
    expect(both.exitCode).toBe(2);
    expect(sent()).toEqual([]);
  });

  it('orders import --template without a kind prints the purchase file, saying so', async () => {
    const bare = await t.sct(['orders', 'import', '--template']);
    expect(bare.exitCode, bare.stderr).toBe(0);
    expect(bare.stdout).toBe((await t.sct(['orders', 'import', '--purchase', '--template'])).stdout);
    expect(bare.stderr).toContain('the columns of a purchase file (--purchase)');
    expect(sent()).toEqual([]);
  });
});

describe('files from spreadsheets: CSV written', () => {
  it('--bom starts -o csv with a UTF-8 byte-order mark and changes nothing else', async () => {
    const plain = await t.sct(['origins', 'list', '-o', 'csv', '--limit', '3']);
    const bom = await t.sct(['origins', 'list', '-o', 'csv', '--limit', '3', '--bom']);
    expect(bom.exitCode, bom.stderr).toBe(0);
    expect(bom.stdout.startsWith('\ufeff')).toBe(true);
    expect(bom.stdout.slice(1)).toBe(plain.stdout);
    expect(plain.stdout.startsWith('\ufeff')).toBe(false);
    // An empty list is still a file with its header, and its mark.
    const none = await t.sct(['origins', 'list', '-o', 'csv', '--search', 'no-such-origin-anywhere', '--bom']);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stdout).toMatch(/^\ufeff[a-z_]+,/);
  });
});
