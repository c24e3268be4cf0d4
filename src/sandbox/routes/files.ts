// Documents (with signed upload and download URLs), data exchange runs (imports) and risk
// assessments with their evidence ZIP.
//
// The documents leave these bodies open; the sandbox's choices:
// - POST /documents {name (required, 1..255), content_type (default from the file extension,
//   else application/octet-stream), size (optional, bytes), description, tags} answers 201 with
//   the document and `upload_url`, a URL on the sandbox that takes a PUT of the raw bytes without
//   authentication (the path token is the credential, as with a signed S3 URL). Until
//   confirm_upload the document is pending_upload; confirm_upload without a PUT first is 400.
// - GET /documents/{id}/download answers {url, expires_at}: a signed URL valid 15 minutes that
//   serves the bytes with their Content-Type and a Content-Disposition attachment filename.
//   Downloading a document that was never uploaded is 400.
// - POST /imports {type (orders|origins|products, required), source (csv|xlsx|api|sftp, default
//   api), document (an uploaded document id), name} starts a run that is "running" and turns
//   "succeeded" statementDelayMs later (its row count is the document's line count).
// - POST /compliance/risk-assessments {identifier (required, unique per company), name,
//   description, commodity, orders, origins, products, documents}; it is "in_progress" and turns
//   "complete" with a risk_level statementDelayMs later. GET /compliance/risk-assessments/{id} is
//   offered too.
// - The evidence ZIP holds <identifier>/README.txt, assessments/<run>.json,
//   geolocation/origins.geojson plus one GeoJSON per origin, documents/<files>,
//   supply-chain/orders.csv and products.json. Entries carry a fixed date so the bytes are
//   reproducible.
import { randomBytes } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import * as z from 'zod';
import {
  BASE_DATE, COMMODITIES, DOCUMENT_STATUSES, IMPORT_SOURCES, IMPORT_STATUSES, IMPORT_TYPES, RISK_OUTCOMES, RISK_STATUSES,
  isoDateTime, nowIso, sha256Hex, type DocumentRec, type ImportRun, type RiskAssessment, type Store,
} from '../data.js';
import type { ListSpec } from '../filters.js';
import { badRequest, created, fieldError, intParam, ok, type Ctx, type Router } from '../router.js';
import { id, idList, invalidPk, nonEmptyStrings, parseBody, str } from '../validate.js';
import { productObject } from './catalog.js';
import { isOwned, listReply, myCompany, owned, ownedRows, refErrors, timestampFields } from './common.js';
import { visibleTo } from './orders.js';

const DOWNLOAD_TTL_MS = 15 * 60_000;

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf', csv: 'text/csv', json: 'application/json', geojson: 'application/geo+json', txt: 'text/plain',
  zip: 'application/zip', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', xml: 'application/xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

function documentObject(ctx: Ctx, d: DocumentRec) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    content_type: d.content_type,
    size: d.size,
    status: d.status,
    sha256: d.sha256,
    tags: d.tags,
    upload_url: d.status === 'pending_upload' ? `${ctx.origin}/_uploads/${d.upload_token}` : null,
    created_by: d.created_by,
    created_at: d.created_at,
    updated_at: d.updated_at,
    uploaded_at: d.uploaded_at,
  };
}

const documentSpec: ListSpec<DocumentRec> = {
  fields: {
    id: { type: 'int', get: (d) => d.id },
    name: { type: 'string', get: (d) => d.name },
    content_type: { type: 'string', get: (d) => d.content_type },
    status: { type: 'enum', values: DOCUMENT_STATUSES, get: (d) => d.status },
    size: { type: 'int', get: (d) => d.size },
    tags__name: { type: 'string', get: (d) => d.tags },
    ...timestampFields<DocumentRec>(),
  },
  search: (d) => [d.name, d.description],
  ordering: { id: (d) => d.id, name: (d) => d.name, size: (d) => d.size, created_at: (d) => d.created_at, updated_at: (d) => d.updated_at },
  defaultOrdering: ['-created_at', '-id'],
};

const documentBody = z.object({
  name: str(),
  content_type: z.string().trim().min(3).max(255).regex(/^[\w.+-]+\/[\w.+-]+(; ?[\w.+-]+=[\w.+-]+)*$/, { error: 'Enter a valid MIME type.' }).optional(),
  size: z.number().int().min(0).max(100 * 1024 * 1024).optional(),
  description: z.string().max(4000).nullable().optional(),
  tags: nonEmptyStrings().optional(),
});

function createDocument(ctx: Ctx) {
  const b = parseBody(ctx, documentBody);
  const ext = b.name.split('.').pop()?.toLowerCase() ?? '';
  const docId = ctx.store.nextId('document');
  const now = nowIso();
  const d: DocumentRec = {
    id: docId, company_id: myCompany(ctx), name: b.name, description: b.description ?? null,
    content_type: b.content_type ?? CONTENT_TYPES[ext] ?? 'application/octet-stream', size: b.size ?? null,
    status: 'pending_upload', sha256: null, tags: b.tags ?? [], staged: null, file: null,
    upload_token: randomBytes(18).toString('base64url'), created_by: ctx.auth.user.id,
    created_at: now, updated_at: now, uploaded_at: null, deleted_at: null,
  };
  ctx.store.documents.set(docId, d);
  return created(documentObject(ctx, d));
}

function confirmUpload(ctx: Ctx) {
  const d = owned(ctx, ctx.store.documents, intParam(ctx));
  if (d.staged) {
    d.file = d.staged;
    d.staged = null;
    d.size = d.file.length;
    d.sha256 = sha256Hex(d.file);
    d.status = 'uploaded';
    d.uploaded_at = d.updated_at = nowIso();
  } else if (!d.file) {
    throw badRequest('No file has been uploaded to the upload URL of this document.');
  }
  return ok(documentObject(ctx, d));
}

function downloadUrl(ctx: Ctx) {
  const d = owned(ctx, ctx.store.documents, intParam(ctx));
  if (!d.file) throw badRequest('This document has no uploaded file yet.');
  const token = randomBytes(18).toString('base64url');
  const expires = Date.now() + DOWNLOAD_TTL_MS;
  for (const [t, g] of ctx.store.downloads) if (g.expires <= Date.now()) ctx.store.downloads.delete(t);
  ctx.store.downloads.set(token, { documentId: d.id, expires });
  return ok({ url: `${ctx.origin}/_downloads/${token}`, expires_at: isoDateTime(expires) });
}

// --- imports --------------------------------------------------------------------------------

const importObject = (r: ImportRun) => ({
  id: r.id,
  name: r.name,
  type: r.type,
  source: r.source,
  document: r.document,
  status: r.status,
  stats: r.stats,
  errors: r.errors,
  created_by: r.created_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
  started_at: r.started_at,
  finished_at: r.finished_at,
});

const importSpec: ListSpec<ImportRun> = {
  fields: {
    id: { type: 'int', get: (r) => r.id },
    name: { type: 'string', get: (r) => r.name },
    type: { type: 'enum', values: IMPORT_TYPES, get: (r) => r.type },
    source: { type: 'enum', values: IMPORT_SOURCES, get: (r) => r.source },
    status: { type: 'enum', values: IMPORT_STATUSES, get: (r) => r.status },
    document: { type: 'int', get: (r) => r.document },
    ...timestampFields<ImportRun>(),
  },
  search: (r) => [r.name],
  ordering: { id: (r) => r.id, created_at: (r) => r.created_at, status: (r) => r.status, type: (r) => r.type },
  defaultOrdering: ['-created_at', '-id'],
};

const importBody = z.object({
  type: z.enum(IMPORT_TYPES),
  source: z.enum(IMPORT_SOURCES).optional(),
  document: id().nullable().optional(),
  name: z.string().trim().max(255).optional(),
});

function createImport(ctx: Ctx) {
  const b = parseBody(ctx, importBody);
  let rows = 0;
  if (b.document != null) {
    if (!isOwned(ctx, ctx.store.documents, b.document)) throw fieldError('document', invalidPk(b.document));
    const d = ctx.store.documents.get(b.document)!;
    if (!d.file) throw fieldError('document', 'The document has no uploaded file.');
    rows = Math.max(0, d.file.toString('utf8').split(/\r?\n/).filter(Boolean).length - 1);
  }
  const runId = ctx.store.nextId('import');
  const now = nowIso();
  const run: ImportRun = {
    id: runId, company_id: myCompany(ctx), name: b.name ?? `${b.type} import ${now.slice(0, 10)}`, type: b.type,
    source: b.source ?? 'api', document: b.document ?? null, status: 'running', stats: { rows, created: 0, updated: 0, failed: 0 },
    errors: [], created_by: ctx.auth.user.id, created_at: now, updated_at: now, started_at: now, finished_at: null,
    finishes_at: Date.now() + ctx.options.statementDelayMs,
  };
  ctx.store.imports.set(runId, run);
  return created(importObject(run));
}

// --- risk assessments -----------------------------------------------------------------------

const riskObject = (r: RiskAssessment) => ({
  id: r.id,
  identifier: r.identifier,
  name: r.name,
  description: r.description,
  commodity: r.commodity,
  status: r.status,
  risk_level: r.risk_level,
  assessment_run_id: r.assessment_run_id,
  orders: r.orders,
  origins: r.origins,
  products: r.products,
  documents: r.documents,
  created_by: r.created_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
  completed_at: r.completed_at,
});

const riskSpec: ListSpec<RiskAssessment> = {
  fields: {
    id: { type: 'int', get: (r) => r.id },
    identifier: { type: 'string', get: (r) => r.identifier },
    name: { type: 'string', get: (r) => r.name },
    status: { type: 'enum', values: RISK_STATUSES, get: (r) => r.status },
    risk_level: { type: 'enum', values: RISK_OUTCOMES, get: (r) => r.risk_level },
    commodity: { type: 'enum', values: COMMODITIES, get: (r) => r.commodity },
    ...timestampFields<RiskAssessment>(),
  },
  search: (r) => [r.identifier, r.name],
  ordering: { id: (r) => r.id, identifier: (r) => r.identifier, status: (r) => r.status, created_at: (r) => r.created_at },
  defaultOrdering: ['-created_at', '-id'],
};

const riskBody = z.object({
  identifier: str(),
  name: z.string().trim().max(255).optional(),
  description: z.string().max(4000).nullable().optional(),
  commodity: z.enum(COMMODITIES).nullable().optional(),
  orders: idList().optional(),
  origins: idList().optional(),
  products: idList().optional(),
  documents: idList().optional(),
});

function createRisk(ctx: Ctx) {
  const b = parseBody(ctx, riskBody);
  const me = myCompany(ctx);
  const errors = refErrors({
    orders: [b.orders, (x) => visibleTo(ctx.store.orders.get(x), me)],
    origins: [b.origins, (x) => isOwned(ctx, ctx.store.origins, x)],
    products: [b.products, (x) => isOwned(ctx, ctx.store.products, x)],
    documents: [b.documents, (x) => isOwned(ctx, ctx.store.documents, x)],
  });
  for (const r of ctx.store.risks.values())
    if (r.company_id === me && r.identifier === b.identifier) errors.identifier = ['risk assessment with this identifier already exists.'];
  if (Object.keys(errors).length) throw badRequest(errors);
  const riskId = ctx.store.nextId('risk');
  const now = nowIso();
  const r: RiskAssessment = {
    id: riskId, company_id: me, identifier: b.identifier, name: b.name ?? b.identifier, description: b.description ?? null,
    commodity: b.commodity ?? null, status: 'in_progress', risk_level: null, assessment_run_id: crypto.randomUUID(),
    orders: b.orders ?? [], origins: b.origins ?? [], products: b.products ?? [], documents: b.documents ?? [],
    created_by: ctx.auth.user.id, created_at: now, updated_at: now, completed_at: null,
    finishes_at: Date.now() + ctx.options.statementDelayMs,
  };
  ctx.store.risks.set(riskId, r);
  return created(riskObject(r));
}

const safeName = (s: string) => s.replace(/[^\w.\- ]+/g, '_').replace(/^\.+/, '_').slice(0, 120) || 'file';

/** The evidence package: one folder per kind of evidence under the assessment identifier. */
function evidenceZip(store: Store, r: RiskAssessment): Buffer {
  const root = safeName(r.identifier);
  const mtime = new Date(BASE_DATE);
  const files: Zippable = {};
  const put = (path: string, data: string | Buffer) => {
    files[`${root}/${path}`] = [typeof data === 'string' ? Buffer.from(data) : new Uint8Array(data), { mtime }];
  };
  const origins = r.origins.map((o) => store.origins.get(o)).filter((o) => !!o);
  const products = r.products.map((p) => store.products.get(p)).filter((p) => !!p);
  const orders = r.orders.map((o) => store.orders.get(o)).filter((o) => !!o);
  const docs = r.documents.map((d) => store.documents.get(d)).filter((d) => !!d?.file);
  put(
    'README.txt',
    [
      `Evidence package for risk assessment ${r.identifier}`,
      `Name: ${r.name}`,
      `Status: ${r.status}${r.risk_level ? `, risk level ${r.risk_level}` : ''}`,
      `Assessment run: ${r.assessment_run_id}`,
      '',
      'assessments/   assessment results',
      'geolocation/   plots of land as GeoJSON',
      'documents/     supporting documents',
      'supply-chain/  orders and products in scope',
      '',
    ].join('\n'),
  );
  put(
    `assessments/${r.assessment_run_id}.json`,
    JSON.stringify({ identifier: r.identifier, status: r.status, risk_level: r.risk_level, commodity: r.commodity, criteria: ['deforestation_free', 'legality', 'country_benchmark'], completed_at: r.completed_at }, null, 2),
  );
  const feature = (o: (typeof origins)[number]) => ({ type: 'Feature', properties: { id: o.id, name: o.name, country_code: o.country_code, external_id: o.external_id }, geometry: o.location });
  put('geolocation/origins.geojson', JSON.stringify({ type: 'FeatureCollection', features: origins.map(feature) }, null, 2));
  for (const o of origins) put(`geolocation/${safeName(o.external_id ?? `origin-${o.id}`)}.geojson`, JSON.stringify(feature(o), null, 2));
  for (const d of docs) put(`documents/${d!.id}-${safeName(d!.name)}`, d!.file!);
  put(
    'supply-chain/orders.csv',
    ['id,external_id,type,order_created_at,buyer_company_id,seller_company_id,assessment_status', ...orders.map((o) => [o.id, o.external_id, o.type, o.order_created_at, o.buyer_company_id ?? '', o.seller_company_id ?? '', o.assessment_status].join(','))].join('\n') + '\n',
  );
  put('supply-chain/products.json', JSON.stringify(products.map((p) => productObject(p)), null, 2));
  put('geolocation/README.txt', `${origins.length} plot(s); coordinates are WGS 84 longitude, latitude.\n`);
  return Buffer.from(zipSync(files, { level: 6 }));
}

function settleRisk(store: Store, r: RiskAssessment, now = Date.now()): RiskAssessment {
  if (r.finishes_at !== undefined && now >= r.finishes_at) {
    const failing = r.origins.some((o) => store.origins.get(o)?.assessment_status === 'failing');
    r.status = 'complete';
    r.risk_level = failing ? 'high' : r.origins.length ? 'low' : 'negligible';
    r.completed_at = r.updated_at = isoDateTime(r.finishes_at);
    delete r.finishes_at;
  }
  return r;
}

export function registerFiles(r: Router): void {
  r.get('/documents', (ctx) => listReply(ctx, ownedRows(ctx, ctx.store.documents), documentSpec, (d) => documentObject(ctx, d)));
  r.post('/documents', createDocument);
  r.get('/documents/:id', (ctx) => ok(documentObject(ctx, owned(ctx, ctx.store.documents, intParam(ctx)))));
  r.post('/documents/:id/confirm_upload', confirmUpload);
  r.get('/documents/:id/download', downloadUrl);

  r.get('/imports', (ctx) => listReply(ctx, [...ownedRows(ctx, ctx.store.imports)].map((x) => ctx.store.settleImport(x)), importSpec, importObject));
  r.post('/imports', createImport);
  r.get('/imports/:id', (ctx) => ok(importObject(ctx.store.settleImport(owned(ctx, ctx.store.imports, intParam(ctx))))));

  const risk = '/compliance/risk-assessments';
  r.get(risk, (ctx) => listReply(ctx, [...ownedRows(ctx, ctx.store.risks)].map((x) => settleRisk(ctx.store, x)), riskSpec, riskObject));
  r.post(risk, createRisk);
  r.get(`${risk}/:id`, (ctx) => ok(riskObject(settleRisk(ctx.store, owned(ctx, ctx.store.risks, intParam(ctx))))));
  r.post(`${risk}/:id/evidence-downloads`, (ctx) => {
    const ra = settleRisk(ctx.store, owned(ctx, ctx.store.risks, intParam(ctx)));
    const ascii = safeName(ra.identifier).replace(/[^\x20-\x7e]/g, '_');
    return {
      status: 200,
      raw: evidenceZip(ctx.store, ra),
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${ascii}.zip"; filename*=UTF-8''${encodeURIComponent(ra.identifier)}.zip`,
      },
    };
  });
}

export interface FileReply {
  status: number;
  headers: Record<string, string>;
  payload: Buffer;
}

const jsonReply = (status: number, detail: string): FileReply => ({
  status,
  headers: { 'Content-Type': 'application/json' },
  payload: Buffer.from(JSON.stringify({ detail })),
});

/** The signed URLs handed out above: PUT /_uploads/<token>, GET /_downloads/<token>. */
export function fileRoute(store: Store, method: string, pathname: string, raw: Buffer): FileReply {
  const m = /^\/_(uploads|downloads)\/([\w-]+)\/?$/.exec(pathname);
  if (!m) return jsonReply(404, 'Not found.');
  const [, kind, token] = m;
  if (kind === 'uploads') {
    if (method !== 'PUT') return { ...jsonReply(405, `Method "${method}" not allowed.`), headers: { 'Content-Type': 'application/json', Allow: 'PUT' } };
    let doc: DocumentRec | undefined;
    for (const d of store.documents.values()) if (d.upload_token === token && !d.deleted_at) doc = d;
    if (!doc || doc.status !== 'pending_upload') return jsonReply(403, 'This upload URL is invalid or was already used.');
    doc.staged = raw;
    return { status: 200, headers: { ETag: `"${sha256Hex(raw).slice(0, 32)}"` }, payload: Buffer.alloc(0) };
  }
  if (method !== 'GET') return { ...jsonReply(405, `Method "${method}" not allowed.`), headers: { 'Content-Type': 'application/json', Allow: 'GET' } };
  const grant = store.downloads.get(token!);
  const doc = grant && Date.now() < grant.expires ? store.documents.get(grant.documentId) : undefined;
  if (!doc?.file || doc.deleted_at) return jsonReply(403, 'This download URL is invalid or has expired.');
  const ascii = doc.name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, "'");
  return {
    status: 200,
    headers: {
      'Content-Type': doc.content_type,
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(doc.name)}`,
    },
    payload: doc.file,
  };
}

