// The documented filters of GET /origins/ (api/supply-chain.md).
import { ASSESSMENT_STATUSES } from '../enums.js';
import { withSuffixes, idFilters, DATE_TIME_AND_DAY, DAY_RANGES, PAGING, TEXT, type ListFilters } from './keys.js';

export const ORIGIN_FILTERS = {
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
  named: [
    { flag: '--country-code <codes>', help: 'country code(s), comma-separated or repeated (e.g. CI,GH)', value: 'countries', key: 'country_code' },
    { flag: '--assessment-status <list>', help: 'assessment status, comma-separated or repeated', value: 'enum', key: 'assessment_status', values: ASSESSMENT_STATUSES },
    { flag: '--name <text>', help: 'name contains (case-insensitive)', value: 'text', key: 'name__icontains' },
    { flag: '--description <text>', help: 'description contains (case-insensitive)', value: 'text', key: 'description__icontains' },
    { flag: '--external-id <ids>', help: 'external id(s), comma-separated or repeated', value: 'list', key: 'external_id' },
    ...DAY_RANGES,
    { flag: '--passing-min <percent>', help: 'at least this share of passing assessments (0..100)', value: 'percent', key: 'passing_percentage_gte' },
    { flag: '--failing-min <percent>', help: 'at least this share of failing assessments (0..100)', value: 'percent', key: 'failing_percentage_gte' },
    ...idFilters('origin'),
  ],
} as const satisfies ListFilters;
