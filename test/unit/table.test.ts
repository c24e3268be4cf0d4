// Fitting tables to the terminal (src/output/table.ts) and the piped, tab-separated form.
import { beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { displayWidth, fitColumns, isFixedColumn, layoutTable, loadMeasure, truncate, tsvLine, type TableColumn } from '../../src/output/table.js';
import { createIO, colorDecision, loadColor, statusColor } from '../../src/output/iostreams.js';

beforeAll(loadMeasure);
import { renderTable, writeTable } from '../../src/output/format.js';
import { COLUMNS, headerFromPath } from '../../src/output/columns.js';

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
  it('a --columns list (no priorities) loses its rightmost columns only: none comes back past one to its left', () => {
    // As `--columns id,external_id,seller_company.name,buyer_company_status,order_created_at,type`
    // at 40 columns: ORDER CREATED AT fitted once the wider ones were out, between gaps.
    const cols: TableColumn[] = ['id', 'external_id', 'seller_company.name', 'buyer_company_status', 'order_created_at', 'type'].map((p) => ({ header: headerFromPath(p), path: p }));
    const data = [['217', 'PO-2025-000217', 'Hanseatic Kakao Import GmbH', 'completed', '2025-03-01', 'order']];
    const fit = fitColumns(cols, data, 40);
    const kept = fit.shown;
    expect(kept).toEqual([...Array(kept.length).keys()]);
    expect(fit.dropped).toEqual([...Array(cols.length - kept.length).keys()].map((k) => kept.length + k));
  });

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

  it('without priorities leaves out the rightmost columns when shrinking is not enough', () => {
    const fit = fitColumns(columns, rows, 80);
    expect(fit.dropped.map((i) => columns[i].header)).toEqual(['SELLER', 'TAGS']);
    expect(fit.shown).toEqual([0, 1, 2, 3, 4]);
  });

  it('leaves out the lowest-priority columns first, wherever they are, and keeps the order of the rest', () => {
    // The narrow terminal of the issue: BUYER STATUS (22 cells) goes before ASSESSMENT and CREATED.
    const cols: TableColumn[] = [
      { header: 'ID', path: 'id', priority: 5 },
      { header: 'EXTERNAL ID', path: 'external_id', priority: 4 },
      { header: 'BUYER STATUS', path: 'buyer_company_status', priority: 1 },
      { header: 'SELLER STATUS', path: 'seller_company_status', priority: 4 },
      { header: 'ASSESSMENT', path: 'assessment_status', priority: 4 },
      { header: 'CREATED', path: 'order_created_at', priority: 3 },
      { header: 'ITEMS', path: 'items', priority: 2 },
    ];
    const data = [['217', 'PO-2025-000086', 'waiting_for_supplier', 'pending', 'in_progress', '2025-12-30', '3']];
    const fit = fitColumns(cols, data, 66);
    expect(fit.dropped.map((i) => cols[i].header)).toEqual(['BUYER STATUS']);
    expect(fit.shown.map((i) => cols[i].header)).toEqual(['ID', 'EXTERNAL ID', 'SELLER STATUS', 'ASSESSMENT', 'CREATED', 'ITEMS']);
    // Narrower: ITEMS (2) goes next; narrower still CREATED (3) goes too, and ITEMS, narrower, fits again.
    expect(fitColumns(cols, data, 60).dropped.map((i) => cols[i].header)).toEqual(['BUYER STATUS', 'ITEMS']);
    expect(fitColumns(cols, data, 55).dropped.map((i) => cols[i].header)).toEqual(['BUYER STATUS', 'CREATED']);
    // Equal priorities: the rightmost goes first.
    const tied = fitColumns(cols.map((c) => ({ ...c, priority: 1 })), data, 83);
    expect(tied.dropped.map((i) => cols[i].header)).toEqual(['ITEMS']);
  });

  it('brings back a less important column that fits once a wider, more important one is left out', () => {
    const cols: TableColumn[] = [
      { header: 'ID', path: 'id', priority: 3 },
      { header: 'EMAIL', path: 'email', priority: 5 },
      { header: 'ROLE', path: 'role', priority: 3 },
      { header: 'STATUS', path: 'status', priority: 4 },
      { header: 'INVITED BY', path: 'invited_by_detail.email', priority: 1 },
      { header: 'EXPIRES', path: 'expires_at', priority: 2 },
    ];
    const data = [[UUID, 'mariana.vandenberghe@brussels-cacao.example', 'MEMBER', 'pending', 'amelie.janssens@brussels-cacao.example', '2026-01-11']];
    const fit = fitColumns(cols, data, 80);
    // The e-mail is whole; the uuid (36 cells) does not fit beside it, ROLE and EXPIRES do.
    expect(fit.shown.map((i) => cols[i].header)).toEqual(['EMAIL', 'ROLE', 'STATUS', 'EXPIRES']);
    expect(fit.dropped.map((i) => cols[i].header)).toEqual(['ID', 'INVITED BY']);
    const out = layoutTable(cols, data, fit, plain);
    expect(out[1]).toContain(data[0][1]);
    for (const l of out) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    // Wide enough for the uuid too: only INVITED BY goes.
    expect(fitColumns(cols, data, 130).dropped.map((i) => cols[i].header)).toEqual(['INVITED BY']);
  });

  it('cuts a free-text column below 12 cells only when nothing less important is left to leave out', () => {
    const cols: TableColumn[] = [
      { header: 'ID', path: 'id', priority: 5 },
      { header: 'NAME', path: 'name', priority: 4 },
      { header: 'CREATED', path: 'created_at', priority: 1 },
    ];
    const data = [['17', 'Bovine gelatine from Brazilian cattle', '2024-10-16']];
    // 30 cells: NAME keeps 14 beside the date.
    expect(fitColumns(cols, data, 30)).toEqual({ shown: [0, 1, 2], widths: [2, 14, 10], dropped: [] });
    // 25: NAME would be 9 (`Bovine g…`): the date goes, NAME takes its room.
    expect(fitColumns(cols, data, 25)).toEqual({ shown: [0, 1], widths: [2, 21], dropped: [2] });
    // Ranked alike, as --columns are, the old floor of 6 applies.
    expect(fitColumns(cols.map((c) => ({ ...c, priority: undefined })), data, 25).widths).toEqual([2, 9, 10]);
  });

  it('a single column wider than the terminal is cut to it, so no line wraps', () => {
    const cols: TableColumn[] = [{ header: 'ID', path: 'id' }];
    const fit = fitColumns(cols, [[UUID]], 20);
    expect(fit.widths).toEqual([20]);
    for (const l of layoutTable(cols, [[UUID]], fit, plain)) expect(displayWidth(l)).toBeLessThanOrEqual(20);
  });

  it('writeTable names the columns left out after the table, on stderr without a pager (inside one with it: pager.test.ts); -q leaves the line out', async () => {
    const capture = () => {
      const stream = new PassThrough();
      const got = { text: '' };
      stream.on('data', (d) => (got.text += d));
      return { stream, got };
    };
    const out = capture();
    const err = capture();
    const io = createIO({ stdout: out.stream, stderr: err.stream, stdoutIsTTY: true, stderrIsTTY: true, columns: 80 }, {});
    await writeTable(io, columns, rows);
    const lines = out.got.text.trimEnd().split('\n');
    expect(err.got.text).toBe('columns left out to fit 80 columns: SELLER, TAGS (widen the terminal, or --columns)\n');
    expect(lines[0]).toMatch(/^ID\s+NAME/);
    expect(out.got.text).not.toContain('SELLER  ');
    expect(out.got.text).not.toContain('columns left out');
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(80);
    const quietErr = capture();
    const quiet = createIO({ stdout: new PassThrough(), stderr: quietErr.stream, stdoutIsTTY: true, quiet: true, columns: 80 }, {});
    await writeTable(quiet, columns, rows);
    expect(quietErr.got.text).toBe('');
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

  it('never cuts ids, dates, statuses or e-mail addresses, by name or by content', () => {
    expect(isFixedColumn({ header: 'EXTERNAL ID', path: 'external_id' })).toBe(true);
    expect(isFixedColumn({ header: 'EXPIRES', path: 'expires_at' })).toBe(true);
    expect(isFixedColumn({ header: 'BUYER STATUS', path: 'buyer_company_status' })).toBe(true);
    expect(isFixedColumn({ header: 'REF', path: 'ref' }, [UUID])).toBe(true);
    expect(isFixedColumn({ header: 'WHEN', path: 'when' }, ['2026-01-01T10:00:00Z'])).toBe(true);
    expect(isFixedColumn({ header: 'NAME', path: 'name' }, ['Cocoa'])).toBe(false);
    // An e-mail cut short addresses nobody: whole, or left out.
    expect(isFixedColumn({ header: 'EMAIL', path: 'user_detail.email' })).toBe(true);
    expect(isFixedColumn({ header: 'CONTACT', path: 'contact' }, ['ana@example.com', 'bo@example.org'])).toBe(true);
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

describe('the terminal width', () => {
  it('a terminal that says 0 columns (docker run -t, script in CI) leaves it to COLUMNS, then 120', () => {
    const zero = Object.assign(new PassThrough(), { columns: 0 });
    expect(createIO({ stdout: zero, stderr: new PassThrough(), stdoutIsTTY: true }, { COLUMNS: '60' }).terminalWidth()).toBe(60);
    expect(createIO({ stdout: zero, stderr: new PassThrough(), stdoutIsTTY: true }, {}).terminalWidth()).toBe(120);
    const own = Object.assign(new PassThrough(), { columns: 100 });
    expect(createIO({ stdout: own, stderr: new PassThrough(), stdoutIsTTY: true }, { COLUMNS: '60' }).terminalWidth()).toBe(100);
  });
});

describe('colour', () => {
  it('is decided in one place: --no-color, then FORCE_COLOR/CLICOLOR_FORCE, then NO_COLOR, then the terminal', () => {
    expect(colorDecision(true, false, { TERM: 'xterm-256color' })).toBe(true);
    // A terminal that names no TERM (Windows consoles set none, and have colour).
    expect(colorDecision(true, false, {})).toBe(process.platform === 'win32');
    expect(colorDecision(true, false, { TERM: 'dumb' })).toBe(false);
    expect(colorDecision(false, false, {})).toBe(false);
    expect(colorDecision(false, false, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorDecision(false, false, { CLICOLOR_FORCE: '1' })).toBe(true);
    expect(colorDecision(false, false, { FORCE_COLOR: '0' })).toBe(false);
    // FORCE_COLOR=0 turns colour off, as Node and chalk read it, at a terminal too.
    expect(colorDecision(true, false, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorDecision(true, false, { FORCE_COLOR: 'false' })).toBe(false);
    expect(colorDecision(true, false, { TERM: 'xterm', NO_COLOR: '1' })).toBe(false);
    expect(colorDecision(true, true, { FORCE_COLOR: '1' })).toBe(false);
    // CLICOLOR=0 removes it at a terminal; CLICOLOR_FORCE still forces it.
    expect(colorDecision(true, false, { TERM: 'xterm', CLICOLOR: '0' })).toBe(false);
    expect(colorDecision(true, false, { TERM: 'xterm', CLICOLOR: '1' })).toBe(true);
    expect(colorDecision(false, false, { CLICOLOR: '0', CLICOLOR_FORCE: '1' })).toBe(true);
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

describe('default columns', () => {
  it('every resource ranks each of its default columns (1 to 5), and the ranks say what the issue asks', () => {
    for (const [resource, cols] of Object.entries(COLUMNS)) {
      for (const c of cols as TableColumn[]) expect([1, 2, 3, 4, 5], `${resource} ${c.header}`).toContain(c.priority);
    }
    const rank = (cols: TableColumn[], header: string) => cols.find((c) => c.header === header)!.priority!;
    expect(rank(COLUMNS.order, 'SELLER STATUS')).toBeGreaterThan(rank(COLUMNS.order, 'BUYER STATUS'));
    expect(rank(COLUMNS.order, 'ASSESSMENT')).toBeGreaterThan(rank(COLUMNS.order, 'BUYER STATUS'));
    expect(rank(COLUMNS.invitation, 'EMAIL')).toBeGreaterThan(rank(COLUMNS.invitation, 'EXPIRES'));
  });
});

describe('tables of any size', () => {
  it('fits 200,000 rows (no argument list as long as the rows)', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => [String(i), `name ${i}`, 'note']);
    expect(fitColumns(columns.slice(0, 3), rows, 80).shown).toEqual([0, 1, 2]);
  });

  it('tells a long string of dots and @ from an e-mail address in one pass (no backtracking over it)', () => {
    const evil = `x@${'.'.repeat(200_000)}@`;
    expect(isFixedColumn({ header: 'SELLER', path: 'seller' }, [evil])).toBe(false);
    expect(isFixedColumn({ header: 'SELLER', path: 'seller' }, [`x@${'a.'.repeat(100_000)}`])).toBe(false);
    expect(isFixedColumn({ header: 'CONTACT', path: 'contact' }, ['ama@example.com', 'kofi.mensah@cocoa.example.co.uk'])).toBe(true);
  });
});
