// sct risk list/create/evidence: risk assessments and their evidence package.
//
// The evidence ZIP is named after the assessment identifier, which only the answer tells
// (Content-Disposition), so with a directory target the file name is settled when the headers
// arrive and before any byte is written: an existing file stops the download there. With
// --out FILE the target is settled, and checked, before the request.
import type { Context } from '../context.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { checkOutDirectory, fileNameFromDisposition, isDirectoryTarget, resolveTarget, type Target } from '../output/download.js';
import { AnswerError, InterruptedError, SctError } from '../errors.js';
import { listLeaf, parseId, saveOne } from './shared/crud.js';
import { appendList, parseIdList } from './shared/flags.js';
import { BODY_OPTIONS, IDEMPOTENCY_KEY_OPTION } from './shared/body.js';
import { downloadOptions, saveDownload, type DownloadFlags } from './shared/download.js';
import { discardBody } from '../api/transport.js';
import type { StreamResponse } from '../api/client.js';
import { json } from 'node:stream/consumers';

const CREATE_RISK_OPTIONS = [
  { flags: '--identifier <id>', description: 'your identifier of the assessment (required; names its evidence package)' },
  { flags: '--name <text>', description: 'name' },
  { flags: '--description <text>', description: 'description' },
  { flags: '--order <ids>', description: 'orders in scope, comma-separated or repeated', parse: appendList },
  { flags: '--origin <ids>', description: 'origins in scope, comma-separated or repeated', parse: appendList },
  { flags: '--product <ids>', description: 'products in scope, comma-separated or repeated', parse: appendList },
  { flags: '--document <ids>', description: 'supporting documents, comma-separated or repeated', parse: appendList },
  ...BODY_OPTIONS,
  IDEMPOTENCY_KEY_OPTION,
  DRY_RUN_OPTION,
] as const;

export type RiskFieldFlags = OptionsOf<typeof CREATE_RISK_OPTIONS>;

export const register = registerOf({
  name: 'risk',
  leaves: [
    listLeaf({ summary: 'List risk assessments', path: PATHS.riskAssessments, columns: COLUMNS.riskAssessment, noun: 'risk assessments', examples: ['sct risk list', 'sct risk list --search cocoa --columns id,identifier,status'] }),
    defineLeaf({
      name: 'create',
      summary: 'Start a risk assessment',
      options: CREATE_RISK_OPTIONS,
      examples: ['sct risk create --identifier RA-2025-07 --origin 24,18 --order 217'],
      run: (ctx, opts) => createRisk(ctx, opts),
    }),
    defineLeaf({
      name: 'evidence',
      summary: 'Download the evidence package (ZIP) of a risk assessment',
      args: [{ name: '<id>', description: 'risk assessment id' }],
      options: downloadOptions('<identifier>.zip in the current directory'),
      examples: ['sct risk evidence 1 --out ./evidence/'],
      run: (ctx, opts, [id]) => downloadEvidence(ctx, parseId(id), opts),
    }),
  ],
});

export function riskFields(opts: RiskFieldFlags): Record<string, unknown> {
  // An id given twice is linked once, as dds create links it.
  const ids = (value: string | undefined, flag: string) => (value === undefined ? undefined : [...new Set(parseIdList(value, flag))]);
  return {
    identifier: opts.identifier,
    name: opts.name,
    description: opts.description,
    orders: ids(opts.order, '--order'),
    origins: ids(opts.origin, '--origin'),
    products: ids(opts.product, '--product'),
    documents: ids(opts.document, '--document'),
  };
}

async function createRisk(ctx: Context, opts: RiskFieldFlags): Promise<void> {
  await saveOne(ctx, {
    method: 'POST',
    path: PATHS.riskAssessments,
    flags: opts,
    named: riskFields(opts),
    schema: (await import('../api/schemas/files.js')).riskCreateSchema,
    what: 'risk assessment',
    columns: COLUMNS.riskAssessment,
  });
}

/** `--out FILE`: the target is settled (and an existing file refused) before anything is sent. */
function fixedTarget(out: string | undefined, cwd: string, force?: boolean): Target | undefined {
  if (out === undefined || isDirectoryTarget(out, cwd)) return undefined;
  return resolveTarget(out, 'evidence.zip', { cwd: cwd, force });
}

export async function downloadEvidence(ctx: Context, id: number, opts: DownloadFlags): Promise<void> {
  checkOutDirectory(opts.out, ctx.cwd, ctx.flags);
  const fixed = fixedTarget(opts.out, ctx.cwd, opts.force);
  const client = ctx.client();
  const path = PATHS.riskEvidence(id);
  // Called again for each attempt of a download whose body broke: the target settled anew.
  const save = async (res: StreamResponse): Promise<void> => {
    let target: Target;
    try {
      target = fixed ?? resolveTarget(opts.out, zipName(fileNameFromDisposition(res.headers['content-disposition']), id), { cwd: ctx.cwd, force: opts.force });
    } catch (err) {
      // Refused before a byte is written (exit 2, like the same refusal before the request).
      await discardBody(res.body);
      throw err;
    }
    const { unzipSync } = await import('fflate');
    await saveDownload(ctx, res, target, { id, label: 'Downloading evidence', check: (bytes) => listZip(unzipSync, bytes, `POST ${path}`) });
  };
  const link = await client.download({ method: 'POST', path, accept: 'application/zip, application/json' }, async (res) => {
    if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) return save(res);
    // A service may hand the package out as a signed link rather than inline.
    // Not JSON is an unexpected answer; Ctrl-C, --timeout or a broken connection while it is read is what it is.
    const answer = (await json(res.body).catch((err: unknown) => {
      if (ctx.signal.aborted) throw new InterruptedError();
      if (err instanceof SctError) throw err;
      return null;
    })) as { url?: unknown } | null;
    if (answer?.url === undefined) throw new SctError(`unexpected answer from POST ${path}: neither a ZIP nor a download URL`);
    const { signedUrlOf } = await import('../api/schemas/files.js');
    return signedUrlOf(answer, `POST ${path}`);
  });
  if (link !== undefined) await client.download({ path: link, auth: false, accept: 'application/zip, application/json' }, save);
}

/**
 * The evidence package must be a whole ZIP: its central directory (at the very end) read and
 * every entry listed, without inflating them. An HTML page, a partial answer or a body cut
 * short has no directory to read; nothing is kept then.
 */
function listZip(unzip: typeof import('fflate').unzipSync, bytes: Uint8Array, where: string): string {
  const names: string[] = [];
  try {
    unzip(bytes, {
      filter: (entry) => {
        names.push(entry.name);
        return false;
      },
    });
  } catch (err) {
    throw new AnswerError(`${where}: the evidence package is not a complete ZIP (${(err as Error).message}): nothing was saved`);
  }
  if (names.some((name) => !name)) throw new AnswerError(`${where}: the evidence package is not a complete ZIP (an entry without a name): nothing was saved`);
  return `${names.length} ${names.length === 1 ? 'entry' : 'entries'}`;
}

/** `<identifier>.zip`, whatever the header said about the extension. */
function zipName(fromHeader: string | undefined, id: number): string {
  const name = fromHeader?.trim() || `risk-assessment-${id}`;
  return /\.zip$/i.test(name) ? name : `${name}.zip`;
}
