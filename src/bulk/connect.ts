// The first connection of a bulk run, opened as the command starts: kept apart from the rest of
// the bulk code (src/bulk/open.ts) because the command layer calls it before that code is loaded.
import type { Context } from '../context.js';

/** The client of a bulk run: a request already sent finishes on Ctrl-C, so the report says what became of it. */
export const BULK_CLIENT = { finishInFlight: true } as const;

/**
 * Called as a bulk command starts, before its code is loaded and its file read: opens the
 * connection its GET /accounts/me will take, so that GET does not wait a round trip (over TLS,
 * two more) for it once the file is checked. A connection only: no request goes out before the
 * file passes its check, and a file that fails it closes the connection unused. Whatever keeps
 * the client from being made (no base URL, no token) is left to the run to report in its turn,
 * after the file's own errors. Resolves once the connect has started. Whether a run connects at
 * all (not a dry run, not --template) is its record's to say (src/commands/shared/spec.ts); a
 * dry run's client opens nothing in any case.
 */
export async function connectBulkRun(ctx: Context): Promise<void> {
  let client;
  try {
    client = ctx.client(BULK_CLIENT);
  } catch {
    return;
  }
  await client.preconnect(1);
  // Node makes the connection on its next tick (after a DNS lookup for a name): a turn of the
  // event loop lets it go out now, not once the command's code has loaded.
  await new Promise((resolve) => setImmediate(resolve));
}
