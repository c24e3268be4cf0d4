// Origin locations in the sandbox: Point, Polygon and MultiPolygon stored as GeoJSON, malformed
// ones refused with DRF field errors, unknown country codes refused, realistic demo plots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { all, client } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

const ring = [[-2.48593, 6.204378], [-2.486992, 6.204926], [-2.488672, 6.204604], [-2.488503, 6.202265], [-2.48593, 6.204378]];
const base = { name: 'Mensah plantation', country_code: 'GH' };

describe('origin locations', () => {
  it.each([
    ['Point', { type: 'Point', coordinates: [-2.481036, 6.209874] }],
    ['Polygon', { type: 'Polygon', coordinates: [ring] }],
    ['MultiPolygon', { type: 'MultiPolygon', coordinates: [[ring], [ring.map(([x, y]) => [x + 0.01, y])]] }],
  ])('stores a %s as sent', async (_type, location) => {
    const c = client(sb);
    const r = await c.post('/origins', { ...base, location });
    expect(r.status).toBe(201);
    expect(r.body.location).toEqual(location);
    expect((await c.get(`/origins/${r.body.id}`)).body.location).toEqual(location);
  });

  it.each([
    ['an unclosed ring', { type: 'Polygon', coordinates: [ring.slice(0, 4)] }, 'Ring 1: the positions of a linear ring do not form a closed ring (the first and last differ).'],
    ['a ring of 3 positions', { type: 'Polygon', coordinates: [[ring[0], ring[1], ring[0]]] }, 'Ring 1: a linear ring requires at least 4 positions, got 3.'],
    ['a longitude of 200', { type: 'Point', coordinates: [200, 6.2] }, 'Position [200, 6.2] is out of range: longitude must be within -180..180 and latitude within -90..90.'],
    ['a latitude out of range in a polygon', { type: 'MultiPolygon', coordinates: [[ring.map(([x, y]) => [y, x * 40])]] }, expect.stringMatching(/^Position \[6\.204378, -99\.4372\] is out of range/)],
    ['an unknown type', { type: 'LineString', coordinates: ring }, 'Unknown geometry type "LineString": expected one of Point, Polygon, MultiPolygon.'],
    ['coordinates that are not numbers', { type: 'Point', coordinates: ['-2.48', '6.2'] }, 'Invalid coordinates: a position is [longitude, latitude].'],
    ['a string', '6.2,-2.48', 'Invalid geometry: expected a GeoJSON object.'],
  ])('refuses %s with a field error', async (_what, location, message) => {
    const c = client(sb);
    const r = await c.post('/origins', { ...base, location });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ location: [message] });
    const patched = await c.patch('/origins/1', { location });
    expect(patched.status).toBe(400);
  });

  it('clears a location with null', async () => {
    const c = client(sb);
    const r = await c.patch('/origins/2', { location: null });
    expect(r.status).toBe(200);
    expect(r.body.location).toBeNull();
  });

  it('refuses an unknown country code, on create and on update', async () => {
    const c = client(sb);
    expect((await c.post('/origins', { ...base, country_code: 'XY' })).body).toEqual({ country_code: ['"XY" is not a valid choice.'] });
    expect((await c.patch('/origins/1', { country_code: 'QQ' })).body).toEqual({ country_code: ['"QQ" is not a valid choice.'] });
    // Any ISO code is known, not only the countries of the demo data; lower case too.
    const tz = await c.post('/origins', { ...base, country_code: 'tz' });
    expect(tz.status).toBe(201);
    expect(tz.body.country_code).toBe('TZ');
  });
});

describe('demo plots', () => {
  it('hold points, polygons and multipolygons with six decimals in the producer countries', async () => {
    const rows = [...(await all(client(sb), '/origins?limit=1000')), ...(await all(client(sb, 'sct_demo_owner_trader'), '/origins?limit=1000'))].filter((o) => o.id <= 110 && o.location);
    const kinds = new Map<string, Set<string>>();
    for (const o of rows) {
      const set = kinds.get(o.location.type) ?? new Set<string>();
      set.add(o.country_code);
      kinds.set(o.location.type, set);
      const numbers = JSON.stringify(o.location.coordinates).match(/-?\d+\.\d+/g)!;
      expect(numbers.some((n) => /\.\d{6}$/.test(n)), JSON.stringify(o.location)).toBe(true);
    }
    for (const c of ['CI', 'GH', 'BR', 'ID', 'CM']) expect(kinds.get('Point')).toContain(c);
    expect([...kinds.get('Polygon')!].filter((c) => ['CI', 'GH', 'BR', 'ID', 'CM'].includes(c)).length).toBeGreaterThanOrEqual(3);
    expect(kinds.get('MultiPolygon')?.size).toBeGreaterThan(0);
  });
});
