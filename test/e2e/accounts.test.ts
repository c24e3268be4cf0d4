// sct workspaces, members, users, countries and user-config against the sandbox.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';
import { MEMBER, MULTI, TRADER } from '../sandbox/helpers.js';
import type { Prompter } from '../../src/prompt.js';

const t = useSandbox({}, { inProcess: true });

/** The default profile as sct stored it ({} before anything was written). */
const profile = (): Record<string, string> => {
  const file = join(t.dir, 'config.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).profiles?.default ?? {}) : {};
};

describe('workspaces', () => {
  it('lists with the named filters and the shared list flags', async () => {
    const r = await t.sctAs(MULTI)(['workspaces', 'list', '--json', '--type', 'active,trial', '--exclude-type', 'test', '--country', 'be,se', '--name', 'o', '--ordering', '-name']);
    expect(r.exitCode, r.stderr).toBe(0);
    // JSON is the objects as the service sent them: the list alone, no field of sct's own.
    expect(t.sb.requests).toHaveLength(1);
    expect(t.sb.requests[0]).toMatchObject({ method: 'GET', path: '/api/accounts/workspaces' });
    expect(t.queryOf(0)).toEqual({ type__in: 'active,trial', type__exclude: 'test', country__in: 'BE,SE', name__icontains: 'o', ordering: '-name', limit: '10', offset: '0' });
    const listed = JSON.parse(r.stdout) as Array<{ id: number; current?: boolean }>;
    expect(listed.map((w) => w.id)).toEqual([3, 1]);
    expect(listed.some((w) => 'current' in w)).toBe(false);

    const table = await t.sctAs(MULTI)(['workspaces', 'list']);
    expect(table.stdout).toMatch(/^CURRENT\s+ID\s+NAME\s+TYPE\s+COUNTRY\s+MEMBERS\s+MFA$/m);
    expect(table.stdout).toMatch(/^\s*3\s+Nordic Timber Imports AB\s+trial\s+SE/m);
    expect(table.stdout).toMatch(/^\*\s+1\s+Brussels Cacao/m);
    // The table marks the active one (the user's company, GET /accounts/me).
    const picked = await t.sctAs(MULTI)(['workspaces', 'list', '--json', 'id,current']);
    expect(picked.exitCode).toBe(2);
  });

  it('switch posts company_id, records it in the profile, and current shows the active one', async () => {
    const sct = t.sctAs(MULTI);
    try {
      const r = await sct(['workspaces', 'switch', '3']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(t.sb.requests.map((x) => `${x.method} ${x.path}`)).toEqual(['POST /api/accounts/workspaces/switch']);
      expect(t.bodyOf()).toEqual({ company_id: 3 });
      expect(r.stderr).toContain('Switched to workspace Nordic Timber Imports AB. (recorded in profile "default")');
      expect(r.stdout).toBe('');
      expect(profile().workspace).toBe('3');

      const current = await sct(['workspaces', 'current']);
      expect(current.exitCode, current.stderr).toBe(0);
      expect(current.stdout).toMatch(/^ID\s+3$/m);
      expect(current.stdout).toMatch(/^Your role\s+OWNER$/m);
      expect(current.stderr).toBe('');
      const json = JSON.parse((await sct(['workspaces', 'current', '-o', 'json'])).stdout);
      expect(json).toMatchObject({ id: 3, name: 'Nordic Timber Imports AB', role: 'OWNER' });

      // Switched back elsewhere (here: directly through the API): current says the profile is behind.
      await fetch(`${t.sb.url}/accounts/workspaces/switch`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${MULTI}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ company_id: 1 }),
      });
      const behind = await sct(['workspaces', 'current']);
      expect(behind.stdout).toMatch(/^ID\s+1$/m);
      expect(behind.stderr).toContain('warning: profile "default" records workspace 3, but the active one is 1');

      const asJson = await sct(['workspaces', 'switch', '1', '-o', 'json']);
      expect(JSON.parse(asJson.stdout)).toEqual({ company_id: 1, message: expect.stringContaining('Brussels Cacao'), profile: 'default' });
    } finally {
      await sct(['workspaces', 'switch', '1']);
    }
  });

  it('a login forgets the workspace another token switched the profile to', async () => {
    const noEnv = { SCT_TOKEN: undefined };
    const login = (token: string) => t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token', '--insecure-storage'], { input: token, env: noEnv });
    try {
      expect((await login(MULTI)).exitCode).toBe(0);
      expect((await t.sct(['workspaces', 'switch', '3'], { env: noEnv })).exitCode).toBe(0);
      expect(profile().workspace).toBe('3');
      // Another user logs in over the profile: MULTI's 3 is not theirs to go back to.
      expect((await login(TRADER)).exitCode).toBe(0);
      expect(profile().workspace).toBeUndefined();
      const current = await t.sct(['workspaces', 'current'], { env: noEnv });
      expect(current.stderr).not.toContain('records workspace');
    } finally {
      await t.sct(['workspaces', 'switch', '1'], { env: { SCT_TOKEN: MULTI } });
    }
  });

  it('a bulk run whose profile was switched to a workspace the service is no longer in is refused before it sends anything', async () => {
    const noEnv = { SCT_TOKEN: undefined };
    const login = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token', '--insecure-storage'], { input: MULTI, env: noEnv });
    expect(login.exitCode, login.stderr).toBe(0);
    try {
      expect((await t.sct(['workspaces', 'switch', '3'], { env: noEnv })).exitCode).toBe(0);
      // Elsewhere (the web app, another profile of the same user) the service is switched to 1.
      expect((await t.sct(['workspaces', 'switch', '1'], { env: { SCT_TOKEN: MULTI } })).exitCode).toBe(0);
      const people = t.writeFile('ws-people.csv', 'email,auth_group\nws.a@elsewhere.example,3\n');
      t.sb.requests.length = 0;
      const r = await t.sct(['invitations', 'bulk-create', '--file', people], { env: noEnv });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain('profile "default" is switched to workspace 3, but the service acts in workspace 1');
      expect(r.stderr).toContain('sct workspaces switch 3');
      expect(t.sb.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    } finally {
      await t.sct(['workspaces', 'switch', '1'], { env: { SCT_TOKEN: MULTI } });
    }
  });

  it('a switch made with SCT_TOKEN is not recorded in a profile that holds a token of its own', async () => {
    const login = await t.sct(['auth', 'login', '--base-url', t.sb.url, '--with-token', '--insecure-storage'], { input: TRADER, env: { SCT_TOKEN: undefined } });
    expect(login.exitCode, login.stderr).toBe(0);
    try {
      const r = await t.sctAs(MULTI)(['workspaces', 'switch', '3']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain('(not recorded in profile "default": the token is SCT_TOKEN\'s, not the profile\'s own)');
      expect(profile().workspace).toBeUndefined();
    } finally {
      await t.sctAs(MULTI)(['workspaces', 'switch', '1']);
    }
  });

  it('switch to a workspace the user is not in is exit 1 with the field error, and records nothing', async () => {
    const r = await t.sctAs(MULTI)(['workspaces', 'switch', '2']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('company_id: You are not a member of this workspace.');
    expect(profile().workspace).toBeUndefined();
  });

  it('switch without an id picks from the list on a terminal', async () => {
    let offered: Array<{ name: string; value: unknown }> = [];
    const prompter = {
      select: async (_m: string, choices: Array<{ name: string; value: unknown }>) => {
        offered = choices;
        return 1;
      },
    } as unknown as Prompter;
    const r = await t.sctIn(['workspaces', 'switch'], { tty: true, prompter, env: { CI: undefined } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(offered.map((c) => c.name)).toEqual(['Brussels Cacao Chocolatiers NV (1) · type: active · current']);
    expect(t.sb.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/accounts/workspaces/switch' });
    expect(t.bodyOf(t.sb.requests.length - 1)).toEqual({ company_id: 1 });
    expect(profile().workspace).toBe('1');
  });

  it('rejects bad input before sending anything', async () => {
    await t.expectUsageErrors(
      [
        [['workspaces', 'switch'], 'give the workspace id'],
        [['workspaces', 'switch', 'abc'], 'invalid COMPANY_ID "abc"'],
        [['workspaces', 'list', '--type', 'big'], 'invalid --type "big"'],
        [['workspaces', 'list', '--country-code', 'BEL'], 'invalid --country-code "BEL"'],
      ],
      { inProcess: true },
    );
  });
});

describe('members and users', () => {
  it('members list maps the filters and prints the members table', async () => {
    const r = await t.sct(['members', 'list', '-o', 'json', '--role', '2,3', '--role-name', 'ADMIN', '--email-contains', 'ana', '--first-name', 'A', '--last-name', 'W', '--job-title', 'uy', '--created-from', '2024-01-01', '--ordering', 'user__email']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0].path).toBe('/api/accounts/user-companies');
    expect(t.queryOf()).toEqual({
      auth_group__in: '2,3', auth_group__name: 'ADMIN', user__email__icontains: 'ana', user__first_name__icontains: 'A',
      user__last_name__icontains: 'W', user__job_title__icontains: 'uy', created_at__date__gte: '2024-01-01', ordering: 'user__email', limit: '10', offset: '0',
    });
    for (const m of JSON.parse(r.stdout)) expect(m.auth_group_detail.name).toBe('ADMIN');
    // --role-name is matched without regard to case, as every role name: sent as the service spells it.
    t.sb.requests.length = 0;
    const lower = await t.sct(['members', 'list', '-o', 'json', '--role-name', 'admin']);
    expect(lower.exitCode, lower.stderr).toBe(0);
    expect(new URLSearchParams(t.sb.requests.filter((q) => q.path === '/api/accounts/user-companies').at(-1)!.query).get('auth_group__name')).toBe('ADMIN');
    expect(JSON.parse(lower.stdout).length).toBeGreaterThan(0);
    const invited = await t.sct(['invitations', 'list', '--role-name', 'Admin', '--limit', '1', '-o', 'json']);
    expect(invited.exitCode, invited.stderr).toBe(0);
    expect(JSON.parse(invited.stdout)).toHaveLength(1);
    // --email is the address exactly, as on invitations list; --email-contains a part of it.
    t.sb.requests.length = 0;
    const exact = await t.sct(['members', 'list', '-o', 'json', '--email', 'amelie.janssens@brussels-cacao.example']);
    expect(exact.exitCode, exact.stderr).toBe(0);
    expect(t.queryOf()).toMatchObject({ user__email: 'amelie.janssens@brussels-cacao.example' });
    expect(JSON.parse(exact.stdout).map((m: { user_detail: { email: string } }) => m.user_detail.email)).toEqual(['amelie.janssens@brussels-cacao.example']);

    const table = await t.sct(['members', 'list', '--search', 'Janssens']);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+EMAIL\s+JOB TITLE\s+ROLE$/m);
    expect(table.stdout).toMatch(/^1\s+Amélie Janssens\s+amelie\.janssens@brussels-cacao\.example\s+Chief Sustainability Officer\s+OWNER$/m);
  });

  it('set-role patches auth_group and prints the member; API refusals are exit 1', async () => {
    const [member] = (await t.api('/accounts/user-companies?auth_group=3&limit=1')).results;
    t.sb.requests.length = 0;
    const r = await t.sct(['members', 'set-role', String(member.id), '2', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0]).toMatchObject({ method: 'PATCH', path: `/api/accounts/user-companies/${member.id}` });
    expect(t.bodyOf()).toEqual({ auth_group: 2 });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: member.id, auth_group: 2, auth_group_detail: { name: 'ADMIN' } });
    expect(r.stderr).toContain(`Member ${member.id} now has role ADMIN`);
    // The table view names the person, never the nested user_detail as a JSON blob.
    const table = await t.sct(['members', 'set-role', String(member.id), '3']);
    expect(table.exitCode, table.stderr).toBe(0);
    const name = `${member.user_detail.first_name} ${member.user_detail.last_name}`;
    expect(table.stdout).toMatch(new RegExp(`^NAME\\s+${name}$`, 'm'));
    expect(table.stdout).toMatch(new RegExp(`^EMAIL\\s+${member.user_detail.email.replace(/\./g, '\\.')}$`, 'm'));
    expect(table.stdout).toMatch(/^ROLE\s+MEMBER$/m);
    expect(table.stdout).not.toContain('user_detail');
    expect(table.stdout).not.toContain('{');

    const forbidden = await t.sctAs(MEMBER)(['members', 'set-role', String(member.id), '2']);
    expect(forbidden.exitCode).toBe(1);
    expect(forbidden.stderr).toContain('403');
    const lastOwner = await t.sct(['members', 'set-role', '1', '3']);
    expect(lastOwner.exitCode).toBe(1);
    expect(lastOwner.stderr).toContain('auth_group: A workspace must keep at least one owner.');
  });

  it('users list pages with the shared flags; without view_user it is exit 1', async () => {
    const r = await t.sct(['users', 'list', '-o', 'csv', '--limit', '3', '--search', 'a']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0].path).toBe('/api/accounts/users');
    expect(t.queryOf()).toEqual({ search: 'a', limit: '3', offset: '0' });
    const rows = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0])).toEqual(['id', 'username', 'first_name', 'last_name', 'account', 'user_group', 'auth_group']);
    expect(rows).toHaveLength(3);
    const denied = await t.sctAs(MEMBER)(['users', 'list']);
    expect(denied.exitCode).toBe(1);
    expect(denied.stderr).toContain('403');
  });

  it('rejects bad ids before sending anything', async () => {
    await t.expectUsageErrors(
      [
        [['members', 'set-role', 'x', '2'], 'invalid MEMBER_ID "x"'],
        [['members', 'set-role', '5'], "missing required argument 'role'"],
        [['members', 'list', '--created-from', '2024-13-01'], 'invalid --created-from'],
      ],
      { inProcess: true },
    );
  });
});

describe('countries and user-config', () => {
  it('countries list and get', async () => {
    const r = await t.sct(['countries', 'list', '--search', 'ivoire', '--filter', 'eu_status=non_member', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.queryOf()).toEqual({ search: 'ivoire', eu_status: 'non_member', limit: '10', offset: '0' });
    expect(JSON.parse(r.stdout).map((c: { alpha_2: string }) => c.alpha_2)).toEqual(['CI']);
    const one = await t.sct(['countries', 'get', 'CI']);
    expect(one.exitCode, one.stderr).toBe(0);
    expect(t.sb.requests[1].path).toBe('/api/accounts/countries/CI');
    expect(one.stdout).toMatch(/^alpha_3\s+CIV$/m);
    const table = await t.sct(['countries', 'list', '--limit', '2']);
    expect(table.stdout).toMatch(/^CODE\s+NAME\s+ALPHA-3\s+EU STATUS$/m);
    const missing = await t.sct(['countries', 'get', 'ZZ']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('404');
    t.sb.requests.length = 0;
    await t.expectUsageErrors([[['countries', 'get', '../orders'], 'invalid country id']], { inProcess: true });
  });

  it('every ISO 3166-1 country is there, as on the service: get PY, and an origin in Paraguay has its country object', async () => {
    const py = await t.sct(['countries', 'get', 'PY', '-o', 'json']);
    expect(py.exitCode, py.stderr).toBe(0);
    expect(JSON.parse(py.stdout)).toEqual({ name: 'Paraguay', alpha_2: 'PY', alpha_3: 'PRY', numeric: '600', official_name: 'Republic of Paraguay', flag: '🇵🇾', eu_status: 'non_member' });
    for (const code of ['AR', 'IND', '156', 'KE', 'HN', 'XK']) expect((await t.sct(['countries', 'get', code])).exitCode, code).toBe(0);
    const all = await t.sct(['countries', 'list', '--all', '-o', 'json']);
    const rows = JSON.parse(all.stdout) as Array<{ alpha_2: string; eu_status: string }>;
    expect(rows).toHaveLength(250);
    expect(rows.filter((c) => c.eu_status === 'member')).toHaveLength(27);
    const origin = await t.sct(['origins', 'create', '--name', 'Chaco plot', '--country-code', 'PY', '-o', 'json']);
    expect(origin.exitCode, origin.stderr).toBe(0);
    expect(JSON.parse(origin.stdout).country).toMatchObject({ alpha_2: 'PY', name: 'Paraguay' });
  });

  it('user-config get shows the configuration; set patches the keys under config', async () => {
    const sct = t.sctAs(MULTI);
    const got = await sct(['user-config', 'get', '-o', 'json']);
    expect(got.exitCode, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ config: expect.any(Object), available_actions: expect.any(Array) });

    const set = await sct(['user-config', 'set', 'theme=dark', 'table.density=compact', 'page_size=50', '-o', 'json']);
    expect(set.exitCode, set.stderr).toBe(0);
    expect(t.sb.requests[2]).toMatchObject({ method: 'PATCH', path: '/api/accounts/user-config' });
    expect(t.bodyOf(2)).toEqual({ config: { theme: 'dark', table: { density: 'compact' }, page_size: 50 } });
    expect(JSON.parse(set.stdout).config).toMatchObject({ theme: 'dark', table: { density: 'compact' }, page_size: 50 });

    // A dotted key keeps its siblings ("the others are kept"), whatever depth the service merges
    // to: the object it is in is read first and sent whole.
    const nested = await sct(['user-config', 'set', 'table.rows=20', '-o', 'json']);
    expect(nested.exitCode, nested.stderr).toBe(0);
    expect(t.sb.requests.slice(3).map((r) => r.method)).toEqual(['GET', 'PATCH']);
    expect(t.bodyOf(4)).toEqual({ config: { table: { density: 'compact', rows: 20 } } });
    expect(JSON.parse(nested.stdout).config).toMatchObject({ theme: 'dark', table: { density: 'compact', rows: 20 } });

    const file = t.writeFile('config.body.json', JSON.stringify({ config: { theme: 'light' } }));
    const fromFile = await sct(['user-config', 'set', '--file', file]);
    expect(fromFile.exitCode, fromFile.stderr).toBe(0);
    expect(t.bodyOf(5)).toEqual({ config: { theme: 'light' } });
    expect(fromFile.stdout).toMatch(/^config\s+\{.*"theme":"light"/m);

    // --file and a dotted key: the object the key goes in is read and kept too.
    const both = await sct(['user-config', 'set', '--file', file, 'table.rows=30', '-o', 'json']);
    expect(both.exitCode, both.stderr).toBe(0);
    expect(t.sb.requests.slice(6).map((r) => r.method)).toEqual(['GET', 'PATCH']);
    expect(t.bodyOf(7)).toEqual({ config: { theme: 'light', table: { density: 'compact', rows: 30 } } });
  });

  it('user-config set rejects bad input before sending anything', async () => {
    await t.expectUsageErrors(
      [
        [['user-config', 'set'], 'nothing to set'],
        [['user-config', 'set', 'theme'], 'invalid "theme": expected key=value (e.g. language=en)'],
        // Named as typed, and before the read the dotted key would need.
        [['user-config', 'set', 'a..b=1'], 'invalid key "a..b": a dotted key has an empty part'],
        [['user-config', 'set', '--file', join(t.dir, 'missing.json')], 'cannot read'],
        // A number JSON would change (1e309 sent as null, wiping the setting; 2^53 + 1 rounded).
        [['user-config', 'set', 'page_size=1e309'], `page_size=1e309: 1e309 is a number JSON cannot carry as typed (past 2^53, more than 15 digits, or out of range): give it as text in JSON quotes ('page_size="1e309"')`],
        [['user-config', 'set', 'ids=[9007199254740993]'], 'ids=[9007199254740993]: 9007199254740993 is a number JSON cannot carry as typed'],
        [['origins', 'create', '--name', 'A', '--country-code', 'CI', '--location', '6.8,-5.2', '--set', 'x=[1,2e400]'], '--set x=[1,2e400]: 2e400 is a number JSON cannot carry as typed'],
        [['origins', 'create', '--name', 'A', '--country-code', 'CI', '--location', '6.8,-5.2', '--set', 'x={"a":9007199254740993}'], '9007199254740993 is a number JSON cannot carry'],
        [['origins', 'create', '--name', 'A', '--country-code', 'CI', '--location', '6.8,-5.2', '--set', 'x=1e-400'], `--set x=1e-400: 1e-400 is a number JSON cannot carry as typed (past 2^53, more than 15 digits, or out of range): give it as text in JSON quotes (--set 'x="1e-400"')`],
      ],
      { inProcess: true },
    );
  });
});
