import { describe, expect, it } from 'vitest';
import { foldCase, unfoldedSpan } from './case-fold.js';

describe('foldCase', () => {
  it('folds letters to more than one, the final sigma and the dot of a capital İ', () => {
    expect(foldCase('Straße GROẞ ﬁne')).toBe('strasse gross fine');
    expect(foldCase('İstanbul')).toBe('istanbul');
    expect(foldCase('I\u0307stanbul')).toBe('istanbul');
    expect(foldCase('ΟΔΟΣ οδος')).toBe('οδοσ οδοσ');
    expect(foldCase('Plain ASCII')).toBe('plain ascii');
    expect(foldCase('😀 Ä')).toBe('😀 ä');
  });
});

describe('unfoldedSpan', () => {
  it('maps a match in the folded text back to the original, whatever lengths folding changed', () => {
    const text = 'ßßß İx 😀 STRASSE';
    const folded = foldCase(text);
    for (const needle of ['x', 'strasse', 'ssss', 'i', '😀 s']) {
      const at = folded.indexOf(needle);
      const span = unfoldedSpan(text, at, needle.length);
      expect(foldCase(text.slice(span.at, span.at + span.length))).toContain(needle);
    }
    expect(unfoldedSpan(text, folded.indexOf('x'), 1)).toEqual({ at: text.indexOf('x'), length: 1 });
    // a match starting inside the folding of ß takes the whole letter
    expect(unfoldedSpan('aßb', 2, 2)).toEqual({ at: 1, length: 2 });
  });
});
