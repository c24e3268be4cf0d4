// The documented filters of GET /orders/ (api/supply-chain.md).
import { ASSESSMENT_STATUSES, BUYER_STATUSES, COMMODITIES, ORDER_TYPES, SELLER_STATUSES } from '../enums.js';
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
  named: [
    { flag: '--type <list>', help: 'order type, comma-separated or repeated', value: 'enum', key: 'type', values: ORDER_TYPES },
    { flag: '--buyer-status <list>', help: 'buyer status, comma-separated or repeated', value: 'enum', key: 'buyer_company_status', values: BUYER_STATUSES },
    { flag: '--seller-status <list>', help: 'seller status, comma-separated or repeated', value: 'enum', key: 'seller_company_status', values: SELLER_STATUSES },
    { flag: '--assessment-status <list>', help: 'assessment status, comma-separated or repeated', value: 'enum', key: 'assessment_status', values: ASSESSMENT_STATUSES },
    { flag: '--created', help: ['order created on or after YYYY-MM-DD', 'order created on or before YYYY-MM-DD'], value: 'days', key: 'order_created_at' },
    { flag: '--arrival', help: ['arrival on or after YYYY-MM-DD', 'arrival on or before YYYY-MM-DD'], value: 'days', key: 'order_arrival_at' },
    { flag: '--value-chain <id>', help: 'value chain id', value: 'custom', keys: ['value_chain'] },
    { flag: '--tag <names>', help: 'tag name; comma-separated or repeated for any of several', value: 'list', key: 'tags__name' },
    // The commodity of the products on our own side of the order: what we buy, or what we sell.
    {
      flag: '--commodity <list>', help: "commodity of your side's products, comma-separated or repeated", value: 'custom', list: true, values: COMMODITIES,
      keys: ['items__buyer_product__commodity', 'items__buyer_product__commodity__in', 'items__seller_product__commodity', 'items__seller_product__commodity__in'],
    },
    { flag: '--has-dds', help: 'only orders with at least one due diligence statement', value: 'custom', keys: ['due_diligence_statements__isnull'] },
    { flag: '--no-dds', help: 'only orders without a due diligence statement', value: 'custom', keys: ['due_diligence_statements__isnull'] },
    { flag: '--traced-origin <ids>', help: 'orders with an item traced to this origin (ids comma-separated or repeated: any of them)', value: 'ids', key: 'items__traced_origins' },
  ],
} as const satisfies ListFilters;
