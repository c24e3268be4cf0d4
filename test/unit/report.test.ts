// Report files: written through a new temporary file renamed into place, never through a link
// planted where the temporary would go, cells guarded against spreadsheet formulas.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkReportPath, writeReportFile } from '../../src/bulk/report.js';
import { CSV_WRITE_OPTIONS, csvLine } from '../../src/output/spreadsheet.js';
import { removeDir, tempDir } from '../helpers/sct.js';
import type { Outcome } from '../../src/bulk/runner.js';

let dir = '';
afterEach(() => removeDir(dir));

const outcomes: Outcome[] = [
  { key: '=HYPERLINK("http://evil.example","x")', lines: [2], status: 'rejected', error: '@SUM(1)' },
  { key: 'plain@example.com', lines: [3], status: 'created', id: 7 },
];

describe('writeReportFile', () => {
  it('never writes through a symlink planted at the temporary name sct used to use', () => {
    dir = tempDir();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const report = join(dir, 'report.csv');
    symlinkSync(victim, `${report}.${process.pid}.tmp`);
    writeReportFile(report, outcomes);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(report).isFile()).toBe(true);
    // No temporary file is left behind.
    expect(readdirSync(dir).sort()).toEqual(['report.csv', `report.csv.${process.pid}.tmp`, 'victim.txt'].sort());
  });

  it('guards cells that a spreadsheet would run as formulas, unless asked not to', () => {
    dir = tempDir();
    const report = join(dir, 'report.csv');
    writeReportFile(report, outcomes);
    const text = readFileSync(report, 'utf8');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).toContain(`'@SUM(1)`);
    expect(text).toContain('3,plain@example.com,created,7,');
    // A second report at the name needs --force (checkReportPath), as a run's would.
    expect(() => writeReportFile(report, outcomes, { csvFormulas: true })).toThrow('already exists: another process created it');
    checkReportPath(report, true);
    writeReportFile(report, outcomes, { csvFormulas: true });
    expect(readFileSync(report, 'utf8')).toContain(`"=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it('writes a report of several megabytes whole, in the order given, from outcomes made as they are read', () => {
    dir = tempDir();
    const report = join(dir, 'report.csv');
    const n = 80_000;
    function* made(): Iterable<Outcome> {
      for (let i = 0; i < n; i++) yield { key: `someone.${i}@example.com`, lines: [i + 2], status: i % 7 ? 'created' : 'rejected', id: i % 7 ? `id-${i}` : undefined, error: i % 7 ? undefined : 'rejected' };
    }
    writeReportFile(report, made());
    const text = readFileSync(report, 'utf8');
    expect(text.length).toBeGreaterThan(3 << 20);
    const lines = text.split('\n');
    expect(lines).toHaveLength(n + 2);
    expect(lines[0]).toBe('line,key,status,id,error');
    expect(lines[1]).toBe('2,someone.0@example.com,rejected,,rejected');
    expect(lines[n]).toBe(`${n + 1},someone.${n - 1}@example.com,created,id-${n - 1},`);
    expect(lines[n + 1]).toBe('');
  });
});

describe('csvLine', () => {
  const PIECES = ['a', 'é', '😀', '"', ',', '\n', '\r', '\r\n', ' ', '\t', '\u00a0', '\u2028', '\ufeff', "'", '=', '-', '@', ';'];
  const text = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) }), { maxLength: 6 }).map((p) => p.join(''));
  const cell = fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: fc.integer() }, { weight: 1, arbitrary: fc.double() });

  it('writes what csv-stringify writes with the options of every CSV file sct writes', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 5, maxLength: 5 }), { maxLength: 4 }), (rows) => {
        const columns = ['line', 'key', 'status', 'id', 'error'];
        expect(csvLine(columns) + rows.map(csvLine).join('')).toBe(stringify(rows, { ...CSV_WRITE_OPTIONS, header: true, columns }));
      }),
      { numRuns: 3000 },
    );
  });
});
