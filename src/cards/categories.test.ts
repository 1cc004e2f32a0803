import { describe, expect, it } from 'vitest';
import { checkCategory, isKnownCategory, KNOWN_CATEGORIES } from './categories.js';

describe('categories', () => {
  it('knows the docs/MANIFEST-SCHEMA.md enum', () => {
    expect(KNOWN_CATEGORIES).toHaveLength(9);
    expect(isKnownCategory('vitals')).toBe(true);
    expect(isKnownCategory('health')).toBe(false);
    expect(isKnownCategory(3)).toBe(false);
  });

  it.each(['vitals', 'health', 'example', 'a', 'x'.repeat(32), 'gut-health-2'])('accepts slug %s', (c) => {
    expect(checkCategory(c, ['meta', 'category'])).toEqual([]);
  });

  it('accepts an absent category', () => {
    expect(checkCategory(undefined, ['meta', 'category'])).toEqual([]);
  });

  it.each(['', 'Vitals', 'x'.repeat(33), 'a b', 'a_b', 7, null, ['sleep']])(
    'rejects %j at meta.category',
    (c) => {
      const [issue, ...rest] = checkCategory(c, ['meta', 'category']);
      expect(rest).toEqual([]);
      expect(issue.path).toEqual(['meta', 'category']);
      expect(issue.drops).toEqual([['meta', 'category']]);
      expect(issue.message).toMatch(/^meta\.category must be a slug of 1-32 characters/);
    },
  );
});
