import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { Factory } from './shared/command.js';
import type { Method } from '../api/client.js';
import { UsageError } from '../errors.js';
import { collect, parseLooseValue, setDotted, splitKeyValue } from './shared/flags.js';
import { readJsonFile } from './shared/body.js';
import { createListWriter, terminalSafe } from '../output/format.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface ApiOptions {
  method?: string;
  field?: string[];
  input?: string;
  paginate?: boolean;
}

export function register(program: Command, f: Factory): void {
  program
    .command('api')
    .description('Make an authenticated request to any API path and print the JSON response')
    .argument('<path>', 'path relative to the base URL, e.g. /orders?order_action=buying')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST when -f/--input is given)')
    .option('-f, --field <key=value>', 'a query parameter (GET/DELETE) or body field (others); values parsed as JSON when they parse (repeatable)', collect)
    .option('--input <file>', 'request body from a JSON file (- for stdin)')
    .option('--paginate', 'follow `next` links and print every result as one JSON array')
    .addHelpText('after', '\nExamples:\n  sct api /accounts/me\n  sct api /orders -f order_action=buying -f limit=5\n  sct api -X PATCH /origins/12 -f name="North plot"\n  sct api /origins --paginate -o ndjson')
    .action(f.action<ApiOptions>((ctx, opts, [path]) => api(ctx, path, opts)));
}

export async function api(ctx: Context, path: string, opts: ApiOptions): Promise<void> {
  if (/^[a-z]+:\/\//i.test(path)) throw new UsageError('give a path relative to the base URL (e.g. /orders), not a full URL');
  const fields = opts.field ?? [];
  const method = (opts.method ?? (fields.length || opts.input ? 'POST' : 'GET')).toUpperCase();
  if (!METHODS.includes(method)) throw new UsageError(`invalid method "${opts.method}": use one of ${METHODS.join(', ')}`);
  const [pathname, search] = path.split('?', 2);
  const query = new URLSearchParams(search ?? '');
  let body: unknown;
  if (opts.input) body = await readJsonFile(opts.input, ctx.io.stdin);
  if (method === 'GET' || method === 'DELETE') {
    if (opts.input) throw new UsageError(`--input sends a body, which ${method} does not take`);
    for (const pair of fields) query.append(...splitKeyValue(pair, '--field'));
  } else if (fields.length) {
    const obj = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    for (const pair of fields) {
      const [k, v] = splitKeyValue(pair, '--field');
      setDotted(obj, k, parseLooseValue(v));
    }
    body = obj;
  }
  const p = pathname.startsWith('/') ? pathname : '/' + pathname;
  const client = ctx.client();

  if (opts.paginate) {
    if (method !== 'GET') throw new UsageError('--paginate works with GET only');
    const format = ctx.flags.output || ctx.flags.json ? ctx.format() : 'json';
    const writer = createListWriter(ctx.io, { format, columns: ctx.flags.columns, csvFormulas: ctx.flags.csvFormulas, defaults: [] });
    // A limit in the path sets the page size; --paginate always goes to the end.
    const pageSize = Number(query.get('limit')) || undefined;
    const offset = Number(query.get('offset')) || 0;
    for await (const page of client.paginate(p, query, { all: true, pageSize, offset })) {
      await writer.write(page.results);
    }
    return writer.end();
  }
  const res = await client.request({ method: method as Method, path: p, query, body });
  if (res.data === null || res.data === undefined) return;
  const pretty = ctx.io.stdoutIsTTY || ctx.format() === 'json';
  const data = terminalSafe(ctx.io)(res.data);
  await ctx.io.write((typeof data === 'string' ? data : JSON.stringify(data, null, pretty ? 2 : 0)) + '\n');
}
