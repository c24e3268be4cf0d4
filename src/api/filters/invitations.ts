// The documented filters of GET /accounts/user-invitations/ (api/accounts.md).
import { withSuffixes, DATE_TIME_AND_DAY, PAGING, type ListFilters } from './keys.js';

export const INVITATION_FILTERS = {
  noun: 'invitations',
  keys: [
    ...withSuffixes('auth_group', ['in']),
    ...withSuffixes('auth_group__name', ['in']),
    ...['created_at', 'expires_at'].flatMap((f) => withSuffixes(f, DATE_TIME_AND_DAY)),
    ...withSuffixes('email', ['icontains']),
    'id', 'id__in', 'id__exclude_in', 'invited_by', 'status',
    ...PAGING,
  ],
  named: [],
} as const satisfies ListFilters;
