import { describe, expect, it } from 'vitest';
import { asMe, displayName } from '../../src/api/me.js';

describe('asMe', () => {
  const me = { id: 7, first_name: 'Amélie', last_name: null, email: 'a@example.com', company: { id: 3, name: 'Cocoa Co', extra: 1 }, auth_group: { id: 1, name: 'Admin' }, later: 'kept' };

  it('takes a profile as it is, fields it does not know included', () => {
    expect(asMe(me)).toBe(me);
    expect(asMe({ id: 1 })).toEqual({ id: 1 });
    expect(displayName(asMe(me)!)).toBe('Amélie');
    expect(displayName(asMe({ id: 1 })!)).toBe('user 1');
  });

  it.each([
    ['no object', []],
    ['no id', { first_name: 'A' }],
    ['an id as text', { id: '7' }],
    ['a name that is no text', { id: 7, first_name: 5 }],
    ['a company without its id', { id: 7, company: { name: 'X' } }],
    ['a company name that is no text', { id: 7, company: { id: 3, name: 4 } }],
    ['a role that is a number', { id: 7, auth_group: 1 }],
    ['an active company that is no number', { id: 7, active_user_company_id: '3' }],
  ])('refuses %s', (_why, data) => {
    expect(asMe(data)).toBeUndefined();
  });
});
