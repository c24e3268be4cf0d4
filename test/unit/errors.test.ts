import { describe, it, expect } from 'vitest';
import { apiErrorFrom, flattenFieldErrors } from '../../src/api/errors.js';

describe('flattenFieldErrors', () => {
  it('names nested and element errors the way local validation does', () => {
    expect(
      flattenFieldErrors({
        items: [{}, { volume: ['A valid number is required.'], trace: { traced_orders: { '1': ['Invalid pk "9".'] } } }],
        tags: { '0': ['This field may not be blank.'] },
        name: 'too long',
      }),
    ).toEqual({
      'items[1].volume': ['A valid number is required.'],
      'items[1].trace.traced_orders[1]': ['Invalid pk "9".'],
      'tags[0]': ['This field may not be blank.'],
      name: ['too long'],
    });
    expect(flattenFieldErrors(['Only one of order_id or value_chain_id.'])).toEqual({ non_field_errors: ['Only one of order_id or value_chain_id.'] });
  });

  it('builds the message from detail, else from the fields, and strips control characters', () => {
    expect(apiErrorFrom(404, { detail: 'Not \u001b[31mfound.' }, 'GET', '/orders/9').message).toBe('Not found. (404 Not Found on GET /orders/9)');
    const e = apiErrorFrom(400, { tags: { '0': ['This field may not be blank.'] } }, 'POST', '/orders/batch');
    expect(e.message).toBe('the request was rejected (400 Bad Request on POST /orders/batch)');
    expect(e.fields).toEqual({ 'tags[0]': ['This field may not be blank.'] });
    expect(e.exitCode).toBe(1);
  });

  it('keeps a detail that is no string: a list of messages, an object with its message, else as fields', () => {
    expect(apiErrorFrom(403, { detail: ['no perm', 'ask an owner'] }, 'GET', '/orders/5').message).toBe('no perm ask an owner (403 Forbidden on GET /orders/5)');
    const coded = apiErrorFrom(403, { detail: { code: 'permission_denied', message: 'You may not view orders' } }, 'GET', '/orders/5');
    expect(coded.message).toBe('You may not view orders (403 Forbidden on GET /orders/5)');
    const other = apiErrorFrom(400, { detail: { when: ['Enter a valid date.'] } }, 'POST', '/orders/batch');
    expect(other.message).toBe('the request was rejected (400 Bad Request on POST /orders/batch)');
    expect(other.fields).toEqual({ 'detail.when': ['Enter a valid date.'] });
  });
});
