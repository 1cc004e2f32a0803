import { describe, expect, it } from 'vitest';
import { CADENCE_MAX_DAYS } from '../limits.js';
import { formatPath } from './field-issues.js';
import { checkCadence } from './validate-cadence.js';

const AT = ['meta', 'cadence'];

describe('checkCadence', () => {
  it.each([1, 7, CADENCE_MAX_DAYS])('accepts expectDays %d', (d) => {
    expect(checkCadence({ expectDays: d }, AT)).toEqual([]);
  });

  it('accepts an absent block', () => {
    expect(checkCadence(undefined, AT)).toEqual([]);
  });

  it.each([0, -1, CADENCE_MAX_DAYS + 1, 1.5, '7', null, undefined, Number.NaN])(
    'rejects expectDays %j, dropping the whole block',
    (d) => {
      const [issue] = checkCadence({ expectDays: d }, AT);
      expect(formatPath(issue.path)).toBe('meta.cadence.expectDays');
      expect(issue.message).toMatch(
        /^invalid cadence: meta\.cadence\.expectDays must be an integer from 1 to 730/,
      );
      expect(issue.drops).toEqual([AT]);
    },
  );

  it('rejects a non-object block', () => {
    expect(checkCadence(7, AT)[0].message).toBe(
      'invalid cadence: meta.cadence must be an object {expectDays}, got 7',
    );
  });
});
