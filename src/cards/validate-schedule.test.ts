import { describe, expect, it } from 'vitest';
import { formatPath } from './field-issues.js';
import { checkDataSchedules, checkMetaSchedule, checkScheduleTimeOfDay } from './validate-schedule.js';

describe('schedule.time_of_day', () => {
  const at = ['data', 'items', 0, 'schedule'];

  it.each([
    'morning',
    'night',
    ['morning'],
    ['morning', 'evening'],
    ['midday', 'night', 'evening', 'morning'],
  ])('accepts %j', (t) => {
    expect(checkScheduleTimeOfDay({ type: 'daily', time_of_day: t }, at)).toEqual([]);
  });

  it('accepts a schedule without time_of_day', () => {
    expect(checkScheduleTimeOfDay({ frequency: 'daily' }, at)).toEqual([]);
  });

  it.each(['noon', 'Morning', 3, [], ['morning', 'morning'], ['morning', 'brunch'], { morning: true }])(
    'rejects %j',
    (t) => {
      const [issue, ...rest] = checkScheduleTimeOfDay({ time_of_day: t }, at);
      expect(rest).toEqual([]);
      expect(formatPath(issue.path)).toBe('data.items[0].schedule.time_of_day');
      expect(issue.message.startsWith('invalid schedule.time_of_day')).toBe(true);
    },
  );

  it('walks data.items[] and data.current[] of an object data block', () => {
    const data = {
      items: [{ schedule: { time_of_day: 'morning' } }, { schedule: { time_of_day: 'noon' } }],
      current: [{ name: 'mag', schedule: { time_of_day: ['night', 'night'] } }],
    };
    expect(checkDataSchedules(data).map((i) => formatPath(i.path))).toEqual([
      'data.items[1].schedule.time_of_day',
      'data.current[0].schedule.time_of_day',
    ]);
  });

  it('ignores array and primitive data blocks', () => {
    expect(checkDataSchedules([{ schedule: { time_of_day: 'noon' } }])).toEqual([]);
    expect(checkDataSchedules('x')).toEqual([]);
    expect(checkDataSchedules({ items: 'x' })).toEqual([]);
  });

  it('checks the card-level meta.schedule', () => {
    expect(checkMetaSchedule(undefined, ['meta', 'schedule'])).toEqual([]);
    expect(checkMetaSchedule({ type: 'weekly' }, ['meta', 'schedule'])).toEqual([]);
    expect(formatPath(checkMetaSchedule('daily', ['meta', 'schedule'])[0].path)).toBe('meta.schedule');
    expect(formatPath(checkMetaSchedule({ time_of_day: 'x' }, ['meta', 'schedule'])[0].path)).toBe(
      'meta.schedule.time_of_day',
    );
  });
});
