// The service's words where they were still written as they came: a bulk answer's action and
// status, an origin id the export leaves out, a download's name that Windows reads as a device.
// A fake service on 127.0.0.1 answers with escape sequences (a title, the clipboard, a cleared
// screen) and a right-to-left override; none may reach a terminal, a report or a file name raw.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';
import { runSct } from '../helpers/sct.js';
import { hasScript, runAtTerminal } from '../helpers/terminal.js';

// And a line break before a line that reads as sct's own.
const HOSTILE = 'A\x1b]0;PWNED\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J\u202eB\nerror: forged\u2028line';
const RAW = /[\x1b\x07\u202e]/;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const server = useLocalServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c));
  req.on('end', () => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/api/accounts/me') return json(res, 200, { id: 1, first_name: 'A', last_name: 'B', active_user_company_id: 1, user_company: { id: 1, company_id: 1, auth_group_id: 1 }, company: { id: 1, name: 'Co' }, auth_group: { id: 1, name: 'OWNER' } });
    if (path === '/api/information-requests/bulk') {
      const sent = (JSON.parse(body) as { information_requests: object[] }).information_requests;
      return json(res, 200, { message: 'ok', results: { summary: { total_information_requests: sent.length, processed: sent.length, failed: 0 }, processed: sent.map((x, index) => ({ index, ...x, invitation_action: HOSTILE })), failed: [] } });
    }
    if (path === '/api/accounts/user-invitations/bulk-create') return json(res, 200, { results: [{ index: 0, status: HOSTILE, error: { email: ['refused'] } }] });
    if (path === '/api/origins') return json(res, 200, { count: 1, next: null, previous: null, results: [{ id: HOSTILE, name: 'x', country_code: 'CI', location: null }] });
    if (path === '/api/orders/5' && req.method === 'GET') return json(res, 200, { id: 5, type: 'order', external_id: 'X'.repeat(200_000), buyer_company_id: 1, seller_company_id: 2, company_id: 1, items: [] });
    if (path === '/api/orders/5' && req.method === 'DELETE') {
      res.writeHead(204);
      return res.end();
    }
    if (path === '/api/documents/4') return json(res, 200, { id: 4, name: 'nul.tar.gz', content_type: 'application/gzip', status: 'uploaded' });
    if (path === '/api/documents/6') return json(res, 200, { id: 6, name: 'con  .tar.gz', content_type: 'application/gzip', status: 'uploaded' });
    if (path === '/api/documents/6/download') return json(res, 200, { url: `http://${req.headers.host}/dl/4` });
    if (path === '/api/documents/4/download') return json(res, 200, { url: `http://${req.headers.host}/dl/4` });
    if (path === '/dl/4') {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      return res.end('data');
    }
    json(res, 404, { detail: 'Not found.' });
  });
});
const env = useServerEnv(server);
const sct = (args: string[]) => runSct(args, { env: env.env(), cwd: env.dir });

describe("the service's words, never raw", () => {
  it('info-requests send: the actions the service says it took', async () => {
    writeFileSync(join(env.dir, 'ir.csv'), 'order_id,value_chain_id\n217,1\n');
    const r = await sct(['info-requests', 'send', '--file', join(env.dir, 'ir.csv')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('what was sent: 1 AB error: forged line');
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).not.toMatch(/^error: forged/m);
  });

  it("a bulk run's report: the status a rejected row was answered with", async () => {
    writeFileSync(join(env.dir, 'people.csv'), 'email,auth_group\na@example.com,3\n');
    const report = join(env.dir, 'report.csv');
    const r = await sct(['invitations', 'bulk-create', '--file', join(env.dir, 'people.csv'), '--report', report]);
    expect(r.exitCode, r.stderr).toBe(3);
    const text = readFileSync(report, 'utf8');
    expect(text).toContain('AB');
    expect(text).not.toMatch(RAW);
    // Each rejected row on stderr is one line.
    expect(r.stderr).not.toMatch(/^error: forged/m);
    expect(r.stderr).not.toContain('\u2028');
  });

  it('origins list --eudr: the id of an origin left out for want of a location', async () => {
    const r = await sct(['origins', 'list', '-o', 'geojson', '--eudr']);
    expect(r.stderr).toContain('without a location left out');
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).not.toMatch(/^error: forged/m);
  });

  it.skipIf(!hasScript)('a delete asks about the order with its external id cut: 200,000 characters are no question to read', async () => {
    const r = await runAtTerminal({ dir: env.dir, url: server.url }, ['orders', 'delete', '5'], [{ when: 'Delete', type: 'n\r' }], { SCT_TOKEN: 'sct_test_token', SCT_CONFIG_DIR: env.dir });
    expect(r.exitCode, r.screen.slice(0, 300)).toBe(2);
    expect(r.screen).toContain('more characters)');
    expect(r.screen.length).toBeLessThan(5000);
  });

  it('a download named as a Windows device before its extensions (nul.tar.gz) is saved under another name', async () => {
    const r = await sct(['documents', 'download', '4']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(env.dir)).toContain('_nul.tar.gz');
    // Spaces before the dot are Windows's to drop: still the device.
    expect((await sct(['documents', 'download', '6'])).exitCode).toBe(0);
    expect(readdirSync(env.dir)).toContain('_con  .tar.gz');
  });
});
