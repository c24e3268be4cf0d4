// The account area: profile, workspaces and switching, members and role changes, users,
// countries and per-user configuration.
//
// Choices where the documents are silent:
// - GET /accounts/countries/{id}: the id is the alpha-2 code (alpha-3 and numeric work too).
//   Countries filter on name, official_name, alpha_2, alpha_3, numeric, eu_status (member|non_member).
// - /accounts/workspaces/grouped groups the user's workspaces by workspace type:
//   results [{type, workspaces: [{workspace_name, workspace_id, member_count, is_mfa_enabled}]}].
// - POST /accounts/workspaces/switch with a company the user is not a member of: 400 on company_id.
// - Member role change needs change_usercompany (OWNER, ADMIN); only an OWNER may grant the OWNER
//   role or change an OWNER's role, and the last OWNER cannot be demoted.
// - user-config: GET answers {config, available_actions}; PATCH merges the keys of `config` (or of
//   the body itself when it has no `config` object) into the stored configuration.
// - /accounts/users: id, username, first_name, last_name, account (company id), user_group
//   (membership id), auth_group; ordering id, username, first_name, last_name.
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { WORKSPACE_TYPES, nowIso, type Company, type Membership } from '../data.js';
import { withLookups, type ListSpec } from '../filters.js';
import type { Country } from '../reference.js';
import { badRequest, fieldError, forbidden, intParam, notFound, ok, type Ctx, type Router } from '../router.js';
import { id, invalidPk, parseBody } from '../validate.js';
import { listReply, myCompany, requirePermission, timestampFields } from './common.js';

const countrySpec: ListSpec<Country> = {
  fields: {
    name: { type: 'string', get: (c) => c.name },
    official_name: { type: 'string', get: (c) => c.official_name },
    alpha_2: { type: 'string', get: (c) => c.alpha_2 },
    alpha_3: { type: 'string', get: (c) => c.alpha_3 },
    numeric: { type: 'string', get: (c) => c.numeric },
    eu_status: { type: 'enum', values: ['member', 'non_member'], get: (c) => c.eu_status },
  },
  search: (c) => [c.name, c.official_name, c.alpha_2, c.alpha_3],
  ordering: { name: (c) => c.name, alpha_2: (c) => c.alpha_2, alpha_3: (c) => c.alpha_3, numeric: (c) => c.numeric },
  defaultOrdering: ['name'],
};

export function authGroupDetail(ctx: Ctx, groupId: number) {
  const g = ctx.store.authGroups.get(groupId);
  return g ? { id: g.id, name: g.name } : null;
}

export function userDetail(ctx: Ctx, userId: number) {
  const u = ctx.store.users.get(userId);
  return u ? { id: u.id, first_name: u.first_name, last_name: u.last_name, job_title: u.job_title, email: u.email } : null;
}

function memberObject(ctx: Ctx, m: Membership) {
  return {
    id: m.id,
    user: m.user_id,
    user_detail: userDetail(ctx, m.user_id),
    auth_group: m.auth_group_id,
    auth_group_detail: authGroupDetail(ctx, m.auth_group_id),
    data_room_consumer_id: m.data_room_consumer_id,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

/** The member list filters of api/accounts.md. */
const MEMBER_FILTERS = [
  ...withLookups('auth_group', 'in', 'isnull'),
  ...withLookups('auth_group__name', 'icontains', 'in'),
  ...withLookups('created_at', 'gte', 'lte', 'date', 'date__gte', 'date__lte'),
  ...withLookups('updated_at', 'gte', 'lte', 'date', 'date__gte', 'date__lte'),
  ...withLookups('user__email', 'icontains', 'istartswith'),
  ...withLookups('user__first_name', 'icontains', 'istartswith'),
  ...withLookups('user__last_name', 'icontains', 'istartswith'),
  ...withLookups('user__job_title', 'icontains'),
];

function memberSpec(ctx: Ctx): ListSpec<Membership> {
  const user = (m: Membership) => ctx.store.users.get(m.user_id)!;
  const group = (m: Membership) => ctx.store.authGroups.get(m.auth_group_id)?.name ?? null;
  return {
    fields: {
      auth_group: { type: 'int', get: (m) => m.auth_group_id },
      auth_group__name: { type: 'string', get: group },
      user__email: { type: 'string', get: (m) => user(m).email },
      user__first_name: { type: 'string', get: (m) => user(m).first_name },
      user__last_name: { type: 'string', get: (m) => user(m).last_name },
      user__job_title: { type: 'string', get: (m) => user(m).job_title },
      ...timestampFields<Membership>(),
    },
    filters: MEMBER_FILTERS,
    search: (m) => [user(m).first_name, user(m).last_name, user(m).email, user(m).job_title, group(m)],
    ordering: {
      created_at: (m) => m.created_at, updated_at: (m) => m.updated_at,
      user__first_name: (m) => user(m).first_name, user__last_name: (m) => user(m).last_name,
      user__email: (m) => user(m).email, user__job_title: (m) => user(m).job_title, auth_group__name: group,
    },
    defaultOrdering: ['user__first_name', 'user__last_name'],
  };
}

interface Workspace {
  company: Company;
  membership: Membership;
  member_count: number;
}

function workspacesOf(ctx: Ctx): Workspace[] {
  const counts = new Map<number, number>();
  for (const m of ctx.store.memberships.values()) counts.set(m.company_id, (counts.get(m.company_id) ?? 0) + 1);
  return [...ctx.store.memberships.values()]
    .filter((m) => m.user_id === ctx.auth.user.id)
    .map((m) => ({ company: ctx.store.companies.get(m.company_id)!, membership: m, member_count: counts.get(m.company_id) ?? 0 }));
}

const workspaceObject = (w: Workspace) => ({
  workspace_id: w.company.id,
  workspace_name: w.company.name,
  id: w.company.id,
  name: w.company.name,
  type: w.company.type,
  country: w.company.country,
  member_count: w.member_count,
  is_mfa_enabled: w.company.is_mfa_enabled,
  created_at: w.company.created_at,
  updated_at: w.company.updated_at,
});

/** The workspace list filters of api/accounts.md. */
const WORKSPACE_FILTERS = [
  ...withLookups('country', 'icontains', 'iendswith', 'istartswith', 'in'),
  ...withLookups('name', 'icontains', 'iendswith', 'istartswith'),
  ...withLookups('type', 'exclude', 'in'),
];

const workspaceSpec: ListSpec<Workspace> = {
  fields: {
    name: { type: 'string', get: (w) => w.company.name },
    country: { type: 'string', get: (w) => w.company.country },
    type: { type: 'enum', values: WORKSPACE_TYPES, get: (w) => w.company.type },
  },
  filters: WORKSPACE_FILTERS,
  search: (w) => [w.company.name],
  ordering: {
    id: (w) => w.company.id, name: (w) => w.company.name, type: (w) => w.company.type, country: (w) => w.company.country,
    member_count: (w) => w.member_count, created_at: (w) => w.company.created_at,
  },
  defaultOrdering: ['name'],
};

function availableActions(ctx: Ctx): string[] {
  const perms = new Set(ctx.store.authGroups.get(ctx.auth.membership.auth_group_id)?.permissions ?? []);
  const actions: Array<[string, string]> = [
    ['orders.create', 'add_order'], ['orders.delete', 'delete_order'], ['statements.create', 'add_duediligencestatement'],
    ['documents.upload', 'add_document'], ['imports.create', 'add_dataexchangerun'], ['risk_assessments.create', 'add_riskassessment'],
    ['invitations.create', 'add_userinvitation'], ['members.change_role', 'change_usercompany'], ['users.view', 'view_user'],
  ];
  return actions.filter(([, p]) => perms.has(p)).map(([a]) => a);
}

const userConfig = (ctx: Ctx) => ({ config: ctx.auth.membership.config, available_actions: availableActions(ctx) });

function profile(ctx: Ctx) {
  const { user, membership, company } = ctx.auth;
  const group = ctx.store.authGroups.get(membership.auth_group_id)!;
  let transactions = 0;
  let min: string | null = null;
  let max: string | null = null;
  for (const o of ctx.store.orders.values()) {
    if (o.deleted_at || (o.buyer_company_id !== company.id && o.seller_company_id !== company.id && o.company_id !== company.id)) continue;
    transactions++;
    if (min === null || o.order_created_at < min) min = o.order_created_at;
    if (max === null || o.order_created_at > max) max = o.order_created_at;
  }
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    job_title: user.job_title,
    identity_uid: user.identity_uid,
    is_mfa_enrolled: user.is_mfa_enrolled,
    is_mfa_required: company.is_mfa_enabled,
    is_staff: user.is_staff,
    active_user_company_id: membership.id,
    data_room_consumer_id: `drc-user-${user.id}`,
    support_email_hash: createHash('sha256').update(user.email).digest('hex'),
    user_company: {
      id: membership.id,
      user_id: user.id,
      company_id: company.id,
      auth_group_id: membership.auth_group_id,
      data_room_consumer_id: membership.data_room_consumer_id,
      config: membership.config,
    },
    company: {
      id: company.id,
      name: company.name,
      type: company.type,
      country: company.country,
      credits_used: '0.00',
      nr_of_employees: company.nr_of_employees,
      nr_of_locations: company.nr_of_locations,
      nr_of_transactions: transactions,
      minimum_date_filter: '2020-12-31',
      results_limit_earliest_year: '2020-01-01',
      results_limit_latest_year: '2026-12-31',
      min_transaction_date: min,
      max_transaction_date: max,
      integration_consumer_id: `int-${company.slug}`,
      default_currency: company.default_currency,
      default_locale: company.default_locale,
      data_room_consumer_id: company.data_room_consumer_id,
      information: { city: company.city },
      pulse_params: { identifier: `company:${company.id}`, model_identifier: 'accounts.company' },
      flags: company.type === 'trial' ? [{ name: 'trial' }] : [{ name: 'eudr' }, { name: 'ppwr' }],
    },
    auth_group: { id: group.id, name: group.name, permissions: group.permissions.map((codename) => ({ codename })) },
  };
}

interface CompanyUser {
  membership: Membership;
}

export function registerAccounts(r: Router): void {
  r.get('/accounts/me', (ctx) => ok(profile(ctx)));

  r.get('/accounts/countries', (ctx) => listReply(ctx, ctx.store.countries, countrySpec, (c) => c));
  r.get('/accounts/countries/:id', (ctx) => {
    const key = (ctx.params.id ?? '').toUpperCase();
    const c = ctx.store.countries.find((x) => x.alpha_2 === key || x.alpha_3 === key || x.numeric === key.padStart(3, '0'));
    if (!c) throw notFound();
    return ok(c);
  });

  r.get('/accounts/user-config', (ctx) => ok(userConfig(ctx)));
  r.patch('/accounts/user-config', (ctx) => {
    const body = ctx.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body) || body === null) throw badRequest({ config: ['Invalid data. Expected a dictionary.'] });
    const b = body as Record<string, unknown>;
    const patch = 'config' in b ? b.config : b;
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw fieldError('config', 'Invalid data. Expected a dictionary.');
    const m = ctx.auth.membership;
    m.config = { ...m.config, ...(patch as Record<string, unknown>) };
    m.updated_at = nowIso();
    return ok(userConfig(ctx));
  });

  r.get('/accounts/workspaces', (ctx) => listReply(ctx, workspacesOf(ctx), workspaceSpec, workspaceObject));
  r.get('/accounts/workspaces/grouped', (ctx) => {
    const groups = new Map<string, Workspace[]>();
    for (const w of workspacesOf(ctx).sort((a, b) => a.company.name.localeCompare(b.company.name))) {
      const l = groups.get(w.company.type);
      if (l) l.push(w);
      else groups.set(w.company.type, [w]);
    }
    const rows = [...groups.entries()].map(([type, ws]) => ({
      type,
      workspaces: ws.map((w) => ({ workspace_name: w.company.name, workspace_id: w.company.id, member_count: w.member_count, is_mfa_enabled: w.company.is_mfa_enabled })),
    }));
    return listReply(ctx, rows, { fields: {}, ordering: { type: (g) => g.type }, defaultOrdering: ['type'] }, (g) => g);
  });
  r.post('/accounts/workspaces/switch', (ctx) => {
    const b = parseBody(ctx, z.object({ company_id: id() }));
    const target = workspacesOf(ctx).find((w) => w.company.id === b.company_id);
    if (!target) throw fieldError('company_id', 'You are not a member of this workspace.');
    ctx.auth.user.active_company_id = target.company.id;
    return ok({ message: `Switched to workspace ${target.company.name}.` });
  });

  r.get('/accounts/user-companies', (ctx) => listReply(ctx, ctx.store.membersOf(myCompany(ctx)), memberSpec(ctx), (m) => memberObject(ctx, m)));
  r.get('/accounts/user-companies/:id', (ctx) => {
    const m = ctx.store.memberships.get(intParam(ctx));
    if (!m || m.company_id !== myCompany(ctx)) throw notFound();
    return ok(memberObject(ctx, m));
  });
  r.patch('/accounts/user-companies/:id', (ctx) => {
    const m = ctx.store.memberships.get(intParam(ctx));
    if (!m || m.company_id !== myCompany(ctx)) throw notFound();
    requirePermission(ctx, 'change_usercompany');
    const b = parseBody(ctx, z.object({ auth_group: id() }));
    const group = ctx.store.authGroups.get(b.auth_group);
    if (!group) throw fieldError('auth_group', invalidPk(b.auth_group));
    const OWNER = 1;
    const actingIsOwner = ctx.auth.membership.auth_group_id === OWNER;
    if ((group.id === OWNER || m.auth_group_id === OWNER) && !actingIsOwner) throw forbidden('Only an owner can grant or change the OWNER role.');
    if (m.auth_group_id === OWNER && group.id !== OWNER && !ctx.store.membersOf(m.company_id).some((x) => x.id !== m.id && x.auth_group_id === OWNER))
      throw fieldError('auth_group', 'A workspace must keep at least one owner.');
    m.auth_group_id = group.id;
    m.updated_at = nowIso();
    return ok(memberObject(ctx, m));
  });

  r.get('/accounts/users', (ctx) => {
    requirePermission(ctx, 'view_user');
    const user = (u: CompanyUser) => ctx.store.users.get(u.membership.user_id)!;
    const rows = ctx.store.membersOf(myCompany(ctx)).map((membership) => ({ membership }));
    return listReply(
      ctx,
      rows,
      {
        fields: {},
        search: (u) => [user(u).username, user(u).first_name, user(u).last_name],
        ordering: { id: (u) => user(u).id, username: (u) => user(u).username, first_name: (u) => user(u).first_name, last_name: (u) => user(u).last_name },
        defaultOrdering: ['id'],
      },
      (u) => ({
        id: user(u).id,
        username: user(u).username,
        first_name: user(u).first_name,
        last_name: user(u).last_name,
        account: u.membership.company_id,
        user_group: u.membership.id,
        auth_group: u.membership.auth_group_id,
      }),
    );
  });
}
