// The service's vocabulary as plain data: enumerations, bounds and formats the API documents.
// Flags, help, completions and filters use them without loading zod; the request schemas
// (schemas/) are built on them.

export const COMMODITIES = ['cattle', 'cocoa', 'coffee', 'palm_oil', 'rubber', 'soya', 'wood'] as const;
export const COMPOSITIONS = ['simple', 'composite'] as const;
export const ASSESSMENT_STATUSES = ['pending', 'in_progress', 'passing', 'failing', 'mitigated'] as const;

export const ORDER_TYPES = ['order', 'produced_batch', 'manufactured_batch', 'product_chain'] as const;
export const BUYER_STATUSES = ['draft', 'waiting_for_supplier', 'ready_for_review', 'statement_ready', 'completed', 'closed'] as const;
export const SELLER_STATUSES = ['draft', 'untraced', 'pending', 'passing', 'failing', 'completed', 'closed'] as const;
export const ORDER_KINDS = ['purchase', 'sale', 'batch'] as const;
export type OrderKindName = (typeof ORDER_KINDS)[number];
const ORDER_ACTIONS = ['buying', 'selling'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];
export const STATISTICS_GROUP_BY = ['assessment_status', 'buyer_company_status', 'seller_company_status', 'type', 'value_chain_id'] as const;
export const STATISTICS_DELIMIT_BY = ['daily', 'monthly', 'yearly'] as const;

export const KNOWN_VALUE_CHAIN_TYPES = ['supplier', 'customer', 'processor', 'trader'] as const;
export const KNOWN_VALUE_CHAIN_STATUSES = ['invited', 'active', 'declined', 'inactive'] as const;

export const DDS_TYPES = ['EUDR', 'EUTR', 'PPWR'] as const;
export const DDS_STATUSES = ['draft', 'in_progress', 'complete', 'failed'] as const;
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export const WORKSPACE_TYPES = ['active', 'demo', 'inactive', 'stakeholder', 'test', 'trial'] as const;

export const COUNTRY_CODE_RE = /^[A-Za-z]{2}$/;

/** One bulk invitation request holds at most this many operations, and one renew operation matches at most this many invitations. */
export const BULK_LIMIT = 100;
