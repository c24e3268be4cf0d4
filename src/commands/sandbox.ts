import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { parseInteger } from './shared/flags.js';
import { UsageError } from '../errors.js';

export interface SandboxCommandOptions {
  port?: string;
  host?: string;
  seed?: string;
  orders?: string;
  rateLimit?: string;
  statementDelay?: string;
  latency?: string;
  failRate?: string;
  dropRate?: string;
  log?: boolean;
}

export function register(program: Command, f: Factory): void {
  addExamples(
    program
    .command('sandbox')
    .description('Run a local emulator of the whole service with demo data (Ctrl-C stops it)')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of the demo data', '1')
    .option('--orders <n>', 'number of demo orders (e.g. 100000 for benchmarks)')
    .option('--rate-limit <n>', 'requests per hour per token', '1000')
    .option('--statement-delay <ms>', 'how long EUDR statements stay in_progress', '2000')
    .option('--latency <ms>', 'fault injection: delay every response')
    .option('--fail-rate <share>', 'fault injection: share of requests answered 503 (0..1)')
    .option('--drop-rate <share>', 'fault injection: share of connections dropped (0..1)')
    .option('--log', 'print one line per request'),
    ['sct sandbox --port 8080', 'sct sandbox --orders 100000 --latency 200 --log'],
  ).action(f.action<SandboxCommandOptions>((ctx, opts) => sandbox(ctx, opts)));
}

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
