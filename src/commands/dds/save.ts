// dds create and dds update. A create is checked against the creation rules of its type before
// it is sent (schemas/statements.ts); an update may change only the status and the name.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { COLUMNS, DETAILS } from '../../output/columns.js';
import { UsageError } from '../../errors.js';
import { DDS_TYPES, statementCreateSchema, statementUpdateSchema } from '../../api/schemas/statements.js';
import { addBodyOptions, saveOne, sendOne } from '../shared/crud.js';
import type { BodyFlags } from '../shared/body.js';
import { appendList, parseIdList, splitList } from '../shared/flags.js';
import { waitAfterCreate, waitTimeoutMs } from './wait.js';

export interface CreateFlags extends BodyFlags {
  type?: string;
  name?: string;
  ddsIdentifier?: string;
  orders?: string;
  products?: string;
  assessmentRunIds?: string;
  wait?: boolean;
  timeout?: string;
}

export interface UpdateFlags {
  status?: string;
  name?: string;
}

export function addStatementFields(cmd: Command): Command {
  return addBodyOptions(
    cmd
      .option('--type <type>', `${DDS_TYPES.join(', ')} (required)`)
      .option('--name <text>', 'a name for the statement (at most 255 characters)')
      .option('--dds-identifier <id>', 'the EU registry reference (EUDR: retrieve a filed statement; PPWR: required)')
      .option('--orders <ids>', 'orders you buy to attach, comma-separated or repeated', appendList)
      .option('--products <ids>', 'products you own to attach, comma-separated or repeated', appendList)
      .option('--assessment-run-ids <uuids>', 'assessment runs to pin, comma-separated or repeated (PPWR, EUDR without identifier)', appendList),
  );
}

export function statementFields(opts: CreateFlags): Record<string, unknown> {
  return {
    type: opts.type,
    name: opts.name,
    dds_identifier: opts.ddsIdentifier,
    orders: opts.orders === undefined ? undefined : parseIdList(opts.orders, '--orders'),
    products: opts.products === undefined ? undefined : parseIdList(opts.products, '--products'),
    assessment_run_ids: splitList(opts.assessmentRunIds, '--assessment-run-ids'),
  };
}

export async function createStatement(ctx: Context, opts: CreateFlags, cmd: Command): Promise<void> {
  // Read before sending, so a bad --timeout is a usage error with nothing created.
  const timeoutMs = opts.wait ? waitTimeoutMs(ctx, cmd) : undefined;
  const request = { method: 'POST' as const, path: PATHS.statements, flags: opts, named: statementFields(opts), schema: statementCreateSchema, what: 'statement' };
  if (timeoutMs === undefined) {
    await saveOne(ctx, { ...request, columns: COLUMNS.statement, detail: DETAILS.statement });
    return;
  }
  await waitAfterCreate(ctx, await sendOne(ctx, request), timeoutMs);
}

export async function updateStatement(ctx: Context, id: number, opts: UpdateFlags): Promise<void> {
  if (opts.status === undefined && opts.name === undefined) {
    throw new UsageError('nothing to update: give --status or --name (nothing else of a statement can change)');
  }
  await saveOne(ctx, {
    method: 'PATCH',
    path: PATHS.statement(id),
    flags: {},
    named: { status: opts.status, name: opts.name },
    schema: statementUpdateSchema,
    what: 'statement',
    columns: COLUMNS.statement,
    detail: DETAILS.statement,
  });
}
