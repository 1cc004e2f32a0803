import { describe, expect, it } from 'vitest';
import { expectDaysOf, gapLimit, segmentsOf, typicalSpacing, withGapBreaks } from './gaps.js';

describe('gaps in a card’s days', () => {
  const daily = ['2026-04-01', '2026-04-02', '2026-04-03', '2026-04-05', '2026-04-06'];

  it('the typical spacing is the median distance between neighbours', () => {
    expect(typicalSpacing(daily)).toBe(1);
    expect(typicalSpacing(['2026-04-01', '2026-04-08', '2026-04-15', '2026-05-20'])).toBe(7);
    expect(typicalSpacing(['2026-04-01'])).toBeUndefined();
    // two readings a day: the day counts once
    expect(typicalSpacing(['2026-04-01', '2026-04-01', '2026-04-02', '2026-04-02', '2026-04-03'])).toBe(1);
  });

  it('the cadence wins over the inferred spacing; a daily card bridges one missed day, not two', () => {
    expect(gapLimit(daily, 7)).toBe(7);
    expect(gapLimit(daily)).toBe(2);
    expect(gapLimit(['2026-04-01', '2026-04-08', '2026-04-15'])).toBe(14);
    expect(gapLimit(['2026-04-01'])).toBe(Number.POSITIVE_INFINITY);
    expect(segmentsOf(daily, gapLimit(daily))).toEqual([[0, 4]]);
    const twoMissed = ['2026-04-01', '2026-04-02', '2026-04-05', '2026-04-06'];
    expect(segmentsOf(twoMissed, gapLimit(twoMissed))).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(segmentsOf([], 2)).toEqual([]);
  });

  it('expectDays is read only when it is a whole number from 1 to 730', () => {
    expect(expectDaysOf({ cadence: { expectDays: 3 } })).toBe(3);
    for (const bad of [0, 731, 2.5, '3', null])
      expect(expectDaysOf({ cadence: { expectDays: bad } })).toBeUndefined();
    expect(expectDaysOf({})).toBeUndefined();
  });

  it('a break column of nulls goes in after each gap, so the drawn line stops there', () => {
    const days = ['2026-04-01', '2026-04-02', '2026-04-20', '2026-04-21'];
    const out = withGapBreaks(
      days,
      [
        [1, 2, 3, 4],
        [null, 5, 6, null],
      ],
      3,
    );
    expect(out).toEqual({
      days: ['2026-04-01', '2026-04-02', '2026-04-03', '2026-04-20', '2026-04-21'],
      values: [
        [1, 2, null, 3, 4],
        [null, 5, null, 6, null],
      ],
      breaks: 1,
    });
    expect(withGapBreaks(days, [[1, 2, 3, 4]], 30).breaks).toBe(0);
  });
});
