import { describe, expect, it } from 'vitest';
import { templateMeta } from '../../test/helpers/templates.js';
import {
  compareSameTime,
  isRunningTotal,
  isSettledWhileRunning,
  minuteOfDay,
  sumEntries,
} from './day-total.js';

describe('running totals', () => {
  it('steps and water add up their day; sleep says its night is complete once logged', () => {
    const running = (id: string) => isRunningTotal(templateMeta(id).view, templateMeta(id));
    expect(running('steps')).toBe(true);
    expect(running('hydration')).toBe(true);
    expect(running('sleep-hours')).toBe(false);
    expect(running('weight')).toBe(false);
    expect(running('bp')).toBe(false);
    expect(isRunningTotal({ runningTotal: true }, {})).toBe(true);
    expect(isRunningTotal({ aggregate: 'sum' }, {})).toBe(true);
  });

  it('the day’s entries become one row: numbers added, the rest from the last entry', () => {
    const rows = [
      { date: '2026-04-20', time: '08:10', glasses: 1, note: 'coffee' },
      { date: '2026-04-20', time: '11:00', glasses: 2 },
      { date: '2026-04-20', time: '13:30', glasses: 0.1, done: true },
    ];
    expect(sumEntries(rows)).toEqual({ date: '2026-04-20', time: '13:30', glasses: 3.1, done: true });
    expect(sumEntries([])).toBeUndefined();
  });

  it('an entry’s minute of the day comes from its time, or from a timestamp date', () => {
    expect(minuteOfDay({ time: '07:30' })).toBe(450);
    expect(minuteOfDay({ date: '2026-04-20T21:05:00+02:00' }, 'date', 'Europe/Berlin')).toBe(21 * 60 + 5);
    expect(minuteOfDay({ date: '2026-04-20T21:05' })).toBe(21 * 60 + 5);
    // an instant is read on the clock of the person's zone, where its day is filed too
    expect(minuteOfDay({ date: '2026-04-21T03:30:00Z' }, 'date', 'America/Los_Angeles')).toBe(20 * 60 + 30);
    expect(minuteOfDay({ date: '2026-04-20T21:05:00+02:00' }, 'date', 'America/New_York')).toBe(15 * 60 + 5);
    expect(minuteOfDay({ date: '2026-04-20 23:59:30+0000' }, 'date', 'Asia/Kolkata')).toBe(5 * 60 + 29);
    expect(minuteOfDay({ date: '2026-04-20T25:00' })).toBeNull();
    expect(minuteOfDay({ date: '2026-04-20' })).toBeNull();
    expect(minuteOfDay({ time: '25:00' })).toBeNull();
  });

  it('today so far is compared with yesterday up to the same minute, not with all of yesterday', () => {
    const today = [
      { date: '2026-04-20', time: '08:00', glasses: 1 },
      { date: '2026-04-20', time: '10:00', glasses: 2 },
    ];
    const yesterday = [
      { date: '2026-04-19', time: '07:00', glasses: 1 },
      { date: '2026-04-19', time: '09:00', glasses: 1 },
      { date: '2026-04-19', time: '18:00', glasses: 4 },
    ];
    // at 11:00: 3 so far against 2 by 11:00 yesterday (yesterday's whole 6 would read as "down")
    expect(compareSameTime(today, yesterday, 'glasses', 11 * 60)).toEqual({
      dir: 'up',
      delta: 1,
      prev: 2,
      decimals: 0,
    });
    // yesterday's entries without a time: no fair comparison
    expect(compareSameTime(today, [{ date: '2026-04-19', glasses: 6 }], 'glasses', 660)).toBeNull();
    expect(compareSameTime(today, [], 'glasses', 660)).toBeNull();
  });

  it('only a threshold a growing total cannot leave shows before the day is over', () => {
    expect(isSettledWhileRunning({ ifField: 'count', min: 8000, label: 'Goal reached' })).toBe(true);
    expect(isSettledWhileRunning({ label: 'Quiet day' })).toBe(false);
    expect(isSettledWhileRunning({ ifField: 'count', max: 3999 })).toBe(false);
    expect(isSettledWhileRunning({ ifField: 'count', min: 1, max: 3999 })).toBe(false);
    expect(isSettledWhileRunning({ ifField: 'count', eq: 0 })).toBe(false);
  });
});
