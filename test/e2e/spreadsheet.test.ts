// What sct writes for people to open in spreadsheets and file managers, against the sandbox:
// CSV cells that cannot run as formulas (and read back unchanged), --columns that cannot reach
// into JavaScript objects, and download names that fit the file system.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';
import { sctFor } from '../helpers/sct.js';
import { dryRunBodies } from '../helpers/dry-run.js';
import { client, OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });

const LINK = '=HYPERLINK("http://x")';
const SUM = '@SUM(1)';

describe('csv output in a spreadsheet', () => {
  it('guards cells a spreadsheet would run, --csv-formulas writes them as sent, and an import reads them back', async () => {
    const created = await client(t.sb).post('/origins', { name: LINK, description: SUM, country_code: 'CI', external_id: 'SHEET-1' });
    expect(created.status).toBe(201);
    t.sb.requests.length = 0;

    const args = ['origins', 'list', '--filter', 'external_id=SHEET-1', '-o', 'csv', '--columns', 'id,name,description,country_code,external_id'];
    const guarded = await t.sct(args);
    expect(guarded.exitCode, guarded.stderr).toBe(0);
    expect(guarded.stdout).toBe(`id,name,description,country_code,external_id\n${created.body.id},"'=HYPERLINK(""http://x"")",'@SUM(1),CI,SHEET-1\n`);

    const verbatim = await t.sct([...args, '--csv-formulas']);
    expect(verbatim.exitCode, verbatim.stderr).toBe(0);
    expect(verbatim.stdout).toBe(`id,name,description,country_code,external_id\n${created.body.id},"=HYPERLINK(""http://x"")",@SUM(1),CI,SHEET-1\n`);
    expect(parse(verbatim.stdout, { columns: true })[0]).toMatchObject({ name: LINK, description: SUM });

    // The export, fed back to a bulk command, is read as the service sent it.
    const file = t.writeFile('exported.csv', guarded.stdout);
    t.sb.requests.length = 0;
    const dry = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(t.sb.requests).toHaveLength(0);
    expect(dryRunBodies(dry.stdout)).toEqual([expect.objectContaining({ name: LINK, description: SUM, country_code: 'CI', external_id: 'SHEET-1' })]);
  });
});

describe('--columns naming JavaScript object properties', () => {
  it('prints empty cells and the unknown-field warning, never a function', async () => {
    // sct api takes any field name (orders list refuses names orders do not have).
    const r = await t.sct(['api', '/orders', '-X', 'GET', '-f', 'order_action=buying', '-f', 'limit=2', '-o', 'csv', '--columns', 'id,toString,constructor.name']);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id,toString,constructor.name');
    expect(lines.slice(1)).toHaveLength(2);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\d+,,$/);
    expect(r.stderr).toContain('no field "toString", "constructor.name" in the results');
    expect(r.stdout + r.stderr).not.toMatch(/function|native code/);
  });
});

describe('download names', () => {
  it('saves a document whose name is longer than 255 bytes under a shortened name that keeps its extension', async () => {
    const name = 'é'.repeat(150) + '.pdf';
    const up = await t.sct(['documents', 'upload', t.writeFile('long.pdf', '%PDF-1.4\n'), '--name', name, '-o', 'json']);
    expect(up.exitCode, up.stderr).toBe(0);
    const out = join(t.dir, 'long') + '/';
    const r = await t.sct(['documents', 'download', String(JSON.parse(up.stdout).id), '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const saved = 'é'.repeat(125) + '.pdf';
    expect(r.stdout.trim()).toBe(join(out, saved));
    expect(readdirSync(out)).toEqual([saved]);
    expect(readFileSync(join(out, saved), 'utf8')).toBe('%PDF-1.4\n');
  });

  it('names an evidence package after the assessment when the service names it with dots alone', async () => {
    const dispositions = [
      "attachment; filename*=UTF-8''%2E%2E",
      "attachment; filename*=UTF-8''%2E%2E.zip",
      `attachment; filename="../.."; filename*=UTF-8''..%2F..%2F.zip`,
      `attachment; filename*=UTF-8''${encodeURIComponent('é'.repeat(200))}.zip`,
    ];
    let next = 0;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-disposition': dispositions[next++] });
      res.end(Buffer.from('PK\u0005\u0006' + '\u0000'.repeat(18), 'latin1'));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const sct = sctFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, OWNER, t.dir);
      const saved: string[] = [];
      for (let i = 0; i < dispositions.length; i++) {
        const out = join(t.dir, `evidence-${i}`);
        mkdirSync(out);
        const r = await sct(['risk', 'evidence', '7', '--out', out + '/']);
        expect(r.exitCode, `${dispositions[i]}: ${r.stderr}`).toBe(0);
        saved.push(...readdirSync(out));
      }
      expect(saved).toEqual(['risk-assessment-7.zip', 'risk-assessment-7.zip', 'risk-assessment-7.zip', 'é'.repeat(125) + '.zip']);
    } finally {
      server.close();
    }
  });
});
