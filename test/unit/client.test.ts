import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { MockAgent } from 'undici';
import { ApiClient, DryRunEnd, type PlannedRequest } from '../../src/api/client.js';
import { missingApiPrefix } from '../../src/api/endpoint.js';
import { JsonText } from '../../src/api/json-page.js';
import { ApiError, AuthError, NetworkError, RateLimitError, SctError, UsageError } from '../../src/errors.js';

const BASE = 'https://api.test/api';

/** The error a call rejects with (a call that succeeds fails the test). */
const failure = (p: Promise<unknown>): Promise<any> =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );

function setup(extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const sleeps: number[] = [];
  const trace: string[] = [];
  let now = 1_700_000_000_000;
  const client = new ApiClient({
    baseUrl: BASE,
    token: 'secret-token-123456',
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    now: () => now,
    random: () => 0.5,
    retryBaseMs: 100,
    trace: (l) => trace.push(l),
    ...extra,
  });
  return { agent, pool: agent.get('https://api.test'), client, sleeps, trace, nowSec: () => Math.floor(now / 1000) };
}

describe('ApiClient', () => {
  let ctx: ReturnType<typeof setup>;
  beforeEach(() => {
    ctx = setup();
  });
  afterEach(async () => {
    ctx.agent.assertNoPendingInterceptors();
    await ctx.agent.close();
  });

  it('joins paths to the base URL and sends bearer token, Accept and User-Agent', async () => {
    let headers: Record<string, string> = {};
    ctx.pool
      .intercept({ path: '/api/accounts/me', method: 'GET' })
      .reply(200, (opts) => {
        headers = opts.headers as Record<string, string>;
        return { id: 1 };
      });
    const data = await ctx.client.get('/accounts/me');
    expect(data).toEqual({ id: 1 });
    expect(headers.authorization).toBe('Bearer secret-token-123456');
    expect(headers.accept).toBe('application/json');
    expect(headers['user-agent']).toMatch(/^sct\/\S+ node\/\d+/);
  });

  it('retries 503 with exponential backoff, then succeeds', async () => {
    ctx.pool.intercept({ path: '/api/orders/1', method: 'GET' }).reply(503, {});
    ctx.pool.intercept({ path: '/api/orders/1', method: 'GET' }).reply(502, {});
    ctx.pool.intercept({ path: '/api/orders/1', method: 'GET' }).reply(200, { id: 1 });
    await expect(ctx.client.get('/orders/1')).resolves.toEqual({ id: 1 });
    // base 100: attempt 0 → 50..100 (0.5 → 75), attempt 1 → 100..200 (150)
    expect(ctx.sleeps).toEqual([75, 150]);
  });

  it('gives up after maxRetries and reports the last status', async () => {
    for (let i = 0; i < 4; i++) ctx.pool.intercept({ path: '/api/orders/1', method: 'GET' }).reply(504, { detail: 'upstream timed out' });
    const err = await failure(ctx.client.get('/orders/1'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(504);
    expect(err.exitCode).toBe(1);
    expect(ctx.sleeps).toHaveLength(3);
  });

  it('retries connection errors and reports a NetworkError in the end', async () => {
    for (let i = 0; i < 4; i++) {
      ctx.pool.intercept({ path: '/api/orders/1', method: 'GET' }).replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    }
    const err = await failure(ctx.client.get('/orders/1'));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('connection reset');
    expect(ctx.sleeps).toHaveLength(3);
  });

  it('takes a 404 on a retried DELETE as success: the lost first attempt deleted it', async () => {
    ctx.pool.intercept({ path: '/api/products/7', method: 'DELETE' }).replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    ctx.pool.intercept({ path: '/api/products/7', method: 'DELETE' }).reply(404, { detail: 'Not found.' });
    const res = await ctx.client.request({ method: 'DELETE', path: '/products/7' });
    expect(res).toMatchObject({ status: 204, data: null });
    expect(ctx.sleeps).toHaveLength(1);
    expect(ctx.trace.join('\n')).toContain('404 on a retried DELETE');
  });

  it('fails a retried DELETE that 404s when no earlier attempt can have reached the service (a 503, a refused connection)', async () => {
    ctx.pool.intercept({ path: '/api/products/9', method: 'DELETE' }).reply(503, {});
    ctx.pool.intercept({ path: '/api/products/9', method: 'DELETE' }).reply(404, { detail: 'Not found.' });
    expect((await failure(ctx.client.delete('/products/9'))).status).toBe(404);
    ctx.pool.intercept({ path: '/api/products/9', method: 'DELETE' }).replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    ctx.pool.intercept({ path: '/api/products/9', method: 'DELETE' }).reply(404, { detail: 'Not found.' });
    expect((await failure(ctx.client.delete('/products/9'))).status).toBe(404);
  });

  it('still fails a DELETE that answers 404 the first time, and a retried GET that 404s', async () => {
    ctx.pool.intercept({ path: '/api/products/8', method: 'DELETE' }).reply(404, { detail: 'Not found.' });
    expect((await failure(ctx.client.delete('/products/8'))).status).toBe(404);
    ctx.pool.intercept({ path: '/api/products/8', method: 'GET' }).reply(503, {});
    ctx.pool.intercept({ path: '/api/products/8', method: 'GET' }).reply(404, { detail: 'Not found.' });
    expect((await failure(ctx.client.get('/products/8'))).status).toBe(404);
  });

  it('refuses a token that cannot go into a header, naming where it came from', () => {
    for (const token of ['abc\ndef', 'abc\r', 'a b', 'tab\there', 'bell\u0007', 'c1\u0085', 'ünïcode']) {
      let err: any;
      try {
        new ApiClient({ baseUrl: BASE, token, tokenSource: 'SCT_TOKEN', dispatcher: ctx.agent });
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(token)).toBeInstanceOf(UsageError);
      expect(err.message).toBe('the token from SCT_TOKEN contains invalid characters (control characters, spaces or non-ASCII)');
      expect(err.exitCode).toBe(2);
    }
    expect(() => new ApiClient({ baseUrl: BASE, token: 'sct_demo-token.~+/=', dispatcher: ctx.agent })).not.toThrow();
  });

  it('reuses one Idempotency-Key across the retries of a POST', async () => {
    const keys: string[] = [];
    const capture = (status: number) => (opts: { headers?: unknown }) => {
      keys.push((opts.headers as Record<string, string>)['idempotency-key']);
      return status === 201 ? { id: 5 } : {};
    };
    ctx.pool.intercept({ path: '/api/origins', method: 'POST' }).reply(503, capture(503));
    ctx.pool.intercept({ path: '/api/origins', method: 'POST' }).reply(201, capture(201));
    await ctx.client.post('/origins', { name: 'x' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('sends a fresh key for each logical POST and the given key when one is passed', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      ctx.pool.intercept({ path: '/api/origins', method: 'POST' }).reply(201, (o) => {
        keys.push((o.headers as Record<string, string>)['idempotency-key']);
        return {};
      });
    }
    await ctx.client.post('/origins', {});
    await ctx.client.post('/origins', {});
    await ctx.client.post('/origins', {}, { idempotencyKey: 'fixed-key' });
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('fixed-key');
  });

  it('on 429 waits until X-RateLimit-Reset and retries', async () => {
    const reset = ctx.nowSec() + 30;
    ctx.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(429, { detail: 'throttled' }, { headers: { 'x-ratelimit-reset': String(reset), 'x-ratelimit-remaining': '0' } });
    ctx.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(200, { results: [] });
    await ctx.client.get('/orders');
    expect(ctx.sleeps).toHaveLength(1);
    expect(ctx.sleeps[0]).toBeGreaterThanOrEqual(29_000);
    expect(ctx.sleeps[0]).toBeLessThanOrEqual(31_000);
  });

  it('stops with RateLimitError when the wait exceeds --max-wait', async () => {
    const c = setup({ maxWaitMs: 5_000 });
    const reset = c.nowSec() + 3600;
    c.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(429, {}, { headers: { 'x-ratelimit-reset': String(reset) } });
    const err = await failure(c.client.get('/orders'));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toContain('resets at');
    expect(c.sleeps).toEqual([]);
    await c.agent.close();
  });

  it('on 429 waits for the later of Retry-After and a reset already past by the client clock', async () => {
    const past = ctx.nowSec() - 120;
    ctx.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(429, {}, { headers: { 'x-ratelimit-reset': String(past), 'retry-after': '5' } });
    ctx.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(200, { results: [] });
    await ctx.client.get('/orders');
    expect(ctx.sleeps).toEqual([5_250]);
  });

  it('a 429 is never an API error: without a usable time it backs off 1 s, 2 s, 4 s… until --max-wait, then stops (not sent)', async () => {
    const c = setup({ maxWaitMs: 10_000 });
    for (let i = 0; i < 4; i++) c.pool.intercept({ path: '/api/orders', method: 'POST' }).reply(429, {}, { headers: { 'x-ratelimit-reset': '1e20' } });
    const err = await failure(c.client.post('/orders', {}));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.message).not.toContain('Invalid');
    expect(err.delivery).toBe('not_sent');
    expect(c.sleeps).toEqual([1000, 2000, 4000]);
    await c.agent.close();
  });

  it('on a 503 with Retry-After waits for the later of it and X-RateLimit-Reset, as on a 429; without Retry-After it backs off', async () => {
    const reset = ctx.nowSec() + 6;
    ctx.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(503, {}, { headers: { 'retry-after': '1', 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': String(reset) } });
    ctx.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(503, {}, { headers: { 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': String(ctx.nowSec() + 600) } });
    ctx.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(200, { results: [] });
    await ctx.client.get('/orders');
    expect(ctx.sleeps[0]).toBe(6_000);
    expect(ctx.sleeps[1]).toBeLessThan(1_000);
  });

  it('a 503 Retry-After longer than --max-wait stops at once instead of sleeping', async () => {
    ctx.pool.intercept({ path: '/api/orders', method: 'GET' }).reply(503, {}, { headers: { 'retry-after': '86400' } });
    const err = await failure(ctx.client.get('/orders'));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/the service is unavailable and asks sct to retry at .* \(in 24h\), longer than --max-wait \(GET \/orders\)/);
    expect(ctx.sleeps).toEqual([]);
  });

  it('a failed POST says whether the service may have acted: a reset connection may have, a refused one has not', async () => {
    for (let i = 0; i < 4; i++) ctx.pool.intercept({ path: '/api/orders', method: 'POST' }).replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const reset = await failure(ctx.client.post('/orders', {}));
    expect(reset).toBeInstanceOf(NetworkError);
    expect(reset.delivery).toBe('unknown');
    for (let i = 0; i < 4; i++) ctx.pool.intercept({ path: '/api/orders', method: 'POST' }).replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const refused = await failure(ctx.client.post('/orders', {}));
    expect(refused.delivery).toBe('not_sent');
  });

  it('a 2xx answer that is not JSON, or a create without an id, is an error that may hide a success', async () => {
    ctx.pool.intercept({ path: '/api/orders/purchase', method: 'POST' }).reply(200, '<html><body>Sign in</body></html>', { headers: { 'content-type': 'text/html' } });
    const html = await failure(ctx.client.post('/orders/purchase', {}));
    expect(html.message).toContain('POST /orders/purchase: the answer is not JSON (200 OK, an HTML page)');
    expect(html.delivery).toBe('unknown');
    ctx.pool.intercept({ path: '/api/orders/purchase', method: 'POST' }).reply(201, { ok: true });
    const noId = await failure(ctx.client.post('/orders/purchase', {}, { expect: 'created' }));
    expect(noId.message).toContain('without the created object (no id)');
  });

  it('pauses before the next request when Remaining reached 0', async () => {
    const reset = ctx.nowSec() + 20;
    ctx.pool.intercept({ path: '/api/a', method: 'GET' }).reply(200, {}, { headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset), 'x-ratelimit-limit': '1000' } });
    ctx.pool.intercept({ path: '/api/b', method: 'GET' }).reply(200, {}, { headers: { 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': String(reset + 3600) } });
    await ctx.client.get('/a');
    expect(ctx.sleeps).toEqual([]);
    await ctx.client.get('/b');
    expect(ctx.sleeps).toHaveLength(1);
    expect(ctx.sleeps[0]).toBeGreaterThanOrEqual(19_000);
    expect(ctx.client.rateLimit.remaining).toBe(999);
  });

  it('a redirect away from the base URL\'s origin is an error naming both URLs, not followed', async () => {
    ctx.pool.intercept({ path: '/api/documents/1/file', method: 'GET' }).reply(302, '', { headers: { location: 'http://files.test/blob?sig=abc' } });
    const err = await failure(ctx.client.get('/documents/1/file'));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('https://api.test/api/documents/1/file');
    // Storage, not the service moved: shown as a signed link, its last segment hidden too.
    expect(err.message).toContain('http://files.test/…?…');
    expect(err.message).not.toContain('sig=abc');
    ctx.agent.assertNoPendingInterceptors();
  });

  it('keeps the token on a same-origin redirect', async () => {
    ctx.pool.intercept({ path: '/api/old', method: 'GET' }).reply(301, '', { headers: { location: '/api/new' } });
    let auth: string | undefined;
    ctx.pool.intercept({ path: '/api/new', method: 'GET' }).reply(200, (o) => {
      auth = (o.headers as Record<string, string>).authorization;
      return {};
    });
    await ctx.client.get('/old');
    expect(auth).toBe('Bearer secret-token-123456');
  });

  it('never sends the token to an absolute URL on another origin', async () => {
    let auth: string | undefined = 'unset';
    ctx.agent
      .get('https://uploads.test')
      .intercept({ path: '/put/1', method: 'PUT' })
      .reply(200, (o) => {
        auth = (o.headers as Record<string, string>).authorization;
        return '';
      });
    await ctx.client.request({ method: 'PUT', path: 'https://uploads.test/put/1', rawBody: () => Buffer.from('bytes') });
    expect(auth).toBeUndefined();
  });

  it('maps DRF field errors to a 400 ApiError with flat field names', async () => {
    ctx.pool
      .intercept({ path: '/api/orders?limit=1', method: 'GET' })
      .reply(400, { order_action: ['This field is required.'], items: [{}, { volume: ['A valid number is required.'] }] });
    const err = await failure(ctx.client.get('/orders', { limit: 1 }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.exitCode).toBe(1);
    expect(err.fields).toEqual({ order_action: ['This field is required.'], 'items[1].volume': ['A valid number is required.'] });
    expect(err.message).toContain('400 Bad Request on GET /orders');
  });

  it('maps 401 to AuthError (exit 4) and 404 detail to the message', async () => {
    ctx.pool.intercept({ path: '/api/accounts/me', method: 'GET' }).reply(401, { detail: 'Invalid token.' });
    ctx.pool.intercept({ path: '/api/orders/9', method: 'GET' }).reply(404, { detail: 'Not found.' });
    const e1 = await failure(ctx.client.get('/accounts/me'));
    expect(e1).toBeInstanceOf(AuthError);
    expect(e1.exitCode).toBe(4);
    const e2 = await failure(ctx.client.get('/orders/9'));
    expect(e2.message).toBe('Not found. (404 Not Found on GET /orders/9)');
    expect(e2.exitCode).toBe(1);
  });

  it('a 404 under a base URL without /api hints at the missing prefix', async () => {
    const noPrefix = setup({ baseUrl: 'https://api.test' });
    noPrefix.pool.intercept({ path: '/accounts/me', method: 'GET' }).reply(404, 'Not Found');
    const err = await failure(noPrefix.client.get('/accounts/me'));
    expect(err.hint).toBe("the base URL https://api.test does not end in /api, as the API's base URL does: did you mean https://api.test/api?");
    await noPrefix.agent.close();
    ctx.pool.intercept({ path: '/api/orders/9', method: 'GET' }).reply(404, { detail: 'Not found.' });
    expect((await failure(ctx.client.get('/orders/9'))).hint).toBeUndefined();
  });

  it('missingApiPrefix: only base URLs whose path does not end in /api', () => {
    expect(missingApiPrefix('http://127.0.0.1:8080')).toContain('did you mean http://127.0.0.1:8080/api?');
    expect(missingApiPrefix('https://sct.example.com/v1/')).toContain('did you mean https://sct.example.com/v1/api?');
    expect(missingApiPrefix('https://sct.example.com/API')).toContain('did you mean https://sct.example.com/api?');
    expect(missingApiPrefix('https://sct.example.com/gw/Api/orders')).toContain('did you mean https://sct.example.com/gw/api?');
    expect(missingApiPrefix('https://sct.example.com/api')).toBeUndefined();
    expect(missingApiPrefix('https://sct.example.com/gateway/api/')).toBeUndefined();
    // A path past /api (a version, a resource) is cut back to it, not given another /api.
    expect(missingApiPrefix('http://127.0.0.1:8080/api/v2')).toContain('did you mean http://127.0.0.1:8080/api?');
    expect(missingApiPrefix('https://sct.example.com/gateway/api/orders/')).toContain('did you mean https://sct.example.com/gateway/api?');
  });

  it('masks the token in the --verbose trace', async () => {
    ctx.pool.intercept({ path: '/api/x', method: 'POST' }).reply(201, {});
    await ctx.client.post('/x', { a: 1 });
    const text = ctx.trace.join('\n');
    expect(text).toContain('> POST https://api.test/api/x');
    expect(text).toContain('authorization: Bearer ');
    expect(text).not.toContain('secret-token-123456');
    // Named by its key's first 8 characters, as its `>` line is.
    expect(text).toMatch(/^< POST \/x \(key [0-9a-f-]{8}\): 201 Created \(\d+ ms\)$/m);
  });

  it('keeps the secret of a signed URL out of the --verbose trace, and sends it no token', async () => {
    const files = ctx.agent.get('https://files.test');
    files.intercept({ path: '/_uploads/s3cr3t-upload-token?X-Signature=abc', method: 'PUT' }).reply(200, '');
    ctx.pool.intercept({ path: '/_downloads/s3cr3t-download-token', method: 'GET' }).reply(200, 'bytes');
    await ctx.client.request({ method: 'PUT', path: 'https://files.test/_uploads/s3cr3t-upload-token?X-Signature=abc', auth: false, rawBody: () => Buffer.from('x') });
    await ctx.client.request({ path: 'https://api.test/_downloads/s3cr3t-download-token', auth: false, accept: '*/*' });
    const text = ctx.trace.join('\n');
    expect(text).toContain('> PUT https://files.test/_uploads/…?…');
    expect(text).toContain('> GET https://api.test/_downloads/…');
    // The lines of their answers name them as their `>` lines do.
    expect(text).toMatch(/^< PUT https:\/\/files\.test\/_uploads\/…\?…: 200 OK \(\d+ ms\)$/m);
    expect(text).toMatch(/^< GET https:\/\/api\.test\/_downloads\/…: 200 OK \(\d+ ms\)$/m);
    expect(text).not.toMatch(/s3cr3t|X-Signature/);
    expect(text).not.toContain('authorization:');
  });

  it("a write answered 301, 302 or 303 is not taken as done from where it points: unknown, nothing read, the checks before it not made again", async () => {
    for (const [method, status] of [['POST', 302], ['PATCH', 301], ['DELETE', 303]] as const) {
      ctx.pool.intercept({ path: '/api/origins/1', method }).reply(status, '', { headers: { location: '/api/origins/1/' } });
      let checks = 0;
      const err = await failure(ctx.client.request({ method, path: '/origins/1', body: method === 'DELETE' ? undefined : { name: 'X' }, beforeSend: async () => void checks++ }));
      expect(err.message).toContain(`${method} /origins/1: the service answered with a redirect (${status}`);
      expect(err.message).toContain('not followed');
      expect((err as SctError).delivery).toBe('unknown');
      expect((err as SctError).afterRedirect).toBe('the service answered with a redirect sct does not follow');
      expect(checks).toBe(1);
    }
    ctx.agent.assertNoPendingInterceptors();
  });

  it("sct api (any answer) reads where a POST's 301 or 302 points with a GET, without its key, as gh does; a 4xx there leaves the POST unknown", async () => {
    ctx.pool.intercept({ path: '/api/products', method: 'POST' }).reply(302, '', { headers: { location: '/api/products/1' } });
    let key: unknown = 'unset';
    ctx.pool.intercept({ path: '/api/products/1', method: 'GET' }).reply(200, (o) => {
      key = (o.headers as Record<string, string>)['idempotency-key'];
      return { id: 1, name: 'W' };
    });
    expect((await ctx.client.request({ method: 'POST', path: '/products', body: { name: 'W' }, anyAnswer: true })).data).toEqual({ id: 1, name: 'W' });
    expect(key).toBeUndefined();
    ctx.pool.intercept({ path: '/api/origins', method: 'POST' }).reply(302, '', { headers: { location: '/api/gone' } });
    ctx.pool.intercept({ path: '/api/gone', method: 'GET' }).reply(404, { detail: 'Not found.' });
    const err = await failure(ctx.client.request({ method: 'POST', path: '/origins', body: { name: 'X' }, anyAnswer: true }));
    expect(err.message).toContain('GET /gone');
    expect((err as SctError).delivery).toBe('unknown');
    ctx.agent.assertNoPendingInterceptors();
  });

  it("a write's redirect to another origin is not followed, and its outcome is unknown: the service answered it", async () => {
    ctx.pool.intercept({ path: '/api/products', method: 'POST' }).reply(302, '', { headers: { location: 'https://elsewhere.test/api/products/1' } });
    const err = await failure(ctx.client.post('/products', { name: 'W' }));
    expect(err.message).toContain('sct does not follow a redirect away from the base URL');
    expect((err as SctError).delivery).toBe('unknown');
  });

  it('a plain http link handed out by a service reached over https is not used: the file would go unencrypted', async () => {
    const err = await failure(ctx.client.request({ method: 'PUT', path: 'http://files.test/up/77?X-Amz-Signature=SECRET', auth: false, rawBody: () => Buffer.from('x') }));
    expect(err.message).toContain('handed out a plain http link: not used');
    expect(err.message).not.toContain('SECRET');
    ctx.agent.assertNoPendingInterceptors();
  });

  it('a signed link or a download redirected from https to plain http elsewhere is not followed: the file would come unencrypted', async () => {
    ctx.pool.intercept({ path: '/_downloads/s3cr3t-download-token', method: 'GET' }).reply(302, '', { headers: { location: 'http://files.test/blob/s3cr3t-2?sig=abc' } });
    const err = await failure(ctx.client.request({ path: 'https://api.test/_downloads/s3cr3t-download-token', auth: false, accept: '*/*' }));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('from https to plain http');
    expect(err.message).not.toMatch(/s3cr3t|sig=abc/);
    ctx.agent.assertNoPendingInterceptors();
  });

  describe('paginate', () => {
    it('uses --limit as the total and --page-size per request, following next', async () => {
      ctx.pool
        .intercept({ path: '/api/origins?limit=2&offset=0', method: 'GET' })
        .reply(200, { count: 10, next: 'http://internal:8000/api/origins?limit=2&offset=2', results: [{ id: 1 }, { id: 2 }] });
      // Only 1 more is wanted: the next request asks for 1, on our own base URL.
      ctx.pool
        .intercept({ path: '/api/origins?limit=1&offset=2', method: 'GET' })
        .reply(200, { count: 10, next: 'http://internal:8000/api/origins?limit=1&offset=3', results: [{ id: 3 }] });
      const seen: number[] = [];
      for await (const p of ctx.client.paginate<{ id: number }>('/origins', {}, { limit: 3, pageSize: 2 })) seen.push(...p.results.map((r) => r.id));
      expect(seen).toEqual([1, 2, 3]);
    });

    it('defaults to 10 items in one request of 10', async () => {
      ctx.pool.intercept({ path: '/api/origins?limit=10&offset=0', method: 'GET' }).reply(200, { count: 50, next: 'x?limit=10&offset=10', results: Array.from({ length: 10 }, (_, i) => ({ id: i })) });
      let n = 0;
      for await (const p of ctx.client.paginate('/origins')) n += p.results.length;
      expect(n).toBe(10);
    });

    it('stops with an error when next leads to a page already fetched, after yielding what came', async () => {
      ctx.pool
        .intercept({ path: '/api/origins?limit=10000&offset=0', method: 'GET' })
        .reply(200, { count: 9, next: 'https://api.test/api/origins?offset=2&limit=2', results: [{ id: 1 }, { id: 2 }] });
      // The server's next link never moves on.
      ctx.pool
        .intercept({ path: '/api/origins?offset=2&limit=2', method: 'GET' })
        .reply(200, { count: 9, next: 'https://api.test/api/origins?limit=2&offset=2', results: [{ id: 3 }, { id: 4 }] });
      const seen: number[] = [];
      const err = await failure(
        (async () => {
          for await (const p of ctx.client.paginate<{ id: number }>('/origins', {}, { all: true })) seen.push(...p.results.map((r) => r.id));
        })(),
      );
      expect(seen).toEqual([1, 2, 3, 4]);
      expect(err.exitCode).toBe(1);
      expect(err.message).toBe(
        "the server's pagination does not advance on GET /origins: the next link leads to a page already fetched (stopped after 4 items in 2 requests)",
      );
    });

    it('stops with an error on an empty page that links to a next one', async () => {
      ctx.pool.intercept({ path: '/api/origins?limit=10000&offset=0', method: 'GET' }).reply(200, { count: 5, next: '/api/origins?limit=5&offset=5', results: [] });
      const err = await failure(
        (async () => {
          for await (const _ of ctx.client.paginate('/origins', {}, { all: true }));
        })(),
      );
      expect(err.message).toContain('an empty page links to a next one');
    });

    it('with all, asks for a big page and follows next to the end', async () => {
      ctx.pool
        .intercept({ path: '/api/origins?search=a&limit=10000&offset=0', method: 'GET' })
        .reply(200, { count: 3, next: 'https://api.test/api/origins?search=a&limit=2&offset=2', results: [{ id: 1 }, { id: 2 }] });
      ctx.pool.intercept({ path: '/api/origins?search=a&limit=2&offset=2', method: 'GET' }).reply(200, { count: 3, next: null, results: [{ id: 3 }] });
      const pages: number[] = [];
      for await (const p of ctx.client.paginate('/origins', { search: 'a' }, { all: true })) pages.push(p.results.length);
      expect(pages).toEqual([2, 1]);
    });

    describe('asJsonText', () => {
      const json = { 'content-type': 'application/json' };
      const texts = (results: unknown[]) => results.map((r) => (r instanceof JsonText ? Buffer.from(r.bytes).toString('utf8') : r));
      // Every page scanned, however small (by default only pages from 1 MiB are: see below).
      beforeEach(async () => {
        await ctx.agent.close();
        ctx = setup({ scanFromBytes: 0 });
      });

      it('by default parses a page of a plain list under 1 MiB (cheaper than scanning it cold), scans one from 1 MiB, and every page of an --all export', async () => {
        const c = setup();
        const small = '{"count":1,"next":null,"results":[{"id":1,"v":1.25}]}';
        const big = '{"count":2,"next":null,"results":[{"id":1,"v":1.50},{"id":2,"pad":"' + 'x'.repeat(1024 * 1024) + '"}]}';
        c.pool.intercept({ path: '/api/origins?limit=10&offset=0', method: 'GET' }).reply(200, small, { headers: json });
        c.pool.intercept({ path: '/api/products?limit=10&offset=0', method: 'GET' }).reply(200, big, { headers: json });
        c.pool.intercept({ path: '/api/users?limit=10000&offset=0', method: 'GET' }).reply(200, small, { headers: json });
        const items = async (path: string, options: Parameters<typeof c.client.paginate>[2]) => {
          const seen: unknown[] = [];
          for await (const p of c.client.paginate(path, {}, options)) seen.push(...texts(p.results));
          return seen;
        };
        expect(await items('/origins', { asJsonText: true })).toEqual([{ id: 1, v: 1.25 }]);
        const scanned = await items('/products', { asJsonText: true });
        expect(scanned[0]).toBe('{"id":1,"v":1.50}');
        expect(scanned).toHaveLength(2);
        expect(await items('/users', { all: true, asJsonText: true })).toEqual(['{"id":1,"v":1.25}']);
        c.agent.assertNoPendingInterceptors();
        await c.agent.close();
      });

      it('scans a small page too when a number in it would not come back as written (beyond 2^53, 1.50, 1e2)', async () => {
        const c = setup();
        for (const [path, v] of [['/api/origins', '1.50'], ['/api/products', '9007199254740993'], ['/api/users', '1e2']]) {
          c.pool.intercept({ path: `${path}?limit=10&offset=0`, method: 'GET' }).reply(200, `{"count":1,"next":null,"results":[{"id":1,"v":${v}}]}`, { headers: json });
          const seen: unknown[] = [];
          for await (const p of c.client.paginate(path.replace('/api', ''), {}, { asJsonText: true })) seen.push(...texts(p.results));
          expect(seen).toEqual([`{"id":1,"v":${v}}`]);
        }
        await c.agent.close();
      });

      it('holds the pages of an --all export that wait their turn compressed: each is decoded when it is handed over', async () => {
        const { gzipSync } = await import('node:zlib');
        const gz = { ...json, 'content-encoding': 'gzip' };
        const page = (offset: number) =>
          gzipSync(JSON.stringify({ count: 8, next: offset + 2 < 8 ? `http://internal/api/origins?limit=2&offset=${offset + 2}` : null, results: [{ id: offset + 1 }, { id: offset + 2 }] }));
        // Each with its length, as a server sends one: a page that ends with its connection is decoded
        // as it comes instead (only then can a cut be told and asked for again).
        for (const offset of [0, 2, 4, 6]) {
          const body = page(offset);
          ctx.pool.intercept({ path: `/api/origins?limit=2&offset=${offset}`, method: 'GET' }).reply(200, body, { headers: { ...gz, 'content-length': String(body.length) } });
        }
        const seen: unknown[] = [];
        for await (const p of ctx.client.paginate('/origins', {}, { all: true, asJsonText: true, pageSize: 2, parallel: 4 })) {
          ctx.trace.push(`handed over ${p.request}`);
          seen.push(...texts(p.results));
          // The consumer is slow: the pages ahead have long arrived.
          await new Promise((r) => setTimeout(r, 20));
        }
        expect(seen).toEqual(['{"id":1}', '{"id":2}', '{"id":3}', '{"id":4}', '{"id":5}', '{"id":6}', '{"id":7}', '{"id":8}']);
        const order = ctx.trace.filter((l) => /^(\* GET \/origins\?limit=2&offset=\d: content-encoding gzip|handed over)/.test(l)).map((l) => (l.startsWith('handed') ? l : 'decoded'));
        expect(order).toEqual(['decoded', 'handed over 1', 'decoded', 'handed over 2', 'decoded', 'handed over 3', 'decoded', 'handed over 4']);
      });

      it('hands over the items of a page as the service wrote them, and follows next as always', async () => {
        ctx.pool
          .intercept({ path: '/api/origins?limit=10000&offset=0', method: 'GET' })
          .reply(200, '{"count":3,"next":"http://internal/api/origins?limit=2&offset=2","results":[{"id":1,"v":1.50},{"id":2,"n":"\\u00e9"}]}', { headers: json });
        // Pretty-printed: left to JSON.parse, so its items come parsed.
        ctx.pool.intercept({ path: '/api/origins?limit=2&offset=2', method: 'GET' }).reply(200, JSON.stringify({ count: 3, next: null, results: [{ id: 3 }] }, null, 2), { headers: json });
        const pages: unknown[][] = [];
        for await (const p of ctx.client.paginate('/origins', {}, { all: true, asJsonText: true })) pages.push(texts(p.results));
        expect(pages).toEqual([['{"id":1,"v":1.50}', '{"id":2,"n":"\\u00e9"}'], [{ id: 3 }]]);
      });

      it('keeps --limit across pages', async () => {
        ctx.pool.intercept({ path: '/api/origins?limit=3&offset=0', method: 'GET' }).reply(200, '{"count":9,"next":"x?limit=3&offset=3","results":[{"id":1},{"id":2},{"id":3},{"id":4}]}', { headers: json });
        const seen: unknown[] = [];
        for await (const p of ctx.client.paginate('/origins', {}, { limit: 3, asJsonText: true })) seen.push(...texts(p.results));
        expect(seen).toEqual(['{"id":1}', '{"id":2}', '{"id":3}']);
      });

      it.each([
        ['broken JSON', '{"count":1,"next":null,"results":[{"id":1,}]}', {}],
        ['a raw control character in a string', '{"count":1,"next":null,"results":["a\u0001b"]}', {}],
        ['JSON under an HTML content type', '{"count":1,"next":null,"results":[1]}', { 'content-type': 'text/html' }],
      ])('refuses %s as JSON mode does', async (_what, body, headers) => {
        ctx.pool.intercept({ path: '/api/origins?limit=10000&offset=0', method: 'GET' }).reply(200, body, { headers: { ...json, ...headers } });
        const err = await failure(
          (async () => {
            for await (const _ of ctx.client.paginate('/origins', {}, { all: true, asJsonText: true }));
          })(),
        );
        expect(err.message).toMatch(/^GET \/origins: the answer is not JSON \(200 OK/);
        expect(err.exitCode).toBe(1);
      });

      it('is not used to unwrap items: those are parsed', async () => {
        ctx.pool.intercept({ path: '/api/dds?limit=10000&offset=0', method: 'GET' }).reply(200, '{"count":1,"next":null,"results":[{"results":[{"id":7}]}]}', { headers: json });
        const seen: unknown[] = [];
        const unwrap = (w: unknown) => (w as { results: unknown[] }).results;
        for await (const p of ctx.client.paginate('/dds', {}, { all: true, asJsonText: true, unwrap })) seen.push(...p.results);
        expect(seen).toEqual([{ id: 7 }]);
      });
    });
  });
});

describe('dry run', () => {
  it('records every write instead of sending it, stops at one without dryRunAnswer, and sends the GETs', async () => {
    const planned: PlannedRequest[] = [];
    const { pool, client, agent } = setup({ dryRun: planned });
    // Only the GET has an interceptor: a write that went out would fail on the closed network.
    pool.intercept({ path: '/api/orders/7', method: 'GET' }).reply(200, { id: 7 });
    expect(await client.get('/orders/7')).toEqual({ id: 7 });
    const answer = await client.request({ method: 'POST', path: '/information-requests/bulk', body: { a: 1 }, dryRunAnswer: { results: [] } });
    expect(answer.data).toEqual({ results: [] });
    expect(await failure(client.delete('/due-diligence-statements/3', { has_withdraw_request: 'true' }))).toBeInstanceOf(DryRunEnd);
    await client.request({ method: 'PUT', path: 'https://bucket.test/up?X-Amz-Signature=abc', auth: false, rawBody: () => Buffer.from('x'), dryRunBody: '(1 byte)', dryRunAnswer: null });
    expect(planned).toEqual([
      { method: 'POST', path: '/information-requests/bulk', body: { a: 1 } },
      { method: 'DELETE', path: '/due-diligence-statements/3?has_withdraw_request=true', body: null },
      { method: 'PUT', path: expect.not.stringContaining('abc'), body: '(1 byte)' },
    ]);
    expect(client.requestCount).toBe(1);
    agent.assertNoPendingInterceptors();
  });
});
