// Tables at a narrow terminal keep what matters for their resource (a priority per column,
// src/output/columns.ts), and the lines about a table (columns left out, "Showing 10 of 197")
// come after it, inside the pager when there is one. The built binary at a real pseudo-terminal.
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasScript, runAtTerminal } from '../helpers/terminal.js';
import { screenLines } from '../helpers/screen.js';
import { useSandbox } from '../helpers/sandbox.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });

/** sct at a pseudo-terminal 80 columns wide, stdout and stderr both on it; the screen as its lines. Not paged unless `env` names a pager. */
async function at80(args: string[], o: { rows?: number; env?: Record<string, string> } = {}) {
  const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, args, [], { SCT_TOKEN: OWNER, ...(o.env ?? { SCT_PAGER: 'cat' }) }, { columns: 80, rows: o.rows });
  return { exitCode: r.exitCode, lines: screenLines(r.screen).map((l) => l.trimEnd()).filter((l) => l !== '') };
}

const SHOWING = /^Showing 10 of \d+ orders \(--limit N, --offset N or --all for more\)$/;
const LEFT_OUT = /^columns left out to fit 80 columns: (.*) \(widen the terminal, or --columns\)$/;

describe.skipIf(!hasScript)('tables at 80 columns', () => {
  it('orders list --buying keeps the seller status, the assessment and the date whole; the buyer status goes first', async () => {
    const api = JSON.parse((await t.sct(['orders', 'list', '--buying', '-o', 'json'])).stdout);
    const r = await at80(['orders', 'list', '--buying']);
    expect(r.exitCode, r.lines.join('\n')).toBe(0);
    const header = r.lines.findIndex((l) => l.startsWith('ID '));
    const table = r.lines.slice(header, header + 1 + api.length);
    expect(table[0].split(/\s{2,}/)).toEqual(expect.arrayContaining(['ID', 'EXTERNAL ID', 'SELLER', 'SELLER STATUS', 'ASSESSMENT', 'CREATED']));
    expect(table[0]).not.toContain('BUYER STATUS');
    // The columns keep their order.
    expect(table[0].indexOf('SELLER STATUS')).toBeLessThan(table[0].indexOf('ASSESSMENT'));
    expect(table[0].indexOf('ASSESSMENT')).toBeLessThan(table[0].indexOf('CREATED'));
    for (const l of table) expect([...l].length, l).toBeLessThanOrEqual(80);
    api.forEach((o: any, i: number) => {
      const cells = table[i + 1].split(/\s{2,}/);
      expect(cells[0]).toBe(String(o.id));
      for (const value of [o.seller_company_status, o.assessment_status, o.order_created_at]) expect(cells).toContain(String(value));
    });
    // After the table: what was left out, then how much of the list this is.
    const after = r.lines.slice(header + 1 + api.length);
    expect(after).toHaveLength(2);
    expect(after[0]).toMatch(LEFT_OUT);
    expect(LEFT_OUT.exec(after[0])![1].split(', ')).toContain('BUYER STATUS');
    expect(after[1]).toMatch(SHOWING);
  });

  it('invitations list keeps every e-mail address whole', async () => {
    const api = JSON.parse((await t.sct(['invitations', 'list', '-o', 'json'])).stdout);
    const r = await at80(['invitations', 'list']);
    expect(r.exitCode, r.lines.join('\n')).toBe(0);
    const header = r.lines.findIndex((l) => /^(ID\s+)?EMAIL\s/.test(l));
    expect(header).toBeGreaterThanOrEqual(0);
    expect(r.lines[header]).toContain('STATUS');
    const rows = r.lines.slice(header + 1, header + 1 + api.length);
    api.forEach((inv: any, i: number) => {
      expect(rows[i].split(/\s{2,}/)).toContain(inv.email);
      expect(rows[i].split(/\s{2,}/)).toContain(inv.status);
    });
    for (const l of [r.lines[header], ...rows]) expect([...l].length, l).toBeLessThanOrEqual(80);
    expect(r.lines.join('\n')).not.toMatch(/@\S*…/);
  });

  it('with a pager, the lines about the table come after it, inside the pager', async () => {
    const paged = join(t.dir, 'paged.txt');
    const pager = t.writeFile('pager.sh', `#!/bin/sh\ncat > '${paged}'\n`);
    chmodSync(pager, 0o755);
    const r = await at80(['orders', 'list', '--buying'], { rows: 8, env: { PAGER: pager } });
    expect(r.exitCode, r.lines.join('\n')).toBe(0);
    expect(existsSync(paged), r.lines.join('\n')).toBe(true);
    const lines = readFileSync(paged, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+EXTERNAL ID/);
    expect(lines).toHaveLength(1 + 10 + 2);
    expect(lines[11]).toMatch(LEFT_OUT);
    expect(lines[12]).toMatch(SHOWING);
    // Nothing about the table reached the terminal beside the pager.
    expect(r.lines.filter((l) => SHOWING.test(l) || LEFT_OUT.test(l))).toEqual([]);
  });
});

describe.skipIf(!hasScript)('a plan in the pager', () => {
  it('sync --yes closes the pager on its plan before it writes: the results reach the terminal, not the pager', async () => {
    const paged = join(t.dir, 'paged-plan.txt');
    const pager = t.writeFile('pager-plan.sh', `#!/bin/sh\ncat > '${paged}'\n`);
    chmodSync(pager, 0o755);
    const rows = Array.from({ length: 12 }, (_, i) => `Plan ${i},CI,PAGED-${i},6.1,-5.1`);
    const file = t.writeFile('paged-origins.csv', ['name,country_code,external_id,latitude,longitude', ...rows].join('\n') + '\n');
    const r = await at80(['origins', 'sync', '--file', file, '--yes'], { rows: 8, env: { PAGER: pager } });
    expect(r.exitCode, r.lines.join('\n')).toBe(0);
    const plan = readFileSync(paged, 'utf8');
    expect(plan).toContain('PAGED-11');
    // What the run prints after its writes (the results table) is on the terminal, not in the pager.
    expect(plan).not.toMatch(/^LINE\s+KEY\s+STATUS/m);
    expect(r.lines.some((l) => /^LINE\s+KEY\s+STATUS/.test(l)), r.lines.join('\n')).toBe(true);
  });
});

describe('tables into a pipe', () => {
  it('are unchanged: tab-separated, every default column, no lines about them', async () => {
    const r = await t.sct(['orders', 'list', '--buying'], { env: { COLUMNS: '80' } });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(['ID', 'EXTERNAL ID', 'TYPE', 'SELLER', 'BUYER STATUS', 'SELLER STATUS', 'ASSESSMENT', 'CREATED', 'ITEMS', 'DDS'].join('\t'));
    expect(lines).toHaveLength(11);
    for (const l of lines) expect(l.split('\t')).toHaveLength(10);
    expect(r.stdout + r.stderr).not.toMatch(/Showing|columns left out/);
  });
});
