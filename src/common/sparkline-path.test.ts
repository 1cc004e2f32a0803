import { describe, expect, it } from 'vitest';
import { sparklinePath } from './sparkline-path.js';

const runs = (d: string) =>
  d
    .split('M')
    .filter(Boolean)
    .map((r) => r.trim());

describe('the sparkline path', () => {
  it('breaks the line across a gap longer than the limit, one run each side', () => {
    const pts = [
      { date: '2026-04-01', value: 80 },
      { date: '2026-04-02', value: 79.9 },
      { date: '2026-04-20', value: 79 },
      { date: '2026-04-21', value: 78.9 },
    ];
    const { d, last } = sparklinePath(pts, 3, 120, 32);
    expect(runs(d)).toHaveLength(2);
    expect(d.startsWith('M2.0 ')).toBe(true);
    expect(last[0]).toBe('118.0');
    // placed by date: the second run starts near the right end, not in the middle
    expect(Number(runs(d)[1].split(' ')[0])).toBeGreaterThan(100);
    expect(runs(sparklinePath(pts, 30, 120, 32).d)).toHaveLength(1);
  });

  it('a lone point is a dot: a run from the point to itself', () => {
    const { d } = sparklinePath([{ date: '2026-04-01', value: 5 }], 2, 120, 32);
    expect(d).toBe('M60.0 29.0 L60.0 29.0');
  });

  it('two readings of a day stand side by side in their order, not on top of each other', () => {
    const pts = [
      { date: '2026-04-01', value: 124 },
      { date: '2026-04-01', value: 131 },
      { date: '2026-04-02', value: 122 },
      { date: '2026-04-02', value: 129 },
    ];
    const xs = runs(sparklinePath(pts, 2, 120, 32).d)[0]
      .split(' L')
      .map((p) => Number(p.trim().split(' ')[0]));
    expect(xs).toHaveLength(4);
    expect(new Set(xs).size).toBe(4);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  });
});
