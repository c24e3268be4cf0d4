// Products, origins and value chains: the company's own master data.
//
// The API documents leave the product and value chain request bodies and filters open; the
// sandbox's choices (also listed in the sandbox section of the README report):
//   products     body: name (required), sku, description, scientific_name, common_name, hs_code,
//                external_id, type (raw_material|intermediate|finished_good|packaging, default
//                raw_material), commodity (enum or null), composition (default simple), metadata,
//                tags, excluded_propagation_identifiers. sku is unique per company (generated when
//                absent).
//                filters: id, sku, name, description, external_id, hs_code, common_name,
//                scientific_name (string lookups), type, commodity, composition, assessment_status
//                (enums, commodity__isnull), tags__name, created_at, updated_at;
//                search: name, sku, external_id, hs_code, common_name, scientific_name;
//                ordering: id, name, sku, commodity, type, hs_code, assessment_status, created_at, updated_at.
//   value chains body: company_name (required), type (supplier|customer|processor|trader, default
//                supplier), status (invited|active|declined|inactive, default invited), description,
//                external_id, contact_name, country_code, permission_granted, is_self_managed,
//                reciprocal_company_id, ownership_information, metadata, tags.
//                filters: id, company_name, description, external_id, contact_name, type, status,
//                country_code, permission_granted, is_self_managed, reciprocal_company_id,
//                assessment_status, tags__name, created_at, updated_at;
//                search: company_name, description, external_id, contact_name;
//                ordering: id, company_name, type, status, country_code, created_at, updated_at.
//   origins      location (the API says "any"): a GeoJSON Point, Polygon or MultiPolygon, or null
//                (geometry.ts); country_code: an ISO 3166-1 alpha-2 code.
import * as z from 'zod';
import {
  ASSESSMENT_STATUSES, COMMODITIES, COMPOSITIONS, VALUE_CHAIN_STATUSES, VALUE_CHAIN_TYPES,
  nowIso, type Origin, type Product, type Statement, type ValueChain,
} from '../data.js';
import { withLookups, type ListSpec } from '../filters.js';
import { PRODUCT_TYPES } from '../reference.js';
import { badRequest, created, intParam, noContent, ok, type Ctx, type Router } from '../router.js';
import { bool, id, nonEmptyStrings, parseBody, str } from '../validate.js';
import { countryObject, listReply, myCompany, owned, ownedRows, pulseParams, timestampFields } from './common.js';
import { location } from '../geometry.js';
import { isCountryCode } from '../../geo/country-codes.js';

const embeddedStatement = (s: Statement) => ({
  id: s.id,
  company_id: s.company_id,
  type: s.type,
  name: s.name,
  dds_identifier: s.dds_identifier,
  dds_data: s.dds_data,
  status: s.status,
  pulse_params: `dds:${s.id}`,
  created_at: s.created_at,
  updated_at: s.updated_at,
});

/** Active statements linked to an object, found through the given link list. */
function statementsLinking(ctx: Ctx, field: 'orders' | 'products', id: number) {
  const out: ReturnType<typeof embeddedStatement>[] = [];
  for (const s of ctx.store.statements.values())
    if (!s.deleted_at && s[field].includes(id)) out.push(embeddedStatement(ctx.store.settle(s)));
  return out;
}

export { embeddedStatement };

export function productObject(p: Product | undefined, ctx?: Ctx) {
  if (!p) return null;
  return {
    id: p.id,
    company_id: p.company_id,
    sku: p.sku,
    name: p.name,
    description: p.description,
    scientific_name: p.scientific_name,
    common_name: p.common_name,
    hs_code: p.hs_code,
    external_id: p.external_id,
    type: p.type,
    commodity: p.commodity,
    composition: p.composition,
    metadata: p.metadata,
    assessment_status: p.assessment_status,
    assessment_summary: p.assessment_summary,
    excluded_propagation_identifiers: p.excluded_propagation_identifiers,
    tags: p.tags,
    ...(ctx ? { due_diligence_statements: statementsLinking(ctx, 'products', p.id) } : {}),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

function originObject(o: Origin) {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    country_code: o.country_code,
    country: countryObject(o.country_code),
    location: o.location,
    external_id: o.external_id,
    mapping_external_id: o.mapping_external_id,
    mapping_information: o.mapping_information,
    pulse_params: pulseParams('origin', o.id),
    created_at: o.created_at,
    updated_at: o.updated_at,
    assessment_summary: o.assessment_summary,
    assessment_status: o.assessment_status,
    excluded_propagation_identifiers: o.excluded_propagation_identifiers,
  };
}

export function valueChainObject(v: ValueChain | undefined) {
  if (!v || v.deleted_at) return null;
  return {
    id: v.id,
    company_name: v.company_name,
    description: v.description,
    external_id: v.external_id,
    contact_name: v.contact_name,
    pulse_params: `value_chain:${v.id}`,
    type: v.type,
    status: v.status,
    country_code: v.country_code,
    country: countryObject(v.country_code),
    permission_granted: v.permission_granted,
    is_self_managed: v.is_self_managed,
    reciprocal_company_id: v.reciprocal_company_id,
    ownership_information: v.ownership_information,
    metadata: v.metadata,
    created_at: v.created_at,
    updated_at: v.updated_at,
    assessment_summary: v.assessment_summary,
    assessment_status: v.assessment_status,
    excluded_propagation_identifiers: v.excluded_propagation_identifiers,
    tags: v.tags,
  };
}

// --- products -------------------------------------------------------------------------------

const productBody = z.object({
  name: str(),
  sku: str().optional(),
  description: z.string().max(4000).nullable().optional(),
  scientific_name: z.string().max(255).nullable().optional(),
  common_name: z.string().max(255).nullable().optional(),
  hs_code: z.string().regex(/^\d{4,10}$/, { error: 'Enter a valid HS code (4 to 10 digits).' }).nullable().optional(),
  external_id: z.string().max(255).nullable().optional(),
  type: z.enum(PRODUCT_TYPES).optional(),
  commodity: z.enum(COMMODITIES).nullable().optional(),
  composition: z.enum(COMPOSITIONS).optional(),
  metadata: z.object({ species: z.array(z.object({ common_name: z.string(), scientific_name: z.string() })) }).optional(),
  tags: nonEmptyStrings().optional(),
  excluded_propagation_identifiers: z.unknown().optional(),
});

const productSpec: ListSpec<Product> = {
  fields: {
    id: { type: 'int', get: (p) => p.id },
    sku: { type: 'string', get: (p) => p.sku },
    name: { type: 'string', get: (p) => p.name },
    description: { type: 'string', get: (p) => p.description },
    external_id: { type: 'string', get: (p) => p.external_id },
    hs_code: { type: 'string', get: (p) => p.hs_code },
    common_name: { type: 'string', get: (p) => p.common_name },
    scientific_name: { type: 'string', get: (p) => p.scientific_name },
    type: { type: 'enum', values: PRODUCT_TYPES, get: (p) => p.type },
    commodity: { type: 'enum', values: COMMODITIES, get: (p) => p.commodity },
    composition: { type: 'enum', values: COMPOSITIONS, get: (p) => p.composition },
    assessment_status: { type: 'enum', values: ASSESSMENT_STATUSES, get: (p) => p.assessment_status },
    tags__name: { type: 'string', get: (p) => p.tags },
    ...timestampFields<Product>(),
  },
  search: (p) => [p.name, p.sku, p.external_id, p.hs_code, p.common_name, p.scientific_name],
  ordering: {
    id: (p) => p.id, name: (p) => p.name, sku: (p) => p.sku, commodity: (p) => p.commodity, type: (p) => p.type,
    hs_code: (p) => p.hs_code, assessment_status: (p) => p.assessment_status,
    created_at: (p) => p.created_at, updated_at: (p) => p.updated_at,
  },
  defaultOrdering: ['name'],
};

function assertSkuFree(ctx: Ctx, sku: string, except?: number): void {
  if (ctx.store.productsWithSku(myCompany(ctx), sku).some((p) => !p.deleted_at && p.id !== except))
    throw badRequest({ sku: ['product with this sku already exists.'] });
}

function applyProduct(p: Product, b: Partial<z.output<typeof productBody>>): void {
  if (b.metadata !== undefined) p.metadata = b.metadata;
  const species = p.metadata.species[0];
  Object.assign(p, {
    ...(b.name !== undefined && { name: b.name }),
    ...(b.sku !== undefined && { sku: b.sku }),
    ...(b.description !== undefined && { description: b.description ?? '' }),
    ...(b.scientific_name !== undefined && { scientific_name: b.scientific_name ?? '' }),
    ...(b.common_name !== undefined && { common_name: b.common_name ?? '' }),
    ...(b.hs_code !== undefined && { hs_code: b.hs_code ?? '' }),
    ...(b.external_id !== undefined && { external_id: b.external_id ?? '' }),
    ...(b.type !== undefined && { type: b.type }),
    ...(b.commodity !== undefined && { commodity: b.commodity }),
    ...(b.composition !== undefined && { composition: b.composition }),
    ...(b.tags !== undefined && { tags: b.tags }),
    ...(b.excluded_propagation_identifiers !== undefined && { excluded_propagation_identifiers: b.excluded_propagation_identifiers }),
  });
  if (species && !p.scientific_name) p.scientific_name = species.scientific_name;
  if (species && !p.common_name) p.common_name = species.common_name;
  p.updated_at = nowIso();
}

// --- origins --------------------------------------------------------------------------------

// A country_code the service knows (ISO 3166-1 alpha-2, in any case), as a choice field answers.
const countryCode = z
  .string()
  .trim()
  .min(1)
  .max(2)
  .superRefine((v, ctx) => {
    if (!isCountryCode(v)) ctx.addIssue({ code: 'custom', message: `"${v}" is not a valid choice.` });
  });

const originBody = z.object({
  name: str(),
  description: z.string().nullable().optional(),
  country_code: countryCode,
  location: location().nullable().optional(),
  external_id: z.string().max(255).nullable().optional(),
  excluded_propagation_identifiers: z.unknown().optional(),
});

/** The origin list filters of api/supply-chain.md: no plain id, only id__in and id__exclude_in. */
const ORIGIN_TEXT = ['startswith', 'endswith', 'icontains', 'iendswith', 'istartswith'] as const;
const ORIGIN_FILTERS = [
  ...withLookups('assessment_status', 'in'),
  ...withLookups('country_code', 'in'),
  ...withLookups('created_at', 'gte', 'lte', 'date', 'date__gte', 'date__lte'),
  ...withLookups('updated_at', 'gte', 'lte', 'date', 'date__gte', 'date__lte'),
  ...withLookups('description', ...ORIGIN_TEXT),
  ...withLookups('name', ...ORIGIN_TEXT),
  ...withLookups('external_id', ...ORIGIN_TEXT, 'in'),
  'failing_percentage_gte',
  'passing_percentage_gte',
  'id__in',
  'id__exclude_in',
];

const originSpec: ListSpec<Origin> = {
  fields: {
    id: { type: 'int', get: (o) => o.id },
    name: { type: 'string', get: (o) => o.name },
    description: { type: 'string', get: (o) => o.description },
    external_id: { type: 'string', get: (o) => o.external_id },
    country_code: { type: 'string', get: (o) => o.country_code },
    assessment_status: { type: 'enum', values: ASSESSMENT_STATUSES, get: (o) => o.assessment_status },
    passing_percentage: { type: 'number', min: 0, max: 100, get: (o) => o.assessment_summary?.passing_percentage ?? 0 },
    failing_percentage: { type: 'number', min: 0, max: 100, get: (o) => o.assessment_summary?.failing_percentage ?? 0 },
    ...timestampFields<Origin>(),
  },
  filters: ORIGIN_FILTERS,
  aliases: { passing_percentage_gte: 'passing_percentage__gte', failing_percentage_gte: 'failing_percentage__gte' },
  search: (o) => [o.name, o.description],
  ordering: {
    id: (o) => o.id, name: (o) => o.name, country_code: (o) => o.country_code,
    country__name: (o) => countryObject(o.country_code)?.name ?? o.country_code,
    assessment_status: (o) => o.assessment_status, created_at: (o) => o.created_at, updated_at: (o) => o.updated_at,
  },
  defaultOrdering: ['-created_at'],
};

// --- value chains ---------------------------------------------------------------------------

const ownershipPeriod = z.object({
  valid_from_month: z.string(),
  valid_to_month: z.string(),
  consolidation_approach: z.string(),
  ownership_percentage: z.string(),
});

const valueChainBody = z.object({
  company_name: str(),
  type: z.enum(VALUE_CHAIN_TYPES).optional(),
  status: z.enum(VALUE_CHAIN_STATUSES).optional(),
  description: z.string().max(4000).nullable().optional(),
  external_id: z.string().max(255).nullable().optional(),
  contact_name: z.string().max(255).nullable().optional(),
  country_code: z.string().trim().max(2).nullable().optional(),
  permission_granted: bool().optional(),
  is_self_managed: bool().optional(),
  reciprocal_company_id: id().nullable().optional(),
  ownership_information: z
    .object({ ownership_periods: z.array(ownershipPeriod).optional(), sector_code: z.string().optional(), notes: z.string().optional() })
    .optional(),
  metadata: z.object({ invitation_ids: z.array(z.string()).optional(), requested_by_user_id: id().nullable().optional() }).optional(),
  tags: nonEmptyStrings().optional(),
  excluded_propagation_identifiers: z.unknown().optional(),
});

const valueChainSpec: ListSpec<ValueChain> = {
  fields: {
    id: { type: 'int', get: (v) => v.id },
    company_name: { type: 'string', get: (v) => v.company_name },
    description: { type: 'string', get: (v) => v.description },
    external_id: { type: 'string', get: (v) => v.external_id },
    contact_name: { type: 'string', get: (v) => v.contact_name },
    type: { type: 'enum', values: VALUE_CHAIN_TYPES, get: (v) => v.type },
    status: { type: 'enum', values: VALUE_CHAIN_STATUSES, get: (v) => v.status },
    country_code: { type: 'string', get: (v) => v.country_code },
    permission_granted: { type: 'bool', get: (v) => v.permission_granted },
    is_self_managed: { type: 'bool', get: (v) => v.is_self_managed },
    reciprocal_company_id: { type: 'int', get: (v) => v.reciprocal_company_id },
    assessment_status: { type: 'enum', values: ASSESSMENT_STATUSES, get: (v) => v.assessment_status },
    tags__name: { type: 'string', get: (v) => v.tags },
    ...timestampFields<ValueChain>(),
  },
  search: (v) => [v.company_name, v.description, v.external_id, v.contact_name],
  ordering: {
    id: (v) => v.id, company_name: (v) => v.company_name, type: (v) => v.type, status: (v) => v.status,
    country_code: (v) => v.country_code, created_at: (v) => v.created_at, updated_at: (v) => v.updated_at,
  },
  defaultOrdering: ['company_name'],
};

function applyValueChain(v: ValueChain, b: Partial<z.output<typeof valueChainBody>>): void {
  const { ownership_information, metadata, description, external_id, contact_name, country_code, ...rest } = b;
  Object.assign(v, Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined)));
  if (description !== undefined) v.description = description ?? '';
  if (external_id !== undefined) v.external_id = external_id ?? '';
  if (contact_name !== undefined) v.contact_name = contact_name ?? '';
  if (country_code !== undefined) v.country_code = (country_code ?? '').toUpperCase();
  if (ownership_information) v.ownership_information = { ...v.ownership_information, ...ownership_information } as ValueChain['ownership_information'];
  if (metadata) v.metadata = { ...v.metadata, ...metadata } as ValueChain['metadata'];
  v.updated_at = nowIso();
}

export function registerCatalog(r: Router): void {
  r.get('/products', (ctx) => listReply(ctx, ownedRows(ctx, ctx.store.products), productSpec, (p) => productObject(p, ctx)));
  r.post('/products', (ctx) => {
    const b = parseBody(ctx, productBody);
    const id = ctx.store.nextId('product');
    const sku = b.sku ?? `SKU-${myCompany(ctx)}-${String(id).padStart(5, '0')}`;
    assertSkuFree(ctx, sku);
    const now = nowIso();
    const p: Product = {
      id, company_id: myCompany(ctx), sku, name: b.name, description: '', scientific_name: '', common_name: '', hs_code: '',
      external_id: '', type: 'raw_material', commodity: null, composition: 'simple', metadata: { species: [] },
      assessment_status: 'pending', assessment_summary: null, excluded_propagation_identifiers: null, tags: [],
      created_at: now, updated_at: now, deleted_at: null,
    };
    applyProduct(p, b);
    ctx.store.products.set(id, p);
    ctx.store.indexProduct(p);
    return created(productObject(p, ctx));
  });
  r.get('/products/:id', (ctx) => ok(productObject(owned(ctx, ctx.store.products, intParam(ctx)), ctx)));
  r.patch('/products/:id', (ctx) => {
    const p = owned(ctx, ctx.store.products, intParam(ctx));
    const b = parseBody(ctx, productBody.partial());
    if (b.sku !== undefined) assertSkuFree(ctx, b.sku, p.id);
    applyProduct(p, b);
    ctx.store.indexProduct(p);
    return ok(productObject(p, ctx));
  });
  r.delete('/products/:id', (ctx) => {
    owned(ctx, ctx.store.products, intParam(ctx)).deleted_at = nowIso();
    return noContent();
  });

  r.get('/origins', (ctx) => listReply(ctx, ownedRows(ctx, ctx.store.origins), originSpec, originObject));
  r.post('/origins', (ctx) => {
    const b = parseBody(ctx, originBody);
    const id = ctx.store.nextId('origin');
    const now = nowIso();
    const o: Origin = {
      id, company_id: myCompany(ctx), name: b.name, description: b.description ?? null, country_code: b.country_code.toUpperCase(),
      location: b.location ?? null, external_id: b.external_id ?? null, mapping_external_id: '', mapping_information: null,
      assessment_status: 'pending', assessment_summary: null, excluded_propagation_identifiers: b.excluded_propagation_identifiers ?? null,
      created_at: now, updated_at: now, deleted_at: null,
    };
    ctx.store.origins.set(id, o);
    return created(originObject(o));
  });
  r.get('/origins/:id', (ctx) => ok(originObject(owned(ctx, ctx.store.origins, intParam(ctx)))));
  r.patch('/origins/:id', (ctx) => {
    const o = owned(ctx, ctx.store.origins, intParam(ctx));
    const b = parseBody(ctx, originBody.partial());
    if (b.name !== undefined) o.name = b.name;
    if (b.description !== undefined) o.description = b.description;
    if (b.country_code !== undefined) o.country_code = b.country_code.toUpperCase();
    if (b.location !== undefined) o.location = b.location;
    if (b.external_id !== undefined) o.external_id = b.external_id;
    if (b.excluded_propagation_identifiers !== undefined) o.excluded_propagation_identifiers = b.excluded_propagation_identifiers;
    o.updated_at = nowIso();
    return ok(originObject(o));
  });
  r.delete('/origins/:id', (ctx) => {
    owned(ctx, ctx.store.origins, intParam(ctx)).deleted_at = nowIso();
    return noContent();
  });

  r.get('/value-chains', (ctx) => listReply(ctx, ownedRows(ctx, ctx.store.valueChains), valueChainSpec, valueChainObject));
  r.post('/value-chains', (ctx) => {
    const b = parseBody(ctx, valueChainBody);
    const id = ctx.store.nextId('value_chain');
    const now = nowIso();
    const v: ValueChain = {
      id, company_id: myCompany(ctx), company_name: b.company_name, description: '', external_id: '', contact_name: '',
      type: 'supplier', status: 'invited', country_code: '', permission_granted: false, is_self_managed: false,
      reciprocal_company_id: null, ownership_information: { ownership_periods: [], sector_code: '', notes: '' },
      metadata: { invitation_ids: [], requested_by_user_id: ctx.auth.user.id }, assessment_status: 'pending',
      assessment_summary: null, excluded_propagation_identifiers: null, tags: [], created_at: now, updated_at: now, deleted_at: null,
    };
    applyValueChain(v, b);
    ctx.store.valueChains.set(id, v);
    return created(valueChainObject(v));
  });
  r.get('/value-chains/:id', (ctx) => ok(valueChainObject(owned(ctx, ctx.store.valueChains, intParam(ctx)))));
  r.patch('/value-chains/:id', (ctx) => {
    const v = owned(ctx, ctx.store.valueChains, intParam(ctx));
    applyValueChain(v, parseBody(ctx, valueChainBody.partial()));
    return ok(valueChainObject(v));
  });
  r.delete('/value-chains/:id', (ctx) => {
    owned(ctx, ctx.store.valueChains, intParam(ctx)).deleted_at = nowIso();
    return noContent();
  });
}
