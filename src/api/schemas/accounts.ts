// Shapes of the account resources sct reads fields from. Objects are loose: the API may add
// fields, and sct passes them through to JSON output untouched.
import { z } from 'zod';

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
