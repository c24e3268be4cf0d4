// sct origins list/get/create/update/delete as a user runs them: sct in-process against the
// sandbox, asserting on what the sandbox received.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

describe('origins list', () => {
  it('maps every named filter to its query parameter', async () => {
    const r = await t.sct([
      'origins', 'list', '-o', 'json',
      '--country', 'ci',
      '--assessment-status', 'passing',
      '--name', 'farm',
      '--description', 'cocoa',
      '--external-id', 'ORI-CI-00001',
      '--created-from', '2020-01-01', '--created-to', '2030-12-31',
      '--updated-from', '2020-01-02', '--updated-to', '2030-12-30',
      '--passing-min', '10', '--failing-min', '0',
      '--id', '1,2,3', '--exclude-id', '4',
      '--ordering', '-created_at', '--search', 'farm', '--filter', 'name__istartswith=F',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBeInstanceOf(Array);
    expect(t.sb.requests).toHaveLength(1);
    expect(t.sb.requests[0]).toMatchObject({ method: 'GET', path: '/api/origins', status: 200 });
    expect(t.queryOf()).toEqual({
      country_code: 'CI',
      assessment_status: 'passing',
      name__icontains: 'farm',
      description__icontains: 'cocoa',
      external_id: 'ORI-CI-00001',
      created_at__date__gte: '2020-01-01',
      created_at__date__lte: '2030-12-31',
      updated_at__date__gte: '2020-01-02',
      updated_at__date__lte: '2030-12-30',
      passing_percentage_gte: '10',
      failing_percentage_gte: '0',
      id__in: '1,2,3',
      id__exclude_in: '4',
      ordering: '-created_at',
      search: 'farm',
      name__istartswith: 'F',
      limit: '10',
      offset: '0',
    });
  });

  it('sends __in for lists, and the sandbox filters by them', async () => {
    const r = await t.sct(['origins', 'list', '--json', '--country', 'br,id', '--assessment-status', 'pending,failing', '--external-id', 'ORI-BR-00024,ORI-BR-00016,ORI-XX-1', '--limit', '50']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.queryOf()).toMatchObject({ country_code__in: 'BR,ID', assessment_status__in: 'pending,failing', external_id__in: 'ORI-BR-00024,ORI-BR-00016,ORI-XX-1', limit: '50' });
    const rows = JSON.parse(r.stdout) as Array<{ country_code: string; assessment_status: string; external_id: string }>;
    for (const o of rows) {
      expect(['BR', 'ID']).toContain(o.country_code);
      expect(['pending', 'failing']).toContain(o.assessment_status);
    }
  });

  it('prints a table with the country as flag and name', async () => {
    const json = JSON.parse((await t.sct(['origins', 'list', '-o', 'json', '--limit', '3'])).stdout);
    const r = await t.sct(['origins', 'list', '--limit', '3']);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+COUNTRY\s+EXTERNAL ID\s+ASSESSMENT\s+CREATED$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`${json[0].country.flag} ${json[0].country.name}`);
    expect(lines[1]).toContain(json[0].created_at.slice(0, 10));
  });

  it('prints CSV with dotted columns and ndjson', async () => {
    const r = await t.sct(['origins', 'list', '-o', 'csv', '--limit', '2', '--columns', 'id,name,country.alpha_2,location.type']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(Object.keys(rows[0])).toEqual(['id', 'name', 'country.alpha_2', 'location.type']);
    expect(rows[0]['country.alpha_2']).toMatch(/^[A-Z]{2}$/);
    const nd = await t.sct(['origins', 'list', '-o', 'ndjson', '--limit', '2']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(rows.map((x) => Number(x.id)));
  });

  it('rejects bad filter values before sending anything', async () => {
    await t.expectUsageErrors([
      [['origins', 'list', '--country-code', 'CIV'], 'invalid --country-code "CIV"'],
      [['origins', 'list', '--country-code', 'CI,ZZ'], 'invalid --country-code "ZZ": not an ISO 3166-1 alpha-2 country code'],
      [['origins', 'list', '--assessment-status', 'great'], 'invalid --assessment-status "great"'],
      [['origins', 'list', '--created-from', '2024-13-01'], 'invalid --created-from'],
      [['origins', 'list', '--updated-to', 'yesterday'], 'invalid --updated-to'],
      [['origins', 'list', '--created-from', '2024-05-01', '--created-to', '2024-04-01'], 'the range is empty'],
      [['origins', 'list', '--passing-min', '101'], 'invalid --passing-min "101"'],
      [['origins', 'list', '--failing-min', 'x'], 'invalid --failing-min'],
      [['origins', 'list', '--id', '1,a'], 'invalid --id'],
      [['origins', 'list', '--exclude-id', '-3'], 'invalid --exclude-id'],
      [['origins', 'list', '--limit', '0'], 'invalid --limit'],
    ], { inProcess: true });
  });
});

describe('origins get, create, update, delete', () => {
  it('gets one origin as JSON and as key/value lines', async () => {
    const r = await t.sct(['origins', 'get', '1', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ id: 1, country: { alpha_2: o.country_code } });
    const text = await t.sct(['origins', 'get', '1']);
    expect(text.stdout).toMatch(new RegExp(`^NAME\\s+${o.name.replace(/[()]/g, '\\$&')}$`, 'm'));
    expect(text.stdout).toMatch(/^COUNTRY\s+\S+ \S/m);
    expect(text.stdout).toMatch(/^LOCATION\s+(-?[\d.]+,-?[\d.]+|\w+ \(see -o json\))$/m);
    expect(t.sb.requests.map((x) => `${x.method} ${x.path}`)).toEqual(['GET /api/origins/1', 'GET /api/origins/1']);
  });

  it('exits 1 on an unknown id', async () => {
    const r = await t.sct(['origins', 'get', '999999']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('404');
  });

  it('creates an origin from "lat,lng", sending a GeoJSON Point with longitude first', async () => {
    const r = await t.sct(['origins', 'create', '--name', 'Plot 7', '--country-code', 'ci', '--location', '5.35,-4.02', '--external-id', 'P-7', '--description', 'test plot', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Created origin \d+/);
    expect(t.sb.requests).toHaveLength(1);
    expect(t.sb.requests[0]).toMatchObject({ method: 'POST', path: '/api/origins', status: 201 });
    expect(t.sb.requests[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.bodyOf()).toEqual({ name: 'Plot 7', description: 'test plot', country_code: 'CI', external_id: 'P-7', location: { type: 'Point', coordinates: [-4.02, 5.35] } });
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ name: 'Plot 7', country_code: 'CI', country: { name: "Côte d'Ivoire" }, location: { type: 'Point', coordinates: [-4.02, 5.35] } });
  });

  it('creates from a GeoJSON --location, --set and --file', async () => {
    const file = t.writeFile('origin.json', JSON.stringify({ name: 'From file', country_code: 'gh', mapping_external_id: 'M-9' }));
    const r = await t.sct(['origins', 'create', '--file', file, '--location', '{"type":"Point","coordinates":[-1.2,6.1]}', '--set', 'description=via set', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.bodyOf()).toEqual({ name: 'From file', country_code: 'GH', mapping_external_id: 'M-9', location: { type: 'Point', coordinates: [-1.2, 6.1] }, description: 'via set' });
  });

  it('rejects invalid fields before sending anything', async () => {
    await t.expectUsageErrors([
      // Named as the flag to give: nothing is asked without a terminal.
      [['origins', 'create', '--country-code', 'CI'], /name: This field is required\.[\s\S]*hint: give --name \(or --set KEY=VALUE, or --file\); values are asked only at a terminal/],
      [['origins', 'create', '--name', 'X'], /country_code: /],
      [['origins', 'create', '--name', 'X', '--country-code', 'CIV'], 'invalid --country-code "CIV": expected a 2-letter country code'],
      [['origins', 'create', '--name', 'X', '--country-code', 'ZZ'], 'invalid --country-code "ZZ": not an ISO 3166-1 alpha-2 country code'],
      [['origins', 'create', '--name', 'X', '--country-code', 'uk'], 'invalid --country-code "uk": not an ISO 3166-1 alpha-2 country code (did you mean GB?)'],
      [['origins', 'create', '--name', 'X', '--country-code', 'EL'], '(did you mean GR?)'],
      [['origins', 'create', '--name', 'X', '--set', 'country_code=ZZ'], 'country_code: "ZZ" is not an ISO 3166-1 alpha-2 country code'],
      [['origins', 'create', '--name', 'X', '--location', '5.35,-4.02', '--country-code', 'ZZ'], 'invalid --country-code "ZZ"'],
      [['origins', 'check', '--country-code', 'ZZ', '-'], 'invalid --country-code "ZZ": not an ISO 3166-1 alpha-2 country code', '{"type":"Point","coordinates":[-4.02,5.35]}'],
      [['value-chains', 'create', '--company-name', 'X', '--country-code', 'ZZ'], 'invalid --country-code "ZZ"'],
      [['origins', 'create', '--name', '', '--country-code', 'CI'], /name: /],
      [['origins', 'create', '--name', 'x'.repeat(256), '--country-code', 'CI'], /name: /],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--external-id', 'e'.repeat(256)], /external_id: /],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--location', '91,0'], 'invalid --location "91,0": latitude 91 is out of range -90..90'],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--location', '0,-181'], 'longitude -181 is out of range'],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--location', 'north'], 'invalid --location "north"'],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--location', '{"type":"Point","coordinates":[1]}'], 'coordinates'],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--set', 'location={"type":"Point","coordinates":[0,99]}'], /location: latitude 99/],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--set', 'location=north'], /location: expected "lat,lng"/],
      [['origins', 'create', '--name', 'X', '--country-code', 'CI', '--set', 'location={"lat":1,"lng":2}'], /location: expected "lat,lng" \(e\.g\. 5\.35,-4\.02\) or a GeoJSON geometry/],
      [['origins', 'update', '1'], 'nothing to update'],
      [['origins', 'update', 'abc', '--name', 'X'], 'invalid ID'],
      [['origins', 'update', '1', '--country-code', 'X1'], 'invalid --country-code "X1"'],
      [['origins', 'update', '1', '--country-code', 'zz'], 'invalid --country-code "zz": not an ISO 3166-1 alpha-2 country code'],
    ], { inProcess: true });
  });

  it('updates only the given fields', async () => {
    const r = await t.sct(['origins', 'update', '2', '--location', '-3.5,120.25', '--name', 'Renamed', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests[0]).toMatchObject({ method: 'PATCH', path: '/api/origins/2', status: 200 });
    expect(t.bodyOf()).toEqual({ name: 'Renamed', location: { type: 'Point', coordinates: [120.25, -3.5] } });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 2, name: 'Renamed' });
  });

  it('deletes with --yes, and without a terminal refuses without --yes', async () => {
    const no = await t.sct(['origins', 'delete', '3']);
    expect(no.exitCode).toBe(2);
    expect(no.stderr).toContain('--yes');
    expect(t.sb.requests).toHaveLength(0);
    const yes = await t.sct(['origins', 'delete', '3', '--yes']);
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(yes.stderr).toContain('Deleted origin 3');
    expect(t.sb.requests.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual(['DELETE /api/origins/3 204']);
    expect((await t.sct(['origins', 'get', '3'])).exitCode).toBe(1);
  });
});
