import { describe, expect, it } from 'vitest';
import { withDoses } from '../../test/fixtures/dose-history.js';
import { readTemplate } from '../../test/helpers/templates.js';
import { addDays } from './dates.js';
import {
  adherence,
  dailyShares,
  dayText,
  describeSchedule,
  doseSlots,
  dosesDue,
  dosesOn,
  dosesPath,
  dueItems,
  groupItems,
  inCycles,
  isDue,
  isItemDue,
  itemName,
  readSchedule,
  scheduleItems,
  takenCount,
  trackedSince,
  weekdayNumber,
} from './schedule.js';

type Item = { name: string; [key: string]: unknown };
type ScheduleData = { items?: Item[]; current?: Item[] };
const templateData = (id: string) => readTemplate(id).data as ScheduleData;

/**
 * Vitamin D3 (daily) and Omega-3 (every 2 days from 1 January) of the supplements template, with
 * doses at +10:00: vitamin D taken on 28 and 29 April and marked missed on the 30th; omega-3
 * taken on Tuesday 28 April, a day it is not due.
 */
function twoSupplements(): { current: Item[] } {
  const data = withDoses(
    templateData('supplements'),
    {
      'Vitamin D3': [
        ['2026-04-28', '07:12'],
        ['2026-04-29', '07:04'],
        ['2026-04-30', null],
      ],
      'Omega-3': [['2026-04-28', '07:30']],
    },
    '+10:00',
  );
  return { current: (data.current ?? []).filter((i) => i.name === 'Vitamin D3' || i.name === 'Omega-3') };
}

/** The days from `from` (inclusive) on which `item` is due, over `n` days. */
function dueDays(item: unknown, from: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = addDays(from, i);
    if (isItemDue(item, d)) out.push(d);
  }
  return out;
}

describe('weekday names', () => {
  it('reads three-letter, full and longer abbreviations, any case', () => {
    expect(['Mon', 'monday', 'TUE', 'tues', 'Thurs', 'sun', 'Saturday'].map(weekdayNumber)).toEqual([
      1, 1, 2, 2, 4, 0, 6,
    ]);
    expect(['', 'mo', 'monkey', 7, null].map(weekdayNumber)).toEqual([null, null, null, null, null]);
  });
});

describe('isDue by type', () => {
  it('daily is due every day; daily with off_days skips them', () => {
    expect(dueDays({ schedule: { type: 'daily' } }, '2026-04-20', 7)).toHaveLength(7);
    // 2026-04-25 is a Saturday, 04-26 a Sunday
    expect(dueDays({ schedule: { type: 'daily', off_days: ['Sat', 'Sunday'] } }, '2026-04-20', 7)).toEqual([
      '2026-04-20',
      '2026-04-21',
      '2026-04-22',
      '2026-04-23',
      '2026-04-24',
    ]);
  });

  it('weekly follows on_days; without them, the weekday of the start date', () => {
    expect(
      dueDays({ schedule: { type: 'weekly', on_days: ['Mon', 'Wed', 'Fri'] } }, '2026-04-20', 7),
    ).toEqual(['2026-04-20', '2026-04-22', '2026-04-24']);
    expect(dueDays({ schedule: { type: 'weekly', start_date: '2026-04-23' } }, '2026-04-20', 14)).toEqual([
      '2026-04-23',
      '2026-04-30',
    ]);
  });

  it('every 2 days from 27 March 2026 is due on 27, 29, 31 March, across the DST change', () => {
    const item = {
      name: 'Vitamin D',
      schedule: { type: 'every_n_days', interval_days: 2, start_date: '2026-03-27' },
    };
    expect(dueDays(item, '2026-03-27', 6)).toEqual(['2026-03-27', '2026-03-29', '2026-03-31']);
    expect(dueDays(item, '2026-03-20', 7)).toEqual([]);
  });

  it('from 23 October 2026 (autumn change) it is due on 23, 25, 27 October only', () => {
    const item = {
      name: 'Vitamin D',
      schedule: { type: 'every_n_days', interval_days: 2, start_date: '2026-10-23' },
    };
    expect(dueDays(item, '2026-10-23', 6)).toEqual(['2026-10-23', '2026-10-25', '2026-10-27']);
  });

  it('on_off with day counts repeats from the anchor; with weekdays it is a weekday rule', () => {
    const item = { schedule: { type: 'on_off', on_days: 2, off_days: 1, start_date: '2026-04-20' } };
    expect(dueDays(item, '2026-04-18', 8)).toEqual(['2026-04-20', '2026-04-21', '2026-04-23', '2026-04-24']);
    expect(dueDays({ schedule: { type: 'on_off', on_days: ['Tue'] } }, '2026-04-20', 7)).toEqual([
      '2026-04-21',
    ]);
  });

  it('phased: loading days for its weeks, then maintenance days', () => {
    const item = {
      schedule: {
        type: 'phased',
        start_date: '2026-04-20',
        loading: { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], duration_weeks: 1 },
        maintenance: { days: ['Mon'] },
      },
    };
    expect(dueDays(item, '2026-04-19', 16)).toEqual([
      '2026-04-20',
      '2026-04-21',
      '2026-04-22',
      '2026-04-23',
      '2026-04-24',
      '2026-04-27',
      '2026-05-04',
    ]);
    // a count N: the first N days of every week from the anchor
    const counted = {
      schedule: { type: 'phased', start_date: '2026-04-20', loading: { days: 2, duration_weeks: 2 } },
    };
    expect(dueDays(counted, '2026-04-20', 14)).toEqual([
      '2026-04-20',
      '2026-04-21',
      '2026-04-27',
      '2026-04-28',
    ]);
  });

  it('as_needed is never due', () => {
    expect(dueDays({ schedule: { type: 'as_needed' } }, '2026-04-20', 7)).toEqual([]);
  });

  it('isDue takes a bare schedule object too (the adherence-report interface)', () => {
    expect(isDue({ type: 'weekly', on_days: ['Mon'] }, '2026-04-20')).toBe(true);
    expect(isDue({ type: 'weekly', on_days: ['Mon'] }, '2026-04-21')).toBe(false);
    expect(isDue({ type: 'daily' }, 'not a date')).toBe(false);
  });
});

describe('legacy keys', () => {
  it('frequency, nDays/every, startDate, dayOfWeek, timesPerDay and flat item keys', () => {
    expect(
      readSchedule({ schedule: { frequency: 'every_n_days', nDays: 3, startDate: '2026-04-20' } }),
    ).toMatchObject({
      type: 'every_n_days',
      intervalDays: 3,
      anchor: '2026-04-20',
    });
    expect(readSchedule({ schedule: { frequency: 'every_n_days', every: 4 } }).intervalDays).toBe(4);
    expect(readSchedule({ schedule: { frequency: 'weekly', dayOfWeek: 'Thu' } }).onDays).toEqual([4]);
    expect(readSchedule({ schedule: { timesPerDay: 3 } }).timesPerDay).toBe(3);
    // flat on the item, no schedule object
    const flat = { name: 'Fish oil', frequency: 'weekly', dayOfWeek: 'Thu' };
    expect(dueDays(flat, '2026-04-20', 7)).toEqual(['2026-04-23']);
  });

  it('unknown or missing types read as daily; bad counts fall back to defaults', () => {
    expect(readSchedule({ schedule: { type: 'fortnightly', times_per_day: 'lots' } })).toMatchObject({
      type: 'daily',
      timesPerDay: 1,
    });
    expect(readSchedule(null).type).toBe('daily');
    expect(readSchedule({ schedule: { times_per_day: 100000 } }).timesPerDay).toBe(24);
  });
});

describe('cycles and active', () => {
  it('the medication template with a week-long course: due only inside its on cycle', () => {
    const data = templateData('medication-schedule');
    const course = {
      name: 'Amoxicillin',
      dose: '500 mg',
      schedule: { type: 'daily', times_per_day: 3 },
      cycles: [{ type: 'on', start: '2026-04-10', end: '2026-04-16' }],
      doses: [],
    };
    data.items?.push(course);
    expect(isItemDue(course, '2026-04-09')).toBe(false);
    expect(isItemDue(course, '2026-04-10')).toBe(true);
    expect(isItemDue(course, '2026-04-16')).toBe(true);
    expect(isItemDue(course, '2026-04-17')).toBe(false);
    expect(dosesDue(course, '2026-04-13')).toBe(3);
    expect(dosesDue(data.items?.[1], '2026-04-13')).toBe(2);
    // Monday 13 April: the daily ones and the course; Saturday 18th: the weekly one, no course
    expect(dueItems(data, '2026-04-13').map((r) => r.item.name)).toEqual([
      'Levothyroxine',
      'Ramipril',
      'Atorvastatin',
      'Amoxicillin',
    ]);
    expect(dueItems(data, '2026-04-18').map((r) => r.item.name)).toEqual([
      'Levothyroxine',
      'Ramipril',
      'Atorvastatin',
      'Methotrexate',
    ]);
  });

  it('an off cycle wins; items with active: false are never due', () => {
    const item = {
      schedule: { type: 'daily' },
      cycles: [{ type: 'off', start: '2026-04-21', end: '2026-04-22' }],
    };
    expect(dueDays(item, '2026-04-20', 4)).toEqual(['2026-04-20', '2026-04-23']);
    expect(inCycles({ cycles: [{ type: 'on', start: '2026-04-01' }] }, '2099-01-01')).toBe(true);
    expect(isItemDue({ schedule: { type: 'daily' }, active: false }, '2026-04-20')).toBe(false);
  });

  it('every_n_days without start_date is anchored at the earliest cycle start', () => {
    const item = {
      schedule: { type: 'every_n_days', interval_days: 3 },
      cycles: [{ type: 'on', start: '2026-04-02' }],
    };
    expect(dueDays(item, '2026-04-01', 8)).toEqual(['2026-04-02', '2026-04-05', '2026-04-08']);
  });
});

describe('doses', () => {
  const [vitD, omega] = twoSupplements().current;

  it('slots: times of day in day order, then numbered doses', () => {
    expect(doseSlots({ schedule: { time_of_day: ['evening', 'morning'] } })).toEqual(['morning', 'evening']);
    expect(doseSlots({ schedule: { times_per_day: 3, time_of_day: 'night' } })).toEqual([
      'night',
      'Dose 2',
      'Dose 3',
    ]);
    expect(doseSlots({ schedule: { type: 'daily' } })).toEqual(['Dose']);
  });

  it('doses of a day: taken and missed (takenAt null) both recorded, only taken counted', () => {
    expect(dosesOn(vitD, '2026-04-30')).toHaveLength(1);
    expect(takenCount(vitD, '2026-04-30')).toBe(0);
    expect(takenCount(vitD, '2026-04-29')).toBe(1);
    // an instant counts on its day in the person's zone, a wall-clock time on the day written
    expect(dayText('2026-04-29T03:30:00Z', 'America/Los_Angeles')).toBe('2026-04-28');
    expect(dayText('2026-04-28T07:12:00+10:00', 'Australia/Brisbane')).toBe('2026-04-28');
    expect(dayText('2026-04-28T23:59')).toBe('2026-04-28');
    expect(dosesOn({ doses: [{ takenAt: '2026-04-28T22:12:00+10:00' }] }, '2026-04-28')).toHaveLength(1);
  });

  it('adherence over a window counts doses due, taken (capped per day) and extra', () => {
    expect(adherence(vitD, '2026-04-28', '2026-04-30')).toEqual({
      scheduled: 3,
      taken: 2,
      extra: 0,
      rate: 2 / 3,
    });
    // every other day: 27 and 29 due; the dose on 28 is extra
    expect(adherence(omega, '2026-04-27', '2026-04-29')).toEqual({
      scheduled: 2,
      taken: 0,
      extra: 1,
      rate: 0,
    });
    expect(adherence(omega, '2026-04-29', '2026-04-28').rate).toBeNull();
  });

  it('a range reaching back decades counts its last ten years, recent doses included', () => {
    const daily = {
      schedule: { type: 'daily' },
      doses: [{ scheduledDate: '2026-04-29', takenAt: '2026-04-29T08:00' }],
    };
    const a = adherence(daily, '1900-01-01', '2026-04-30');
    expect(a.taken).toBe(1);
    expect(a.scheduled).toBeGreaterThan(3600);
    // the same as the last 3660 days asked for alone
    expect(adherence(daily, '2016-04-23', '2026-04-30')).toEqual(a);
  });
});

describe('schedule_history: each day by the schedule of that day', () => {
  // twice a day, morning and evening, until 19 April; once a day on weekdays from 20 April
  const item = {
    name: 'Metformin',
    schedule: { type: 'daily', on_days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start_date: '2026-04-20' },
    schedule_history: [
      {
        until: '2026-04-19',
        schedule: { type: 'daily', time_of_day: ['morning', 'evening'], start_date: '2026-04-01' },
      },
      { until: 'not a day', schedule: { type: 'as_needed' } },
    ],
    doses: [],
  };

  it('is due and asks for doses as the schedule in force that day says', () => {
    expect(dosesDue(item, '2026-04-18')).toBe(2); // a Saturday under the old schedule
    expect(doseSlots(item, '2026-04-19')).toEqual(['morning', 'evening']);
    expect(isItemDue(item, '2026-04-25')).toBe(false); // a Saturday under the new one
    expect(dosesDue(item, '2026-04-20')).toBe(1);
    expect(doseSlots(item)).toEqual(['Dose']);
  });

  it('counts adherence by each day, and tracking from the first schedule', () => {
    expect(adherence(item, '2026-04-18', '2026-04-21')).toMatchObject({ scheduled: 6, taken: 0, extra: 0 });
    expect(trackedSince(item)).toBe('2026-04-01');
  });
});

describe('items and paths', () => {
  it('finds items[] and current[] in an object, scheduled elements of an array', () => {
    const data = { items: [{ name: 'a' }, 'junk'], current: [{ name: 'b' }] };
    expect(scheduleItems(data).map((r) => [r.list, r.index, r.item.name])).toEqual([
      ['items', 0, 'a'],
      ['current', 0, 'b'],
    ]);
    expect(scheduleItems([{ schedule: {} }, { note: 'x' }]).map((r) => r.index)).toEqual([0]);
    expect(scheduleItems(null)).toEqual([]);
  });

  it('row paths pick by a unique name (quoted), else by position', () => {
    const data = { items: [{ name: 'Vitamin "D"' }, { name: 'x' }, { name: 'x' }] };
    const refs = scheduleItems(data);
    expect(dosesPath(data, refs[0])).toBe('items[name="Vitamin \\"D\\""].doses');
    expect(dosesPath(data, refs[2])).toBe('items[index=2].doses');
    expect(dosesPath([{ schedule: {} }], scheduleItems([{ schedule: {} }])[0])).toBe('[index=0].doses');
  });

  it('names items by name, label, title or position', () => {
    expect([itemName({ name: 'a' }, 0), itemName({ label: 'b' }, 1), itemName({}, 2)]).toEqual([
      'a',
      'b',
      'Item 3',
    ]);
  });
});

describe('groupItems', () => {
  it('orders by data.groups, then the ungrouped items', () => {
    const data = {
      groups: [
        { id: 'am', label: 'Morning', items: ['b', 'a'] },
        { id: 'empty', items: ['zzz'] },
      ],
      items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
    };
    const groups = groupItems(data, scheduleItems(data));
    expect(groups.map((g) => [g.label, g.items.map((r) => r.item.name)])).toEqual([
      ['Morning', ['b', 'a']],
      [null, ['c']],
    ]);
    expect(groupItems({ items: [{ name: 'x' }] }, scheduleItems({ items: [{ name: 'x' }] }))).toHaveLength(1);
  });
});

describe('dailyShares', () => {
  it('the share of due doses taken per day, null when nothing is due', () => {
    const data = twoSupplements();
    // 27: vitamin D + omega-3 due, none taken; 28: vitamin D taken (omega-3, not due, is extra);
    // 29: vitamin D taken, omega-3 not; 30: vitamin D missed
    expect(dailyShares(data, '2026-04-30', 4)).toEqual([
      { date: '2026-04-27', share: 0 },
      { date: '2026-04-28', share: 1 },
      { date: '2026-04-29', share: 0.5 },
      { date: '2026-04-30', share: 0 },
    ]);
    expect(dailyShares({ items: [{ schedule: { type: 'as_needed' } }] }, '2026-04-30', 1)).toEqual([
      { date: '2026-04-30', share: null },
    ]);
  });
});

describe('describeSchedule', () => {
  it('says when and how often in a few words', () => {
    expect(describeSchedule({ schedule: { type: 'daily', times_per_day: 4 } })).toBe('Daily · 4 times a day');
    expect(describeSchedule({ schedule: { type: 'weekly', on_days: ['Fri', 'Mon', 'Wed'] } })).toBe(
      'Weekly: Mon, Wed, Fri',
    );
    expect(describeSchedule({ schedule: { type: 'every_n_days', interval_days: 2 } })).toBe(
      'Every other day',
    );
    expect(describeSchedule({ schedule: { type: 'daily', time_of_day: ['evening', 'morning'] } })).toBe(
      'Daily · morning and evening',
    );
    expect(describeSchedule({ schedule: { type: 'on_off', on_days: 5, off_days: 2 } })).toBe(
      '5 days on, 2 off',
    );
    expect(describeSchedule({ schedule: { type: 'as_needed' } })).toBe('As needed');
    expect(
      describeSchedule({ schedule: { type: 'daily', on_days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] } }),
    ).toBe('Weekdays');
  });
});
