// roles list: the roles sct has seen on this service (names and ids), asked afresh from the
// user's profile and the members list, so a name typed for --role can be checked against them.
import type { Command } from 'commander';
import { addExamples, type Factory } from './shared/command.js';
import type { Context } from '../context.js';
import { learnRoles } from './shared/roles.js';
import { writeList } from '../output/format.js';

export function register(program: Command, f: Factory): void {
  const roles = program.command('roles').description('The roles of the workspace, by name and id');
  addExamples(
    roles
    .command('list')
    .description('List the roles seen on the service (wherever a role is asked, its name or id is accepted)'),
    ['sct roles list', 'sct invitations create --email ana@example.com --role admin'],
  ).action(f.action((ctx) => listRoles(ctx)));
}

export async function listRoles(ctx: Context): Promise<void> {
  const roles = await learnRoles(ctx);
  await writeList(ctx.io, roles, ctx.output([
    { header: 'ID', path: 'id' },
    { header: 'NAME', path: 'name' },
  ]));
}
