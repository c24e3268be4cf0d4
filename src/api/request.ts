// What a request is made of, below the client and the modules it is split into: the verbs and
// the query, as every part of src/api names them.

import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { isStringTooLong, stringLimit } from '../util/format.js';

/** The HTTP methods sct sends (`sct api -X` takes these). */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];
type QueryValue = string | number | boolean | undefined | null | Array<string | number>;
export type Query = URLSearchParams | Record<string, QueryValue>;

export interface RequestOptions {
  method?: Method;
  /** Relative to the base URL ("/orders"), or an absolute URL (a signed upload/download link). */
  path: string;
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /**
   * A body already written, sent as it is (`sct api --input`, a JSON body with numbers
   * JSON.stringify would round): Content-Type application/json unless `headers` name another.
   */
  bodyAsIs?: string | Buffer;
  /** Raw body (file upload); a function so a retry can re-open the file. */
  rawBody?: () => Readable | Buffer;
  headers?: Record<string, string>;
  accept?: string;
  /**
   * The name a download is saved under. A file that is itself compressed (a `.gz`, `.tgz` or
   * `.br` name, or an `application/gzip` type) keeps a Content-Encoding its store sends with it
   * (S3 and GCS send the one set on the object): the encoding is the file's own, and the file is
   * saved as stored, as curl and a browser's download save it.
   */
  fileName?: string;
  /** false for anonymous endpoints and signed URLs. */
  auth?: boolean;
  /** Reused by every retry of this call; generated for each POST when not given. */
  idempotencyKey?: string;
  /**
   * A write that is not the same done twice and has no key to make it so (a PATCH that adds
   * items): never sent again once an attempt may have reached the service; it fails as unknown.
   */
  onceOnly?: boolean;
  /** 'created': the answer must be the created object (a JSON object with an id), else it is an error. */
  expect?: 'created';
  /**
   * An answer whose content type says it is not JSON (a ZIP, a CSV) is data as it came, a
   * RawAnswer, rather than an error (`sct api`). An HTML page, or JSON that does not parse, is
   * still the error it names, but for a write the service answered 2xx (it said the write was
   * done): a RawAnswer saying what it is instead (RawAnswer.notJson).
   */
  anyAnswer?: boolean;
  /**
   * Run right before each attempt that could be the first to reach the service (after any wait
   * for the rate limit or a retry's back-off): sync's read of the object it is about to write,
   * whose verdict (a ConflictError) then stops the write. Not before an attempt after one that
   * may have arrived: the object may then differ by this very write. `refusedBefore`: an
   * earlier attempt was answered 503, after which the object may, rarely, differ by this write.
   */
  beforeSend?: (refusedBefore: boolean) => Promise<void>;
  /** Gives up on this request (a page requested ahead that is no longer wanted): an InterruptedError. */
  signal?: AbortSignal;
  /**
   * Told of each wait the service asks for before this request is tried again (a 429's reset,
   * a 503's Retry-After, the budget spent): `dds wait` names it when its own deadline ends one.
   */
  onWait?: (why: 'rate-limit' | 'retry-after', ms: number) => void;
  /**
   * A limit on the whole command this request is part of (`dds create --wait --timeout 3s`: the
   * create and the polls after it). The request, its retries and waits included, gets what is
   * left of it; cut off by it, it fails as timed out, naming the limit as the user gave it. For a
   * JSON answer, read within it; a stream's body is read after.
   */
  timeLimit?: TimeLimit;
  /**
   * A limit no wait the service asks for may outlast (a `dds wait` poll's: the wait's deadline),
   * said at once as a WaitBeyondLimitError rather than slept to it; unlike timeLimit, it does not
   * end the request itself.
   */
  waitLimit?: TimeLimit;
  /** On a dry run, what a raw body stands for, as printed ("the 6 bytes of a.pdf"). */
  dryRunBody?: string;
  /**
   * On a dry run: the answer this write pretends to get, so the command goes on to its next
   * request (the next chunk of a bulk write). Without it a dry run ends at the write (DryRunEnd):
   * what follows would act on an answer that never came.
   */
  dryRunAnswer?: unknown;
}

/** A limit on a whole command: when it ends (the client's clock, ms) and how long it is, as given. */
export interface TimeLimit {
  at: number;
  ms: number;
}

export function toSearchParams(query: Query): URLSearchParams {
  if (query instanceof URLSearchParams) return new URLSearchParams(query);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    params.append(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return params;
}

/**
 * A JSON body written as the text to send, before anything goes out: one too large for a string
 * (a file's control characters take six characters each as JSON) is the user's to mend, exit 2,
 * never a request that may have been sent. `where` names the request ("POST /sink").
 */
export function writtenJson(where: string, write: () => string): string {
  try {
    return write();
  } catch (err) {
    if (isStringTooLong(err)) throw new UsageError(`${where}: the request body is too large to send (as JSON, ${stringLimit()}): nothing was sent`);
    throw err;
  }
}
