import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { shellWord } from '../../src/util/shell.js';
import { keyShown } from '../../src/util/sanitize.js';

describe('shellWord', () => {
  // A plain word as it is, the others quoted, what no line may show as escapes.
  it.each([
    ['/tmp/report.csv', '/tmp/report.csv'],
    ['my report.csv', "'my report.csv'"],
    ["it's", "'it'\\''s'"],
    ['r\u001b]0;t\u0007\nx.csv', "$'r\\x1b]0;t\\x07\\nx.csv'"],
    ['a\u202eb', "$'a\\xe2\\x80\\xaeb'"],
  ])('%j is written %s', (word, shown) => {
    expect(shellWord(word)).toBe(shown);
  });

  it.each(['my report.csv', "it's", 'r\u001b]0;t\u0007\nx.csv', "a\\'b\tc", 'a\u2028b\u0085'])('bash reads %j back as the same word', (word) => {
    // In a UTF-8 locale and in the C locale alike.
    for (const locale of ['C.UTF-8', 'C']) {
      const echoed = execFileSync('bash', ['-c', `printf %s ${shellWord(word)}`], { env: { ...process.env, LC_ALL: locale } }).toString();
      expect(echoed, locale).toBe(word);
    }
  });
});

describe('keyShown', () => {
  it('cuts a long key by code point: a character of two UTF-16 units is never cut in half', () => {
    const shown = keyShown(`${'é'.repeat(79)}😀x`);
    expect(shown).toBe(`${'é'.repeat(79)}😀…`);
    expect(shown).not.toContain('\ufffd');
    // 80 code points in 81 units: whole.
    expect(keyShown(`${'é'.repeat(79)}😀`)).toBe(`${'é'.repeat(79)}😀`);
  });
});
