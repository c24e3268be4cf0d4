// Every API path sct uses, relative to the base URL (which ends in /api). Paths the API
// documents leave out ("not shown") are the ones cli-spec.md assumes; a change is one line here.

import type { OrderKindName as OrderKind } from './enums.js';

const id = (v: string | number) => encodeURIComponent(String(v));

export const PATHS = {
  // Orders
  orders: '/orders',
  order: (orderId: string | number) => `/orders/${id(orderId)}`,
  orderStatistics: '/orders/statistics',
  ordersOfKind: (kind: OrderKind) => `/orders/${kind}`,
  orderOfKind: (kind: OrderKind, orderId: string | number) => `/orders/${kind}/${id(orderId)}`,

  // Catalogue
  products: '/products',
  product: (v: string | number) => `/products/${id(v)}`,
  origins: '/origins',
  origin: (v: string | number) => `/origins/${id(v)}`,
  valueChains: '/value-chains',
  valueChain: (v: string | number) => `/value-chains/${id(v)}`,

  // Due diligence statements (paths assumed by cli-spec.md)
  statements: '/due-diligence-statements',
  statement: (v: string | number) => `/due-diligence-statements/${id(v)}`,
  statementAvailableOrders: '/due-diligence-statements/available-orders',
  statementTraceOrders: '/due-diligence-statements/trace-orders',

  informationRequestsBulk: '/information-requests/bulk',

  // Files and runs
  documents: '/documents',
  document: (v: string | number) => `/documents/${id(v)}`,
  documentConfirmUpload: (v: string | number) => `/documents/${id(v)}/confirm_upload`,
  documentDownload: (v: string | number) => `/documents/${id(v)}/download`,
  imports: '/imports',
  importRun: (v: string | number) => `/imports/${id(v)}`,
  riskAssessments: '/compliance/risk-assessments',
  riskEvidence: (v: string | number) => `/compliance/risk-assessments/${id(v)}/evidence-downloads`,

  // Accounts
  me: '/accounts/me',
  countries: '/accounts/countries',
  country: (v: string | number) => `/accounts/countries/${id(v)}`,
  userConfig: '/accounts/user-config',
  workspaces: '/accounts/workspaces',
  workspacesGrouped: '/accounts/workspaces/grouped',
  workspaceSwitch: '/accounts/workspaces/switch',
  members: '/accounts/user-companies',
  member: (v: string | number) => `/accounts/user-companies/${id(v)}`,
  users: '/accounts/users',
  invitations: '/accounts/user-invitations',
  invitation: (v: string) => `/accounts/user-invitations/${id(v)}`,
  invitationPublic: (v: string) => `/accounts/user-invitations/public/${id(v)}`,
  invitationsBulkCreate: '/accounts/user-invitations/bulk-create',
  invitationsBulkRevoke: '/accounts/user-invitations/bulk-revoke',
  invitationsRenew: '/accounts/user-invitations/renew',
  invitationsBulkRenew: '/accounts/user-invitations/bulk-renew',
} as const;

/**
 * The fixed paths sct assumes where the API documents show none (cli-spec.md, "Paths the API
 * documents do not show"): a 404 on one says the service has no such path, not no such object.
 */
export const ASSUMED_PATHS: ReadonlySet<string> = new Set([
  PATHS.statements,
  PATHS.statementAvailableOrders,
  PATHS.statementTraceOrders,
  PATHS.informationRequestsBulk,
  PATHS.me,
  PATHS.members,
  PATHS.users,
  PATHS.invitations,
  PATHS.invitationsBulkCreate,
  PATHS.invitationsBulkRevoke,
  PATHS.invitationsRenew,
  PATHS.invitationsBulkRenew,
  PATHS.workspacesGrouped,
  PATHS.workspaceSwitch,
]);

