// The documented filters of GET /due-diligence-statements/ (api/supply-chain.md).
import { DDS_STATUSES, DDS_TYPES } from '../enums.js';
import { withSuffixes, idFilters, DATE_TIME, PAGING, type ListFilters } from './keys.js';

export const DDS_FILTERS = {
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
  named: [
    { flag: '--type <list>', help: 'statement type, comma-separated or repeated', value: 'enum', key: 'type', values: DDS_TYPES },
    { flag: '--status <list>', help: 'status, comma-separated or repeated', value: 'enum', key: 'status', values: DDS_STATUSES },
    { flag: '--name <text>', help: 'name contains (case-insensitive)', value: 'text', key: 'name__icontains' },
    { flag: '--dds-identifier <list>', help: 'registry identifier(s), comma-separated or repeated', value: 'list', key: 'dds_identifier' },
    { flag: '--order <ids>', help: 'attached to any of these orders, comma-separated or repeated', value: 'ids', key: 'orders__in' },
    { flag: '--product <ids>', help: 'attached to any of these products, comma-separated or repeated', value: 'ids', key: 'products__in' },
    // Date-times as well as days: the command turns a day into its first or last instant.
    { flag: '--created-from <when>', help: 'created at or after (YYYY-MM-DD or an ISO 8601 date-time)', value: 'custom', keys: ['created_at__gte'] },
    { flag: '--created-to <when>', help: 'created at or before (YYYY-MM-DD: to the end of that day, UTC)', value: 'custom', keys: ['created_at__lte'] },
    { flag: '--updated-from <when>', help: 'updated at or after (YYYY-MM-DD or an ISO 8601 date-time)', value: 'custom', keys: ['updated_at__gte'] },
    { flag: '--updated-to <when>', help: 'updated at or before (YYYY-MM-DD: to the end of that day, UTC)', value: 'custom', keys: ['updated_at__lte'] },
    ...idFilters('statement'),
  ],
} as const satisfies ListFilters;

/** The documented query parameters of GET /due-diligence-statements/available-orders/. */
export const AVAILABLE_ORDER_FILTERS = {
  noun: 'dds',
  command: 'dds available-orders',
  keys: ['exclude_dds', ...PAGING],
  named: [
    // Several statements go as one comma-separated value of exclude_dds (listAvailableOrders).
    { flag: '--exclude-dds <ids>', help: 'leave out orders already traced to these statements, comma-separated or repeated', value: 'custom', keys: ['exclude_dds'], list: true },
  ],
} as const satisfies ListFilters;
