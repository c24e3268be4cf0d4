// Due diligence statement bodies and the two legacy bulk calls around them, as the API documents
// them. The creation rules (which type needs assessment runs and an identifier) are checked here,
// so a statement the service would refuse is never sent.
//
// Where the document is silent:
// - assessment_run_ids are "UUID strings": any 8-4-4-4-12 hex string is accepted, as the
//   service's own validation may not insist on a version.
// - An empty dds_identifier counts as none (EUDR without identifier needs assessment runs).
import * as z from 'zod';
import { DDS_TYPES, DDS_STATUSES } from '../enums.js';
import { id } from './common.js';
import { requiredMessage } from './messages.js';

export type DdsStatus = (typeof DDS_STATUSES)[number];
/** A statement in one of these never changes again. */
export const FINAL_DDS_STATUSES: readonly DdsStatus[] = ['complete', 'failed'];

const requiredError = { error: requiredMessage };
const name = z.string().max(255, 'at most 255 characters').nullable().optional();

export const statementCreateSchema = z
  .looseObject({
    type: z.enum(DDS_TYPES, requiredError),
    name,
    status: z.enum(DDS_STATUSES).optional(),
    dds_identifier: z.string().optional(),
    orders: z.array(id).optional(),
    products: z.array(id).optional(),
    assessment_run_ids: z.array(z.guid('expected a UUID')).optional(),
    excluded_propagation_identifiers: z.unknown().optional(),
  })
  .superRefine((body, ctx) => {
    // Said by flag too: a script that left them out sees the field's name only otherwise.
    const RUNS_GIVEN = '--assessment-run-id ID, the assessment_run_id of `sct risk list -o json`';
    const runs = body.assessment_run_ids ?? [];
    // Spaces alone are no identifier: the service trims them and then asks for the runs.
    const identifier = (body.dds_identifier ?? '').trim();
    if (body.type === 'PPWR') {
      if (runs.length === 0) ctx.addIssue({ code: 'custom', path: ['assessment_run_ids'], message: `required and non-empty for a PPWR statement (${RUNS_GIVEN})` });
      if (!identifier) ctx.addIssue({ code: 'custom', path: ['dds_identifier'], message: 'required for a PPWR statement (--dds-identifier)' });
    }
    if (body.type === 'EUDR' && !identifier && runs.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['assessment_run_ids'],
        message: `required and non-empty for an EUDR statement without dds_identifier (${RUNS_GIVEN}; or give dds_identifier, --dds-identifier, to retrieve a filed statement)`,
        // The other field that meets the rule, and how a terminal offers it (body.ts promptMissing):
        // asked for the runs alone, one who has a filed statement could give it no way.
        params: { or: { dds_identifier: "a filed statement's dds_identifier" } },
      });
    }
  });

/** Only status and name may change; the service rejects every other field. */
export const statementUpdateSchema = z.strictObject({
  status: z.enum(DDS_STATUSES).optional(),
  name,
});

/** The fields sct reads from a statement (wait); the rest passes through to the output. */
export const statementResponseSchema = z.looseObject({
  id: z.number(),
  type: z.string().nullish(),
  status: z.string(),
  dds_identifier: z.string().nullish(),
  dds_data: z.unknown(),
});
export type StatementResponse = z.infer<typeof statementResponseSchema>;

export const traceOrdersResponseSchema = z.looseObject({
  results: z.array(
    z.looseObject({
      dds_id: z.number(),
      added_orders: z.array(z.number()).default([]),
      total_orders: z.number().nullish(),
      message: z.string().nullish(),
    }),
  ),
  summary: z.looseObject({ total_dds_processed: z.number().nullish(), total_orders_added: z.number().nullish() }).nullish(),
});
export type TraceOrdersResponse = z.infer<typeof traceOrdersResponseSchema>;

/** An element of the legacy bulk information request: an order, a value chain, or both. */
const informationRequestSchema = z
  .object({ order_id: id.optional(), value_chain_id: id.optional() })
  .refine((r) => r.order_id !== undefined || r.value_chain_id !== undefined, 'needs order_id or value_chain_id');
export type InformationRequest = z.infer<typeof informationRequestSchema>;

export const informationRequestsResponseSchema = z.looseObject({
  message: z.string().nullish(),
  results: z.looseObject({
    summary: z.looseObject({}).nullish(),
    processed: z.array(z.looseObject({ index: z.number(), order_id: z.number().nullish(), value_chain_id: z.number().nullish(), invitation_action: z.string().nullish() })).default([]),
    failed: z.array(z.looseObject({ index: z.number(), data: z.unknown().optional(), error: z.unknown() })).default([]),
  }),
});
