// Request context, error type and path router shared by every sandbox route module.
import type { Store, User, Membership, Company } from './data.js';
import { isId } from '../util/numbers.js';

export interface Auth {
  token: string;
  user: User;
  membership: Membership;
  company: Company;
}

export interface ResolvedOptions {
  statementDelayMs: number;
}

export interface Ctx {
  /** Path relative to /api, without trailing slash, e.g. "/orders/12". */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  /** Present on every route registered with auth (the default). */
  auth: Auth;
  store: Store;
  /** Scheme and host as the client addressed us, used for absolute next/previous and signed URLs. */
  origin: string;
  options: ResolvedOptions;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** The payload as it is, instead of `body` as JSON: file downloads, JSON serialised beforehand (maybe in parts, sent one after the other). */
  raw?: Buffer | readonly Buffer[];
  headers?: Record<string, string>;
}

/** Any handler may throw this; the server turns it into a DRF-style error response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === 'object' && body && 'detail' in body ? String((body as { detail: unknown }).detail) : `HTTP ${status}`);
  }
}

export type FieldErrors = Record<string, unknown>;

export const notFound = (): ApiError => new ApiError(404, { detail: 'Not found.' });
export const forbidden = (detail = 'You do not have permission to perform this action.'): ApiError =>
  new ApiError(403, { detail });
export const badRequest = (errors: FieldErrors | string): ApiError =>
  new ApiError(400, typeof errors === 'string' ? { detail: errors } : errors);
export const fieldError = (field: string, message: string): ApiError => badRequest({ [field]: [message] });

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
/** A 200 whose body is JSON already serialised. */
export const okJson = (json: Buffer | readonly Buffer[]): Reply => ({ status: 200, raw: json, headers: { 'Content-Type': 'application/json' } });

/** Integer path ids: anything that is not a plain non-negative integer cannot name an object, hence 404. */
export function intParam(ctx: Ctx, name = 'id'): number {
  const raw = ctx.params[name] ?? '';
  if (!/^\d{1,10}$/.test(raw) || !isId(raw)) throw notFound();
  return Number(raw);
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export interface RouteOptions {
  /** false for anonymous routes (public invitation view). */
  auth?: boolean;
}

interface Route {
  method: string;
  segments: string[];
  staticCount: number;
  handler: Handler;
  auth: boolean;
}

export interface Match {
  handler: Handler;
  params: Record<string, string>;
  auth: boolean;
}

export class Router {
  private routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, opts: RouteOptions = {}): this {
    const segments = pattern.split('/').filter(Boolean);
    this.routes.push({
      method,
      segments,
      staticCount: segments.filter((s) => !s.startsWith(':')).length,
      handler,
      auth: opts.auth ?? true,
    });
    return this;
  }

  get(p: string, h: Handler, o?: RouteOptions): this {
    return this.add('GET', p, h, o);
  }
  post(p: string, h: Handler, o?: RouteOptions): this {
    return this.add('POST', p, h, o);
  }
  patch(p: string, h: Handler, o?: RouteOptions): this {
    return this.add('PATCH', p, h, o);
  }
  delete(p: string, h: Handler, o?: RouteOptions): this {
    return this.add('DELETE', p, h, o);
  }

  /**
   * The most specific route wins (most literal segments), so "/orders/statistics" beats
   * "/orders/:id" regardless of registration order.
   * Returns the allowed methods instead when the path exists under other methods only.
   */
  match(method: string, path: string): Match | { allowed: string[]; auth: boolean } | null {
    const parts = path.split('/').filter(Boolean).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
    let best: { route: Route; params: Record<string, string> } | null = null;
    const allowed = new Set<string>();
    let anyAuth = false;
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let hit = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = route.segments[i]!;
        if (seg.startsWith(':')) params[seg.slice(1)] = parts[i]!;
        else if (seg !== parts[i]) {
          hit = false;
          break;
        }
      }
      if (!hit) continue;
      if (route.method !== method) {
        allowed.add(route.method);
        anyAuth ||= route.auth;
        continue;
      }
      if (!best || route.staticCount > best.route.staticCount) best = { route, params };
    }
    if (best) return { handler: best.route.handler, params: best.params, auth: best.route.auth };
    if (allowed.size) return { allowed: [...allowed], auth: anyAuth };
    return null;
  }
}
