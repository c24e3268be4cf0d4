// The end of every download command (documents download, risk evidence): the answer's body
// streamed to its settled target with a progress bar on a terminal, then the saved file
// reported — its path on stdout for scripts, a summary on stderr.
import type { Context } from '../../context.js';
import type { StreamResponse } from '../../api/client.js';
import { saveStream, type Target } from '../../output/download.js';
import { byteProgress, formatBytes } from '../../output/progress.js';
import { writeOne } from '../../output/format.js';
import { stripControl } from '../../output/sanitize.js';

export async function saveDownload(ctx: Context, res: StreamResponse, target: Target, o: { id: number; label: string }): Promise<void> {
  const total = Number(res.headers['content-length']) || undefined;
  const spinner = await ctx.spinner(`${stripControl(o.label)}…`);
  let bytes: number;
  try {
    bytes = await saveStream(res.body, target, byteProgress(spinner, o.label, total));
  } finally {
    spinner.stop();
  }
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Saved ${formatBytes(bytes)} to ${stripControl(target.path)}`);
  const saved = { id: o.id, path: target.path, bytes };
  const format = ctx.format();
  if (format === 'json' || format === 'ndjson') await writeOne(ctx.io, saved, ctx.output([]));
  else await ctx.io.write(saved.path + '\n');
}
