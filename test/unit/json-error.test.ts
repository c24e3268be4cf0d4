// Where a JSON text's parse failed, said alike on every Node: V8 12+ (Node 22, 24) adds
// "(line L column C)" to its messages, V8 11 (Node 20) says a position only.
import { describe, expect, it } from 'vitest';
import { jsonErrorPlace } from '../../src/util/json-error.js';

const placeOf = (text: string) => {
  try {
    JSON.parse(text);
  } catch (err) {
    return jsonErrorPlace(text, (err as Error).message);
  }
  throw new Error('parsed');
};

describe('jsonErrorPlace', () => {
  it('names line and column and what V8 says, without its position in either form', () => {
    expect(placeOf('{"a": 1}\n{"b": 2}\n')).toBe(' at line 2, column 1 (Unexpected non-whitespace character after JSON)');
    expect(placeOf('{"name": "x",}')).toBe(' at line 1, column 14 (Expected double-quoted property name)');
    // Node 22 and 24's wording of the same failures, given as they say it.
    expect(jsonErrorPlace('{"a": 1}\n{"b": 2}\n', 'Unexpected non-whitespace character after JSON at position 9 (line 2 column 1)')).toBe(' at line 2, column 1 (Unexpected non-whitespace character after JSON)');
    expect(jsonErrorPlace('{"name": "x",}', 'Expected double-quoted property name in JSON at position 13 (line 1 column 14)')).toBe(' at line 1, column 14 (Expected double-quoted property name)');
  });
});
