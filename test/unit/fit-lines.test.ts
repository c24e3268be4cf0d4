// Help topics are written as text with tables; fitLines wraps only what does not fit.
import { describe, expect, it } from 'vitest';
import { fitLines } from '../../src/help/wrap.js';

describe('fitLines', () => {
  it('leaves lines that fit as they are', () => {
    expect(fitLines('short\n  indented\n\nlast', 20)).toBe('short\n  indented\n\nlast');
  });

  it('wraps a table row under its description column, and prose under its indent', () => {
    const row = '  sct config profiles     the profiles: the current one marked *, the base URL';
    expect(fitLines(row, 50)).toBe(['  sct config profiles     the profiles: the', '                          current one marked *,', '                          the base URL'].join('\n'));
    const prose = 'Precedence: --base-url > SCT_BASE_URL > profile; SCT_TOKEN > profile';
    expect(fitLines(prose, 30)).toBe(['Precedence: --base-url >', 'SCT_BASE_URL > profile;', 'SCT_TOKEN > profile'].join('\n'));
    for (const line of fitLines(`${row}\n${prose}`, 30).split('\n')) expect(line.length).toBeLessThanOrEqual(30);
  });

  it('never splits a word: one longer than the line stays whole', () => {
    expect(fitLines('see https://example.com/a/very/long/address/indeed now', 20)).toBe('see\nhttps://example.com/a/very/long/address/indeed\nnow');
  });
});

describe('fitLines, paragraphs', () => {
  it('fills a paragraph with a line too long again, under its indent; one that fits stays as written', () => {
    const text = ['  A profile holds base_url, token, workspace and output; --profile NAME picks one', '  (default "default").', '', '  fits', '  too'].join('\n');
    expect(fitLines(text, 40)).toBe(['  A profile holds base_url, token,', '  workspace and output; --profile NAME', '  picks one (default "default").', '', '  fits', '  too'].join('\n'));
  });
});
