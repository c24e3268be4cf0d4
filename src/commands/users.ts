// users list: the company's user accounts (the members list has their roles and e-mails).
import type { Context } from '../context.js';
import { knownRoleNames, learnRoles } from './shared/roles.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { LIST_OPTIONS, listQuery, runList, type ListFlags } from './shared/list.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import { USER_FILTERS } from '../api/filters/users.js';

export const register = registerOf({
  name: 'users',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List the users of the active workspace (needs the view_user permission)',
      prints: 'user',
      options: [{ filters: USER_FILTERS }, ...LIST_OPTIONS],
      help: '\nThe document names limit, offset and search for this list; --ordering and --filter are passed through.',
      examples: ['sct users list', 'sct users list --search peeters --json id,username'],
      run: (ctx, opts) => listUsers(ctx, opts),
    }),
  ],
});

/**
 * A user comes with its role as an id only. The table shows the role's name, as members list
 * does, from the roles sct has seen (roles.json), asking the service once when a row holds a
 * role new to it. Other formats keep the id, as the service sent it.
 */
export async function listUsers(ctx: Context, opts: ListFlags): Promise<void> {
  const list = { path: PATHS.users, query: listQuery(opts), flags: opts, columns: COLUMNS.user, noun: 'users' };
  if (ctx.format() !== 'table' || ctx.columns() !== undefined) return runList(ctx, list);
  const names = knownRoleNames(ctx);
  let asked = false;
  const isNew = (u: Record<string, unknown>) => typeof u.auth_group === 'number' && !names.has(u.auth_group);
  await runList(ctx, {
    ...list,
    columns: COLUMNS.user.map((c) => (c.path === 'auth_group' ? { ...c, value: (u) => names.get(u.auth_group as number) ?? u.auth_group } : c)),
    beforePage: async (users) => {
      if (asked || !users.some(isNew)) return;
      asked = true;
      for (const role of await learnRoles(ctx)) names.set(role.id, role.name);
    },
  });
}
