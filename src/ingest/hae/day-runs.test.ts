import { describe, expect, it } from 'vitest';
import { addRunDays, dayRuns } from './day-runs.js';

describe('runs of days', () => {
  it('keeps consecutive days as one run across month and year ends, and lone days alone', () => {
    const days = [
      '2024-12-30',
      '2024-12-31',
      '2025-01-01',
      '2025-02-28',
      '2025-03-01',
      '2025-03-05',
      '2024-02-29',
    ];
    expect(dayRuns(days)).toEqual([
      '2024-02-29',
      '2024-12-30/2025-01-01',
      '2025-02-28/2025-03-01',
      '2025-03-05',
    ]);
    const back = new Set<string>();
    addRunDays(back, dayRuns(days));
    expect([...back].sort()).toEqual([...days].sort());
  });

  it('expands a run written backwards to its first day only', () => {
    const out = new Set<string>();
    addRunDays(out, ['2025-03-05/2025-03-01']);
    expect([...out]).toEqual(['2025-03-05']);
  });
});
