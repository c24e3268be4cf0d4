// The checks a bulk invitation run makes per row without zod must agree with the schemas they
// stand in for: an address the quick check takes is one the schema takes, and an answer whose
// results are taken by hand is one the schema takes, with the same results.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bulkCreateAnswerSchema, bulkCreateResults, invitationEmail, isInvitationEmail } from '../../src/api/schemas/accounts.js';

describe('isInvitationEmail', () => {
  const PIECES = ['a', 'Z', '0', '.', '@', '-', '_', '+', "'", 'é', ' ', '..', '@@', 'example', '.com', '.c', 'x'.repeat(1020)];
  const address = fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 3 }) }), { maxLength: 10 }).map((p) => p.join(''));

  it('says what the schema says', () => {
    fc.assert(
      fc.property(address, (s) => {
        expect(isInvitationEmail(s)).toBe(invitationEmail.safeParse(s).success);
      }),
      { numRuns: 5000 },
    );
    for (const s of ['ana@example.com', "o'neil+x@a-b.example.org", 'a@b.c', 'a b@example.com', '', `${'x'.repeat(1012)}@example.com`, `${'x'.repeat(1013)}@example.com`]) {
      expect(isInvitationEmail(s), s).toBe(invitationEmail.safeParse(s).success);
    }
  });
});

describe('bulkCreateResults', () => {
  const invitation = fc.oneof(
    fc.record({ id: fc.uuid(), email: fc.string(), auth_group: fc.nat() }),
    fc.record({ id: fc.oneof(fc.nat(), fc.constant(null)) }),
    fc.constantFrom(null, undefined, [], 'x'),
  );
  const result = fc.oneof(
    { weight: 5, arbitrary: fc.record({ index: fc.nat(200), status: fc.constantFrom('created', 'rejected'), invitation, error: fc.option(fc.dictionary(fc.string(), fc.array(fc.string()))) }, { requiredKeys: ['index', 'status'] }) },
    { weight: 1, arbitrary: fc.record({ index: fc.oneof(fc.double(), fc.string(), fc.constant(2 ** 53)), status: fc.oneof(fc.string(), fc.nat()) }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.anything() },
  );
  const answer = fc.oneof({ weight: 5, arbitrary: fc.record({ results: fc.array(result, { maxLength: 5 }) }) }, { weight: 1, arbitrary: fc.anything() });

  it('takes the results the schema takes, and no others', () => {
    fc.assert(
      fc.property(answer, (a) => {
        const parsed = bulkCreateAnswerSchema.safeParse(a);
        expect(bulkCreateResults(a)).toEqual(parsed.success ? parsed.data.results : undefined);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a usual answer without the schema', () => {
    const results = [
      { index: 0, status: 'created', invitation: { id: 'u-0', email: 'a@example.com' } },
      { index: 1, status: 'rejected', error: { email: ['Taken.'] } },
    ];
    // The very objects of the answer: the schema would have copied them.
    expect(bulkCreateResults({ results })).toBe(results);
  });
});
