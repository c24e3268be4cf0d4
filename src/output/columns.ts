// Each resource's default table columns, in one place. `--columns` replaces them with any
// dotted paths (in json/ndjson too, see output/fields.ts).
import { getPath, pathGetter } from './values.js';

export interface Column {
  header: string;
  path: string;
  /** Derives the cell from the whole row when the path alone does not say it. */
  value?: (row: Record<string, unknown>) => unknown;
  /** How much the column matters when a terminal is too narrow for all (see COLUMNS). */
  priority?: Priority;
}

/**
 * At a narrow terminal a table leaves out its lowest-ranked columns first (output/table.ts):
 * 5 what names the row (its id, an invitation's e-mail), 4 what it is and its main state (name,
 * external id, status, assessment), 3 useful context (a country, a date that matters), 2
 * secondary facts (a type, counts), 1 what is derived or seldom looked at (the buyer's own status
 * of an order, who sent an invitation). The reasons are in docs/decisions/tables.md.
 */
type Priority = 1 | 2 | 3 | 4 | 5;

const col = (header: string, path: string, priority: Priority, value?: Column['value']): Column => ({ header, path, priority, value });
/** A row of a key/value view (DETAILS): every row is shown, so none has a priority. */
const field = (header: string, path: string, value?: Column['value']): Column => ({ header, path, value });
const count = (path: string) => (row: Record<string, unknown>) => {
  const v = getPath(row, path);
  return Array.isArray(v) ? v.length : '';
};
const date = (path: string) => (row: Record<string, unknown>) => {
  const v = getPath(row, path);
  // The date of a date-time; any other text is shown as it came, never cut (a pipe cuts nothing).
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(?:[T ]|$)/.test(v) ? v.slice(0, 10) : v;
};

export const COLUMNS = {
  order: [
    col('ID', 'id', 5),
    col('EXTERNAL ID', 'external_id', 4),
    col('TYPE', 'type', 2),
    // The counterpart is whichever side is not us; the command picks the perspective.
    col('COUNTERPART', 'counterpart', 4),
    // The buyer's status follows from the seller's (waiting_for_supplier, ready_for_review…);
    // the seller's is the trace itself (untraced, pending, passing, failing).
    col('BUYER STATUS', 'buyer_company_status', 1),
    col('SELLER STATUS', 'seller_company_status', 4),
    col('ASSESSMENT', 'assessment_status', 4),
    col('CREATED', 'order_created_at', 3),
    col('ITEMS', 'items', 2, count('items')),
    col('DDS', 'due_diligence_statements', 3, count('due_diligence_statements')),
  ],
  orderItem: [
    col('ID', 'id', 5),
    col('LINE', 'line_number', 3),
    col('EXTERNAL ID', 'external_id', 3),
    col('BUYER PRODUCT', 'buyer_product_detail.name', 4),
    col('SELLER PRODUCT', 'seller_product_detail.name', 3),
    col('VOLUME', 'volume', 4),
    col('UNIT', 'unit', 4),
    col('TRACED ORDERS', 'traced_order_count', 2),
    col('TRACED ORIGINS', 'traced_origin_count', 2),
    col('ASSESSMENT', 'assessment_status', 4),
  ],
  orderStatistics: [
    col('DATE', 'date', 5),
    col('TYPE', 'type', 3),
    col('BUYER STATUS', 'buyer_company_status', 2),
    col('SELLER STATUS', 'seller_company_status', 3),
    col('ASSESSMENT', 'assessment_status', 4),
    col('VALUE CHAIN', 'value_chain_id', 2),
    col('ORDERS', 'order_count', 5),
  ],
  product: [
    col('ID', 'id', 5),
    col('SKU', 'sku', 4),
    col('NAME', 'name', 4),
    col('COMMODITY', 'commodity', 3),
    col('COMPOSITION', 'composition', 2),
    col('HS CODE', 'hs_code', 2),
    col('ASSESSMENT', 'assessment_status', 4),
    col('CREATED', 'created_at', 1, date('created_at')),
  ],
  origin: [
    col('ID', 'id', 5),
    col('NAME', 'name', 4),
    col('COUNTRY', 'country', 3, (r) => r.country ?? r.country_code),
    col('EXTERNAL ID', 'external_id', 3),
    col('ASSESSMENT', 'assessment_status', 4),
    col('CREATED', 'created_at', 1, date('created_at')),
  ],
  valueChain: [
    col('ID', 'id', 5),
    col('COMPANY', 'company_name', 4),
    col('TYPE', 'type', 2),
    col('STATUS', 'status', 4),
    col('COUNTRY', 'country', 3, (r) => r.country ?? r.country_code),
    col('CONTACT', 'contact_name', 2),
    col('ASSESSMENT', 'assessment_status', 4),
  ],
  statement: [
    col('ID', 'id', 5),
    col('TYPE', 'type', 3),
    col('NAME', 'name', 3),
    col('STATUS', 'status', 4),
    col('IDENTIFIER', 'dds_identifier', 4),
    col('ORDERS', 'orders', 2, count('orders')),
    col('PRODUCTS', 'products', 2, count('products')),
    col('CREATED', 'created_at', 1, date('created_at')),
  ],
  invitation: [
    // revoke and renew find invitations by e-mail; the uuid is for `get` and scripts.
    col('ID', 'id', 3),
    col('EMAIL', 'email', 5),
    col('ROLE', 'auth_group_detail.name', 3),
    col('STATUS', 'status', 4),
    col('INVITED BY', 'invited_by_detail.email', 1),
    col('EXPIRES', 'expires_at', 2, date('expires_at')),
  ],
  member: [
    col('ID', 'id', 5),
    col('NAME', 'user_detail', 4, (r) =>
      [getPath(r, 'user_detail.first_name'), getPath(r, 'user_detail.last_name')].filter(Boolean).join(' '),
    ),
    col('EMAIL', 'user_detail.email', 4),
    col('JOB TITLE', 'user_detail.job_title', 2),
    col('ROLE', 'auth_group_detail.name', 3),
  ],
  user: [col('ID', 'id', 5), col('USERNAME', 'username', 4), col('FIRST NAME', 'first_name', 3), col('LAST NAME', 'last_name', 3), col('ROLE', 'auth_group', 3)],
  workspace: [
    col('CURRENT', 'current', 5, (r) => (r.current ? '*' : '')),
    col('ID', 'workspace_id', 5, (r) => r.workspace_id ?? r.id),
    col('NAME', 'workspace_name', 4, (r) => r.workspace_name ?? r.name),
    col('TYPE', 'type', 2),
    col('COUNTRY', 'country', 2),
    col('MEMBERS', 'member_count', 2),
    col('MFA', 'is_mfa_enabled', 1),
  ],
  country: [
    col('CODE', 'alpha_2', 5),
    col('NAME', 'name', 4, (r) => [r.flag, r.name].filter(Boolean).join(' ')),
    col('ALPHA-3', 'alpha_3', 2),
    col('EU STATUS', 'eu_status', 3),
  ],
  document: [
    col('ID', 'id', 5),
    col('NAME', 'name', 4),
    col('TYPE', 'content_type', 2),
    col('SIZE', 'size', 2),
    col('STATUS', 'status', 4),
    col('CREATED', 'created_at', 3, date('created_at')),
  ],
  importRun: [col('ID', 'id', 5), col('NAME', 'name', 4), col('TYPE', 'type', 3), col('STATUS', 'status', 4), col('CREATED', 'created_at', 3, date('created_at'))],
  riskAssessment: [
    col('ID', 'id', 5),
    col('IDENTIFIER', 'identifier', 4),
    col('NAME', 'name', 3),
    col('STATUS', 'status', 4),
    col('RISK LEVEL', 'risk_level', 4),
    col('CREATED', 'created_at', 1, date('created_at')),
  ],
  traceResult: [
    col('DDS', 'dds_id', 5),
    col('ADDED ORDERS', 'added_orders', 4, (r) => (Array.isArray(r.added_orders) ? r.added_orders.join(',') : '')),
    col('TOTAL ORDERS', 'total_orders', 3),
    col('MESSAGE', 'message', 2),
  ],
  availableOrder: [
    col('ID', 'id', 5),
    col('BUYER EXTERNAL ID', 'buyer_external_id', 4),
    col('SELLER EXTERNAL ID', 'seller_external_id', 3),
    col('TYPE', 'type', 2),
    col('CREATED', 'order_created_at', 2),
  ],
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
const ASSESSED = [field('ASSESSMENT', 'assessment_status'), field('ASSESSMENT SUMMARY', 'assessment_summary', assessmentSummaryCell)];
const STAMPED = [field('CREATED', 'created_at', date('created_at')), field('UPDATED', 'updated_at', date('updated_at'))];

/**
 * The key/value view of one resource for people (`get`, and what create/update print); JSON
 * always carries the whole object. Orders have theirs beside their items table.
 */
export const DETAILS = {
  product: [
    field('ID', 'id'),
    field('SKU', 'sku'),
    field('NAME', 'name'),
    field('DESCRIPTION', 'description'),
    field('COMMODITY', 'commodity'),
    field('COMPOSITION', 'composition'),
    field('HS CODE', 'hs_code'),
    field('TYPE', 'type'),
    field('SPECIES', 'metadata.species', speciesCell),
    field('EXTERNAL ID', 'external_id'),
    ...ASSESSED,
    field('STATEMENTS', 'due_diligence_statements', statementsCell),
    field('TAGS', 'tags'),
    ...STAMPED,
  ],
  origin: [
    field('ID', 'id'),
    field('NAME', 'name'),
    field('DESCRIPTION', 'description'),
    field('COUNTRY', 'country', (r) => r.country ?? r.country_code),
    field('LOCATION', 'location', locationCell),
    field('EXTERNAL ID', 'external_id'),
    field('MAPPING ID', 'mapping_external_id'),
    ...ASSESSED,
    ...STAMPED,
  ],
  valueChain: [
    field('ID', 'id'),
    field('COMPANY', 'company_name'),
    field('DESCRIPTION', 'description'),
    field('TYPE', 'type'),
    field('STATUS', 'status'),
    field('COUNTRY', 'country', (r) => r.country ?? r.country_code),
    field('CONTACT', 'contact_name'),
    field('EXTERNAL ID', 'external_id'),
    field('PERMISSION GRANTED', 'permission_granted'),
    field('SELF-MANAGED', 'is_self_managed'),
    field('PARTNER COMPANY ID', 'reciprocal_company_id'),
    ...ASSESSED,
    field('TAGS', 'tags'),
    ...STAMPED,
  ],
  invitation: [
    field('ID', 'id'),
    field('EMAIL', 'email'),
    field('STATUS', 'status'),
    field('ROLE', 'auth_group_detail.name', (r) => {
      const name = getPath(r, 'auth_group_detail.name');
      return name ? `${name} (${r.auth_group})` : r.auth_group;
    }),
    field('INVITED BY', 'invited_by_detail', (r) => {
      const who = [getPath(r, 'invited_by_detail.first_name'), getPath(r, 'invited_by_detail.last_name')].filter(Boolean).join(' ');
      const email = getPath(r, 'invited_by_detail.email');
      return [who, email ? `<${email}>` : ''].filter(Boolean).join(' ') || r.invited_by;
    }),
    field('CREATED', 'created_at'),
    field('EXPIRES', 'expires_at'),
  ],
  statement: [
    field('ID', 'id'),
    field('TYPE', 'type'),
    field('NAME', 'name'),
    field('STATUS', 'status'),
    field('IDENTIFIER', 'dds_identifier'),
    field('ORDERS', 'orders'),
    field('PRODUCTS', 'products'),
    field('ASSESSMENT RUNS', 'assessment_run_ids'),
    field('REGISTRY STATUS', 'metadata.eu_registry_status'),
    field('REGISTRY DATA', 'dds_data'),
    field('ASSESSMENT', 'assessment_status'),
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
