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

/** The longest file name most file systems take (ext4, XFS, Btrfs, APFS): 255 bytes of UTF-8. */
const NAME_MAX = 255;

/** An extension worth keeping when a name is shortened or has no name before it: `.zip`, `.pdf`. */
const EXTENSION = /\.[A-Za-z0-9]{1,16}$/;

/**
 * A name from the service cut into its own part and its extension, both made harmless: one path
 * segment, no control characters, no leading dots (a hidden file, or `..`). `stem` is empty when
 * nothing but dots and spaces came before the extension (`..`, `%2E%2E.zip`, `.zip`). The
 * extension is taken first, so an escape sequence before it cannot swallow it.
 */
function nameParts(name: string): { stem: string; ext: string } {
  const base = basename(name.replace(/\\/g, '/')).trim();
  const ext = EXTENSION.exec(base)?.[0] ?? '';
  const stem = stripControl(base.slice(0, base.length - ext.length))
    .replace(/[<>:"|?*\u0000-\u001f]/g, '_')
    .replace(/^[\s.]+/, '')
    .trimEnd();
  return { stem, ext };
}

/** The longest start of `text` that fits in `max` bytes of UTF-8, never half a character. */
function fitBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > max) break;
    out += char;
  }
  return out;
}

/**
 * A file name from the service (or a URL) reduced to one safe path segment of at most 255
 * bytes; a long name is shortened before its extension. With no name of its own, it is
 * `fallback` with the extension it had (`download.zip`).
 */
export function safeFileName(name: string, fallback = 'download'): string {
  const { stem, ext } = nameParts(name);
  return fitBytes(stem || fallback, NAME_MAX - Buffer.byteLength(ext)) + ext;
}

/**
 * The file name from a Content-Disposition header, if it names one. A name of dots alone
 * (`filename*=UTF-8''%2E%2E`) names nothing: the caller's own name for the file is better.
 */
export function fileNameFromDisposition(header: string | string[] | undefined): string | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (!h) return undefined;
  const named = (name: string | undefined) => (name && nameParts(name).stem ? name : undefined);
  const star = /filename\*\s*=\s*utf-8'[^']*'([^;\s]+)/i.exec(h);
  if (star) {
    try {
      const name = named(decodeURIComponent(star[1]));
      if (name) return name;
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(h);
  return named(plain?.[1].trim());
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
  // Beside a name of 255 bytes, `.<name>.<pid>.part` would be too long for the file system.
  const suffix = `.${process.pid}.part`;
  const tmp = join(target.dir, `.${fitBytes(basename(target.path), NAME_MAX - 1 - Buffer.byteLength(suffix))}${suffix}`);
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
