// The built binary at a real pseudo-terminal (util-linux `script`), answered keystroke by
// keystroke as a person would: the prompts for missing create fields, the delete confirmation
// and Ctrl-C at a prompt. Everything else tests terminals with fakes; this checks the real thing.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BIN } from '../helpers/sct.js';
import { screenLines } from '../helpers/screen.js';
import { runAtTerminal, SCRIPT, type Step } from '../helpers/terminal.js';
import { holdPath, until, useSandbox } from '../helpers/sandbox.js';
import { MULTI, OWNER } from '../sandbox/helpers.js';
import { startSandbox } from '../../src/sandbox/server.js';

const t = useSandbox();

/** Runs sct in a pseudo-terminal and types each answer once its prompt is on the screen. */
const atTerminal = (args: string[], steps: Step[], env: Record<string, string | undefined> = { SCT_TOKEN: OWNER }) => runAtTerminal({ dir: t.dir, url: t.sb.url }, args, steps, env);

describe.skipIf(!existsSync(SCRIPT))('at a real terminal', () => {
  it('create asks for the required field left out, then creates', async () => {
    const r = await atTerminal(['products', 'create', '--sku', 'TTY-1', '-o', 'json'], [{ when: 'name:', type: 'Typed at the terminal\r' }]);
    expect(r.exitCode, r.screen).toBe(0);
    const post = t.sb.requests.find((q) => q.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ sku: 'TTY-1', name: 'Typed at the terminal' });
  });

  it('delete asks first: no is exit 2 with nothing sent, yes deletes', async () => {
    const id = (await t.api('/products?limit=1&ordering=-id')).results[0].id;
    const no = await atTerminal(['products', 'delete', String(id)], [{ when: `Delete product ${id}?`, type: 'n\r' }]);
    expect(no.exitCode, no.screen).toBe(2);
    expect(no.screen).toContain(`cancelled: product ${id} was not deleted`);
    expect(t.sb.requests.filter((q) => q.method === 'DELETE')).toHaveLength(0);
    const yes = await atTerminal(['products', 'delete', String(id)], [{ when: `Delete product ${id}?`, type: 'y\r' }]);
    expect(yes.exitCode, yes.screen).toBe(0);
    expect(t.sb.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual([`/api/products/${id}`]);
  });

  it('a signal sent to sct while a question waits ends it at once: SIGTERM 143, SIGHUP 129, SIGINT from kill 130', async () => {
    const id = (await t.api('/products?limit=1&ordering=-id')).results[0].id;
    const { execFileSync } = await import('node:child_process');
    for (const [signal, code] of [['TERM', 143], ['HUP', 129], ['INT', 130]] as const) {
      const started = Date.now();
      // Sent to sct alone, as kill, a service manager or a closed terminal do: never typed at the prompt.
      const r = await atTerminal(['products', 'delete', String(id)], [{ when: `Delete product ${id}?`, before: async () => execFileSync('pkill', [`-${signal}`, '-f', `${BIN} products delete ${id}`]), type: '' }]);
      expect(r.exitCode, `${signal}: ${r.screen}`).toBe(code);
      expect(Date.now() - started, signal).toBeLessThan(10_000);
    }
    expect(t.sb.requests.filter((q) => q.method === 'DELETE')).toHaveLength(0);
  });

  it('--no-color takes the colour off the prompts too, as NO_COLOR does; without either they are coloured', async () => {
    const id = (await t.api('/products?limit=1&ordering=-id')).results[0].id;
    const ask = (flags: string[], env: Record<string, string | undefined>) => atTerminal(['products', 'delete', String(id), ...flags], [{ when: `Delete product ${id}?`, type: 'n\r' }], { SCT_TOKEN: OWNER, ...env });
    const plain = await ask(['--no-color'], { NO_COLOR: undefined });
    expect(plain.exitCode, plain.screen).toBe(2);
    expect(plain.screen).toContain(`Delete product ${id}?`);
    expect(plain.screen).not.toMatch(/\u001b\[(3\d|1|2|22|39)m/);
    const coloured = await ask([], { NO_COLOR: undefined });
    expect(coloured.screen).toMatch(/\u001b\[3\dm/);
    // A terminal that names no TERM is not known to show colour (Node and chalk read it so).
    const noTerm = await ask([], { NO_COLOR: undefined, TERM: undefined });
    expect(noTerm.exitCode, noTerm.screen).toBe(2);
    expect(noTerm.screen).toContain(`Delete product ${id}?`);
    expect(noTerm.screen).not.toMatch(/\u001b\[(3\d|1|2|22|39)m/);
    // FORCE_COLOR beside NO_COLOR: colour, and no runtime warning in the middle of the question.
    const forced = await ask([], { NO_COLOR: '1', FORCE_COLOR: '1' });
    expect(forced.screen).toMatch(/\u001b\[3\dm/);
    expect(forced.screen).not.toContain('Warning');
  });

  it('after --file - read the terminal to its end (Ctrl-D), nothing is asked: exit 2 naming what to give, not "interrupted"', async () => {
    // Typed once sct reads the terminal (it shows nothing while it does), then Ctrl-D on a line of its own.
    const wait = () => new Promise((r) => setTimeout(r, 1500));
    const r = await atTerminal(['products', 'create', '--file', '-'], [{ when: '', before: wait, type: '{"sku":"a"}\n' }, { when: '{"sku"', before: wait, type: '\u0004' }]);
    expect(r.exitCode, r.screen).toBe(2);
    expect(r.screen).toContain('give --name');
    expect(r.screen.replace(/\s+/g, ' ')).toContain('(or --set KEY=VALUE, or --file); standard input was read to its end (--file -): nothing is left to ask on');
    expect(r.screen).not.toContain('interrupted');
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
  });

  it('Ctrl-D at a question ends the run as interrupted (130), never as a success with nothing done', async () => {
    const id = (await t.api('/products?limit=1&ordering=-id')).results[0].id;
    const r = await atTerminal(['products', 'delete', String(id)], [{ when: `Delete product ${id}?`, type: '\u0004' }], { SCT_TOKEN: OWNER });
    expect(r.exitCode, r.screen).toBe(130);
    expect(r.screen).toContain('interrupted');
    expect(t.sb.requests.filter((q) => q.method === 'DELETE')).toHaveLength(0);
  });

  it('Ctrl-D at a question or a pick list: the screen keeps the question, then "interrupted" on a line of its own', async () => {
    const text = await atTerminal(['products', 'create'], [{ when: 'name:', type: '\u0004' }]);
    expect(text.exitCode, text.screen).toBe(130);
    const textLines = screenLines(text.screen).filter((l) => l.trim() !== '');
    expect(textLines.at(-1), textLines.join('\n')).toBe('error: interrupted');
    expect(textLines.at(-2)).toMatch(/^\? name:/);
    const pick = await atTerminal(['orders', 'create'], [{ when: 'Create which kind of order?', type: '\u0004' }]);
    expect(pick.exitCode, pick.screen).toBe(130);
    const pickLines = screenLines(pick.screen).filter((l) => l.trim() !== '');
    expect(pickLines.at(-1), pickLines.join('\n')).toBe('error: interrupted');
    expect(pickLines.filter((l) => l.includes('Create which kind of order?'))).toHaveLength(1);
  });

  it('auth login asks for the token without showing it, then stores it in a 0600 file', async () => {
    // Enter before the paste: asked again, not the end of the login.
    const r = await atTerminal(['auth', 'login', '--base-url', t.sb.url], [{ when: 'Paste your API token:', type: '\r' }, { when: 'a token is required', type: `${OWNER}\r` }], {});
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).not.toContain(OWNER);
    expect(r.screen).toContain('Logged in');
    const file = join(t.dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(OWNER);
  });

  it('workspaces switch without an id offers a pick list: arrow down, enter', async () => {
    const listed = (await t.api('/accounts/workspaces?limit=100', MULTI)).results.map((w: any) => w.workspace_id ?? w.id);
    expect(listed.length).toBeGreaterThan(1);
    const r = await atTerminal(['workspaces', 'switch'], [{ when: 'Switch to which workspace?', type: '\u001b[B' }, { when: `(${listed[1]}`, type: '\r' }], { SCT_TOKEN: MULTI });
    expect(r.exitCode, r.screen).toBe(0);
    const post = t.sb.requests.find((q) => q.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ company_id: listed[1] });
    // The list then starts on the workspace you are in: Enter keeps it.
    t.sb.requests.length = 0;
    const stay = await atTerminal(['workspaces', 'switch'], [{ when: 'Switch to which workspace?', type: '\r' }], { SCT_TOKEN: MULTI });
    expect(stay.exitCode, stay.screen).toBe(0);
    expect(JSON.parse(t.sb.requests.find((q) => q.method === 'POST')!.body)).toEqual({ company_id: listed[1] });
  });

  it('Ctrl-C at a pick list erases the menu, keeps the question, exits 130 and sends nothing', async () => {
    const kind = await atTerminal(['orders', 'create'], [{ when: 'Create which kind of order?', type: '\u0003' }]);
    expect(kind.exitCode, kind.screen).toBe(130);
    expect(t.sb.requests).toHaveLength(0);
    expect(screenLines(kind.screen)).toEqual(['? Create which kind of order?', 'error: interrupted']);

    const type = await atTerminal(['dds', 'create', '--name', 'x'], [{ when: 'type', type: '\u001b[B' }, { when: 'EUTR', type: '\u0003' }]);
    expect(type.exitCode, type.screen).toBe(130);
    expect(t.sb.requests).toHaveLength(0);
    expect(screenLines(type.screen)).toEqual(['? type', 'error: interrupted']);

    const pick = await atTerminal(['workspaces', 'switch'], [{ when: 'Switch to which workspace?', type: '\u0003' }], { SCT_TOKEN: MULTI });
    expect(pick.exitCode, pick.screen).toBe(130);
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
    expect(screenLines(pick.screen)).toEqual(['? Switch to which workspace?', 'error: interrupted']);
  });

  it('an answered pick list leaves the question and the answer on one line', async () => {
    const listed = (await t.api('/accounts/workspaces?limit=100', MULTI)).results;
    const r = await atTerminal(['workspaces', 'switch'], [{ when: 'Switch to which workspace?', type: '\u001b[B' }, { when: `(${listed[1].workspace_id ?? listed[1].id}`, type: '\r' }], { SCT_TOKEN: MULTI });
    expect(r.exitCode, r.screen).toBe(0);
    const lines = screenLines(r.screen);
    expect(lines[0]).toMatch(/^✔ Switch to which workspace\? .*\(\d+\)/);
    expect(lines.join('\n')).not.toContain('navigate');
  });

  it('invitations create without --role offers the roles by name (owners cannot be invited), then sends the id', async () => {
    const r = await atTerminal(['invitations', 'create', '-o', 'json'], [
      { when: 'email:', type: 'picked-role@example.com\r' },
      { when: 'MEMBER (3)', type: '\u001b[B' },
      { when: '❯ MEMBER (3)', type: '\r' },
    ]);
    expect(r.exitCode, r.screen).toBe(0);
    const screen = screenLines(r.screen).join('\n');
    expect(screen).toContain('✔ Invite as which role? MEMBER (3)');
    expect(r.screen).not.toContain('OWNER');
    const post = t.sb.requests.find((q) => q.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ email: 'picked-role@example.com', auth_group: 3 });
  });

  it('dds create --wait --timeout starts its clock once the questions are answered: the time spent picking the type is not the request\'s', async () => {
    const run = '3f6c2a1e-8b4d-4c9a-9e2f-1a2b3c4d5e6f';
    // The type picked 4.5 s after it is asked, with a limit of 4 s (the sandbox completes a statement in 2).
    const r = await atTerminal(
      ['dds', 'create', '--assessment-run-id', run, '--wait', '--timeout', '4s', '--json', 'status'],
      [{ when: 'EUTR', before: () => new Promise((done) => setTimeout(done, 4500)), type: '\r' }],
    );
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).not.toContain('--timeout');
    expect(r.screen).toContain('"status": "complete"');
    expect(t.sb.requests.filter((q) => q.method === 'POST').map((q) => JSON.parse(q.body))).toEqual([{ type: 'EUDR', assessment_run_ids: [run] }]);
  });

  it('dds create of an EUDR statement offers both ways the rule is met: the runs, or a filed statement\'s dds_identifier, and sends what was answered', async () => {
    const filed = await atTerminal(['dds', 'create', '--name', 'Filed', '-o', 'json'], [
      { when: '? type', type: '\r' },
      { when: 'Give which?', type: '\u001b[B' },
      { when: "❯ a filed statement's dds_identifier", type: '\r' },
      { when: 'dds identifier:', type: '25FRFILED1\r' },
    ]);
    expect(filed.exitCode, filed.screen).toBe(0);
    const screen = screenLines(filed.screen).join('\n');
    expect(screen).toContain('assessment run ids: required and non-empty for an EUDR statement without dds_identifier');
    expect(screen).toContain("✔ Give which? a filed statement's dds_identifier");
    expect(t.sb.requests.filter((q) => q.method === 'POST').map((q) => JSON.parse(q.body))).toEqual([{ type: 'EUDR', name: 'Filed', dds_identifier: '25FRFILED1' }]);

    t.sb.requests.length = 0;
    const run = '3f6c2a1e-8b4d-4c9a-9e2f-1a2b3c4d5e6f';
    const runs = await atTerminal(['dds', 'create', '--name', 'Runs', '-o', 'json'], [
      { when: '? type', type: '\r' },
      { when: 'Give which?', type: '\r' },
      { when: 'assessment run ids (comma-separated):', type: `${run}\r` },
    ]);
    expect(runs.exitCode, runs.screen).toBe(0);
    expect(screenLines(runs.screen).join('\n')).toContain('✔ Give which? assessment run ids');
    expect(t.sb.requests.filter((q) => q.method === 'POST').map((q) => JSON.parse(q.body))).toEqual([{ type: 'EUDR', name: 'Runs', assessment_run_ids: [run] }]);
  });

  it('Ctrl-C at a prompt exits 130 and sends nothing', async () => {
    const r = await atTerminal(['origins', 'create', '--country-code', 'CI'], [{ when: 'name:', type: '\u0003' }]);
    expect(r.exitCode, r.screen).toBe(130);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('Ctrl-C typed during a bulk run with --report: the report is written, the summary and a working rerun command shown, exit 130', async () => {
    const lines = ['email,auth_group', ...Array.from({ length: 900 }, (_, i) => `tty${i}@ctrl-c.example,3`)];
    const file = t.writeFile('people.csv', lines.join('\n') + '\n');
    const report = join(t.dir, 'report.csv');
    t.sb.setFaults({ latencyMs: 400, methods: ['POST'] });
    const r = await atTerminal(['invitations', 'bulk-create', '--file', file, '--report', report], [{ when: 'invitations to send', type: '\u0003' }]);
    t.sb.setFaults({});
    expect(r.exitCode, r.screen).toBe(130);
    const screen = screenLines(r.screen).join('\n');
    expect(screen).toMatch(/invitations: \d+ created, 0 rejected, \d+ not sent — report in /);
    expect(screen.replace(/\n/g, '')).toContain(`to continue, rerun: sct invitations bulk-create --file ${file} --report ${report} --force (`);
    expect(readFileSync(report, 'utf8').trimEnd().split('\n')).toHaveLength(901);
  });

  it('Ctrl-C while the body of a download arrives stops it: exit 130, no file and no part file', async () => {
    // A file server that sends the headers and a first part, then nothing more.
    const files = createServer((req, res) => {
      if (req.url === '/api/documents/1') return res.end(JSON.stringify({ id: 1, name: 'held.pdf' }));
      if (req.url === '/api/documents/1/download') return res.end(JSON.stringify({ url: `http://127.0.0.1:${(files.address() as AddressInfo).port}/files/1` }));
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '1000000' });
      res.write(Buffer.alloc(1000, 0x25));
    });
    files.listen(0, '127.0.0.1');
    await once(files, 'listening');
    try {
      const out = join(t.dir, 'held');
      mkdirSync(out);
      const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}/api`;
      // --verbose shows when the file's headers have come (script's terminal has no width for a spinner).
      const r = await atTerminal(['documents', 'download', '1', '--out', out + '/', '-v'], [{ when: '< content-type: application/pdf', type: '\u0003' }], { SCT_TOKEN: OWNER, SCT_BASE_URL: base });
      expect(r.exitCode, r.screen).toBe(130);
      expect(r.screen).not.toContain('Saved');
      expect(readdirSync(out)).toEqual([]);
    } finally {
      files.closeAllConnections();
      files.close();
    }
  });
});

/** Runs sct in a pseudo-terminal `cols` wide; returns its screen, lines without the carriage returns. */
async function atWidth(cols: number, args: string[], env: Record<string, string> = {}): Promise<{ exitCode: number; lines: string[]; raw: string; stderr: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // stderr goes to a file: the screen is stdout alone (and stderr, not a terminal, has no spinner).
  const errFile = join(t.dir, 'stderr.txt');
  const r = await execa(SCRIPT, ['-q', '-e', '-c', `stty cols ${cols}; ${command} 2>'${errFile}'`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm', SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    timeout: 20_000,
    stdin: 'ignore',
  });
  // The spinner (stderr, same terminal) returns to column 1 and clears the line before the next
  // text: what the screen shows of a line is what follows the last such return.
  const raw = String(r.stdout);
  const lines = raw
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.replace(/^.*(\u001b\[1G|\u001b\[0K|\r)/, '').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))
    .filter((l) => l !== '');
  return { exitCode: r.exitCode ?? -1, lines, raw, stderr: existsSync(errFile) ? readFileSync(errFile, 'utf8') : '' };
}

const width = (s: string) => [...s].length;
const UUID_OR_ID = (id: unknown) => String(id);

describe.skipIf(!existsSync(SCRIPT))('tables at a real terminal', () => {
  for (const cols of [80, 200]) {
    it(`orders list --buying fits ${cols} columns, ids and dates whole`, async () => {
      const api = JSON.parse((await t.sct(['orders', 'list', '--buying', '--limit', '10', '-o', 'json'])).stdout);
      const r = await atWidth(cols, ['orders', 'list', '--buying', '--limit', '10']);
      expect(r.exitCode, r.lines.join('\n')).toBe(0);
      // The table's lines; the lines about it follow (table-fit.test.ts).
      const table = r.lines.slice(0, api.length + 1);
      for (const l of table) expect(width(l), l).toBeLessThanOrEqual(cols);
      expect(r.lines[0]).toMatch(/^ID\s+/);
      const screen = table.join('\n');
      for (const o of api) expect(screen).toContain(UUID_OR_ID(o.id));
      if (r.lines[0].includes('CREATED')) for (const o of api) if (o.order_created_at) expect(screen).toContain(String(o.order_created_at));
    });

    it(`invitations list fits ${cols} columns, e-mail addresses, ids and expiry dates whole`, async () => {
      const api = JSON.parse((await t.sct(['invitations', 'list', '-o', 'json'])).stdout);
      const r = await atWidth(cols, ['invitations', 'list']);
      expect(r.exitCode, r.lines.join('\n')).toBe(0);
      const table = r.lines.slice(0, api.length + 1);
      for (const l of table) expect(width(l), l).toBeLessThanOrEqual(cols);
      const screen = table.join('\n');
      // Where the 36-cell uuid does not fit beside the e-mail addresses, the addresses stay.
      expect(table[0]).toMatch(cols >= 120 ? /^ID\s+EMAIL/ : /^(ID\s+)?EMAIL/);
      for (const i of api) {
        expect(screen).toContain(i.email);
        if (table[0].startsWith('ID')) expect(screen).toContain(String(i.id));
        if (table[0].includes('EXPIRES') && i.expires_at) expect(screen).toContain(String(i.expires_at).slice(0, 10));
      }
      // No pager shows them: the lines about the table are on stderr, what was left out (at 80)
      // and that this is a first page. (Which columns are left out at 80 depends on how long the
      // addresses of the page are.)
      expect(r.lines.slice(api.length + 1)).toEqual([]);
      const after = r.stderr.trimEnd().split('\n');
      expect(after.at(-1)).toMatch(/^Showing 10 of \d+ invitations/);
      expect(after.slice(0, -1)).toEqual(cols < 120 && after.length === 2 ? [expect.stringMatching(/^columns left out to fit 80 columns: .* \(widen the terminal, or --columns\)$/)] : []);
    });
  }

  it('counts a soft hyphen as the cell a terminal gives it: a name pasted from a document fits', async () => {
    const name = 'Kakao\u00adbohnen\u00adver\u00adar\u00adbei\u00adtungs\u00adge\u00adsell\u00adschaft Ham\u00adburg Nord \u00ad\u00ad\u00ad\u00ad\u00ad\u00ad\u00ad\u00ad\u00ad\u00ad';
    const created = await t.sct(['products', 'create', '--name', name, '--sku', 'SHY-1', '--commodity', 'cocoa', '--json', 'id']);
    expect(created.exitCode, created.stderr).toBe(0);
    const r = await atWidth(80, ['products', 'list', '--ordering', '-id', '--limit', '3']);
    expect(r.exitCode, r.stderr).toBe(0);
    // xterm, VTE and glibc's wcwidth give U+00AD one cell (string-width none): the columns after
    // the name stay under their headers, and no line is wider than the terminal.
    const row = r.lines.find((l) => l.includes('SHY-1'))!;
    expect([...row.slice(0, row.indexOf('cocoa'))].length, row).toBe(r.lines[0].indexOf('COMMODITY'));
    for (const l of r.lines) expect(width(l), l).toBeLessThanOrEqual(80);
  });

  it('a table left short of columns names them in one line after its rows: on stderr, no pager showing them', async () => {
    const r = await atWidth(40, ['orders', 'list', '--buying', '--limit', '3']);
    expect(r.exitCode).toBe(0);
    expect(r.lines).toHaveLength(4);
    expect(r.stderr.split('\n')[0]).toMatch(/^columns left out to fit 40 columns: .*\(widen the terminal, or --columns\)$/);
    for (const l of r.lines) expect(width(l), l).toBeLessThanOrEqual(40);
  });

  it('colours statuses at a terminal, not with NO_COLOR nor CLICOLOR=0', async () => {
    const coloured = await atWidth(200, ['invitations', 'list'], { NO_COLOR: '' });
    expect(coloured.raw).toMatch(/\u001b\[3[123]m(pending|accepted|revoked|expired)\u001b\[39m/);
    const plain = await atWidth(200, ['invitations', 'list']);
    expect(plain.raw).not.toMatch(/\u001b\[3\dm/);
    // CLICOLOR=0 as gh and ls read it (CLICOLOR_FORCE's convention).
    const off = await atWidth(200, ['invitations', 'list'], { NO_COLOR: '', CLICOLOR: '0' });
    expect(off.raw).toContain('pending');
    expect(off.raw).not.toMatch(/\u001b\[3\dm/);
    expect((await atWidth(200, ['invitations', 'list'], { NO_COLOR: '', CLICOLOR: '1' })).raw).toMatch(/\u001b\[3\dm/);
  });
});

describe.skipIf(!existsSync(SCRIPT))('progress and Ctrl-C at a real terminal', () => {
  it('an --all table at the terminal shows how far it has got while its rows are held', async () => {
    t.sb.setFaults({ latencyMs: 150, methods: ['GET'] });
    try {
      const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['orders', 'list', '--buying', '--all', '--page-size', '20', '--parallel', '1'], [], { SCT_TOKEN: OWNER }, { columns: 120 });
      expect(r.exitCode, r.screen).toBe(0);
      expect(r.screen).toMatch(/Fetched \d+ of \d+ orders…/);
    } finally {
      t.sb.setFaults({});
    }
  });

  it('Ctrl-C during a bulk run says it is waiting for the requests already sent, then reports them', async () => {
    const lines = ['email,auth_group', ...Array.from({ length: 3 }, (_, i) => `stop${i}@ctrlc-${Date.now()}.example,3`)];
    const file = t.writeFile('stop.csv', lines.join('\n') + '\n');
    // Ctrl-C once the request is out (nothing leaves after it), its answer held a moment longer.
    const hold = holdPath(t.sb, '/accounts/user-invitations/bulk-create');
    try {
      const out = async () => {
        await until(hold.asked, 'the request out');
        setTimeout(() => hold.release(), 800);
      };
      const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['invitations', 'bulk-create', '--file', file], [{ when: 'Sending invitations', before: out, type: '\u0003' }], { SCT_TOKEN: OWNER }, { columns: 200 });
      expect(r.exitCode, r.screen).toBe(130);
      expect(r.screen).toContain('stopping: waiting for the requests already sent (Ctrl-C again quits at once)');
      expect(r.screen).toContain('invitations: 3 created');
    } finally {
      hold.release();
    }
  });
});

describe('tables into a pipe', () => {
  it('are tab-separated, one line per row, uncut, readable with cut -f', async () => {
    const json = JSON.parse((await t.sct(['invitations', 'list', '-o', 'json'])).stdout);
    const env = { PATH: process.env.PATH ?? '', SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, NO_COLOR: '1', CI: 'true', COLUMNS: '40' };
    const command = `'${process.execPath}' '${BIN}' invitations list | cut -f1,2,4`;
    const r = await execa('sh', ['-c', command], { env, extendEnv: false, reject: false });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const lines = String(r.stdout).split('\n');
    expect(lines[0]).toBe('ID\tEMAIL\tSTATUS');
    expect(lines.slice(1).map((l) => l.split('\t'))).toEqual(json.map((i: any) => [String(i.id), i.email, i.status]));
    const whole = await t.sct(['invitations', 'list'], { env: { COLUMNS: '40' } });
    expect(whole.stdout).not.toContain('…');
    expect(whole.stdout).not.toMatch(/\u001b/);
    for (const l of whole.stdout.trimEnd().split('\n')) expect(l.split('\t')).toHaveLength(6);
  });
});

describe.skipIf(!existsSync(SCRIPT))('the pager at a real terminal', () => {
  /** `sct products list` in a pseudo-terminal of `rows` lines, with SCT_PAGER as given. */
  const listAt = (rows: number, pager: string, limit: number) => sctAt(rows, pager, `products list --limit ${limit}`);

  /** sct with these arguments (shell words) in a pseudo-terminal of `rows` lines, with SCT_PAGER as given. */
  async function sctAt(rows: number, pager: string, args: string) {
    const command = `stty rows ${rows} cols 120; '${process.execPath}' '${BIN}' ${args}`;
    return execa(SCRIPT, ['-q', '-e', '-c', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm', SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, NO_COLOR: '1', SCT_PAGER: pager },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
      stdin: 'pipe',
    });
  }

  it('a CI job at a pseudo-terminal (docker run -t) gets no pager, even with PAGER set, and no spinner: nothing waits for a q', async () => {
    const command = `stty rows 5 cols 120; '${process.execPath}' '${BIN}' products list --limit 20`;
    const r = await execa(SCRIPT, ['-q', '-e', '-c', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm', SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, NO_COLOR: '1', CI: 'true', PAGER: 'less' },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
      stdin: 'pipe',
    });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain('NAME');
    expect(r.stdout).toMatch(/Showing 20 of \d+ products/);
    expect(r.stdout).not.toMatch(/[\u2800-\u28ff]/);
  });

  it('long output goes through SCT_PAGER; short output, or SCT_PAGER=cat, does not', async () => {
    const paged = join(t.dir, 'paged.txt');
    const long = await listAt(5, `cat > '${paged}'`, 20);
    expect(long.exitCode, long.stdout).toBe(0);
    const pagedLines = readFileSync(paged, 'utf8').trimEnd().split('\n');
    expect(pagedLines).toHaveLength(22);
    expect(pagedLines[21]).toMatch(/^Showing 20 of \d+ products/);
    expect(long.stdout).not.toContain('NAME');

    const unpaged = join(t.dir, 'short.txt');
    const short = await listAt(30, `cat > '${unpaged}'`, 3);
    expect(short.stdout).toContain('NAME');
    expect(existsSync(unpaged)).toBe(false);

    const off = await listAt(5, 'cat', 20);
    expect(off.exitCode).toBe(0);
    expect(off.stdout).toContain('NAME');
  });

  it('a bulk run\'s summary follows its table: after it when the table is short, inside the pager when it is long', async () => {
    const file = t.writeFile('tty-origins.csv', ['name,country_code,external_id', ...Array.from({ length: 8 }, (_, i) => `Plot ${i},CI,TTY-P-${i}-${Date.now()}`)].join('\n') + '\n');
    const run = (rows: number, pager: string) => sctAt(rows, pager, `origins import --file '${file}' --fresh`);
    const short = await run(40, 'less -FRX');
    expect(short.exitCode, short.stdout).toBe(0);
    expect(short.stdout.indexOf('LINE')).toBeGreaterThan(-1);
    expect(short.stdout.indexOf('origins: 8 created')).toBeGreaterThan(short.stdout.indexOf('TTY-P-7'));
    const paged = join(t.dir, 'paged-run.txt');
    const long = await run(5, `cat > '${paged}'`);
    expect(long.exitCode, long.stdout).toBe(0);
    const inPager = readFileSync(paged, 'utf8');
    expect(inPager.indexOf('origins: 8 created')).toBeGreaterThan(inPager.indexOf('TTY-P-7'));
    expect(long.stdout).not.toContain('origins: 8 created');
  });

  it('a pager that is not installed: the output still reaches the terminal, after a one-line warning', async () => {
    const r = await listAt(5, 'nonexistent-pager --quit', 20);
    expect(r.exitCode, r.stdout).toBe(0);
    const screen = screenLines(String(r.stdout));
    expect(screen.filter((l) => l.startsWith('warning:'))).toEqual(['warning: pager "nonexistent-pager" not found: the output is written directly (SCT_PAGER=cat turns paging off)']);
    expect(screen.filter((l) => /^\d+\s/.test(l))).toHaveLength(20);
    expect(String(r.stdout)).not.toContain('not found\r\nwarning');
  });

  it('a pager that fails (exits non-zero) is exit 1, "writing output: …", never a success', async () => {
    for (const pager of ['false', 'cat --no-such-option']) {
      const r = await listAt(5, pager, 20);
      expect(r.exitCode, r.stdout).toBe(1);
      expect(String(r.stdout)).toMatch(/error: writing output: the pager ".*" exited with status \d+: the output was not all shown \(SCT_PAGER=cat turns paging off\)/);
    }
  });

  it("a sync plan's summary and cost lines follow its table inside the pager, before the question", async () => {
    const file = t.writeFile('plan.csv', `external_id,name,country_code\nPAGED-${Date.now()},Paged origin,CI\n`);
    const paged = join(t.dir, 'plan-paged.txt');
    const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['origins', 'sync', '--file', file], [{ when: 'Apply the plan', type: 'n\r' }], { SCT_TOKEN: OWNER, SCT_PAGER: `cat > '${paged}'` }, { columns: 120, rows: 8 });
    expect(r.exitCode, r.screen).toBe(2);
    const lines = readFileSync(paged, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ACTION\s+EXTERNAL ID/);
    const summary = lines.findIndex((l) => l.startsWith('plan for origins: 1 to create'));
    expect(summary).toBeGreaterThan(1);
    expect(lines.slice(summary + 1).some((l) => l.startsWith('cost: 1 write'))).toBe(true);
    expect(lines.slice(0, summary).every((l) => !l.startsWith('cost:'))).toBe(true);
  });

  it('quitting the pager early (it exits 0 with input left) is no failure', async () => {
    const r = await listAt(5, 'head -c 10 > /dev/null', 20);
    expect(r.exitCode, r.stdout).toBe(0);
  });

  it('TERM=dumb draws no spinner (it moves the cursor); another terminal does', async () => {
    const at = (term: string) => runAtTerminal({ dir: t.dir, url: t.sb.url }, ['products', 'list', '--limit', '3', '-o', 'json'], [], { SCT_TOKEN: OWNER, SCT_PAGER: 'cat', TERM: term }, { columns: 120 });
    const xterm = await at('xterm');
    expect(xterm.exitCode, xterm.screen).toBe(0);
    expect(xterm.screen).toContain('Fetching products');
    const dumb = await at('dumb');
    expect(dumb.exitCode, dumb.screen).toBe(0);
    expect(dumb.screen).not.toContain('Fetching products');
    expect(dumb.screen).not.toContain('\u001b[?25l');
  });

  it('draws no spinner when stdout is a pipe, whose reader may print to the same terminal (`| cat`); to a file it does', async () => {
    const at = async (redirect: string) => {
      const command = `stty cols 120; ${[process.execPath, BIN, 'products', 'list', '--limit', '3', '-o', 'json'].map((a) => `'${a}'`).join(' ')} ${redirect}`;
      const r = await execa(SCRIPT, ['-q', '-e', '-c', command, '/dev/null'], {
        env: { PATH: process.env.PATH ?? '', TERM: 'xterm', SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, NO_COLOR: '1' },
        extendEnv: false,
        reject: false,
        timeout: 20_000,
        stdin: 'pipe',
      });
      return { exitCode: r.exitCode ?? -1, screen: String(r.stdout) };
    };
    const piped = await at('| cat');
    expect(piped.exitCode, piped.screen).toBe(0);
    expect(piped.screen).not.toContain('Fetching products');
    // No line of the reader's is cleared: each of the three products is on the screen.
    expect(piped.screen).not.toContain('\u001b[0K');
    expect(piped.screen.match(/"sku"/g)).toHaveLength(3);
    const toFile = await at(`> '${join(t.dir, 'products.json')}'`);
    expect(toFile.exitCode, toFile.screen).toBe(0);
    expect(toFile.screen).toContain('Fetching products');
  });

  it('a request body printed at a terminal (--dry-run, -v) carries no C1 control character, which JSON does not escape', async () => {
    // As an order's item comes back in the PATCH `orders trace` sends: the service's own text.
    const name = 'C1\u009b2J\u009d0;T\u009cX';
    const dry = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['products', 'create', '--name', name, '--dry-run'], [], { SCT_TOKEN: OWNER, SCT_PAGER: 'cat' });
    expect(dry.exitCode, dry.screen).toBe(0);
    expect(dry.screen).toContain('"name": "C10;TX"');
    expect(dry.screen).not.toMatch(/[\u0080-\u009f]/);
    const verbose = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['products', 'create', '--name', name, '-v'], [], { SCT_TOKEN: OWNER, SCT_PAGER: 'cat' });
    expect(verbose.exitCode, verbose.screen).toBe(0);
    expect(verbose.screen).toContain('> {"name":"C10;TX"}');
    expect(verbose.screen).not.toMatch(/[\u0080-\u009f]/);
  });

  it('SIGTERM or SIGHUP while less shows the list: the pager is ended, exit 143 or 129, never 0', async () => {
    const { execFileSync } = await import('node:child_process');
    for (const [signal, code] of [['TERM', 143], ['HUP', 129]] as const) {
      const started = Date.now();
      // Sent to sct alone once less shows the rows: nobody quits the pager.
      const r = await runAtTerminal(
        { dir: t.dir, url: t.sb.url },
        ['products', 'list', '--limit', '20'],
        [{ when: 'NAME', before: async () => execFileSync('pkill', [`-${signal}`, '-f', `${BIN} products list --limit 20$`]), type: '' }],
        { SCT_TOKEN: OWNER, SCT_PAGER: 'less' },
        { rows: 8, columns: 120 },
      );
      expect(r.exitCode, `${signal}: ${r.screen}`).toBe(code);
      expect(r.screen).toContain(`stopped by SIG${signal}`);
      expect(Date.now() - started, signal).toBeLessThan(10_000);
    }
  });
});

describe.skipIf(!existsSync(SCRIPT))('stopping a sync whose plan less shows', () => {
  /** A plan of 12 creates, longer than the terminal's 8 rows: less shows it. */
  const planFile = (name: string) => t.writeFile(name, ['external_id,name,country_code', ...Array.from({ length: 12 }, (_, i) => `${name}-${i},Paged origin ${i},CI`)].join('\n') + '\n');
  const wait = (ms: number) => new Promise<void>((go) => setTimeout(go, ms));

  it('SIGTERM while less shows the plan (asked or --yes) ends the pager and the run: 143, nothing sent', async () => {
    const { execFileSync } = await import('node:child_process');
    for (const yes of [[], ['--yes']]) {
      const file = planFile(`term-plan-${yes.length}-${Date.now()}.csv`);
      const started = Date.now();
      t.sb.requests.length = 0;
      const r = await runAtTerminal(
        { dir: t.dir, url: t.sb.url },
        ['origins', 'sync', '--file', file, ...yes],
        [{ when: 'ACTION', before: async () => (await wait(300), execFileSync('pkill', ['-TERM', '-f', `${BIN} origins sync --file ${file}`])), type: '' }],
        { SCT_TOKEN: OWNER, SCT_PAGER: 'less', NO_COLOR: '1' },
        { rows: 8, columns: 120 },
      );
      expect(r.exitCode, `${yes.join('')}: ${r.screen}`).toBe(143);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
    }
  });

  it('Ctrl-C while less shows the plan, then q: exit 130 at once, no question left holding the terminal', async () => {
    const file = planFile(`int-plan-${Date.now()}.csv`);
    const started = Date.now();
    t.sb.requests.length = 0;
    const r = await runAtTerminal(
      { dir: t.dir, url: t.sb.url },
      ['origins', 'sync', '--file', file],
      [{ when: 'ACTION', before: () => wait(300), type: '\u0003' }, { when: 'ACTION', before: () => wait(300), type: 'q' }],
      { SCT_TOKEN: OWNER, SCT_PAGER: 'less', NO_COLOR: '1' },
      { rows: 8, columns: 120 },
    );
    expect(r.exitCode, r.screen).toBe(130);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.screen).not.toContain('Apply the plan');
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
  });
});

describe.skipIf(!existsSync(SCRIPT))('stopping a list at a real terminal, with less', () => {
  // Its own arguments, matched to the end by pkill below: another test file's run of `orders
  // list --buying --all` (clock-skew's, at the same time) is not this one.
  const ALL = ['orders', 'list', '--buying', '--all', '--page-size', '10', '--parallel', '1'];
  const pages = () => t.sb.requests.filter((r) => r.method === 'GET' && r.path === '/api/orders').length;

  it('Ctrl-C or SIGTERM while a table is fetched ends the run at once (130, 143): no pager opened to wait on', async () => {
    const { execFileSync } = await import('node:child_process');
    t.sb.setFaults({ latencyMs: 150, methods: ['GET'] });
    try {
      for (const [how, code] of [['ctrl-c', 130], ['TERM', 143]] as const) {
        const started = Date.now();
        const r = await runAtTerminal(
          { dir: t.dir, url: t.sb.url },
          ALL,
          [{ when: 'Fetching', before: () => new Promise((go) => setTimeout(go, 800)).then(() => how === 'TERM' && execFileSync('pkill', ['-TERM', '-f', `${BIN} ${ALL.join(' ')}$`])), type: how === 'ctrl-c' ? '\u0003' : '' }],
          { SCT_TOKEN: OWNER, SCT_PAGER: 'less', NO_COLOR: '1' },
          { rows: 8, columns: 120 },
        );
        expect(r.exitCode, `${how}: ${r.screen}`).toBe(code);
        expect(Date.now() - started, how).toBeLessThan(8_000);
      }
    } finally {
      t.sb.setFaults({});
    }
  });

  it('q in the pager stops a list --all that is still reading pages: exit 0, the rest never asked for', async () => {
    t.sb.setFaults({ latencyMs: 150, methods: ['GET'] });
    try {
      t.sb.requests.length = 0;
      const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, [...ALL, '-o', 'ndjson'], [{ when: '"external_id"', type: 'q' }], { SCT_TOKEN: OWNER, SCT_PAGER: 'less', NO_COLOR: '1' }, { rows: 8, columns: 120 });
      expect(r.exitCode, r.screen).toBe(0);
      const total = Number((await t.api('/orders?order_action=buying&limit=1')).count);
      expect(pages()).toBeLessThan(Math.ceil(total / 10) / 2);
    } finally {
      t.sb.setFaults({});
    }
  });

  it('with CI=true at a terminal nothing is asked, and the message says why (not "no terminal")', async () => {
    const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['products', 'delete', '999999'], [], { SCT_TOKEN: OWNER, CI: 'true' });
    expect(r.exitCode, r.screen).toBe(2);
    expect(r.screen).toContain('confirm with --yes (CI=true: nothing is asked)');
    // Any CI value but false or 0, as CI services set it (CI=1, CI=yes).
    for (const ci of ['1', 'yes', 'TRUE']) {
      const other = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['products', 'delete', '999999'], [], { SCT_TOKEN: OWNER, CI: ci });
      expect(other.exitCode, other.screen).toBe(2);
      expect(other.screen).toContain(`confirm with --yes (CI=${ci}: nothing is asked)`);
    }
    const asked = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['products', 'delete', '999999'], [{ when: 'Delete product 999999?', type: 'n\r' }], { SCT_TOKEN: OWNER, CI: 'false' });
    expect(asked.screen).toContain('Delete product 999999?');
    const dry = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['workspaces', 'switch', '--dry-run'], [], { SCT_TOKEN: OWNER });
    expect(dry.exitCode, dry.screen).toBe(2);
    expect(dry.screen).toContain('(a dry run asks nothing)');
  });

  it('a value left out in a dry run or under CI at a terminal is said with that reason, never "no terminal" or "asked only at a terminal"', async () => {
    const said = async (args: string[], env: Record<string, string> = {}) => {
      const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, args, [], { SCT_TOKEN: OWNER, ...env });
      expect(r.exitCode, r.screen).toBe(2);
      expect(r.screen).not.toMatch(/no terminal|asked only at a terminal/);
      return screenLines(r.screen).join(' ').replace(/\s+/g, ' ');
    };
    expect(await said(['invitations', 'create', '--email', 'x@y.example', '--dry-run'])).toContain('--role is required: the role the person gets, by name or id (a dry run asks nothing)');
    expect(await said(['invitations', 'create', '--email', 'x@y.example'], { CI: '1' })).toContain('--role is required: the role the person gets, by name or id (CI=1: nothing is asked)');
    expect(await said(['origins', 'create', '--dry-run'])).toContain('hint: give --name, --country-code (or --set KEY=VALUE, or --file); a dry run asks nothing');
    expect(await said(['origins', 'create', '--name', 'x'], { CI: '1' })).toContain('hint: give --country-code (or --set KEY=VALUE, or --file); CI=1: nothing is asked');
    expect(await said(['orders', 'create', '--purchase', '--dry-run'])).toContain('(or --set KEY=VALUE, or --file); a dry run asks nothing');
    // A rule a terminal would have offered a pick for says why nothing was asked too.
    expect(await said(['dds', 'create', '--type', 'EUDR', '--name', 't', '--dry-run'])).toContain('hint: a dry run asks nothing: give the fields named above as flags');
    expect(await said(['dds', 'create', '--type', 'PPWR', '--dry-run'])).toContain('hint: a dry run asks nothing: give the fields named above as flags');
    // A value given and refused is no value left out: no such hint.
    const refused = await said(['origins', 'create', '--name', 'X', '--country-code', 'CI', '--set', 'location={"type":"Point","coordinates":[200,1]}', '--dry-run']);
    expect(refused).not.toContain('a dry run asks nothing');
    expect(t.sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
    // Without a terminal nothing is asked, dry run or not: that is the reason said.
    const script = await t.sct(['invitations', 'create', '--email', 'x@y.example', '--dry-run']);
    expect(script.stderr).toContain('(no terminal to ask on)');
    // A field whose flag has another name is named by its flag (auth_group is --role).
    const role = await t.sct(['invitations', 'create', '--file', '-'], { input: '{"email":"a@b.example"}' });
    expect(role.stderr).toContain('hint: give --role (or --set KEY=VALUE, or --file)');
    const noTty = await t.sct(['origins', 'create', '--dry-run']);
    expect(noTty.stderr).toContain('values are asked only at a terminal');
    expect(noTty.stderr).not.toContain('a dry run asks nothing');
  });

  it('TERM=dumb pages nothing (less cannot draw there); -qy is as quiet as -q -y', async () => {
    // less is the default pager: on a dumb terminal it would ask for RETURN and run the rows together.
    const dumb = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['products', 'list', '--limit', '20'], [], { SCT_TOKEN: OWNER, SCT_PAGER: undefined, PAGER: undefined, TERM: 'dumb' }, { rows: 5, columns: 120 });
    expect(dumb.exitCode, dumb.screen).toBe(0);
    expect(dumb.screen).not.toContain('not fully functional');
    expect(dumb.screen).toContain('NAME');
    expect(dumb.screen).toMatch(/Showing 20 of \d+ products/);
    for (const flags of [['-q', '-y'], ['-qy'], ['-yq']]) {
      const r = await runAtTerminal({ dir: t.dir, url: t.sb.url }, ['products', 'list', '--limit', '3', ...flags], [], { SCT_TOKEN: OWNER, SCT_PAGER: 'cat' }, { columns: 60 });
      expect(r.exitCode, r.screen).toBe(0);
      expect(r.screen, flags.join(' ')).not.toContain('Fetching');
      expect(r.screen, flags.join(' ')).not.toContain('Showing 3 of');
    }
  });
});

describe.skipIf(!existsSync(SCRIPT))('dds wait at a real terminal', () => {
  /** sct at a pseudo-terminal 120 columns wide (so the spinner draws), stdout and stderr both on it. */
  async function waitAt(args: string[], env: Record<string, string>) {
    const command = `stty cols 120 rows 40; ${[process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ')}`;
    const r = await execa(SCRIPT, ['-q', '-e', '-c', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm', SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_TOKEN: OWNER, SCT_PAGER: 'cat', ...env },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
      stdin: 'pipe',
    });
    return { exitCode: r.exitCode ?? -1, raw: String(r.stdout) };
  }

  it('colours the statuses in its messages as tables do, and not with NO_COLOR', async () => {
    const complete = JSON.parse((await t.sct(['dds', 'create', '--type', 'EUTR', '--json'])).stdout);
    const done = await waitAt(['dds', 'wait', String(complete.id)], { SCT_BASE_URL: t.sb.url });
    expect(done.exitCode, done.raw).toBe(0);
    expect(done.raw).toContain(`Statement ${complete.id} is \u001b[32mcomplete\u001b[39m`);
    const piped = await t.sct(['dds', 'wait', String(complete.id)], { env: { NO_COLOR: '' } });
    expect(piped.stderr).toContain(`Statement ${complete.id} is complete`);
    expect(piped.stderr).not.toMatch(/\u001b/);

    const slow = await startSandbox({ port: 0, statementDelayMs: 600_000 });
    try {
      const created = await t.sct(['dds', 'create', '--type', 'EUDR', '--dds-identifier', 'SLOW-COLOUR', '--json'], { env: { SCT_BASE_URL: slow.url } });
      const id = JSON.parse(created.stdout).id;
      const running = await waitAt(['dds', 'wait', String(id), '--timeout', '1500ms'], { SCT_BASE_URL: slow.url });
      expect(running.exitCode, running.raw).toBe(1);
      expect(running.raw).toContain(`Statement ${id} is \u001b[33min_progress\u001b[39m`);

      const plain = await waitAt(['dds', 'wait', String(id), '--timeout', '1500ms'], { SCT_BASE_URL: slow.url, NO_COLOR: '1' });
      expect(plain.raw).toContain(`Statement ${id} is in_progress`);
      expect(plain.raw).not.toMatch(/\u001b\[3\dm/);
    } finally {
      await slow.close();
    }
  });
});
