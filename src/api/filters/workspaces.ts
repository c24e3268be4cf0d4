// The documented filters of GET /accounts/workspaces/ (api/accounts.md).
import { WORKSPACE_TYPES } from '../enums.js';
import { withSuffixes, PAGING, type ListFilters } from './keys.js';

export const WORKSPACE_FILTERS = {
  noun: 'workspaces',
  keys: [
    ...withSuffixes('country', ['icontains', 'iendswith', 'istartswith', 'in']),
    ...withSuffixes('name', ['icontains', 'iendswith', 'istartswith']),
    'type', 'type__exclude', 'type__in',
    ...PAGING,
  ],
  named: [
    { flag: '--type <list>', help: 'workspace type, comma-separated or repeated', value: 'enum', key: 'type', values: WORKSPACE_TYPES },
    { flag: '--exclude-type <list>', help: 'leave out these workspace types, comma-separated or repeated', value: 'enum', key: 'type__exclude', values: WORKSPACE_TYPES },
    { flag: '--country-code <codes>', help: 'country code(s), comma-separated or repeated', value: 'countries', key: 'country' },
    { flag: '--name <text>', help: 'name contains (case-insensitive)', value: 'text', key: 'name__icontains' },
  ],
} as const satisfies ListFilters;
