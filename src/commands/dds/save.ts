// dds create and dds update. A create is checked against the creation rules of its type before
// it is sent (schemas/statements.ts); an update may change only the status and the name.
import type { Command } from 'commander';
import type { CreateFlags, UpdateFlags } from './fields.js';
import type { Context } from '../../context.js';
import { PATHS } from '../../api/paths.js';
import { COLUMNS, DETAILS } from '../../output/columns.js';
import { UsageError } from '../../errors.js';
import { statementCreateSchema, statementUpdateSchema } from '../../api/schemas/statements.js';
import { saveOne, sendOne } from '../shared/crud.js';
import { parseIdList, splitList } from '../shared/flags.js';
import { limitFrom, waitAfterCreate, waitLength } from './wait.js';
import type { TimeLimit } from '../../api/request.js';


export function statementFields(opts: CreateFlags): Record<string, unknown> {
  return {
    type: opts.type,
    name: opts.name,
    dds_identifier: opts.ddsIdentifier,
    // An id given twice is one order (as `dds trace` takes it), never sent twice.
    orders: opts.order === undefined ? undefined : [...new Set(parseIdList(opts.order, '--order'))],
    products: opts.product === undefined ? undefined : [...new Set(parseIdList(opts.product, '--product'))],
    assessment_run_ids: splitList(opts.assessmentRunId, '--assessment-run-id'),
  };
}

export async function createStatement(ctx: Context, opts: CreateFlags, cmd: Command): Promise<void> {
  // Read before anything is asked or sent, so a bad --timeout is a usage error with nothing created.
  const ms = opts.wait ? waitLength(ctx, cmd) : undefined;
  const request = { method: 'POST' as const, path: PATHS.statements, flags: opts, named: statementFields(opts), schema: statementCreateSchema, what: 'statement' };
  if (ms === undefined) {
    await saveOne(ctx, { ...request, columns: COLUMNS.statement, detail: DETAILS.statement });
    return;
  }
  // --timeout is the command's from when the create goes, after any question at a terminal (the
  // time spent answering is the user's): the create gets what it needs of it, and the wait the rest.
  let limit: TimeLimit | undefined;
  const started = () => (limit ??= limitFrom(ctx, ms));
  await waitAfterCreate(ctx, await sendOne(ctx, { ...request, timeLimit: started }), started());
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
    getCommand: `sct dds get ${id}`,
  });
}
