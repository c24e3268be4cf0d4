// Each resource's default table columns, in one place. `--columns` replaces them with any
// dotted paths (in json/ndjson too, see output/fields.ts).
import { getPath, pathGetter } from './values.js';

export interface Column {
  header: string;
  path: string;
  /** Derives the cell from the whole row when the path alone does not say it. */
  value?: (row: Record<string, unknown>) => unknown;
}

const col = (header: string, path: string, value?: Column['value']): Column => ({ header, path, value });
const count = (path: string) => (row: Record<string, unknown>) => {
  const v = getPath(row, path);
  return Array.isArray(v) ? v.length : '';
};
const date = (path: string) => (row: Record<string, unknown>) => {
  const v = getPath(row, path);
  return typeof v === 'string' ? v.slice(0, 10) : v;
};

export const COLUMNS = {
  order: [
    col('ID', 'id'),
    col('EXTERNAL ID', 'external_id'),
    col('TYPE', 'type'),
    // The counterpart is whichever side is not us; the command picks the perspective.
    col('COUNTERPART', 'counterpart'),
    col('BUYER STATUS', 'buyer_company_status'),
    col('SELLER STATUS', 'seller_company_status'),
    col('ASSESSMENT', 'assessment_status'),
    col('CREATED', 'order_created_at'),
    col('ITEMS', 'items', count('items')),
    col('DDS', 'due_diligence_statements', count('due_diligence_statements')),
  ],
  orderItem: [
    col('ID', 'id'),
    col('LINE', 'line_number'),
    col('EXTERNAL ID', 'external_id'),
    col('BUYER PRODUCT', 'buyer_product_detail.name'),
    col('SELLER PRODUCT', 'seller_product_detail.name'),
    col('VOLUME', 'volume'),
    col('UNIT', 'unit'),
    col('TRACED ORDERS', 'traced_order_count'),
    col('TRACED ORIGINS', 'traced_origin_count'),
    col('ASSESSMENT', 'assessment_status'),
  ],
  orderStatistics: [
    col('DATE', 'date'),
    col('TYPE', 'type'),
    col('BUYER STATUS', 'buyer_company_status'),
    col('SELLER STATUS', 'seller_company_status'),
    col('ASSESSMENT', 'assessment_status'),
    col('VALUE CHAIN', 'value_chain_id'),
    col('ORDERS', 'order_count'),
  ],
  product: [
    col('ID', 'id'),
    col('SKU', 'sku'),
    col('NAME', 'name'),
    col('COMMODITY', 'commodity'),
    col('COMPOSITION', 'composition'),
    col('HS CODE', 'hs_code'),
    col('ASSESSMENT', 'assessment_status'),
    col('CREATED', 'created_at', date('created_at')),
  ],
  origin: [
    col('ID', 'id'),
    col('NAME', 'name'),
    col('COUNTRY', 'country', (r) => r.country ?? r.country_code),
    col('EXTERNAL ID', 'external_id'),
    col('ASSESSMENT', 'assessment_status'),
    col('CREATED', 'created_at', date('created_at')),
  ],
  valueChain: [
    col('ID', 'id'),
    col('COMPANY', 'company_name'),
    col('TYPE', 'type'),
    col('STATUS', 'status'),
    col('COUNTRY', 'country', (r) => r.country ?? r.country_code),
    col('CONTACT', 'contact_name'),
    col('ASSESSMENT', 'assessment_status'),
  ],
  statement: [
    col('ID', 'id'),
    col('TYPE', 'type'),
    col('NAME', 'name'),
    col('STATUS', 'status'),
    col('IDENTIFIER', 'dds_identifier'),
    col('ORDERS', 'orders', count('orders')),
    col('PRODUCTS', 'products', count('products')),
    col('CREATED', 'created_at', date('created_at')),
  ],
  invitation: [
    col('ID', 'id'),
    col('EMAIL', 'email'),
    col('ROLE', 'auth_group_detail.name'),
    col('STATUS', 'status'),
    col('INVITED BY', 'invited_by_detail.email'),
    col('EXPIRES', 'expires_at', date('expires_at')),
  ],
  member: [
    col('ID', 'id'),
    col('NAME', 'user_detail', (r) =>
      [getPath(r, 'user_detail.first_name'), getPath(r, 'user_detail.last_name')].filter(Boolean).join(' '),
    ),
    col('EMAIL', 'user_detail.email'),
    col('JOB TITLE', 'user_detail.job_title'),
    col('ROLE', 'auth_group_detail.name'),
  ],
  user: [col('ID', 'id'), col('USERNAME', 'username'), col('FIRST NAME', 'first_name'), col('LAST NAME', 'last_name'), col('ROLE', 'auth_group')],
  workspace: [
    col('CURRENT', 'current', (r) => (r.current ? '*' : '')),
    col('ID', 'workspace_id', (r) => r.workspace_id ?? r.id),
    col('NAME', 'workspace_name', (r) => r.workspace_name ?? r.name),
    col('TYPE', 'type'),
    col('COUNTRY', 'country'),
    col('MEMBERS', 'member_count'),
    col('MFA', 'is_mfa_enabled'),
  ],
  country: [col('CODE', 'alpha_2'), col('NAME', 'name', (r) => [r.flag, r.name].filter(Boolean).join(' ')), col('ALPHA-3', 'alpha_3'), col('EU STATUS', 'eu_status')],
  document: [col('ID', 'id'), col('NAME', 'name'), col('TYPE', 'content_type'), col('SIZE', 'size'), col('STATUS', 'status'), col('CREATED', 'created_at', date('created_at'))],
  importRun: [col('ID', 'id'), col('NAME', 'name'), col('TYPE', 'type'), col('STATUS', 'status'), col('CREATED', 'created_at', date('created_at'))],
  riskAssessment: [
    col('ID', 'id'),
    col('IDENTIFIER', 'identifier'),
    col('NAME', 'name'),
    col('STATUS', 'status'),
    col('RISK LEVEL', 'risk_level'),
    col('CREATED', 'created_at', date('created_at')),
  ],
  traceResult: [
    col('DDS', 'dds_id'),
    col('ADDED ORDERS', 'added_orders', (r) => (Array.isArray(r.added_orders) ? r.added_orders.join(',') : '')),
    col('TOTAL ORDERS', 'total_orders'),
    col('MESSAGE', 'message'),
  ],
  availableOrder: [col('ID', 'id'), col('BUYER EXTERNAL ID', 'buyer_external_id'), col('SELLER EXTERNAL ID', 'seller_external_id'), col('TYPE', 'type'), col('CREATED', 'order_created_at')],
} satisfies Record<string, Column[]>;


/** "40% passing, 10% failing" from an embedded assessment summary. */
export function assessmentSummaryCell(row: Record<string, unknown>): unknown {
  const s = row.assessment_summary as Record<string, unknown> | null | undefined;
  if (!s || typeof s !== 'object') return s;
  if (typeof s.passing_percentage === 'number' || typeof s.failing_percentage === 'number') {
    return `${s.passing_percentage ?? 0}% passing, ${s.failing_percentage ?? 0}% failing`;
  }
  return JSON.stringify(s);
}

/** "EUDR 25BE… (complete), PPWR #31 (draft)" from embedded statements. */
export function statementsCell(row: Record<string, unknown>): unknown {
  const list = row.due_diligence_statements;
  if (!Array.isArray(list)) return list;
  return list
    .map((s: Record<string, unknown>) => [s.type, s.dds_identifier || s.name || `#${s.id}`, s.status ? `(${s.status})` : ''].filter(Boolean).join(' '))
    .join(', ');
}

/** A location as a person reads it: "lat,lng" for a Point, else the geometry's type. */
function locationCell(row: Record<string, unknown>): unknown {
  const loc = row.location as { type?: unknown; coordinates?: unknown } | null | undefined;
  if (!loc || typeof loc !== 'object') return loc;
  const c = loc.coordinates;
  if (loc.type === 'Point' && Array.isArray(c) && c.length >= 2) return `${c[1]},${c[0]}`;
  return typeof loc.type === 'string' ? `${loc.type} (see -o json)` : JSON.stringify(loc);
}

const speciesCell = (row: Record<string, unknown>) => {
  const list = getPath(row, 'metadata.species');
  if (!Array.isArray(list)) return list;
  return list.map((sp: Record<string, unknown>) => [sp.common_name, sp.scientific_name ? `(${sp.scientific_name})` : ''].filter(Boolean).join(' ')).join(', ');
};

/** The assessment rows every assessed resource's view shows. */
const ASSESSED = [col('ASSESSMENT', 'assessment_status'), col('ASSESSMENT SUMMARY', 'assessment_summary', assessmentSummaryCell)];
const STAMPED = [col('CREATED', 'created_at', date('created_at')), col('UPDATED', 'updated_at', date('updated_at'))];

/**
 * The key/value view of one resource for people (`get`, and what create/update print); JSON
 * always carries the whole object. Orders have theirs beside their items table.
 */
export const DETAILS = {
  product: [
    col('ID', 'id'),
    col('SKU', 'sku'),
    col('NAME', 'name'),
    col('DESCRIPTION', 'description'),
    col('COMMODITY', 'commodity'),
    col('COMPOSITION', 'composition'),
    col('HS CODE', 'hs_code'),
    col('TYPE', 'type'),
    col('SPECIES', 'metadata.species', speciesCell),
    col('EXTERNAL ID', 'external_id'),
    ...ASSESSED,
    col('STATEMENTS', 'due_diligence_statements', statementsCell),
    col('TAGS', 'tags'),
    ...STAMPED,
  ],
  origin: [
    col('ID', 'id'),
    col('NAME', 'name'),
    col('DESCRIPTION', 'description'),
    col('COUNTRY', 'country', (r) => r.country ?? r.country_code),
    col('LOCATION', 'location', locationCell),
    col('EXTERNAL ID', 'external_id'),
    col('MAPPING ID', 'mapping_external_id'),
    ...ASSESSED,
    ...STAMPED,
  ],
  valueChain: [
    col('ID', 'id'),
    col('COMPANY', 'company_name'),
    col('DESCRIPTION', 'description'),
    col('TYPE', 'type'),
    col('STATUS', 'status'),
    col('COUNTRY', 'country', (r) => r.country ?? r.country_code),
    col('CONTACT', 'contact_name'),
    col('EXTERNAL ID', 'external_id'),
    col('PERMISSION GRANTED', 'permission_granted'),
    col('SELF-MANAGED', 'is_self_managed'),
    col('PARTNER COMPANY ID', 'reciprocal_company_id'),
    ...ASSESSED,
    col('TAGS', 'tags'),
    ...STAMPED,
  ],
  invitation: [
    col('ID', 'id'),
    col('EMAIL', 'email'),
    col('STATUS', 'status'),
    col('ROLE', 'auth_group_detail.name', (r) => {
      const name = getPath(r, 'auth_group_detail.name');
      return name ? `${name} (${r.auth_group})` : r.auth_group;
    }),
    col('INVITED BY', 'invited_by_detail', (r) => {
      const who = [getPath(r, 'invited_by_detail.first_name'), getPath(r, 'invited_by_detail.last_name')].filter(Boolean).join(' ');
      const email = getPath(r, 'invited_by_detail.email');
      return [who, email ? `<${email}>` : ''].filter(Boolean).join(' ') || r.invited_by;
    }),
    col('CREATED', 'created_at'),
    col('EXPIRES', 'expires_at'),
  ],
  statement: [
    col('ID', 'id'),
    col('TYPE', 'type'),
    col('NAME', 'name'),
    col('STATUS', 'status'),
    col('IDENTIFIER', 'dds_identifier'),
    col('ORDERS', 'orders'),
    col('PRODUCTS', 'products'),
    col('ASSESSMENT RUNS', 'assessment_run_ids'),
    col('REGISTRY STATUS', 'metadata.eu_registry_status'),
    col('REGISTRY DATA', 'dds_data'),
    col('ASSESSMENT', 'assessment_status'),
    ...STAMPED,
  ],
} satisfies Record<string, Column[]>;

/** `--columns a,b.c` as columns headed by their paths. */
export function columnsFromFlag(flag: string): Column[] {
  return flag
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => ({ header: p, path: p }));
}

/** A `--columns` path as a table header, read like the default ones: `buyer_product.name` → `BUYER PRODUCT NAME`. */
export function headerFromPath(path: string): string {
  return path.replace(/[._]+/g, ' ').trim().toUpperCase() || path;
}

/** `--columns` for a table or a detail view: the same paths, with headers like the defaults (CSV keeps the paths). */
export function tableColumnsFromFlag(flag: string): Column[] {
  return columnsFromFlag(flag).map((c) => ({ ...c, header: headerFromPath(c.path) }));
}

export function cellValue(row: Record<string, unknown>, column: Column): unknown {
  return column.value ? column.value(row) : getPath(row, column.path);
}

/** One reader per column, prepared once for a whole listing. */
export function cellReaders(columns: Column[]): ((row: Record<string, unknown>) => unknown)[] {
  return columns.map((c) => c.value ?? (pathGetter(c.path) as (row: Record<string, unknown>) => unknown));
}
