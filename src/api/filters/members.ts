// The documented filters of GET /accounts/user-companies/ (api/accounts.md).
import { withSuffixes, DATE_TIME_AND_DAY, DAY_RANGES, PAGING, type ListFilters } from './keys.js';

export const MEMBER_FILTERS = {
  noun: 'members',
  keys: [
    ...withSuffixes('auth_group', ['in', 'isnull']),
    ...withSuffixes('auth_group__name', ['icontains', 'in']),
    ...['created_at', 'updated_at'].flatMap((f) => withSuffixes(f, DATE_TIME_AND_DAY)),
    ...['user__email', 'user__first_name', 'user__last_name'].flatMap((f) => withSuffixes(f, ['icontains', 'istartswith'])),
    ...withSuffixes('user__job_title', ['icontains']),
    ...PAGING,
  ],
  named: [
    // Role names sct does not know yet are learnt from the service (the user's profile and the
    // company's members: src/commands/shared/roles.ts).
    { flag: '--role <roles>', help: 'role(s): names (admin, any case) or ids, comma-separated or repeated', value: 'custom', keys: ['auth_group', 'auth_group__in'], list: true },
    { flag: '--role-name <names>', help: 'role name(s), comma-separated or repeated (e.g. ADMIN)', value: 'list', key: 'auth_group__name' },
    { flag: '--email <address>', help: 'this e-mail address exactly (as on invitations list)', value: 'text', key: 'user__email' },
    { flag: '--email-contains <text>', help: 'e-mail contains (case-insensitive)', value: 'text', key: 'user__email__icontains' },
    { flag: '--first-name <text>', help: 'first name contains (case-insensitive)', value: 'text', key: 'user__first_name__icontains' },
    { flag: '--last-name <text>', help: 'last name contains (case-insensitive)', value: 'text', key: 'user__last_name__icontains' },
    { flag: '--job-title <text>', help: 'job title contains (case-insensitive)', value: 'text', key: 'user__job_title__icontains' },
    ...DAY_RANGES,
  ],
} as const satisfies ListFilters;
