// The sandbox's in-memory database and its deterministic demo data. Every random choice comes
// from one PRNG seeded by SandboxOptions.seed and every date from BASE_DATE, so two sandboxes
// with the same options hold byte-identical data (only objects created at runtime use the clock).
import { createHash } from 'node:crypto';
import { CATALOGUE, COMMODITIES, COUNTRIES, FIRST_NAMES, JOB_TITLES, LAST_NAMES, PLACES, type Commodity, type Country, type ProductType } from './reference.js';

export { COMMODITIES };
export const COMPOSITIONS = ['simple', 'composite'] as const;
export const ORDER_TYPES = ['order', 'produced_batch', 'manufactured_batch', 'product_chain'] as const;
type OrderType = (typeof ORDER_TYPES)[number];
export const BUYER_STATUSES = ['draft', 'waiting_for_supplier', 'ready_for_review', 'statement_ready', 'completed', 'closed'] as const;
export const SELLER_STATUSES = ['draft', 'untraced', 'pending', 'passing', 'failing', 'completed', 'closed'] as const;
export const ASSESSMENT_STATUSES = ['pending', 'in_progress', 'passing', 'failing', 'mitigated'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];
export const DDS_TYPES = ['EUDR', 'EUTR', 'PPWR'] as const;
export const DDS_STATUSES = ['draft', 'in_progress', 'complete', 'failed'] as const;
export type DdsStatus = (typeof DDS_STATUSES)[number];
export const WORKSPACE_TYPES = ['active', 'demo', 'inactive', 'stakeholder', 'test', 'trial'] as const;
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
/** Value chain types and statuses are not published by the service; these are the sandbox's. */
export const VALUE_CHAIN_TYPES = ['supplier', 'customer', 'processor', 'trader'] as const;
export const VALUE_CHAIN_STATUSES = ['invited', 'active', 'declined', 'inactive'] as const;
export const DOCUMENT_STATUSES = ['pending_upload', 'uploaded'] as const;
export const IMPORT_TYPES = ['orders', 'origins', 'products'] as const;
export const IMPORT_SOURCES = ['csv', 'xlsx', 'api', 'sftp'] as const;
export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'partially_succeeded', 'failed'] as const;
export const RISK_STATUSES = ['pending', 'in_progress', 'complete', 'failed'] as const;
export const RISK_OUTCOMES = ['negligible', 'low', 'medium', 'high'] as const;

/** Demo data is dated relative to this instant, never to the clock. */
export const BASE_DATE = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

export type OrderKind = 'purchase' | 'sale' | 'batch';

export interface Company {
  id: number;
  name: string;
  slug: string;
  type: (typeof WORKSPACE_TYPES)[number];
  city: string;
  country: string;
  default_currency: string;
  default_locale: string;
  data_room_consumer_id: string;
  nr_of_employees: number;
  nr_of_locations: number;
  is_mfa_enabled: boolean;
  /** Workspaces have users and data; other companies only appear as trading partners. */
  tenant: boolean;
  created_at: string;
  updated_at: string;
}

export interface AuthGroup {
  id: number;
  name: 'OWNER' | 'ADMIN' | 'MEMBER';
  permissions: string[];
}

export interface User {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  job_title: string;
  identity_uid: string;
  is_staff: boolean;
  is_mfa_enrolled: boolean;
  /** The workspace the user's token currently acts in (switch workspace changes it). */
  active_company_id: number;
}

export interface Membership {
  id: number;
  user_id: number;
  company_id: number;
  auth_group_id: number;
  data_room_consumer_id: string;
  /** The user's configuration in this workspace (GET/PATCH /accounts/user-config). */
  config: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface AssessmentSummary {
  passing_percentage: number;
  failing_percentage: number;
  total: number;
  passing: number;
  failing: number;
  pending: number;
}

export interface Product {
  id: number;
  company_id: number;
  sku: string;
  name: string;
  description: string;
  scientific_name: string;
  common_name: string;
  hs_code: string;
  external_id: string;
  type: ProductType;
  commodity: Commodity | null;
  composition: 'simple' | 'composite';
  metadata: { species: Array<{ common_name: string; scientific_name: string }> };
  assessment_status: AssessmentStatus;
  assessment_summary: AssessmentSummary | null;
  excluded_propagation_identifiers: unknown;
  tags: string[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface Origin {
  id: number;
  company_id: number;
  name: string;
  description: string | null;
  country_code: string;
  location: unknown;
  external_id: string | null;
  mapping_external_id: string;
  mapping_information: unknown;
  assessment_status: AssessmentStatus;
  assessment_summary: AssessmentSummary | null;
  excluded_propagation_identifiers: unknown;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ValueChain {
  id: number;
  company_id: number;
  company_name: string;
  description: string;
  external_id: string;
  contact_name: string;
  type: (typeof VALUE_CHAIN_TYPES)[number];
  status: (typeof VALUE_CHAIN_STATUSES)[number];
  country_code: string;
  permission_granted: boolean;
  is_self_managed: boolean;
  reciprocal_company_id: number | null;
  ownership_information: {
    ownership_periods: Array<{ valid_from_month: string; valid_to_month: string; consolidation_approach: string; ownership_percentage: string }>;
    sector_code: string;
    notes: string;
  };
  metadata: { invitation_ids: string[]; requested_by_user_id: number | null };
  assessment_status: AssessmentStatus;
  assessment_summary: AssessmentSummary | null;
  excluded_propagation_identifiers: unknown;
  tags: string[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

interface ItemMetadata {
  percentage_estimation_or_deviation?: string;
  supplementary_unit?: string;
  supplementary_unit_qualifier?: string;
}

export interface OrderItem {
  id: number;
  order: number;
  buyer_product: number | null;
  seller_product: number | null;
  volume: number;
  unit: string;
  line_number: number;
  external_id: string;
  metadata: ItemMetadata;
  trace: { traced_orders: number[]; traced_origins: number[] };
  assessment_status: AssessmentStatus;
  excluded_propagation_identifiers: unknown;
  created_at: string;
  updated_at: string;
}

export interface Order {
  id: number;
  company_id: number;
  kind: OrderKind;
  type: OrderType;
  external_id: string;
  buyer_external_id: string | null;
  seller_external_id: string | null;
  order_created_at: string;
  order_arrival_at: string | null;
  buyer_company_status: (typeof BUYER_STATUSES)[number];
  seller_company_status: (typeof SELLER_STATUSES)[number];
  assessment_status: AssessmentStatus;
  value_chain: number | null;
  buyer_company_id: number | null;
  seller_company_id: number | null;
  items: OrderItem[];
  signed_off_at: string | null;
  assessment_summary: AssessmentSummary | null;
  excluded_propagation_identifiers: unknown;
  border_cross_country_code: string | null;
  dds_identifiers: string[];
  tags: string[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

interface StatementMetadata {
  eu_registry_status: string;
  eu_registry_status_observed_at: string | null;
  submitted_at: string | null;
  was_filed: boolean;
  withdrawal?: { requested_at: string; outcome: string };
}

export interface Statement {
  id: number;
  company_id: number;
  type: (typeof DDS_TYPES)[number];
  name: string | null;
  status: DdsStatus;
  dds_identifier: string;
  dds_data: unknown;
  orders: number[];
  products: number[];
  assessment_run_ids: string[];
  metadata: StatementMetadata;
  assessment_status: AssessmentStatus;
  assessment_summary: AssessmentSummary | null;
  excluded_propagation_identifiers: unknown;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** A background registry retrieval or filing that finishes at `at` (epoch ms). */
  pending?: { at: number; status: 'complete' | 'failed'; dds_identifier?: string; dds_data: unknown; registry_status: string };
}

export interface Invitation {
  id: string;
  company_id: number;
  email: string;
  auth_group_id: number;
  invited_by: number;
  /** Stored status; "expired" is derived from expires_at when reading. */
  status: 'pending' | 'accepted' | 'revoked';
  created_at: string;
  expires_at: string;
}

export interface DocumentRec {
  id: number;
  company_id: number;
  name: string;
  description: string | null;
  content_type: string;
  /** Declared at creation, replaced by the real byte count on confirm_upload. */
  size: number | null;
  status: (typeof DOCUMENT_STATUSES)[number];
  sha256: string | null;
  tags: string[];
  /** Bytes received on the signed upload URL, not yet confirmed. */
  staged: Buffer | null;
  file: Buffer | null;
  upload_token: string;
  created_by: number;
  created_at: string;
  updated_at: string;
  uploaded_at: string | null;
  deleted_at: string | null;
}

export interface ImportRun {
  id: number;
  company_id: number;
  name: string;
  type: (typeof IMPORT_TYPES)[number];
  source: (typeof IMPORT_SOURCES)[number];
  document: number | null;
  status: (typeof IMPORT_STATUSES)[number];
  stats: { rows: number; created: number; updated: number; failed: number };
  errors: Array<{ row: number; message: string }>;
  created_by: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Runs created at runtime finish at this epoch ms. */
  finishes_at?: number;
}

export interface RiskAssessment {
  id: number;
  company_id: number;
  identifier: string;
  name: string;
  description: string | null;
  commodity: Commodity | null;
  status: (typeof RISK_STATUSES)[number];
  risk_level: (typeof RISK_OUTCOMES)[number] | null;
  assessment_run_id: string;
  orders: number[];
  origins: number[];
  products: number[];
  documents: number[];
  created_by: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** Assessments created at runtime complete at this epoch ms. */
  finishes_at?: number;
}

/** Mulberry32: tiny, fast and good enough to make demo data look random yet be reproducible. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  uuid(): string {
    const h = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    h[12] = '4';
    h[16] = '89ab'[Math.floor(this.next() * 4)]!;
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
  alnum(n: number): string {
    const A = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
    let s = '';
    for (let i = 0; i < n; i++) s += A[Math.floor(this.next() * A.length)];
    return s;
  }
}

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const isoDateTime = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
export const nowIso = (): string => isoDateTime(Date.now());

export function summarize(statuses: readonly AssessmentStatus[]): AssessmentSummary {
  const total = statuses.length;
  const passing = statuses.filter((s) => s === 'passing' || s === 'mitigated').length;
  const failing = statuses.filter((s) => s === 'failing').length;
  const pct = (n: number) => (total ? Math.round((n / total) * 10000) / 100 : 0);
  return { passing_percentage: pct(passing), failing_percentage: pct(failing), total, passing, failing, pending: total - passing - failing };
}

/**
 * Rows of one table by a key, for the checks a write makes (is this e-mail already invited, this
 * external_id already used): built from the table on first use, so a sandbox that is only read
 * never pays for it, then told of every row added or re-keyed after that. A row whose key changed
 * stays in its old list, so lookups compare each row's current key.
 */
class KeyIndex<T> {
  private byKey: Map<string, T[]> | null = null;

  constructor(
    private readonly rows: () => Iterable<T>,
    private readonly keyOf: (row: T) => string,
  ) {}

  find(key: string): T[] {
    if (!this.byKey) {
      this.byKey = new Map();
      for (const row of this.rows()) this.put(this.byKey, row);
    }
    return (this.byKey.get(key) ?? []).filter((row) => this.keyOf(row) === key);
  }

  /** A row new in the table, or whose key may have changed. */
  add(row: T): void {
    if (this.byKey) this.put(this.byKey, row);
  }

  private put(byKey: Map<string, T[]>, row: T): void {
    const key = this.keyOf(row);
    const list = byKey.get(key);
    if (!list) byKey.set(key, [row]);
    else if (!list.includes(row)) list.push(row);
  }
}

export class Store {
  companies = new Map<number, Company>();
  authGroups = new Map<number, AuthGroup>();
  users = new Map<number, User>();
  memberships = new Map<number, Membership>();
  tokens = new Map<string, number>();
  products = new Map<number, Product>();
  origins = new Map<number, Origin>();
  valueChains = new Map<number, ValueChain>();
  orders = new Map<number, Order>();
  statements = new Map<number, Statement>();
  invitations = new Map<string, Invitation>();
  documents = new Map<number, DocumentRec>();
  imports = new Map<number, ImportRun>();
  risks = new Map<number, RiskAssessment>();
  countries: Country[] = COUNTRIES;
  /** Signed download URL tokens. */
  downloads = new Map<string, { documentId: number; expires: number }>();
  /** Bumped by every request that may write (any method but GET), so cached answers know they are stale. */
  version = 0;
  private seq = new Map<string, number>();

  nextId(kind: string): number {
    const n = (this.seq.get(kind) ?? 0) + 1;
    this.seq.set(kind, n);
    return n;
  }

  /** Lets generated ids continue after the demo data's. */
  bumpId(kind: string, atLeast: number): void {
    if ((this.seq.get(kind) ?? 0) < atLeast) this.seq.set(kind, atLeast);
  }

  /**
   * Order items by id, built on first use: only the deprecated order item endpoints look an item
   * up alone, and 200,000 map entries would cost a sandbox of 100,000 orders a good part of its start.
   */
  private itemIndex: Map<number, OrderItem> | null = null;

  item(id: number): OrderItem | undefined {
    if (!this.itemIndex) {
      this.itemIndex = new Map();
      for (const o of this.orders.values()) for (const it of o.items) this.itemIndex.set(it.id, it);
    }
    return this.itemIndex.get(id);
  }

  /** Gives an order a new item list, keeping the item index (once built) in step. */
  setItems(order: Order, items: OrderItem[]): void {
    if (this.itemIndex) {
      for (const it of order.items) this.itemIndex.delete(it.id);
      for (const it of items) this.itemIndex.set(it.id, it);
    }
    order.items = items;
  }

  private readonly invitationEmails = new KeyIndex<Invitation>(() => this.invitations.values(), (i) => `${i.company_id}|${i.email.toLowerCase()}`);
  private readonly orderExternalIds = new KeyIndex<Order>(() => this.orders.values(), (o) => `${o.company_id}|${o.kind}|${o.external_id}`);
  private readonly productSkus = new KeyIndex<Product>(() => this.products.values(), (p) => `${p.company_id}|${p.sku}`);

  membershipOf(userId: number, companyId: number): Membership | undefined {
    for (const m of this.memberships.values()) if (m.user_id === userId && m.company_id === companyId) return m;
    return undefined;
  }

  /** A company's invitations to this e-mail (in any case), whatever their status. */
  invitationsTo(companyId: number, email: string): Invitation[] {
    return this.invitationEmails.find(`${companyId}|${email.toLowerCase()}`);
  }

  addInvitation(inv: Invitation): void {
    this.invitations.set(inv.id, inv);
    this.invitationEmails.add(inv);
  }

  /** The orders a company recorded as this kind under this external_id, deleted ones included. */
  ordersWithExternalId(companyId: number, kind: OrderKind, externalId: string): Order[] {
    return this.orderExternalIds.find(`${companyId}|${kind}|${externalId}`);
  }

  /** An order added, or whose external_id may have changed. */
  indexOrder(o: Order): void {
    this.orderExternalIds.add(o);
  }

  /** A company's products with this sku, deleted ones included. */
  productsWithSku(companyId: number, sku: string): Product[] {
    return this.productSkus.find(`${companyId}|${sku}`);
  }

  /** A product added, or whose sku may have changed. */
  indexProduct(p: Product): void {
    this.productSkus.add(p);
  }

  membersOf(companyId: number): Membership[] {
    return [...this.memberships.values()].filter((m) => m.company_id === companyId);
  }

  /** Statements whose background work has finished by now take their final state. */
  settle(s: Statement, now = Date.now()): Statement {
    const p = s.pending;
    if (p && now >= p.at) {
      s.status = p.status;
      s.dds_data = p.dds_data;
      if (p.dds_identifier) s.dds_identifier = p.dds_identifier;
      s.metadata = { ...s.metadata, eu_registry_status: p.registry_status, eu_registry_status_observed_at: isoDateTime(p.at) };
      s.updated_at = isoDateTime(p.at);
      delete s.pending;
    }
    return s;
  }

  settleImport(r: ImportRun, now = Date.now()): ImportRun {
    if (r.finishes_at !== undefined && now >= r.finishes_at) {
      r.status = 'succeeded';
      r.finished_at = isoDateTime(r.finishes_at);
      r.updated_at = r.finished_at;
      r.stats = { rows: r.stats.rows, created: r.stats.rows, updated: 0, failed: 0 };
      delete r.finishes_at;
    }
    return r;
  }
}

interface DemoTokenSpec {
  token: string;
  userId: number;
  companyId: number;
}

export const ROLE = { OWNER: 1, ADMIN: 2, MEMBER: 3 } as const;

const ALL_PERMISSIONS = [
  'view_order', 'add_order', 'change_order', 'delete_order',
  'view_product', 'add_product', 'change_product', 'delete_product',
  'view_origin', 'add_origin', 'change_origin', 'delete_origin',
  'view_valuechain', 'add_valuechain', 'change_valuechain', 'delete_valuechain',
  'view_duediligencestatement', 'add_duediligencestatement', 'change_duediligencestatement', 'delete_duediligencestatement',
  'view_document', 'add_document', 'view_dataexchangerun', 'add_dataexchangerun',
  'view_riskassessment', 'add_riskassessment',
  'view_usercompany', 'view_userinvitation', 'add_userinvitation',
];
const ADMIN_ONLY = ['view_user', 'change_usercompany', 'delete_userinvitation', 'change_company'];

const TENANTS: Array<Omit<Company, 'created_at' | 'updated_at' | 'data_room_consumer_id' | 'tenant'>> = [
  { id: 1, name: 'Brussels Cacao Chocolatiers NV', slug: 'brussels-cacao-chocolatiers', type: 'active', city: 'Brussels', country: 'BE', default_currency: 'EUR', default_locale: 'nl-BE', nr_of_employees: 420, nr_of_locations: 3, is_mfa_enabled: false },
  { id: 2, name: 'Hanseatic Commodity Trading GmbH', slug: 'hanseatic-commodity-trading', type: 'active', city: 'Hamburg', country: 'DE', default_currency: 'EUR', default_locale: 'de-DE', nr_of_employees: 85, nr_of_locations: 2, is_mfa_enabled: true },
  { id: 3, name: 'Nordic Timber Imports AB', slug: 'nordic-timber-imports', type: 'trial', city: 'Gothenburg', country: 'SE', default_currency: 'SEK', default_locale: 'sv-SE', nr_of_employees: 37, nr_of_locations: 1, is_mfa_enabled: false },
  { id: 4, name: 'Brussels Cacao Chocolatiers NV (test)', slug: 'brussels-cacao-chocolatiers-test', type: 'test', city: 'Brussels', country: 'BE', default_currency: 'EUR', default_locale: 'nl-BE', nr_of_employees: 420, nr_of_locations: 3, is_mfa_enabled: false },
];

/** Trading partners without a workspace of their own: cooperatives, exporters, customers. */
const PARTNERS: Array<[id: number, name: string, city: string, country: string, role: 'cocoa' | 'coffee' | 'palm_oil' | 'soya' | 'wood' | 'customer']> = [
  [101, 'Coopérative Agricole de Soubré (CASO)', 'Soubré', 'CI', 'cocoa'],
  [102, 'Ashanti Cocoa Farmers Union', 'Kumasi', 'GH', 'cocoa'],
  [103, 'Cooperativa Cacaotera Manabí', 'Portoviejo', 'EC', 'cocoa'],
  [104, 'Cooperativa Cafetalera del Huila', 'Neiva', 'CO', 'coffee'],
  [105, 'Nam Viet Coffee JSC', 'Buôn Ma Thuột', 'VN', 'coffee'],
  [106, 'PT Sumatra Agro Lestari', 'Medan', 'ID', 'palm_oil'],
  [107, 'Mato Grosso Grãos Ltda', 'Cuiabá', 'BR', 'soya'],
  [108, 'Baltic Forest Products UAB', 'Kaunas', 'LT', 'wood'],
  [109, 'Bois du Cameroun SARL', 'Douala', 'CM', 'wood'],
  [110, 'Épicerie Fine Européenne SA', 'Lyon', 'FR', 'customer'],
  [111, 'Bayerische Confiserie AG', 'Munich', 'DE', 'customer'],
  [112, 'Van der Berg Retail BV', 'Utrecht', 'NL', 'customer'],
];

interface PersonSpec {
  id: number;
  first: string;
  last: string;
  job: string;
  domain: string;
  memberships: Array<[companyId: number, role: number]>;
  token?: string;
}

const PEOPLE: PersonSpec[] = [
  { id: 1, first: 'Amélie', last: 'Janssens', job: 'Chief Sustainability Officer', domain: 'brussels-cacao.example', memberships: [[1, ROLE.OWNER]], token: 'sct_demo_owner_cacao' },
  { id: 2, first: 'Lucas', last: 'Peeters', job: 'Compliance Manager', domain: 'brussels-cacao.example', memberships: [[1, ROLE.ADMIN]], token: 'sct_demo_admin_cacao' },
  { id: 3, first: 'Noor', last: 'De Smet', job: 'Supply Chain Analyst', domain: 'brussels-cacao.example', memberships: [[1, ROLE.MEMBER]], token: 'sct_demo_member_cacao' },
  { id: 4, first: 'Jonas', last: 'Hartmann', job: 'Managing Director', domain: 'hanseatic-trading.example', memberships: [[2, ROLE.OWNER]], token: 'sct_demo_owner_trader' },
  { id: 5, first: 'Mia', last: 'Schulz', job: 'Trade Compliance Officer', domain: 'hanseatic-trading.example', memberships: [[2, ROLE.MEMBER]], token: 'sct_demo_member_trader' },
  { id: 6, first: 'Sofia', last: 'Lindberg', job: 'EUDR Consultant', domain: 'lindberg-advisory.example', memberships: [[1, ROLE.ADMIN], [3, ROLE.OWNER], [4, ROLE.MEMBER]], token: 'sct_demo_multi' },
  { id: 7, first: 'Erik', last: 'Nilsson', job: 'Timber Procurement', domain: 'nordic-timber.example', memberships: [[3, ROLE.MEMBER]], token: 'sct_demo_member_timber' },
];

const slugify = (s: string) =>
  s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export { slugify };

export interface Demo {
  store: Store;
  tokens: DemoTokenSpec[];
}

/** Builds the whole demo world. Cheap per order so that 100,000 orders load in about a second. */
export function buildDemo(seed: number, orderCount: number): Demo {
  const rng = new Rng(seed);
  const store = new Store();
  const tsBase = isoDateTime(BASE_DATE - 900 * DAY);

  for (const t of TENANTS)
    store.companies.set(t.id, { ...t, tenant: true, data_room_consumer_id: `drc-${t.slug}`, created_at: tsBase, updated_at: tsBase });
  for (const [id, name, city, country] of PARTNERS) {
    const slug = slugify(name);
    store.companies.set(id, {
      id, name, slug, type: 'stakeholder', city, country,
      default_currency: COUNTRIES.find((c) => c.alpha_2 === country)?.eu_status === 'member' ? 'EUR' : 'USD',
      default_locale: 'en', data_room_consumer_id: `drc-${slug}`,
      nr_of_employees: rng.int(12, 900), nr_of_locations: rng.int(1, 6), is_mfa_enabled: false, tenant: false,
      created_at: tsBase, updated_at: tsBase,
    });
  }

  store.authGroups.set(ROLE.OWNER, { id: ROLE.OWNER, name: 'OWNER', permissions: [...ALL_PERMISSIONS, ...ADMIN_ONLY] });
  store.authGroups.set(ROLE.ADMIN, { id: ROLE.ADMIN, name: 'ADMIN', permissions: [...ALL_PERMISSIONS, ...ADMIN_ONLY] });
  store.authGroups.set(ROLE.MEMBER, { id: ROLE.MEMBER, name: 'MEMBER', permissions: [...ALL_PERMISSIONS] });

  // People with tokens first, then colleagues who only fill the member lists.
  const people = [...PEOPLE];
  let personId = 100;
  const fill: Array<[companyId: number, n: number, domain: string]> = [
    [1, 22, 'brussels-cacao.example'],
    [2, 9, 'hanseatic-trading.example'],
    [3, 4, 'nordic-timber.example'],
  ];
  for (const [companyId, n, domain] of fill)
    for (let i = 0; i < n; i++)
      people.push({
        id: ++personId, first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES), job: rng.pick(JOB_TITLES), domain,
        memberships: [[companyId, rng.chance(0.15) ? ROLE.ADMIN : ROLE.MEMBER]],
      });

  const tokens: DemoTokenSpec[] = [];
  let membershipId = 0;
  for (const p of people) {
    const local = `${slugify(p.first)}.${slugify(p.last)}`.replace(/-/g, '');
    const email = p.id >= 100 ? `${local}${p.id}@${p.domain}` : `${local}@${p.domain}`;
    const created = isoDateTime(BASE_DATE - (700 - (p.id % 400)) * DAY);
    store.users.set(p.id, {
      id: p.id, username: email, email, first_name: p.first, last_name: p.last, job_title: p.job,
      identity_uid: `auth0|${(p.id * 7919).toString(16).padStart(12, '0')}`, is_staff: false,
      is_mfa_enrolled: p.id % 3 === 0, active_company_id: p.memberships[0]![0],
    });
    for (const [companyId, role] of p.memberships) {
      const id = ++membershipId;
      store.memberships.set(id, {
        id, user_id: p.id, company_id: companyId, auth_group_id: role, data_room_consumer_id: `drc-uc-${id}`,
        config: { default_order_action: companyId === 2 ? 'selling' : 'buying', page_size: 25, theme: 'light' },
        created_at: created, updated_at: created,
      });
    }
    if (p.token) {
      store.tokens.set(p.token, p.id);
      tokens.push({ token: p.token, userId: p.id, companyId: p.memberships[0]![0] });
    }
  }
  store.bumpId('membership', membershipId);
  store.bumpId('user', personId);

  const productsBy = seedProducts(store, rng);
  const originsBy = seedOrigins(store, rng);
  const chainsBy = seedValueChains(store, rng);
  seedOrders(store, rng, orderCount, productsBy, originsBy, chainsBy);
  seedStatements(store, rng);
  seedInvitations(store, rng);
  seedFiles(store, rng);
  return { store, tokens };
}

type ByCompany<T> = Map<number, T[]>;

function seedProducts(store: Store, rng: Rng): ByCompany<Product> {
  const by: ByCompany<Product> = new Map();
  const catalogues: Array<[number, keyof typeof CATALOGUE, string]> = [
    [1, 'cacao', 'BCC'],
    [2, 'trader', 'HCT'],
    [3, 'timber', 'NTI'],
    [4, 'cacao', 'BCT'],
  ];
  let id = 0;
  for (const [companyId, cat, prefix] of catalogues) {
    const list: Product[] = [];
    // Each template once, raw materials again per sourcing country, so catalogues have depth.
    const variants = CATALOGUE[cat].flatMap((t) => {
      if (t.type !== 'raw_material' || !t.commodity) return [{ t, suffix: '' }];
      return PLACES[t.commodity].slice(0, 3).map((pl) => ({ t, suffix: ` (${pl.country}, ${pl.region})` }));
    });
    for (const { t, suffix } of variants) {
      id++;
      const created = BASE_DATE - rng.int(200, 800) * DAY;
      const status = rng.pick(ASSESSMENT_STATUSES);
      list.push({
        id, company_id: companyId,
        sku: `${prefix}-${(t.commodity ?? 'gen').slice(0, 3).toUpperCase()}-${String(id).padStart(4, '0')}`,
        name: t.name + suffix,
        description: `${t.name}${suffix}; HS ${t.hs_code}. Unit ${t.unit}.`,
        scientific_name: t.species[0]?.[1] ?? '', common_name: t.species[0]?.[0] ?? '',
        hs_code: t.hs_code, external_id: `${prefix}-P${String(id).padStart(5, '0')}`, type: t.type,
        commodity: t.commodity, composition: t.composition,
        metadata: { species: t.species.map(([common_name, scientific_name]) => ({ common_name, scientific_name })) },
        assessment_status: status, assessment_summary: summaryFor(status, rng),
        excluded_propagation_identifiers: null,
        tags: t.commodity ? [t.commodity.replace('_', '-'), ...(rng.chance(0.3) ? ['eudr'] : [])] : [],
        created_at: isoDateTime(created), updated_at: isoDateTime(created + rng.int(0, 90) * DAY), deleted_at: null,
      });
    }
    for (const p of list) store.products.set(p.id, p);
    by.set(companyId, list);
  }
  store.bumpId('product', id);
  return by;
}

function summaryFor(status: AssessmentStatus, rng: Rng): AssessmentSummary {
  const total = rng.int(1, 12);
  const statuses: AssessmentStatus[] = Array.from({ length: total }, () => (rng.chance(0.7) ? status : rng.pick(ASSESSMENT_STATUSES)));
  return summarize(statuses);
}

function seedOrigins(store: Store, rng: Rng): ByCompany<Origin> {
  const by: ByCompany<Origin> = new Map();
  const plan: Array<[number, Commodity[], number]> = [
    [1, ['cocoa', 'coffee', 'palm_oil', 'soya'], 36],
    [2, ['cocoa', 'coffee', 'palm_oil', 'soya', 'cattle', 'rubber'], 48],
    [3, ['wood'], 20],
    [4, ['cocoa'], 6],
  ];
  let id = 0;
  for (const [companyId, commodities, n] of plan) {
    const list: Origin[] = [];
    for (let i = 0; i < n; i++) {
      id++;
      const commodity = commodities[i % commodities.length]!;
      const place = rng.pick(PLACES[commodity]);
      const surname = rng.pick(place.surnames);
      // Within about 15 km of the place, with the six decimals the EU registry asks for.
      const lat = sixDecimals(place.lat + (rng.next() - 0.5) * 0.3);
      const lon = sixDecimals(place.lon + (rng.next() - 0.5) * 0.3);
      // Plots of 4 ha or more need a polygon under EUDR; smaller ones a point. The shape has a
      // generator of its own, so the draws of everything seeded after the origins stay the same.
      const big = rng.chance(0.25);
      const plot = big ? plotShape(lon, lat, new Rng(id * 7919 + 17)) : undefined;
      const location = plot?.geometry ?? { type: 'Point', coordinates: [lon, lat] };
      // A point stands for a smallholding under 4 ha (0.5 to 3.2 ha); a polygon says its own area.
      const statedHa = (drawn: number) => (plot ? Math.round(plot.ha) : Math.round(((drawn - 1) * 0.9 + 0.5) * 10) / 10);
      const status = rng.pick(ASSESSMENT_STATUSES);
      const created = BASE_DATE - rng.int(100, 700) * DAY;
      const kind = commodity === 'wood' ? 'Forest stand' : commodity === 'cattle' ? 'Ranch' : 'Farm';
      list.push({
        id, company_id: companyId,
        name: `${kind} ${surname} ${rng.int(1, 99)} (${place.region})`,
        description: rng.chance(0.7) ? `${commodity.replace('_', ' ')} ${big ? 'plantation' : 'smallholding'} in ${place.region}, ${statedHa(rng.int(1, big ? 40 : 4))} ha` : null,
        country_code: place.country, location,
        external_id: rng.chance(0.9) ? `ORI-${place.country}-${String(id).padStart(5, '0')}` : null,
        mapping_external_id: `MAP-${rng.alnum(8)}`,
        mapping_information: { source: rng.pick(['field survey', 'cooperative registry', 'satellite mapping']), mapped_at: isoDate(created) },
        assessment_status: status, assessment_summary: summaryFor(status, rng), excluded_propagation_identifiers: null,
        created_at: isoDateTime(created), updated_at: isoDateTime(created + rng.int(0, 60) * DAY), deleted_at: null,
      });
    }
    for (const o of list) store.origins.set(o.id, o);
    by.set(companyId, list);
  }
  store.bumpId('origin', id);
  return by;
}

const M_PER_DEG = 111_320;

/**
 * A plot as surveyors draw one: an irregular ring of 5 to 9 corners around (lon, lat), of 4 to
 * 40 ha; one in six in two blocks (a MultiPolygon). Corners at increasing angles never cross.
 */
function plotShape(lon: number, lat: number, r: Rng): { geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown }; ha: number } {
  const ha = 4 + r.next() * 36;
  const blocks = r.chance(1 / 6) ? 2 : 1;
  const k = Math.cos((lat * Math.PI) / 180);
  const ring = (cx: number, cy: number, targetHa: number) => {
    const n = r.int(5, 9);
    const corners = Array.from({ length: n }, (_, i) => ({ a: ((i + 0.2 + r.next() * 0.6) * 2 * Math.PI) / n, d: 0.7 + r.next() * 0.3 }));
    // Shoelace area of the unit shape, in m² per m² of radius, scales it to the target area.
    let unit = 0;
    for (let i = 0; i < n; i++) {
      const p = corners[i]!;
      const q = corners[(i + 1) % n]!;
      unit += (p.d * q.d * Math.sin(q.a - p.a)) / 2;
    }
    const radius = Math.sqrt((targetHa * 10_000) / unit);
    const pts = corners.map(({ a, d }) => [round(cx + (Math.cos(a) * d * radius) / (M_PER_DEG * k), 6), round(cy + (Math.sin(a) * d * radius) / M_PER_DEG, 6)]);
    return [[...pts, pts[0]!]];
  };
  if (blocks === 1) return { geometry: { type: 'Polygon', coordinates: ring(lon, lat, ha) }, ha };
  const gap = Math.sqrt((ha * 10_000) / 2) * 1.6;
  return {
    geometry: { type: 'MultiPolygon', coordinates: [ring(lon, lat, ha / 2), ring(round(lon + gap / (M_PER_DEG * k), 6), round(lat - gap / (3 * M_PER_DEG), 6), ha / 2)] },
    ha,
  };
}

/** Rounded to 6 decimals that show: 6.13 would print as 2 (a writer drops trailing zeros). */
function sixDecimals(n: number): number {
  const r = round(n, 6);
  return /\.\d{6}$/.test(String(r)) ? r : round(r + 0.000001, 6);
}

function round(n: number, d: number): number {
  const f = 10 ** d;
  return Math.round(n * f) / f;
}

function seedValueChains(store: Store, rng: Rng): ByCompany<ValueChain> {
  const by: ByCompany<ValueChain> = new Map();
  const plan: Array<[number, number[]]> = [
    [1, [2, 101, 102, 103, 104, 106, 107, 110, 111, 112]],
    [2, [1, 101, 102, 103, 104, 105, 106, 107, 111]],
    [3, [108, 109, 112]],
    [4, [2, 101]],
  ];
  let id = 0;
  for (const [companyId, partners] of plan) {
    const list: ValueChain[] = [];
    for (const partnerId of partners) {
      id++;
      const partner = store.companies.get(partnerId)!;
      const isCustomer = PARTNERS.find((p) => p[0] === partnerId)?.[4] === 'customer' || (companyId === 2 && partnerId === 1);
      const created = BASE_DATE - rng.int(300, 800) * DAY;
      const status = partner.tenant ? 'active' : rng.pick(VALUE_CHAIN_STATUSES);
      const astatus = rng.pick(ASSESSMENT_STATUSES);
      list.push({
        id, company_id: companyId, company_name: partner.name,
        description: `${isCustomer ? 'Customer' : 'Supplier'} relationship with ${partner.name}`,
        external_id: `VC-${companyId}-${String(partnerId).padStart(4, '0')}`,
        contact_name: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
        type: isCustomer ? 'customer' : partner.tenant ? 'trader' : rng.pick(['supplier', 'processor'] as const),
        status, country_code: partner.country, permission_granted: status === 'active', is_self_managed: !partner.tenant && rng.chance(0.3),
        reciprocal_company_id: partnerId,
        ownership_information: {
          ownership_periods: [{ valid_from_month: '2023-01', valid_to_month: '2026-12', consolidation_approach: rng.pick(['equity_share', 'operational_control', 'financial_control']), ownership_percentage: String(rng.pick([0, 25, 51, 100])) }],
          sector_code: rng.pick(['A01.27', 'A01.26', 'C10.82', 'A02.20', 'G46.37']),
          notes: '',
        },
        metadata: { invitation_ids: status === 'invited' ? [rng.uuid()] : [], requested_by_user_id: companyId === 1 ? 1 : null },
        assessment_status: astatus, assessment_summary: summaryFor(astatus, rng), excluded_propagation_identifiers: null,
        tags: rng.chance(0.4) ? ['strategic'] : [],
        created_at: isoDateTime(created), updated_at: isoDateTime(created + rng.int(0, 120) * DAY), deleted_at: null,
      });
    }
    for (const v of list) store.valueChains.set(v.id, v);
    by.set(companyId, list);
  }
  store.bumpId('value_chain', id);
  return by;
}

interface Scenario {
  weight: number;
  company: number;
  kind: OrderKind;
  types: readonly OrderType[];
  buyer: (rng: Rng) => number | null;
  seller: (rng: Rng) => number | null;
  prefix: string;
}

function seedOrders(
  store: Store,
  rng: Rng,
  n: number,
  productsBy: ByCompany<Product>,
  originsBy: ByCompany<Origin>,
  chainsBy: ByCompany<ValueChain>,
): void {
  const scenarios: Scenario[] = [
    // The chocolate maker buys cocoa from the trader and direct from cooperatives.
    { weight: 38, company: 1, kind: 'purchase', types: ['order'], buyer: () => 1, seller: (r) => (r.chance(0.45) ? 2 : r.pick([101, 102, 103, 104, 106, 107])), prefix: 'PO' },
    // The trader's sales, to the chocolate maker and to other customers.
    { weight: 20, company: 2, kind: 'sale', types: ['order'], buyer: (r) => (r.chance(0.6) ? 1 : r.pick([111, 110])), seller: () => 2, prefix: 'SO' },
    { weight: 12, company: 2, kind: 'purchase', types: ['order'], buyer: () => 2, seller: (r) => r.pick([101, 102, 103, 104, 105, 106, 107]), prefix: 'PO' },
    { weight: 6, company: 1, kind: 'sale', types: ['order'], buyer: (r) => r.pick([110, 111, 112]), seller: () => 1, prefix: 'SO' },
    { weight: 14, company: 1, kind: 'batch', types: ['produced_batch', 'manufactured_batch', 'product_chain'], buyer: () => 1, seller: () => 1, prefix: 'BATCH' },
    { weight: 4, company: 2, kind: 'batch', types: ['produced_batch', 'product_chain'], buyer: () => 2, seller: () => 2, prefix: 'BATCH' },
    { weight: 5, company: 3, kind: 'purchase', types: ['order'], buyer: () => 3, seller: (r) => r.pick([108, 109]), prefix: 'PO' },
    { weight: 1, company: 4, kind: 'purchase', types: ['order'], buyer: () => 4, seller: () => 2, prefix: 'PO' },
  ];
  const total = scenarios.reduce((s, x) => s + x.weight, 0);
  const dateCache = new Map<number, [string, string]>();
  const dates = (day: number): [string, string] => {
    let d = dateCache.get(day);
    if (!d) dateCache.set(day, (d = [isoDate(BASE_DATE - day * DAY), isoDateTime(BASE_DATE - day * DAY + 9 * 3600_000)]));
    return d;
  };
  // Shared immutable pools keep 100,000 orders cheap; writes always assign fresh arrays/objects.
  const tagPool: string[][] = [[], [], ['eudr'], ['organic', 'eudr'], ['fairtrade'], ['priority'], ['contract'], ['spot', 'high-risk'], ['rainforest-alliance'], ['single-origin', 'organic'], ['q1-audit']];
  const metaPool: ItemMetadata[] = [{}, { percentage_estimation_or_deviation: '5' }, { supplementary_unit: 'bags', supplementary_unit_qualifier: '60kg' }];
  const noTrace = { traced_orders: [] as number[], traced_origins: [] as number[] };
  const noDds: string[] = [];
  // Orders with the same item statuses share one summary object (writes assign a new one).
  const summaries = new Map<string, AssessmentSummary>();
  const summaryOf = (statuses: AssessmentStatus[]): AssessmentSummary => {
    const key = statuses.join();
    let s = summaries.get(key);
    if (!s) summaries.set(key, (s = summarize(statuses)));
    return s;
  };
  const chainFor = (companyId: number, partner: number | null) => chainsBy.get(companyId)?.find((v) => v.reciprocal_company_id === partner)?.id ?? null;
  const seqPerCompany = new Map<string, number>();
  let itemId = 0;
  const earlier: number[] = [];

  // One order per call, drawing from rng in the same order as ever: the same seed gives the same orders.
  const makeOrder = (id: number): Order => {
    let w = rng.next() * total;
    const sc = scenarios.find((s) => (w -= s.weight) < 0) ?? scenarios[0]!;
    const buyer = sc.buyer(rng);
    const seller = sc.seller(rng);
    const day = rng.int(1, 730);
    const [created, createdTs] = dates(day);
    const arrival = rng.chance(0.8) ? dates(Math.max(0, day - rng.int(5, 60)))[0] : null;
    const seqKey = `${sc.company}:${sc.prefix}`;
    const seq = (seqPerCompany.get(seqKey) ?? 0) + 1;
    seqPerCompany.set(seqKey, seq);
    const year = created.slice(0, 4);
    const externalId = `${sc.prefix}-${year}-${String(seq).padStart(6, '0')}`;
    const itemCount = rng.int(1, 3);
    // Sized up front: an array grown by push reserves room for 17 elements, 100,000 times over.
    const items = new Array<OrderItem>(itemCount);
    const buyerProducts = buyer !== null ? productsBy.get(buyer) : undefined;
    const sellerProducts = seller !== null ? productsBy.get(seller) : undefined;
    const origins = originsBy.get(sc.company) ?? [];
    const statuses: AssessmentStatus[] = [];
    for (let l = 1; l <= itemCount; l++) {
      const bp = buyerProducts ? rng.pick(buyerProducts) : null;
      const sp = sellerProducts ? rng.pick(sellerProducts) : null;
      const status = rng.pick(ASSESSMENT_STATUSES);
      statuses.push(status);
      const traced = rng.next();
      items[l - 1] = {
        id: ++itemId, order: id, buyer_product: bp?.id ?? null, seller_product: sp?.id ?? null,
        volume: Math.round(rng.next() * 25000 * 100) / 100 + 10,
        unit: (bp ?? sp)?.commodity === 'wood' ? 'm3' : rng.chance(0.15) ? 't' : 'kg',
        line_number: l, external_id: `${externalId}-L${l}`,
        metadata: rng.pick(metaPool),
        trace: traced < 0.45 && origins.length
          ? { traced_orders: traced < 0.1 && earlier.length ? [rng.pick(earlier)] : [], traced_origins: traced < 0.2 ? [rng.pick(origins).id, rng.pick(origins).id] : [rng.pick(origins).id] }
          : noTrace,
        assessment_status: status, excluded_propagation_identifiers: null,
        created_at: createdTs, updated_at: createdTs,
      };
    }
    const partner = sc.company === buyer ? seller : buyer;
    return {
      id, company_id: sc.company, kind: sc.kind, type: rng.pick(sc.types), external_id: externalId,
      buyer_external_id: buyer === sc.company || rng.chance(0.5) ? externalId : `${buyer ?? 'X'}-${rng.alnum(6)}`,
      seller_external_id: seller === sc.company ? externalId : rng.chance(0.6) ? `INV-${rng.alnum(7)}` : null,
      order_created_at: created, order_arrival_at: arrival,
      buyer_company_status: rng.pick(BUYER_STATUSES), seller_company_status: rng.pick(SELLER_STATUSES),
      assessment_status: rng.pick(ASSESSMENT_STATUSES), value_chain: chainFor(sc.company, partner),
      buyer_company_id: buyer, seller_company_id: seller, items,
      signed_off_at: rng.chance(0.3) ? createdTs : null,
      assessment_summary: summaryOf(statuses), excluded_propagation_identifiers: null,
      border_cross_country_code: rng.chance(0.7) ? rng.pick(['BE', 'NL', 'DE', 'FR', 'SE']) : null,
      dds_identifiers: noDds,
      tags: rng.pick(tagPool), created_at: createdTs, updated_at: createdTs, deleted_at: null,
    };
  };
  for (let id = 1; id <= n; id++) {
    store.orders.set(id, makeOrder(id));
    if (id % 7 === 0) earlier.push(id);
  }
  store.bumpId('order', n);
  store.bumpId('item', itemId);
}

const ddsRef = (rng: Rng, country: string) => `25${country}${rng.alnum(10)}`;

function seedStatements(store: Store, rng: Rng): void {
  const plan: Array<[number, number, string]> = [
    [1, 40, 'BE'],
    [2, 20, 'DE'],
    [3, 8, 'SE'],
  ];
  let id = 0;
  const ordersBought = new Map<number, number[]>();
  for (const o of store.orders.values()) {
    if (o.buyer_company_id === null) continue;
    let l = ordersBought.get(o.buyer_company_id);
    if (!l) ordersBought.set(o.buyer_company_id, (l = []));
    if (l.length < 2000) l.push(o.id);
  }
  for (const [companyId, n, country] of plan) {
    const bought = ordersBought.get(companyId) ?? [];
    const products = [...store.products.values()].filter((p) => p.company_id === companyId).map((p) => p.id);
    for (let i = 0; i < n; i++) {
      id++;
      // Cycle type/status so every combination the state machine allows is present.
      const combos: Array<[Statement['type'], DdsStatus, boolean]> = [
        ['EUDR', 'complete', false], ['EUDR', 'in_progress', false], ['EUDR', 'failed', false], ['EUDR', 'complete', true],
        ['EUDR', 'draft', false], ['EUTR', 'complete', false], ['PPWR', 'draft', false], ['PPWR', 'complete', false],
      ];
      const [type, status, filed] = combos[i % combos.length]!;
      const created = BASE_DATE - rng.int(5, 400) * DAY;
      const ident = type === 'EUTR' ? `EUTR-${country}-${rng.alnum(8)}` : status === 'in_progress' && filed ? '' : ddsRef(rng, country);
      const attached = bought.length ? Array.from(new Set(Array.from({ length: rng.int(0, 4) }, () => rng.pick(bought)))) : [];
      const stmt: Statement = {
        id, company_id: companyId, type, name: rng.chance(0.85) ? `${type} ${rng.pick(['cocoa', 'coffee', 'Q', 'shipment', 'packaging', 'timber'])} ${2025}-${String(rng.int(1, 12)).padStart(2, '0')}` : null,
        status, dds_identifier: ident,
        dds_data: status === 'failed' ? { reason: 'Registry retrieval failed: reference number not found in the EU Information System.' } : status === 'complete' ? registryData(ident, country) : {},
        orders: attached, products: products.length && rng.chance(0.6) ? [rng.pick(products)] : [],
        assessment_run_ids: type === 'EUTR' ? [] : [rng.uuid()],
        metadata: {
          eu_registry_status: status === 'complete' ? 'AVAILABLE' : status === 'failed' ? 'REJECTED' : status === 'in_progress' ? 'SUBMITTED' : 'NOT_SUBMITTED',
          eu_registry_status_observed_at: status === 'draft' ? null : isoDateTime(created + 3600_000),
          submitted_at: filed || (type === 'EUDR' && status !== 'draft') ? isoDateTime(created) : null,
          was_filed: filed,
        },
        assessment_status: rng.pick(ASSESSMENT_STATUSES), assessment_summary: null, excluded_propagation_identifiers: null,
        created_at: isoDateTime(created), updated_at: isoDateTime(created + 3600_000), deleted_at: null,
      };
      store.statements.set(id, stmt);
    }
  }
  store.bumpId('statement', id);
}

export function registryData(reference: string, country: string): Record<string, unknown> {
  return {
    reference_number: reference,
    verification_number: reference ? reference.slice(-8).split('').reverse().join('') : null,
    status: 'AVAILABLE',
    activity_type: 'IMPORT',
    operator_country: country,
  };
}

function seedInvitations(store: Store, rng: Rng): void {
  const plan: Array<[number, number, string, number[]]> = [
    [1, 32, 'brussels-cacao.example', [1, 2]],
    [2, 10, 'hanseatic-trading.example', [4]],
    [3, 4, 'nordic-timber.example', [6]],
  ];
  // Pending invitations expire far in the future, expired ones in the past: both stable regardless of the clock.
  const FUTURE = Date.UTC(2099, 11, 31);
  const PAST = Date.UTC(2024, 5, 30);
  for (const [companyId, n, domain, inviters] of plan) {
    for (let i = 0; i < n; i++) {
      const kind = ['pending', 'pending', 'expired', 'accepted', 'revoked', 'pending', 'accepted', 'revoked'][i % 8]!;
      const created = (kind === 'expired' ? PAST - 14 * DAY : BASE_DATE) - rng.int(1, 300) * DAY;
      const inv: Invitation = {
        id: rng.uuid(), company_id: companyId,
        email: `${slugify(rng.pick(FIRST_NAMES))}.${slugify(rng.pick(LAST_NAMES))}.${i + 1}@${i % 3 === 0 ? 'partner-' : ''}${domain}`.replace(/-(?=[^@]*@)/g, ''),
        auth_group_id: i % 5 === 0 ? ROLE.ADMIN : ROLE.MEMBER,
        invited_by: rng.pick(inviters),
        status: kind === 'expired' ? 'pending' : (kind as Invitation['status']),
        created_at: isoDateTime(created),
        expires_at: kind === 'expired' ? isoDateTime(PAST - rng.int(0, 100) * DAY) : kind === 'pending' ? isoDateTime(FUTURE) : isoDateTime(created + 14 * DAY),
      };
      store.invitations.set(inv.id, inv);
    }
  }
}

function seedFiles(store: Store, rng: Rng): void {
  const docNames: Array<[string, string]> = [
    ['Geolocation survey Soubré 2025.geojson', 'application/geo+json'],
    ['Supplier declaration Hanseatic 2025.pdf', 'application/pdf'],
    ['Deforestation-free certificate CASO.pdf', 'application/pdf'],
    ['Satellite analysis Ashanti Q3.pdf', 'application/pdf'],
    ['Purchase contract PO-2025-000114.pdf', 'application/pdf'],
    ['Farm list Manabí cooperative.csv', 'text/csv'],
    ['Legality assessment Côte d’Ivoire.pdf', 'application/pdf'],
    ['Chain of custody certificate FSC.pdf', 'application/pdf'],
    ['Land tenure records Sefwi.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['Risk mitigation plan 2025.pdf', 'application/pdf'],
    ['Packaging declaration PPWR.pdf', 'application/pdf'],
    ['Customs entry BE-2025-0042.pdf', 'application/pdf'],
  ];
  let docId = 0;
  let runId = 0;
  let riskId = 0;
  for (const companyId of [1, 2, 3]) {
    const owner = [...store.memberships.values()].find((m) => m.company_id === companyId && m.auth_group_id === ROLE.OWNER)!.user_id;
    const docs: number[] = [];
    for (let i = 0; i < docNames.length; i++) {
      const [name, ct] = docNames[i]!;
      const created = BASE_DATE - rng.int(10, 300) * DAY;
      const uploaded = i % 6 !== 5;
      const bytes = uploaded ? demoFile(name, ct, companyId) : null;
      docs.push(++docId);
      store.documents.set(docId, {
        id: docId, company_id: companyId, name, description: rng.chance(0.5) ? `Evidence for ${name.split('.')[0]}` : null,
        content_type: ct, size: bytes?.length ?? null, status: uploaded ? 'uploaded' : 'pending_upload',
        sha256: bytes ? sha256Hex(bytes) : null, tags: rng.chance(0.4) ? ['evidence'] : [], staged: null, file: bytes,
        upload_token: `demo-${companyId}-${docId}-${rng.alnum(16)}`, created_by: owner,
        created_at: isoDateTime(created), updated_at: isoDateTime(created), uploaded_at: uploaded ? isoDateTime(created + 60_000) : null, deleted_at: null,
      });
    }
    for (let i = 0; i < 10; i++) {
      const created = BASE_DATE - rng.int(1, 200) * DAY;
      const status = IMPORT_STATUSES[i % IMPORT_STATUSES.length]!;
      const rows = rng.int(20, 5000);
      const failed = status === 'failed' ? rows : status === 'partially_succeeded' ? rng.int(1, 40) : 0;
      const done = status !== 'queued' && status !== 'running';
      store.imports.set(++runId, {
        id: runId, company_id: companyId, name: `${IMPORT_TYPES[i % 3]} import ${isoDate(created)}`,
        type: IMPORT_TYPES[i % 3]!, source: IMPORT_SOURCES[i % IMPORT_SOURCES.length]!, document: i % 2 ? rng.pick(docs) : null,
        status, stats: { rows, created: done ? rows - failed : 0, updated: 0, failed },
        errors: failed ? Array.from({ length: Math.min(failed, 3) }, (_, k) => ({ row: k * 7 + 2, message: 'country_code: Ensure this field has no more than 2 characters.' })) : [],
        created_by: owner, created_at: isoDateTime(created), updated_at: isoDateTime(created + 600_000),
        started_at: status === 'queued' ? null : isoDateTime(created + 60_000), finished_at: done ? isoDateTime(created + 600_000) : null,
      });
    }
    const origins = [...store.origins.values()].filter((o) => o.company_id === companyId).map((o) => o.id);
    const products = [...store.products.values()].filter((p) => p.company_id === companyId);
    const orders: number[] = [];
    for (const o of store.orders.values()) {
      if (o.buyer_company_id === companyId) orders.push(o.id);
      if (orders.length >= 200) break;
    }
    for (let i = 0; i < 12; i++) {
      const created = BASE_DATE - rng.int(1, 300) * DAY;
      const status = RISK_STATUSES[i % RISK_STATUSES.length]!;
      const product = rng.pick(products);
      const pick = (l: number[], k: number) => Array.from(new Set(Array.from({ length: k }, () => rng.pick(l)))).sort((a, b) => a - b);
      store.risks.set(++riskId, {
        id: riskId, company_id: companyId, identifier: `RA-${companyId}-2025-${String(i + 1).padStart(4, '0')}`,
        name: `${product.commodity ?? 'general'} risk assessment ${isoDate(created).slice(0, 7)}`,
        description: null, commodity: product.commodity, status,
        risk_level: status === 'complete' ? rng.pick(RISK_OUTCOMES) : null, assessment_run_id: rng.uuid(),
        orders: orders.length ? pick(orders, 3) : [], origins: origins.length ? pick(origins, 4) : [],
        products: [product.id], documents: pick(docs.filter((d) => store.documents.get(d)!.file), 2),
        created_by: owner, created_at: isoDateTime(created), updated_at: isoDateTime(created + DAY),
        completed_at: status === 'complete' || status === 'failed' ? isoDateTime(created + DAY) : null,
      });
    }
  }
  store.bumpId('document', docId);
  store.bumpId('import', runId);
  store.bumpId('risk', riskId);
}

export function sha256Hex(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

/** Small but well-formed files, so a downloaded demo document opens in its application. */
function demoFile(name: string, contentType: string, companyId: number): Buffer {
  if (contentType === 'application/geo+json')
    return Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name, company_id: companyId }, geometry: { type: 'Point', coordinates: [-6.59, 5.78] } }] }, null, 2));
  if (contentType === 'text/csv') return Buffer.from('farmer_id,name,area_ha,lat,lon\nF-001,Kouassi Yao,2.4,5.781,-6.592\nF-002,Koné Awa,1.1,5.802,-6.611\n');
  if (contentType === 'application/pdf') return minimalPdf(name);
  return Buffer.from(`${name}\nDemo content for company ${companyId}.\n`);
}

function minimalPdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, '').replace(/[^\x20-\x7e]/g, '?');
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const stream = `BT /F1 14 Tf 72 770 Td (${text}) Tj ET`;
  objs[3] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
