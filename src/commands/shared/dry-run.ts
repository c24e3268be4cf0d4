// --dry-run of the commands that write: the flag, and the one way the requests it would send
// are printed. The client records them (api/client.ts, ClientOptions.dryRun); the command
// wrapper (command.ts) prints them when the run ends.
import type { Command } from 'commander';
import { tokenOf, type Context } from '../../context.js';
import type { PlannedRequest } from '../../api/client.js';
import type { Column } from '../../output/columns.js';
import type { OptionSpec } from './options.js';
import { createListWriter, writeInBatches } from '../../output/format.js';
import { stripControl } from '../../util/sanitize.js';
import { stopPoint } from '../../util/process.js';
import { valueWithoutToken, withoutToken } from '../../util/redact.js';

/** How much of a dry run's text is written at once. */
const WRITE_BYTES = 64 * 1024;

/** The commands whose --dry-run is this one (import and bulk-create print their file's requests themselves, sync its plan). */
const DRY_RUN_COMMANDS = new WeakSet<Command>();

const REQUEST_COLUMNS: Column[] = [
  { header: 'METHOD', path: 'method' },
  { header: 'PATH', path: 'path' },
  { header: 'BODY', path: 'body' },
];

/** The --dry-run of a command record (spec.ts adds it through addDryRunOption). */
export const DRY_RUN_OPTION = {
  flags: '--dry-run',
  description: 'print each request it would send (method, path, body) and send none; the reads a request is built from still go out',
  dryRun: true,
} as const satisfies OptionSpec;

export function addDryRunOption(cmd: Command, description: string = DRY_RUN_OPTION.description): Command {
  DRY_RUN_COMMANDS.add(cmd);
  return cmd.option('--dry-run', description);
}

export function isDryRun(cmd: Command): boolean {
  return DRY_RUN_COMMANDS.has(cmd) && cmd.opts().dryRun === true;
}

/**
 * Each request as `METHOD /path` and its body as indented JSON, a blank line between requests;
 * -o json, ndjson or csv: objects {method, path, body} (body null when there is none). The
 * count goes to stderr, worded as the other dry runs' ("…; nothing sent (dry run)").
 */
export async function writePlannedRequests(ctx: Context): Promise<void> {
  await writeRequests(ctx, ctx.planned);
  ctx.io.info(`${ctx.planned.length} request${ctx.planned.length === 1 ? '' : 's'}; nothing sent (dry run)`);
}

/**
 * Requests a command built without a client (any iterable: a generator makes each as it is
 * written), in the same form (the bulk commands' dry runs: a file's units as the run would send
 * them, without its journal or lock). The caller says the count on stderr.
 */
export async function writeRequests(ctx: Context, requests: Iterable<PlannedRequest>): Promise<void> {
  await writeInBatches(requestWriter(ctx), requests);
}

/** Requests written a batch at a time, as writeRequests writes them all. */
interface RequestWriter {
  write(requests: PlannedRequest[]): Promise<void>;
  end(): Promise<void>;
}

/** A writer of requests in the output format: for a command that makes its requests as it reads its file. */
function requestWriter(ctx: Context): RequestWriter {
  // A token in a file's cell (a description a user pasted it into) is never printed, as the
  // --verbose trace of the same request masks it.
  const token = tokenOf(ctx);
  // Ctrl-C (or SIGTERM) stops the writing between two batches: a file of a million rows is
  // seconds of output, which nobody stopping it wants finished.
  const stopIfAsked = () => stopPoint(ctx.signal);
  if (ctx.format() !== 'table') {
    // Requests, not the resource the command prints: the resource's CSV columns are not theirs
    // (each request was a line of empty cells under an origin's header). --json, --columns and
    // --jq pick among the requests' fields.
    const list = createListWriter(ctx.io, { ...ctx.output(REQUEST_COLUMNS), csvColumns: undefined });
    return {
      write: async (requests) => {
        await stopIfAsked();
        return list.write(valueWithoutToken(requests, token) as unknown[]);
      },
      end: () => list.end(),
    };
  }
  // Written as it is made, a piece of about WRITE_BYTES at a time: the requests of a file of a
  // million rows, joined into one text first, held several times the file in memory.
  let text = '';
  let any = false;
  // At a terminal the service's strings a body carries back (an order's items) lose their control
  // characters: JSON escapes C0 ones, not C1 ones, which a terminal acts on. In a file, as sent.
  const shown = ctx.io.stdoutIsTTY ? stripControl : (t: string) => t;
  return {
    async write(requests) {
      await stopIfAsked();
      for (const r of requests) {
        const body = r.body === null ? '' : `\n${typeof r.body === 'string' ? stripControl(r.body) : shown(JSON.stringify(r.body, null, 2))}`;
        text += `${any ? '\n\n' : ''}${r.method} ${stripControl(r.path)}${body}`;
        any = true;
        if (text.length >= WRITE_BYTES) {
          await ctx.io.write(withoutToken(text, token));
          text = '';
        }
      }
    },
    async end() {
      if (any) await ctx.io.write(`${withoutToken(text, token)}\n`);
    },
  };
}

/** A POST of each unit's payload to `path`, made as it is written (a file's million units are not copied first). */
export function* postsOf(path: string, units: Iterable<{ payload: unknown }>): Iterable<PlannedRequest> {
  for (const u of units) yield { method: 'POST', path, body: u.payload };
}

/**
 * A dry run's requests to `path`, written a thousand at a time as a reading makes their bodies:
 * the reading waits for the writing (`afterRow`, where the file comes line by line; see
 * ReadOptions.takeRows). `end` writes the rest and says how many there were.
 */
export function requestsAsMade(ctx: Context, path: string): { add(body: unknown): void; afterRow(): Promise<void> | undefined; end(): Promise<number> } {
  const writer = requestWriter(ctx);
  let batch: PlannedRequest[] = [];
  let count = 0;
  const flush = () => {
    const out = batch;
    batch = [];
    return writer.write(out);
  };
  return {
    add(body) {
      count++;
      batch.push({ method: 'POST', path, body });
    },
    afterRow: () => (batch.length >= 1000 ? flush() : undefined),
    async end() {
      await flush();
      await writer.end();
      return count;
    },
  };
}
