// The end of every download command (documents download, risk evidence): the answer's body
// streamed to its settled target with a progress bar on a terminal, then the saved file
// reported — its path on stdout for scripts, a summary on stderr. With `--out -` the bytes
// themselves are stdout, and the summary stays on stderr.
import { StringDecoder } from 'node:string_decoder';
import type { Context } from '../../context.js';
import type { StreamResponse } from '../../api/client.js';
import { saveStream, type DownloadCheck, type Target } from '../../output/download.js';
import { byteProgress } from '../../output/progress.js';
import { formatBytes } from '../../util/format.js';
import { writeOne } from '../../output/format.js';
import { cleanCell, stripControl } from '../../util/sanitize.js';
import type { OptionsOf } from './options.js';
import { BrokenBodyError, NetworkError } from '../../errors.js';

/** --out and --force of a download; `fallback` names the file written without --out. */
export function downloadOptions(fallback: string) {
  return [
    { flags: '--out <path>', description: `a directory (ending in / or existing), a file name, or - for standard output; default: ${fallback}` },
    { flags: '--force', description: 'overwrite an existing file' },
  ] as const;
}

export type DownloadFlags = OptionsOf<ReturnType<typeof downloadOptions>>;

export interface SaveOptions {
  id: number;
  label: string;
  /** Checks the complete download before it is kept; returns what to add to the summary. */
  check?: (bytes: Uint8Array) => string;
}

export async function saveDownload(ctx: Context, res: StreamResponse, target: Target, o: SaveOptions): Promise<void> {
  const total = Number(res.headers['content-length']) || undefined;
  const spinner = await ctx.spinner(`${stripControl(o.label)}…`);
  let bytes: number;
  let checked = '';
  const check: DownloadCheck | undefined = o.check
    ? (all) => {
        checked = o.check!(all);
      }
    : undefined;
  // `--out -` at a terminal shows the file's text as any service string is shown: its escape
  // sequences and control characters stripped (into a pipe or a file the bytes are as sent).
  const shown = target.kind === 'stdout' && ctx.io.stdoutIsTTY ? new StringDecoder('utf8') : undefined;
  const write = shown ? (chunk: Uint8Array) => ctx.io.write(stripControl(shown.write(Buffer.from(chunk)))) : (chunk: Uint8Array) => ctx.io.write(chunk);
  const progress = byteProgress(spinner, o.label, total);
  let got = 0;
  const onBytes = (n: number) => {
    got = n;
    progress(n);
  };
  try {
    bytes = await saveStream(res.body, target, { onBytes, check, write });
    if (shown) await ctx.io.write(stripControl(shown.end()));
  } catch (err) {
    // Written into as they come (stdout, a FIFO, a device), the bytes of a broken body are out
    // already: a second attempt's would follow them, and the whole is no file.
    if (err instanceof BrokenBodyError && (target.kind === 'stdout' || target.kind === 'into') && !check && got > 0) {
      const where = target.kind === 'stdout' ? 'on standard output' : `written to ${cleanCell(target.path)}`;
      throw new NetworkError(`${err.message}: not asked for again: its first ${got.toLocaleString('en-US')} bytes are ${where} already`, { cause: err });
    }
    throw err;
  } finally {
    spinner.stop();
  }
  const where = target.kind === 'stdout' ? 'standard output' : target.path;
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Saved ${formatBytes(bytes)}${checked ? ` (${checked})` : ''} to ${cleanCell(where)}`);
  if (target.kind === 'stdout') return;
  const saved = { id: o.id, path: target.path, bytes };
  // At -o table without --columns the path alone, for `$(sct documents download 4)`; every other
  // format (and a pick of fields) the record of what was saved.
  if (ctx.format() !== 'table' || ctx.columns() !== undefined) await writeOne(ctx.io, saved, ctx.output([]));
  else await ctx.io.write(saved.path + '\n');
}
