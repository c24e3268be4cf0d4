// Body fields from --set / -f: a dotted key names nested fields of the body, and nothing else.
import { describe, expect, it } from 'vitest';
import { setDotted } from '../../src/commands/shared/flags.js';

describe('setDotted', () => {
  it('builds nested fields', () => {
    const body: Record<string, unknown> = {};
    setDotted(body, 'location.type', 'Point');
    setDotted(body, 'name', 'North plot');
    expect(body).toEqual({ location: { type: 'Point' }, name: 'North plot' });
  });

  it('never reaches Object.prototype: __proto__ and constructor are fields like any other', () => {
    const body: Record<string, unknown> = {};
    setDotted(body, '__proto__.polluted', 1);
    setDotted(body, 'constructor.prototype.polluted2', 2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted2).toBeUndefined();
    expect(JSON.parse(JSON.stringify(body))).toEqual(JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted2": 2}}}'));
  });
});
