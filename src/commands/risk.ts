// sct risk list/create/evidence: risk assessments and their evidence package.
//
// The evidence ZIP is named after the assessment identifier, which only the answer tells
// (Content-Disposition), so with a directory target the file name is settled when the headers
// arrive and before any byte is written: an existing file stops the download there. With
// --out FILE the target is settled, and checked, before the request.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { addDryRunOption } from './shared/dry-run.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { fileNameFromDisposition, isDirectoryTarget, resolveTarget, type Target } from '../output/download.js';
import { AnswerError, SctError } from '../errors.js';
import { addBodyOptions, addIdempotencyKeyOption, addListCommand, parseId, saveOne } from './shared/crud.js';
import { appendList, parseIdList } from './shared/flags.js';
import type { BodyFlags } from './shared/body.js';
import { saveDownload } from './shared/download.js';
import { discardBody } from '../api/transport.js';
import { json } from 'node:stream/consumers';

export interface RiskFieldFlags extends BodyFlags {
  identifier?: string;
  name?: string;
  description?: string;
  order?: string;
  origin?: string;
  product?: string;
  document?: string;
}

export interface EvidenceFlags {
  out?: string;
  force?: boolean;
}

export function register(program: Command, f: Factory): void {
  const risk = program.command('risk').description('Risk assessments and their evidence packages');

  addListCommand(risk, f, { summary: 'List risk assessments', path: PATHS.riskAssessments, columns: COLUMNS.riskAssessment, noun: 'risk assessments', examples: ['sct risk list', 'sct risk list --search cocoa --columns id,identifier,status'] });

  addExamples(
    addDryRunOption(addIdempotencyKeyOption(addBodyOptions(
    risk
      .command('create')
      .description('Start a risk assessment')
      .option('--identifier <id>', 'your identifier of the assessment (required; names its evidence package)')
      .option('--name <text>', 'name')
      .option('--description <text>', 'description')
      .option('--order <ids>', 'orders in scope, comma-separated or repeated', appendList)
      .option('--origin <ids>', 'origins in scope, comma-separated or repeated', appendList)
      .option('--product <ids>', 'products in scope, comma-separated or repeated', appendList)
      .option('--document <ids>', 'supporting documents, comma-separated or repeated', appendList),
  ))),
    ['sct risk create --identifier RA-2025-07 --origin 24,18 --order 217'],
  ).action(f.action<RiskFieldFlags>((ctx, opts) => createRisk(ctx, opts)));

  addExamples(
    risk
    .command('evidence')
    .argument('<id>', 'risk assessment id')
    .description('Download the evidence package (ZIP) of a risk assessment')
    .option('--out <path>', 'a directory (ending in / or existing), a file name, or - for standard output; default: <identifier>.zip in the current directory')
    .option('--force', 'overwrite an existing file'),
    ['sct risk evidence 1 --out ./evidence/'],
  ).action(f.action<EvidenceFlags>((ctx, opts, [id]) => downloadEvidence(ctx, parseId(id), opts)));
}

export function riskFields(opts: RiskFieldFlags): Record<string, unknown> {
  const ids = (value: string | undefined, flag: string) => (value === undefined ? undefined : parseIdList(value, flag));
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
function fixedTarget(out: string | undefined, force?: boolean): Target | undefined {
  if (out === undefined || isDirectoryTarget(out, process.cwd())) return undefined;
  return resolveTarget(out, 'evidence.zip', { cwd: process.cwd(), force });
}

export async function downloadEvidence(ctx: Context, id: number, opts: EvidenceFlags): Promise<void> {
  const fixed = fixedTarget(opts.out, opts.force);
  const client = ctx.client();
  const path = PATHS.riskEvidence(id);
  let res = await client.stream({ method: 'POST', path, accept: 'application/zip, application/json' });
  if (String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    // A service may hand the package out as a signed link rather than inline.
    const answer = (await json(res.body).catch(() => null)) as { url?: unknown } | null;
    if (typeof answer?.url !== 'string') throw new SctError(`unexpected answer from POST ${path}: neither a ZIP nor a download URL`);
    res = await client.stream({ path: answer.url, auth: false, accept: 'application/zip, application/json' });
  }
  let target: Target;
  try {
    target = fixed ?? resolveTarget(opts.out, zipName(fileNameFromDisposition(res.headers['content-disposition']), id), { cwd: process.cwd(), force: opts.force });
  } catch (err) {
    // Refused before a byte is written (exit 2, like the same refusal before the request).
    await discardBody(res.body);
    throw err;
  }
  const { unzipSync } = await import('fflate');
  await saveDownload(ctx, res, target, { id, label: 'Downloading evidence', check: (bytes) => listZip(unzipSync, bytes, `POST ${path}`) });
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
