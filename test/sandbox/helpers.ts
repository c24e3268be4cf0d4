// Tiny HTTP helpers for the sandbox's own tests: real sockets, global fetch, no client library.
import type { Sandbox } from '../../src/sandbox/server.js';

/** Brussels Cacao, company 1. */
export const OWNER = 'sct_demo_owner_cacao';
export const ADMIN = 'sct_demo_admin_cacao';
export const MEMBER = 'sct_demo_member_cacao';
/** Hanseatic Trading, company 2. */
export const TRADER = 'sct_demo_owner_trader';
export const TRADER_MEMBER = 'sct_demo_member_trader';
export const MULTI = 'sct_demo_multi';

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function client(sb: Sandbox, token: string | null = OWNER) {
  async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res<T>> {
    const url = path.startsWith('http') ? path : `${sb.url}${path}`;
    const r = await fetch(url, {
      method,
      headers: {
        Accept: 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* non-JSON payloads are returned as text */
    }
    return { status: r.status, body: parsed as T, headers: r.headers };
  }
  return {
    get: <T = any>(p: string, h?: Record<string, string>) => call<T>('GET', p, undefined, h),
    post: <T = any>(p: string, b?: unknown, h?: Record<string, string>) => call<T>('POST', p, b ?? {}, h),
    patch: <T = any>(p: string, b: unknown, h?: Record<string, string>) => call<T>('PATCH', p, b, h),
    delete: <T = any>(p: string, h?: Record<string, string>) => call<T>('DELETE', p, undefined, h),
  };
}

/** Follows next links to the end and returns every result. */
export async function all<T = any>(c: ReturnType<typeof client>, path: string): Promise<T[]> {
  const out: T[] = [];
  let next: string | null = path;
  while (next) {
    const r: Res = await c.get(next);
    if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    out.push(...r.body.results);
    next = r.body.next;
  }
  return out;
}
