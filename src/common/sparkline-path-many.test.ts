import { describe, expect, it } from 'vitest';
import { compareSameTime } from './day-total.js';
import { sparklinePath } from './sparkline-path.js';

// Safari stops a call at 65 536 arguments and V8 near 120 000: a spread over every reading
// (`Math.min(...values)`) threw on a card with that many, and the card failed to draw
const MANY = 200_000;

describe('many readings', () => {
  it('the sparkline of a card with 200 000 readings has its bounds', () => {
    const points = Array.from({ length: MANY }, (_, i) => ({ date: '2026-05-01', value: i % 7 }));
    const { d, last } = sparklinePath(points, 3, 120, 32);
    expect(d.startsWith('M')).toBe(true);
    expect(last).toEqual(['118.0', expect.any(String)]);
  });

  it("today's running total against yesterday's at the same time, 200 000 entries", () => {
    const today = Array.from({ length: MANY }, () => ({ date: '2026-05-02T08:00', n: 1.5 }));
    const before = [{ date: '2026-05-01T07:00', n: 10 }];
    const c = compareSameTime(today, before, 'n', 9 * 60);
    expect(c).toMatchObject({ dir: 'up', delta: 299_990 });
  });
});
