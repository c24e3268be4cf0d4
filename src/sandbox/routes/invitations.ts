// User invitations: list, create, bulk create, revoke, renew, the anonymous public view.
//
// Rules the documents state: one pending invitation per e-mail; nobody invites an OWNER; only
// OWNER and ADMIN invite ADMINs; "expired" is a pending invitation past expires_at; renewing
// revokes and issues a new pending one; accepted and revoked invitations never match a bulk
// revoke or renew; a bulk renew operation matching more than 100 is rejected.
//
// Choices where the documents are silent:
// - Inviting an OWNER is a 400 on auth_group; a MEMBER inviting an ADMIN is a 403 (in bulk
//   create both are per-index rejections). Inviting someone who already is a member: 400 on email.
// - Revoking and renewing need the delete_userinvitation permission (OWNER, ADMIN).
// - Bulk revoke and bulk renew take 1..100 operations per request, as bulk create does.
// - Bulk results use status "created" | "rejected" (bulk create) and "accepted" | "rejected"
//   (bulk revoke and renew). A bulk renew operation over 100 matches is "rejected" in its
//   result, with the limit in its error, and renews nothing; the other operations still run
//   and the request answers 200, as for every other per-operation rejection.
// - An expired invitation can be renewed (it is still pending underneath) and does not block a
//   new invitation to the same e-mail.
// - The public view of a revoked invitation is 404 (its link stopped working); is_active tells
//   pending from accepted/expired. GET /accounts/user-invitations/{id}/status is the deprecated
//   anonymous status lookup.
// - Invitations are valid for 14 days.
import { domainToASCII } from 'node:url';
import * as z from 'zod';
import { INVITATION_STATUSES, isoDateTime, nowIso, ROLE, type Invitation } from '../data.js';
import { compileFilters, paramsFromObject, withLookups, type ListSpec, type Params } from '../filters.js';
import { ApiError, badRequest, created, fieldError, forbidden, notFound, ok, type Ctx, type Router } from '../router.js';
import { check, id, invalidPk, parseBody, uuid } from '../validate.js';
import { authGroupDetail, userDetail } from './accounts.js';
import { listReply, myCompany, requirePermission } from './common.js';

const VALID_DAYS = 14;
const BULK_LIMIT = 100;

type Status = (typeof INVITATION_STATUSES)[number];

function statusOf(inv: Invitation, now = Date.now()): Status {
  return inv.status === 'pending' && Date.parse(inv.expires_at) <= now ? 'expired' : inv.status;
}

function invitationObject(ctx: Ctx, inv: Invitation) {
  return {
    id: inv.id,
    email: inv.email,
    status: statusOf(inv),
    auth_group: inv.auth_group_id,
    auth_group_detail: authGroupDetail(ctx, inv.auth_group_id),
    invited_by: inv.invited_by,
    invited_by_detail: userDetail(ctx, inv.invited_by),
    created_at: inv.created_at,
    expires_at: inv.expires_at,
  };
}

/** The invitation list filters of api/accounts.md (bulk revoke and renew take FILTER_KEYS below). */
const INVITATION_FILTERS = [
  ...withLookups('auth_group', 'in'),
  ...withLookups('auth_group__name', 'in'),
  ...withLookups('created_at', 'gte', 'lte', 'date', 'date__gte', 'date__lte'),
  ...withLookups('expires_at', 'gte', 'lte', 'date', 'date__gte', 'date__lte'),
  ...withLookups('email', 'icontains'),
  ...withLookups('id', 'in', 'exclude_in'),
  'invited_by',
  'status',
];

function invitationSpec(ctx: Ctx): ListSpec<Invitation> {
  const groupName = (i: Invitation) => ctx.store.authGroups.get(i.auth_group_id)?.name ?? null;
  return {
    fields: {
      id: { type: 'uuid', get: (i) => i.id },
      email: { type: 'string', get: (i) => i.email },
      status: { type: 'enum', values: INVITATION_STATUSES, repeatable: true, get: (i) => statusOf(i) },
      auth_group: { type: 'int', get: (i) => i.auth_group_id },
      auth_group__name: { type: 'string', get: groupName },
      invited_by: { type: 'int', get: (i) => i.invited_by },
      created_at: { type: 'datetime', get: (i) => i.created_at },
      expires_at: { type: 'datetime', get: (i) => i.expires_at },
    },
    filters: INVITATION_FILTERS,
    search: (i) => [i.email],
    ordering: {
      status: (i) => statusOf(i), created_at: (i) => i.created_at, email: (i) => i.email,
      expires_at: (i) => i.expires_at, auth_group_name: groupName,
    },
    defaultOrdering: ['-created_at'],
  };
}

function companyInvitations(ctx: Ctx): Invitation[] {
  const me = myCompany(ctx);
  return [...ctx.store.invitations.values()].filter((i) => i.company_id === me);
}

// Django's EmailValidator, which the service runs: a dot-atom of ASCII letters, digits and
// !#$%&'*+/=?^_`{|}~- (or a quoted string) before the @; after it a domain of letter-digit-hyphen
// labels (one in another script read as its punycode), localhost, or an address literal.
const EMAIL_USER = /^[-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*$|^"([\x01-\x08\x0b\x0c\x0e-\x1f!#-[\]-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*"$/i;
const EMAIL_DOMAIN = /^((?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+)(?:[A-Z0-9-]{2,63}(?<!-))$/i;
const EMAIL_LITERAL = /^\[[A-F0-9:.]+\]$/i;

function isServiceEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at < 1 || at === value.length - 1 || !EMAIL_USER.test(value.slice(0, at))) return false;
  const domain = value.slice(at + 1);
  if (domain === 'localhost' || EMAIL_DOMAIN.test(domain) || EMAIL_LITERAL.test(domain)) return true;
  const ascii = domainToASCII(domain);
  return ascii !== '' && EMAIL_DOMAIN.test(ascii);
}

const createBody = z.object({ email: z.string().min(1).max(1024).refine(isServiceEmail, { message: 'Enter a valid email address.' }), auth_group: id() });

/** Why an invitation cannot be created, as a field error object and its status code; null when it can. */
function refusal(ctx: Ctx, email: string, group: number): { status: number; error: Record<string, string[]> } | null {
  if (!ctx.store.authGroups.has(group)) return { status: 400, error: { auth_group: [invalidPk(group)] } };
  if (group === ROLE.OWNER) return { status: 400, error: { auth_group: ['Owners cannot be invited.'] } };
  const actingRole = ctx.auth.membership.auth_group_id;
  if (group === ROLE.ADMIN && actingRole !== ROLE.OWNER && actingRole !== ROLE.ADMIN)
    return { status: 403, error: { auth_group: ['Only owners and admins can invite users with the ADMIN role.'] } };
  const lower = email.toLowerCase();
  const me = myCompany(ctx);
  // A workspace's members are few and no bulk run adds any: scanning them stays cheap.
  for (const m of ctx.store.membersOf(me))
    if (ctx.store.users.get(m.user_id)?.email.toLowerCase() === lower) return { status: 400, error: { email: ['This user is already a member of the workspace.'] } };
  if (ctx.store.invitationsTo(me, email).some((i) => statusOf(i) === 'pending'))
    return { status: 400, error: { email: ['A pending invitation for this email already exists.'] } };
  return null;
}

function issue(ctx: Ctx, email: string, group: number): Invitation {
  const inv: Invitation = {
    id: crypto.randomUUID(),
    company_id: myCompany(ctx),
    email,
    auth_group_id: group,
    invited_by: ctx.auth.user.id,
    status: 'pending',
    created_at: nowIso(),
    expires_at: isoDateTime(Date.now() + VALID_DAYS * 86_400_000),
  };
  ctx.store.addInvitation(inv);
  return inv;
}

function createInvitation(ctx: Ctx) {
  requirePermission(ctx, 'add_userinvitation');
  const b = parseBody(ctx, createBody);
  const no = refusal(ctx, b.email, b.auth_group);
  if (no) throw no.status === 403 ? forbidden(no.error.auth_group![0]) : badRequest(no.error);
  return created(invitationObject(ctx, issue(ctx, b.email, b.auth_group)));
}

const operations = <T extends z.ZodType>(op: T) => z.object({ operations: z.array(op).min(1).max(BULK_LIMIT) });

function bulkCreate(ctx: Ctx) {
  requirePermission(ctx, 'add_userinvitation');
  // Elements are checked one by one below, so a bad element never fails the whole request.
  const b = parseBody(ctx, operations(z.unknown()));
  const results = b.operations.map((op, index) => {
    const parsed = check(createBody, op ?? {});
    if (!parsed.ok) return { index, status: 'rejected', error: parsed.errors };
    const no = refusal(ctx, parsed.data.email, parsed.data.auth_group);
    if (no) return { index, status: 'rejected', error: no.error };
    return { index, status: 'created', invitation: invitationObject(ctx, issue(ctx, parsed.data.email, parsed.data.auth_group)) };
  });
  return created({ results });
}

const FILTER_KEYS = [
  'id', 'id__in', 'id__exclude_in', 'email', 'email__icontains', 'invited_by', 'auth_group', 'auth_group__in',
  'auth_group__name', 'auth_group__name__in', 'created_at__gte', 'created_at__lte', 'created_at__date',
  'created_at__date__gte', 'created_at__date__lte', 'expires_at__gte', 'expires_at__lte', 'expires_at__date',
  'expires_at__date__gte', 'expires_at__date__lte', 'search', 'status',
];

const filterOperation = z.object({ invitation_filters: z.record(z.string(), z.unknown()) });

/**
 * Pending invitations (expired ones included) matching one operation's filters; an error object
 * when the filters themselves are invalid.
 */
function matchOperation(ctx: Ctx, filters: Record<string, unknown>, exclude: Set<string>): Invitation[] | Record<string, unknown> {
  const unknown = Object.keys(filters).filter((k) => !FILTER_KEYS.includes(k));
  if (unknown.length) return { invitation_filters: Object.fromEntries(unknown.map((k) => [k, ['Unknown filter.']])) };
  const params: Params = paramsFromObject(filters);
  const spec = invitationSpec(ctx);
  let preds: ReturnType<typeof compileFilters<Invitation>>;
  try {
    preds = compileFilters(spec, params);
  } catch (e) {
    if (e instanceof ApiError) return { invitation_filters: e.body };
    throw e;
  }
  const term = params.get('search')?.at(-1)?.toLowerCase();
  return companyInvitations(ctx).filter(
    (i) => i.status === 'pending' && !exclude.has(i.id) && preds.every((p) => p(i)) && (!term || i.email.toLowerCase().includes(term)),
  );
}

function bulkRevoke(ctx: Ctx) {
  requirePermission(ctx, 'delete_userinvitation');
  const b = parseBody(ctx, operations(filterOperation));
  const results = b.operations.map((op, index) => {
    const matched = matchOperation(ctx, op.invitation_filters, new Set());
    if (!Array.isArray(matched)) return { index, status: 'rejected', error: matched, revoked_count: 0, revoked_ids: [] };
    for (const i of matched) i.status = 'revoked';
    return { index, status: 'accepted', revoked_count: matched.length, revoked_ids: matched.map((i) => i.id) };
  });
  return ok({ results });
}

function renew(ctx: Ctx, old: Invitation): Invitation {
  old.status = 'revoked';
  return issue(ctx, old.email, old.auth_group_id);
}

function bulkRenew(ctx: Ctx) {
  requirePermission(ctx, 'delete_userinvitation');
  const b = parseBody(ctx, operations(filterOperation));
  // Operations run in order; one never renews what an earlier one of the same request issued.
  const issued = new Set<string>();
  const results = b.operations.map((op, index) => {
    const matched = matchOperation(ctx, op.invitation_filters, issued);
    if (!Array.isArray(matched)) return { index, status: 'rejected', error: matched, renewed_count: 0, invitations: [] };
    if (matched.length > BULK_LIMIT)
      return {
        index,
        status: 'rejected',
        error: {
          invitation_filters: [
            `These filters match ${matched.length} pending invitations; one bulk renew operation may match at most ${BULK_LIMIT}. Narrow the filters.`,
          ],
        },
        renewed_count: 0,
        invitations: [],
      };
    const fresh = matched.map((i) => renew(ctx, i));
    for (const f of fresh) issued.add(f.id);
    return { index, status: 'accepted', renewed_count: fresh.length, invitations: fresh.map((f) => invitationObject(ctx, f)) };
  });
  return ok({ results });
}

function renewOne(ctx: Ctx) {
  requirePermission(ctx, 'delete_userinvitation');
  const b = parseBody(ctx, z.object({ invitation: uuid() }));
  const inv = ctx.store.invitations.get(b.invitation.toLowerCase());
  if (!inv || inv.company_id !== myCompany(ctx)) throw fieldError('invitation', invalidPk(b.invitation));
  if (inv.status !== 'pending') throw fieldError('invitation', 'Only pending invitations can be renewed.');
  return created(invitationObject(ctx, renew(ctx, inv)));
}

function byUuid(ctx: Ctx): Invitation | undefined {
  const raw = (ctx.params.id ?? '').toLowerCase();
  return ctx.store.invitations.get(raw);
}

export function registerInvitations(r: Router): void {
  const base = '/accounts/user-invitations';
  r.get(base, (ctx) => listReply(ctx, companyInvitations(ctx), invitationSpec(ctx), (i) => invitationObject(ctx, i)));
  r.post(base, createInvitation);
  r.post(`${base}/bulk-create`, bulkCreate);
  r.post(`${base}/bulk-revoke`, bulkRevoke);
  r.post(`${base}/renew`, renewOne);
  r.post(`${base}/bulk-renew`, bulkRenew);
  r.get(`${base}/:id`, (ctx) => {
    const inv = byUuid(ctx);
    if (!inv || inv.company_id !== myCompany(ctx)) throw notFound();
    return ok(invitationObject(ctx, inv));
  });
  r.get(
    `${base}/public/:id`,
    (ctx) => {
      const inv = byUuid(ctx);
      if (!inv || inv.status === 'revoked') throw notFound();
      const c = ctx.store.companies.get(inv.company_id)!;
      return ok({
        id: inv.id,
        company: {
          id: c.id, name: c.name, slug: c.slug, type: c.type, country: c.country, default_currency: c.default_currency,
          default_locale: c.default_locale, results_limit_earliest_year: '2020-01-01', results_limit_latest_year: '2026-12-31',
          information: { city: c.city }, integration_consumer_id: `int-${c.slug}`, data_room_consumer_id: c.data_room_consumer_id,
          pulse_params: { identifier: `company:${c.id}`, model_identifier: 'accounts.company' }, flags: [],
          created_at: c.created_at, updated_at: c.updated_at,
        },
        auth_group_id: inv.auth_group_id,
        is_existing_user: [...ctx.store.users.values()].some((u) => u.email.toLowerCase() === inv.email.toLowerCase()),
        is_active: statusOf(inv) === 'pending',
        is_mfa_enabled: c.is_mfa_enabled,
      });
    },
    { auth: false },
  );
  r.get(
    `${base}/:id/status`,
    (ctx) => {
      const inv = byUuid(ctx);
      if (!inv) throw notFound();
      return ok({ id: inv.id, status: statusOf(inv) });
    },
    { auth: false },
  );
}
