// Turning DRF error bodies into readable messages and flat field errors.
import { ApiError, type FieldErrors } from '../errors.js';
import { cleanCell, stripControl } from '../util/sanitize.js';
import { isPlainObject } from '../util/objects.js';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
};

/** An error answer that was an HTML page (a proxy's or gateway's): named by its status, never printed. */
export const HTML_PAGE = Symbol('an HTML page');

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? '';
}

/** The longest message of the service's sct prints: a page of it says nothing a line does not. */
const MAX_SAID = 500;

/** A field's name longer than this many characters is cut. */
const MAX_FIELD_NAME = 100;

/** A message of the service's as one line, cut past `max` characters (whole ones: never half an emoji), saying how many more there were. */
export function said(text: string, max = MAX_SAID): string {
  const line = cleanCell(text);
  if (line.length <= max) return line;
  const chars = Array.from(line);
  return chars.length > max ? `${chars.slice(0, max).join('')}… (${(chars.length - max).toLocaleString('en-US')} more characters)` : line;
}

/** Field errors are read this deep: no document nests them further. */
const MAX_ERROR_DEPTH = 32;

/**
 * Flattens DRF's nested error shapes: `{"items": [{}, {"volume": ["…"]}]}` becomes
 * `{"items[1].volume": ["…"]}`, `{"tags": {"0": ["…"]}}` becomes `{"tags[0]": ["…"]}`; a bare
 * list or string becomes `non_field_errors`.
 */
export function flattenFieldErrors(body: unknown, prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  const add = (key: string, msg: string) => {
    // A field's name is the service's as its message is: cleaned and cut alike (reports, -o json
    // errors). All are kept: a bulk run reads each row's own from them (how many are shown is
    // the error line's business).
    const k = said(key, MAX_FIELD_NAME) || 'non_field_errors';
    (out[k] ??= []).push(said(msg));
  };
  const walk = (value: unknown, key: string, depth = 0) => {
    if (value === null || value === undefined) return;
    // No document nests errors this deep; a body that does must not cost its status (a 401's exit 4).
    if (depth > MAX_ERROR_DEPTH) return add(key, `(nested more than ${MAX_ERROR_DEPTH} levels: not shown)`);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      add(key, String(value));
    } else if (Array.isArray(value)) {
      if (value.every((v) => typeof v === 'string')) value.forEach((v) => add(key, v as string));
      else value.forEach((v, i) => walk(v, `${key}[${i}]`, depth + 1));
    } else if (typeof value === 'object') {
      // DRF keys a list's element errors by index ({"tags": {"0": [...]}}): shown as tags[0].
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(v, key ? (/^\d+$/.test(k) ? `${key}[${k}]` : `${key}.${k}`) : k, depth + 1);
    }
  };
  walk(body, prefix);
  return out;
}

export function apiErrorFrom(status: number, body: unknown, method: string, path: string): ApiError {
  const where = `${status}${statusText(status) ? ' ' + statusText(status) : ''} on ${method} ${path}`;
  let detail: string | undefined;
  let fields: FieldErrors = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const { detail: d, ...rest } = body as Record<string, unknown>;
    // One line: a detail with line breaks could draw what looks like more of sct's own output.
    if (typeof d === 'string') detail = said(d);
    // A serializer's field named detail, or a handler's own shape ({code, message}): its message
    // when it has one, else its errors among the fields; never dropped.
    else if (Array.isArray(d) && d.length > 0 && d.every((x) => typeof x === 'string')) detail = said(d.join(' '));
    else if (isPlainObject(d) && typeof d.message === 'string') detail = said(d.message);
    fields = flattenFieldErrors(detail === undefined && d !== undefined ? body : rest);
  } else if (Array.isArray(body)) {
    fields = flattenFieldErrors(body);
  } else if (body === HTML_PAGE) {
    return Object.assign(new ApiError(`${status}${statusText(status) ? ' ' + statusText(status) : ''} (HTML page) on ${method} ${path}`, status, {}, null), { method });
  } else if (typeof body === 'string' && body.trim()) {
    // Plain text from a proxy says little; its first line is enough.
    detail = stripControl(body.trim().split('\n')[0]).slice(0, 200);
  }
  const message = detail
    ? `${detail} (${where})`
    : Object.keys(fields).length
      ? `the request was rejected (${where})`
      : `request failed (${where})`;
  return Object.assign(new ApiError(message, status, fields, body), { method });
}

/** The most field errors shown of one answer or one row: an answer of thousands (a page of them) says nothing the first ones do not. */
const MAX_FIELD_ERRORS = 50;

/**
 * The first MAX_FIELD_ERRORS field errors, in order, and how many more there were: what an error
 * line, a bulk run's row and its report show. The errors themselves are kept whole (a chunked
 * run reads each row's own from their names).
 */
export function shownFieldErrors(all: FieldErrors): { fields: FieldErrors; notShown: number } {
  const fields: FieldErrors = {};
  let shown = 0;
  let notShown = 0;
  for (const [field, msgs] of Object.entries(all)) {
    for (const m of msgs) {
      if (shown < MAX_FIELD_ERRORS) {
        (fields[field] ??= []).push(m);
        shown++;
      } else notShown++;
    }
  }
  return { fields, notShown };
}
