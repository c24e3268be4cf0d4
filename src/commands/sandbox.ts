import type { Context } from '../context.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { parseInteger } from './shared/flags.js';
import { SctError, UsageError } from '../errors.js';

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
  // Decimals only: Number() reads " " as 0 and 0x1 as 1.
  const n = Number(value.trim());
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value.trim()) || n > 1) throw new UsageError(`invalid ${flag} "${value}": expected a number from 0 to 1`);
  return n;
}

/** An address that listens on every interface: reached from here as this machine's loopback. */
/** The addresses of every interface, as the system reports a server bound to them. */
const EVERY_INTERFACE = new Set(['0.0.0.0', '::']);

export async function sandbox(ctx: Context, opts: SandboxCommandOptions): Promise<void> {
  const faults = {
    latencyMs: parseInteger(opts.latency, '--latency'),
    failureRate: share(opts.failRate, '--fail-rate'),
    dropRate: share(opts.dropRate, '--drop-rate'),
  };
  const { startSandbox } = await import('../sandbox/server.js');
  const port = parseInteger(opts.port, '--port', 0, 65535)!;
  const host = opts.host ?? '127.0.0.1';
  let sb;
  try {
    sb = await startSandbox({
      port,
      host: opts.host,
      seed: parseInteger(opts.seed, '--seed'),
      orders: parseInteger(opts.orders, '--orders', 0, 10_000_000),
      rateLimit: parseInteger(opts.rateLimit, '--rate-limit', 1),
      statementDelayMs: parseInteger(opts.statementDelay, '--statement-delay'),
      faults,
      log: opts.log ? (line) => ctx.io.error(line) : undefined,
    });
  } catch (err) {
    throw listenError(err, host, port);
  }
  const { io } = ctx;
  const { url, where, warning } = announcement(host, sb.address, sb.url);
  // The base URL goes to stdout (scripts read it); the rest is for people, on stderr. A script
  // that cannot be told the URL (a full disk) gets no server left running without it.
  try {
    await io.write(url + '\n');
    await io.flush();
  } catch (err) {
    await sb.close();
    throw err;
  }
  io.info(`Sandbox listening on ${where}  (max page size 1000; Ctrl-C to stop)`);
  if (warning) io.warn(warning);
  io.info('Demo tokens:');
  for (const t of sb.tokens) io.info(`  ${t.token.padEnd(28)} ${t.user} <${t.email}>, ${t.role} at ${t.company} (company ${t.companyId})`);
  io.info(`Try: SCT_BASE_URL=${url} SCT_TOKEN=${sb.tokens[0]?.token ?? '…'} sct orders list --buying`);

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sb.close();
  io.info('Sandbox stopped.');
}

/**
 * What a sandbox listening on `host` (bound to `address`, at `listening`, the server's own URL)
 * says: the URL to use from here, where it listens, and a warning when that is every interface,
 * however --host spelled it (`0`, `::0`). There the URL is the loopback one (sct sends a token
 * over plain http only to this machine), and everyone who can reach it is told of.
 */
export function announcement(host: string, address: string, listening: string): { url: string; where: string; warning?: string } {
  if (!EVERY_INTERFACE.has(address)) return { url: listening, where: listening };
  const u = new URL(listening);
  const url = `http://127.0.0.1:${u.port}${u.pathname}`;
  return {
    url,
    where: `every interface (${host}), as ${url} from here`,
    warning: 'every machine that can reach this one can use the demo tokens, read the request log (/_sandbox/requests) and set faults: use --host 127.0.0.1 unless that is meant',
  };
}

/** Why the sandbox could not listen, in words and with what to do: a bad --host is a usage error. */
function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL') {
    return new UsageError(`invalid --host "${host}": ${code === 'EADDRNOTAVAIL' ? 'not an address of this machine' : 'no such host'}`, {}, 'e.g. --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface)');
  }
  if (code === 'EADDRINUSE') {
    const e = new SctError(`port ${port} on ${host} is in use (another sandbox, or another server)`);
    e.hint = '--port 0 picks a free port, and prints its URL on stdout';
    return e;
  }
  if (code === 'EACCES') {
    const e = new SctError(`port ${port} on ${host} needs privileges this user does not have`);
    e.hint = 'use a port above 1023, or --port 0 for a free one';
    return e;
  }
  return err;
}
