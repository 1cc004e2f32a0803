import { describe, expect, it } from 'vitest';
import { entriesByDay } from './calendar-days.js';

describe('entriesByDay', () => {
  it('groups dated rows by their day, keeping their order', () => {
    const rows = [
      { date: '2026-04-19', kg: 85.1 },
      { date: '2026-04-20', kg: 85.5 },
      // an instant counts on its day in the person's zone (midday UTC: the 20th from UTC−12 to +11)
      { date: '2026-04-20T05:30:00-07:00', kg: 85.4 },
      { date: 'yesterday', kg: 1 },
      { kg: 2 },
      'not a row',
      null,
    ];
    const days = entriesByDay(rows);
    expect([...days.keys()]).toEqual(['2026-04-19', '2026-04-20']);
    expect(days.get('2026-04-20')?.map((r) => r.kg)).toEqual([85.5, 85.4]);
  });

  it('reads another date field, dotted paths included', () => {
    expect([...entriesByDay([{ when: '2026-04-20' }], 'when').keys()]).toEqual(['2026-04-20']);
    expect([...entriesByDay([{ at: { day: '2026-04-21' } }], 'at.day').keys()]).toEqual(['2026-04-21']);
    expect(entriesByDay([{ date: '2026-04-20' }], 'when').size).toBe(0);
  });

  it('counts taken doses of scheduled items on their scheduled day, never missed ones', () => {
    const data = {
      items: [
        {
          name: 'a',
          schedule: { type: 'daily' },
          doses: [
            { scheduledDate: '2026-04-20', takenAt: '2026-04-21T00:10:00+12:00' },
            { scheduledDate: '2026-04-21', takenAt: null },
            { takenAt: '2026-04-22T08:00:00Z' },
          ],
        },
      ],
      current: [{ name: 'b', doses: [{ scheduledDate: '2026-04-20', takenAt: '2026-04-20T09:00:00Z' }] }],
    };
    const days = entriesByDay(data);
    expect([...days.keys()].sort()).toEqual(['2026-04-20', '2026-04-22']);
    expect(days.get('2026-04-20')).toHaveLength(2);
  });

  it('has no days for documents, primitives and nothing', () => {
    for (const d of [{ markdown: '# hi' }, 42, 'text', null, undefined, { items: 'no' }]) {
      expect(entriesByDay(d).size).toBe(0);
    }
  });
});
