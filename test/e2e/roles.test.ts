// Roles by name wherever a role is asked: --role, the CSV auth_group column, members set-role.
// Names come from what the service shows (members' auth_group_detail, the user's auth_group);
// an unknown one is exit 2 listing the roles, and no write is sent.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { holdPath, until, useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });
const writes = () => t.sb.requests.filter((r) => r.method !== 'GET');

describe('roles by name', () => {
  it('roles list shows the roles seen, by id and name', async () => {
    const r = await t.sct(['roles', 'list', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: 1, name: 'OWNER' },
      { id: 2, name: 'ADMIN' },
      { id: 3, name: 'MEMBER' },
    ]);
    // A role is a documented shape (auth_group_detail: id, name): a field it does not have is exit 2.
    const bad = await t.sct(['roles', 'list', '--json', 'foo']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('roles list has no field "foo"');
    expect((await t.sct(['roles', 'list', '-o', 'csv'])).stdout.split('\n')[0]).toBe('id,name');
  });

  it('members list --filter auth_group__name=admin is sent as the service spells the role, never "the flags set it too"', async () => {
    for (const key of ['auth_group__name', 'auth_group__name__in']) {
      const r = await t.sct(['members', 'list', '--filter', `${key}=admin`, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(new URLSearchParams(t.sb.requests.at(-1)!.query).get(key)).toBe('ADMIN');
    }
  });

  it('invitations create --role admin sends its id; an unknown name is exit 2 listing the roles, nothing written', async () => {
    const r = await t.sct(['invitations', 'create', '--email', 'roles-create@example.com', '--role', 'admin', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.bodyOf(t.sb.requests.findIndex((q) => q.method === 'POST'))).toEqual({ email: 'roles-create@example.com', auth_group: 2 });

    t.sb.requests.length = 0;
    const bad = await t.sct(['invitations', 'create', '--email', 'roles-bad@example.com', '--role', 'boss']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('error: --role: unknown role "boss": the roles are OWNER (1), ADMIN (2), MEMBER (3)');
    expect(writes()).toHaveLength(0);
  });

  it('0 is no role id: exit 2 listing the roles, in a flag, an argument and a CSV cell', async () => {
    const zero = t.writeFile('zero.csv', 'email,auth_group\nz1@roles.example,0\n');
    for (const [args, message] of [
      [['invitations', 'create', '--email', 'zero@example.com', '--role', '0'], 'error: --role: unknown role "0": the roles are OWNER (1), ADMIN (2), MEMBER (3)'],
      [['members', 'set-role', '2', '0'], 'unknown role "0": the roles are OWNER (1), ADMIN (2), MEMBER (3)'],
      [['invitations', 'bulk-create', '--file', zero], 'line 2, auth_group: unknown role "0": the roles are OWNER (1), ADMIN (2), MEMBER (3)'],
    ] as const) {
      const r = await t.sctBin([...args]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
    // The roles are read to list them; nothing is written.
    expect(writes()).toHaveLength(0);
  });

  it('the CSV auth_group column takes names in any case and ids; an unknown name is named with its line', async () => {
    const file = t.writeFile('people.csv', 'email,auth_group\nr1@roles.example,admin\nr2@roles.example,Member\nr3@roles.example,3\n');
    const r = await t.sct(['invitations', 'bulk-create', '--file', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    const post = t.sb.requests.find((q) => q.method === 'POST')!;
    expect(JSON.parse(post.body).operations.map((o: { auth_group: number }) => o.auth_group)).toEqual([2, 3, 3]);

    t.sb.requests.length = 0;
    const badFile = t.writeFile('bad.csv', 'email,auth_group\nr4@roles.example,admin\nr5@roles.example,boss\n');
    const bad = await t.sct(['invitations', 'bulk-create', '--file', badFile]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('line 3, auth_group: unknown role "boss": the roles are OWNER (1), ADMIN (2), MEMBER (3)');
    expect(writes()).toHaveLength(0);
  });

  it('users list shows role names as members list does (learned once, then from the cache); -o json keeps the ids', async () => {
    const first = await t.sct(['users', 'list', '--limit', '3']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout.split('\n')[0]).toMatch(/^ID\tUSERNAME\tFIRST NAME\tLAST NAME\tROLE$/);
    expect(first.stdout.split('\n').slice(1, 4).map((l) => l.split('\t')[4])).toEqual(['OWNER', 'ADMIN', 'MEMBER']);

    t.sb.requests.length = 0;
    const again = await t.sct(['users', 'list', '--limit', '3']);
    expect(again.stdout).toBe(first.stdout);
    expect(t.sb.requests.map((q) => q.path)).toEqual(['/api/accounts/users']);

    const json = await t.sct(['users', 'list', '--limit', '3', '-o', 'json']);
    expect(JSON.parse(json.stdout).map((u: { auth_group: number }) => u.auth_group)).toEqual([1, 2, 3]);
    const csv = await t.sct(['users', 'list', '--limit', '3', '-o', 'csv']);
    expect(csv.stdout.split('\n')[1]).toMatch(/,1$/);
  });

  it('members set-role takes a name', async () => {
    const members = (await t.api('/accounts/user-companies?limit=100')).results as Array<{ id: number; auth_group: number }>;
    const member = members.find((m) => m.auth_group === 3)!;
    try {
      const r = await t.sct(['members', 'set-role', String(member.id), 'ADMIN', '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).auth_group).toBe(2);
      const patch = t.sb.requests.find((q) => q.method === 'PATCH')!;
      expect(JSON.parse(patch.body)).toEqual({ auth_group: 2 });
    } finally {
      await t.sct(['members', 'set-role', String(member.id), 'member']);
    }
  });
});

describe('a role given empty', () => {
  it('(a script\'s unset variable) is exit 2 saying a role is needed, not "the roles are none seen yet"', async () => {
    await t.expectUsageErrors([
      [['members', 'set-role', '1', ''], "ROLE needs a value: a role's name (any case) or its id"],
      [['invitations', 'create', '--email', 'a@roles-empty.example', '--role', ' '], "--role needs a value: a role's name (any case) or its id"],
    ]);
  });
});

describe('looking role names up', () => {
  it('Ctrl-C while the roles are read is exit 130, never "unknown role": the rows are not judged on no answer', async () => {
    const file = t.writeFile('ctrlc.csv', 'email,auth_group\nc1@roles-ctrlc.example,member\nc2@roles-ctrlc.example,admin\n');
    const hold = holdPath(t.sb, '/accounts/user-companies');
    try {
      const child = t.spawnSct(['invitations', 'bulk-create', '--file', file]);
      await until(hold.asked, 'the members read');
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(130);
      expect(String(r.stderr)).not.toContain('unknown role');
    } finally {
      hold.release();
    }
    expect(t.sb.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
  });
});

describe('the roles cache', () => {
  it('is kept per base URL without its user and password: a gateway\'s password is never written to roles.json', async () => {
    const withPassword = t.sb.url.replace('http://', 'http://ci:S3cretPw@');
    const cache = () => readFileSync(join(t.dir, 'roles.json'), 'utf8');
    // A cache an earlier sct wrote, keyed by the URL with its password: not read back, and gone when next written.
    writeFileSync(join(t.dir, 'roles.json'), JSON.stringify({ [withPassword]: { 2: 'ADMIN', 9: 'STALE' } }));
    const r = await t.sct(['members', 'list', '--role', 'admin', '-o', 'json'], { env: { SCT_BASE_URL: withPassword } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cache()).not.toContain('S3cretPw');
    expect(cache()).not.toContain('STALE');
    expect(Object.keys(JSON.parse(cache()))).toEqual([t.sb.url]);

    const file = t.writeFile('gateway.csv', 'email,auth_group\ng1@roles-gateway.example,member\n');
    const bulk = await t.sct(['invitations', 'bulk-create', '--file', file, '--base-url', t.sb.url.replace('http://', 'http://u:p@')]);
    expect(bulk.exitCode, bulk.stderr).toBe(0);
    expect(Object.keys(JSON.parse(cache()))).toEqual([t.sb.url]);
    // The same service, however its URL is written, reads the one entry: nothing asked again.
    t.sb.requests.length = 0;
    const again = await t.sct(['members', 'list', '--role', 'admin', '-o', 'json'], { env: { SCT_BASE_URL: `${withPassword}/` } });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(t.sb.requests.map((q) => q.path)).toEqual(['/api/accounts/user-companies']);
  });
});
