// The fields each resource has by the API documents (api/supply-chain.md, api/accounts.md), for
// `--columns`/`--json FIELDS`: a name not here is a typo, refused before anything is sent.
// Documents, data exchange runs and risk assessments have no documented fields: any name goes.
// Only the first segment of a dotted path is checked (`seller_company.name` → `seller_company`).

const STAMPS = ['created_at', 'updated_at'];
const ASSESSED = ['assessment_status', 'assessment_summary', 'excluded_propagation_identifiers'];

export const RESOURCE_FIELDS = {
  order: [
    'id', 'company_id', 'type', 'external_id', 'buyer_external_id', 'seller_external_id', 'order_created_at', 'order_arrival_at',
    'buyer_company_status', 'seller_company_status', 'value_chain', 'value_chain_detail', 'buyer_company_id', 'seller_company_id',
    'company', 'buyer_company', 'seller_company', 'items', 'signed_off_at', 'due_diligence_statements', 'border_cross_country_code',
    'border_cross_country', 'pulse_params', 'tags', ...ASSESSED, ...STAMPS,
  ],
  product: [
    'id', 'company_id', 'sku', 'name', 'description', 'scientific_name', 'common_name', 'hs_code', 'external_id', 'type', 'commodity',
    'composition', 'metadata', 'tags', 'due_diligence_statements', ...ASSESSED, ...STAMPS,
  ],
  origin: [
    'id', 'name', 'description', 'country_code', 'country', 'location', 'external_id', 'mapping_external_id', 'mapping_information',
    'pulse_params', ...ASSESSED, ...STAMPS,
  ],
  valueChain: [
    'id', 'company_name', 'description', 'external_id', 'contact_name', 'pulse_params', 'type', 'status', 'country_code', 'country',
    'permission_granted', 'is_self_managed', 'reciprocal_company_id', 'ownership_information', 'metadata', 'tags', ...ASSESSED, ...STAMPS,
  ],
  statement: [
    'id', 'type', 'name', 'status', 'dds_identifier', 'dds_data', 'orders', 'products', 'assessment_run_ids', 'metadata', 'pulse_params',
    'orders_detail', 'products_detail', ...ASSESSED, ...STAMPS,
  ],
  workspace: ['workspace_id', 'workspace_name', 'id', 'name', 'type', 'country', 'member_count', 'is_mfa_enabled', ...STAMPS],
  member: ['id', 'user', 'user_detail', 'auth_group', 'auth_group_detail', 'data_room_consumer_id', ...STAMPS],
  user: ['id', 'username', 'first_name', 'last_name', 'account', 'user_group', 'auth_group'],
  // The document's table leaves out the e-mail every invitation carries (and the list filters on).
  invitation: ['id', 'email', 'status', 'auth_group', 'auth_group_detail', 'invited_by', 'invited_by_detail', 'created_at', 'expires_at'],
  country: ['name', 'alpha_2', 'alpha_3', 'numeric', 'official_name', 'flag', 'eu_status'],
} satisfies Record<string, string[]>;

export type DocumentedResource = keyof typeof RESOURCE_FIELDS;
