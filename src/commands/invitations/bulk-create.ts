// `sct invitations bulk-create --file people.csv`: every row checked first, then 100 rows per
// request to the bulk create endpoint, each row reported with its line and the service's answer.
import type { Context } from '../../context.js';
import { describeRoles, isRoleId, roleAsGiven, roleIds, unknownRoles, type Role } from '../shared/roles.js';
import { PATHS } from '../../api/paths.js';
import { withoutResults } from '../../api/answers.js';
import { writeRequests } from '../shared/dry-run.js';
import type { PlannedRequest } from '../../api/client.js';
import { REQUIRED } from '../../api/schemas/messages.js';
import { bulkCreateResults, invitationEmail, isInvitationEmail, type InvitationCreate } from '../../api/schemas/accounts.js';
import { flattenFieldErrors } from '../../api/errors.js';
import { SctError, UsageError } from '../../errors.js';
import { fileLabel } from '../../util/files.js';
import { cleanCell } from '../../util/sanitize.js';
import { cellErrorsIn, endDryRun, dropReadOnlyColumns, readCsv, RowErrors, refuseUnknownColumns, type CsvRow } from '../../bulk/csv.js';
import { RESOURCE_FIELDS } from '../../api/schemas/fields.js';
import { checkReportPath } from '../../bulk/report.js';
import { sendInChunks, stoppedBeforeChunks, type ChunkRow, type RowResult } from '../../bulk/chunks.js';
import { reportsStopBeforeSending } from '../../bulk/open.js';
import { parseConcurrency } from '../shared/flags.js';
import { BULK_LIMIT } from '../../api/enums.js';
import type { FileTemplate } from '../shared/bulk.js';
import type { BulkCreateOptions } from './options.js';

const PEOPLE_COLUMNS = ['email', 'auth_group'] as const;

export const PEOPLE_TEMPLATE: FileTemplate = { columns: PEOPLE_COLUMNS, example: { email: 'ana.silva@example.com', auth_group: 'member' } };

/** What the summary counts, and what became of the rows that went through. */
const WORDS = { noun: 'invitations', verb: 'created' };

/**
 * One invitation per row, made as each row is read (a file of a million rows is never held as
 * rows beside its invitations). A row's own auth_group wins; --role stands in for a blank or
 * missing one. The same address twice (in any letter case) is an error: the service allows one
 * pending invitation per e-mail, so the second row could only be rejected. Role names (--role's
 * too) are looked up once every row is read (`finish`).
 */
class InvitationRows {
  private readonly units: ChunkRow<InvitationCreate | PendingRole>[] = [];
  private readonly firstLine = new Map<string, number>();
  private named = 0;

  constructor(
    private readonly errors: RowErrors,
    private readonly role: number | string | undefined,
  ) {}

  add(row: CsvRow): void {
    // A workbook cell holding a formula's error (#N/A): the row is invalid on its own.
    const broken = cellErrorsIn(row, ['email', 'auth_group']);
    if (broken.length) {
      for (const [column, message] of broken) this.errors.add(row.line, column, message);
      return;
    }
    const email = row.values.email?.trim() ?? '';
    const cell = row.values.auth_group?.trim() ?? '';
    let ok = true;
    if (!email) {
      this.errors.add(row.line, 'email', REQUIRED);
      ok = false;
    } else {
      const parsed = isInvitationEmail(email) ? undefined : invitationEmail.safeParse(email);
      if (parsed && !parsed.success) {
        this.errors.add(row.line, 'email', parsed.error.issues[0]?.message ?? 'Enter a valid email address.');
        ok = false;
      }
      const lower = email.toLowerCase();
      const first = this.firstLine.get(lower);
      if (first !== undefined) {
        this.errors.add(row.line, 'email', `"${email}" is also on line ${first}; one invitation per address`);
        ok = false;
      } else {
        this.firstLine.set(lower, row.line);
      }
    }
    let authGroup: number | string | undefined = this.role;
    if (cell) authGroup = isRoleId(cell) ? Number(cell) : cell;
    else if (authGroup === undefined) {
      this.errors.add(row.line, 'auth_group', `${REQUIRED} (or give --role for rows without one)`);
      ok = false;
    }
    if (!ok) return;
    if (typeof authGroup === 'string') this.named++;
    this.units.push(new InvitationRow(row.line, { email, auth_group: authGroup! }));
  }

  /** The rows read valid so far, role names not yet looked up. */
  read(): ChunkRow<unknown>[] {
    return this.units;
  }

  /** The role names the rows give, each once, for one lookup. */
  roleNames(): string[] {
    if (this.named === 0) return [];
    return [...new Set(this.units.map((u) => u.payload.auth_group).filter((g): g is string => typeof g === 'string'))];
  }

  /** The invitations, role names turned into ids; a row whose name is no role is an error. */
  finish(roles: { ids: Map<string, number>; known: Role[] } = { ids: new Map(), known: [] }): ChunkRow<InvitationCreate>[] {
    // Every row is read: the addresses seen are not needed while the rows are sent (a million
    // of them, lower-cased, held about 80 MB).
    this.firstLine.clear();
    if (this.named === 0) return this.units as ChunkRow<InvitationCreate>[];
    return this.units.filter((u): u is ChunkRow<InvitationCreate> => {
      const cell = u.payload.auth_group;
      if (typeof cell !== 'string') return true;
      const id = roles.ids.get(cell);
      if (id === undefined) {
        this.errors.add(u.line, 'auth_group', `unknown role "${cell}": the roles are ${describeRoles(roles.known)} (a name in any case, or an id)`);
        return false;
      }
      u.payload.auth_group = id;
      return true;
    });
  }
}

/**
 * An invitation's row. Its journal key (the address in any letter case) is made when asked
 * for, not held: a million rows would hold a million more strings.
 */
class InvitationRow<T extends { email: string }> implements ChunkRow<T> {
  constructor(
    readonly line: number,
    readonly payload: T,
  ) {}

  get key(): string {
    return this.payload.email;
  }

  get journalKey(): string {
    return `email:${this.payload.email.toLowerCase()}`;
  }
}

/** A row whose role is a name not yet looked up. */
type PendingRole = Omit<InvitationCreate, 'auth_group'> & { auth_group: number | string };

/**
 * Each row's outcome from the bulk answer, matched by request index. Whether a row was created
 * is read from its invitation and error, not from the status word: the document leaves the
 * status values open.
 */
export function invitationResults(answer: unknown, sent: ReadonlyArray<{ email: string }>, status?: number): RowResult[] {
  const results = bulkCreateResults(answer);
  if (!results) {
    const given = answer && typeof answer === 'object' && Array.isArray((answer as { results?: unknown }).results);
    throw new SctError(`unexpected answer from POST ${PATHS.invitationsBulkCreate}: ${given ? 'its per-row results are not as the documents show them (index, status, an invitation with its id)' : withoutResults(status, answer, 'per-row results')}`);
  }
  const byIndex = new Map(results.map((r) => [r.index, r]));
  return sent.map((row, i): RowResult => {
    const r = byIndex.get(i);
    if (!r) return { ok: false, unknown: true, error: 'the answer holds no result for this row: it may have been created' };
    // The invitation a result holds is this row's when it names an address: another's (indexes
    // the service mixed up) makes this row's outcome unknown, never another row's id recorded.
    const email = (r.invitation as { email?: unknown } | null | undefined)?.email;
    if (typeof email === 'string' && email.toLowerCase() !== row.email.toLowerCase()) {
      return { ok: false, unknown: true, error: `the result for this row holds the invitation of ${cleanCell(email)}: it may have been created` };
    }
    // An empty error (`{}`, `""`) is none: the invitation is there.
    const fields = Object.fromEntries(Object.entries(flattenFieldErrors(r.error)).map(([k, v]) => [k, v.filter((m) => m.trim() !== '')]).filter(([, v]) => v.length > 0));
    const erred = Object.keys(fields).length > 0;
    if (r.invitation && !erred) return { ok: true, id: r.invitation.id };
    // Neither an invitation nor an error (a status word such as "accepted"), or both: the
    // service did not say the row was refused, and a rerun asks again under its key.
    if (!erred || r.invitation) return { ok: false, unknown: true, error: `the result (status ${r.status}) ${r.invitation ? 'holds an invitation and an error' : 'holds neither an invitation nor an error'}: it may have been created` };
    return { ok: false, error: r.status === 'rejected' ? 'rejected' : `rejected (status ${r.status})`, fields: Object.keys(fields).length ? fields : undefined };
  });
}

export async function bulkCreateInvitations(ctx: Context, opts: BulkCreateOptions): Promise<void> {
  checkReportPath(opts.report, opts.force, opts.file);
  const concurrency = parseConcurrency(opts.concurrency);
  const role = opts.role === undefined ? undefined : roleAsGiven(opts.role, '--role');
  const errors = new RowErrors(fileLabel(opts.file));
  const people = new InvitationRows(errors, role);
  const csv = await readCsv(opts.file, ctx.io.stdin, ['email'], {
    ...opts,
    signal: ctx.signal,
    known: PEOPLE_COLUMNS,
    takeRows: (header) => {
      // A file written by `sct invitations list -o csv` reads back; a misspelt auth_group is named as such.
      dropReadOnlyColumns(ctx.io, header, PEOPLE_COLUMNS, RESOURCE_FIELDS.invitation);
      refuseUnknownColumns(header, PEOPLE_COLUMNS);
      if (opts.role === undefined && !header.columns.includes('auth_group')) {
        throw new UsageError(`${header.name}: missing column auth_group (found: ${header.columns.join(', ')}); add it, or give --role for every row`);
      }
      return (row) => people.add(row);
    },
  });
  // Role names are looked up once, when every row is read: a lookup that fails then (the service
  // down, its rate limit) has rows to report as not sent.
  const names = people.roleNames();
  if (typeof role === 'string' && !names.includes(role)) names.push(role);
  const roles = names.length ? await roleIds(ctx, names).catch((err: unknown) => stoppedBeforeLookup(ctx, opts, people, errors, err)) : undefined;
  if (typeof role === 'string' && !roles?.ids.has(role)) throw unknownRoles('--role', [role], roles?.known ?? []);
  const units = people.finish(roles);
  const invalid = errors.settle(ctx, opts);

  if (opts.dryRun) {
    const requests: PlannedRequest[] = [];
    for (let i = 0; i < units.length; i += BULK_LIMIT) {
      requests.push({ method: 'POST', path: PATHS.invitationsBulkCreate, body: { operations: units.slice(i, i + BULK_LIMIT).map((u) => u.payload) } });
    }
    await writeRequests(ctx, requests);
    ctx.io.info(`${csv.name}: ${units.length} valid invitation${units.length === 1 ? '' : 's'} in ${requests.length} request${requests.length === 1 ? '' : 's'}; nothing sent (dry run)`);
    return endDryRun(csv.name, invalid);
  }

  await sendInChunks(ctx, {
    command: 'invitations-bulk-create',
    file: opts.file,
    rows: units,
    size: BULK_LIMIT,
    ...WORDS,
    // Chunks may go out together: an address is on one row only (checked above), so no two
    // requests ask the service's one-pending-invitation-per-address check about the same one.
    concurrency,
    fresh: opts.fresh,
    report: opts.report,
    invalid,
    send: async (operations, keyFor, client) => {
      const res = await client.request({ method: 'POST', path: PATHS.invitationsBulkCreate, body: { operations }, idempotencyKey: keyFor(operations) });
      return invitationResults(res.data, operations, res.status);
    },
  });
}

/**
 * The roles could not be read: nothing was sent, and the run ends as one stopped before its first
 * write (every row not sent, the report, the rerun hint) where a rerun would get past it. A bad
 * row is still exit 2 first, as in a file of role ids; a dry run has no report to write.
 */
async function stoppedBeforeLookup(ctx: Context, opts: BulkCreateOptions, people: InvitationRows, errors: RowErrors, err: unknown): Promise<never> {
  if (!opts.dryRun && reportsStopBeforeSending(err)) {
    await stoppedBeforeChunks(ctx, { rows: people.read(), ...WORDS, report: opts.report, invalid: errors.settle(ctx, opts) }, err);
  }
  throw err;
}
