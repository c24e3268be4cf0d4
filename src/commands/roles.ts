// roles list: the roles sct has seen on this service (names and ids), asked afresh from the
// user's profile and the members list, so a name typed for --role can be checked against them.
import { defineLeaf, registerOf } from './shared/spec.js';
import type { Context } from '../context.js';
import { learnRoles } from './shared/roles.js';
import { writeList } from '../output/format.js';

export const register = registerOf({
  name: 'roles',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List the roles seen on the service (wherever a role is asked, its name or id is accepted)',
      prints: 'role',
      examples: ['sct roles list', 'sct invitations create --email ana@example.com --role admin'],
      run: (ctx) => listRoles(ctx),
    }),
  ],
});

export async function listRoles(ctx: Context): Promise<void> {
  const roles = await learnRoles(ctx);
  await writeList(ctx.io, roles, ctx.output([
    { header: 'ID', path: 'id' },
    { header: 'NAME', path: 'name' },
  ]));
}
