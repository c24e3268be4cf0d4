// sct api: any request through the same client (auth, retries, rate limits), with gh api's flags.
import { inputName, inputText, readInput, readInputText } from '../util/files.js';
import { tokenOf, type Context } from '../context.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { METHODS, writtenJson, type Method } from '../api/request.js';
import { statusText } from '../api/errors.js';
import { RawAnswer } from '../api/answers.js';
import { NotAList } from '../api/pagination.js';
import type { ApiResponse } from '../api/client.js';
import { AnswerError, ApiError, JqError, SctError, UsageError } from '../errors.js';
import { collect, setDotted, splitKeyValue } from './shared/flags.js';
import { noteChanges, warnChanged, type ListChanges } from './shared/list.js';
import { createListWriter, terminalSafe, writeOne, type ListWriter } from '../output/format.js';
import { cleanCell, stripControl } from '../util/sanitize.js';
import { API_EXAMPLES, API_HELP } from '../help/topics.js';
import { withRerunKey, type RerunKey } from './shared/crud.js';
import { withoutToken } from '../util/redact.js';
import { jsonErrorPlace } from '../util/json-error.js';

// HEAD: a GET's status and headers alone (`-i` shows them), as gh takes any method.
/** Headers sct owns, each with why (the token is sct's to send, and only to the configured origin) and what to do instead. */
const TOKEN_HINT = 'use SCT_TOKEN or --profile for another token';
const RESERVED_HEADERS: Record<string, { why: string; hint?: string }> = {
  authorization: { why: 'sct sends the token itself, and only to the configured base URL', hint: TOKEN_HINT },
  'proxy-authorization': { why: 'sct sends a proxy its user and password from HTTPS_PROXY (https://user:pass@proxy:port)' },
  cookie: { why: 'sct sends no cookie: the token is the one credential it sends, and only to the configured base URL', hint: TOKEN_HINT },
  host: { why: 'sct sets it from the base URL (--base-url to ask another host)' },
  'content-length': { why: 'sct sets it from the body it sends' },
};

const API_OPTIONS = [
  { flags: '-X, --method <method>', description: (v: readonly string[]) => `HTTP method: ${v.join(', ')} (default GET, or POST when fields are given)`, values: METHODS },
  { flags: '-f, --raw-field <key=value>', description: 'a string field, sent as given: -f name=1984 sends "1984" (repeatable)', parse: collect },
  { flags: '-F, --field <key=value>', description: "a typed field: numbers, true, false and null as JSON, @file for a file's content, @- for stdin (repeatable)", parse: collect },
  { flags: '-H, --header <header>', description: "an extra request header 'Name: value' (repeatable; Authorization is sct's own)", parse: collect },
  { flags: '-i, --include', description: 'print the status line and the response headers before the body' },
  { flags: '--input <file>', description: 'request body from a file (- for stdin), sent as it is: JSON unless -H names another Content-Type; fields then go in the query string' },
  { flags: '--paginate', description: 'follow `next` links and print every result as one JSON array' },
  { ...DRY_RUN_OPTION, description: 'print the request (method, path, body) instead of sending it; not for a GET' },
] as const;

export type ApiOptions = OptionsOf<typeof API_OPTIONS>;

export const register = registerOf(defineLeaf({
  name: 'api',
  summary: 'Make an authenticated request to any API path and print the JSON response',
  args: [{ name: '<path>', description: 'path relative to the base URL, e.g. /orders?order_action=buying' }],
  options: API_OPTIONS,
  help: API_HELP,
  examples: API_EXAMPLES,
  run: (ctx, opts, [path]) => api(ctx, path, opts),
}));

/**
 * A -F number JavaScript cannot hold as typed (an integer past 2^53, more than 15 significant
 * digits): sent with its digits as typed, as gh sends it, never rounded.
 */
export class TypedNumber {
  constructor(readonly text: string) {}
}

/** A -F value as gh types it: true/false/null, a number, a file's content (@file, @- stdin), else the string. */
export async function typedValue(raw: string, stdin: NodeJS.ReadableStream, signal?: AbortSignal): Promise<unknown> {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw)) {
    const digits = raw.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
    const n = Number(raw);
    return (Number.isInteger(n) && !raw.includes('.') ? Number.isSafeInteger(n) : digits.length <= 15) ? n : new TypedNumber(raw);
  }
  if (raw.startsWith('@')) {
    return readInputText(raw.slice(1), stdin, { what: '-F', signal });
  }
  return raw;
}

/** A JSON body with each TypedNumber written as its digits. */
export function jsonWithTypedNumbers(value: unknown): string {
  const digits: string[] = [];
  // A private-use character and a random tag: no string of the user's can be taken for a mark.
  const mark = `\u{E000}${Math.random().toString(36).slice(2)}:`;
  const text = JSON.stringify(value, (_k, v: unknown) => (v instanceof TypedNumber ? `${mark}${digits.push(v.text) - 1}` : v));
  return digits.length === 0 ? text : text.replace(new RegExp(`"${mark}(\\d+)"`, 'gu'), (_m, i: string) => digits[Number(i)]!);
}

/** A POST whose answer never came is run again with its key as a header (gh's way). */
const HEADER_KEY: RerunKey = { flag: (key) => `-H 'Idempotency-Key: ${key}'`, done: 'done', doing: 'doing' };

/** `Name: value` headers, checked: a reserved name is exit 2. */
export function parseHeaders(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values) {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim() : '';
    // What was given is not repeated: a header may carry a secret (a token pasted into one).
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`invalid -H: expected 'Name: value', and what was given ${i < 0 ? 'has no ":"' : 'has no header name before its ":"'}`);
    const value = h.slice(i + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`invalid -H "${name}": the value has a line break`);
    // What Node (and HTTP/1.1) can put on the wire: a header is Latin-1 text.
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) throw new UsageError(`-H ${name}: the value has characters a header cannot carry (only Latin-1 text): nothing was sent`);
    const reserved = Object.hasOwn(RESERVED_HEADERS, name.toLowerCase()) ? RESERVED_HEADERS[name.toLowerCase()] : undefined;
    if (reserved) {
      throw new UsageError(`-H ${name}: ${reserved.why}`, {}, reserved.hint);
    }
    // A script's unset `$KEY`: sent, a retry of the write after a lost answer goes under a key
    // the service cannot match to the first, and no rerun hint can name one.
    if (name.toLowerCase() === 'idempotency-key' && value === '') {
      throw new UsageError(`-H ${name}: the value is empty, and the service cannot tell a repeat of the request by an empty key: nothing was sent`, {}, `give the key, or leave out -H ${name} for sct to make one`);
    }
    // A header is one value on the wire: of two, one would be dropped without a word (and two
    // Idempotency-Keys for one write leave the rerun's key a guess).
    const earlier = Object.keys(headers).find((n) => n.toLowerCase() === name.toLowerCase());
    if (earlier !== undefined) {
      if (headers[earlier] === value) continue;
      throw new UsageError(`-H ${name} given twice with two values: a request carries one; give it once`);
    }
    headers[name] = value;
  }
  return headers;
}

export async function api(ctx: Context, path: string, opts: ApiOptions): Promise<void> {
  try {
    await callApi(ctx, path, opts);
  } catch (err) {
    // `sct api /api/orders`: the path doubled the base URL's /api.
    if (err instanceof ApiError && err.status === 404 && /^\/api(\/|$)/.test(path) && /\/api\/?$/.test(ctx.client().baseUrl)) {
      // The path as typed may hold the token (`?t=$SCT_TOKEN`): masked as in the error above it.
      err.hint = withoutToken(`paths are relative to the base URL (${ctx.client().baseUrl}), which ends in /api already: did you mean ${path.slice(4) || '/'}?`, tokenOf(ctx));
    }
    throw err;
  }
}

async function callApi(ctx: Context, path: string, opts: ApiOptions): Promise<void> {
  // A script's unset `$P` (`sct api "$P" -X DELETE`) must not become a request to the API's root.
  if (path.trim() === '') throw new UsageError('give the API path, e.g. /orders (an empty one was given)');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.startsWith('//')) throw new UsageError('give a path relative to the base URL (e.g. /orders), not a full URL');
  const headers = parseHeaders(opts.header ?? []);
  const fromStdin = [opts.input === '-' ? '--input -' : undefined, ...(opts.field ?? []).filter((f) => f.endsWith('=@-')).map((f) => `-F ${f}`)].filter(Boolean);
  if (fromStdin.length > 1) throw new UsageError(`stdin can be read once: ${fromStdin.join(' and ')} both ask for it`);
  // Fields in the order given: -f strings, -F typed; in a query string each as the user typed it.
  const fields: Array<{ key: string; value: unknown; text: string }> = [];
  for (const pair of opts.rawField ?? []) {
    const [key, value] = splitKeyValue(pair, '-f');
    fields.push({ key, value, text: value });
  }
  for (const pair of opts.field ?? []) {
    const [key, raw] = splitKeyValue(pair, '-F');
    // `-F a=@$FILE` with $FILE unset: no file to name in "cannot read … for -F".
    if (raw === '@') throw new UsageError(`invalid -F "${pair}": the file name after @ is missing (@- reads stdin)`);
    const value = await typedValue(raw, ctx.io.stdin, ctx.signal);
    fields.push({ key, value, text: typeof value === 'string' ? value : value === null ? '' : raw });
  }
  const method = (opts.method ?? (fields.length || opts.input ? 'POST' : 'GET')).toUpperCase();
  if (!(METHODS as readonly string[]).includes(method)) throw new UsageError(`invalid method "${opts.method}": use one of ${METHODS.join(', ')}`);
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
  // The reads of other commands go out on a dry run because a write is built from them; here
  // the read is the whole command.
  if (opts.dryRun && (method === 'GET' || method === 'HEAD')) throw new UsageError(`--dry-run shows a request that changes something: a ${method} changes nothing, run it without --dry-run`);
  if (opts.paginate && opts.include) throw new UsageError('-i/--include shows one answer: it cannot be combined with --paginate');
  // Only the first ? ends the path: a later one is part of a value.
  const q = path.indexOf('?');
  const pathname = q < 0 ? path : path.slice(0, q);
  // As typed, for the one request sent (`?a=1&b`, `%E9`, `%ZZ` unchanged); parsed for --paginate,
  // which sets the page's limit and offset in it.
  const typedQuery = q < 0 ? '' : path.slice(q + 1).replace(/#.*$/s, '');
  const query = new URLSearchParams(opts.paginate ? typedQuery : '');
  const p = pathname.startsWith('/') ? pathname : '/' + pathname;
  let body: unknown;
  let bodyAsIs: string | Buffer | undefined;
  if (opts.input) {
    if (method === 'GET' || method === 'HEAD' || method === 'DELETE') throw new UsageError(`--input sends a body, which ${method} does not take`);
    bodyAsIs = await inputBody(opts.input, headers, ctx);
  }
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE' || opts.input) {
    // As gh: fields of a GET (or beside an --input body) are query parameters.
    for (const f of fields) query.append(f.key, f.text);
  } else if (fields.length) {
    const obj: Record<string, unknown> = {};
    for (const f of fields) setField(obj, f.key, f.value);
    if (fields.some((f) => f.value instanceof TypedNumber)) bodyAsIs = writtenJson(`${method} ${p}`, () => jsonWithTypedNumbers(obj));
    else body = obj;
  }
  const client = ctx.client();
  // sct api prints JSON unless -o asks for another format (the profile's table is not for raw answers).
  const format = ctx.flags.output !== undefined ? ctx.format() : 'json';

  if (opts.paginate) {
    let writer: ListWriter | undefined;
    // A limit in the path sets the page size; --paginate always goes to the end.
    const pageSize = Number(query.get('limit')) || undefined;
    const offset = Number(query.get('offset')) || 0;
    const changes: ListChanges = { duplicates: 0, first: null, last: null };
    try {
      for await (const page of client.paginate(p, query, { all: true, pageSize, offset, anyItems: true, anyAnswer: true })) {
        writer ??= listWriter(ctx, format, page.results);
        await writer.write(page.results);
        noteChanges(changes, page);
      }
    } catch (err) {
      // As gh api --paginate: an answer that is no list (an object, a 204, a CSV) has no next
      // page, and is printed as without --paginate.
      if (err instanceof NotAList) return printAnswer(ctx, { status: err.page.status, headers: err.page.headers, data: err.page.data }, method, p, format);
      // As a list command: what was read stays parseable, and the error says it is incomplete.
      if (!writer?.wholeOnly) await writer?.end().catch(() => undefined);
      warnChanged(ctx, changes, 'items', err);
      throw err;
    }
    await (writer ?? listWriter(ctx, format, [])).end();
    return warnChanged(ctx, changes, 'items');
  }
  let res;
  try {
    const givenKey = Object.entries(headers).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];
    res = await withRerunKey(client.request({ method: method as Method, path: typedQuery ? `${p}?${typedQuery}` : p, query, body, bodyAsIs, headers, anyAnswer: true }), HEADER_KEY, givenKey);
  } catch (err) {
    // As gh api -i: a failure's status line, headers and body are what -i is asked for.
    if (opts.include && err instanceof SctError && err.answer) {
      const text = err.answer.text;
      await ctx.io.write(statusBlock(ctx, err.answer.status, err.answer.headers) + (ctx.io.stdoutIsTTY ? stripControl(text) : text) + (text && !text.endsWith('\n') ? '\n' : ''));
    }
    throw err;
  }
  if (opts.include) await ctx.io.write(statusBlock(ctx, res.status, res.headers));
  return printAnswer(ctx, res, method, p, format);
}

/** An answer as the output asked for has it (after -i's status block). */
async function printAnswer(ctx: Context, res: ApiResponse<unknown>, method: string, p: string, format: ReturnType<Context['format']>): Promise<void> {
  // No body at all (204, an empty answer): nothing to print. A JSON null is printed as JSON.
  if (res.data === undefined || (res.data === null && (res.status === 204 || res.status === 205 || res.headers['content-length'] === '0'))) return;
  const answered = res.redirectedBy === undefined ? `went through (${res.status})` : `was answered with a redirect (${res.redirectedBy} ${statusText(res.redirectedBy)}), and the GET of where it pointed answered ${res.status}`;
  // A write's answer (a created object's id) is never lost to a filter that fails on it: it is
  // written as it came, and the run is exit 1 saying the write went through. A read's can be
  // asked for again.
  const wrote = method !== 'GET' && method !== 'HEAD';
  if (res.data instanceof RawAnswer) {
    const raw = res.data;
    const size = `${raw.bytes.length.toLocaleString('en-US')} bytes`;
    if (ctx.flags.jq !== undefined && !wrote) throw new AnswerError(`--jq filters JSON, but ${method} ${p} answered ${raw.type || 'data'} (${size}), not JSON: nothing is printed`);
    // Why a write's run fails once its answer is written: not the JSON it should be (the service
    // said it was done: never "it may have been done", which would have it sent again), or not
    // the JSON --jq filters.
    const why = raw.notJson !== undefined ? `its answer is not JSON (${raw.notJson}, ${size})` : ctx.flags.jq !== undefined ? `--jq filters JSON and the answer is ${raw.type || 'data'} (${size})` : undefined;
    const shown = await writeRaw(ctx, raw);
    if (shown && why !== undefined) throw new AnswerError(`${method} ${p} ${answered}, but ${why}: it is written to stdout as it came`);
    if (shown) return;
    // A read's bytes can be asked for again, into a file; a write's cannot be without doing it twice.
    const twice = `would do it a second time (-i or > file would show only that second answer)`;
    if (why !== undefined) throw Object.assign(new AnswerError(`${method} ${p} ${answered}, but ${why}, not shown at a terminal`), { hint: `sending the ${method} again to see its answer ${twice}` });
    ctx.io.info(`${size} of ${raw.type || 'data'}, not shown at a terminal: ${wrote ? `the ${method} was done, and sending it again to see them ${twice}` : 'send them to a file (sct api … > file)'}`);
    return;
  }
  const asJson = () => ctx.io.write(JSON.stringify(terminalSafe(ctx.io)(res.data), null, 2) + '\n');
  const rows = listRows(res.data);
  if (format !== 'json' && ctx.flags.jq === undefined) {
    if (!rows) {
      // One object: one line of ndjson, or the key/value view every `get` shows at -o table.
      if (format === 'ndjson' || format === 'table') return writeOne(ctx.io, res.data, ctx.output([]));
      // Known only once the answer came, so never exit 2 ("nothing sent"): the answer is written
      // as JSON (a write's, a created object's id, is never lost) and the run is exit 1.
      await asJson();
      throw new AnswerError(`${method} ${p} ${answered}, but -o ${format} needs a list answer (an array, or an object with results): the answer is written to stdout as JSON`);
    }
    const w = listWriter(ctx, format, rows);
    await w.write(rows);
    return w.end();
  }
  // --columns of a list answer pick each row's fields, as they do on a list command's page.
  if (ctx.flags.jq === undefined && ctx.columns() !== undefined && rows) {
    const w = listWriter(ctx, 'json', rows);
    await w.write(rows);
    return w.end();
  }
  if (ctx.flags.jq !== undefined || ctx.columns() !== undefined) {
    try {
      return await writeOne(ctx.io, res.data, { ...ctx.output([]), format: 'json' });
    } catch (err) {
      if (!(err instanceof JqError && wrote)) throw err;
      await asJson();
      throw new AnswerError(`${method} ${p} ${answered}, but --jq failed: ${err.message.replace(/^--jq:? /, '')}; the answer is written to stdout as JSON`);
    }
  }
  await asJson();
}

/**
 * The body of --input as the file has it, as gh sends it: never parsed and written again, which
 * would round an id past 2^53 or drop a duplicate key. Sent as JSON (no other Content-Type in
 * -H), it must be JSON: a file that is none is exit 2 with nothing sent.
 */
async function inputBody(file: string, headers: Record<string, string>, ctx: Context): Promise<string | Buffer> {
  const bytes = await readInput(file, ctx.io.stdin, { signal: ctx.signal });
  const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (type !== undefined && !/^application\/(json|[\w.+-]+\+json)\b|^text\/json\b/i.test(type)) return bytes;
  // A byte-order mark, as Windows editors write one, is no part of JSON.
  const text = inputText(bytes, file, { what: '--input' }).replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new UsageError(`${inputName(file)} is empty: --input sends it as JSON, and there is none`, {}, 'leave out --input to send no body');
  try {
    JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${inputName(file)} is not valid JSON${jsonErrorPlace(text, (err as Error).message)}`, {}, "give another type with -H 'Content-Type: …' to send it as it is");
  }
  return text;
}

/**
 * An answer that is not JSON, as gh api prints it: its bytes as they came into a pipe or a file
 * (`sct api … > evidence.zip`). At a terminal text is shown stripped of control characters, and
 * anything else is not written (false), for the caller to say: its bytes would garble the terminal.
 */
async function writeRaw(ctx: Context, answer: RawAnswer): Promise<boolean> {
  if (!ctx.io.stdoutIsTTY) await ctx.io.write(answer.bytes);
  // One that should have been JSON is text (read as UTF-8 already), whatever its type.
  else if (answer.notJson !== undefined || /^text\/|\/(csv|xml|x-ndjson)$/i.test(answer.type)) await ctx.io.write(stripControl(answer.bytes.toString('utf8')));
  else return false;
  return true;
}

/** A field into a JSON body: dotted keys nest, `key[]` appends to an array (as gh), nested or not. */
function setField(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key.endsWith('[]')) {
    const k = key.slice(0, -2);
    let existing: unknown = obj;
    for (const part of k.split('.')) existing = existing && typeof existing === 'object' && Object.hasOwn(existing, part) ? (existing as Record<string, unknown>)[part] : undefined;
    setDotted(obj, k, Array.isArray(existing) ? [...existing, value] : [value]);
    return;
  }
  setDotted(obj, key, value);
}

/** The rows of a list answer: an array, or a page's `results`. */
function listRows(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object' && Array.isArray((data as { results?: unknown }).results)) return (data as { results: unknown[] }).results;
  return undefined;
}

/** Table columns of a raw answer: the first row's fields (there are no resource defaults here). */
function listWriter(ctx: Context, format: ReturnType<Context['format']>, sample: unknown[]): ListWriter {
  const first = sample.find((r) => r && typeof r === 'object') as Record<string, unknown> | undefined;
  // The headers are the service's keys: cleaned as its values are, into a pipe too.
  const defaults = first ? Object.keys(first).map((k) => ({ header: cleanCell(k), path: k })) : [];
  return createListWriter(ctx.io, { ...ctx.output(defaults), format });
}

/** `HTTP/1.1 200 OK` and the headers, as gh api -i prints them. */
function statusBlock(ctx: Context, status: number, headers: Record<string, string | string[] | undefined>): string {
  const clean = ctx.io.stdoutIsTTY ? stripControl : (s: string) => s;
  let out = `HTTP/1.1 ${status} ${statusText(status)}\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const canonical = name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
    for (const v of Array.isArray(value) ? value : [value]) out += `${canonical}: ${clean(v)}\n`;
  }
  return out + '\n';
}
