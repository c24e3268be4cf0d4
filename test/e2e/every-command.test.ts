// Every leaf command runs at least once through the built binary (bin/sct.js → dist/main.cjs →
// dist/cli.cjs and the chunk of its group), not only in-process against src/: a chunk the build
// left out or broke for one command would pass every in-process test. Reads run as they are;
// writes as dry runs, which load and run the same code up to the request. The last test keeps the
// list whole: a new command is run here, or named with the test file that runs its binary.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import type { Command } from 'commander';
import { fullProgram } from '../../src/cli.js';
import { createIO } from '../../src/output/iostreams.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox();

/** A pending invitation of the demo data (the public view of a revoked one is gone). */
const pendingInvitation = async () => String((await t.api('/accounts/user-invitations?status=pending&limit=1')).results[0].id);

type Run = string[] | (() => Promise<string[]>);

/** Each command with arguments the demo data fits, run with `-o json` (its output JSON). */
const RUNS: Record<string, Run> = {
  'countries list': ['--limit', '2'],
  'countries get': ['CI'],
  'dds list': ['--limit', '1'],
  'dds get': ['1'],
  'dds available-orders': ['--limit', '1'],
  'dds update': ['1', '--name', 'Renamed', '--dry-run'],
  'dds delete': ['1', '--dry-run', '--yes'],
  'documents list': ['--limit', '1'],
  'documents get': ['4'],
  'imports list': ['--limit', '1'],
  'imports get': ['10'],
  'imports create': ['--type', 'orders', '--source', 'csv', '--dry-run'],
  'invitations list': ['--limit', '1'],
  'members list': ['--limit', '1'],
  'orders stats': ['--selling', '--group-by', 'type'],
  'origins update': ['1', '--name', 'Renamed', '--dry-run'],
  'origins delete': ['1', '--dry-run', '--yes'],
  'products list': ['--limit', '1'],
  'products get': ['17'],
  'products update': ['17', '--name', 'Renamed', '--dry-run'],
  'risk list': ['--limit', '1'],
  'risk create': ['--identifier', 'EVERY-1', '--dry-run'],
  'roles list': [],
  'user-config get': [],
  'users list': ['--limit', '1'],
  'value-chains list': ['--limit', '1'],
  'value-chains get': ['3'],
  'value-chains create': ['--company-name', 'Every Command SA', '--country-code', 'CI', '--dry-run'],
  'value-chains update': ['3', '--description', 'renamed', '--dry-run'],
  'value-chains delete': ['3', '--dry-run', '--yes'],
  'workspaces list': [],
  'workspaces current': [],
  'dds trace': ['--dds', '1', '--order', '17', '--dry-run'],
  'invitations get': async () => [await pendingInvitation()],
  'invitations public': async () => [await pendingInvitation()],
  'origins list': ['--limit', '1'],
  'origins get': ['1'],
};

/** Commands that print no JSON: only their exit code and what they leave are checked. */
const PLAIN: Record<string, Run> = {
  'auth token': [],
  'config unset': ['output'],
  'auth logout': [],
  'risk evidence': () => Promise.resolve(['12', '--out', `${t.dir}/`]),
};

/** Commands whose binary runs are elsewhere (the process itself is what they test), by file. */
const ELSEWHERE: Record<string, string> = {
  api: 'api',
  'auth login': 'profiles',
  'auth status': 'keyring',
  completion: 'completion',
  'config get': 'profiles',
  'config list': 'profiles',
  'config path': 'profiles',
  'config profiles': 'profiles',
  'config set': 'config-race',
  'dds create': 'terminal',
  'dds wait': 'interrupt-checks',
  doctor: 'profiles',
  'documents download': 'files',
  'documents upload': 'upload-rerun',
  'info-requests send': 'bulk-answers',
  'invitations bulk-create': 'invitations-bulk',
  'invitations create': 'profiles',
  'invitations renew': 'decided-earlier',
  'invitations revoke': 'decided-earlier',
  'members set-role': 'terminal-strings',
  'orders create': 'terminal',
  'orders delete': 'terminal-strings',
  'orders get': 'code-cache',
  'orders import': 'orders-import',
  'orders list': 'orders-read',
  'orders sync': 'sync',
  'orders trace': 'orders-write',
  'orders update': 'code-cache',
  'origins check': 'geo',
  'origins create': 'terminal',
  'origins import': 'journal-damage',
  'origins sync': 'bulk-trust',
  'products create': 'terminal',
  'products delete': 'terminal',
  sandbox: 'sandbox-process',
  'user-config set': 'fields',
  version: 'fields',
  whoami: 'sandbox-process',
  'workspaces switch': 'terminal',
};

/** The leaf commands of the program, as `group leaf` (or the command alone). */
async function leaves(): Promise<string[]> {
  const program: Command = await fullProgram(createIO({ stdout: new PassThrough(), stderr: new PassThrough() }, {}));
  return program.commands.flatMap((g) => (g.commands.length === 0 ? [g.name()] : g.commands.map((c) => `${g.name()} ${c.name()}`)));
}

describe('every command through the built binary', () => {
  const argsOf = async (run: Run) => (typeof run === 'function' ? run() : run);

  it.each(Object.entries(RUNS))('sct %s', async (command, run) => {
    const r = await t.sctBin([...command.split(' '), ...(await argsOf(run)), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    // Data or a dry run's requests: JSON either way.
    expect(() => JSON.parse(r.stdout)).not.toThrow();
  });

  it.each(Object.entries(PLAIN))('sct %s', async (command, run) => {
    const r = await t.sctBin([...command.split(' '), ...(await argsOf(run))]);
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it('runs every command of the program here or names the test file that runs its binary', async () => {
    const all = await leaves();
    const missing = all.filter((c) => !(c in RUNS) && !(c in PLAIN) && !(c in ELSEWHERE));
    expect(missing, 'commands run through the binary nowhere').toEqual([]);
    expect(Object.keys({ ...RUNS, ...PLAIN, ...ELSEWHERE }).filter((c) => !all.includes(c)), 'names of no command').toEqual([]);
    const files = new Set(readdirSync(join(import.meta.dirname, '.')).map((f) => f.replace(/\.test\.ts$/, '')));
    expect(Object.values(ELSEWHERE).filter((f) => !files.has(f)), 'test files that do not exist').toEqual([]);
  });
});
