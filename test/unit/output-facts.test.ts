// Which commands print a documented resource and which write -o geojson is stated where each
// command is defined; read back from the whole tree, it is this list (a command that loses its
// declaration would take any --columns name and print a CSV header made from its first row).
import { describe, expect, it } from 'vitest';
import { printedBy, isGeojsonCommand } from '../../src/commands/shared/output-facts.js';
import { commandsByPath } from '../helpers/printed.js';

describe('output facts declared by the commands', () => {
  it('names the resource of every command that prints one, and only those write geojson that have a location', async () => {
    const tree = await commandsByPath();
    const printed = Object.fromEntries([...tree].flatMap(([path, cmd]) => (printedBy(cmd) ? [[path, printedBy(cmd)!.resource]] : [])));
    const crud = (group: string, resource: string, verbs: string[]) => Object.fromEntries(verbs.map((v) => [`${group} ${v}`, resource]));
    expect(printed).toEqual({
      ...crud('orders', 'order', ['list', 'get', 'create', 'update']),
      ...crud('products', 'product', ['list', 'get', 'create', 'update']),
      ...crud('origins', 'origin', ['list', 'get', 'create', 'update']),
      ...crud('value-chains', 'valueChain', ['list', 'get', 'create', 'update']),
      ...crud('dds', 'statement', ['list', 'get', 'create', 'update', 'wait']),
      ...crud('invitations', 'invitation', ['list', 'get', 'create', 'renew']),
      ...crud('members', 'member', ['list', 'set-role']),
      ...crud('users', 'user', ['list']),
      ...crud('workspaces', 'workspace', ['list']),
      ...crud('countries', 'country', ['list', 'get']),
      ...crud('roles', 'role', ['list']),
      whoami: 'me',
      'workspaces current': 'company',
      'orders stats': 'orderStatistics',
      'dds available-orders': 'availableOrder',
      'invitations public': 'publicInvitation',
      'orders trace': 'orderItem',
      'origins check': 'finding',
      'orders import': 'bulkOutcome',
      'origins import': 'bulkOutcome',
      'invitations bulk-create': 'bulkOutcome',
      'info-requests send': 'bulkOutcome',
      'workspaces switch': 'workspaceSwitch',
      // sct's own objects.
      version: 'version',
      'auth status': 'authStatus',
      'auth token': 'authToken',
      'config list': 'configList',
      'config path': 'configPath',
      'config profiles': 'profile',
      doctor: 'doctorCheck',
    });
    expect(printedBy(tree.get('workspaces list')!)?.extraFields).toBeUndefined();
    expect(printedBy(tree.get('workspaces current')!)?.extraFields).toEqual(['role']);
    expect([...tree].filter(([, cmd]) => isGeojsonCommand(cmd)).map(([path]) => path)).toEqual(['origins list', 'origins get']);
  });
});
