// members list/set-role: the company's members (/accounts/user-companies) and their roles.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { addDryRunOption } from './shared/dry-run.js';
import { roleFilterIds, roleId } from './shared/roles.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS, type Column } from '../output/columns.js';
import { getPath } from '../output/values.js';
import { writeOne } from '../output/format.js';
import {
  addListOptions,
  listQuery,
  runList,
  setOneOrIn,
  type ListFlags,
} from './shared/list.js';
import { parseId } from './shared/crud.js';
import { stripControl } from '../output/sanitize.js';
import { prints } from './shared/output-facts.js';
import { MEMBER_FILTERS } from '../api/filters/members.js';
import type { NamedFlags } from '../api/filters/keys.js';
import { filteredBy, setNamedFilters } from './shared/filters.js';

export interface ListMembersOptions extends ListFlags, NamedFlags<typeof MEMBER_FILTERS> {}

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

export function register(program: Command, f: Factory): void {
  const members = program.command('members').description('List company members and change their roles');

  const list = filteredBy(prints(members.command('list'), 'member'), MEMBER_FILTERS)
    .description('List the members of the active workspace');
  addExamples(
    addListOptions(list)
    .addHelpText('after', '\nOrdering fields: created_at, updated_at, user__first_name, user__last_name, user__email, user__job_title, auth_group__name.'),
    ['sct members list', 'sct members list --search janssens --columns id,user_detail.email'],
  ).action(f.action<ListMembersOptions>((ctx, opts) => listMembers(ctx, opts)));

  addExamples(
    addDryRunOption(prints(members.command('set-role'), 'member')
    .argument('<member-id>', 'member id (the ID column of `sct members list`)')
    .argument('<role>', 'the new role: its name (ADMIN, any case) or id')
    .description("Change a member's role")),
    ['sct members set-role 20 admin', 'sct members set-role 20 3'],
  ).action(f.action((ctx, _o, [member, role]) => setRole(ctx, member, role)));
}

export function memberListQuery(opts: ListMembersOptions): URLSearchParams {
  const query = listQuery(opts);
  setNamedFilters(query, MEMBER_FILTERS, opts);
  return query;
}

export async function listMembers(ctx: Context, opts: ListMembersOptions): Promise<void> {
  const query = memberListQuery(opts);
  setOneOrIn(query, 'auth_group', await roleFilterIds(ctx, opts.role, '--role'));
  await runList(ctx, { path: PATHS.members, query, flags: opts, columns: COLUMNS.member, noun: 'members' });
}

export async function setRole(ctx: Context, member: string, role: string): Promise<void> {
  const id = parseId(member, 'MEMBER_ID');
  const body = { auth_group: await roleId(ctx, role, 'ROLE') };
  const updated = await ctx.client().patch<Record<string, unknown> | null>(PATHS.member(id), body);
  const roleName = (updated?.auth_group_detail as { name?: string } | undefined)?.name;
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Member ${id} now has role ${stripControl(String(roleName ?? body.auth_group))}`);
  await writeOne(ctx.io, updated, { ...ctx.output(COLUMNS.member), detail: MEMBER_DETAIL });
}
