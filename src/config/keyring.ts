// The operating system's keyring (macOS Keychain, Windows Credential Manager, the Secret Service
// on Linux) through @napi-rs/keyring, entry service "sct", account "<profile>@<base URL>".
//
// Every call runs in a short-lived child process, killed after KEYRING_TIMEOUT_MS: the binding's
// calls block, and a half-present D-Bus (a session bus address whose socket accepts but never
// answers) blocks them for good (measured: over 60 s, no error), as can a keyring waiting on an
// unlock prompt. A child can be killed; a blocked thread of our own process cannot. It costs one
// Node start (~50 ms), paid only by commands that read or write a token kept in the keyring.
// The native module is never loaded into sct's own process, and never at start-up.
//
// On Linux the entry is pinned to the Secret Service: the binding's own fallback, the kernel
// keyring, forgets everything at reboot. Without a D-Bus session there is no Secret Service,
// and no child is started at all.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { InterruptedError } from '../errors.js';
import { withoutCredentials } from '../util/redact.js';

export const KEYRING_SERVICE = 'sct';
const KEYRING_TIMEOUT_MS = 3000;

/** The keyring cannot be used here; `message` says why (no secret in it). */
export class KeyringUnavailable extends Error {}

/**
 * The account of a profile's entry: the profile and the service it logged in to. Never the user
 * and password a base URL may hold: a Secret Service's attributes are stored unencrypted, and
 * any program of the session can list them.
 */
export function keyringAccount(profile: string, baseUrl: string | undefined): string {
  return `${profile}@${baseUrl === undefined ? '' : withoutCredentials(baseUrl, '')}`;
}

const CHILD = `
const [modulePath, op, service, account] = process.argv.slice(1);
const out = (o) => process.stdout.write(JSON.stringify(o));
try {
  const { Entry } = require(modulePath);
  const entry = new Entry(service, account, { linux: { store: 'secret-service' } });
  if (op === 'get') out({ ok: true, value: entry.getPassword() });
  else if (op === 'set') { entry.setPassword(require('node:fs').readFileSync(0, 'utf8')); out({ ok: true }); }
  else if (op === 'delete') out({ ok: true, value: entry.deletePassword() });
} catch (err) {
  out({ ok: false, error: String((err && err.message) || err) });
}
`;

function unavailable(env: NodeJS.ProcessEnv): string | undefined {
  if (process.platform === 'darwin' || process.platform === 'win32') return undefined;
  // zbus (in the binding) finds the session bus by DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus.
  if (env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  if (env.XDG_RUNTIME_DIR && existsSync(join(env.XDG_RUNTIME_DIR, 'bus'))) return undefined;
  return 'no D-Bus session, so no Secret Service';
}

function call(op: 'get' | 'set' | 'delete', account: string, env: NodeJS.ProcessEnv, input?: string): string | boolean | null {
  const why = unavailable(env);
  if (why) throw new KeyringUnavailable(why);
  let modulePath: string;
  try {
    modulePath = createRequire(import.meta.url).resolve('@napi-rs/keyring');
  } catch {
    throw new KeyringUnavailable('the keyring module @napi-rs/keyring is not installed');
  }
  // child_process is loaded here, when the keyring is asked: most commands never do.
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const r = spawnSync(process.execPath, ['-e', CHILD, '--', modulePath, op, KEYRING_SERVICE, account], {
    env,
    input: input ?? '',
    encoding: 'utf8',
    timeout: KEYRING_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    windowsHide: true,
    maxBuffer: 1024 * 1024,
  });
  if (r.error) {
    const timedOut = (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
    throw new KeyringUnavailable(timedOut ? `the keyring did not answer within ${KEYRING_TIMEOUT_MS / 1000} s` : `cannot start the keyring helper: ${r.error.message}`);
  }
  // Ctrl-C at a terminal, a closed terminal or a service manager's stop reaches the whole process
  // group: the helper too, while sct's own handler waits for this blocking call to end. That is
  // the user stopping sct, never a keyring that cannot be used: a login falling back to the file
  // would store the token there in plain text.
  // (A helper stopped alone, by someone else, is said as what it is, and stops the run too.)
  if (r.signal === 'SIGINT' || r.signal === 'SIGTERM' || r.signal === 'SIGHUP') throw new InterruptedError(`interrupted (the keyring helper was stopped by ${r.signal})`);
  let answer: { ok: boolean; value?: string | boolean | null; error?: string };
  try {
    answer = JSON.parse(r.stdout);
  } catch {
    throw new KeyringUnavailable(`the keyring helper failed (exit ${r.status ?? r.signal})`);
  }
  if (!answer.ok) throw new KeyringUnavailable(`the keyring refused: ${answer.error ?? 'unknown error'}`);
  return answer.value ?? null;
}

/** The stored token, or null when the entry does not exist. Throws KeyringUnavailable, or InterruptedError when a stop signal reached the helper. */
export function keyringGet(account: string, env: NodeJS.ProcessEnv): string | null {
  const v = call('get', account, env);
  return typeof v === 'string' ? v : null;
}

/** Throws KeyringUnavailable. */
export function keyringSet(account: string, token: string, env: NodeJS.ProcessEnv): void {
  call('set', account, env, token);
}

/** Whether an entry was there. Throws KeyringUnavailable. */
export function keyringDelete(account: string, env: NodeJS.ProcessEnv): boolean {
  return call('delete', account, env) === true;
}
