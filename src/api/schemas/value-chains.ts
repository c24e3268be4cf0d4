// Value chain request bodies. The API documents only the value chain as embedded in orders;
// sct accepts those fields on create/update, requires company_name on create, and passes
// unknown fields through. The allowed values of type and status are not documented, so they
// are checked as strings only and the service decides.
import * as z from 'zod';
import { id, str255, tags } from './common.js';
import { countryCode } from './origins.js';

/** The values the sandbox (and, as far as is known, the service) uses; help text only. */

const valueChainFields = {
  company_name: str255,
  description: z.string().nullish(),
  external_id: z.string().max(255).nullish(),
  contact_name: z.string().max(255).nullish(),
  type: z.string().min(1).max(255).nullish(),
  status: z.string().min(1).max(255).nullish(),
  country_code: countryCode.nullish(),
  permission_granted: z.boolean().optional(),
  is_self_managed: z.boolean().optional(),
  reciprocal_company_id: id.nullish(),
  ownership_information: z
    .looseObject({
      ownership_periods: z
        .array(
          z.looseObject({
            valid_from_month: z.string().optional(),
            valid_to_month: z.string().optional(),
            consolidation_approach: z.string().optional(),
            ownership_percentage: z.string().optional(),
          }),
        )
        .optional(),
      sector_code: z.string().optional(),
      notes: z.string().optional(),
    })
    .optional(),
  metadata: z
    .looseObject({ invitation_ids: z.array(z.string()).optional(), requested_by_user_id: id.nullish() })
    .optional(),
  tags: tags.optional(),
};

export const valueChainCreateSchema = z.looseObject(valueChainFields);
export const valueChainUpdateSchema = z.looseObject(valueChainFields).partial();

