// Whether a process named in a file sct left (a lock, a download's part file) still runs; and
// work that holds the one thread, during which the stop signals keep their default action.
import { InterruptedError } from '../errors.js';

/** The process runs (EPERM: it does, as another user's); false once it has gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `work`, which holds the thread until it returns (a jq filter in WebAssembly): a handler
 * of a stop signal could not run before it ends, however long that takes, so for its time the
 * signals have no handler and end the process as they do any program's (130, 143, 129).
 */
export function withDefaultStopSignals<T>(work: () => T): T {
  const held = STOP_SIGNALS.map((name) => [name, process.listeners(name)] as const);
  for (const [name] of held) process.removeAllListeners(name);
  try {
    return work();
  } finally {
    for (const [name, listeners] of held) for (const l of listeners) process.on(name, l as NodeJS.SignalsListener);
  }
}

/**
 * A place in long work that never waits (writes to a file or a terminal are synchronous in Node)
 * where a stop signal that came meanwhile reaches its handler, and stops the work if it stopped
 * the run. The loop turns twice: one check phase may come before the poll that reads the signal.
 */
export async function stopPoint(signal: AbortSignal): Promise<void> {
  await turnTheLoop();
  if (signal.aborted) throw new InterruptedError();
}

/** A stop point at every `n`th call, the calls between costing a count: for loops of many small steps. */
export function stopEvery(signal: AbortSignal, n: number): () => Promise<void> | undefined {
  let since = 0;
  return () => {
    if (++since < n) return undefined;
    since = 0;
    return stopPoint(signal);
  };
}

/** Two turns of the event loop: a signal that came meanwhile has reached its handler after them. */
export async function turnTheLoop(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}
