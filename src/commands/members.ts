// members list/set-role: the company's members (/accounts/user-companies) and their roles.
import type { Context } from '../context.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { roleFilterIds, roleId, spellRoleNames } from './shared/roles.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, type Column } from '../output/columns.js';
import { getPath } from '../output/values.js';
import { writeOne } from '../output/format.js';
import { LIST_OPTIONS, listQuery, runList, setOneOrIn } from './shared/list.js';
import { parseId } from './shared/crud.js';
import { cleanCell } from '../util/sanitize.js';
import { SctError } from '../errors.js';
import { MEMBER_FILTERS } from '../api/filters/members.js';
import { setNamedFilters } from './shared/filters.js';

/**
 * The key/value view of one member (set-role prints it): the person by name and e-mail, never the
 * nested user_detail object as a JSON blob. (output/columns.ts has no member detail list yet.)
 */
export const MEMBER_DETAIL: Column[] = [
  { header: 'ID', path: 'id' },
  {
    header: 'NAME',
    path: 'user_detail',
    value: (r) => [getPath(r, 'user_detail.first_name'), getPath(r, 'user_detail.last_name')].filter(Boolean).join(' '),
  },
  { header: 'EMAIL', path: 'user_detail.email' },
  { header: 'JOB TITLE', path: 'user_detail.job_title' },
  { header: 'ROLE', path: 'auth_group_detail.name' },
  { header: 'USER ID', path: 'user' },
  { header: 'CREATED', path: 'created_at' },
  { header: 'UPDATED', path: 'updated_at' },
];

const LIST_MEMBERS_OPTIONS = [{ filters: MEMBER_FILTERS }, ...LIST_OPTIONS] as const;

export type ListMembersOptions = OptionsOf<typeof LIST_MEMBERS_OPTIONS>;

export const register = registerOf({
  name: 'members',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List the members of the active workspace',
      prints: 'member',
      options: LIST_MEMBERS_OPTIONS,
      help: '\nOrdering fields: created_at, updated_at, user__first_name, user__last_name, user__email, user__job_title, auth_group__name.',
      examples: ['sct members list', 'sct members list --search janssens --columns id,user_detail.email'],
      run: (ctx, opts) => listMembers(ctx, opts),
    }),
    defineLeaf({
      name: 'set-role',
      summary: "Change a member's role",
      prints: 'member',
      args: [
        { name: '<member-id>', description: 'member id (the ID column of `sct members list`)' },
        { name: '<role>', description: 'the new role: its name (ADMIN, any case) or id' },
      ],
      options: [DRY_RUN_OPTION],
      examples: ['sct members set-role 20 admin', 'sct members set-role 20 3'],
      run: (ctx, _o, [member, role]) => setRole(ctx, member, role),
    }),
  ],
});

export function memberListQuery(opts: ListMembersOptions): URLSearchParams {
  const query = listQuery(opts);
  setNamedFilters(query, MEMBER_FILTERS, opts);
  return query;
}

export async function listMembers(ctx: Context, opts: ListMembersOptions): Promise<void> {
  const query = memberListQuery(opts);
  setOneOrIn(query, 'auth_group', await roleFilterIds(ctx, opts.role, '--role'));
  await spellRoleNames(ctx, query);
  await runList(ctx, { path: PATHS.members, query, flags: opts, columns: COLUMNS.member, noun: 'members' });
}

export async function setRole(ctx: Context, member: string, role: string): Promise<void> {
  const id = parseId(member, 'MEMBER_ID');
  const body = { auth_group: await roleId(ctx, role, 'ROLE') };
  const updated = await ctx.client().patch<Record<string, unknown> | null>(PATHS.member(id), body);
  const roleName = (updated?.auth_group_detail as { name?: string } | undefined)?.name;
  // The answer is the member (accounts.md): its role is what the service now holds, said as done
  // only when it is the one sent.
  const held = updated && typeof updated === 'object' && !Array.isArray(updated) ? updated.auth_group : undefined;
  const heldId = typeof held === 'number' ? held : held && typeof held === 'object' ? (held as { id?: unknown }).id : undefined;
  if (heldId === undefined || heldId === null) throw new SctError(`unexpected answer from PATCH ${PATHS.member(id)}: not the member (no auth_group)`);
  if (heldId !== body.auth_group) {
    throw new SctError(`PATCH ${PATHS.member(id)}: the service answered that member ${id} has role ${cleanCell(String(heldId))}${roleName ? ` (${cleanCell(roleName)})` : ''}, not ${body.auth_group}`);
  }
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Member ${id} now has role ${cleanCell(String(roleName ?? body.auth_group))}`);
  await writeOne(ctx.io, updated, { ...ctx.output(COLUMNS.member), detail: MEMBER_DETAIL });
}
