// sct origins sync with a GeoJSON plot file against the sandbox: the plan of a file with a new
// plot, a plot whose geometry moved and an unchanged one (--dry-run sends no write), --yes
// applying exactly that, a second sync sending nothing, and a file that fails the checks of
// `origins check` refused before any request (the reads included).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSandbox } from '../helpers/sandbox.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({ rateLimit: 100_000 }, { inProcess: true });
const fixture = (name: string) => join(fileURLToPath(new URL('../fixtures/geo/', import.meta.url)), name);

async function send(method: string, path: string, body: unknown): Promise<any> {
  const r = await fetch(t.sb.url + path, { method, headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

const writes = () => t.sb.requests.filter((q) => q.method === 'POST' || q.method === 'PATCH');

const POLYGON = {
  type: 'Polygon',
  coordinates: [[[-6.451715, 6.884482], [-6.452196, 6.885414], [-6.45379, 6.885238], [-6.454233, 6.884337], [-6.453694, 6.883172], [-6.452859, 6.882782], [-6.451542, 6.883471], [-6.451715, 6.884482]]],
};
const WAS = { type: 'Point', coordinates: [-6.601877, 5.791203] };
const MOVED = { type: 'Point', coordinates: [-6.602315, 5.791844] };
const NEW = { type: 'Point', coordinates: [-6.593214, 5.784512] };

/**
 * On the service: `${p}-SAME` (a polygon) and `${p}-MOVED` (a point). The file: SAME as it is
 * (its id on the Feature, the names of the EU information system), MOVED a little further
 * (external_id as a property), and `${p}-NEW`.
 */
async function seedAndWrite(p: string): Promise<{ same: any; moved: any; file: string }> {
  const same = await send('POST', '/origins', { name: 'Bamba plantation, Daloa', country_code: 'CI', external_id: `${p}-SAME`, location: POLYGON });
  const moved = await send('POST', '/origins', { name: 'Koné farm, Soubré', country_code: 'CI', external_id: `${p}-MOVED`, description: 'kept', location: WAS });
  const file = t.writeFile(
    `${p}.geojson`,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: `${p}-SAME`, properties: { ProductionPlace: 'Bamba plantation, Daloa', ProducerCountry: 'ci' }, geometry: POLYGON },
        { type: 'Feature', properties: { name: 'Koné farm, Soubré', country_code: 'CI', external_id: `${p}-MOVED` }, geometry: MOVED },
        { type: 'Feature', id: `${p}-NEW`, properties: { name: 'Kouassi farm, Soubré', description: 'new plot', Area: 1.8 }, geometry: NEW },
      ],
    }),
  );
  return { same, moved, file };
}

describe('origins sync --file plots.geojson', () => {
  it('plans 1 create, 1 update of the location and 1 unchanged; --dry-run sends no write', async () => {
    const { same, moved, file } = await seedAndWrite('GJDRY');
    t.sb.requests.length = 0;
    const r = await t.sct(['origins', 'sync', '--file', file, '--country-code', 'CI', '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.create).toEqual([
      { external_id: 'GJDRY-NEW', lines: [3], body: { name: 'Kouassi farm, Soubré', country_code: 'CI', external_id: 'GJDRY-NEW', description: 'new plot', location: NEW } },
    ]);
    expect(plan.update).toEqual([
      { external_id: 'GJDRY-MOVED', id: moved.id, lines: [2], changes: [{ field: 'location', old: WAS, new: MOVED }], body: { location: MOVED } },
    ]);
    expect(plan.unchanged).toEqual([{ external_id: 'GJDRY-SAME', id: same.id, lines: [1] }]);
    expect(plan.requests).toBe(2);
    expect(r.stderr).toMatch(/plan for origins: 1 to create, 1 to update, 1 unchanged/);
    // The reads only: one listing of the origins.
    expect(t.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/origins']);
    expect(writes()).toHaveLength(0);
  });

  it('--yes applies the plan; a second sync sends no write', async () => {
    const { same, moved, file } = await seedAndWrite('GJYES');
    t.sb.requests.length = 0;
    const r = await t.sct(['origins', 'sync', '--file', file, '--country-code', 'CI', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('origins: 1 created, 1 updated, 0 rejected');
    expect(writes().map((q) => `${q.method} ${q.path}`).sort()).toEqual([`PATCH /api/origins/${moved.id}`, 'POST /api/origins']);
    expect(JSON.parse(writes().find((q) => q.method === 'PATCH')!.body)).toEqual({ location: MOVED });
    expect(JSON.parse(writes().find((q) => q.method === 'POST')!.body)).toEqual({
      name: 'Kouassi farm, Soubré',
      country_code: 'CI',
      external_id: 'GJYES-NEW',
      description: 'new plot',
      location: NEW,
    });

    const after = await t.api(`/origins/${moved.id}`);
    expect(after.location).toEqual(MOVED);
    expect(after.description).toBe('kept');
    expect((await t.api(`/origins/${same.id}`)).location).toEqual(POLYGON);
    const created = await t.api('/origins?external_id=GJYES-NEW');
    expect(created.results.map((o: any) => o.external_id)).toEqual(['GJYES-NEW']);

    t.sb.requests.length = 0;
    const again = await t.sct(['origins', 'sync', '--file', file, '--country-code', 'CI', '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/0 to create, 0 to update, 3 unchanged/);
    expect(writes()).toHaveLength(0);
  });

  it('refuses a file with a check error or a feature without an external_id, sending nothing (not even the reads)', async () => {
    const noId = t.writeFile(
      'GJNOID.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', id: 'GJNOID-1', properties: { name: 'Farm 1', country_code: 'CI' }, geometry: NEW },
          { type: 'Feature', properties: { name: 'Farm 2', country_code: 'CI' }, geometry: MOVED },
        ],
      }),
    );
    t.sb.requests.length = 0;
    await t.expectUsageErrors([
      [['origins', 'sync', '--file', fixture('unclosed.geojson'), '--yes'], 'unclosed.geojson: an error the registry would refuse; nothing was sent'],
      [['origins', 'sync', '--file', fixture('unclosed.geojson'), '--dry-run'], /ring 1 \(outer\) is not closed/],
      [['origins', 'sync', '--file', noId, '--yes'], 'feature 2, external_id: required: a sync matches each feature with an origin by its external_id'],
    ]);
    // A name is needed only to create: known once the service is read (the feature is new there).
    const newOnly = t.writeFile('GJNEW.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', id: 'GJNEW-1', properties: { name: 'Farm 1', country_code: 'CI' }, geometry: NEW }] }));
    const nameless = await t.sct(['origins', 'sync', '--file', newOnly, '--dry-run', '--name-property', 'nom']);
    expect(nameless.exitCode).toBe(2);
    expect(nameless.stderr).toMatch(/1 invalid feature; nothing was sent\n  feature 1, name: required: no nom property/);
    expect(writes()).toEqual([]);
  });
});

describe('a feature that only updates', () => {
  it('needs no name or country when it matches an origin on the service; a new one without them is an invalid feature', async () => {
    const held = await send('POST', '/origins', { name: 'Nameless update farm', country_code: 'CI', external_id: 'UPD-ONLY-1', location: WAS });
    t.sb.requests.length = 0;
    const file = t.writeFile(
      'update-only.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          // The plot moved; no name or country in the file: the service has them.
          { type: 'Feature', properties: { external_id: 'UPD-ONLY-1', Area: 1 }, geometry: MOVED },
        ],
      }),
    );
    const r = await t.sct(['origins', 'sync', '--file', file, '--dry-run', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.update).toEqual([expect.objectContaining({ external_id: 'UPD-ONLY-1', id: held.id })]);
    expect(plan.update[0].changes.map((c: { field: string }) => c.field)).toEqual(['location']);
    expect(writes()).toEqual([]);

    // A feature the service does not hold, without a name: it cannot be created, and says why.
    const fresh = t.writeFile('create-nameless.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { external_id: 'UPD-ONLY-NEW', Area: 1 }, geometry: NEW }] }));
    const refused = await t.sct(['origins', 'sync', '--file', fresh, '--dry-run', '--country-code', 'CI']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/feature 1, name: required: no name, ProductionPlace/);
    expect(writes()).toEqual([]);
  });
});

describe('a feature with "geometry": null (an origin without a location, as origins list -o geojson writes it)', () => {
  it('syncs as an empty location cell: never compared, never sent, created without one; import and check refuse it saying what is wrong', async () => {
    const kept = await send('POST', '/origins', { name: 'Farm kept, Daloa', country_code: 'CI', external_id: 'GJNULL-KEPT', location: WAS });
    await send('POST', '/origins', { name: 'No plot yet', country_code: 'GH', external_id: 'GJNULL-BARE' });
    const exported = await t.sct(['origins', 'list', '--external-id', 'GJNULL-BARE,GJNULL-KEPT', '-o', 'geojson']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const file = t.writeFile('GJNULL.geojson', exported.stdout);
    // The export of the service's own origins plans nothing.
    const same = await t.sctBin(['origins', 'sync', '--file', file, '--dry-run']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stderr).toMatch(/0 to create, 0 to update, 2 unchanged/);

    // A null geometry against an origin with a location: no value given, no change; a new one is created without a location.
    const features = JSON.parse(exported.stdout).features;
    const kept2 = { ...features.find((f: any) => f.properties.external_id === 'GJNULL-KEPT'), geometry: null };
    const fresh = { type: 'Feature', geometry: null, properties: { name: 'New, no plot', country_code: 'GH', external_id: 'GJNULL-NEW' } };
    const mixed = t.writeFile('GJNULL-2.geojson', JSON.stringify({ type: 'FeatureCollection', features: [kept2, fresh] }));
    t.sb.requests.length = 0;
    const r = await t.sctBin(['origins', 'sync', '--file', mixed, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('origins: 1 created, 0 rejected');
    expect(writes().map((q) => [q.method, JSON.parse(q.body)])).toEqual([['POST', { name: 'New, no plot', country_code: 'GH', external_id: 'GJNULL-NEW' }]]);
    expect((await t.api(`/origins/${kept.id}`)).location).toEqual(WAS);

    t.sb.requests.length = 0;
    const imported = await t.sctBin(['origins', 'import', '--file', mixed]);
    expect(imported.exitCode).toBe(2);
    expect(imported.stderr).toContain('error: GJNULL-2.geojson: features 1 (GJNULL-KEPT), 2 (GJNULL-NEW) have no geometry: an origin is imported with its plot; nothing was sent');
    expect(imported.stderr).not.toContain('the registry would refuse');
    expect(imported.stderr).toMatch(/hint: give each one a Point, Polygon or MultiPolygon, or leave it out; `sct origins sync --file FILE` creates an origin without a location/);
    const checked = await t.sctBin(['origins', 'check', file]);
    expect(checked.exitCode).toBe(2);
    expect(checked.stderr).toContain('error: 1 error in GJNULL.geojson: feature 1 (GJNULL-BARE) has no geometry: the registry needs one for every feature; give it a Point, Polygon or MultiPolygon, or leave it out');
    expect(writes()).toHaveLength(0);
  });
});
