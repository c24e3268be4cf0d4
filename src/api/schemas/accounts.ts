// Shapes of the account resources sct reads fields from. Objects are loose: the API may add
// fields, and sct passes them through to JSON output untouched.
import * as z from 'zod';
import { id } from './common.js';
import { REQUIRED } from './messages.js';
import { isPlainObject } from '../../util/objects.js';

const INVITATION_EMAIL_MAX = 1024;

/**
 * An e-mail address as far as sct can tell it without the service: a local part (or a quoted
 * string, which may hold an "@" and escaped quotes), one "@", a domain, with no space or control
 * character. What else an address may hold (`a=b@…`, `x&y@…`, a domain in another script) is the
 * service's to judge (the document says "e-mail string"): zod's pattern, stricter than the
 * service's own, refused addresses it takes, and nothing was sent.
 */
const EMAIL_SHAPE = /^(?:"(?:[^"\\\p{Cc}]|\\[^\p{Cc}])*"|[^\s\p{Cc}@"]+)@[^\s\p{Cc}@]+$/u;

/**
 * What a terminal shows as nothing (a soft hyphen, a zero-width space, a variation selector, a
 * Hangul filler, a braille blank), pasted with an address: the service takes it for another
 * address (Django's validator lets it through), and the person is invited twice.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Where an address holds an invisible character, in words; undefined when it holds none. */
function invisibleIn(email: string): string | undefined {
  const at = email.search(INVISIBLE);
  if (at < 0) return undefined;
  const code = email.codePointAt(at)!.toString(16).toUpperCase().padStart(4, '0');
  const before = email.slice(0, at).replace(new RegExp(INVISIBLE.source, 'gu'), '');
  return `has an invisible character (U+${code}) ${before ? `after ${JSON.stringify(before)}` : 'at its start'}: type the address again`;
}

/** The document's bound on an invitation e-mail; the same check runs on every CSV row. */
// The length first, with its own words (a 1,100-character address is "too long", not "invalid"),
// and one message for an empty one.
export const invitationEmail = z
  .string({ error: (issue) => (issue.input === undefined ? REQUIRED : 'expected text') })
  .min(1, { error: 'Enter a valid email address.', abort: true })
  .max(INVITATION_EMAIL_MAX, { error: `at most ${INVITATION_EMAIL_MAX} characters`, abort: true })
  .superRefine((email, ctx) => {
    const invisible = invisibleIn(email);
    if (invisible) ctx.addIssue({ code: 'custom', message: invisible, abort: true });
  })
  .regex(EMAIL_SHAPE, { error: 'Enter a valid email address.' });

/**
 * Whether invitationEmail accepts the address, at a fraction of the cost of a parse: a file of
 * thousands of rows checks every one. Only a refused address needs the parse, for its message.
 */
export function isInvitationEmail(email: string): boolean {
  return email.length >= 1 && email.length <= INVITATION_EMAIL_MAX && !INVISIBLE.test(email) && EMAIL_SHAPE.test(email);
}

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
export type BulkCreateResult = z.infer<typeof bulkCreateResultSchema>;

/**
 * The per-row results of a bulk create answer, undefined when it has none. An answer of the
 * usual shape is checked by hand (a run of thousands of rows reads thousands of results, and
 * the schema copies every object it passes); anything else goes through the schema.
 */
export function bulkCreateResults(answer: unknown): BulkCreateResult[] | undefined {
  const results = isPlainObject(answer) ? answer.results : undefined;
  if (Array.isArray(results) && results.every(isUsualResult)) return results;
  const parsed = bulkCreateAnswerSchema.safeParse(answer);
  return parsed.success ? parsed.data.results : undefined;
}

/** Never true of a result the schema refuses (stricter than it where that is simpler). */
function isUsualResult(r: unknown): r is BulkCreateResult {
  if (!isPlainObject(r) || !Number.isSafeInteger(r.index) || typeof r.status !== 'string') return false;
  return r.invitation === undefined || r.invitation === null || (isPlainObject(r.invitation) && typeof r.invitation.id === 'string');
}

