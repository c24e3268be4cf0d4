// The command-group registry: every group's name, help heading, summary and module, and the
// registration of the groups a run needs (the others are one-line stubs, so `sct --help` and
// suggestions still see them without loading them).
import type { Command } from 'commander';
import type { Register, Factory } from '../commands/shared/command.js';

interface Group {
  name: string;
  /** The heading the group is listed under in `sct --help`. */
  section: string;
  summary: string;
  load: () => Promise<{ register: Register }>;
}

/** Every command group, in help order, under its help heading (as gh groups its commands). */
const SUPPLY_CHAIN = 'Supply chain commands:';
const COMPLIANCE = 'Due diligence commands:';
const PEOPLE = 'Workspace and people commands:';
const SETUP = 'Setup and other commands:';

export const GROUPS: Group[] = [
  { name: 'orders', section: SUPPLY_CHAIN, summary: 'List, create, import and trace orders', load: () => import('../commands/orders.js') },
  { name: 'products', section: SUPPLY_CHAIN, summary: 'Manage products', load: () => import('../commands/products.js') },
  { name: 'origins', section: SUPPLY_CHAIN, summary: 'Manage origins (places of production)', load: () => import('../commands/origins.js') },
  { name: 'value-chains', section: SUPPLY_CHAIN, summary: 'Manage value chains', load: () => import('../commands/value-chains.js') },
  { name: 'dds', section: COMPLIANCE, summary: 'Due diligence statements: create, wait for, trace orders to them', load: () => import('../commands/dds.js') },
  { name: 'risk', section: COMPLIANCE, summary: 'Risk assessments and their evidence packages', load: () => import('../commands/risk.js') },
  { name: 'documents', section: COMPLIANCE, summary: 'Upload, list and download documents', load: () => import('../commands/documents.js') },
  { name: 'imports', section: COMPLIANCE, summary: 'Data exchange runs (imports)', load: () => import('../commands/imports.js') },
  { name: 'info-requests', section: COMPLIANCE, summary: 'Send information requests to suppliers', load: () => import('../commands/info-requests.js') },
  { name: 'workspaces', section: PEOPLE, summary: 'List your workspaces and switch the active one', load: () => import('../commands/workspaces.js') },
  { name: 'invitations', section: PEOPLE, summary: 'Invite people, in bulk too; revoke and renew invitations', load: () => import('../commands/invitations.js') },
  { name: 'members', section: PEOPLE, summary: 'List company members and change their roles', load: () => import('../commands/members.js') },
  { name: 'users', section: PEOPLE, summary: 'List the users of the company', load: () => import('../commands/users.js') },
  { name: 'roles', section: PEOPLE, summary: 'The roles of the workspace, by name and id', load: () => import('../commands/roles.js') },
  { name: 'countries', section: PEOPLE, summary: 'Country reference data', load: () => import('../commands/countries.js') },
  { name: 'user-config', section: PEOPLE, summary: 'Read and change your per-user configuration', load: () => import('../commands/user-config.js') },
  { name: 'auth', section: SETUP, summary: 'Log in, log out and show the login status', load: () => import('../commands/auth.js') },
  { name: 'config', section: SETUP, summary: 'Read and write profile settings', load: () => import('../commands/config.js') },
  { name: 'whoami', section: SETUP, summary: 'Show the logged-in user and company', load: () => import('../commands/whoami.js') },
  { name: 'api', section: SETUP, summary: 'Make an authenticated API request', load: () => import('../commands/api.js') },
  { name: 'completion', section: SETUP, summary: 'Print a shell completion script', load: () => import('../commands/completion.js') },
  { name: 'sandbox', section: SETUP, summary: 'Run a local emulator of the service with demo data', load: () => import('../commands/sandbox.js') },
  { name: 'version', section: SETUP, summary: "Print sct's version, Node's and the platform", load: () => import('../commands/version.js') },
  { name: 'doctor', section: SETUP, summary: 'Check configuration, connectivity and credentials', load: () => import('../commands/doctor.js') },
];

/** Whether word names a command group. */
export function isGroup(word: string | undefined): boolean {
  return GROUPS.some((g) => g.name === word);
}

/**
 * Registers the named groups' real commands, and a one-line stub for every other group. Given
 * `leaf`, a named group registers only its sub-command of that name and the others nothing;
 * returns false when it had sub-commands but none of that name (a mistyped one: only the whole
 * group can suggest another).
 */
export async function registerGroups(program: Command, factory: Factory, load: 'all' | string[], leaf?: string): Promise<boolean> {
  let skipped = false;
  const only: Factory = {
    ...factory,
    leaf(name) {
      if (name === leaf) return true;
      skipped = true;
      return false;
    },
  };
  for (const group of GROUPS) {
    if (load === 'all' || load.includes(group.name)) {
      const mod = await group.load();
      mod.register(program, leaf === undefined ? factory : only);
      // The group's line in every list of commands (help, completion, the manual) is its summary
      // here, whatever longer description its own help opens with; and that description, where
      // the group gives none.
      const registered = program.commands.find((c) => c.name() === group.name);
      registered?.summary(group.summary);
      if (registered && !registered.description()) registered.description(group.summary);
    } else if (leaf === undefined) {
      program.command(group.name).description(group.summary);
    } else {
      // A run of one leaf command: the other groups' stubs would only be built to go unused
      // (about 0.5 ms: commander's Command is not cheap to make).
      continue;
    }
    program.commands.find((c) => c.name() === group.name)?.helpGroup(group.section);
  }
  program.commandsGroup(SETUP).helpCommand(true);
  unquoteDefaults(program);
  return !skipped || program.commands.some((group) => group.commands.some((c) => c.name() === leaf));
}

/** Help shows `(default: 30)`, not commander's `(default: "30")`. */
function unquoteDefaults(cmd: Command): void {
  for (const o of cmd.options) {
    if (typeof o.defaultValue === 'string' && o.defaultValueDescription === undefined) o.defaultValueDescription = o.defaultValue;
  }
  cmd.commands.forEach(unquoteDefaults);
}
