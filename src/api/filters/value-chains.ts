// The filters of GET /value-chains/: the documents show none, so `keys` is empty (any --filter
// key goes without a word, and `sct help filters` does not list it); the named flags are sct's.
import { ASSESSMENT_STATUSES, KNOWN_VALUE_CHAIN_STATUSES, KNOWN_VALUE_CHAIN_TYPES } from '../enums.js';
import { idFilters, DAY_RANGES, type ListFilters } from './keys.js';

export const VALUE_CHAIN_FILTERS = {
  noun: 'value-chains',
  keys: [],
  named: [
    { flag: '--status <list>', help: `status, comma-separated or repeated (e.g. ${KNOWN_VALUE_CHAIN_STATUSES.join(', ')})`, value: 'list', key: 'status' },
    { flag: '--type <list>', help: `type, comma-separated or repeated (e.g. ${KNOWN_VALUE_CHAIN_TYPES.join(', ')})`, value: 'list', key: 'type' },
    { flag: '--country-code <codes>', help: 'country code(s), comma-separated or repeated (e.g. CI,GH)', value: 'countries', key: 'country_code' },
    { flag: '--assessment-status <list>', help: 'assessment status, comma-separated or repeated', value: 'enum', key: 'assessment_status', values: ASSESSMENT_STATUSES },
    { flag: '--company-name <text>', help: 'company name contains (case-insensitive)', value: 'text', key: 'company_name__icontains' },
    { flag: '--contact-name <text>', help: 'contact name contains (case-insensitive)', value: 'text', key: 'contact_name__icontains' },
    { flag: '--external-id <ids>', help: 'external id(s), comma-separated or repeated', value: 'list', key: 'external_id' },
    { flag: '--tag <name>', help: 'has this tag; comma-separated or repeated for any of several', value: 'list', key: 'tags__name' },
    { flag: '--permission-granted', help: 'only those that granted permission', value: 'custom', keys: ['permission_granted'] },
    { flag: '--no-permission-granted', help: 'only those that did not grant permission', value: 'custom', keys: ['permission_granted'] },
    { flag: '--self-managed', help: 'only self-managed ones', value: 'custom', keys: ['is_self_managed'] },
    { flag: '--no-self-managed', help: 'only ones that are not self-managed', value: 'custom', keys: ['is_self_managed'] },
    ...DAY_RANGES,
    ...idFilters('value chain'),
  ],
} as const satisfies ListFilters;
