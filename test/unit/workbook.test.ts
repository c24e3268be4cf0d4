// The cell conversions and ZIP recognition of the workbook reader, for the cases the LibreOffice
// fixtures (test/e2e/workbooks.test.ts) do not have.
import { describe, expect, it, onTestFinished } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { utils, write } from '@e965/xlsx';
import { dateText, eachSheetRecord, numberText } from '../../src/bulk/workbook.js';
import { zipKind } from '../../src/bulk/zip-kind.js';

const contentTypes = (main: string) =>
  strToU8(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/main.xml" ContentType="${main}"/></Types>`);

describe('numberText', () => {
  it('writes what the cell shows: 15 significant digits, a point, never an exponent', () => {
    expect(numberText(0.1 + 0.2)).toBe('0.3');
    expect(numberText(1234.5)).toBe('1234.5');
    expect(numberText(-5.2897)).toBe('-5.2897');
    expect(numberText(101)).toBe('101');
    expect(numberText(1e-7)).toBe('0.0000001');
    expect(numberText(1.5e14)).toBe('150000000000000');
  });

  it('a whole number whose digits go past the 15 a spreadsheet shows (a long id saved as a number) is refused', () => {
    expect(() => numberText(1234567890123456789)).toThrow('the number 1.23456789012346E+18 has too many digits to be read exactly');
    expect(() => numberText(1234567890123456)).toThrow('too many digits');
    // As LibreOffice stores it in an .xlsx: 15 digits kept, the rest zeros.
    expect(() => numberText(1234567890123460000)).toThrow('too many digits');
    expect(() => numberText(1.5e21)).toThrow('too many digits');
    expect(numberText(123456789012345)).toBe('123456789012345');
  });
});

describe('dateText', () => {
  it('a day is YYYY-MM-DD, a time of day is kept to the second, without a zone', () => {
    expect(dateText(new Date(Date.UTC(2025, 3, 1)))).toBe('2025-04-01');
    expect(dateText(new Date(Date.UTC(2025, 3, 1, 14, 30, 0, 999.6)))).toBe('2025-04-01T14:30:01');
    expect(dateText(new Date(Date.UTC(2025, 11, 31, 23, 59, 59, 999.7)))).toBe('2026-01-01');
    expect(() => dateText(new Date('nonsense'))).toThrow('no valid date');
    // A cell formatted to show the day alone is that day.
    expect(dateText(new Date(Date.UTC(2025, 11, 31, 23, 59, 59, 999.7)), false)).toBe('2025-12-31');
    expect(dateText(new Date(Date.UTC(2025, 3, 1, 10, 30)), false)).toBe('2025-04-01');
  });
});

describe('zipKind', () => {
  it('tells workbooks by their mimetype or content types, and names what other ZIPs are', () => {
    expect(zipKind(zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.spreadsheet'), 'content.xml': strToU8('<x/>') }))).toEqual({ workbook: 'ods' });
    expect(zipKind(zipSync({ '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml') }))).toEqual({ workbook: 'xlsx' });
    expect(zipKind(zipSync({ '[Content_Types].xml': contentTypes('application/vnd.ms-excel.sheet.macroEnabled.main+xml') }))).toEqual({ workbook: 'xlsx' });
    expect(zipKind(zipSync({ '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml') }))).toEqual({ looksLike: 'a Word document (.docx)' });
    expect(zipKind(zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text') }))).toEqual({
      looksLike: 'an OpenDocument file that is not a spreadsheet (application/vnd.oasis.opendocument.text)',
    });
    expect(zipKind(zipSync({ 'plots.shp': new Uint8Array(8) }))).toEqual({ looksLike: 'a ZIP archive (neither an .xlsx nor an .ods workbook)' });
    expect(zipKind(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toEqual({ looksLike: 'a damaged ZIP archive' });
  });
});

describe('eachSheetRecord', () => {
  /** The records of a one-sheet workbook written by SheetJS, which writes dates with Excel's built-in format 14. */
  function records(rows: unknown[][], bookType: 'xlsx' | 'ods', formats: Record<string, string> = {}) {
    // UTC: the Dates are the days as given, whatever the time zone the test runs in.
    const ws = utils.aoa_to_sheet(rows, { cellDates: true, UTC: true });
    for (const [cell, format] of Object.entries(formats)) ws[cell].z = format;
    const bytes = write({ SheetNames: ['S'], Sheets: { S: ws } }, { type: 'buffer', bookType, cellDates: true }) as Buffer;
    const out: Array<[number, string[]]> = [];
    eachSheetRecord(bytes, `book.${bookType}`, bookType, undefined, (cells, row) => out.push([row, cells]));
    return out;
  }

  it('an error cell written without its value is "an error value", not "the error undefined"', () => {
    const ws = utils.aoa_to_sheet([['external_id', 'latitude'], ['A-1', 1]]);
    const written = unzipSync(write({ SheetNames: ['S'], Sheets: { S: ws } }, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    // As some writers leave it: the cell typed as an error, no <v> in it.
    const sheet = strFromU8(written['xl/worksheets/sheet1.xml']!).replace(/<c r="B2"[^>]*>.*?<\/c>/, '<c r="B2" t="e"/>');
    expect(sheet).toContain('<c r="B2" t="e"/>');
    const bytes = Buffer.from(zipSync({ ...written, 'xl/worksheets/sheet1.xml': strToU8(sheet) }));
    const said: string[] = [];
    eachSheetRecord(bytes, 'book.xlsx', 'xlsx', undefined, (_cells, _row, errors) => said.push(...(errors?.values() ?? [])));
    expect(said).toEqual(['the cell (B2) holds an error value']);
  });

  // The day a sheet says, in any time zone sct runs in (a user's, CI's): never shifted by the offset.
  it.each([
    ['xlsx', 'UTC'],
    ['ods', 'UTC'],
    ['xlsx', 'Pacific/Auckland'],
    ['ods', 'America/Los_Angeles'],
  ] as const)('%s in %s: a date with Excel\'s built-in format, a time of day, a boolean, blank rows and columns', (bookType, zone) => {
    const tz = process.env.TZ;
    process.env.TZ = zone;
    onTestFinished(() => {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    });
    const rows = [
      ['external_id', 'order_created_at', 'signed_off_at', 'send_information_request', ''],
      [],
      [' A-1 ', new Date(Date.UTC(2025, 3, 1)), new Date(Date.UTC(2025, 3, 2, 9, 30)), true, ''],
      ['A-2', new Date(Date.UTC(2024, 1, 29)), null, false],
      ['A-3', new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 800)), new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 800)), false],
    ];
    // C3 and C5 show their time of day (SheetJS writes few formats into an .ods); B5's format (Excel's built-in 14) shows the day alone.
    expect(records(rows, bookType, bookType === 'xlsx' ? { C3: 'yyyy-mm-dd hh:mm', C5: '[$-409]yyyy-mm-dd h:mm:ss AM/PM' } : { C3: 'hh:mm', C5: 'hh:mm:ss' })).toEqual([
      [1, ['external_id', 'order_created_at', 'signed_off_at', 'send_information_request']],
      [3, [' A-1 ', '2025-04-01', '2025-04-02T09:30:00', 'true']],
      [4, ['A-2', '2024-02-29', '', 'false']],
      [5, ['A-3', '2024-02-29', '2024-03-01', 'false']],
    ]);
  });

  it('a value under no header is refused, naming its cell', () => {
    expect(() => records([['external_id'], ['A-1', 'stray']], 'xlsx')).toThrow('book.xlsx line 2: cell B2 has a value, but its column has no header');
  });
});
