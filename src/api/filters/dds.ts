// The documented filters of GET /due-diligence-statements/ (api/supply-chain.md).
import { withSuffixes, DATE_TIME, PAGING, type ListFilters } from './keys.js';

export const DDS_FILTERS: ListFilters = {
  noun: 'dds',
  keys: [
    ...['created_at', 'updated_at'].flatMap((f) => withSuffixes(f, DATE_TIME)),
    ...withSuffixes('dds_identifier', ['icontains', 'in']),
    'id', 'id__in', 'id__exclude_in',
    ...withSuffixes('name', ['icontains', 'in']),
    'object_pulse_identifier', 'orders__in', 'products__in',
    ...withSuffixes('status', ['in']),
    ...withSuffixes('type', ['in']),
    ...PAGING,
  ],
  named: [],
};
