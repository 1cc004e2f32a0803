/** withPatientTierUp: the call's value or error passes through, nested calls included. */
import { describe, expect, it } from 'vitest';
import { withPatientTierUp } from './patient-tier-up.js';

describe('withPatientTierUp', () => {
  it("returns the function's value, also from nested calls", () => {
    expect(withPatientTierUp(() => withPatientTierUp(() => 41) + 1)).toBe(42);
  });

  it('passes an error on, and later calls still run', () => {
    expect(() =>
      withPatientTierUp(() => {
        throw new RangeError('boom');
      }),
    ).toThrow(RangeError);
    expect(withPatientTierUp(() => 'again')).toBe('again');
  });
});
