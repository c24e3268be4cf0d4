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

  it('a row whose first column is one character (the exit codes) is a row of its own, never filled into the next', () => {
    const rows = ['  0    success', '  1    the request failed: API error (4xx other than 401, 5xx after retries), network error', '  2    usage error'].join('\n');
    expect(fitLines(rows, 60)).toBe(
      ['  0    success', '  1    the request failed: API error (4xx other than 401,', '       5xx after retries), network error', '  2    usage error'].join('\n'),
    );
  });

  it('a row written on two lines for a wider terminal is filled again as one', () => {
    const rows = ['  1    the request failed: API error (4xx other than 401, 5xx after retries), network error, a', '       rate-limit wait longer than --max-wait', '  2    usage error'].join('\n');
    expect(fitLines(rows, 60)).toBe(
      ['  1    the request failed: API error (4xx other than 401,', '       5xx after retries), network error, a rate-limit wait', '       longer than --max-wait', '  2    usage error'].join('\n'),
    );
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
