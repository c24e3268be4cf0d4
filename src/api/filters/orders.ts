// The documented filters of GET /orders/ (api/supply-chain.md).
import { withSuffixes, PAGING, type ListFilters } from './keys.js';

const productSide = (side: string) => [
  ...withSuffixes(`items__${side}`, ['in', 'isnull']),
  ...['sku', 'name'].flatMap((f) => withSuffixes(`items__${side}__${f}`, ['icontains', 'startswith', 'endswith'])),
  ...['commodity', 'composition'].flatMap((f) => withSuffixes(`items__${side}__${f}`, ['in'])),
];

export const ORDER_FILTERS = {
  noun: 'orders',
  keys: [
    'order_action',
    ...['type', 'buyer_company_status', 'seller_company_status', 'assessment_status'].flatMap((f) => withSuffixes(f, ['in'])),
    ...['order_created_at', 'order_arrival_at'].flatMap((f) => withSuffixes(f, ['gte', 'lte'])),
    'value_chain',
    ...withSuffixes('border_cross_country_code', ['in']),
    'id', 'id__in', 'id__exclude_in',
    'due_diligence_statements__isnull',
    ...withSuffixes('tags__name', ['icontains', 'in']),
    ...withSuffixes('tags__slug', ['in']),
    ...productSide('buyer_product'),
    ...productSide('seller_product'),
    ...withSuffixes('items__external_id', ['icontains', 'startswith', 'endswith', 'in']),
    'items__unit',
    ...withSuffixes('items__volume', ['gte', 'lte']),
    'items__traced_origins', 'items__traced_origins__in',
    'passing_percentage_gte', 'failing_percentage_gte',
    ...PAGING,
  ],
  named: [],
} as const satisfies ListFilters;
