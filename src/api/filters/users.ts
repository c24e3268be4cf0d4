// The documented filters of GET /accounts/users/ (api/accounts.md).
import type { ListFilters } from './keys.js';

export const USER_FILTERS: ListFilters = { noun: 'users', keys: ['search', 'limit', 'offset'], named: [] };
