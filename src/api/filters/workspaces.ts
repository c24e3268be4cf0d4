// The documented filters of GET /accounts/workspaces/ (api/accounts.md).
import { withSuffixes, PAGING, type ListFilters } from './keys.js';

export const WORKSPACE_FILTERS: ListFilters = {
  noun: 'workspaces',
  keys: [
    ...withSuffixes('country', ['icontains', 'iendswith', 'istartswith', 'in']),
    ...withSuffixes('name', ['icontains', 'iendswith', 'istartswith']),
    'type', 'type__exclude', 'type__in',
    ...PAGING,
  ],
  named: [],
};
