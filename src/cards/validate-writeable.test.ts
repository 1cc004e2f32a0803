import { describe, expect, it } from 'vitest';
import { formatPath } from './field-issues.js';
import { checkWriteable, WRITEABLE_BOOLEAN_KEYS } from './validate-writeable.js';

const AT = ['meta', 'writeable'];
const errs = (v: unknown) =>
  checkWriteable(v, AT).map((i) => ({ path: formatPath(i.path), message: i.message }));

describe('checkWriteable', () => {
  it('accepts a full block with unknown keys', () => {
    expect(
      errs({
        fromWebapp: true,
        todayAllowed: true,
        pastAllowed: false,
        futureAllowed: false,
        prefillFromLatest: true,
        maxReadingsPerDay: 99,
        requireAny: ['a', 'b'],
        inputs: [
          { key: 'a', type: 'number' },
          { key: 'b', type: 'text' },
        ],
        somethingNew: 'kept',
      }),
    ).toEqual([]);
  });

  it('rejects a non-object block', () => {
    expect(errs(true)).toEqual([
      { path: 'meta.writeable', message: 'meta.writeable must be an object, got true' },
    ]);
  });

  it.each([...WRITEABLE_BOOLEAN_KEYS])('%s must be a boolean', (key) => {
    expect(errs({ [key]: 'true' })).toEqual([
      { path: `meta.writeable.${key}`, message: `meta.writeable.${key} must be a boolean, got "true"` },
    ]);
  });

  it.each([0, -1, 1.5, '3', null])('maxReadingsPerDay %j is rejected', (v) => {
    expect(errs({ maxReadingsPerDay: v })[0].path).toBe('meta.writeable.maxReadingsPerDay');
  });

  it('requireAny must be an array of keys', () => {
    expect(errs({ requireAny: 'a' })[0].path).toBe('meta.writeable.requireAny');
    expect(errs({ requireAny: ['a', 2] })[0].path).toBe('meta.writeable.requireAny');
  });

  it('drops each bad key alone', () => {
    const issues = checkWriteable({ fromWebapp: 1, inputs: [{ key: 'a', type: 'x' }] }, AT);
    expect(issues.map((i) => i.drops)).toEqual([
      [['meta', 'writeable', 'fromWebapp']],
      [['meta', 'writeable', 'inputs', 0]],
    ]);
  });
});
