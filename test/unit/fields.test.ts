// Picking fields, checking them against the documents, suggestions, and reading `--json X`.
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { checkFields, pickPaths } from '../../src/output/fields.js';
import { closest } from '../../src/output/suggest.js';
import { resolveJsonFlag } from '../../src/cli/argv.js';
import { UsageError } from '../../src/errors.js';

describe('pickPaths', () => {
  it('keeps the chosen paths, nested, own properties only', () => {
    const order = { id: 1, type: 'order', seller_company: { name: 'S', id: 9 }, buyer_company: null };
    expect(pickPaths(order, ['id', 'seller_company.name'])).toEqual({ id: 1, seller_company: { name: 'S' } });
    expect(pickPaths(order, ['buyer_company.name', 'nope', 'toString', 'constructor.name'])).toEqual({ buyer_company: null });
    expect(pickPaths(order, ['seller_company.name', 'seller_company'])).toEqual({ seller_company: { name: 'S', id: 9 } });
    const withItems = { id: 1, items: [{ id: 5, volume: 2, unit: 'kg' }, { id: 6, volume: 3, unit: 't' }], tags: ['a'] };
    expect(pickPaths(withItems, ['items.id', 'items.unit'])).toEqual({ items: [{ id: 5, unit: 'kg' }, { id: 6, unit: 't' }] });
    expect(pickPaths(withItems, ['items.id', 'items'])).toEqual({ items: withItems.items });
    expect(pickPaths(withItems, ['items', 'items.id'])).toEqual({ items: withItems.items });
    expect(pickPaths(withItems, ['tags.x'])).toEqual({ tags: ['a'] });
  });

  it('takes an index as the table and CSV read it: the elements asked for, in the list\'s order', () => {
    const imp = { id: 10, errors: [{ message: 'a', row: 1 }, { message: 'b', row: 2 }, { message: 'c', row: 3 }], orders: [71, 110, 116] };
    expect(pickPaths(imp, ['id', 'errors.0.message'])).toEqual({ id: 10, errors: [{ message: 'a' }] });
    expect(pickPaths(imp, ['orders.1', 'orders.0'])).toEqual({ orders: [71, 110] });
    expect(pickPaths(imp, ['errors.2.row', 'errors.0.message', 'errors.2.message'])).toEqual({ errors: [{ message: 'a' }, { row: 3, message: 'c' }] });
    expect(pickPaths(imp, ['errors.1'])).toEqual({ errors: [{ message: 'b', row: 2 }] });
    // With a path through every element, an index adds to its element.
    expect(pickPaths(imp, ['errors.row', 'errors.1.message'])).toEqual({ errors: [{ row: 1 }, { row: 2, message: 'b' }, { row: 3 }] });
    expect(pickPaths(imp, ['errors.1.message', 'errors.row'])).toEqual({ errors: [{ row: 1 }, { message: 'b', row: 2 }, { row: 3 }] });
    expect(pickPaths(imp, ['orders.2', 'orders'])).toEqual({ orders: [71, 110, 116] });
    // An index the list does not have picks nothing, as the table shows nothing for it.
    expect(pickPaths(imp, ['id', 'errors.7.message', 'orders.9'])).toEqual({ id: 10 });
    expect(pickPaths({ rows: [{ 7: 'x' }, { 7: 'y' }] }, ['rows.7'])).toEqual({ rows: [{ 7: 'x' }, { 7: 'y' }] });
  });
});

describe('checkFields', () => {
  it('refuses a field the resource does not have, and lets undocumented resources take any', () => {
    const order = { resource: 'order' } as const;
    expect(() => checkFields('orders list', order, 'id,seller_company.name')).not.toThrow();
    expect(() => checkFields('orders list', order, 'id,bogus')).toThrow(UsageError);
    expect(() => checkFields('risk list', undefined, 'anything')).not.toThrow();
    expect(() => checkFields('workspaces list', { resource: 'workspace', extraFields: ['current'] }, 'id,current')).not.toThrow();
  });
});

describe('closest', () => {
  it('suggests near names only', () => {
    expect(closest('ordrs', ['orders', 'origins'])).toBe('orders');
    expect(closest('zzzzzz', ['orders'])).toBeUndefined();
    // A short name inside a long typo is not the typo's match: the near spelling is.
    expect(closest('extrenal_id', ['id', 'external_id', 'type'])).toBe('external_id');
    expect(closest('seller_external_id__icontans', ['id', 'seller_external_id__icontains'])).toBe('seller_external_id__icontains');
    expect(closest('order', ['orders', 'origins'])).toBe('orders');
  });
});

describe('resolveJsonFlag', () => {
  const program = new Command('sct').option('-o, --output <f>').option('--json [fields]');
  const orders = program.command('orders');
  orders.command('get').argument('<id>');
  orders.command('list').option('--limit <n>');

  it('reads the next word as fields only when it is a field list and no positional is waiting', () => {
    expect(resolveJsonFlag(program, ['orders', 'get', '--json', '5'])).toEqual(['orders', 'get', '--json=', '5']);
    expect(resolveJsonFlag(program, ['orders', 'get', '5', '--json', 'id,type'])).toEqual(['orders', 'get', '5', '--json=id,type']);
    expect(resolveJsonFlag(program, ['orders', 'list', '--json', 'id,seller_company.name', '--limit', '2'])).toEqual(['orders', 'list', '--json=id,seller_company.name', '--limit', '2']);
    expect(resolveJsonFlag(program, ['orders', 'list', '--limit', '2', '--json'])).toEqual(['orders', 'list', '--limit', '2', '--json=']);
    expect(resolveJsonFlag(program, ['orders', 'list', '--json', '12'])).toEqual(['orders', 'list', '--json=', '12']);
  });

  it('before the command, a word naming a command is the command, never a field list', () => {
    expect(resolveJsonFlag(program, ['--json', 'orders', 'list'])).toEqual(['--json=', 'orders', 'list']);
    expect(resolveJsonFlag(program, ['orders', '--json', 'list'])).toEqual(['orders', '--json=', 'list']);
    expect(resolveJsonFlag(program, ['--json', 'id', 'orders', 'list'])).toEqual(['--json=id', 'orders', 'list']);
  });
});
