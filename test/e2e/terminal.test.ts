// The built binary at a real pseudo-terminal (util-linux `script`), answered keystroke by
// keystroke as a person would: the prompts for missing create fields, the delete confirmation
// and Ctrl-C at a prompt. Everything else tests terminals with fakes; this checks the real thing.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from '../helpers/sct.js';
import { useSandbox } from '../helpers/sandbox.js';
import { MULTI, OWNER } from '../sandbox/helpers.js';

const SCRIPT = '/usr/bin/script';
const t = useSandbox();

interface Step {
  /** Wait until the terminal shows this… */
  when: string;
  /** …then type this. */
  type: string;
}

/** Runs sct in a pseudo-terminal and types each answer once its prompt is on the screen. */
async function atTerminal(args: string[], steps: Step[], env: Record<string, string> = { SCT_TOKEN: OWNER }): Promise<{ exitCode: number; screen: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = execa(SCRIPT, ['-q', '-e', '-c', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm', SCT_CONFIG_DIR: t.dir, HOME: t.dir, SCT_BASE_URL: t.sb.url, NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    timeout: 20_000,
    stdin: 'pipe',
  });
  let screen = '';
  let next = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    while (next < steps.length && screen.includes(steps[next].when)) child.stdin!.write(steps[next++].type);
  });
  const r = await child;
  child.stdin!.end();
  return { exitCode: r.exitCode ?? -1, screen };
}

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

  it('auth login asks for the token without showing it, then stores it in a 0600 file', async () => {
    const r = await atTerminal(['auth', 'login', '--base-url', t.sb.url], [{ when: 'Paste your API token:', type: `${OWNER}\r` }], {});
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
  });

  it('Ctrl-C at a prompt exits 130 and sends nothing', async () => {
    const r = await atTerminal(['origins', 'create', '--country-code', 'CI'], [{ when: 'name:', type: '\u0003' }]);
    expect(r.exitCode, r.screen).toBe(130);
    expect(t.sb.requests).toHaveLength(0);
  });
});
