// HTTP stubs for tests of a command's run function, over undici's MockAgent (the client's
// `dispatcher` option): each stub answers one request and must be used — verify() fails naming
// every stub left over — and a request no stub matches fails at once, naming its method and path,
// however the command handles the error. Every request is recorded with its query and body, so
// a test states exactly what was sent, in order.
import { MockAgent } from 'undici';
import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { createContext, type Context, type ContextDeps, type GlobalFlags } from '../../src/context.js';
import { buildProgram } from '../../src/cli.js';
import { createFactory, type Register } from '../../src/commands/shared/command.js';
import type { Prompter } from '../../src/prompt.js';
import { createTestIO } from './io.js';

export const ORIGIN = 'https://api.test';
export const BASE_URL = `${ORIGIN}/api`;
export const TOKEN = 'sct_test-token';

type Query = Record<string, string | string[]>;

/** One request as the command sent it; path and query apart, the path relative to the base URL. */
export interface SentRequest {
  method: string;
  path: string;
  query: Query;
  /** The body parsed as JSON (its text when it is none; undefined when there was no body). */
  body: unknown;
  headers: Record<string, string>;
}

export interface Reply {
  status?: number;
  /** Sent as JSON; status 200 unless given. */
  json?: unknown;
  headers?: Record<string, string>;
}

export interface Match {
  /** Every parameter of the query, exactly (repeated ones as arrays); or a test of it. */
  query?: Query | ((query: Query) => boolean);
  /** The JSON body, exactly; or a test of it. */
  body?: unknown;
}

interface Stub {
  method: string;
  path: string;
  match: Match;
  reply: Reply | ((req: SentRequest) => Reply);
  used: boolean;
  /** Where the stub was declared, for verify()'s message. */
  at: string;
}

/** The status a request without a stub is answered with: a client error no client retries. */
const NO_STUB_STATUS = 418;

export class HttpMock {
  readonly agent = new MockAgent();
  readonly requests: SentRequest[] = [];
  /** Requests no stub matched ("GET /orders/5?limit=1"). */
  readonly unexpected: string[] = [];
  private readonly stubs: Stub[] = [];

  constructor() {
    this.agent.disableNetConnect();
    // One catch-all interceptor: the stubs are matched here, in the order declared.
    this.agent
      .get(ORIGIN)
      .intercept({ path: () => true, method: () => true })
      .reply((opts) => this.answer(opts.method, String(opts.path), opts.headers, opts.body))
      .persist();
  }

  /** A stub answering one request of `method` and `path` (relative to the API base, no query). */
  stub(method: string, path: string, reply: Stub['reply']): this;
  stub(method: string, path: string, match: Match, reply: Stub['reply']): this;
  stub(method: string, path: string, a: Match | Stub['reply'], b?: Stub['reply']): this {
    const [match, reply] = b === undefined ? [{}, a as Stub['reply']] : [a as Match, b];
    const at = new Error().stack?.split('\n').find((l) => l.includes('.test.ts'))?.trim() ?? '';
    this.stubs.push({ method: method.toUpperCase(), path, match, reply, used: false, at });
    return this;
  }

  /** "GET /orders/5", "POST /orders/purchase": the requests as method and path, in order. */
  sent(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  /** Fails listing every stub not used and every request no stub matched. */
  verify(): void {
    const unused = this.stubs.filter((s) => !s.used).map((s) => `  ${s.method} ${s.path}${describeMatch(s.match)} (${s.at})`);
    const problems = [
      ...(unused.length ? [`${unused.length} HTTP stub${unused.length === 1 ? '' : 's'} not used:`, ...unused] : []),
      ...(this.unexpected.length ? [`${this.unexpected.length} request${this.unexpected.length === 1 ? '' : 's'} without a stub:`, ...this.unexpected.map((u) => `  ${u}`)] : []),
    ];
    if (problems.length) throw new Error(problems.join('\n'));
  }

  /** Forgets the stubs and the requests, for the next test. */
  reset(): void {
    this.stubs.length = 0;
    this.requests.length = 0;
    this.unexpected.length = 0;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private answer(method: string, rawPath: string, headers: unknown, rawBody: unknown) {
    const url = new URL(rawPath, ORIGIN);
    const path = url.pathname.startsWith('/api/') ? url.pathname.slice(4) : url.pathname;
    const req: SentRequest = { method, path, query: queryOf(url.searchParams), body: bodyOf(rawBody), headers: headersOf(headers) };
    this.requests.push(req);
    const stub = this.stubs.find((s) => !s.used && s.method === method && s.path === path && matches(s.match, req));
    if (!stub) {
      const line = `${method} ${path}${url.search}${req.body === undefined ? '' : ` ${JSON.stringify(req.body)}`}`;
      this.unexpected.push(line);
      return json(NO_STUB_STATUS, { detail: `no HTTP stub for ${line}` });
    }
    stub.used = true;
    const reply = typeof stub.reply === 'function' ? stub.reply(req) : stub.reply;
    return reply.json === undefined
      ? { statusCode: reply.status ?? 204, data: '', responseOptions: { headers: reply.headers ?? {} } }
      : json(reply.status ?? 200, reply.json, reply.headers);
  }
}

function json(status: number, data: unknown, headers: Record<string, string> = {}) {
  return { statusCode: status, data: JSON.stringify(data), responseOptions: { headers: { 'content-type': 'application/json', ...headers } } };
}

function queryOf(params: URLSearchParams): Query {
  const query: Query = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    query[key] = all.length === 1 ? all[0] : all;
  }
  return query;
}

function bodyOf(raw: unknown): unknown {
  if (raw === undefined || raw === null) return undefined;
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) || raw instanceof Uint8Array ? Buffer.from(raw).toString('utf8') : String(raw);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function headersOf(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) for (let i = 0; i < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  else if (raw && typeof raw === 'object') for (const [k, v] of Object.entries(raw)) out[k.toLowerCase()] = String(v);
  return out;
}

function matches(match: Match, req: SentRequest): boolean {
  if (typeof match.query === 'function' ? !match.query(req.query) : match.query !== undefined && !isDeepStrictEqual(match.query, req.query)) return false;
  if (typeof match.body === 'function') return (match.body as (b: unknown) => boolean)(req.body);
  return match.body === undefined || isDeepStrictEqual(match.body, req.body);
}

function describeMatch(match: Match): string {
  const parts = [
    match.query === undefined ? '' : typeof match.query === 'function' ? ' query matching a test' : ` query ${JSON.stringify(match.query)}`,
    match.body === undefined ? '' : typeof match.body === 'function' ? ' body matching a test' : ` body ${JSON.stringify(match.body)}`,
  ];
  return parts.join('');
}

/** One HttpMock for a test file: verified after each test (then emptied), closed after the last. */
export function useHttpMock(): HttpMock {
  const http = new HttpMock();
  afterEach(() => {
    try {
      http.verify();
    } finally {
      http.reset();
    }
  });
  afterAll(() => http.close());
  return http;
}

const unexpectedPrompt = async (message: string): Promise<never> => {
  throw new Error(`unexpected prompt: ${message}`);
};

/** For runs without a terminal: any question is a failure of the test. */
const noPrompter: Prompter = { confirm: unexpectedPrompt, input: unexpectedPrompt, select: unexpectedPrompt, password: unexpectedPrompt };

export interface RunOptions {
  /** The global flags (--yes, -o json, …) as commander gives them. */
  flags?: GlobalFlags;
  dryRun?: boolean;
  /** What stdin holds. */
  input?: string;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/**
 * What an action builds its context from, with the client sending through `http` and a
 * throwaway config directory (removed by `done`).
 */
function commandDeps(http: HttpMock, o: RunOptions) {
  const configDir = mkdtempSync(join(tmpdir(), 'sct-unit-'));
  const io = createTestIO({ input: o.input });
  const deps: ContextDeps = {
    io: io.io,
    env: { SCT_BASE_URL: BASE_URL, SCT_TOKEN: TOKEN, SCT_CONFIG_DIR: configDir, HOME: configDir, NO_COLOR: '1' },
    prompter: noPrompter,
    signal: new AbortController().signal,
    clientOptions: { dispatcher: http.agent, retryBaseMs: 1 },
  };
  return {
    deps,
    result: (): RunResult => ({ stdout: io.stdout(), stderr: io.stderr() }),
    done: () => rmSync(configDir, { recursive: true, force: true }),
  };
}

/** Runs a command's run function with a context made by createContext, as its action would. */
export async function runWith(http: HttpMock, run: (ctx: Context) => Promise<void>, o: RunOptions = {}): Promise<RunResult> {
  const { deps, result, done } = commandDeps(http, o);
  const ctx = createContext(o.flags ?? {}, deps, { dryRun: o.dryRun });
  try {
    await run(ctx);
    return result();
  } finally {
    await ctx.dispose();
    done();
  }
}

/**
 * For the verbs whose run function is made where the command is registered (the shared
 * create/update of products, origins and value chains): the group registered on its own, with
 * the action wrapper main() uses, and one command line parsed (`sct` left out). No process.
 */
export async function runRegistered(http: HttpMock, register: Register, args: string[], o: Pick<RunOptions, 'input'> = {}): Promise<RunResult> {
  const { deps, result, done } = commandDeps(http, o);
  // The global options (-o, --yes, …) as main() defines them; only this one group under them.
  const program = buildProgram(deps.io);
  register(program, createFactory(deps, () => Promise.reject(new Error('the whole command tree is not built here'))));
  try {
    await program.parseAsync(args, { from: 'user' });
    return result();
  } finally {
    done();
  }
}
