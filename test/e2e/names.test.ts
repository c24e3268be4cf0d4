// The same thing has the same flag everywhere (cli-spec "Names"): an id list is singular and
// comma-separated (the plural spelling an alias hidden from help), a country is --country-code
// (--country an alias), a role is a name or an id wherever one is taken, filters included, and
// enum values are case-insensitive. The tree is walked for the first two, so a new command that
// breaks them fails here.
import { describe, it, expect, beforeAll } from 'vitest';
import type { Command, Option } from 'commander';
import { fullProgram } from '../../src/cli.js';
import { createTestIO } from '../helpers/io.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

function leaves(cmd: Command, path: string[] = []): Array<{ path: string; cmd: Command }> {
  if (cmd.commands.length === 0) return [{ path: path.join(' '), cmd }];
  return cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}
const visible = (cmd: Command): Option[] => cmd.createHelp().visibleOptions(cmd);

let tree: Array<{ path: string; cmd: Command }>;
beforeAll(async () => {
  tree = leaves(await fullProgram(createTestIO().io));
});

/** The requests of the test, writes only or to one path. */
const sent = (method: string, path: string) => t.sb.requests.filter((r) => r.method === method && r.path.endsWith(path));
const queryOf = (path: string) => Object.fromEntries(new URLSearchParams(sent('GET', path).at(-1)!.query));

describe('an id list is singular, the plural an alias', () => {
  it('every id-list flag of the tree has a singular name', () => {
    // "dds" is the noun itself (a statement is a DDS), singular and plural alike.
    const plural = tree.flatMap(({ path, cmd }) =>
      visible(cmd)
        .filter((o) => /<(ids|uuids)>/.test(o.flags) && /s$/.test(o.long!) && !/dds$/.test(o.long!))
        .map((o) => `${path} ${o.long}`),
    );
    expect(plural).toEqual([]);
  });

  it('dds create takes --order, --product and --assessment-run-id; the plural spellings add to them and stay out of help', async () => {
    const a = await t.sct(['dds', 'create', '--type', 'EUDR', '--dds-identifier', '25BE3XKQ9M4T2N', '--order', '17', '--orders', '18', '--product', '17']);
    expect(a.exitCode, a.stderr).toBe(0);
    const b = await t.sct(['dds', 'create', '--type', 'EUDR', '--name', 'Q3', '--assessment-run-ids', '18eb63a8-fa5f-46a6-9c6d-71699ba2a3f3', '--products', '17,18']);
    expect(b.exitCode, b.stderr).toBe(0);
    const [first, second] = sent('POST', '/due-diligence-statements').map((r) => JSON.parse(r.body));
    expect(first).toMatchObject({ orders: [17, 18], products: [17] });
    expect(second).toMatchObject({ products: [17, 18], assessment_run_ids: ['18eb63a8-fa5f-46a6-9c6d-71699ba2a3f3'] });
    const help = (await t.sct(['dds', 'create', '--help'])).stdout;
    expect(help).toMatch(/--order <ids>/);
    expect(help).toMatch(/--assessment-run-id <uuids>/);
    expect(help).not.toMatch(/--orders|--products|--assessment-run-ids/);
  });
});

describe('the aliases are on every command of the tree', () => {
  it('every id-list flag has its plural, and every --country-code its --country, hidden from help', () => {
    const missing = tree.flatMap(({ path, cmd }) => {
      const has = (long: string) => cmd.options.some((o) => o.long === long);
      return visible(cmd).flatMap((o) => {
        const wanted = o.long === '--country-code' ? '--country' : /<(u?ids|uuids)>$/.test(o.flags) && !o.long!.endsWith('s') ? `${o.long}s` : undefined;
        return wanted && !has(wanted) ? [`${path} ${wanted}`] : [];
      });
    });
    expect(missing).toEqual([]);
  });

  it('they reach the real flag, in a write and in a filter', async () => {
    const created = await t.sct(['origins', 'create', '--name', 'Alias plot', '--country', 'ci', '--location', '6.877,-6.450', '-o', 'json']);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(JSON.parse(sent('POST', '/origins').at(-1)!.body)).toMatchObject({ country_code: 'CI' });
    const listed = await t.sct(['dds', 'list', '--orders', '17,18', '--ids', '1,2', '-o', 'json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(queryOf('/due-diligence-statements')).toMatchObject({ orders__in: '17,18', id__in: '1,2' });
    expect((await t.sct(['dds', 'list', '--help'])).stdout).not.toMatch(/--orders|--ids/);
  });

  it('a field flag answers to its API field name too: --buyer-company-status, --seller-company-status, --tags', async () => {
    const r = await t.sct(['orders', 'create', '--purchase', '--type', 'order', '--external-id', 'NAME-1', '--order-created-at', '2025-01-01', '--seller-company-id', '101', '--buyer-company-status', 'draft', '--tags', 'eudr', '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0].body).toMatchObject({ buyer_company_status: 'draft', tags: ['eudr'] });
    const sale = await t.sct(['orders', 'update', '1', '--sale', '--seller-company-status', 'pending', '--dry-run', '-o', 'json']);
    expect(sale.exitCode, sale.stderr).toBe(0);
    expect(JSON.parse(sale.stdout).at(-1).body).toMatchObject({ seller_company_status: 'pending' });
  });

  it('a switch answers to its API field name too: --is-self-managed and --no-is-self-managed (is_self_managed)', async () => {
    for (const [flag, value] of [['--is-self-managed', true], ['--no-is-self-managed', false]] as const) {
      const create = await t.sct(['value-chains', 'create', '--company-name', 'Alias Ltd', flag, '--dry-run', '-o', 'json']);
      expect(create.exitCode, create.stderr).toBe(0);
      expect(JSON.parse(create.stdout)[0].body).toEqual({ company_name: 'Alias Ltd', is_self_managed: value });
      const update = await t.sct(['value-chains', 'update', '3', flag, '--dry-run', '-o', 'json']);
      expect(update.exitCode, update.stderr).toBe(0);
      expect(JSON.parse(update.stdout).at(-1).body).toEqual({ is_self_managed: value });
    }
    expect((await t.sct(['value-chains', 'create', '--help'])).stdout).not.toContain('--is-self-managed');
  });

  it('a switch and its opposite are exit 2 whichever spelling each takes, nothing sent', async () => {
    await t.expectUsageErrors([
      [['value-chains', 'create', '--company-name', 'C', '--self-managed', '--no-is-self-managed'], /choose one of --self-managed or --no-self-managed/],
      [['value-chains', 'update', '2', '--no-self-managed', '--is-self-managed'], /choose one of --self-managed or --no-self-managed/],
      [['orders', 'list', '--buying', '--no-dds', '--dds'], /choose one of --dds or --no-dds/],
    ]);
  });

  it('the uuid lists of invitations answer to their plural too', async () => {
    const [a, b, c] = ['03a80526-ef80-4dbe-83f6-fbed3ddd2cdc', '13a80526-ef80-4dbe-83f6-fbed3ddd2cdc', '23a80526-ef80-4dbe-83f6-fbed3ddd2cdc'];
    const listed = await t.sct(['invitations', 'list', '--ids', `${a},${b}`, '--exclude-ids', c, '-o', 'json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(t.queryOf()).toMatchObject({ id__in: `${a},${b}`, id__exclude_in: c });
  });

  it('a dotted --set key with an empty part is exit 2, never a field named ""', async () => {
    await t.expectUsageErrors([
      [['products', 'create', '--name', 'P', '--set', '.a=1'], /invalid key "\.a": a dotted key has an empty part/],
      [['products', 'create', '--name', 'P', '--set', 'b..c=2'], /invalid key "b\.\.c"/],
      [['products', 'create', '--name', 'P', '--set', 'd.=3'], /invalid key "d\."/],
    ]);
  });
});

describe('a country is --country-code, --country an alias', () => {
  it('no visible flag of the tree is --country', () => {
    const named = tree.flatMap(({ path, cmd }) => visible(cmd).filter((o) => o.long === '--country').map(() => path));
    expect(named).toEqual([]);
  });

  for (const [command, path, key] of [
    ['origins', '/origins', 'country_code__in'],
    ['value-chains', '/value-chains', 'country_code__in'],
    ['workspaces', '/accounts/workspaces', 'country__in'],
  ] as const) {
    it(`${command} list --country-code CI,GH, and --country the same`, async () => {
      for (const flag of ['--country-code', '--country']) {
        const r = await t.sct([command, 'list', flag, 'ci,GH']);
        expect(r.exitCode, r.stderr).toBe(0);
        expect(queryOf(path)[key]).toBe('CI,GH');
      }
      expect((await t.sct([command, 'list', '--help'])).stdout).not.toMatch(/--country </);
    });
  }
});

describe('a role is a name or an id, filters included', () => {
  let admin: number;
  let member: number;
  beforeAll(async () => {
    const roles = (await t.api('/accounts/user-companies?limit=1000')).results.map((m: any) => m.auth_group_detail);
    admin = roles.find((r: any) => r.name === 'ADMIN').id;
    member = roles.find((r: any) => r.name === 'MEMBER').id;
  });

  it('invitations list --role admin filters by the ADMIN role id', async () => {
    const r = await t.sct(['invitations', 'list', '--role', 'admin']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(queryOf('/accounts/user-invitations').auth_group).toBe(String(admin));
  });

  it('members list --role takes names and ids mixed', async () => {
    const r = await t.sct(['members', 'list', '--role', `Admin,${member}`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(queryOf('/accounts/user-companies').auth_group__in).toBe(`${admin},${member}`);
  });

  it('invitations revoke --role member matches by the role id', async () => {
    const r = await t.sct(['invitations', 'revoke', '--role', 'member', '--status', 'pending', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.searchParamsOf(t.sb.requests.findIndex((q) => q.method === 'GET' && q.path.endsWith('/accounts/user-invitations'))).get('auth_group')).toBe(String(member));
  });

  it('an unknown role name is exit 2 naming the roles, no list asked', async () => {
    const r = await t.sct(['invitations', 'list', '--role', 'boss']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--role: unknown role "boss": the roles are .*ADMIN/);
    expect(sent('GET', '/accounts/user-invitations')).toHaveLength(0);
  });
});

describe('enum values are case-insensitive', () => {
  it('list filters send the API spelling', async () => {
    expect((await t.sct(['products', 'list', '--commodity', 'Cocoa'])).exitCode).toBe(0);
    expect(queryOf('/products').commodity).toBe('cocoa');
    expect((await t.sct(['dds', 'list', '--type', 'eudr', '--status', 'In_Progress'])).exitCode).toBe(0);
    expect(queryOf('/due-diligence-statements')).toMatchObject({ type: 'EUDR', status: 'in_progress' });
    expect((await t.sct(['orders', 'list', '--buying', '--type', 'ORDER', '--commodity', 'COCOA'])).exitCode).toBe(0);
    expect(queryOf('/orders')).toMatchObject({ type: 'order' });
  });

  it('create flags send the API spelling', async () => {
    const p = await t.sct(['products', 'create', '--name', 'Cocoa nibs', '--commodity', 'Cocoa']);
    expect(p.exitCode, p.stderr).toBe(0);
    expect(JSON.parse(sent('POST', '/products')[0].body).commodity).toBe('cocoa');
    const d = await t.sct(['dds', 'create', '--type', 'eudr', '--dds-identifier', '25BE3XKQ9M4T2N']);
    expect(d.exitCode, d.stderr).toBe(0);
    expect(JSON.parse(sent('POST', '/due-diligence-statements')[0].body).type).toBe('EUDR');
  });

  it('completion takes its shell in any case', async () => {
    const upper = await t.sct(['completion', 'ZSH']);
    expect(upper.exitCode, upper.stderr).toBe(0);
    expect(upper.stdout).toBe((await t.sct(['completion', 'zsh'])).stdout);
  });

  it('-o takes its format in any case', async () => {
    const r = await t.sct(['products', 'list', '--limit', '1', '-o', 'JSON']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });

  it('a value of no case is still exit 2 listing the allowed ones', async () => {
    await t.expectUsageErrors(
      [
        [['products', 'list', '--commodity', 'cocoas'], /allowed values are .*cocoa/],
        [['products', 'list', '--commodity', 'cocao'], /allowed values are .*wood \(did you mean cocoa\?\)/],
        [['dds', 'list', '--type', 'eudrx'], /allowed values are EUDR/],
        [['products', 'list', '-o', 'jsonx'], /Allowed choices are table, json, ndjson, csv, and geojson where a command's --help offers it/],
      ],
      { inProcess: true },
    );
  });
});
