// users list: the company's user accounts (the members list has their roles and e-mails).
import type { Command } from 'commander';
import { addExamples, type Factory } from './shared/command.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { addListOptions, listQuery, runList, type ListFlags } from './shared/list.js';

export function register(program: Command, f: Factory): void {
  const users = program.command('users').description('List the users of the company');
  addExamples(
    addListOptions(users.command('list').description('List the users of the active workspace (needs the view_user permission)'))
    .addHelpText('after', '\nThe document names limit, offset and search for this list; --ordering and --filter are passed through.'),
    ['sct users list', 'sct users list --search peeters --json id,username'],
  ).action(f.action<ListFlags>((ctx, opts) => runList(ctx, { path: PATHS.users, query: listQuery(opts), flags: opts, columns: COLUMNS.user, noun: 'users' })));
}
