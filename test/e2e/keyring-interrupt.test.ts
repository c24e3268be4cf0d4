// Ctrl-C at a terminal reaches the whole process group: sct and the short-lived helper that
// talks to the keyring (src/config/keyring.ts). A helper stopped so is the user stopping sct,
// never a keyring that cannot be used: a login falling back to the config file stored the token
// there in plain text and ended 0; a read of the token said "not logged in" (exit 4).
// A session bus that accepts and never answers holds the helper, so the signal meets it.
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Socket } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSandbox } from '../helpers/sandbox.js';
import { OWNER } from '../sandbox/helpers.js';
import { removeDir, tempDir } from '../helpers/sct.js';

const t = useSandbox({}, { inProcess: true });

const sockets = new Set<Socket>();
const bus = createServer((s) => sockets.add(s));
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => bus.close(r));
});

const busDir = tempDir('sct-bus-');
afterAll(() => removeDir(busDir));
async function silentBus(): Promise<string> {
  const path = join(busDir, 'bus');
  if (!bus.listening) await new Promise<void>((r) => bus.listen(path, r));
  return `unix:path=${path}`;
}

/** Runs sct in a group of its own and sends `signal` to the group once the helper is waiting. */
async function stopGroup(args: string[], signal: NodeJS.Signals, env: Record<string, string | undefined>, input?: string) {
  const child = t.spawnSct(args, { env: { ...env, DBUS_SESSION_BUS_ADDRESS: await silentBus() }, input, detached: true, timeout: 20_000 });
  // The helper waits up to 3 s for the bus; the signal comes while it does.
  await new Promise((r) => setTimeout(r, 1500));
  process.kill(-child.pid!, signal);
  const r = await child;
  return { exitCode: r.exitCode, stderr: String(r.stderr) };
}

const config = () => (existsSync(join(t.dir, 'config.json')) ? readFileSync(join(t.dir, 'config.json'), 'utf8') : '');

describe('a stop signal to the group while the keyring helper runs', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`auth login: ${signal} ends it ${code} with the token stored nowhere, never in the config file as a keyring "that cannot be used"`, async () => {
      const r = await stopGroup(['auth', 'login', '--base-url', t.sb.url, '--with-token'], signal, { SCT_TOKEN: undefined, SCT_BASE_URL: undefined }, OWNER);
      expect(r.exitCode, r.stderr).toBe(code);
      expect(r.stderr).not.toContain('kept in the config file');
      expect(r.stderr).not.toContain('Logged in');
      expect(config()).not.toContain(OWNER);
    });
  }

  const inKeyring = () => ({ base_url: t.sb.url, token_storage: 'keyring', token_account: `default@${t.sb.url}` });
  const keyringProfile = () => writeFileSync(join(t.dir, 'config.json'), JSON.stringify({ current_profile: 'default', profiles: { default: inKeyring() } }), { mode: 0o600 });

  it('auth logout stopped while the entry is removed: the profile still names the entry, so a rerun removes it (never a secret left with nothing pointing at it)', async () => {
    keyringProfile();
    const r = await stopGroup(['auth', 'logout'], 'SIGTERM', { SCT_TOKEN: undefined, SCT_BASE_URL: undefined });
    expect(r.exitCode, r.stderr).toBe(143);
    expect(r.stderr).not.toContain('Logged out');
    expect(JSON.parse(config()).profiles.default).toEqual(inKeyring());
  });

  it('a command reading a token kept in the keyring: Ctrl-C is exit 130, not "not logged in"', async () => {
    keyringProfile();
    const r = await stopGroup(['orders', 'list', '--buying'], 'SIGINT', { SCT_TOKEN: undefined, SCT_BASE_URL: undefined });
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr).not.toContain('not logged in');
  });
});
