// Cross-cutting protocol rules: authentication, rate limit, idempotency, faults, admin surface.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { client, OWNER, TRADER } from './helpers.js';

let sb: Sandbox;
const lines: string[] = [];
beforeAll(async () => {
  sb = await startSandbox({ port: 0, rateLimit: 80, rateLimitWindowSeconds: 60, log: (l) => lines.push(l) });
});
afterAll(async () => {
  await sb.close();
});

describe('authentication', () => {
  it('answers 401 telling a missing token from an invalid one, in DRF wording', async () => {
    const missing = await client(sb, null).get('/accounts/me');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    const invalid = await client(sb, 'sct_not_a_token').get('/accounts/me');
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual({ detail: 'Invalid token.' });
    expect(invalid.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const detail = async (authorization: string) =>
      ((await (await fetch(`${sb.url}/accounts/me`, { headers: { Authorization: authorization } })).json()) as any).detail;
    expect(await detail(`Token ${OWNER}`)).toBe('Authentication credentials were not provided.');
    expect(await detail('Bearer')).toBe('Invalid token header. No credentials provided.');
    expect(await detail(`Bearer ${OWNER} extra`)).toBe('Invalid token header. Token string should not contain spaces.');
    expect((await fetch(`${sb.url}/accounts/me`, { headers: { Authorization: `bearer ${OWNER}` } })).status).toBe(200);
  });

  it('returns the profile of the token owner', async () => {
    const r = await client(sb).get('/accounts/me');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ first_name: 'Amélie', company: { id: 1, name: 'Brussels Cacao Chocolatiers NV' }, auth_group: { name: 'OWNER' } });
    expect(r.body.auth_group.permissions).toContainEqual({ codename: 'view_user' });
  });

  it('lists the demo tokens with user, company and role', () => {
    expect(sb.tokens.map((t) => t.token)).toContain(OWNER);
    expect(sb.tokens.find((t) => t.token === TRADER)).toMatchObject({ companyId: 2, role: 'OWNER' });
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
  });

  it('accepts a trailing slash and answers 404/405 for unknown paths and methods', async () => {
    const c = client(sb);
    expect((await c.get('/accounts/me/')).status).toBe(200);
    expect((await c.get('/nope')).body).toEqual({ detail: 'Not found.' });
    const r = await c.patch('/accounts/me', {});
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('GET');
    // Authentication comes first, as in DRF: no token is 401 whatever the method.
    expect((await client(sb, null).patch('/accounts/me', {})).status).toBe(401);
  });

  it('takes names an object inherits (constructor, __proto__, toString) as the unknown names they are, never a 500', async () => {
    // A sandbox of its own: this file's has a small rate limit for its own tests.
    const wide = await startSandbox({ port: 0, rateLimit: 100_000 });
    const api = client(wide);
    const lists = ['/orders?order_action=buying&', '/orders/statistics?order_action=buying&', '/products?', '/origins?', '/value-chains?', '/due-diligence-statements?', '/accounts/user-invitations?', '/accounts/user-companies?', '/accounts/countries?', '/documents?', '/imports?', '/compliance/risk-assessments?'];
    for (const list of lists) {
      for (const query of ['constructor=1', '__proto__=1', 'hasOwnProperty=1', 'toString__in=1', 'valueOf__icontains=x']) {
        expect((await api.get(`${list}${query}`)).status, `${list}${query}`).toBe(200);
      }
      if (list.includes('statistics')) continue;
      for (const ordering of ['constructor', '-toString', '__proto__']) {
        const r = await api.get(`${list}ordering=${ordering}`);
        expect(r.status, `${list}ordering=${ordering}`).toBe(400);
        expect(JSON.stringify(r.body)).toContain('Invalid ordering field');
      }
    }
    // A choice given as an object whose own toString is no function: a field error, as any object.
    for (const [path, body] of [
      ['/due-diligence-statements', { type: { toString: 1 } }],
      ['/products', { name: 'x', commodity: { toString: 1 } }],
      ['/orders/purchase', { type: { toString: 1 }, external_id: 'X', order_created_at: '2025-01-01' }],
    ] as const) {
      const r = await api.post(path, body);
      expect(r.status, path).toBe(400);
      expect(JSON.stringify(r.body)).toContain('is not a valid choice');
    }
    expect((await api.get('/origins?limit=1')).status).toBe(200);
    await wide.close();
  });

  it('rejects malformed JSON with 400', async () => {
    const r = await fetch(`${sb.url}/origins`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' }, body: '{"name":' });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).detail).toMatch(/JSON parse error/);
  });

  it('refuses a body that is not JSON by its Content-Type (415), not UTF-8 or nested absurdly (400), and stores nothing', async () => {
    const count = async () => (await client(sb).get('/origins?limit=1')).body.count;
    const before = await count();
    const post = (body: string | Buffer, headers: Record<string, string>) =>
      fetch(`${sb.url}/origins`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER}`, ...headers }, body });
    const plain = await post('{"name":"TP","country_code":"CI"}', { 'Content-Type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as any).detail).toBe('Unsupported media type "text/plain" in request.');
    expect((await post('{"name":"TP","country_code":"CI"}', {})).status).toBe(415);
    const latin1 = await post(Buffer.from('{"name":"\xff\xfe","country_code":"CI"}', 'latin1'), { 'Content-Type': 'application/json' });
    expect(latin1.status).toBe(400);
    const deep = `{"name":"deep","country_code":"CI","excluded_propagation_identifiers":${'['.repeat(6000)}${']'.repeat(6000)}}`;
    for (const key of [{}, { 'Idempotency-Key': 'deep-1' }] as Record<string, string>[]) {
      const r = await post(deep, { 'Content-Type': 'application/json', ...key });
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).detail).toMatch(/nested more than 100 levels deep/);
    }
    expect(await count()).toBe(before);
    expect((await client(sb).get('/origins?limit=1000')).status).toBe(200);
    const charset = await post('{"name":"CS","country_code":"CI"}', { 'Content-Type': 'application/json; charset=utf-8' });
    expect(charset.status).toBe(201);
  });

  it('refuses a Host header that is no host (400): it would be copied into the links', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${sb.url}/origins?limit=1`, { headers: { Authorization: `Bearer ${OWNER}`, Host: 'evil"><x' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    expect((await client(sb).get('/origins?limit=1')).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('sends the headers on every /api response and 429 past the limit', async () => {
    const c = client(sb, 'sct_demo_member_trader');
    const first = await c.get('/accounts/me');
    expect(first.headers.get('x-ratelimit-limit')).toBe('80');
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    for (let i = 0; i < remaining; i++) await c.get('/accounts/me');
    const over = await c.get('/accounts/me');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: 'Request was throttled.' });
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    // Budgets are per token.
    expect((await client(sb, TRADER).get('/accounts/me')).status).toBe(200);
  });

  it('counts only requests whose token is valid, after the token is checked', async () => {
    const c = client(sb, 'sct_demo_member_timber');
    const first = await c.get('/accounts/me');
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    // More requests than the budget, without a token or with a wrong one: none is counted.
    for (const token of [null, 'sct_not_a_token'])
      for (let i = 0; i < 100; i++) {
        const r = await client(sb, token).get('/accounts/me');
        expect(r.status).toBe(401);
        expect(r.headers.get('x-ratelimit-limit')).toBeNull();
      }
    const anonymous = await client(sb, null).get('/accounts/user-invitations/public/00000000-0000-4000-8000-000000000000');
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get('x-ratelimit-remaining')).toBeNull();
    const next = await c.get('/accounts/me');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-limit')).toBe('80');
    expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
  });
});

describe('idempotency', () => {
  it('replays the first outcome for the same token and key, creating one object', async () => {
    const c = client(sb);
    const key = { 'Idempotency-Key': 'e3c2a7f4-0000-4000-8000-000000000001' };
    const a = await c.post('/origins', { name: 'Idempotent plot', country_code: 'CI' }, key);
    const b = await c.post('/origins', { name: 'Idempotent plot', country_code: 'CI' }, key);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const list = await c.get('/origins?name=Idempotent%20plot');
    expect(list.body.count).toBe(1);
    // Another token with the same key is a different request.
    const other = await client(sb, TRADER).post('/origins', { name: 'Idempotent plot', country_code: 'CI' }, key);
    expect(other.body.id).not.toBe(a.body.id);
  });

  it('answers 422 when the key comes back with another body or path; the same body in another key order replays', async () => {
    const c = client(sb);
    const key = { 'Idempotency-Key': 'body-mismatch-1' };
    const a = await c.post('/origins', { name: 'Keyed plot', country_code: 'CI' }, key);
    expect(a.status).toBe(201);
    const other = await c.post('/origins', { name: 'Another plot', country_code: 'CI' }, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ detail: 'Idempotency-Key was already used with a different request body.' });
    const elsewhere = await c.post('/products', { name: 'Keyed plot', country_code: 'CI' }, key);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toEqual({ detail: 'Idempotency-Key was already used for a different endpoint.' });
    const same = await c.post('/origins', { country_code: 'CI', name: 'Keyed plot' }, key);
    expect(same.status).toBe(201);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(same.body).toEqual(a.body);
    expect((await c.get('/origins?name__istartswith=Another%20plot')).body.count).toBe(0);
  });

  it('does not keep a 4xx under the key, so a corrected body can be retried with it', async () => {
    const c = client(sb);
    const key = { 'Idempotency-Key': 'err-key-1' };
    const a = await c.post('/origins', { country_code: 'CI' }, key);
    expect(a.status).toBe(400);
    expect(a.body).toEqual({ name: ['This field is required.'] });
    const b = await c.post('/origins', { name: 'now valid', country_code: 'CI' }, key);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    const again = await c.post('/origins', { name: 'now valid', country_code: 'CI' }, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(b.body.id);
  });

  it('lets concurrent requests with one key create one object', async () => {
    const c = client(sb);
    const key = { 'Idempotency-Key': 'concurrent-1' };
    const replies = await Promise.all([1, 2, 3].map(() => c.post('/origins', { name: 'Concurrent plot', country_code: 'GH' }, key)));
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
    expect((await c.get('/origins?name=Concurrent%20plot')).body.count).toBe(1);
  });
});

describe('fault injection', () => {
  it('answers 503 to the first N requests (failFirst)', async () => {
    sb.setFaults({ failFirst: 2 });
    const c = client(sb, 'sct_demo_multi');
    expect((await c.get('/accounts/me')).status).toBe(503);
    expect((await c.get('/accounts/me')).status).toBe(503);
    expect((await c.get('/accounts/me')).status).toBe(200);
  });

  it('destroys the socket of the first N requests (dropFirst)', async () => {
    sb.setFaults({ dropFirst: 1 });
    await expect(fetch(`${sb.url}/accounts/me`, { headers: { Authorization: `Bearer ${OWNER}` } })).rejects.toThrow();
    const err = await new Promise<Error | null>((resolve) => {
      sb.setFaults({ dropFirst: 1 });
      const req = http.get(`${sb.url}/accounts/me`, { headers: { Authorization: `Bearer ${OWNER}` }, agent: false }, () => resolve(null));
      req.on('error', resolve);
    });
    expect(err?.message).toMatch(/socket hang up/);
    expect((await client(sb).get('/accounts/me')).status).toBe(200);
  });

  it('can lose the response after processing, and an idempotent retry then replays it', async () => {
    sb.setFaults({ dropFirst: 1, dropAfterProcessing: true });
    const key = { 'Idempotency-Key': 'lost-response-1' };
    await expect(client(sb).post('/origins', { name: 'Lost response plot', country_code: 'GH' }, key)).rejects.toThrow();
    const retry = await client(sb).post('/origins', { name: 'Lost response plot', country_code: 'GH' }, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await client(sb).get('/origins?name=Lost%20response%20plot')).body.count).toBe(1);
    sb.setFaults({});
  });

  it('answers 429 with a near reset for rateLimitBurst, and adds latency', async () => {
    sb.setFaults({ rateLimitBurst: 1, rateLimitResetSeconds: 2, latencyMs: 30 });
    const started = Date.now();
    const r = await client(sb).get('/accounts/me');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(r.status).toBe(429);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    expect(reset - Date.now() / 1000).toBeLessThanOrEqual(3);
    sb.setFaults({});
    expect((await client(sb).get('/accounts/me')).status).toBe(200);
  });

  it('fails a deterministic share of requests with failureRate', async () => {
    sb.setFaults({ failureRate: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await client(sb).get('/accounts/countries?limit=1')).status);
    sb.setFaults({});
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(3);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(3);
  });
});

describe('admin surface', () => {
  it('reports health, the request log and accepts faults over HTTP', async () => {
    const health = (await (await fetch(`${sb.origin}/_sandbox/health`)).json()) as any;
    expect(health.status).toBe('ok');
    await fetch(`${sb.origin}/_sandbox/requests`, { method: 'DELETE' });
    expect(sb.requests.length).toBe(0);
    await client(sb).get('/products?limit=1');
    const log = (await (await fetch(`${sb.origin}/_sandbox/requests`)).json()) as any;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ method: 'GET', path: '/api/products', query: 'limit=1', status: 200 });
    expect(log[0].headers.authorization).toBe('Bearer sct_…****');
    // A signed link's token is its credential: the log keeps it out too.
    await fetch(`${sb.origin}/_downloads/SECRET-TOKEN-OF-A-LINK`);
    const logged = (await (await fetch(`${sb.origin}/_sandbox/requests`)).json()) as any;
    expect(logged.at(-1).path).toBe('/_downloads/…');
    expect(JSON.stringify(logged)).not.toContain('SECRET-TOKEN');
    const f = await fetch(`${sb.origin}/_sandbox/faults`, { method: 'POST', body: JSON.stringify({ failFirst: 1 }) });
    expect(f.status).toBe(200);
    expect((await client(sb).get('/accounts/me')).status).toBe(503);
    expect((await client(sb).get('/accounts/me')).status).toBe(200);
  });
});

describe('lifecycle', () => {
  it('logs one line per request', async () => {
    const before = lines.length;
    await client(sb).get('/products?limit=1');
    expect(lines.slice(before)).toEqual([expect.stringMatching(/^GET \/api\/products\?limit=1 200 \d+ms$/)]);
  });

  it('leaves no server or socket behind after close, even with keep-alive clients', async () => {
    const other = await startSandbox();
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http.get(`${other.url}/accounts/countries`, { agent, headers: { Authorization: `Bearer ${OWNER}` } }, (res) => res.resume().on('end', resolve)).on('error', reject),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    await other.close();
    await new Promise((r) => setTimeout(r, 50));
    // The idle keep-alive connection was closed by the server, and nothing listens any more.
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(0);
    await expect(fetch(`${other.url}/accounts/countries`)).rejects.toThrow();
    agent.destroy();
  });
});

describe('scale', () => {
  it('loads 100,000 orders', async () => {
    const big = await startSandbox({ orders: 100_000 });
    try {
      const health = (await (await fetch(`${big.origin}/_sandbox/health`)).json()) as any;
      expect(health.orders).toBe(100_000);
      const r = await client(big).get('/orders?order_action=buying&limit=5000');
      expect(r.body.results).toHaveLength(1000);
      expect(r.body.count).toBeGreaterThan(50_000);
    } finally {
      await big.close();
    }
  });
});

describe('settled()', () => {
  it('waits for a request whose client has gone: its handler goes on, faults and all, and is logged when done', async () => {
    sb.setFaults({ latencyMs: 300 });
    const before = sb.requests.length;
    const req = http.request(`${sb.url}/accounts/me`, { headers: { Authorization: `Bearer ${OWNER}` } });
    req.on('error', () => undefined);
    req.end();
    await new Promise((r) => setTimeout(r, 50));
    req.destroy();
    await sb.settled();
    // Logged by the time settled() resolves, not after.
    expect(sb.requests.length).toBe(before + 1);
    sb.setFaults({});
    await sb.settled();
  });
});
