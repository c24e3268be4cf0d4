// Answer checks: what an answer's status and body must be for sct to use it — the status
// classes it cannot use (204 to a read, 304, 206), the size caps on what it reads, JSON or not,
// and a streamed body that ends as it should.
import { isUtf8 } from 'node:buffer';
import { Transform, type Readable } from 'node:stream';
import { decodeBody, type Headers, type WireResponse } from './transport.js';
import type { Method } from './request.js';
import { AnswerError, InterruptedError, BrokenBodyError, SctError } from '../errors.js';
import { statusText, HTML_PAGE } from './errors.js';
import { describeError } from './retry.js';
import { formatBytes } from '../util/format.js';
import { isPlainObject } from '../util/objects.js';
import { decodeWhole } from '../util/text.js';

/** How an answer is read: parsed whole, parsed as a list page (json-page.ts), or streamed to the caller. */
/**
 * How a 2xx answer is read: JSON; a list page (its items kept as the service's bytes when the
 * page is large, json-page.ts); a page of an --all export (kept so whatever its size: an export
 * copies items as the service sent them); or a stream.
 */
export type AnswerMode = 'json' | 'page' | 'export-page' | 'stream';

/**
 * The largest JSON answer sct reads (a page of 1,000 orders is about 7 MB): 256 MB counted as
 * every size sct prints is, in powers of 1,000, so the message names the limit the spec states.
 */
export const MAX_JSON_BYTES = 256_000_000;
/** An error answer is only read for its message. */
const MAX_ERROR_BYTES = 1024 * 1024;

/**
 * An answer's text as UTF-8, which JSON is: in the charset its Content-Type names when another
 * (a server that sends ISO-8859-1), without a byte-order mark (.NET writes one). Bytes that are
 * not the text they claim throw, saying so: read leniently they became U+FFFD, and an export
 * synced back would send that. A charset name Node does not know, on bytes that are UTF-8, is
 * read as UTF-8.
 */
export function answerUtf8(headers: Headers, bytes: Buffer): Buffer {
  const charset = /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType(headers))?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    let decoder: InstanceType<typeof TextDecoder> | undefined;
    try {
      decoder = new TextDecoder(charset, { fatal: true });
    } catch {
      if (!isUtf8(bytes)) throw new Error(`in the charset "${charset}", which sct cannot read`);
    }
    if (decoder) {
      let text: string;
      try {
        text = decodeWhole(decoder, bytes);
      } catch {
        throw new Error(`not valid ${charset} text as its Content-Type says`);
      }
      return Buffer.from(text.replace(/^\uFEFF/, ''), 'utf8');
    }
  }
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (!isUtf8(bytes.subarray(start))) throw new Error('not valid UTF-8 text, and names no other charset');
  return start ? bytes.subarray(start) : bytes;
}

/**
 * Reads an answer's body, refusing more than `max` bytes: a Content-Length above it is
 * refused before a byte is read, and a body without one is counted as it streams, so an
 * endless or enormous answer costs at most `max` bytes of memory, never a crash.
 */
export async function readCappedBytes(body: Readable, headers: Headers, max: number): Promise<Buffer> {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    body.destroy();
    throw new SctError(`answer too large (${formatBytes(declared)}, more than the ${formatBytes(max)} sct reads)`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new SctError(`answer too large (more than the ${formatBytes(max)} sct reads)`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

export function contentType(headers: Headers): string {
  const v = headers['content-type'];
  return String(Array.isArray(v) ? v[0] : (v ?? '')).toLowerCase();
}

/** The content type without its parameters (`application/zip`), lower-case; '' when none is sent. */
export function mediaType(headers: Headers): string {
  return contentType(headers).split(';')[0]!.trim();
}

export function looksLikeHtml(text: string, headers: Headers): boolean {
  return contentType(headers).includes('html') || /^\s*<(!doctype|html|head|body|\?xml)/i.test(text);
}

/** An error answer's body: JSON when it is, a storage service's XML error as its code and message, a marker for an HTML page, else its text. */
export function parseErrorBody(text: string, headers: Headers): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return storageError(text) ?? (looksLikeHtml(text, headers) ? HTML_PAGE : text);
  }
}

/**
 * S3's, GCS's and Azure's errors on a signed link are XML, `<Error><Code>AccessDenied</Code>
 * <Message>Request has expired</Message></Error>`: their code and message are what the user
 * needs (an expired link, a wrong signature), as the text of a plain-text error is.
 */
function storageError(text: string): string | undefined {
  if (!/^\s*(<\?xml[^>]*>\s*)?<Error>/.test(text)) return undefined;
  const tag = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1]?.trim();
  const said = [tag('Code'), tag('Message')].filter(Boolean);
  return said.length > 0 ? said.join(': ') : undefined;
}

/**
 * A 2xx answer's body: JSON, or nothing (204, an empty body). Anything else is not the API
 * speaking: `fail` is given the error, and what the answer is instead ("an HTML page").
 */
export function parseAnswer(text: string, status: number, headers: Headers, where: () => string, fail: (e: SctError, what: string) => unknown): unknown {
  if (!text.trim()) return null;
  if (!looksLikeHtml(text, headers)) {
    try {
      return JSON.parse(text);
    } catch {
      /* named below */
    }
  }
  const what = looksLikeHtml(text, headers) ? 'an HTML page' : mediaType(headers) || 'no content type';
  return fail(new AnswerError(`${where()}: the answer is not JSON (${status} ${statusText(status)}, ${what}): a proxy, captive portal or wrong base URL may be in the way`, status), what);
}

/** An answer that is not JSON, kept as its bytes (RequestOptions.anyAnswer). */
export class RawAnswer {
  constructor(
    readonly bytes: Buffer,
    /** The content type as sent, without its parameters (`application/zip`). */
    readonly type: string,
    /**
     * A write's 2xx answer that should have been JSON and is not (broken, an HTML page): what it
     * is instead, as parseAnswer says it.
     */
    readonly notJson?: string,
  ) {}
}

/** Whether a content type says JSON (`application/json`, `application/problem+json`) or says nothing. */
export function saysJson(headers: Headers): boolean {
  const type = mediaType(headers);
  return type === '' || type === 'application/json' || type.endsWith('+json') || type === 'text/json';
}

export function parseLoose(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Why a create's answer names no object sct can say was created, or undefined when it does. */
export function createdIdProblem(data: unknown): string | undefined {
  if (!isPlainObject(data)) return 'without the created object (no id)';
  const id = data.id;
  if (id === undefined || id === null) return 'without the created object (no id)';
  // An id a user acts on next (`sct orders get ID`): a whole number of the service's, or a
  // UUID's text; -1, 1.5 or a number JSON.parse rounded would name no object, or another.
  if ((typeof id === 'number' && Number.isSafeInteger(id) && id > 0) || (typeof id === 'string' && id.trim() !== '')) return undefined;
  // Past 2^53 the number read is not the one sent: not quoted as if it were.
  if (typeof id === 'number' && Number.isInteger(id) && !Number.isSafeInteger(id)) return 'without a usable id (a number past 2^53, which JSON reads as another)';
  return `without a usable id (id ${typeof id === 'string' ? JSON.stringify(id) : String(id)})`;
}

/**
 * What a bulk write's answer lacks when it holds no per-row results: an answer without a body (a
 * 204) is named by its status, as a create's answer without its object is.
 */
export function withoutResults(status: number | undefined, data: unknown, what: string): string {
  return status !== undefined && (data === undefined || data === null) ? `the service answered ${status} ${statusText(status)} without ${what}` : `no ${what}`;
}

/**
 * Why an answer that is neither an error nor a followed redirect still cannot be used, or
 * undefined when it can. A 204 is the whole answer to a change (a DELETE), never to a read: a
 * GET or a download answered with nothing would print `null` or save an empty file as if it were
 * the result. sct sends no conditional or range request, so a 304 or 206 is never its answer.
 */
export function unusableAnswer(status: number, method: Method, mode: AnswerMode): string | undefined {
  const answered = `the service answered ${status} ${statusText(status)}`;
  const expected = mode === 'stream' ? 'a file' : 'JSON';
  if (status === 304) return `${answered}, though sct asked for no cached copy: there is no answer to use`;
  if (status >= 300) return `${answered} without a redirect sct can follow`;
  if (status === 205 || (status === 204 && (method === 'GET' || mode === 'stream'))) return `${answered} where ${expected} was expected`;
  if (status === 206 && mode === 'stream') return `${answered}: only part of the file, though sct asked for all of it`;
  return undefined;
}

/**
 * A streamed body that ends as it should, or with an error naming the request: a connection cut
 * mid-way (Node says only "aborted") or a body shorter than its Content-Length (a BrokenBodyError,
 * which a download asks for again), or Ctrl-C, which stops a download however long its body takes.
 */
export function checkedBody(body: Readable, headers: Headers, where: string, signal: AbortSignal | undefined, timedOut?: () => SctError | undefined): Readable {
  const declared = contentLength(headers);
  let seen = 0;
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      if (declared !== undefined && seen < declared) done(new BrokenBodyError(where, `the answer was cut off after ${seen} of its ${declared} bytes (Content-Length)`));
      else done();
    },
  });
  const onAbort = () => body.destroy(new InterruptedError());
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  body.once('error', (err) => {
    // A body cut off at the time limit breaks as any aborted one: the limit is what to say.
    const late = timedOut?.();
    // Stopped: the stop is what to say, whichever error the body ended with (undici's own, when a
    // proxy variable is set, comes before the one onAbort gives).
    if (!late && signal?.aborted) return void checked.destroy(new InterruptedError());
    checked.destroy(late ?? (err instanceof SctError ? err : new BrokenBodyError(where, `the connection broke while reading the answer (${describeError(err)})`, { cause: err })));
  });
  // Whoever reads it stops (done, or failed writing): the connection goes with it.
  checked.once('close', () => {
    signal?.removeEventListener('abort', onAbort);
    body.destroy();
  });
  body.pipe(checked);
  return checked;
}

function contentLength(headers: Headers): number | undefined {
  const v = headers['content-length'];
  const n = Number(Array.isArray(v) ? v[0] : v);
  return v !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** An error answer's text, for its message; an answer cut short is read as far as it goes: its status still says what happened. */
export async function readErrorText(res: WireResponse): Promise<string> {
  try {
    // Its head, past the cap: a stack trace of megabytes still begins with what went wrong.
    const head = await readHead((await decodeBody(res.body, res.headers)).body, MAX_ERROR_BYTES);
    try {
      return answerUtf8(res.headers, head).toString('utf8');
    } catch {
      return head.toString('utf8');
    }
  } catch {
    return '';
  }
}

/** The first `max` bytes of a body; the rest is not read (the body is destroyed). */
async function readHead(body: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= max) break;
  }
  return Buffer.concat(chunks).subarray(0, max);
}

/**
 * What a write answered: the object, or nothing (a 204). A list or a bare value is no sign the
 * change was made, and a script reading `.id` from it would read garbage: an error naming the
 * request.
 */
export function savedObject(res: { status: number; data: unknown }, method: string, path: string, what: string): Record<string, unknown> | null {
  if (res.data === null || res.data === undefined) return null;
  if (isPlainObject(res.data)) return res.data;
  throw new AnswerError(`${method} ${path}: the service answered ${res.status} with ${Array.isArray(res.data) ? 'a list' : `a ${typeof res.data}`}, not the ${what}: it may or may not have been ${method === 'POST' ? 'created' : 'changed'}`, res.status);
}
