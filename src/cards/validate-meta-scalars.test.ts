import { describe, expect, it } from 'vitest';
import { formatPath } from './field-issues.js';
import { checkScalarFields } from './validate-meta-scalars.js';

const errs = (top: Record<string, unknown>, meta: Record<string, unknown>) =>
  checkScalarFields(top, meta).map((i) => ({ path: formatPath(i.path), message: i.message }));

describe('checkScalarFields', () => {
  it('accepts valid and absent fields, negative orders', () => {
    expect(errs({}, {})).toEqual([]);
    expect(errs({ description: 'x' }, { emoji: '💓', order: -100, enabled: false })).toEqual([]);
  });

  it('rejects each bad field, naming it', () => {
    expect(errs({}, { emoji: 1 })).toEqual([
      { path: 'meta.emoji', message: 'meta.emoji must be a string, got 1' },
    ]);
    for (const order of [1.5, '10', Number.POSITIVE_INFINITY, Number.NaN, null]) {
      expect(errs({}, { order })[0].message).toMatch(/^meta\.order must be an integer, got /);
    }
    expect(errs({}, { enabled: 'false' })).toEqual([
      { path: 'meta.enabled', message: 'meta.enabled must be a boolean, got "false"' },
    ]);
    expect(errs({ description: ['x'] }, {})).toEqual([
      { path: 'description', message: 'description must be a string, got ["x"]' },
    ]);
  });
});
