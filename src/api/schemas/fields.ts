// The fields each resource has by the API documents (api/supply-chain.md, api/accounts.md), in
// the documents' order: for `--columns`/`--json FIELDS` (a name not here is a typo, refused
// before anything is sent) and for the columns of `-o csv`, which are these fields whatever the
// data (an object field the documents describe field by field is flattened by dotted name).
// Documents, data exchange runs and risk assessments have no documented fields: any name goes.
// A dotted path is checked as deep as the documents list fields (`seller_company.nmae` is refused;
// below a field whose own fields they do not list, any path goes).
//
// A field the documents type as "any" (assessment_summary, dds_data, mapping_information) is one
// column, its value as JSON. Where they are silent on an object's fields, the field is one column.

/**
 * A field, or an object field with its own documented fields: `{ country: COUNTRY }`. A list
 * of such objects (an order's items) is `{ items: listOf(ORDER_ITEM) }`: its element's fields
 * are checked and picked (`--json items.id`), but it stays one column of `-o csv`.
 */
export type Field = string | { readonly [object: string]: readonly Field[] };

const LIST = Symbol('a list of objects');

/** The fields of each element of a list field. */
function listOf(fields: readonly Field[]): readonly Field[] {
  return Object.assign([...fields], { [LIST]: true });
}

function isList(fields: readonly Field[]): boolean {
  return (fields as { [LIST]?: boolean })[LIST] === true;
}

const STAMPS = ['created_at', 'updated_at'];
const ASSESSED = ['assessment_status', 'assessment_summary', 'excluded_propagation_identifiers'];
const COUNTRY = ['name', 'alpha_2', 'alpha_3', 'numeric', 'official_name', 'flag', 'eu_status'];
const COMPANY = [
  'id', 'name', 'slug', 'type', 'city', 'country', 'default_currency', 'default_locale', 'data_room_consumer_id', 'nr_of_employees',
  'nr_of_locations', ...STAMPS,
];
/** pulse_params where the documents make it an object (orders, origins); a string elsewhere. */
const PULSE = ['identifier', 'model_identifier'];
const VALUE_CHAIN: Field[] = [
  'id', 'company_name', 'description', 'external_id', 'contact_name', 'pulse_params', 'type', 'status', 'country_code', { country: COUNTRY },
  'permission_granted', 'is_self_managed', 'reciprocal_company_id', { ownership_information: ['ownership_periods', 'sector_code', 'notes'] },
  { metadata: ['invitation_ids', 'requested_by_user_id'] }, 'tags', ...ASSESSED, ...STAMPS,
];
const PERSON = ['id', 'first_name', 'last_name', 'job_title', 'email'];
/** The workspace's company as the user profile and the active workspace show it (accounts.md). */
const PROFILE_COMPANY = [
  'id', 'name', 'type', 'country', 'credits_used', 'nr_of_employees', 'nr_of_locations', 'nr_of_transactions', 'minimum_date_filter',
  'results_limit_earliest_year', 'results_limit_latest_year', 'min_transaction_date', 'max_transaction_date', 'integration_consumer_id',
  'default_currency', 'default_locale', 'data_room_consumer_id', 'information', 'pulse_params', 'flags',
];
const ROLE = ['id', 'name'];
const SPECIES = ['common_name', 'scientific_name'];
/** A product as the documents list it (Product (response)), also inside orders and statements. */
const PRODUCT: Field[] = [
  'id', 'company_id', 'sku', 'name', 'description', 'scientific_name', 'common_name', 'hs_code', 'external_id', 'type', 'commodity',
  'composition', { metadata: [{ species: listOf(SPECIES) }] }, 'tags', 'due_diligence_statements', ...ASSESSED, ...STAMPS,
];
/** An order item's metadata ("Nested order item request"; the response's is "as above"). */
export const ITEM_METADATA_KEYS = ['percentage_estimation_or_deviation', 'supplementary_unit', 'supplementary_unit_qualifier'] as const;
/** Order item (response). */
const ORDER_ITEM: Field[] = [
  'id', 'order', 'buyer_product', 'seller_product', { buyer_product_detail: PRODUCT }, { seller_product_detail: PRODUCT }, 'volume', 'unit',
  'line_number', 'external_id', { metadata: [...ITEM_METADATA_KEYS] }, 'is_complete_match', 'seller_traced_suggestions',
  'traced_order_count', 'traced_origin_count', 'pulse_params', ...STAMPS, ...ASSESSED,
];
/** A statement embedded in an order's due_diligence_statements. */
const EMBEDDED_STATEMENT = ['id', 'company_id', 'type', 'name', 'dds_identifier', 'dds_data', 'status', 'pulse_params', ...STAMPS];
/** An element of a single statement's orders_detail. */
const ORDER_DETAIL = [
  'id', 'type', 'buyer_external_id', 'seller_external_id', 'border_cross_country_code', 'buyer_company_id', 'seller_company_id',
  'order_created_at', 'order_arrival_at', 'buyer_company_status', 'seller_company_status', 'assessment_status',
];

/** Typed as shapes, keyed by resource (`satisfies` would infer each object literal's own type). */
const shapes = <K extends string>(s: Record<K, readonly Field[]>) => s;

export const RESOURCE_SHAPES = shapes({
  order: [
    'id', 'company_id', 'type', 'external_id', 'buyer_external_id', 'seller_external_id', 'order_created_at', 'order_arrival_at',
    'buyer_company_status', 'seller_company_status', 'value_chain', { value_chain_detail: VALUE_CHAIN }, 'buyer_company_id', 'seller_company_id',
    { company: COMPANY }, { buyer_company: COMPANY }, { seller_company: COMPANY }, { items: listOf(ORDER_ITEM) }, 'signed_off_at',
    { due_diligence_statements: listOf(EMBEDDED_STATEMENT) },
    'border_cross_country_code', { border_cross_country: COUNTRY }, { pulse_params: PULSE }, 'tags', ...ASSESSED, ...STAMPS,
  ],
  product: PRODUCT,
  origin: [
    // location is "any" in the documents; sct sends and reads a GeoJSON geometry (schemas/origins.ts).
    'id', 'name', 'description', 'country_code', { country: COUNTRY }, { location: ['type', 'coordinates'] }, 'external_id', 'mapping_external_id',
    'mapping_information', { pulse_params: PULSE }, ...ASSESSED, ...STAMPS,
  ],
  valueChain: VALUE_CHAIN,
  statement: [
    'id', 'type', 'name', 'status', 'dds_identifier', 'dds_data', 'orders', 'products', 'assessment_run_ids',
    { metadata: ['eu_registry_status', 'eu_registry_status_observed_at', 'submitted_at', 'was_filed'] }, 'pulse_params',
    { orders_detail: listOf(ORDER_DETAIL) }, { products_detail: listOf(PRODUCT) }, ...ASSESSED, ...STAMPS,
  ],
  // A role as the documents show one wherever it is embedded (auth_group_detail: id, name).
  role: ROLE,
  // An item as `orders trace` prints it from the PATCH's answer: with the trace it was sent
  // (the request's item fields), which the service gives back.
  orderItem: [...ORDER_ITEM, { trace: ['traced_orders', 'traced_origins'] }],
  // Not the service's: what a dry run prints of each request it would send (any path under body).
  plannedRequest: ['method', 'path', 'body'],
  // Not the service's either: objects sct makes itself, whose fields it knows. A typo in --json
  // is refused here as for the service's resources, not answered with {}.
  version: ['version', 'node', 'platform', 'arch'],
  authStatus: [
    'profile', 'base_url', 'base_url_source', { user: ['id', 'name', 'email'] }, { company: ['id', 'name'] }, 'role', 'token', 'token_source',
    'token_storage',
  ],
  configPath: ['path'],
  // `config list` (the profile's stored keys, the token masked) and `auth token`; `config get KEY`
  // prints the field KEY alone, and refuses another itself.
  configList: ['profile', 'base_url', 'token', 'workspace', 'output', 'token_storage'],
  authToken: ['token'],
  // A row's outcome in a bulk run, in -o json and ndjson; in a table or -o csv, as the report
  // has it (bulkOutcomeRow: one `line` cell, the field errors in `error`).
  bulkOutcome: ['lines', 'key', 'status', 'id', 'error', 'fields'],
  bulkOutcomeRow: ['line', 'key', 'status', 'id', 'error'],
  // A finding of `origins check` (cli-spec "Geolocation of origins"; code: the registry's).
  finding: ['file', 'feature', 'id', 'name', 'level', 'message', 'position', 'code'],
  profile: ['name', 'current', 'base_url', 'token_storage', 'token_held_back'],
  doctorCheck: ['name', 'level', 'detail'],
  // `workspaces switch` with -o json: the accounts.md answer (message) and what sct recorded.
  workspaceSwitch: ['company_id', 'message', 'profile'],
  workspace: ['workspace_id', 'workspace_name', 'id', 'name', 'type', 'country', 'member_count', 'is_mfa_enabled', ...STAMPS],
  member: ['id', 'user', { user_detail: PERSON }, 'auth_group', { auth_group_detail: ROLE }, 'data_room_consumer_id', ...STAMPS],
  user: ['id', 'username', 'first_name', 'last_name', 'account', 'user_group', 'auth_group'],
  // The document's table leaves out the e-mail every invitation carries (and the list filters on).
  invitation: ['id', 'email', 'status', 'auth_group', { auth_group_detail: ROLE }, 'invited_by', { invited_by_detail: PERSON }, 'created_at', 'expires_at'],
  country: COUNTRY,
  // As the document's table: no e-mail (the profile names it only by support_email_hash).
  me: [
    'id', 'first_name', 'last_name', 'job_title', 'identity_uid', 'is_mfa_enrolled', 'is_mfa_required', 'is_staff', 'active_user_company_id',
    'data_room_consumer_id', 'support_email_hash', { user_company: ['id', 'user_id', 'company_id', 'auth_group_id', 'data_room_consumer_id', 'config'] },
    { company: PROFILE_COMPANY }, { auth_group: ['id', 'name', 'permissions'] },
  ],
  company: PROFILE_COMPANY,
  // Each row of GET /orders/statistics, as supply-chain.md lists it under the endpoint.
  orderStatistics: ['order_count', 'date', 'type', 'buyer_company_status', 'seller_company_status', 'assessment_status', 'value_chain_id'],
  // An order available for tracing (the elements of each result's results array).
  availableOrder: ['id', 'buyer_external_id', 'seller_external_id', 'order_created_at', 'type'],
  // The anonymous view of an invitation (accounts.md, "Public invitation view").
  publicInvitation: [
    'id',
    {
      company: [
        'id', 'name', 'slug', 'type', 'country', 'default_currency', 'default_locale', 'results_limit_earliest_year', 'results_limit_latest_year',
        'information', 'integration_consumer_id', 'data_room_consumer_id', 'pulse_params', 'flags', ...STAMPS,
      ],
    },
    'auth_group_id', 'is_existing_user', 'is_active', 'is_mfa_enabled',
  ],
});

export type DocumentedResource = keyof typeof RESOURCE_SHAPES;

/** Resources whose rows in a table and -o csv have other fields than in -o json: those rows' shape. */
export const FLAT_ROWS: Partial<Record<DocumentedResource, DocumentedResource>> = { bulkOutcome: 'bulkOutcomeRow' };

const topLevel = (shape: readonly Field[]): string[] => shape.flatMap((f) => (typeof f === 'string' ? [f] : Object.keys(f)));

/** Each resource's top-level field names, in order. */
export const RESOURCE_FIELDS = Object.fromEntries(Object.entries(RESOURCE_SHAPES).map(([r, shape]) => [r, topLevel(shape)])) as Record<
  DocumentedResource,
  string[]
>;

/** The dotted paths of a shape's leaves, in order: `-o csv`'s columns (a list is one, its JSON). */
export function flattenShape(shape: readonly Field[], prefix = ''): string[] {
  return shape.flatMap((f) =>
    typeof f === 'string'
      ? [prefix + f]
      : Object.entries(f).flatMap(([name, inner]) => (isList(inner) ? [prefix + name] : flattenShape(inner, `${prefix}${name}.`))),
  );
}
