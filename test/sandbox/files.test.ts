// Documents through signed URLs, imports, risk assessments and the evidence ZIP.
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { client, OWNER, TRADER } from './helpers.js';

let sb: Sandbox;
let c: ReturnType<typeof client>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
beforeAll(async () => {
  sb = await startSandbox({ port: 0, statementDelayMs: 100 });
  c = client(sb, OWNER);
});
afterAll(async () => {
  await sb.close();
});

describe('documents', () => {
  it('creates, uploads to the signed URL, confirms and downloads', async () => {
    const doc = await c.post('/documents', { name: 'Plot map.geojson', size: 27 });
    expect(doc.status).toBe(201);
    expect(doc.body).toMatchObject({ status: 'pending_upload', content_type: 'application/geo+json' });
    const uploadUrl = new URL(doc.body.upload_url);
    expect(uploadUrl.origin).toBe(sb.origin);

    const early = await c.post(`/documents/${doc.body.id}/confirm_upload`);
    expect(early.status).toBe(400);
    expect(early.body.detail).toMatch(/No file/);
    expect((await c.get(`/documents/${doc.body.id}/download`)).status).toBe(400);

    const bytes = Buffer.from('{"type":"FeatureCollection"}');
    const put = await fetch(uploadUrl, { method: 'PUT', body: bytes, headers: { 'Content-Type': 'application/geo+json' } });
    expect(put.status).toBe(200);
    const logged = sb.requests.find((r) => r.method === 'PUT');
    expect(logged?.headers.authorization).toBeUndefined();

    const confirmed = await c.post(`/documents/${doc.body.id}/confirm_upload`);
    expect(confirmed.body).toMatchObject({ status: 'uploaded', size: bytes.length, upload_url: null });
    expect(confirmed.body.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await fetch(uploadUrl, { method: 'PUT', body: 'again' })).status).toBe(403);

    const dl = await c.get(`/documents/${doc.body.id}/download`);
    expect(dl.status).toBe(200);
    const file = await fetch(dl.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/geo+json');
    expect(file.headers.get('content-disposition')).toContain('Plot map.geojson');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await fetch(`${sb.origin}/_downloads/forged`)).status).toBe(403);
  });

  it('lists and filters documents of the company only', async () => {
    const list = await c.get('/documents?status=uploaded&limit=100');
    expect(list.body.results.every((d: any) => d.status === 'uploaded')).toBe(true);
    expect((await c.get('/documents?content_type=application/pdf')).body.count).toBeGreaterThan(0);
    expect((await c.get('/documents?search=certificate')).body.count).toBeGreaterThan(0);
    const theirs = (await client(sb, TRADER).get('/documents?limit=1')).body.results[0];
    expect((await c.get(`/documents/${theirs.id}`)).status).toBe(404);
    expect((await c.post('/documents', {})).body).toEqual({ name: ['This field is required.'] });
    const demo = list.body.results.find((d: any) => d.content_type === 'application/pdf');
    const pdf = await fetch((await c.get(`/documents/${demo.id}/download`)).body.url);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('imports', () => {
  it('runs an import from an uploaded document', async () => {
    const doc = (await c.post('/documents', { name: 'origins.csv' })).body;
    await fetch(doc.upload_url, { method: 'PUT', body: 'name,country_code\nA,CI\nB,GH\n' });
    await c.post(`/documents/${doc.id}/confirm_upload`);
    const run = await c.post('/imports', { type: 'origins', source: 'csv', document: doc.id });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ status: 'running', stats: { rows: 2 } });
    await sleep(150);
    expect((await c.get(`/imports/${run.body.id}`)).body).toMatchObject({ status: 'succeeded', stats: { rows: 2, created: 2 } });
    expect((await c.get('/imports?status=failed')).body.results.every((r: any) => r.status === 'failed')).toBe(true);
    expect((await c.post('/imports', { type: 'invoices' })).status).toBe(400);
  });
});

describe('risk assessments', () => {
  it('creates with only an identifier, unique per company', async () => {
    const r = await c.post('/compliance/risk-assessments', { identifier: 'RA-NEW-1', origins: [1, 2] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ identifier: 'RA-NEW-1', status: 'in_progress' });
    expect((await c.post('/compliance/risk-assessments', { identifier: 'RA-NEW-1' })).body.identifier[0]).toMatch(/already exists/);
    expect((await c.post('/compliance/risk-assessments', {})).body).toEqual({ identifier: ['This field is required.'] });
    await sleep(150);
    expect((await c.get('/compliance/risk-assessments?identifier=RA-NEW-1')).body.results[0].status).toBe('complete');
  });

  it('answers the evidence ZIP with a folder per evidence type', async () => {
    const ra = (await c.get('/compliance/risk-assessments?limit=1&ordering=identifier')).body.results[0];
    const res = await fetch(`${sb.url}/compliance/risk-assessments/${ra.id}/evidence-downloads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${OWNER}`, Accept: 'application/zip, application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(`filename="${ra.identifier}.zip"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const files = unzipSync(bytes);
    const names = Object.keys(files);
    for (const folder of ['assessments', 'geolocation', 'documents', 'supply-chain'])
      expect(names.some((n) => n.startsWith(`${ra.identifier}/${folder}/`)), folder).toBe(true);
    const geo = JSON.parse(strFromU8(files[`${ra.identifier}/geolocation/origins.geojson`]!));
    expect(geo.type).toBe('FeatureCollection');
    expect(geo.features.length).toBe(ra.origins.length);
    // Deterministic: the same request gives the same bytes.
    const again = await fetch(`${sb.url}/compliance/risk-assessments/${ra.id}/evidence-downloads`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER}` } });
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    const theirs = (await client(sb, TRADER).get('/compliance/risk-assessments?limit=1')).body.results[0];
    expect((await c.post(`/compliance/risk-assessments/${theirs.id}/evidence-downloads`)).status).toBe(404);
  });
});
