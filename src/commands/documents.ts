// sct documents list/get/upload/download.
//
// Upload is three calls, as cli-spec.md assumes: POST /documents (the document with an
// `upload_url`), PUT of the raw bytes to that URL, POST /documents/{id}/confirm_upload.
// Download asks for a signed URL (GET /documents/{id}/download → {url}) and streams it to disk.
// Signed URLs carry their own credential: sct never sends the token to them, wherever they point.
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from '../context.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { exactBytes, FileChangedError, fileErrorText } from '../util/files.js';
import { writeOne } from '../output/format.js';
import { byteProgress } from '../output/progress.js';
import { formatBytes } from '../util/format.js';
import { checkOutDirectory, resolveTarget } from '../output/download.js';
import { LinkRefusedError, PlainLinkError, SctError, UsageError } from '../errors.js';
import { getLeaf, idempotencyKeyOf, listLeaf, parseId, withRerunKey } from './shared/crud.js';
import { collect } from './shared/flags.js';
import { IDEMPOTENCY_KEY_OPTION, validate } from './shared/body.js';
import { cleanCell, stripControl } from '../util/sanitize.js';
import { mediaType } from '../api/answers.js';
import { redactSignedUrl } from '../util/redact.js';
import { downloadOptions, saveDownload, type DownloadFlags } from './shared/download.js';

const UPLOAD_OPTIONS = [
  { flags: '--name <name>', description: 'the document name (default: the file name)' },
  { flags: '--description <text>', description: 'description' },
  { flags: '--content-type <type>', description: 'MIME type (default: the service guesses from the name)' },
  { flags: '--tag <tag>', description: 'a tag (repeatable)', parse: collect },
  IDEMPOTENCY_KEY_OPTION,
  DRY_RUN_OPTION,
] as const;

export type UploadFlags = OptionsOf<typeof UPLOAD_OPTIONS>;

export const register = registerOf({
  name: 'documents',
  leaves: [
    listLeaf({ summary: 'List the company’s documents', path: PATHS.documents, columns: COLUMNS.document, noun: 'documents', examples: ['sct documents list --search satellite', 'sct documents list --columns id,name,status --json'] }),
    getLeaf({ noun: 'document', path: PATHS.document, columns: COLUMNS.document, examples: ['sct documents get 4', 'sct documents get 4 --json name,status'] }),
    defineLeaf({
      name: 'upload',
      summary: 'Upload a file as a new document',
      args: [{ name: '<file>', description: 'the file to upload' }],
      options: UPLOAD_OPTIONS,
      examples: ['sct documents upload ./certificates/fsc-2025.pdf --tag fsc'],
      run: (ctx, opts, [file]) => uploadDocument(ctx, file, opts),
    }),
    defineLeaf({
      name: 'download',
      summary: 'Download a document’s file',
      args: [{ name: '<id>', description: 'document id' }],
      options: downloadOptions('the document name in the current directory'),
      examples: ['sct documents download 4 --out ./evidence/'],
      run: (ctx, opts, [id]) => downloadDocument(ctx, parseId(id), opts),
    }),
  ],
});

export async function uploadDocument(ctx: Context, file: string, opts: UploadFlags): Promise<void> {
  // The document is created with its size before a byte goes: a stream of unknown length cannot be.
  if (file === '-' && !existsSync(file)) throw new UsageError('documents upload reads a file, not stdin (its size goes to the service before its bytes): save it to a file first');
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a regular file');
    size = st.size;
    // Opened now, not when its bytes go: a file sct may not read would leave a document created
    // with no file, and the run failed half-way.
    closeSync(openSync(file, 'r'));
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${fileErrorText(err)}`);
  }
  const { documentCreateSchema, uploadTargetSchema } = await import('../api/schemas/files.js');
  const body = validate(
    documentCreateSchema,
    { name: opts.name ?? basename(file), size, content_type: opts.contentType, description: opts.description, tags: opts.tag },
    'document',
  );
  // The create's key, given or made here: a rerun with it finds this document and gives it its
  // file, where a rerun without it would create a second document.
  const givenKey = idempotencyKeyOf(opts);
  const idempotencyKey = givenKey ?? randomUUID();
  const client = ctx.client();
  // A dry run goes on to the upload and the confirmation with what the answer would name.
  const created = await withRerunKey(client.post(PATHS.documents, body, { expect: 'created', idempotencyKey, dryRunAnswer: { id: '{id}', upload_url: '{upload_url}' } }), undefined, givenKey);
  const target = ctx.dryRun ? { success: true as const, data: created as { id: string; upload_url: string } } : uploadTargetSchema.safeParse(created);
  if (!target.success) {
    // The document may be there, waiting for a file no URL leads to: named. Its key would only
    // replay this same answer (or the redirect that led to it), without a link either.
    const made = (created as { id?: unknown } | null)?.id;
    const err = new SctError(`unexpected answer from POST ${PATHS.documents}: no upload_url${made !== undefined ? ` (document ${cleanCell(String(made))} was created)` : ''}`);
    if (made !== undefined) err.hint = `document ${cleanCell(String(made))} has no file, and no rerun gives it one (its key gets the same answer again): \`sct documents get ${cleanCell(String(made))}\` shows it`;
    throw err;
  }
  const { id, upload_url: uploadUrl } = target.data;
  if (givenKey !== undefined && !ctx.dryRun) {
    // The key of an earlier run replays its answer, upload URL and all: when that run went on to
    // upload and confirm, the URL is spent, and the document is there to show.
    const now = await client.get<{ status?: unknown } | null>(PATHS.document(Number(id)));
    if (now && typeof now.status === 'string' && now.status !== 'pending_upload') {
      ctx.io.info(`document ${id} was uploaded by an earlier run with this --idempotency-key (${cleanCell(now.status)}): nothing uploaded again`);
      return writeOne(ctx.io, now, ctx.output(COLUMNS.document));
    }
  }

  const spinner = await ctx.spinner(`Uploading ${stripControl(body.name)}…`);
  const progress = byteProgress(spinner, `Uploading ${body.name}`, size);
  try {
    await client.request({
      method: 'PUT',
      path: uploadUrl,
      auth: false,
      // The type the service recorded (and may have signed the URL for), else the one given.
      headers: { 'content-type': answeredType(created) ?? body.content_type ?? 'application/octet-stream', 'content-length': String(size) },
      dryRunBody: `(the ${size} bytes of ${basename(file)})`,
      dryRunAnswer: null,
      // A function, so a retried PUT reads the file again from the start; never more or fewer
      // bytes than the Content-Length said.
      rawBody: () => Readable.from(exactBytes(file, size, progress)),
    });
  } catch (err) {
    spinner.stop();
    throw withUploadRerun(err, id, idempotencyKey, 'upload');
  }
  spinner.stop();
  const confirmed = await client.post(PATHS.documentConfirmUpload(id)).catch((err: unknown) => {
    throw withUploadRerun(err, id, idempotencyKey, 'confirm');
  });
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Uploaded ${cleanCell(body.name)} (${formatBytes(size)}) as document ${id}`);
  await writeOne(ctx.io, confirmed, ctx.output(COLUMNS.document));
}

/**
 * A failed upload or confirmation of a created document: the hint is the rerun that completes it
 * (the key replays the create; the rerun then sees the document's status and does what is left).
 */
function withUploadRerun(err: unknown, id: string | number, key: string, stage: 'upload' | 'confirm'): unknown {
  if (err instanceof FileChangedError) {
    // The create said the old size: the same key with another size is another request.
    err.hint = `document ${id} was created for its earlier size and has no file: upload the file again once it is complete`;
  } else if (err instanceof PlainLinkError) {
    // The same key replays the same link, and a new document gets one of the same kind.
    err.hint = `document ${id} was created but has no file: its upload link is plain http, over which sct sends no file; the service's operators can say why it hands such links out`;
  } else if (err instanceof SctError && err.afterRedirect !== undefined && stage === 'upload') {
    // The same key replays the same link, which storage answers with the same redirect.
    err.hint = `document ${id} was created but has no file: storage answers its upload link with a redirect, and a rerun with its key gets the same link (the command without the key makes a new document; the service's operators can say why)`;
  } else if (err instanceof LinkRefusedError) {
    // The same key replays the first answer, this very link: once it has expired, only a new
    // document has a new one.
    err.hint = `document ${id} was created but has no file yet: run the same command with --idempotency-key ${key} to upload its file to it; if its link has expired, that key gives the same link again: run the command without it (a new document; ${id} stays without a file)`;
  } else if (err instanceof SctError && stage === 'confirm') {
    // The file reached storage; a confirmation without an answer may have been carried out, and
    // the rerun under the key sees the document's status before it sends anything again.
    err.hint =
      err.delivery === 'unknown'
        ? `document ${id} has its file, and its confirmation may have been carried out: run the same command with --idempotency-key ${key}: it shows the document if it was, and sends and confirms its file again if not`
        : `document ${id} was created and its file sent, but not confirmed: run the same command with --idempotency-key ${key} to send and confirm its file again`;
  } else if (err instanceof SctError) {
    err.hint = `document ${id} was created but has no file yet: run the same command with --idempotency-key ${key} to upload its file to it`;
  }
  return err;
}

/** The content type the create answer recorded for the document, when it is one a header can carry. */
function answeredType(created: unknown): string | undefined {
  const t = (created as { content_type?: unknown } | null)?.content_type;
  return typeof t === 'string' && /^[\x20-\x7e]+$/.test(t) ? t : undefined;
}

export async function downloadDocument(ctx: Context, id: number, opts: DownloadFlags): Promise<void> {
  checkOutDirectory(opts.out, ctx.cwd, ctx.flags);
  const client = ctx.client();
  // The name first: the target is settled (and an existing file refused) before any bytes move.
  const doc = (await client.get<{ name?: unknown; content_type?: unknown }>(PATHS.document(id))) ?? {};
  const name = typeof doc.name === 'string' && doc.name ? doc.name : `document-${id}`;
  const target = resolveTarget(opts.out, name, { cwd: ctx.cwd, force: opts.force });

  const { signedUrlOf } = await import('../api/schemas/files.js');
  const url = signedUrlOf(await client.get(PATHS.documentDownload(id)), `GET ${PATHS.documentDownload(id)}`);
  // As every download: the file's own type, and JSON for an error body.
  const type = typeof doc.content_type === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(doc.content_type) ? doc.content_type : '*/*';
  await client.download({ path: url, auth: false, accept: `${type}, application/json`, fileName: name }, async (res) => {
    // A page where a file of another type was asked for is storage's sign-in or error page (a link
    // redirected to a login), never the document: saved under its name, it would pass for it.
    const answered = mediaType(res.headers);
    if (answered === 'text/html' && type !== '*/*' && type.toLowerCase() !== 'text/html') {
      res.body.destroy();
      throw new SctError(`GET ${redactSignedUrl(url)}: storage answered with an HTML page (a sign-in or error page), not the document's ${stripControl(type)}: nothing saved`);
    }
    await saveDownload(ctx, res, target, { id, label: `Downloading ${name}` });
  });
}
