// Fitting tables to the terminal (src/output/table.ts) and the piped, tab-separated form.
import { beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { displayWidth, fitColumns, isFixedColumn, layoutTable, loadMeasure, truncate, tsvLine, type TableColumn } from '../../src/output/table.js';
import { createIO, colorDecision, loadColor, statusColor } from '../../src/output/iostreams.js';

beforeAll(loadMeasure);
import { renderTable } from '../../src/output/format.js';
import { headerFromPath } from '../../src/output/columns.js';

const UUID = '3f2b8c1e-9a7d-4e21-b0c4-5d6e7f8a9b0c';
const columns: TableColumn[] = [
  { header: 'ID', path: 'id' },
  { header: 'NAME', path: 'name' },
  { header: 'NOTES', path: 'description' },
  { header: 'STATUS', path: 'status' },
  { header: 'CREATED', path: 'created_at' },
  { header: 'SELLER', path: 'seller.name' },
  { header: 'TAGS', path: 'tags' },
];
const rows = [
  [UUID, 'Cocoa beans from the Ivory Coast', 'A very long description '.repeat(3).trim(), 'in_progress', '2026-01-15', 'Sociedad Cooperativa Agrícola del Norte', 'organic, fairtrade'],
  [UUID.replace('3f', '4a'), 'Coffee', 'Short', 'passing', '2026-02-01', 'ACME', 'x'],
];
const plain = { header: (s: string) => s, cell: (s: string) => s };

function lines(width: number, cols = columns, data = rows) {
  const fit = fitColumns(cols, data, width);
  return { fit, lines: layoutTable(cols, data, fit, plain) };
}

describe('fitColumns', () => {
  it('at 200 columns everything fits uncut', () => {
    const { fit, lines: out } = lines(200, columns.slice(0, 5));
    expect(fit.dropped).toEqual([]);
    for (const l of out) expect(displayWidth(l)).toBeLessThanOrEqual(200);
    expect(out[1]).toContain(rows[0][2]);
    expect(out.join('\n')).not.toContain('…');
  });

  it('at 80 columns: no line is wider, the uuid and the date are whole, free text ends in …', () => {
    const { fit, lines: out } = lines(80);
    for (const l of out) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    expect(out[1]).toContain(UUID);
    expect(out[1]).toContain('2026-01-15');
    expect(out[1]).toContain('in_progress');
    expect(out[1]).toContain('…');
    expect(fit.shown.length).toBeGreaterThanOrEqual(5);
  });

  it('shrinks the widest free-text column first', () => {
    // NOTES (71) is far wider than NAME (32): a little too narrow cuts DESCRIPTION only.
    const cols = columns.slice(0, 3);
    const natural = fitColumns(cols, rows, 1000).widths;
    const fit = fitColumns(cols, rows, natural.reduce((a, b) => a + b, 0) + 4 - 20);
    expect(fit.widths[1]).toBe(natural[1]);
    expect(fit.widths[2]).toBe(natural[2] - 20);
    expect(fit.widths[0]).toBe(natural[0]);
  });

  it('leaves out the rightmost columns when shrinking is not enough, and renderTable names them on stderr', async () => {
    const fit = fitColumns(columns, rows, 80);
    expect(fit.dropped.map((i) => columns[i].header)).toEqual(['SELLER', 'TAGS']);
    const err = new PassThrough();
    let stderr = '';
    err.on('data', (d) => (stderr += d));
    const io = createIO({ stdout: new PassThrough(), stderr: err, stdoutIsTTY: true, stderrIsTTY: false, columns: 80 }, {});
    const out = await renderTable(io, columns, rows);
    expect(stderr).toBe('columns left out to fit 80 columns: SELLER, TAGS (widen the terminal, or --columns)\n');
    expect(out).not.toContain('SELLER');
    for (const l of out.trimEnd().split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(80);
  });

  it('measures wide characters and never cuts inside one', () => {
    const cjk = [['1', '東京都の農業協同組合が運営する大きな農園です', 'ok'], ['2', '🇨🇮 Côte d’Ivoire 🌍🌍🌍🌍🌍🌍🌍🌍', 'ok']];
    const cols = [{ header: 'ID', path: 'id' }, { header: 'NAME', path: 'name' }, { header: 'NOTE', path: 'note' }];
    const { lines: out } = lines(30, cols, cjk);
    for (const l of out) expect(displayWidth(l)).toBeLessThanOrEqual(30);
    expect(out[1]).toMatch(/…/);
    expect(out[1]).not.toContain('\ufffd');
    // Every cut string is whole characters: re-encoding does not change it.
    for (const l of out) expect(Buffer.from(l, 'utf8').toString('utf8')).toBe(l);
    expect(truncate('東京都', 4)).toBe('東…');
    expect(truncate('東京都', 5)).toBe('東京…');
    expect(displayWidth(truncate('🇨🇮🇨🇮🇨🇮', 4))).toBeLessThanOrEqual(4);
    expect(truncate('🇨🇮🇨🇮🇨🇮', 4)).toBe('🇨🇮…');
  });

  it('never cuts ids, dates or statuses, by name or by content', () => {
    expect(isFixedColumn({ header: 'EXTERNAL ID', path: 'external_id' })).toBe(true);
    expect(isFixedColumn({ header: 'EXPIRES', path: 'expires_at' })).toBe(true);
    expect(isFixedColumn({ header: 'BUYER STATUS', path: 'buyer_company_status' })).toBe(true);
    expect(isFixedColumn({ header: 'REF', path: 'ref' }, [UUID])).toBe(true);
    expect(isFixedColumn({ header: 'WHEN', path: 'when' }, ['2026-01-01T10:00:00Z'])).toBe(true);
    expect(isFixedColumn({ header: 'NAME', path: 'name' }, ['Cocoa'])).toBe(false);
  });
});

describe('piped tables', () => {
  it('are tab-separated, uncut, one line per row, tabs and newlines in cells made spaces', async () => {
    const io = createIO({ stdout: new PassThrough(), stderr: new PassThrough(), stdoutIsTTY: false, columns: 40 }, {});
    const out = await renderTable(io, columns, [...rows, ['x', 'a\tb\nc', '', '', '', '', '']]);
    const l = out.trimEnd().split('\n');
    expect(l).toHaveLength(4);
    expect(l[0]).toBe('ID\tNAME\tNOTES\tSTATUS\tCREATED\tSELLER\tTAGS');
    expect(l[1].split('\t')).toEqual(rows[0]);
    expect(l[3].split('\t')[1]).toBe('a b c');
    expect(tsvLine(['a\r\nb', 'c'])).toBe('a b\tc');
  });

  it('colour their status cells only when colour is forced', async () => {
    const statusRows = [['1', 'a', '', 'rejected', '', '', ''], ['2', 'b', '', 'created', '', '', '']];
    const forced = createIO({ stdout: new PassThrough(), stderr: new PassThrough(), stdoutIsTTY: false }, { FORCE_COLOR: '1' });
    await loadColor(forced);
    const coloured = (await renderTable(forced, columns, statusRows)).split('\n');
    expect(coloured[1].split('\t')[3]).toBe('\u001b[31mrejected\u001b[39m');
    expect(coloured[2].split('\t')[3]).toBe('\u001b[32mcreated\u001b[39m');
    expect(coloured[1].split('\t')[1]).toBe('a');
    const plain = createIO({ stdout: new PassThrough(), stderr: new PassThrough(), stdoutIsTTY: false }, {});
    expect(await renderTable(plain, columns, statusRows)).toBe(['ID\tNAME\tNOTES\tSTATUS\tCREATED\tSELLER\tTAGS', ...statusRows.map((r) => r.join('\t')), ''].join('\n'));
  });
});

describe('colour', () => {
  it('is decided in one place: --no-color, then FORCE_COLOR/CLICOLOR_FORCE, then NO_COLOR, then the terminal', () => {
    expect(colorDecision(true, false, {})).toBe(true);
    expect(colorDecision(false, false, {})).toBe(false);
    expect(colorDecision(false, false, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorDecision(false, false, { CLICOLOR_FORCE: '1' })).toBe(true);
    expect(colorDecision(false, false, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorDecision(true, false, { NO_COLOR: '1' })).toBe(false);
    expect(colorDecision(true, true, { FORCE_COLOR: '1' })).toBe(false);
  });

  it('colours statuses the same everywhere', () => {
    for (const s of ['passing', 'complete', 'accepted', 'created']) expect(statusColor(s)).toBe('green');
    for (const s of ['failing', 'failed', 'revoked', 'expired', 'rejected']) expect(statusColor(s)).toBe('red');
    for (const s of ['pending', 'in_progress', 'draft', 'waiting_for_supplier', 'not_sent', 'unknown']) expect(statusColor(s)).toBe('yellow');
  });

  it('--columns headers read like the default ones', () => {
    expect(headerFromPath('buyer_product_detail.name')).toBe('BUYER PRODUCT DETAIL NAME');
    expect(headerFromPath('external_id')).toBe('EXTERNAL ID');
  });
});
