// `npm run demo`: starts the sandbox on a free port, logs a throwaway profile in, runs a few
// real commands, logs out (the token may have gone to the system keyring, which outlives the
// throwaway config directory), and stops the sandbox — the quick start, end to end.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { startSandboxProcess } from './sandbox-process.mjs';

const bin = new URL('../bin/sct.js', import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), 'sct-demo-'));
const env = { ...process.env, SCT_CONFIG_DIR: configDir };
delete env.SCT_TOKEN;
delete env.SCT_BASE_URL;
delete env.SCT_PROFILE;

const { url, child: sandbox } = await startSandboxProcess([], env);

const sct = (args, input) => {
  console.log(`\n$ sct ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [bin, ...args], { env, input, stdio: [input ? 'pipe' : 'inherit', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`sct ${args.join(' ')} exited ${r.status}`);
};

let failed = false;
let loggedIn = false;
try {
  console.log(`Sandbox running at ${url}`);
  sct(['auth', 'login', '--base-url', url, '--with-token'], 'sct_demo_owner_cacao\n');
  loggedIn = true;
  sct(['orders', 'list', '--buying']);
  sct(['orders', 'stats', '--buying', '--group-by', 'buyer_company_status']);
  sct(['origins', 'list', '--limit', '5']);
  sct(['origins', 'list', '--limit', '2', '--country', 'GH', '-o', 'geojson']);
  sct(['products', 'list', '--commodity', 'cocoa', '--limit', '5']);
  sct(['dds', 'list', '--type', 'EUDR', '--limit', '5']);
  sct(['risk', 'list', '--limit', '3']);
  sct(['risk', 'evidence', '12', '--out', join(configDir, 'evidence') + '/']);
  sct(['invitations', 'list', '--status', 'pending', '--limit', '3']);
  sct(['auth', 'logout']);
  loggedIn = false;
} catch (err) {
  failed = true;
  console.error(String(err.message ?? err));
} finally {
  // A step failed after the login: the token still leaves the keyring.
  if (loggedIn) spawnSync(process.execPath, [bin, 'auth', 'logout'], { env, stdio: 'ignore' });
  sandbox.kill('SIGINT');
  await once(sandbox, 'exit');
  rmSync(configDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
