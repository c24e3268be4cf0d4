// Every list with documented filters, in the order `sct help filters` shows them. Lists absent
// here (products, value chains, countries, documents, imports, risk assessments) have filters the
// documents do not show: any `--filter` key goes there without a word.
import type { ListFilters } from './keys.js';
import { ORDER_FILTERS } from './orders.js';
import { ORIGIN_FILTERS } from './origins.js';
import { AVAILABLE_ORDER_FILTERS, DDS_FILTERS } from './dds.js';
import { WORKSPACE_FILTERS } from './workspaces.js';
import { MEMBER_FILTERS } from './members.js';
import { INVITATION_FILTERS } from './invitations.js';
import { USER_FILTERS } from './users.js';

export const LIST_FILTERS: readonly ListFilters[] = [
  ORDER_FILTERS, ORIGIN_FILTERS, DDS_FILTERS, AVAILABLE_ORDER_FILTERS, WORKSPACE_FILTERS, MEMBER_FILTERS, INVITATION_FILTERS, USER_FILTERS,
];
