// Each list's documented query filters (api/supply-chain.md, api/accounts.md), for
// `sct help filters` and the warning on a `--filter` key that is not among them. Lists whose
// filters the documents do not show (products, value chains, countries, documents, imports,
// risk assessments) are absent: any key goes there without a word.

/** `name` with each suffix (and `name` itself when `bare`). */
function withSuffixes(name: string, suffixes: string[], bare = true): string[] {
  return [...(bare ? [name] : []), ...suffixes.map((s) => `${name}__${s}`)];
}
const DATE_TIME = ['gte', 'lte'];
const DATE_TIME_AND_DAY = ['gte', 'lte', 'date', 'date__gte', 'date__lte'];
const TEXT = ['startswith', 'endswith', 'icontains', 'iendswith', 'istartswith'];
const PAGING = ['search', 'ordering', 'limit', 'offset'];
const PRODUCT_SIDE = (side: string) => [
  ...withSuffixes(`items__${side}`, ['in', 'isnull']),
  ...['sku', 'name'].flatMap((f) => withSuffixes(`items__${side}__${f}`, ['icontains', 'startswith', 'endswith'])),
  ...['commodity', 'composition'].flatMap((f) => withSuffixes(`items__${side}__${f}`, ['in'])),
];

export const LIST_FILTERS: Record<string, string[]> = {
  'orders list': [
    'order_action',
    ...['type', 'buyer_company_status', 'seller_company_status', 'assessment_status'].flatMap((f) => withSuffixes(f, ['in'])),
    ...['order_created_at', 'order_arrival_at'].flatMap((f) => withSuffixes(f, ['gte', 'lte'])),
    'value_chain',
    ...withSuffixes('border_cross_country_code', ['in']),
    'id', 'id__in', 'id__exclude_in',
    'due_diligence_statements__isnull',
    ...withSuffixes('tags__name', ['icontains', 'in']),
    ...withSuffixes('tags__slug', ['in']),
    ...PRODUCT_SIDE('buyer_product'),
    ...PRODUCT_SIDE('seller_product'),
    ...withSuffixes('items__external_id', ['icontains', 'startswith', 'endswith', 'in']),
    'items__unit',
    ...withSuffixes('items__volume', ['gte', 'lte']),
    'items__traced_origins', 'items__traced_origins__in',
    'passing_percentage_gte', 'failing_percentage_gte',
    ...PAGING,
  ],
  'origins list': [
    ...withSuffixes('assessment_status', ['in']),
    ...withSuffixes('country_code', ['in']),
    ...['created_at', 'updated_at'].flatMap((f) => withSuffixes(f, DATE_TIME_AND_DAY)),
    ...['description', 'name'].flatMap((f) => withSuffixes(f, TEXT)),
    ...withSuffixes('external_id', [...TEXT, 'in']),
    'failing_percentage_gte', 'passing_percentage_gte', 'id__in', 'id__exclude_in',
    ...PAGING,
  ],
  'dds list': [
    ...['created_at', 'updated_at'].flatMap((f) => withSuffixes(f, DATE_TIME)),
    ...withSuffixes('dds_identifier', ['icontains', 'in']),
    'id', 'id__in', 'id__exclude_in',
    ...withSuffixes('name', ['icontains', 'in']),
    'object_pulse_identifier', 'orders__in', 'products__in',
    ...withSuffixes('status', ['in']),
    ...withSuffixes('type', ['in']),
    ...PAGING,
  ],
  'workspaces list': [
    ...withSuffixes('country', ['icontains', 'iendswith', 'istartswith', 'in']),
    ...withSuffixes('name', ['icontains', 'iendswith', 'istartswith']),
    'type', 'type__exclude', 'type__in',
    ...PAGING,
  ],
  'members list': [
    ...withSuffixes('auth_group', ['in', 'isnull']),
    ...withSuffixes('auth_group__name', ['icontains', 'in']),
    ...['created_at', 'updated_at'].flatMap((f) => withSuffixes(f, DATE_TIME_AND_DAY)),
    ...['user__email', 'user__first_name', 'user__last_name'].flatMap((f) => withSuffixes(f, ['icontains', 'istartswith'])),
    ...withSuffixes('user__job_title', ['icontains']),
    ...PAGING,
  ],
  'invitations list': [
    ...withSuffixes('auth_group', ['in']),
    ...withSuffixes('auth_group__name', ['in']),
    ...['created_at', 'expires_at'].flatMap((f) => withSuffixes(f, DATE_TIME_AND_DAY)),
    ...withSuffixes('email', ['icontains']),
    'id', 'id__in', 'id__exclude_in', 'invited_by', 'status',
    ...PAGING,
  ],
  'users list': ['search', 'limit', 'offset'],
};
