import { describe, expect, it } from 'vitest';
import { unitPrefix, utf8Prefix } from './utf8-prefix.js';

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe('utf8Prefix', () => {
  it('keeps a text that fits', () => {
    expect(utf8Prefix('Hämoglobin', 11)).toBe('Hämoglobin');
  });

  it.each([
    ['ü at the cut', 'aaüb', 3, 'aa'],
    ['€ at the cut', 'a€b', 3, 'a'],
    ['an emoji at the cut', 'ok 🏃 go', 5, 'ok '],
    ['a family at the cut', 'x👨‍👩‍👧‍👦y', 12, 'x'],
    ['a flag at the cut', 'a🇳🇿b', 6, 'a'],
    ['an accent written apart', 'cafe\u0301!', 5, 'caf'],
  ])('%s: cut before it, never inside', (_what, text, max, want) => {
    const got = utf8Prefix(text, max);
    expect(got).toBe(want);
    expect(bytes(got)).toBeLessThanOrEqual(max);
    expect(got.isWellFormed()).toBe(true);
    expect(got).not.toContain('\uFFFD');
  });

  it('a long text of two-byte letters is cut to at most the bytes, whole letters only', () => {
    const text = 'Größe Übergewicht '.repeat(20_000);
    const got = utf8Prefix(text, 200_000);
    expect(bytes(got)).toBeLessThanOrEqual(200_000);
    expect(bytes(got)).toBeGreaterThan(199_990);
    expect(text.startsWith(got)).toBe(true);
  });
});

describe('unitPrefix', () => {
  it('keeps a text that fits', () => {
    expect(unitPrefix('Hämoglobin 🏃', 13)).toBe('Hämoglobin 🏃');
  });

  it.each([
    ['between the halves of an emoji', 'ok 🏃 go', 4, 'ok '],
    ['inside a family', 'x👨‍👩‍👧‍👦y', 6, 'x'],
    ['between two flags', '🇳🇿🇦🇺', 6, '🇳🇿'],
    ['after an accent written apart', 'cafe\u0301!', 4, 'caf'],
  ])('a cut %s falls before the character', (_what, text, max, want) => {
    expect(unitPrefix(text, max)).toBe(want);
  });

  it('a letter under more marks than the window still never leaves half an emoji', () => {
    const text = `🏃${'\u0301'.repeat(300)}`;
    for (const n of [1, 2, 100, 250]) expect(/\p{Cs}/u.test(unitPrefix(text, n))).toBe(false);
  });
});
