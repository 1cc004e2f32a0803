import { describe, expect, it } from 'vitest';
import {
  codePointLength,
  describeValue,
  formatPath,
  isWellFormedText,
  toFieldErrors,
} from './field-issues.js';

describe('field-issues', () => {
  it('formats dotted paths with indexes', () => {
    expect(formatPath(['meta', 'notifications', 'items', 2, 'title'])).toBe(
      'meta.notifications.items[2].title',
    );
    expect(formatPath(['data', 'items', 0, 'schedule'])).toBe('data.items[0].schedule');
    expect(formatPath([])).toBe('');
    expect(formatPath(['$schema'])).toBe('$schema');
  });

  it('maps issues to FieldErrors', () => {
    expect(toFieldErrors([{ path: ['a', 1], message: 'm', drops: [['a']] }])).toEqual([
      { path: 'a[1]', message: 'm' },
    ]);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('Ran 10k in the rain, legs ok 🏃')).toBe(30);
    expect('Ran 10k in the rain, legs ok 🏃'.length).toBe(31);
  });

  it('detects lone surrogates', () => {
    expect(isWellFormedText('ok 🏃')).toBe(true);
    expect(isWellFormedText('bad \ud83c')).toBe(false);
    expect(isWellFormedText('\udfc3 bad')).toBe(false);
  });

  it('describes values briefly', () => {
    expect(describeValue('x')).toBe('"x"');
    expect(describeValue(undefined)).toBe('nothing');
    expect(describeValue('y'.repeat(100))).toHaveLength(41);
  });
});

describe('describeValue of non-finite numbers', () => {
  it('does not print them as null', () => {
    expect(describeValue(Number.NaN)).toBe('NaN');
    expect(describeValue(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});
