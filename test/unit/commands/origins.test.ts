import { describe, expect, it } from 'vitest';
import { runRegistered, runWith, useHttpMock } from '../../helpers/http-mock.js';
import { listOrigins, register } from '../../../src/commands/origins.js';

const http = useHttpMock();
const ORIGIN = { id: 24, name: 'Farm Kouassi 12 (Daloa)', country_code: 'CI', location: { type: 'Point', coordinates: [-6.45, 6.877] } };

describe('origins', () => {
  it('list --country-code: one GET with the filter', async () => {
    http.stub('GET', '/origins', { query: { country_code: 'CI', limit: '10', offset: '0' } }, { json: { count: 1, next: null, previous: null, results: [ORIGIN] } });
    await runWith(http, (ctx) => listOrigins(ctx, { countryCode: 'ci' }), { flags: { output: 'json' } });
    expect(http.sent()).toEqual(['GET /origins']);
  });

  it('create: one POST, the location as a GeoJSON point (longitude first)', async () => {
    const body = { name: 'Farm Kouassi 12 (Daloa)', country_code: 'CI', location: { type: 'Point', coordinates: [-6.45, 6.877] } };
    http.stub('POST', '/origins', { body }, { status: 201, json: ORIGIN });
    const { stderr } = await runRegistered(http, register, ['origins', 'create', '--name', 'Farm Kouassi 12 (Daloa)', '--country-code', 'ci', '--location', '6.877,-6.450', '-o', 'json']);
    expect(http.sent()).toEqual(['POST /origins']);
    expect(http.requests[0].headers['idempotency-key']).toBeTruthy();
    expect(stderr).toContain('Created origin 24');
  });

  it('update: one PATCH of the fields given', async () => {
    http.stub('PATCH', '/origins/24', { body: { name: 'Farm Costa 50', location: { type: 'Point', coordinates: [-55.42, -12.65] } } }, { json: ORIGIN });
    await runRegistered(http, register, ['origins', 'update', '24', '--name', 'Farm Costa 50', '--location', '-12.65,-55.42', '-o', 'json']);
    expect(http.sent()).toEqual(['PATCH /origins/24']);
  });
});
