// Saving a downloaded file: the target is settled before the request is sent (so a refusal
// costs nothing), the bytes go to a temporary file beside it, and only a complete file is
// renamed into place. Nothing is written outside the directory the user named, and nothing
// is overwritten without --force.
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { stripControl } from './sanitize.js';

/** A file name from the service (or a URL) reduced to one safe path segment. */
export function safeFileName(name: string, fallback = 'download'): string {
  const cleaned = stripControl(basename(name.replace(/\\/g, '/')))
    .replace(/[<>:"|?*\u0000-\u001f]/g, '_')
    .replace(/^\.+/, '')
    .trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned.slice(0, 200) : fallback;
}

/** The file name from a Content-Disposition header, if it names one. */
export function fileNameFromDisposition(header: string | string[] | undefined): string | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (!h) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(h);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(h);
  return plain?.[1].trim();
}

export interface Target {
  /** Absolute path of the file to create. */
  path: string;
  /** The directory it must stay in. */
  dir: string;
}

/** `--out DIR/` or an existing directory: the file name is to come from the download. */
export function isDirectoryTarget(out: string, cwd: string): boolean {
  const abs = isAbsolute(out) ? out : resolve(cwd, out);
  return /[\\/]$/.test(out) || (existsSync(abs) && statSync(abs).isDirectory());
}

/**
 * Where a download goes: `--out DIR/` or an existing directory → DIR/<name>; `--out FILE` →
 * that file; no --out → <cwd>/<name>. Refuses an existing file without `force`.
 */
export function resolveTarget(out: string | undefined, name: string, o: { cwd: string; force?: boolean }): Target {
  const fileName = safeFileName(name);
  let dir: string;
  let path: string;
  const abs = out === undefined ? undefined : isAbsolute(out) ? out : resolve(o.cwd, out);
  if (abs === undefined) {
    dir = o.cwd;
    path = join(dir, fileName);
  } else if (isDirectoryTarget(out!, o.cwd)) {
    dir = abs;
    path = join(dir, fileName);
  } else {
    dir = dirname(abs);
    path = abs;
  }
  const rel = relative(dir, path);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.includes('/') || rel.includes('\\')) {
    throw new UsageError(`refusing to write ${path}: outside ${dir}`);
  }
  if (existsSync(path) && !o.force) {
    throw new UsageError(`${path} already exists: pass --force to overwrite it`);
  }
  return { path, dir };
}

/** Streams the body to a temporary file in the target directory, then renames it into place. */
export async function saveStream(body: Readable, target: Target, onBytes?: (n: number) => void): Promise<number> {
  mkdirSync(target.dir, { recursive: true });
  const tmp = join(target.dir, `.${basename(target.path)}.${process.pid}.part`);
  let bytes = 0;
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    onBytes?.(bytes);
  });
  const out = createWriteStream(tmp, { flags: 'wx', mode: 0o644 });
  try {
    await pipeline(body, out);
    renameSync(tmp, target.path);
  } catch (err) {
    // A source that fails at once can beat the file's open: removed before the stream has
    // closed, the file would be created after the removal and left behind.
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    rmSync(tmp, { force: true });
    throw err;
  }
  return bytes;
}
