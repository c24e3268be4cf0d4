// Shapes of the account resources sct reads fields from. Objects are loose: the API may add
// fields, and sct passes them through to JSON output untouched.
import { z } from 'zod';
import { INVITATION_STATUSES, WORKSPACE_TYPES } from '../enums.js';

export { INVITATION_STATUSES, WORKSPACE_TYPES };
import { id, REQUIRED } from './common.js';

export const meSchema = z.looseObject({
  id: z.number(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  email: z.string().nullish(),
  job_title: z.string().nullish(),
  active_user_company_id: z.number().nullish(),
  company: z.looseObject({ id: z.number(), name: z.string().nullish(), type: z.string().nullish(), country: z.string().nullish() }).nullish(),
  auth_group: z.looseObject({ id: z.number(), name: z.string().nullish() }).nullish(),
});
export type Me = z.infer<typeof meSchema>;

export function displayName(me: Me): string {
  return [me.first_name, me.last_name].filter(Boolean).join(' ') || `user ${me.id}`;
}


/** The document's bound on an invitation e-mail; the same check runs on every CSV row. */
export const invitationEmail = z.email({ error: (issue) => (issue.input === undefined ? REQUIRED : 'Enter a valid email address.') }).min(1).max(1024);

export const invitationCreateSchema = z.looseObject({ email: invitationEmail, auth_group: id });
export type InvitationCreate = z.infer<typeof invitationCreateSchema>;

/** One operation's result in a bulk create answer; the status values are not documented. */
export const bulkCreateResultSchema = z.looseObject({
  index: z.number().int(),
  status: z.string(),
  invitation: z.looseObject({ id: z.string() }).nullish(),
  error: z.unknown().optional(),
});
export const bulkCreateAnswerSchema = z.looseObject({ results: z.array(bulkCreateResultSchema) });
