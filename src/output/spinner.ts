// The spinner a command shows on stderr while it waits (ora): only at a terminal that can redraw
// a line, and not with --quiet. A rate-limit countdown is drawn on its line (`note`), not under it.
import type { IOStreams } from './iostreams.js';

export interface Spinner {
  update(text: string): void;
  stop(finalLine?: string): void;
}

/** A spinner shown on a terminal: what a rate-limit wait writes on its line. */
export interface ShownSpinner extends Spinner {
  note?(text: string | undefined): void;
}

/** A spinner's text on one line: its colours kept (callers strip what came from the service). */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/**
 * Whether a spinner is drawn on stderr: not with --quiet, nor at a terminal that cannot move its
 * cursor (TERM dumb or none), which a spinner redraws with, nor at a CI job's pseudo-terminal, a
 * log where a spinner is frames of braille and cursor codes; nor at one that reports 0 columns
 * (script, some CI ptys), which makes ora's line arithmetic divide by zero and redraw forever.
 * What a spinner would say on its line is said as a line of its own where none is drawn.
 */
export function drawsSpinner(io: IOStreams): boolean {
  const columns = (io.stderr as NodeJS.WriteStream).columns;
  return io.stderrRedraws && !io.quiet && typeof columns === 'number' && columns > 0;
}

export async function startSpinner(io: IOStreams, text: string, signal?: AbortSignal): Promise<ShownSpinner> {
  if (!drawsSpinner(io)) return { update() {}, stop() {} };
  const { default: ora } = await import('ora');
  // ora colours its spinner whatever NO_COLOR says: told here, as every other colour is.
  const s = ora({ text: oneLine(text), stream: io.stderr as NodeJS.WritableStream, isEnabled: true, discardStdin: false, color: io.colorErrEnabled ? 'cyan' : false }).start();
  // Ctrl-C: work that stops at once takes the spinner with it; a bulk run lets the requests
  // it sent finish (their outcome goes in its report), and says so while it waits.
  const STOPPING = ' — stopping: waiting for the requests already sent (Ctrl-C again quits at once)';
  let stopping = false;
  let shown = oneLine(text);
  /** A rate-limit wait's countdown, drawn as part of the spinner's line rather than over it. */
  let note: string | undefined;
  const draw = () => void (s.text = shown + (note ? ` — ${note}` : '') + (stopping ? STOPPING : ''));
  const onAbort = () => {
    stopping = true;
    draw();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    // Callers strip the service's and the user's strings in a spinner's text: the rest is
    // sct's own, coloured words (a status), which stripping here would lose.
    // One line: a service string with a line break would draw a second one.
    update: (t) => ((shown = oneLine(t)), draw()),
    note: (n) => ((note = n), draw()),
    stop: (finalLine) => {
      signal?.removeEventListener('abort', onAbort);
      if (finalLine) s.succeed(finalLine);
      else s.stop();
    },
  };
}
