// sct value-chains as a user runs them: sct in-process against the sandbox.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

describe('value-chains list', () => {
  it('maps every named filter to its query parameter', async () => {
    const r = await t.sct([
      'value-chains', 'list', '-o', 'json',
      '--status', 'active',
      '--type', 'supplier',
      '--country', 'gh',
      '--assessment-status', 'failing',
      '--company-name', 'cocoa',
      '--contact-name', 'an',
      '--external-id', 'VC-1-0102',
      '--tag', 'strategic',
      '--permission-granted',
      '--no-self-managed',
      '--created-from', '2020-01-01', '--created-to', '2030-01-01',
      '--updated-from', '2020-01-02', '--updated-to', '2030-01-02',
      '--id', '1,2,3', '--exclude-id', '2',
      '--ordering', 'company_name',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBeInstanceOf(Array);
    expect(t.sb.requests).toHaveLength(1);
    expect(t.sb.requests[0]).toMatchObject({ method: 'GET', path: '/api/value-chains', status: 200 });
    expect(t.queryOf()).toEqual({
      status: 'active',
      type: 'supplier',
      country_code: 'GH',
      assessment_status: 'failing',
      company_name__icontains: 'cocoa',
      contact_name__icontains: 'an',
      external_id: 'VC-1-0102',
      tags__name: 'strategic',
      permission_granted: 'true',
      is_self_managed: 'false',
      created_at__date__gte: '2020-01-01',
      created_at__date__lte: '2030-01-01',
      updated_at__date__gte: '2020-01-02',
      updated_at__date__lte: '2030-01-02',
      id__in: '1,2,3',
      id__exclude_in: '2',
      ordering: 'company_name',
      limit: '10',
      offset: '0',
    });
  });

  it('sends __in for lists and the sandbox filters by them', async () => {
    const r = await t.sct(['value-chains', 'list', '--json', '--status', 'active,invited', '--type', 'supplier,trader', '--country', 'gh,ci', '--tag', 'a,b', '--tag', 'strategic', '--no-permission-granted', '--limit', '100']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.queryOf()).toMatchObject({ status__in: 'active,invited', type__in: 'supplier,trader', country_code__in: 'GH,CI', tags__name__in: 'a,b,strategic', permission_granted: 'false' });
    for (const v of JSON.parse(r.stdout) as Array<{ status: string; type: string; country_code: string; permission_granted: boolean }>) {
      expect(['active', 'invited']).toContain(v.status);
      expect(['supplier', 'trader']).toContain(v.type);
      expect(['GH', 'CI']).toContain(v.country_code);
      expect(v.permission_granted).toBe(false);
    }
  });

  it('a boolean filter the sandbox cannot read is no filter, as django-filter\'s BooleanWidget reads it; True, TRUE, 1, False, 0 are read', async () => {
    const ids = async (...filters: string[]) => {
      const r = await t.sct(['value-chains', 'list', '--all', '-o', 'json', ...filters.flatMap((f) => ['--filter', f])]);
      expect(r.exitCode, `${filters.join(' ')}: ${r.stderr}`).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ id: number; is_self_managed: boolean; permission_granted: boolean }>);
    };
    const every = await ids();
    expect((await ids('is_self_managed=yes')).map((v) => v.id)).toEqual(every.map((v) => v.id));
    expect((await ids('permission_granted=maybe')).map((v) => v.id)).toEqual(every.map((v) => v.id));
    const selfManaged = every.filter((v) => v.is_self_managed).map((v) => v.id);
    expect(selfManaged.length).toBeGreaterThan(0);
    expect(selfManaged.length).toBeLessThan(every.length);
    for (const spelt of ['True', 'TRUE', '1']) expect((await ids(`is_self_managed=${spelt}`)).map((v) => v.id), spelt).toEqual(selfManaged);
    for (const spelt of ['False', '0']) expect((await ids(`is_self_managed=${spelt}`)).map((v) => v.id), spelt).toEqual(every.filter((v) => !v.is_self_managed).map((v) => v.id));
  });

  it('prints a table with the country as flag and name, and CSV', async () => {
    const json = JSON.parse((await t.sct(['value-chains', 'list', '--json', '--limit', '2'])).stdout);
    const table = await t.sct(['value-chains', 'list', '--limit', '2']);
    expect(table.exitCode, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+COMPANY\s+TYPE\s+STATUS\s+COUNTRY\s+CONTACT\s+ASSESSMENT$/);
    expect(lines[1]).toContain(`${json[0].country.flag} ${json[0].country.name}`);
    const c = await t.sct(['value-chains', 'list', '-o', 'csv', '--limit', '2', '--columns', 'id,company_name,country.alpha_2']);
    expect(parse(c.stdout, { columns: true })).toEqual(json.map((v: { id: number; company_name: string; country: { alpha_2: string } }) => ({ id: String(v.id), company_name: v.company_name, 'country.alpha_2': v.country.alpha_2 })));
  });

  it('rejects bad filter values before sending anything', async () => {
    await t.expectUsageErrors([
      [['value-chains', 'list', '--country-code', 'GHA'], 'invalid --country-code "GHA"'],
      [['value-chains', 'list', '--assessment-status', 'ok'], 'invalid --assessment-status'],
      [['value-chains', 'list', '--status', ','], '--status needs at least one value'],
      [['value-chains', 'list', '--created-to', '2024-02-31'], 'invalid --created-to'],
      [['value-chains', 'list', '--updated-from', '2025-01-02', '--updated-to', '2025-01-01'], 'the range is empty'],
      [['value-chains', 'list', '--id', 'x'], 'invalid --id'],
      [['value-chains', 'list', '--permission-granted', '--no-permission-granted'], 'choose one of --permission-granted or --no-permission-granted, not both'],
      [['value-chains', 'list', '--no-self-managed', '--self-managed'], 'choose one of --self-managed or --no-self-managed, not both'],
      [['value-chains', 'create', '--company-name', 'X', '--self-managed', '--no-self-managed'], 'not both'],
    ], { inProcess: true });
  });
});

describe('value-chains get, create, update, delete', () => {
  it('gets one value chain', async () => {
    const r = await t.sct(['value-chains', 'get', '1', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 1, company_name: expect.any(String) });
    expect(t.sb.requests[0]).toMatchObject({ method: 'GET', path: '/api/value-chains/1' });
    const vc = JSON.parse(r.stdout);
    const text = await t.sct(['value-chains', 'get', '1']);
    // Into a pipe a key/value view is tab-separated, as every table there (`cut -f2`).
    expect(text.stdout.split('\n')[1]).toBe(`COMPANY\t${vc.company_name}`);
    expect(text.stdout).toMatch(new RegExp(`^PERMISSION GRANTED\\s+${vc.permission_granted}$`, 'm'));
  });

  it('creates from flags, --set and --file', async () => {
    const file = t.writeFile('vc.json', JSON.stringify({ company_name: 'From file', ownership_information: { sector_code: 'A01.27' } }));
    const r = await t.sct([
      'value-chains', 'create', '--file', file,
      '--company-name', 'Kumasi Cocoa Ltd', '--description', 'new supplier', '--external-id', 'VC-NEW-1',
      '--contact-name', 'Ama Mensah', '--type', 'supplier', '--status', 'invited', '--country-code', 'gh',
      '--no-permission-granted', '--self-managed', '--reciprocal-company-id', '101', '--tag', 'eudr', '--tag', 'new',
      '--set', 'metadata.invitation_ids=["x-1"]',
      '-o', 'json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0]).toMatchObject({ method: 'POST', path: '/api/value-chains', status: 201 });
    expect(t.bodyOf()).toEqual({
      company_name: 'Kumasi Cocoa Ltd',
      ownership_information: { sector_code: 'A01.27' },
      description: 'new supplier',
      external_id: 'VC-NEW-1',
      contact_name: 'Ama Mensah',
      type: 'supplier',
      status: 'invited',
      country_code: 'GH',
      permission_granted: false,
      is_self_managed: true,
      reciprocal_company_id: 101,
      tags: ['eudr', 'new'],
      metadata: { invitation_ids: ['x-1'] },
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ company_name: 'Kumasi Cocoa Ltd', country: { alpha_2: 'GH' }, tags: ['eudr', 'new'] });
  });

  it('rejects invalid fields before sending anything', async () => {
    await t.expectUsageErrors([
      [['value-chains', 'create', '--description', 'no name'], /company_name: /],
      [['value-chains', 'create', '--company-name', 'X', '--country-code', 'GHA'], 'invalid --country-code "GHA": expected a 2-letter country code'],
      [['value-chains', 'create', '--company-name', 'X', '--external-id', 'e'.repeat(256)], /external_id: /],
      [['value-chains', 'create', '--company-name', 'X', '--reciprocal-company-id', 'abc'], 'invalid --reciprocal-company-id'],
      [['value-chains', 'create', '--company-name', 'X', '--tag', ''], /tags\[0\]: /],
      [['value-chains', 'create', '--company-name', 'X', '--set', 'permission_granted=maybe'], /permission_granted: /],
      [['value-chains', 'update', '1'], 'nothing to update'],
    ], { inProcess: true });
  });

  it('updates only the given fields; the service rejects an unknown status (exit 1)', async () => {
    const r = await t.sct(['value-chains', 'update', '2', '--status', 'inactive', '--contact-name', 'New Contact', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0]).toMatchObject({ method: 'PATCH', path: '/api/value-chains/2', status: 200 });
    expect(t.bodyOf()).toEqual({ status: 'inactive', contact_name: 'New Contact' });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 2, status: 'inactive', contact_name: 'New Contact' });
    const bad = await t.sct(['value-chains', 'update', '2', '--status', 'paused']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('status:');
  });

  it('deletes with --yes only', async () => {
    const no = await t.sct(['value-chains', 'delete', '4']);
    expect(no.exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
    const yes = await t.sct(['value-chains', 'delete', '4', '-y']);
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(t.sb.requests.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual(['DELETE /api/value-chains/4 204']);
  });
});
