// The documented filters of GET /accounts/user-companies/ (api/accounts.md).
import { withSuffixes, DATE_TIME_AND_DAY, PAGING, type ListFilters } from './keys.js';

export const MEMBER_FILTERS: ListFilters = {
  noun: 'members',
  keys: [
    ...withSuffixes('auth_group', ['in', 'isnull']),
    ...withSuffixes('auth_group__name', ['icontains', 'in']),
    ...['created_at', 'updated_at'].flatMap((f) => withSuffixes(f, DATE_TIME_AND_DAY)),
    ...['user__email', 'user__first_name', 'user__last_name'].flatMap((f) => withSuffixes(f, ['icontains', 'istartswith'])),
    ...withSuffixes('user__job_title', ['icontains']),
    ...PAGING,
  ],
  named: [],
};
