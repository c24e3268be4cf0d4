import { describe, expect, it } from 'vitest';
import { codePageLoss } from '../../src/sync/plan.js';

describe('a text a code page spoilt: letters outside ASCII written as "?"', () => {
  it.each([
    ['Farm Ph?m 16 (??k L?k)', 'Farm Phạm 16 (Đắk Lắk)', true],
    // Windows writes one "?" per UTF-16 unit: an emoji is "??"; Python one per code point.
    ['Farm ?? Green', 'Farm 🌱 Green', true],
    ['Farm ? Green', 'Farm 🌱 Green', true],
    // Decomposed on the service: a "?" per accent.
    ['Farm Tra??n', 'Farm Trần'.normalize('NFD'), true],
    ['Café Nguy?n', 'Café Nguyễn', true],
    // Edits, not losses.
    ['Farm Kept?', 'Farm Kept', false],
    ['Farm ? Green', 'Farm A Green', false],
    ['Farm Phạm', 'Farm Phạm', false],
    ['Farm Ph?m (new)', 'Farm Phạm', false],
    ['a.b?', 'a.bé', true],
    ['a+b?', 'a.bé', false],
  ])('%s against %s: %s', (text, was, lost) => expect(codePageLoss(text, was)).toBe(lost));

  it('is linear in the text: many emoji and a text that differs beside them answer at once', () => {
    expect(codePageLoss(`${'?'.repeat(68)} edited`, `${'🍫'.repeat(34)}x`)).toBe(false);
    expect(codePageLoss('?'.repeat(68), '🍫'.repeat(34))).toBe(true);
    expect(codePageLoss('?'.repeat(34), '🍫'.repeat(34))).toBe(true);
  });

  it('compares lists as sets (tags): order and repeats mean nothing', () => {
    expect(codePageLoss(['eudr', '??k L?k'], ['Đắk Lắk', 'eudr'])).toBe(true);
    expect(codePageLoss(['??k L?k', 'eudr', 'eudr'], ['Đắk Lắk', 'eudr'])).toBe(true);
    expect(codePageLoss(['?? green', 'eudr'], ['🌱 green', 'eudr'])).toBe(true);
    expect(codePageLoss(['eudr', 'organic'], ['Đắk Lắk', 'eudr'])).toBe(false);
    expect(codePageLoss(['??k L?k'], ['Đắk Lắk', 'eudr'])).toBe(false);
    expect(codePageLoss(['eudr'], ['eudr'])).toBe(false);
  });
});
