// Order request bodies (POST/PATCH /orders/{purchase,sale,batch}) as the API documents them.
// Objects are loose: fields sct does not know pass through to the API untouched.
//
// Where the document is silent:
// - The purchase body's fields before seller_company_id are "not shown": sct assumes the sale
//   body mirrored (buyer_company_status instead of seller_company_status, seller_company_id
//   instead of buyer_company_id) with type, external_id and order_created_at required on create.
// - Only the batch body lists tags, but every order carries them: sale and purchase accept
//   them too, validated the same way.
// - The batch endpoint "updates order and its items", so the batch body takes items as well;
//   assessment_status is accepted by every kind (every order has one).
// - Nested item fields: which are required and their bounds are "not shown", so all are optional.
import * as z from 'zod';
import { date, dateTime, id, str255, tags } from './common.js';
import { requiredMessage } from './messages.js';
import { countryCode as isoCountryCode } from './origins.js';
import { ASSESSMENT_STATUSES } from '../enums.js';
import { ID_MAX } from '../../util/numbers.js';
import { BUYER_STATUSES, ORDER_TYPES, SELLER_STATUSES } from '../enums.js';


const requiredError = { error: requiredMessage };

const optionalText = str255.nullable().optional();
// Sent upper-cased, as the service stores ISO 3166 alpha-2 codes ("be" would not match filters),
// and checked as every country sct takes is: a code of no country is exit 2, nothing sent.
const countryCode = isoCountryCode.nullable().optional();
const nonEmptyStrings = z.array(z.string().min(1, 'must be non-empty strings'));

const orderItemSchema = z.looseObject({
  id: id.optional(),
  buyer_product: id.optional(),
  seller_product: id.optional(),
  volume: z.number().optional(),
  unit: z.string().optional(),
  line_number: z.number().int().optional(),
  external_id: z.string().optional(),
  metadata: z
    .looseObject({
      percentage_estimation_or_deviation: z.string().optional(),
      supplementary_unit: z.string().optional(),
      supplementary_unit_qualifier: z.string().optional(),
    })
    .optional(),
  trace: z.looseObject({ traced_orders: z.array(id).optional(), traced_origins: z.array(id).optional() }).optional(),
  excluded_propagation_identifiers: z.unknown().optional(),
});
export type OrderItemBody = z.infer<typeof orderItemSchema>;

const shared = {
  type: z.enum(ORDER_TYPES, requiredError),
  external_id: z.string(requiredError).min(1).max(255),
  buyer_external_id: optionalText,
  seller_external_id: optionalText,
  order_created_at: date,
  order_arrival_at: date.nullable().optional(),
  assessment_status: z.enum(ASSESSMENT_STATUSES).optional(),
  value_chain: id.nullable().optional(),
  items: z.array(orderItemSchema).optional(),
  signed_off_at: dateTime.nullable().optional(),
  border_cross_country_code: countryCode,
  tags: tags.optional(),
};

const tradeFields = {
  send_information_request: z.boolean().optional(),
  dds_identifiers: nonEmptyStrings.optional(),
  excluded_propagation_identifiers: z.unknown().optional(),
};

const saleOrderCreateSchema = z.looseObject({
  ...shared,
  ...tradeFields,
  seller_company_status: z.enum(SELLER_STATUSES).optional(),
  buyer_company_id: id.nullable().optional(),
});

const purchaseOrderCreateSchema = z.looseObject({
  ...shared,
  ...tradeFields,
  buyer_company_status: z.enum(BUYER_STATUSES).optional(),
  seller_company_id: id.nullable().optional(),
});

const batchOrderCreateSchema = z.looseObject({
  ...shared,
  company_id: z.number(requiredError).int().min(0).max(ID_MAX),
  buyer_company_status: z.enum(BUYER_STATUSES).optional(),
  seller_company_status: z.enum(SELLER_STATUSES).optional(),
  buyer_company_id: id.nullable().optional(),
  seller_company_id: id.nullable().optional(),
  tags: z.array(z.string().min(1, 'tags must be non-empty strings'), requiredError),
});

export const ORDER_CREATE_SCHEMAS = {
  purchase: purchaseOrderCreateSchema,
  sale: saleOrderCreateSchema,
  batch: batchOrderCreateSchema,
} as const;

export const ORDER_UPDATE_SCHEMAS = {
  purchase: purchaseOrderCreateSchema.partial(),
  sale: saleOrderCreateSchema.partial(),
  batch: batchOrderCreateSchema.partial(),
} as const;

/** The fields sct reads from an order response (trace, perspective); the rest passes through. */
export const orderResponseSchema = z.looseObject({
  id: z.number(),
  company_id: z.number().nullish(),
  type: z.string().nullish(),
  buyer_company_id: z.number().nullish(),
  seller_company_id: z.number().nullish(),
  items: z
    .array(
      z.looseObject({
        id: z.number(),
        trace: z.looseObject({ traced_orders: z.array(z.number()).optional(), traced_origins: z.array(z.number()).optional() }).nullish(),
        traced_order_count: z.union([z.string(), z.number()]).nullish(),
        traced_origin_count: z.union([z.string(), z.number()]).nullish(),
      }),
    )
    .default([]),
});
export type OrderResponse = z.infer<typeof orderResponseSchema>;

/**
 * Whether an order's PATCH body makes items (an item without an id): such a PATCH, sent twice,
 * makes them twice, so it is never retried once it may have reached the service (onceOnly).
 */
export function addsItems(body: Record<string, unknown>): boolean {
  return Array.isArray(body.items) && body.items.some((item) => !(item && typeof item === 'object' && 'id' in item));
}
