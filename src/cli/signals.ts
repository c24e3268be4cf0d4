// SIGTERM and SIGHUP (timeout, a CI cancellation, docker stop, a closed terminal) stop a run as
// Ctrl-C does: it reports what was done and exits with the signal's own code. A second signal
// exits at once; it cannot cut a bulk run's report, its journal or the config file half-way,
// as each is written synchronously, from its temporary file's creation to its rename or removal.
import { InterruptedError } from '../errors.js';

/** The signals that stop a run cleanly, and the exit code each ends with (128 + its number). */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT_CODES;
const STOP_SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[];

export interface StopSignals {
  /** The run stopped as for Ctrl-C; the message names what stopped it when that was not a person. */
  explain(err: unknown): void;
  /** The exit code of a run interrupted (130) by a signal: that signal's own. */
  exitCode(code: number): number;
  /** Removes the handlers. */
  release(): void;
  /** Aborted by SIGTERM or SIGHUP (not by Ctrl-C, which a pager handles itself). */
  readonly terminated: AbortSignal;
}

/**
 * Aborts controller on the first stop signal (or when `external` aborts: tests, and the build's
 * in-process runs, pass one and no process handler is installed).
 */
export function abortOnStopSignals(controller: AbortController, external?: AbortSignal): StopSignals {
  let firstSignal: { name: StopSignal; at: number } | undefined;
  const terminated = new AbortController();
  const onSignal = (name: StopSignal) => {
    if (name !== 'SIGINT') terminated.abort();
    // A SIGINT re-raised within moments of the first is not a person pressing again: conf's
    // atomic-write library re-sent the signal after its own clean-up; another may.
    const now = Date.now();
    if (firstSignal && now - firstSignal.at > 300) {
      // Said, so that a log (a CI job's, cancelled) shows why the run ended without its report.
      process.stderr.write(`error: stopped at once by a second signal (${name})\n`);
      process.exit(SIGNAL_EXIT_CODES[name]);
    }
    firstSignal ??= { name, at: now };
    controller.abort();
  };
  const handlers = STOP_SIGNALS.map((name) => [name, () => onSignal(name)] as const);
  if (!external) for (const [name, handler] of handlers) process.on(name, handler);
  external?.addEventListener('abort', () => controller.abort(), { once: true });
  return {
    terminated: terminated.signal,
    explain(err) {
      if (firstSignal && firstSignal.name !== 'SIGINT' && err instanceof InterruptedError) err.message = err.message.replace(/^interrupted/, `stopped by ${firstSignal.name}`);
    },
    exitCode(code) {
      return code === SIGNAL_EXIT_CODES.SIGINT && firstSignal ? SIGNAL_EXIT_CODES[firstSignal.name] : code;
    },
    release() {
      if (external) return;
      for (const [name, handler] of handlers) process.off(name, handler);
      // A SIGTERM or SIGHUP that came while JavaScript was busy can reach Node only after the
      // run (how many turns of the event loop that takes differs between Node versions): it
      // still ends the process with its exit code and a word, not killed by the default action
      // with the run's own code lost. A second one ends it at once, as before.
      for (const name of ['SIGTERM', 'SIGHUP'] as const) {
        process.once(name, () => {
          process.stderr.write(`error: stopped by ${name}\n`);
          process.exitCode = SIGNAL_EXIT_CODES[name];
        });
      }
    },
  };
}
