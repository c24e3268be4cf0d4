// Retry safety of single writes: a key the user chose is sent unchanged, so running the same
// create twice with it (a script rerun after a lost answer) makes one object, not two.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });

const productsNamed = async (name: string) => ((await t.api(`/products?search=${encodeURIComponent(name)}&limit=100`)).results as Array<{ name: string }>).filter((p) => p.name === name);

describe('Idempotency-Key of single writes', () => {
  it('sct api -H "Idempotency-Key: K" sends K unchanged: the same request twice creates one product', async () => {
    const args = ['api', '-X', 'POST', '/products', '-f', 'name=Idem api beans', '-H', 'Idempotency-Key: api-key-1'];
    const first = await t.sct(args);
    const second = await t.sct(args);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(t.sb.requests.map((r) => r.headers['idempotency-key'])).toEqual(['api-key-1', 'api-key-1']);
    expect(JSON.parse(second.stdout).id).toBe(JSON.parse(first.stdout).id);
    expect(await productsNamed('Idem api beans')).toHaveLength(1);
  });

  it.each([
    ['products', ['products', 'create', '--name', 'Idem beans']],
    ['origins', ['origins', 'create', '--name', 'Idem plot', '--country-code', 'ci', '--location', '5.35,-4.02']],
    ['value-chains', ['value-chains', 'create', '--company-name', 'Idem chain Ltd', '--country-code', 'GH']],
    ['orders', ['orders', 'create', '--purchase', '--type', 'order', '--external-id', 'IDEM-1', '--order-created-at', '2025-03-01']],
    ['invitations', ['invitations', 'create', '--email', 'idem@example.com', '--role', '3']],
    ['risk', ['risk', 'create', '--identifier', 'RA-IDEM']],
    ['imports', ['imports', 'create', '--type', 'orders', '--source', 'csv']],
    ['dds', ['dds', 'create', '--type', 'EUTR', '--name', 'Idem statement']],
  ])('%s create --idempotency-key K twice creates one object', async (_noun, args) => {
    const first = await t.sct([...args, '--idempotency-key', `k-${_noun}`, '-o', 'json']);
    expect(first.exitCode, first.stderr).toBe(0);
    const second = await t.sct([...args, '--idempotency-key', `k-${_noun}`, '-o', 'json']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).id).toBe(JSON.parse(first.stdout).id);
    const posts = t.sb.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.headers['idempotency-key'])).toEqual([`k-${_noun}`, `k-${_noun}`]);
    expect(posts[1].status).toBe(posts[0].status);
  });

  it('documents upload --idempotency-key K twice creates one document (its POST /documents carries K)', async () => {
    const file = t.writeFile('idem-cert.pdf', '%PDF-1.4 idem\n');
    const args = ['documents', 'upload', file, '--idempotency-key', 'k-documents', '-o', 'json'];
    const first = await t.sct(args);
    expect(first.exitCode, first.stderr).toBe(0);
    const second = await t.sct(args);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).id).toBe(JSON.parse(first.stdout).id);
    const posts = t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/documents');
    expect(posts.map((r) => r.headers['idempotency-key'])).toEqual(['k-documents', 'k-documents']);
    t.sb.requests.length = 0;
    await t.expectUsageErrors([[['documents', 'upload', file, '--idempotency-key', 'has space'], /invalid --idempotency-key/]], { inProcess: true });
  });

  it('without --idempotency-key each run of a create sends a new key, reused by its own retries', async () => {
    t.sb.setFaults({ dropFirst: 1, dropAfterProcessing: true, methods: ['POST'] } as never);
    const r = await t.sct(['products', 'create', '--name', 'Idem retried', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const keys = t.sb.requests.filter((q) => q.method === 'POST').map((q) => q.headers['idempotency-key']);
    expect(keys.length).toBe(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await productsNamed('Idem retried')).toHaveLength(1);
    const again = await t.sct(['products', 'create', '--name', 'Idem retried2', '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(t.sb.requests.at(-1)!.headers['idempotency-key']).not.toBe(keys[0]);
  });

  it('an --idempotency-key that cannot be a header value is exit 2, nothing sent', async () => {
    await t.expectUsageErrors(
      [
        [['products', 'create', '--name', 'X', '--idempotency-key', ''], /invalid --idempotency-key/],
        [['products', 'create', '--name', 'X', '--idempotency-key', 'has space'], /invalid --idempotency-key/],
        [['products', 'create', '--name', 'X', '--idempotency-key', 'x'.repeat(256)], /invalid --idempotency-key/],
      ],
      { inProcess: true },
    );
  });

  it("sct api -H 'Idempotency-Key:' with nothing after it (a script's unset $KEY) is exit 2, nothing sent: no retry under a key that tells no repeat", async () => {
    const said = /^error: -H Idempotency-Key: the value is empty, and the service cannot tell a repeat of the request by an empty key: nothing was sent$/m;
    await t.expectUsageErrors(
      [
        [['api', '-X', 'POST', '/origins', '-H', 'Idempotency-Key:', '-f', 'name=Unkeyed plot'], said],
        [['api', '/origins', '-H', 'idempotency-key:   ', '-f', 'name=Unkeyed plot'], /^error: -H idempotency-key: the value is empty/m],
        [['api', '-X', 'POST', '/origins', '-H', 'Idempotency-Key: ', '-f', 'name=Unkeyed plot', '--dry-run'], said],
      ],
      { inProcess: true },
    );
    const r = await t.sct(['api', '-X', 'POST', '/origins', '-H', 'Idempotency-Key:', '-f', 'name=Unkeyed plot']);
    expect(r.stderr).toMatch(/^hint: give the key, or leave out -H Idempotency-Key for sct to make one/m);
    expect(t.sb.requests).toHaveLength(0);
  });

  it('sct api with one header given twice with two values (two keys for one write) is exit 2, nothing sent; the same value twice is one header', async () => {
    await t.expectUsageErrors(
      [
        [['api', '-X', 'POST', '/origins', '-f', 'name=Twice', '-H', 'Idempotency-Key: aaa', '-H', 'Idempotency-Key: bbb'], /^error: -H Idempotency-Key given twice with two values: a request carries one; give it once$/m],
        [['api', '-X', 'POST', '/origins', '-f', 'name=Twice', '-H', 'Idempotency-Key: aaa', '-H', 'idempotency-key: bbb'], /^error: -H idempotency-key given twice/m],
        [['api', '/origins', '-H', 'X-Trace: 1', '-H', 'x-trace: 2'], /^error: -H x-trace given twice with two values/m],
      ],
      { inProcess: true },
    );
    // The values are never repeated: a header may carry a secret (the token pasted into one).
    const secret = await t.sct(['api', '/origins', '-H', `X-T: ${OWNER}`, '-H', 'X-T: b', '-o', 'json']);
    expect(secret.exitCode).toBe(2);
    expect(secret.stderr).toContain('-H X-T given twice with two values');
    expect(secret.stderr + secret.stdout).not.toContain(OWNER);
    const noColon = await t.sct(['api', '/origins', '-H', `X-T ${OWNER}`, '-o', 'json']);
    expect(noColon.exitCode).toBe(2);
    expect(noColon.stderr + noColon.stdout).not.toContain(OWNER);
    // A token that is a word (8 characters) masks no word of the messages.
    const word = await t.sct(['orders', 'get', 'abc'], { env: { SCT_TOKEN: 'expected' } });
    expect(word.stderr).toContain('expected a whole number');
    // Warnings too: a --filter key or a base URL the token was pasted into.
    const warned = await t.sct(['orders', 'list', '--buying', '--filter', `${OWNER}=1`], { env: { SCT_TOKEN: OWNER } });
    expect(warned.stderr).toContain('warning: --filter sct_…');
    expect(warned.stderr).not.toContain(OWNER);
    // Commander's own errors too (an option's value refused before any command runs), text and JSON.
    for (const extra of [[], ['--json', 'id']]) {
      const option = await t.sct(['--output', OWNER, 'orders', 'list', ...extra], { env: { SCT_TOKEN: OWNER } });
      expect(option.exitCode).toBe(2);
      expect(option.stderr + option.stdout).not.toContain(OWNER);
    }
    const same = await t.sct(['api', '-X', 'POST', '/origins', '-f', 'name=Keyed once', '-f', 'country_code=CI', '-H', 'Idempotency-Key: same-key-1', '-H', 'idempotency-key: same-key-1']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(t.sb.requests.filter((q) => q.method === 'POST').map((q) => q.headers['idempotency-key'])).toEqual(['same-key-1']);
  });
});
