/**
 * An entry form filled from a stored row sends the stored numbers back exactly when nobody typed
 * over them: "96.667" in a whole-number field (step 1) reads as 96 667 when typed (a German
 * thousands point), so filling the field with the number's text and reading it back turned an
 * unchanged save into a write of a value a thousand times larger. A value the person types is
 * still read as typed. A stepper's − and + move such a value by one step, never rounding it to
 * the step's decimals (2.5 with a step of 1 became 4).
 */
import { describe, expect, it } from 'vitest';
import type { InputDescriptor } from '../../src/common/inputs.js';
import { initialValues, stepValue, toEntry } from '../../web/forms/form-values.js';

const inputs: InputDescriptor[] = [
  { key: 'pct', type: 'number', label: 'SpO₂', step: 1, min: 70, max: 100 } as InputDescriptor,
  { key: 'km', type: 'number', label: 'Distance' } as InputDescriptor,
  { key: 'note', type: 'text', label: 'Note' } as InputDescriptor,
];

describe('numbers of a stored row in the entry form', () => {
  it('an edit saved unchanged writes every stored number as it was', () => {
    const row = { date: '2026-04-20', pct: 96.667, km: 5.234, note: 'walk' };
    const values = initialValues(inputs, { row });
    expect(toEntry(inputs, values, { date: row.date })).toEqual(row);
  });

  it('a new entry prefilled from the latest row keeps its numbers too', () => {
    const values = initialValues(inputs, { latest: { date: '2026-04-19', pct: 97.125 }, prefill: true });
    expect(toEntry(inputs, values, { date: '2026-04-20' })).toEqual({ date: '2026-04-20', pct: 97.125 });
  });

  it('what the person types is read as typed', () => {
    const values = { ...initialValues(inputs, { row: { pct: 96.667 } }), pct: '1.500', km: '5,2' };
    expect(toEntry(inputs, values)).toEqual({ pct: 1500, km: 5.2 });
  });
});

describe("a stepper's − and +", () => {
  it('moves a value off the steps by one step, never rounding it to the step', () => {
    expect(stepValue(2.5, 1, 1)).toBe(3.5);
    expect(stepValue(2.5, -1, 1)).toBe(1.5);
    expect(stepValue(96.667, 1, 1, 70, 100)).toBe(97.667);
  });

  it('adds no float tail, and stays within min and max', () => {
    expect(stepValue(0.2, 1, 0.1)).toBe(0.3);
    expect(stepValue(0.7, 1, 0.1)).toBe(0.8);
    expect(stepValue(99.5, 1, 1, 0, 100)).toBe(100);
    expect(stepValue(0, -1, 0.5, 0)).toBe(0);
    expect(stepValue(1, 1, 1e-7)).toBe(1.0000001);
  });
});
