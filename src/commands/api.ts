// sct api: any request through the same client (auth, retries, rate limits), with gh api's flags.
import { readInputText } from '../util/files.js';
import type { Context } from '../context.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import type { Method } from '../api/request.js';
import { statusText } from '../api/errors.js';
import { RawAnswer } from '../api/answers.js';
import { AnswerError, ApiError, UsageError } from '../errors.js';
import { collect, setDotted, splitKeyValue } from './shared/flags.js';
import { warnDuplicates } from './shared/list.js';
import { readJsonFile } from './shared/body.js';
import { createListWriter, terminalSafe, writeOne, type ListWriter } from '../output/format.js';
import { stripControl } from '../output/sanitize.js';
import { API_EXAMPLES, API_HELP } from '../help/topics.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Headers sct owns: the token is sct's to send, and only to the configured origin. */
const RESERVED_HEADERS = ['authorization', 'host', 'content-length', 'cookie', 'proxy-authorization'];

const API_OPTIONS = [
  { flags: '-X, --method <method>', description: (v: readonly string[]) => `HTTP method: ${v.join(', ')} (default GET, or POST when fields are given)`, values: METHODS },
  { flags: '-f, --raw-field <key=value>', description: 'a string field, sent as given: -f name=1984 sends "1984" (repeatable)', parse: collect },
  { flags: '-F, --field <key=value>', description: "a typed field: numbers, true, false and null as JSON, @file for a file's content, @- for stdin (repeatable)", parse: collect },
  { flags: '-H, --header <header>', description: "an extra request header 'Name: value' (repeatable; Authorization is sct's own)", parse: collect },
  { flags: '-i, --include', description: 'print the status line and the response headers before the body' },
  { flags: '--input <file>', description: 'request body from a JSON file (- for stdin); fields then go in the query string' },
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

/** A -F value as gh types it: true/false/null, a number, a file's content (@file, @- stdin), else the string. */
export async function typedValue(raw: string, stdin: NodeJS.ReadableStream, signal?: AbortSignal): Promise<unknown> {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw) && Number.isFinite(Number(raw))) return Number(raw);
  if (raw.startsWith('@')) {
    return readInputText(raw.slice(1), stdin, { what: '-F', signal });
  }
  return raw;
}

/** `Name: value` headers, checked: a reserved name is exit 2. */
export function parseHeaders(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values) {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`invalid -H "${h}": expected 'Name: value'`);
    const value = h.slice(i + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`invalid -H "${name}": the value has a line break`);
    if (RESERVED_HEADERS.includes(name.toLowerCase())) {
      throw new UsageError(`-H ${name}: sct sets this header itself (the token goes only to the configured base URL)`, {}, 'use SCT_TOKEN or --profile for another token');
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
      err.hint = `paths are relative to the base URL (${ctx.client().baseUrl}), which ends in /api already: did you mean ${path.slice(4) || '/'}?`;
    }
    throw err;
  }
}

async function callApi(ctx: Context, path: string, opts: ApiOptions): Promise<void> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.startsWith('//')) throw new UsageError('give a path relative to the base URL (e.g. /orders), not a full URL');
  const headers = parseHeaders(opts.header ?? []);
  // Fields in the order given: -f strings, -F typed.
  const fields: Array<[string, unknown]> = [];
  for (const pair of opts.rawField ?? []) fields.push(splitKeyValue(pair, '-f'));
  for (const pair of opts.field ?? []) {
    const [k, v] = splitKeyValue(pair, '-F');
    fields.push([k, await typedValue(v, ctx.io.stdin, ctx.signal)]);
  }
  const method = (opts.method ?? (fields.length || opts.input ? 'POST' : 'GET')).toUpperCase();
  if (!(METHODS as readonly string[]).includes(method)) throw new UsageError(`invalid method "${opts.method}": use one of ${METHODS.join(', ')}`);
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
  // The reads of other commands go out on a dry run because a write is built from them; here
  // the read is the whole command.
  if (opts.dryRun && method === 'GET') throw new UsageError('--dry-run shows a request that changes something: a GET changes nothing, run it without --dry-run');
  if (opts.paginate && opts.include) throw new UsageError('-i/--include shows one answer: it cannot be combined with --paginate');
  const [pathname, search] = path.split('?', 2);
  const query = new URLSearchParams(search ?? '');
  let body: unknown;
  if (opts.input) {
    if (method === 'GET' || method === 'DELETE') throw new UsageError(`--input sends a body, which ${method} does not take`);
    body = await readJsonFile(opts.input, ctx.io.stdin, ctx.signal);
  }
  if (method === 'GET' || method === 'DELETE' || opts.input) {
    // As gh: fields of a GET (or beside an --input body) are query parameters.
    for (const [k, v] of fields) query.append(k, v === null ? '' : String(v));
  } else if (fields.length) {
    const obj: Record<string, unknown> = {};
    for (const [k, v] of fields) setField(obj, k, v);
    body = obj;
  }
  const p = pathname.startsWith('/') ? pathname : '/' + pathname;
  const client = ctx.client();
  // sct api prints JSON unless -o asks for another format (the profile's table is not for raw answers).
  const format = ctx.flags.output !== undefined ? ctx.format() : 'json';

  if (opts.paginate) {
    let writer: ListWriter | undefined;
    // A limit in the path sets the page size; --paginate always goes to the end.
    const pageSize = Number(query.get('limit')) || undefined;
    const offset = Number(query.get('offset')) || 0;
    let duplicates = 0;
    try {
      for await (const page of client.paginate(p, query, { all: true, pageSize, offset })) {
        writer ??= listWriter(ctx, format, page.results);
        await writer.write(page.results);
        duplicates = page.duplicates;
      }
    } catch (err) {
      // As a list command: what was read stays parseable, and the error says it is incomplete.
      await writer?.end().catch(() => undefined);
      warnDuplicates(ctx, duplicates, 'items');
      throw err;
    }
    await (writer ?? listWriter(ctx, format, [])).end();
    return warnDuplicates(ctx, duplicates, 'items');
  }
  const res = await client.request({ method: method as Method, path: p, query, body, headers, anyAnswer: true });
  if (opts.include) await ctx.io.write(statusBlock(ctx, res.status, res.headers));
  if (res.data === null || res.data === undefined) return;
  if (res.data instanceof RawAnswer) return writeRaw(ctx, res.data);
  const rows = listRows(res.data);
  if (format !== 'json' && ctx.flags.jq === undefined) {
    if (!rows) {
      // One object: one line of ndjson, or the key/value view every `get` shows at -o table.
      if (format === 'ndjson' || format === 'table') return writeOne(ctx.io, res.data, ctx.output([]));
      // Known only once the answer came, so never exit 2 ("nothing sent"): the answer is written
      // as JSON (a write's, a created object's id, is never lost) and the run is exit 1.
      await ctx.io.write(JSON.stringify(terminalSafe(ctx.io)(res.data), null, 2) + '\n');
      throw new AnswerError(`${method} ${p} went through (${res.status}), but -o ${format} needs a list answer (an array, or an object with results): the answer is written to stdout as JSON`);
    }
    const w = listWriter(ctx, format, rows);
    await w.write(rows);
    return w.end();
  }
  if (ctx.flags.jq !== undefined || ctx.columns() !== undefined) return writeOne(ctx.io, res.data, { ...ctx.output([]), format: 'json' });
  const data = terminalSafe(ctx.io)(res.data);
  await ctx.io.write((typeof data === 'string' ? data : JSON.stringify(data, null, 2)) + '\n');
}

/**
 * An answer that is not JSON, as gh api prints it: its bytes as they came into a pipe or a file
 * (`sct api … > evidence.zip`). At a terminal text is shown stripped of control characters, and
 * anything else is said, not dumped: its bytes would garble the terminal.
 */
async function writeRaw(ctx: Context, answer: RawAnswer): Promise<void> {
  if (!ctx.io.stdoutIsTTY) return ctx.io.write(answer.bytes);
  if (/^text\/|\/(csv|xml|x-ndjson)$/i.test(answer.type)) return ctx.io.write(stripControl(answer.bytes.toString('utf8')));
  ctx.io.info(`${answer.bytes.length.toLocaleString('en-US')} bytes of ${answer.type || 'data'}, not shown at a terminal: send them to a file (sct api … > file)`);
}

/** A field into a JSON body: dotted keys nest, `key[]` appends to an array (as gh). */
function setField(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key.endsWith('[]')) {
    const k = key.slice(0, -2);
    const existing = Object.hasOwn(obj, k) ? obj[k] : undefined;
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
  const defaults = first ? Object.keys(first).map((k) => ({ header: k, path: k })) : [];
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
