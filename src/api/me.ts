// The user's own profile (GET /accounts/me): who is logged in, in which company, with which role.
// Checked here without zod: whoami, workspaces current and auth status read nothing else, and
// a zod schema would load zod's 582 KB chunk for these few fields. The profile is loose: the API
// may add fields, and sct passes them through to JSON output untouched.
import type { ApiClient } from './client.js';
import { PATHS } from './paths.js';
import { SctError } from '../errors.js';

interface Named {
  id: number;
  name?: string | null;
  [field: string]: unknown;
}

export interface Me {
  id: number;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  job_title?: string | null;
  active_user_company_id?: number | null;
  company?: (Named & { type?: string | null; country?: string | null }) | null;
  auth_group?: Named | null;
  [field: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isText = (v: unknown) => v == null || typeof v === 'string';
const isNamed = (v: unknown, texts: string[]) => v == null || (isObject(v) && isNumber(v.id) && texts.every((k) => isText(v[k])));

/** The answer as a profile, or undefined when it is not one (fields of the wrong type included). */
export function asMe(data: unknown): Me | undefined {
  if (!isObject(data) || !isNumber(data.id)) return undefined;
  if (!['first_name', 'last_name', 'email', 'job_title'].every((k) => isText(data[k]))) return undefined;
  if (data.active_user_company_id != null && !isNumber(data.active_user_company_id)) return undefined;
  if (!isNamed(data.company, ['name', 'type', 'country']) || !isNamed(data.auth_group, ['name'])) return undefined;
  return data as Me;
}

/** The logged-in user's profile, read from the service; an answer that is none is an error. */
export async function fetchMe(client: ApiClient): Promise<Me> {
  return parseMe(await client.get(PATHS.me));
}

export function parseMe(data: unknown): Me {
  const me = asMe(data);
  if (!me) throw new SctError(`unexpected answer from GET ${PATHS.me}: not a user profile`);
  return me;
}

export function displayName(me: Me): string {
  return [me.first_name, me.last_name].filter(Boolean).join(' ') || `user ${me.id}`;
}
