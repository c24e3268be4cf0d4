// The documented filters of GET /accounts/user-invitations/ (api/accounts.md).
import { INVITATION_STATUSES } from '../enums.js';
import { withSuffixes, DATE_TIME_AND_DAY, DAY_RANGES, PAGING, type ListFilters } from './keys.js';

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
  // revoke and renew take the same flags, sent as the filter object of their request.
  named: [
    { flag: '--id <uuids>', help: 'only these invitation ids, comma-separated or repeated', value: 'custom', list: true, keys: ['id', 'id__in'] },
    { flag: '--exclude-id <uuids>', help: 'leave out these invitation ids, comma-separated or repeated', value: 'custom', list: true, keys: ['id__exclude_in'] },
    { flag: '--email <address>', help: 'this e-mail address exactly', value: 'text', key: 'email' },
    { flag: '--email-contains <text>', help: 'e-mail contains (case-insensitive)', value: 'text', key: 'email__icontains' },
    // Several statuses repeat the key (status=a&status=b): the list has no status__in.
    { flag: '--status <list>', help: 'status, comma-separated or repeated', value: 'custom', list: true, values: INVITATION_STATUSES, keys: ['status'] },
    // Role names sct does not know yet are learnt from the service (the user's profile and the
    // company's members: src/commands/shared/roles.ts).
    { flag: '--role <roles>', help: 'role(s): names (admin, any case) or ids, comma-separated or repeated', value: 'custom', list: true, keys: ['auth_group', 'auth_group__in'] },
    { flag: '--role-name <names>', help: 'role name(s), comma-separated or repeated (e.g. ADMIN)', value: 'list', key: 'auth_group__name' },
    { flag: '--invited-by <user-id>', help: 'invited by this user id', value: 'custom', keys: ['invited_by'] },
    DAY_RANGES[0],
    { flag: '--expires', help: ['expires on or after (YYYY-MM-DD)', 'expires on or before (YYYY-MM-DD)'], value: 'days', key: 'expires_at__date' },
  ],
  repeatable: ['status'],
} as const satisfies ListFilters;

/** What a revoke or renew may write: pending invitations, an expired one being pending underneath. */
export const WRITABLE_INVITATION_STATUSES = ['pending', 'expired'] as const;

/**
 * The same flags for revoke and renew, whose --status (in help and completion) offers only the
 * statuses they write.
 */
export const INVITATION_OPERATION_FILTERS = {
  ...INVITATION_FILTERS,
  named: INVITATION_FILTERS.named.map((f) =>
    f.flag === '--status <list>' ? { ...f, help: 'status, comma-separated or repeated; an expired invitation is pending underneath', values: WRITABLE_INVITATION_STATUSES } : f,
  ),
} as unknown as typeof INVITATION_FILTERS;

/**
 * The keys api/accounts.md allows in the invitation_filters of a bulk revoke or renew operation
 * (a list of its own in the documents, beside the list's query filters above).
 */
export const OPERATION_FILTER_KEYS = [
  'id', 'id__in', 'id__exclude_in', 'email', 'email__icontains', 'invited_by', 'auth_group', 'auth_group__in',
  'auth_group__name', 'auth_group__name__in', 'created_at__gte', 'created_at__lte', 'created_at__date',
  'created_at__date__gte', 'created_at__date__lte', 'expires_at__gte', 'expires_at__lte', 'expires_at__date',
  'expires_at__date__gte', 'expires_at__date__lte', 'search', 'status',
] as const;
