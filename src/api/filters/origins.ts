// The documented filters of GET /origins/ (api/supply-chain.md).
import { withSuffixes, DATE_TIME_AND_DAY, PAGING, TEXT, type ListFilters } from './keys.js';

export const ORIGIN_FILTERS: ListFilters = {
  noun: 'origins',
  keys: [
    ...withSuffixes('assessment_status', ['in']),
    ...withSuffixes('country_code', ['in']),
    ...['created_at', 'updated_at'].flatMap((f) => withSuffixes(f, DATE_TIME_AND_DAY)),
    ...['description', 'name'].flatMap((f) => withSuffixes(f, TEXT)),
    ...withSuffixes('external_id', [...TEXT, 'in']),
    'failing_percentage_gte', 'passing_percentage_gte', 'id__in', 'id__exclude_in',
    ...PAGING,
  ],
  flags: {},
};
