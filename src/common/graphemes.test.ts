import { describe, expect, it } from 'vitest';
import {
  clipGraphemes,
  ELLIPSIS,
  graphemeAt,
  graphemeLength,
  headGraphemes,
  MAX_UNITS_PER_CHARACTER,
  overLimit,
  splitGraphemes,
  splitGraphemesFallback,
  truncateGraphemes,
} from './graphemes.js';

const wellFormed = (s: string): boolean => !/\p{Cs}/u.test(s) && !s.includes('\uFFFD');

const SAMPLES: [string, string[]][] = [
  ['👨‍👩‍👧 ok', ['👨‍👩‍👧', ' ', 'o', 'k']],
  ['🇳🇿🇦🇺x', ['🇳🇿', '🇦🇺', 'x']],
  ['👍🏽!', ['👍🏽', '!']],
  ['e\u0301a', ['e\u0301', 'a']],
  ['🏴󠁧󠁢󠁳󠁣󠁴󠁿!', ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', '!']],
  ['❤️x', ['❤️', 'x']],
  ['a\r\nb', ['a', '\r\n', 'b']],
  ['', []],
];

describe('splitGraphemes', () => {
  it.each(SAMPLES)('keeps clusters of %j together', (s, expected) => {
    expect(splitGraphemes(s)).toEqual(expected);
    expect(graphemeLength(s)).toBe(expected.length);
  });

  it.each(SAMPLES)('the fallback without Intl.Segmenter agrees on %j', (s, expected) => {
    expect(splitGraphemesFallback(s)).toEqual(expected);
  });
});

describe('truncateGraphemes', () => {
  const S = 'Ran 10k in the rain, legs ok 🏃 but knee sore later';

  it('cuts a note with a runner emoji after the emoji, not inside it', () => {
    expect(S.length).toBe(51);
    expect(graphemeLength(S)).toBe(50);
    const out = truncateGraphemes(S, 30);
    expect(out).toBe('Ran 10k in the rain, legs ok 🏃…');
    expect(wellFormed(out)).toBe(true);
    expect(JSON.stringify(out)).not.toMatch(/\\ud83c/i);
  });

  it('counts a 30-character title with an emoji as 30', () => {
    const title = 'Ran 10k in the rain, legs ok 🏃';
    expect(truncateGraphemes(title, 30)).toBe(title);
  });

  it('never splits a ZWJ family, a flag, a skin tone or a combining mark at any cut', () => {
    const s = 'ab👨‍👩‍👧cd🇳🇿e👍🏽fe\u0301g';
    for (let n = 0; n <= graphemeLength(s) + 1; n++) {
      const out = truncateGraphemes(s, n);
      expect(wellFormed(out)).toBe(true);
      const kept = out.endsWith(ELLIPSIS) && out !== s ? out.slice(0, -1) : out;
      expect(s.startsWith(kept)).toBe(true);
      expect(splitGraphemes(kept)).toEqual(splitGraphemes(s).slice(0, Math.min(n, graphemeLength(s))));
    }
  });

  it('leaves short text alone and handles odd limits', () => {
    expect(truncateGraphemes('short', 80)).toBe('short');
    expect(truncateGraphemes('exactly', 7)).toBe('exactly');
    expect(truncateGraphemes('abc', 0)).toBe('…');
    expect(truncateGraphemes('abc', -2)).toBe('…');
    expect(truncateGraphemes('', 0)).toBe('');
    expect(truncateGraphemes('abcdef', 3, '...')).toBe('abc...');
  });
});

describe('limits in characters also bound the UTF-16 units', () => {
  const stacked = (marks: number) => `a${'\u0301'.repeat(marks)}`;

  it('one letter under 10,000 combining marks is one cluster, yet over any short limit', () => {
    expect(graphemeLength(stacked(10_000))).toBe(1);
    expect(overLimit(stacked(10_000), 280)).toBe('too long');
    expect(overLimit('a'.repeat(281), 280)).toBe(281);
    expect(overLimit('👨‍👩‍👧‍👦'.repeat(280), 280)).toBeNull();
  });

  it.each([
    ['clip', (s: string) => clipGraphemes(s, 120)],
    ['head', (s: string) => headGraphemes(s, 120)],
    ['truncate', (s: string) => truncateGraphemes(s, 120)],
  ])('%s never keeps a huge cluster whole, nor splits it', (_name, cut) => {
    for (const text of [stacked(10_000), `Title ${stacked(10_000)} end`, `x${stacked(1_000)}`.repeat(50)]) {
      const out = cut(text);
      expect(out.length).toBeLessThanOrEqual(120 * MAX_UNITS_PER_CHARACTER);
      expect(wellFormed(out)).toBe(true);
      const kept = out.endsWith(ELLIPSIS) ? out.slice(0, -1) : out;
      expect(text.startsWith(kept)).toBe(true);
      expect(splitGraphemes(kept)).toEqual(splitGraphemes(text).slice(0, graphemeLength(kept)));
    }
  });
});

describe('graphemeAt', () => {
  it.each([
    ['ab🏃c', 2, '🏃'],
    ['ab🏃c', 3, '🏃'],
    ['a👨‍👩‍👧b', 1, '👨‍👩‍👧'],
    ['e\u0301x', 0, 'e\u0301'],
    ['abc', 3, ''],
    [`+${'\u0301'.repeat(100)}`, 0, '+'],
  ])('%j at %i is %j', (s, i, want) => {
    expect(graphemeAt(s, i)).toBe(want);
  });
});

describe('long texts are segmented a window at a time, with the clusters of the whole text', () => {
  const whole = (s: string) =>
    [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((p) => p.segment);
  const kinds = ['a', '😀', '𠀋', '👨‍👩‍👧', '🇳🇿', '👍🏽', 'é', '\r\n', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', 'क्षि', '각', ' '];

  it('gives the same clusters across every window boundary, for every kind of character', () => {
    // a few thousand units, each kind at every offset against the windows
    let s = '';
    for (let i = 0; i < 1200; i++) s += kinds[(i * 7 + (i >> 3)) % kinds.length];
    expect(s.length).toBeGreaterThan(2000);
    expect(splitGraphemes(s)).toEqual(whole(s));
    expect(graphemeLength(s)).toBe(whole(s).length);
    for (const k of kinds) {
      const run = k.repeat(400);
      expect(graphemeLength(run)).toBe(400);
    }
  });

  it('a run of flags stays paired whatever the windows', () => {
    const s = `🇳${'🇳🇿'.repeat(300)}`;
    expect(splitGraphemes(s)).toEqual(whole(s));
  });

  it('a cluster longer than a window is one cluster', () => {
    const s = `x${'e'}${'\u0301'.repeat(700)}y`;
    expect(splitGraphemes(s)).toEqual(whole(s));
  });

  it('counts 100 000 emoji as 100 000 (Intl.Segmenter over the whole text takes minutes)', () => {
    expect(graphemeLength('😀'.repeat(100_000))).toBe(100_000);
    expect(overLimit('😀'.repeat(100_000), 100_000)).toBeNull();
    expect(overLimit('😀'.repeat(100_001), 100_000)).toBe(100_001);
  });
});
