// invitations list/get/create/revoke/renew/public; `invitations bulk-create` lives in
// invitations/bulk-create.ts.
import type { Context } from '../context.js';
import type { ApiClient } from '../api/client.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { askInvitationRole, roleFilterIds, roleId, spellRoleNames } from './shared/roles.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, DETAILS } from '../output/columns.js';
import { writeList, writeOne } from '../output/format.js';
import { INVITATION_STATUSES } from '../api/enums.js';
import { flattenFieldErrors } from '../api/errors.js';
import { CancelledError, PartialFailureError, RejectedError, SctError, UsageError, type FieldErrors } from '../errors.js';
import { LIST_OPTIONS, listQuery, runList, setOneOrIn } from './shared/list.js';
import { parseId, saveOne, showOne } from './shared/crud.js';
import { writeTemplateIf } from './shared/bulk.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { BODY_OPTIONS, IDEMPOTENCY_KEY_OPTION } from './shared/body.js';
import { cleanCell } from '../util/sanitize.js';
import { nonObjectIn } from '../util/objects.js';
import { collect, filterEnumList, parseUuid, parseUuidList, splitKeyValue, textValue } from './shared/flags.js';
import { chunk } from '../bulk/runner.js';
import { BULK_LIMIT } from '../api/enums.js';
import { BULK_CREATE_OPTIONS, type BulkCreateOptions } from './invitations/options.js';
import { INVITATION_FILTERS, INVITATION_OPERATION_FILTERS, OPERATION_FILTER_KEYS, WRITABLE_INVITATION_STATUSES } from '../api/filters/invitations.js';
import { setNamedFilters } from './shared/filters.js';
import type { NamedFlags } from '../api/filters/keys.js';

/** invitation_filters as the bulk endpoints take them: strings, and status as an array. */
export type InvitationFilters = Record<string, string | string[]>;

export type InvitationFilterFlags = NamedFlags<typeof INVITATION_FILTERS>;

const LIST_INVITATIONS_OPTIONS = [{ filters: INVITATION_FILTERS }, ...LIST_OPTIONS] as const;

export type ListInvitationsOptions = OptionsOf<typeof LIST_INVITATIONS_OPTIONS>;

/** revoke and renew: the list's named filters, and a --filter and --search of their own. */
const MATCH_OPTIONS = [
  { filters: INVITATION_OPERATION_FILTERS, flagsOnly: true },
  { flags: '--search <text>', description: 'e-mail contains (as the list search)' },
  { flags: '--filter <key=value>', description: `any other invitation filter (repeatable): ${OPERATION_FILTER_KEYS.join(', ')}`, parse: collect },
  { flags: '--all-pending', description: 'match every pending invitation of the workspace (no filter)' },
  DRY_RUN_OPTION,
] as const;

export type MatchInvitationsOptions = OptionsOf<typeof MATCH_OPTIONS>;

const CREATE_OPTIONS = [
  { flags: '--email <address>', description: 'e-mail address to invite (required)' },
  { flags: '--role <role>', description: 'role the person gets: its name (admin) or id (required)' },
  ...BODY_OPTIONS,
  IDEMPOTENCY_KEY_OPTION,
  DRY_RUN_OPTION,
] as const;

export type CreateInvitationOptions = OptionsOf<typeof CREATE_OPTIONS>;

const uuidArg = (description: string) => [{ name: '<uuid>', description }];

export const register = registerOf({
  name: 'invitations',
  description: 'Invite people to the workspace, and revoke or renew invitations',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List invitations (newest first)',
      prints: 'invitation',
      options: LIST_INVITATIONS_OPTIONS,
      help: '\nOrdering fields: status, created_at, email, expires_at, auth_group_name.',
      examples: ['sct invitations list --status pending', 'sct invitations list --email-contains @brussels-cacao.example --columns id,email,status'],
      run: (ctx, opts) => listInvitations(ctx, opts),
    }),
    defineLeaf({
      name: 'get',
      summary: 'Show one invitation',
      prints: 'invitation',
      args: uuidArg('invitation id'),
      examples: ['sct invitations get 03a80526-ef80-4dbe-83f6-fbed3ddd2cdc'],
      run: (ctx, _o, [id]) => showOne(ctx, PATHS.invitation(parseUuid(id, 'invitation id')), COLUMNS.invitation, DETAILS.invitation).then(() => undefined),
    }),
    defineLeaf({
      name: 'create',
      summary: 'Invite one person by e-mail (the service sends the invitation e-mail)',
      prints: 'invitation',
      options: CREATE_OPTIONS,
      examples: ['sct invitations create --email ana@example.com --role admin', 'sct invitations create --email ana@example.com --role 2'],
      run: (ctx, opts) => createInvitation(ctx, opts),
    }),
    defineLeaf({
      name: 'bulk-create',
      summary: 'Invite everyone in a CSV file, 100 per request, with a per-row report',
      bulk: true,
      prints: 'bulkOutcome',
      options: BULK_CREATE_OPTIONS,
      help: `
Columns (CSV, header row, any order): email (required) and auth_group (the role: its name, e.g.
ADMIN in any case, or its id; or --role).
Every row is checked before the first request (e-mail, role, the same e-mail twice); a bad row
stops the run with nothing sent. A rerun of the same file skips the rows that went through.`,
      examples: ['sct invitations bulk-create --file people.csv --dry-run', 'sct invitations bulk-create --file people.csv --role member --report invited.csv'],
      run: async (ctx, opts) => {
        const { bulkCreateInvitations, PEOPLE_TEMPLATE } = await import('./invitations/bulk-create.js');
        if (!(await writeTemplateIf(ctx, opts, () => PEOPLE_TEMPLATE))) await bulkCreateInvitations(ctx, opts as BulkCreateOptions);
      },
    }),
    defineLeaf({
      name: 'revoke',
      summary: 'Revoke the pending invitations that match the filters (asks unless --yes)',
      options: MATCH_OPTIONS,
      examples: ['sct invitations revoke --email-contains @partner-brussels-cacao.example', 'sct invitations revoke --status pending --created-to 2025-06-30 --yes'],
      run: (ctx, opts) => revokeInvitations(ctx, opts),
    }),
    defineLeaf({
      name: 'renew',
      summary: 'Renew invitations: the old link stops working and a new e-mail is sent',
      prints: 'invitation',
      args: [{ name: '[uuid]', description: 'one invitation to renew (else the filters choose)' }],
      options: MATCH_OPTIONS,
      help: `\nWith filters, the matching pending (and expired) invitations are renewed ${BULK_LIMIT} per operation.`,
      examples: ['sct invitations renew --status expired --yes', 'sct invitations renew 03a80526-ef80-4dbe-83f6-fbed3ddd2cdc'],
      run: (ctx, opts, [uuid]) => renewInvitations(ctx, opts, uuid),
    }),
    defineLeaf({
      name: 'public',
      summary: 'Show the public view of an invitation (no login needed)',
      prints: 'publicInvitation',
      args: uuidArg('invitation id (from the invitation link)'),
      examples: ['sct invitations public 03a80526-ef80-4dbe-83f6-fbed3ddd2cdc'],
      run: (ctx, _o, [id]) => showPublicInvitation(ctx, id),
    }),
  ],
});

// --- filters ----------------------------------------------------------------------------------

/** The named filter flags as invitation filter keys; the list sends the same keys as its query. */
export function invitationFilters(opts: InvitationFilterFlags): InvitationFilters {
  const filters: InvitationFilters = {};
  // --role is looked up last, by the caller, after every other check.
  setNamedFilters(filters, INVITATION_FILTERS, opts, {
    id: (v) => setOneOrIn(filters, 'id', parseUuidList(v, '--id')),
    excludeId: (v) => (filters.id__exclude_in = parseUuidList(v, '--exclude-id').join(',')),
    status: (v) => {
      const status = filterEnumList(v, '--status', INVITATION_STATUSES);
      if (status?.length) filters.status = status;
    },
    invitedBy: (v) => (filters.invited_by = String(parseId(v, '--invited-by'))),
  });
  return filters;
}

/** Adds the filters to a list query; status repeats, as the list endpoint takes it. */
function appendFilters(query: URLSearchParams, filters: InvitationFilters): void {
  for (const [k, v] of Object.entries(filters)) {
    if (Array.isArray(v)) for (const one of v) query.append(k, one);
    else query.set(k, v);
  }
}

/**
 * The filters of a revoke or renew. No filter at all would match every pending invitation of
 * the workspace: that takes --all-pending, so a forgotten flag never revokes everything.
 */
export async function matchFilters(ctx: Context, opts: MatchInvitationsOptions): Promise<InvitationFilters> {
  const filters = invitationFilters(opts);
  if (opts.search !== undefined) filters.search = textValue(opts.search, '--search');
  // A key a flag set already is exit 2, as on `invitations list`: with --yes nobody would see
  // which of the two the write matched by.
  const byFlags = new Set(Object.keys(filters));
  for (const pair of opts.filter ?? []) {
    const [key, value] = splitKeyValue(pair, '--filter');
    if (!(OPERATION_FILTER_KEYS as readonly string[]).includes(key)) {
      throw new UsageError(`unknown invitation filter "${key}" in --filter: use one of ${OPERATION_FILTER_KEYS.join(', ')}`);
    }
    textValue(value, `--filter ${key}=`);
    if (byFlags.has(key)) throw new UsageError(`--filter ${key}=${value}: the command's own flags set ${key} too (${String(filters[key])}); give it one way`);
    // status is an array: given again, it matches any of them, as on the list (a key given twice
    // with two values is refused before, except status).
    const prior = Array.isArray(filters.status) ? filters.status : [];
    filters[key] = key === 'status' ? [...new Set([...prior, ...filterEnumList(value, '--filter status', INVITATION_STATUSES)!])] : value;
  }
  // Accepted and revoked invitations fall outside a bulk revoke or renew (accounts.md): a status
  // filter names pending or expired ones only (an expired one is pending underneath).
  if (filters.status !== undefined) {
    const asked = Array.isArray(filters.status) ? filters.status : [filters.status];
    const refused = asked.filter((st) => !(WRITABLE_INVITATION_STATUSES as readonly string[]).includes(st));
    if (refused.length > 0) {
      throw new UsageError(`--status ${refused.join(',')}: a revoke or renew writes pending invitations only, an expired one being pending underneath (accepted and revoked ones stay as they are): give --status pending or expired`);
    }
  }
  const given = Object.keys(filters).length > 0 || opts.role !== undefined;
  if (given && opts.allPending) throw new UsageError('--all-pending matches every pending invitation: give it without filters');
  if (!given && !opts.allPending) {
    throw new UsageError('give at least one filter (--id, --email, --status, …), or --all-pending for every pending invitation');
  }
  // Last: a role name new to sct is looked up on the service, after every other check.
  setOneOrIn(filters, 'auth_group', await roleFilterIds(ctx, opts.role, '--role'));
  await spellRoleNames(ctx, filters);
  return filters;
}

/**
 * What the matched invitations are called: "expired" when only those were asked for, else
 * "pending" (an expired invitation is pending underneath).
 */
function statusWord(filters: InvitationFilters): string {
  const st = filters.status;
  return Array.isArray(st) && st.length > 0 && st.every((x) => x === 'expired') ? 'expired' : 'pending';
}

/** "3 pending invitations", "1 expired invitation". */
function countOf(ids: readonly string[], filters: InvitationFilters): string {
  return `${ids.length} ${statusWord(filters)} invitation${ids.length === 1 ? '' : 's'}`;
}

function describeFilters(filters: InvitationFilters): string {
  const parts = Object.entries(filters).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`);
  return parts.length ? parts.join(' ') : '(every pending invitation)';
}

// --- list, get, create, public ----------------------------------------------------------------

export async function listInvitations(ctx: Context, opts: ListInvitationsOptions): Promise<void> {
  const query = listQuery(opts);
  const filters = invitationFilters(opts);
  setOneOrIn(filters, 'auth_group', await roleFilterIds(ctx, opts.role, '--role'));
  await spellRoleNames(ctx, filters);
  appendFilters(query, filters);
  await runList(ctx, { path: PATHS.invitations, query, flags: opts, columns: COLUMNS.invitation, noun: 'invitations' });
}

export async function createInvitation(ctx: Context, opts: CreateInvitationOptions): Promise<void> {
  // Named by its flag, as a question at a terminal would ask it (the field is auth_group).
  const roleGiven = opts.role !== undefined || opts.file !== undefined || (opts.set ?? []).some((pair) => pair.trim().startsWith('auth_group='));
  if (!roleGiven && !ctx.io.canPrompt()) throw new UsageError(`--role is required: the role the person gets, by name or id (${ctx.io.noPromptReason()})`, {}, 'e.g. sct invitations create --email ana@example.com --role member');
  await saveOne(ctx, {
    method: 'POST',
    path: PATHS.invitations,
    flags: opts,
    named: { email: opts.email, auth_group: opts.role === undefined ? undefined : await roleId(ctx, opts.role, '--role') },
    schema: (await import('../api/schemas/accounts.js')).invitationCreateSchema,
    askers: { auth_group: askInvitationRole },
    flagNames: { auth_group: '--role' },
    what: 'invitation',
    columns: COLUMNS.invitation,
    detail: DETAILS.invitation,
  });
}

export async function showPublicInvitation(ctx: Context, id: string): Promise<void> {
  const uuid = parseUuid(id, 'invitation id');
  // The invitation id is the only credential here: no token is needed, and none is sent.
  const data = await ctx.client({ auth: false }).get(PATHS.invitationPublic(uuid));
  await writeOne(ctx.io, data, {
    ...ctx.output([]),
    detail: [
      { header: 'Invitation', path: 'id' },
      { header: 'Company', path: 'company.name' },
      { header: 'Company id', path: 'company.id' },
      { header: 'Role id', path: 'auth_group_id' },
      { header: 'Active', path: 'is_active' },
      { header: 'Existing user', path: 'is_existing_user' },
      { header: 'MFA required', path: 'is_mfa_enabled' },
    ],
  });
}

// --- revoke, renew ----------------------------------------------------------------------------

interface OperationResult {
  index?: number;
  status?: string;
  error?: unknown;
  revoked_count?: number;
  revoked_ids?: string[];
  renewed_count?: number;
  invitations?: unknown[];
}

function operationResults(data: unknown, path: string): OperationResult[] {
  const results = (data as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new SctError(`unexpected answer from POST ${path}: no results`);
  // Sent and answered: what went through is for the list to say, never a TypeError.
  const odd = nonObjectIn(results, 'result');
  if (odd) throw new SctError(`unexpected answer from POST ${path}: ${odd}, so what it did is unknown (\`sct invitations list\` shows)`);
  return results as OperationResult[];
}

/**
 * Ends a write by ids whose answer names fewer than were asked: the ones left are named (accepted
 * or changed since the question?), exit 3 as for rows a bulk run could not write; one that names
 * invitations never asked for is an answer error.
 */
function checkWritten(verb: string, path: string, asked: readonly string[], written: readonly string[]): void {
  const wanted = new Set(asked);
  const foreign = written.filter((id) => !wanted.has(id));
  if (foreign.length) throw new SctError(`unexpected answer from POST ${path}: it names as ${verb}d invitations not asked for: ${foreign.slice(0, 5).map((id) => cleanCell(String(id))).join(', ')}${foreign.length > 5 ? ', …' : ''}`);
  const done = new Set(written);
  const left = asked.filter((id) => !done.has(id));
  if (left.length) throw new PartialFailureError(`${left.length} of ${asked.length} invitation${asked.length === 1 ? ' was' : 's were'} not ${verb}d (accepted or changed since?): ${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''}`);
}

/**
 * A rejected operation: its error as field errors. The document leaves the status values open
 * ("accepted" appears), so an operation counts as rejected by its error, not by a status name.
 */
const rejection = (r: OperationResult) => (r.error !== undefined && r.error !== null ? flattenFieldErrors(r.error) : undefined);

export async function revokeInvitations(ctx: Context, opts: MatchInvitationsOptions): Promise<void> {
  const filters = await matchFilters(ctx, opts);
  refuseUnconfirmed(ctx, 'revoke');
  const client = ctx.client();
  const ids = await pendingIds(client, filters);
  if (ids.length === 0) {
    ctx.io.info(`No ${statusWord(filters)} invitation matches ${describeFilters(filters)}: nothing to revoke`);
    if (!ctx.dryRun) await writeOne(ctx.io, { revoked_count: 0, revoked_ids: [] }, ctx.output([]));
    return;
  }
  const n = countOf(ids, filters);
  if (!(await ctx.confirm(`Revoke ${n} matching ${describeFilters(filters)}?`))) {
    throw new CancelledError('cancelled: nothing was revoked');
  }
  const { accepted, rejected, errors } = await writeByIds(client, PATHS.invitationsBulkRevoke, ids);
  if (ctx.dryRun) return;
  const revokedIds = accepted.flatMap((r) => (Array.isArray(r.revoked_ids) ? r.revoked_ids : []));
  ctx.io.info(`${revokedIds.length === ids.length ? ctx.io.colorErr.green('✓') : ctx.io.colorErr.yellow('!')} Revoked ${revokedIds.length} of ${n}`);
  await writeOne(ctx.io, { revoked_count: revokedIds.length, revoked_ids: revokedIds }, ctx.output([]));
  throwIfRejected('revoke', rejected, errors, revokedIds.length);
  checkWritten('revoke', PATHS.invitationsBulkRevoke, ids, revokedIds);
}

/** Without a terminal to ask on, a write by filter needs --yes: refused before the matches are read. */
function refuseUnconfirmed(ctx: Context, verb: string): void {
  if (!ctx.flags.yes && !ctx.dryRun && !ctx.io.canPrompt()) throw new UsageError(`${verb} the invitations matching the filters: confirm with --yes (${ctx.io.noPromptReason()})`);
}

/**
 * The ids of the pending invitations the filters match (an expired one is pending underneath).
 * A revoke or renew writes exactly these, by id: an invitation sent after the question was
 * asked matches the filters too, but nobody agreed to it.
 */
async function pendingIds(client: ApiClient, filters: InvitationFilters): Promise<string[]> {
  const query = new URLSearchParams();
  appendFilters(query, { status: [...WRITABLE_INVITATION_STATUSES], ...filters });
  const ids: string[] = [];
  for await (const page of client.paginate<{ id: string }>(PATHS.invitations, query, { all: true })) for (const i of page.results) ids.push(i.id);
  return ids;
}

/**
 * One bulk operation may match at most 100 invitations and a request hold at most 100
 * operations: the ids go 100 to an operation, 100 operations to a request.
 */
async function writeByIds(client: ApiClient, path: string, ids: string[]): Promise<{ accepted: OperationResult[]; rejected: number; errors: FieldErrors }> {
  const accepted: OperationResult[] = [];
  const errors: FieldErrors = {};
  let rejected = 0;
  for (const operations of chunk(chunk(ids, BULK_LIMIT), BULK_LIMIT)) {
    const body = { operations: operations.map((part) => ({ invitation_filters: { id__in: part.join(',') } })) };
    // A dry run goes on to the next request as if this one were answered with nothing done.
    const res = await client.request({ method: 'POST', path, body, dryRunAnswer: { results: [] } });
    for (const r of operationResults(res.data, path)) {
      const fields = rejection(r);
      if (!fields) {
        accepted.push(r);
        continue;
      }
      rejected++;
      for (const [k, v] of Object.entries(fields)) (errors[k] ??= []).push(...v);
    }
  }
  return { accepted, rejected, errors };
}

/** Rejected operations: exit 1 when nothing went through, 3 when some did. */
function throwIfRejected(verb: string, rejected: number, errors: FieldErrors, written: number): void {
  if (!rejected) return;
  const message = `${rejected} ${verb} operation${rejected === 1 ? ' was' : 's were'} rejected`;
  if (written === 0) throw new RejectedError(message, errors);
  const partial = new PartialFailureError(message);
  partial.hint = Object.entries(errors).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; ');
  throw partial;
}

export async function renewInvitations(ctx: Context, opts: MatchInvitationsOptions, uuid?: string): Promise<void> {
  if (uuid !== undefined) {
    const id = parseUuid(uuid, 'invitation id');
    const given = Object.entries(opts).some(([k, v]) => k !== 'dryRun' && v !== undefined && v !== false);
    if (given) throw new UsageError('give either an invitation id or filters, not both');
    // A renew issues a new invitation (the accounts API answers with it): as any create, an
    // answer without one is an error, never "Renewed".
    const res = await ctx.client().request({ method: 'POST', path: PATHS.invitationsRenew, body: { invitation: id }, expect: 'created' });
    const renewed = res.data as Record<string, unknown> | null;
    ctx.io.info(`${ctx.io.colorErr.green('✓')} Renewed invitation ${id}${renewed?.id ? `: the new one is ${cleanCell(String(renewed.id))}` : ''}`);
    await writeOne(ctx.io, renewed, { ...ctx.output(COLUMNS.invitation), detail: DETAILS.invitation });
    return;
  }
  await renewMatching(ctx, await matchFilters(ctx, opts));
}

/**
 * Bulk renew refuses an operation that matches more than 100 invitations; by id, any number can
 * be renewed — and exactly those the confirmation counted.
 */
async function renewMatching(ctx: Context, filters: InvitationFilters): Promise<void> {
  refuseUnconfirmed(ctx, 'renew');
  const client = ctx.client();
  const ids = await pendingIds(client, filters);
  if (ids.length === 0) {
    ctx.io.info(`No ${statusWord(filters)} invitation matches ${describeFilters(filters)}: nothing to renew`);
    if (!ctx.dryRun) await writeList(ctx.io, [], ctx.output(COLUMNS.invitation));
    return;
  }
  const n = countOf(ids, filters);
  if (!(await ctx.confirm(`Renew ${n} (each gets a new e-mail; the old links stop working)?`))) throw new CancelledError('cancelled: nothing was renewed');
  const { accepted, rejected, errors } = await writeByIds(client, PATHS.invitationsBulkRenew, ids);
  if (ctx.dryRun) return;
  const renewed = accepted.flatMap((r) => (Array.isArray(r.invitations) ? r.invitations : []));
  const odd = nonObjectIn(renewed, 'invitation');
  if (odd) throw new SctError(`unexpected answer from POST ${PATHS.invitationsBulkRenew}: ${odd}, so what it did is unknown (\`sct invitations list\` shows)`);
  ctx.io.info(`${renewed.length === ids.length ? ctx.io.colorErr.green('✓') : ctx.io.colorErr.yellow('!')} Renewed ${renewed.length} of ${n}`);
  await writeList(ctx.io, renewed, ctx.output(COLUMNS.invitation));
  throwIfRejected('renew', rejected, errors, renewed.length);
  if (renewed.length < ids.length) throw new PartialFailureError(`${ids.length - renewed.length} of ${ids.length} invitation${ids.length === 1 ? ' was' : 's were'} not renewed (accepted or changed since?)`);
}
