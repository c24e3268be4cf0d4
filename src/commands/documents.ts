// sct documents list/get/upload/download.
//
// Upload is three calls, as cli-spec.md assumes: POST /documents (the document with an
// `upload_url`), PUT of the raw bytes to that URL, POST /documents/{id}/confirm_upload.
// Download asks for a signed URL (GET /documents/{id}/download → {url}) and streams it to disk.
// Signed URLs carry their own credential: sct never sends the token to them, wherever they point.
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { addDryRunOption } from './shared/dry-run.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { writeOne } from '../output/format.js';
import { byteProgress } from '../output/progress.js';
import { formatBytes } from '../util/format.js';
import { resolveTarget } from '../output/download.js';
import { SctError, UsageError } from '../errors.js';
import { addGetCommand, addListCommand, parseId } from './shared/crud.js';
import { collect } from './shared/flags.js';
import { validate } from './shared/body.js';
import { stripControl } from '../output/sanitize.js';
import { saveDownload } from './shared/download.js';

export interface UploadFlags {
  name?: string;
  description?: string;
  contentType?: string;
  tag?: string[];
}

export interface DownloadFlags {
  out?: string;
  force?: boolean;
}

export function register(program: Command, f: Factory): void {
  const documents = program.command('documents').description('Upload, list and download documents');

  addListCommand(documents, f, { summary: 'List the company’s documents', path: PATHS.documents, columns: COLUMNS.document, noun: 'documents', examples: ['sct documents list --search satellite', 'sct documents list --columns id,name,status --json'] });
  addGetCommand(documents, f, { noun: 'document', path: PATHS.document, columns: COLUMNS.document, examples: ['sct documents get 4', 'sct documents get 4 --json name,status'] });

  addExamples(
    addDryRunOption(documents
    .command('upload')
    .argument('<file>', 'the file to upload')
    .description('Upload a file as a new document')
    .option('--name <name>', 'the document name (default: the file name)')
    .option('--description <text>', 'description')
    .option('--content-type <type>', 'MIME type (default: the service guesses from the name)')
    .option('--tag <tag>', 'a tag (repeatable)', collect)),
    ['sct documents upload ./certificates/fsc-2025.pdf --tag fsc'],
  ).action(f.action<UploadFlags>((ctx, opts, [file]) => uploadDocument(ctx, file, opts)));

  addExamples(
    documents
    .command('download')
    .argument('<id>', 'document id')
    .description('Download a document’s file')
    .option('--out <path>', 'a directory (ending in / or existing), a file name, or - for standard output; default: the document name in the current directory')
    .option('--force', 'overwrite an existing file'),
    ['sct documents download 4 --out ./evidence/'],
  ).action(f.action<DownloadFlags>((ctx, opts, [id]) => downloadDocument(ctx, parseId(id), opts)));
}

export async function uploadDocument(ctx: Context, file: string, opts: UploadFlags): Promise<void> {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a regular file');
    size = st.size;
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const { documentCreateSchema, uploadTargetSchema } = await import('../api/schemas/files.js');
  const body = validate(
    documentCreateSchema,
    { name: opts.name ?? basename(file), size, content_type: opts.contentType, description: opts.description, tags: opts.tag },
    'document',
  );
  const client = ctx.client();
  // A dry run goes on to the upload and the confirmation with what the answer would name.
  const created = await client.post(PATHS.documents, body, { expect: 'created', dryRunAnswer: { id: '{id}', upload_url: '{upload_url}' } });
  const target = ctx.dryRun ? { success: true as const, data: created as { id: string; upload_url: string } } : uploadTargetSchema.safeParse(created);
  if (!target.success) throw new SctError(`unexpected answer from POST ${PATHS.documents}: no upload_url`);
  const { id, upload_url: uploadUrl } = target.data;

  const spinner = await ctx.spinner(`Uploading ${stripControl(body.name)}…`);
  const progress = byteProgress(spinner, `Uploading ${body.name}`, size);
  try {
    await client.request({
      method: 'PUT',
      path: uploadUrl,
      auth: false,
      headers: { 'content-type': body.content_type ?? 'application/octet-stream', 'content-length': String(size) },
      dryRunBody: `(the ${size} bytes of ${basename(file)})`,
      dryRunAnswer: null,
      // A function, so a retried PUT reads the file again from the start.
      rawBody: () => {
        let sent = 0;
        return createReadStream(file).on('data', (chunk) => progress((sent += chunk.length)));
      },
    });
  } catch (err) {
    spinner.stop();
    (err as SctError).hint = `document ${id} was created but has no file yet; upload again to replace it, or delete it`;
    throw err;
  }
  spinner.stop();
  const confirmed = await client.post(PATHS.documentConfirmUpload(id));
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Uploaded ${body.name} (${formatBytes(size)}) as document ${id}`);
  await writeOne(ctx.io, confirmed, ctx.output(COLUMNS.document));
}

export async function downloadDocument(ctx: Context, id: number, opts: DownloadFlags): Promise<void> {
  const client = ctx.client();
  // The name first: the target is settled (and an existing file refused) before any bytes move.
  const doc = (await client.get<{ name?: unknown; content_type?: unknown }>(PATHS.document(id))) ?? {};
  const name = typeof doc.name === 'string' && doc.name ? doc.name : `document-${id}`;
  const target = resolveTarget(opts.out, name, { cwd: process.cwd(), force: opts.force });

  const { downloadUrlSchema } = await import('../api/schemas/files.js');
  const signed = downloadUrlSchema.safeParse(await client.get(PATHS.documentDownload(id)));
  if (!signed.success) throw new SctError(`unexpected answer from GET ${PATHS.documentDownload(id)}: no url`);
  // As every download: the file's own type, and JSON for an error body.
  const type = typeof doc.content_type === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(doc.content_type) ? doc.content_type : '*/*';
  const res = await client.stream({ path: signed.data.url, auth: false, accept: `${type}, application/json` });
  await saveDownload(ctx, res, target, { id, label: `Downloading ${name}` });
}
