import { describe, expect, it } from 'vitest';
import { neighbourDay } from './cards.js';

/** The day before or after, as the Date arithmetic it replaces gives it. */
function byDate(date: string, step: 1 | -1): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : new Date(t + step * 86_400_000).toISOString().slice(0, 10);
}

function* days(from: string, to: string): Generator<string> {
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    yield new Date(t).toISOString().slice(0, 10);
}

describe('neighbourDay', () => {
  it('gives the day before and after as Date arithmetic does, across months, years and leap days', () => {
    const ranges: [string, string][] = [
      ['1999-12-01', '2001-03-31'],
      ['1900-02-20', '1900-03-05'],
      ['2100-02-20', '2100-03-05'],
      ['2400-02-20', '2400-03-05'],
      ['2023-06-17', '2025-04-26'],
      ['1000-01-01', '1000-01-03'],
      ['9999-12-29', '9999-12-31'],
    ];
    let n = 0;
    for (const [from, to] of ranges) {
      for (const d of days(from, to)) {
        expect(neighbourDay(d, 1), d).toBe(byDate(d, 1));
        expect(neighbourDay(d, -1), d).toBe(byDate(d, -1));
        n++;
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  it('leaves what is not a plain date to Date arithmetic', () => {
    for (const d of [
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-1-01',
      '0999-12-31',
      'x',
      '',
    ]) {
      expect(neighbourDay(d, 1), d).toBe(byDate(d, 1));
      expect(neighbourDay(d, -1), d).toBe(byDate(d, -1));
    }
  });
});
