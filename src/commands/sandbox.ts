import type { Context } from '../context.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { parseInteger } from './shared/flags.js';
import { UsageError } from '../errors.js';

const SANDBOX_OPTIONS = [
  { flags: '--port <n>', description: 'port to listen on (0 picks a free one)', default: '0' },
  { flags: '--host <address>', description: 'address to listen on', default: '127.0.0.1' },
  { flags: '--seed <n>', description: 'seed of the demo data', default: '1' },
  { flags: '--orders <n>', description: 'number of demo orders (e.g. 100000 for benchmarks)' },
  { flags: '--rate-limit <n>', description: 'requests per hour per token', default: '1000' },
  { flags: '--statement-delay <ms>', description: 'how long EUDR statements stay in_progress', default: '2000' },
  { flags: '--latency <ms>', description: 'fault injection: delay every response' },
  { flags: '--fail-rate <share>', description: 'fault injection: share of requests answered 503 (0..1)' },
  { flags: '--drop-rate <share>', description: 'fault injection: share of connections dropped (0..1)' },
  { flags: '--log', description: 'print one line per request' },
] as const;

export type SandboxCommandOptions = OptionsOf<typeof SANDBOX_OPTIONS>;

export const register = registerOf(defineLeaf({
  name: 'sandbox',
  summary: 'Run a local emulator of the whole service with demo data (Ctrl-C stops it)',
  options: SANDBOX_OPTIONS,
  examples: ['sct sandbox --port 8080', 'sct sandbox --orders 100000 --latency 200 --log'],
  run: (ctx, opts) => sandbox(ctx, opts),
}));

function share(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`invalid ${flag} "${value}": expected a number from 0 to 1`);
  return n;
}

export async function sandbox(ctx: Context, opts: SandboxCommandOptions): Promise<void> {
  const faults = {
    latencyMs: parseInteger(opts.latency, '--latency'),
    failureRate: share(opts.failRate, '--fail-rate'),
    dropRate: share(opts.dropRate, '--drop-rate'),
  };
  const { startSandbox } = await import('../sandbox/server.js');
  const sb = await startSandbox({
    port: parseInteger(opts.port, '--port', 0, 65535),
    host: opts.host,
    seed: parseInteger(opts.seed, '--seed'),
    orders: parseInteger(opts.orders, '--orders', 0, 10_000_000),
    rateLimit: parseInteger(opts.rateLimit, '--rate-limit', 1),
    statementDelayMs: parseInteger(opts.statementDelay, '--statement-delay'),
    faults,
    log: opts.log ? (line) => ctx.io.error(line) : undefined,
  });
  const { io } = ctx;
  // The base URL goes to stdout (scripts read it); the rest is for people, on stderr.
  await io.write(sb.url + '\n');
  io.info(`Sandbox listening on ${sb.url}  (max page size 1000; Ctrl-C to stop)`);
  io.info('Demo tokens:');
  for (const t of sb.tokens) io.info(`  ${t.token.padEnd(28)} ${t.user} <${t.email}>, ${t.role} at ${t.company} (company ${t.companyId})`);
  io.info(`Try: SCT_BASE_URL=${sb.url} SCT_TOKEN=${sb.tokens[0]?.token ?? '…'} sct orders list --buying`);

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sb.close();
  io.info('Sandbox stopped.');
}
