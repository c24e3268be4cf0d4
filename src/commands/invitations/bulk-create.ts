// `sct invitations bulk-create --file people.csv`: every row checked first, then 100 rows per
// request to the bulk create endpoint, each row reported with its line and the service's answer.
import type { Context } from '../../context.js';
import { describeRoles, roleId, roleIds, type Role } from '../shared/roles.js';
import { PATHS } from '../../api/paths.js';
import { writeList } from '../../output/format.js';
import { REQUIRED } from '../../api/schemas/messages.js';
import { bulkCreateResults, invitationEmail, isInvitationEmail, type InvitationCreate } from '../../api/schemas/accounts.js';
import { flattenFieldErrors } from '../../api/errors.js';
import { SctError, UsageError } from '../../errors.js';
import { readCsv, RowErrors, warnIgnoredColumns, type CsvRow } from '../../bulk/csv.js';
import { checkReportPath } from '../../bulk/report.js';
import { sendInChunks, type ChunkRow, type RowResult } from '../../bulk/chunks.js';
import { parseId } from '../shared/crud.js';
import { parseConcurrency } from '../shared/flags.js';
import { BULK_LIMIT } from '../invitations.js';
import type { BulkRunFlags, FileTemplate } from '../shared/bulk.js';

export interface BulkCreateOptions extends BulkRunFlags {
  file: string;
  template?: boolean;
  role?: string;
}

export const PEOPLE_COLUMNS = ['email', 'auth_group'] as const;

export const PEOPLE_TEMPLATE: FileTemplate = { columns: PEOPLE_COLUMNS, example: { email: 'ana.silva@example.com', auth_group: 'member' } };

/**
 * One invitation per row. A row's own auth_group wins; --role stands in for a blank or missing
 * one. The same address twice (in any letter case) is an error: the service allows one pending
 * invitation per e-mail, so the second row could only be rejected.
 */
export function invitationUnits(
  rows: CsvRow[],
  errors: RowErrors,
  role: number | undefined,
  roles: { ids: Map<string, number>; known: Role[] } = { ids: new Map(), known: [] },
): ChunkRow<InvitationCreate>[] {
  const units: ChunkRow<InvitationCreate>[] = [];
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    const email = row.values.email?.trim() ?? '';
    const cell = row.values.auth_group?.trim() ?? '';
    let ok = true;
    if (!email) {
      errors.add(row.line, 'email', REQUIRED);
      ok = false;
    } else {
      const parsed = isInvitationEmail(email) ? undefined : invitationEmail.safeParse(email);
      if (parsed && !parsed.success) {
        errors.add(row.line, 'email', parsed.error.issues[0]?.message ?? 'Enter a valid email address.');
        ok = false;
      }
      const lower = email.toLowerCase();
      const first = firstLine.get(lower);
      if (first !== undefined) {
        errors.add(row.line, 'email', `"${email}" is also on line ${first}; one invitation per address`);
        ok = false;
      } else {
        firstLine.set(lower, row.line);
      }
    }
    let authGroup = role;
    if (cell) {
      if (/^\d+$/.test(cell) && Number(cell) <= 2_147_483_647) authGroup = Number(cell);
      else if (roles.ids.has(cell)) authGroup = roles.ids.get(cell);
      else {
        errors.add(row.line, 'auth_group', `unknown role "${cell}": the roles are ${describeRoles(roles.known)} (a name in any case, or an id)`);
        ok = false;
      }
    } else if (authGroup === undefined) {
      errors.add(row.line, 'auth_group', `${REQUIRED} (or give --role for rows without one)`);
      ok = false;
    }
    if (ok) units.push({ key: email, journalKey: `email:${email.toLowerCase()}`, line: row.line, payload: { email, auth_group: authGroup! } });
  }
  return units;
}

/**
 * Each row's outcome from the bulk answer, matched by request index. Whether a row was created
 * is read from its invitation and error, not from the status word: the document leaves the
 * status values open.
 */
export function invitationResults(answer: unknown, count: number): RowResult[] {
  const results = bulkCreateResults(answer);
  if (!results) throw new SctError(`unexpected answer from POST ${PATHS.invitationsBulkCreate}: no per-row results`);
  const byIndex = new Map(results.map((r) => [r.index, r]));
  return Array.from({ length: count }, (_, i): RowResult => {
    const r = byIndex.get(i);
    if (!r) return { ok: false, error: 'the answer holds no result for this row' };
    if (r.invitation && (r.error === undefined || r.error === null)) return { ok: true, id: r.invitation.id };
    const fields = flattenFieldErrors(r.error);
    return { ok: false, error: r.status === 'rejected' ? 'rejected' : `rejected (status ${r.status})`, fields: Object.keys(fields).length ? fields : undefined };
  });
}

export async function bulkCreateInvitations(ctx: Context, opts: BulkCreateOptions): Promise<void> {
  checkReportPath(opts.report, opts.force, opts.file);
  const concurrency = parseConcurrency(opts.concurrency);
  const csv = await readCsv(opts.file, ctx.io.stdin, ['email'], { ...opts, known: PEOPLE_COLUMNS });
  if (opts.role === undefined && !csv.columns.includes('auth_group')) {
    throw new UsageError(`${csv.name}: missing column auth_group (found: ${csv.columns.join(', ')}); add it, or give --role for every row`);
  }
  warnIgnoredColumns(ctx.io, csv, PEOPLE_COLUMNS);
  // Role names (the flag's and the cells') are looked up once, before any row is checked.
  const cells = csv.rows.map((r) => r.values.auth_group?.trim() ?? '').filter((c) => c && !/^\d+$/.test(c));
  const roles = cells.length ? await roleIds(ctx, cells) : undefined;
  const role = opts.role === undefined ? undefined : await roleId(ctx, opts.role, '--role');
  const errors = new RowErrors(csv.name);
  const units = invitationUnits(csv.rows, errors, role, roles);
  const invalid = errors.settle(ctx, opts);

  if (opts.dryRun) {
    await writeList(
      ctx.io,
      units.map((u) => ({ line: u.line, ...u.payload })),
      ctx.output([
        { header: 'LINE', path: 'line' },
        { header: 'EMAIL', path: 'email' },
        { header: 'ROLE', path: 'auth_group' },
      ]),
    );
    const requests = Math.ceil(units.length / BULK_LIMIT);
    ctx.io.info(`${csv.name}: ${units.length} valid invitation${units.length === 1 ? '' : 's'} in ${requests} request${requests === 1 ? '' : 's'}; nothing sent (dry run)`);
    return;
  }

  await sendInChunks(ctx, {
    command: 'invitations-bulk-create',
    file: opts.file,
    rows: units,
    size: BULK_LIMIT,
    noun: 'invitations',
    verb: 'created',
    // Chunks may go out together: an address is on one row only (checked above), so no two
    // requests ask the service's one-pending-invitation-per-address check about the same one.
    concurrency,
    fresh: opts.fresh,
    report: opts.report,
    invalid,
    send: async (operations, keyFor, client) => {
      const res = await client.request({ method: 'POST', path: PATHS.invitationsBulkCreate, body: { operations }, idempotencyKey: keyFor(operations) });
      return invitationResults(res.data, operations.length);
    },
  });
}
