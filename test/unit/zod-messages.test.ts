// zod's own wording ("Invalid option: expected one of …", "expected array, received number")
// never reaches the user: every issue code is said in a plain sentence, once, in the error map.
import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { parseWorded, validate, zodFieldErrors } from '../../src/commands/shared/body.js';
import { UsageError } from '../../src/errors.js';
import { statementUpdateSchema } from '../../src/api/schemas/statements.js';
import { REQUIRED } from '../../src/api/schemas/messages.js';

function fieldErrors(schema: z.ZodType, value: unknown): Record<string, string[]> {
  try {
    validate(schema, value, 'thing');
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as UsageError).fields;
  }
  throw new Error('expected a validation error');
}

const schema = z.object({
  status: z.enum(['draft', 'complete']).optional(),
  kind: z.literal('order').optional(),
  items: z.array(z.object({ volume: z.number() })).optional(),
  count: z.number().int().min(1).max(10).optional(),
  ratio: z.number().gt(0).optional(),
  name: z.string().min(1).max(5).optional(),
  code: z.string().min(2).optional(),
  ids: z.array(z.number()).min(1).max(2).optional(),
  email: z.email().optional(),
  id: z.uuid().optional(),
  day: z.iso.date().optional(),
  flag: z.boolean().optional(),
  meta: z.object({}).optional(),
  step: z.number().multipleOf(5).optional(),
  either: z.union([z.number(), z.boolean()]).optional(),
  required: z.string(),
});

describe('plain field errors', () => {
  it.each([
    [{ status: 'bogus' }, 'status', '"bogus" is not one of the allowed values: draft, complete'],
    [{ kind: 'sale' }, 'kind', 'must be order, not "sale"'],
    [{ items: 5 }, 'items', 'expected a list'],
    [{ items: [{ volume: 'x' }] }, 'items[0].volume', 'expected a number'],
    [{ count: 1.5 }, 'count', 'expected a whole number'],
    [{ count: 0 }, 'count', 'must be at least 1'],
    [{ count: 11 }, 'count', 'must be at most 10'],
    [{ ratio: 0 }, 'ratio', 'must be greater than 0'],
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: 'toolong' }, 'name', 'must be at most 5 characters long'],
    [{ code: 'x' }, 'code', 'must be at least 2 characters long'],
    [{ name: 5 }, 'name', 'expected text'],
    [{ ids: [] }, 'ids', 'must not be an empty list'],
    [{ ids: [1, 2, 3] }, 'ids', 'must have at most 2 items'],
    [{ email: 'nope' }, 'email', 'expected an e-mail address'],
    [{ id: 'nope' }, 'id', 'expected a UUID'],
    [{ day: '2025-13-01' }, 'day', 'expected a date YYYY-MM-DD'],
    [{ flag: 'yes' }, 'flag', 'expected true or false'],
    [{ meta: [] }, 'meta', 'expected an object'],
    [{ step: 7 }, 'step', 'must be a multiple of 5'],
    [{ either: 'x' }, 'either', '"x" is not a valid value here'],
  ])('%j', (body, field, message) => {
    const fields = fieldErrors(schema, { required: 'r', ...body });
    expect(fields).toEqual({ [field]: [message] });
  });

  it('a missing field has the API words', () => {
    expect(fieldErrors(schema, {})).toEqual({ required: ['This field is required.'] });
  });

  it('unknown keys of a strict object are named', () => {
    expect(fieldErrors(z.strictObject({ a: z.string().optional() }), { b: 1, c: 2 })).toEqual({ body: ['unknown fields: b, c'] });
  });

  it('no zod wording is left for a real schema', () => {
    const fields = fieldErrors(statementUpdateSchema, { status: 'bogus' });
    expect(fields.status[0]).toBe('"bogus" is not one of the allowed values: draft, in_progress, complete, failed');
    expect(JSON.stringify(fields)).not.toMatch(/Invalid option|received|expected one of/);
  });
});

describe('parseWorded (a file row: parsed without the error map first)', () => {
  it('passes a valid value through as parsed, and words a failure as validate does', () => {
    const row = z.object({ name: z.string(), count: z.number().int().min(1) });
    expect(parseWorded(row, { name: 'a', count: 2 })).toEqual({ success: true, data: { name: 'a', count: 2 } });
    const failed = parseWorded(row, { count: 0 });
    expect(failed.success).toBe(false);
    expect(zodFieldErrors(failed.error!)).toEqual(fieldErrors(row, { count: 0 }));
    expect(zodFieldErrors(failed.error!).name).toEqual([REQUIRED]);
  });
});

