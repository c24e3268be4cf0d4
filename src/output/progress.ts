// Byte progress for uploads and downloads, drawn through the command's spinner (so it is
// silent off a terminal and with --quiet) and redrawn at most ten times a second however
// small the chunks are.
import type { Spinner } from './spinner.js';
import { stripControl } from '../util/sanitize.js';
import { formatBytes } from '../util/format.js';


const BAR_WIDTH = 20;

/** "report.pdf ██████░░░░ 32% 3.2 MB of 10 MB", or without a total "report.pdf 3.2 MB". */
export function progressLine(name: string, done: number, total?: number): string {
  // The label names a document as the service calls it.
  const label = stripControl(name);
  if (!total) return `${label} ${formatBytes(done)}`;
  const share = Math.min(1, done / total);
  const filled = Math.round(share * BAR_WIDTH);
  return `${label} ${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ${Math.floor(share * 100)}% ${formatBytes(done)} of ${formatBytes(total)}`;
}

/** A byte counter callback that redraws the spinner's text, throttled. */
export function byteProgress(spinner: Spinner, label: string, total?: number, now: () => number = Date.now): (done: number) => void {
  let last = -Infinity;
  return (done) => {
    const t = now();
    if (t - last < 100 && done !== total) return;
    last = t;
    spinner.update(progressLine(label, done, total));
  };
}
