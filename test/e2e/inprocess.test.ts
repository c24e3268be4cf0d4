// Commands run in-process with fake streams (as gh's iostreams.Test()): the same command
// checked as a person at a terminal sees it and as a pipe receives it.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { main } from '../../src/cli.js';
import { createTestIO } from '../helpers/io.js';
import { useSandbox } from '../helpers/sandbox.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { OWNER } from '../sandbox/helpers.js';
import type { Prompter } from '../../src/prompt.js';

const t = useSandbox();

/** As a person runs sct: no CI or NO_COLOR in the environment, and prompts answered by `prompter`. */
async function run(
  args: string[],
  o: { tty?: boolean; stdoutTTY?: boolean; env?: Record<string, string>; prompter?: Partial<Prompter>; input?: string; columns?: number } = {},
) {
  const io = createTestIO({ stdoutIsTTY: o.stdoutTTY ?? o.tty, stderrIsTTY: o.tty, stdinIsTTY: o.tty, columns: o.columns ?? 80, input: o.input });
  // A terminal names its TERM (one that does not is drawn on as a dumb one).
  const env = { SCT_CONFIG_DIR: t.dir, SCT_BASE_URL: t.sb.url, SCT_TOKEN: OWNER, ...(o.tty ? { TERM: 'xterm' } : {}), ...o.env };
  const prompter = {
    password: async () => {
      throw new Error('unexpected prompt');
    },
    input: async () => '',
    confirm: async () => false,
    select: async () => undefined as never,
    ...o.prompter,
  } as Prompter;
  const code = await main(args, { streams: io.streams, env, prompter, signal: new AbortController().signal });
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe('terminal vs pipe', () => {
  it('a table fits the terminal on a TTY and is not cut when piped', async () => {
    const tty = await run(['products', 'list', '--limit', '5'], { tty: true, columns: 100 });
    expect(tty.code).toBe(0);
    for (const line of tty.stdout.trimEnd().split('\n')) expect([...line.replace(/\u001b\[[0-9;]*m/g, '')].length).toBeLessThanOrEqual(100);
    expect(tty.stdout).toContain('…');
    const piped = await run(['products', 'list', '--limit', '5'], { tty: false, columns: 100 });
    expect(piped.stdout).not.toContain('…');
    expect(piped.stdout).not.toMatch(/\u001b\[/);
  });

  it('colours the header on a TTY unless NO_COLOR is set', async () => {
    const coloured = await run(['products', 'list', '--limit', '2'], { tty: true });
    expect(coloured.stdout).toMatch(/\u001b\[1mID/);
    const plain = await run(['products', 'list', '--limit', '2'], { tty: true, env: { NO_COLOR: '1' } });
    expect(plain.stdout).not.toMatch(/\u001b\[/);
    const flag = await run(['products', 'list', '--limit', '2', '--no-color'], { tty: true });
    expect(flag.stdout).not.toMatch(/\u001b\[/);
  });

  it('before a long --all on a terminal, says how many requests to expect and what the rate limit allows', async () => {
    const tty = await run(['products', 'list', '--all', '--page-size', '5'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/Fetching 2\d products in about 5 requests; the rate limit has \d+ of 1000 requests left this hour\./);
    const piped = await run(['products', 'list', '--all', '--page-size', '5']);
    expect(piped.stderr).not.toContain('Fetching');
  });

  it('at a terminal, a first page says how many match and how to get more; scripts get no such line', async () => {
    const tty = await run(['products', 'list', '--limit', '5'], { tty: true });
    // After the table's rows: inside the pager when one shows them (table-fit.test.ts), else on stderr.
    expect(tty.stderr.replace(/\u001b\[[0-9;]*m/g, '').trimEnd().split('\n').at(-1)).toMatch(/^Showing 5 of 2\d products \(--limit N, --offset N or --all for more\)$/);
    expect(tty.stdout).not.toContain('Showing');
    // JSON at a terminal stays JSON: the line goes to stderr.
    const json = await run(['products', 'list', '--limit', '5', '-o', 'json'], { tty: true });
    expect(JSON.parse(json.stdout)).toHaveLength(5);
    expect(json.stderr).toMatch(/Showing 5 of 2\d products/);
    const all = await run(['products', 'list', '--all'], { tty: true });
    expect(all.stderr).not.toContain('Showing');
    const piped = await run(['products', 'list', '--limit', '5']);
    expect(piped.stderr).not.toContain('Showing');
    // A later page says which rows it holds; an --offset past the end says so, not only "no results".
    const later = await run(['products', 'list', '--limit', '3', '--offset', '5'], { tty: true });
    expect(later.stderr).toMatch(/Showing 6–8 of 2\d products \(--limit N, --offset N or --all for more\)/);
    const past = await run(['products', 'list', '--offset', '500'], { tty: true });
    expect(past.code).toBe(0);
    expect(past.stderr).toMatch(/--offset 500 is past the end \(2\d in all\)/);
  });

  it('an export into a file shows its progress on the terminal; data on the terminal does not', async () => {
    t.sb.setFaults({ latencyMs: 150 });
    const toFile = await run(['products', 'list', '--all', '--page-size', '5', '-o', 'csv'], { tty: true, stdoutTTY: false });
    expect(toFile.code).toBe(0);
    expect(toFile.stderr).toMatch(/Fetched (5|10|15|20) of 2\d products…/);
    expect(toFile.stdout.split('\n')[0]).toMatch(/^id,/);
    const onScreen = await run(['products', 'list', '--all', '--page-size', '5', '-o', 'csv'], { tty: true });
    expect(onScreen.stderr).not.toContain('Fetched');
  });

  it('counts down a rate-limit wait on a terminal', async () => {
    t.sb.setFaults({ rateLimitBurst: 1, rateLimitResetSeconds: 2 });
    const r = await run(['whoami'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/rate limit reached: resuming in \ds \(Ctrl-C to stop\)/);
  });

  it('a rate-limit wait under a spinner is counted down on the spinner\'s line, not drawn over by it', async () => {
    t.sb.setFaults({ rateLimitBurst: 1, rateLimitResetSeconds: 2 });
    const r = await run(['products', 'list', '--all', '--page-size', '5', '-o', 'csv'], { tty: true, stdoutTTY: false });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Fetch[^\n\r]*… — rate limit reached: resuming in \ds \(Ctrl-C to stop\)/);
    expect(r.stderr).not.toMatch(/\u001b\[2Krate limit reached/);
  });

  it('says a rate-limit wait off a terminal in whole seconds, as every duration is written', async () => {
    t.sb.setFaults({ rateLimitBurst: 1, rateLimitResetSeconds: 2 });
    const r = await run(['whoami']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/rate limit reached: waiting \d+s for the budget to reset/);
  });

  it('auth login prompts for the token on a terminal', async () => {
    let asked = '';
    const r = await run(['auth', 'login', '--base-url', t.sb.url], {
      tty: true,
      env: { SCT_TOKEN: '' },
      prompter: {
        password: async (m: string) => {
          asked = m;
          return OWNER;
        },
      },
    });
    expect(r.code).toBe(0);
    expect(asked).toMatch(/token/i);
    expect(r.stderr).toContain('Logged in');
  });

  it('delete asks on a terminal and does nothing when the answer is no', async () => {
    let question = '';
    const r = await run(['products', 'delete', '1'], {
      tty: true,
      prompter: {
        confirm: async (m: string) => {
          question = m;
          return false;
        },
      },
    });
    expect(question).toBe('Delete product 1?');
    // Answering no is a cancellation (2, nothing sent), not a Ctrl-C (130).
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cancelled: product 1 was not deleted');
    expect(t.sb.requests.some((q) => q.method === 'DELETE')).toBe(false);
  });
});

describe('prompts for missing create fields', () => {
  it('asks on a terminal for each required field left out, checking each answer', async () => {
    const asked: string[] = [];
    const answers: Record<string, string> = { 'external id:': 'PROMPTED-1', 'order created at (YYYY-MM-DD):': '2025-02-30' };
    let rejected = '';
    const r = await run(['orders', 'create', '--purchase', '--seller-company-id', '101', '-o', 'json'], {
      tty: true,
      prompter: {
        select: (async (m: string, choices: Array<{ value: string }>) => {
          asked.push(m);
          return choices.find((c) => c.value === 'produced_batch')!.value;
        }) as Prompter['select'],
        input: async (m, o) => {
          asked.push(m);
          // The first answer to the date is not a calendar day: the prompt says why and asks again.
          let text = answers[m];
          const verdict = o?.validate?.(text);
          if (verdict !== true) {
            rejected = String(verdict);
            text = '2025-02-28';
            expect(o?.validate?.(text)).toBe(true);
          }
          return text;
        },
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual(['type', 'external id:', 'order created at (YYYY-MM-DD):']);
    expect(rejected).toBe('expected a date YYYY-MM-DD');
    const post = t.sb.requests.find((q) => q.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ type: 'produced_batch', external_id: 'PROMPTED-1', order_created_at: '2025-02-28', seller_company_id: 101 });
  });

  it('asks for nothing without a terminal: the missing fields are a usage error', async () => {
    const r = await run(['products', 'create', '--sku', 'X'], {
      prompter: {
        input: async () => {
          throw new Error('unexpected prompt');
        },
      },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('name: This field is required.');
    expect(t.sb.requests).toHaveLength(0);
  });

  it('turns typed numbers and lists into the types the field wants (a batch)', async () => {
    const answers: Record<string, string> = { 'external id:': 'B-PROMPT', 'order created at (YYYY-MM-DD):': '2025-03-01', 'company id:': '1', 'tags (comma-separated):': 'lot-1, lot-2' };
    const r = await run(['orders', 'create', '--batch', '--type', 'order'], {
      tty: true,
      prompter: { input: async (m) => answers[m] },
    });
    expect(r.code, r.stderr).toBe(0);
    const post = t.sb.requests.find((q) => q.method === 'POST')!;
    expect(JSON.parse(post.body)).toMatchObject({ company_id: 1, tags: ['lot-1', 'lot-2'], external_id: 'B-PROMPT' });
  });
});

describe('prompts that follow the rules', () => {
  it('orders create without a kind offers purchase, sale or batch on a terminal', async () => {
    const asked: string[] = [];
    const answers: Record<string, string> = { 'external id:': 'KIND-1', 'order created at (YYYY-MM-DD):': '2025-03-01', 'company id:': '1', 'tags (comma-separated):': 'lot-1' };
    const r = await run(['orders', 'create', '--type', 'order', '-o', 'json'], {
      tty: true,
      prompter: {
        select: (async (m: string, choices: Array<{ value: string }>) => {
          asked.push(`${m} ${choices.map((c) => c.value).join('/')}`);
          return 'batch';
        }) as Prompter['select'],
        input: async (m) => answers[m] ?? (asked.push(`unexpected ${m}`), ''),
      },
    });
    expect(r.code, `${r.stderr} ${asked.join('; ')}`).toBe(0);
    expect(asked).toEqual(['Create which kind of order? purchase/sale/batch']);
    expect(t.sb.requests.find((q) => q.method === 'POST')!.path).toContain('batch');
    // Without a terminal the kind is still required.
    const piped = await run(['orders', 'create', '--type', 'order']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('one of --purchase, --sale or --batch is required');
  });

  it('dds create asks the type, which of the two the type needs (runs or a filed identifier), then the assessment run ids (comma-separated)', async () => {
    const asked: string[] = [];
    const runs = '3f6c1d2e-1111-4aaa-8bbb-000000000001, 9a1d2e3f-2222-4ccc-9ddd-000000000002';
    let rejectedEmpty: unknown;
    let rejectedOne: unknown;
    const r = await run(['dds', 'create', '-o', 'json'], {
      tty: true,
      prompter: {
        select: (async (m: string) => {
          asked.push(m);
          return m === 'Give which?' ? 'assessment_run_ids' : 'EUDR';
        }) as Prompter['select'],
        input: async (m, o) => {
          asked.push(m);
          rejectedEmpty = o?.validate?.('');
          rejectedOne = o?.validate?.('1');
          return runs;
        },
      },
    });
    expect(r.code, r.stderr).toBe(0);
    // The reason of the list's reading ("1" is no UUID), not "expected a list".
    expect(String(rejectedOne)).toContain('expected a UUID');
    expect(asked).toEqual(['type', 'Give which?', 'assessment run ids (comma-separated):']);
    expect(String(rejectedEmpty)).toContain('required and non-empty');
    const post = t.sb.requests.find((q) => q.method === 'POST')!;
    expect(JSON.parse(post.body)).toMatchObject({ type: 'EUDR', assessment_run_ids: runs.split(', ') });
  });
});

describe('proxies', () => {
  let proxy: ConnectProxy;
  beforeAll(async () => {
    proxy = await startConnectProxy();
  });
  afterAll(() => proxy.close());

  it('sends requests through HTTP_PROXY, and not for hosts in NO_PROXY', async () => {
    const port = proxy.port;
    const remote = `http://sandbox.test:${new URL(t.sb.url).port}/api`;
    const via = await t.sct(['whoami', '-o', 'json', '--verbose', '--base-url', remote], { env: { HTTP_PROXY: `http://127.0.0.1:${port}`, SCT_ALLOW_HTTP: '1' } });
    expect(via.exitCode, via.stderr).toBe(0);
    expect(proxy.tunnels).toBeGreaterThan(0);
    expect(via.stderr).toContain('through the proxy from the environment');
    expect(via.stderr).not.toContain(`127.0.0.1:${port}`);
    const before = proxy.tunnels;
    const direct = await t.sct(['whoami', '-o', 'json'], { env: { HTTP_PROXY: `http://127.0.0.1:${port}`, NO_PROXY: '127.0.0.1' } });
    expect(direct.exitCode).toBe(0);
    expect(proxy.tunnels).toBe(before);
  });

  it('never sends a loopback base URL through a proxy: plain http and its token stay on this machine', async () => {
    const port = proxy.port;
    const before = proxy.tunnels;
    for (const base of [t.sb.url, t.sb.url.replace('127.0.0.1', 'localhost')]) {
      const r = await t.sct(['whoami', '-o', 'json', '--base-url', base], { env: { HTTP_PROXY: `http://127.0.0.1:${port}`, HTTPS_PROXY: `http://127.0.0.1:${port}` } });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    expect(proxy.tunnels).toBe(before);
  });
});
