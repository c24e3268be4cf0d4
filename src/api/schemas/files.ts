// Request bodies of documents, data exchange runs (imports) and risk assessments. The API
// documents only that a risk assessment needs an identifier; sct also requires a document's
// name (it is what the upload is known by) and checks ids, and passes every other field through.
import * as z from 'zod';
import { SctError } from '../../errors.js';
import { id, str255, tags } from './common.js';

export const documentCreateSchema = z.looseObject({
  name: str255,
  // A media type as HTTP carries it (type/subtype, then parameters): the service refuses another
  // ("Enter a valid MIME type."), but only after the document is created; a header cannot carry a
  // line break at all.
  content_type: z
    .string()
    .min(3)
    .max(255)
    .regex(/^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;\s*[\w!#$&^.+-]+=("[^"\r\n]*"|[\w!#$&^.+-]+))*$/, 'expected a media type such as application/pdf')
    .optional(),
  size: z.number().int().min(0).optional(),
  description: z.string().nullish(),
  tags: tags.optional(),
});

export const importCreateSchema = z.looseObject({
  name: z.string().max(255).optional(),
  document: id.nullish(),
});

export const riskCreateSchema = z.looseObject({
  // The service trims a value before it asks for one: spaces alone are refused there, so here.
  identifier: str255.refine((v) => v.trim() !== '', 'must not be spaces alone'),
  name: z.string().max(255).optional(),
  description: z.string().nullish(),
  orders: z.array(id).optional(),
  origins: z.array(id).optional(),
  products: z.array(id).optional(),
  documents: z.array(id).optional(),
});

/** Where a file goes or comes from: http(s) only (a file: or other link is never resolved against the base URL). */
const webUrl = z.url({ protocol: /^https?$/ });

/** What sct reads from a created document: where its bytes go. */
export const uploadTargetSchema = z.looseObject({ id: z.number(), upload_url: webUrl });
/** What sct reads from a download request: the signed URL. */
const downloadUrlSchema = z.looseObject({ url: webUrl });

/**
 * The signed URL of a download answer (`{"url": …}`); an answer without one, or whose url is no
 * http(s) URL (a `file:` link, a path that would be read against the base URL), is an error
 * naming the request.
 */
export function signedUrlOf(answer: unknown, request: string): string {
  const signed = downloadUrlSchema.safeParse(answer);
  if (signed.success) return signed.data.url;
  const given = (answer as { url?: unknown } | null)?.url;
  throw new SctError(`unexpected answer from ${request}: ${typeof given === 'string' && given !== '' ? `its url is no http(s) URL (${JSON.stringify(given.slice(0, 200))})` : 'no url'}`);
}
