import { describe, expect, it } from 'vitest';
import { dueAtTimeOfDay } from './schedule-due.js';

describe('dueAtTimeOfDay', () => {
  it("names items by their short name where they have one, as a lock screen's line needs", () => {
    const data = {
      items: [
        {
          name: 'BPC-157 (peptide healing protocol)',
          short_name: 'BPC',
          schedule: { type: 'daily', time_of_day: ['morning', 'evening'] },
          doses: [],
        },
        {
          name: 'Insulin glargine (basal)',
          shortName: 'insulin',
          schedule: { type: 'daily', time_of_day: 'morning' },
          doses: [],
        },
        { name: 'Ozempic', schedule: { type: 'daily', time_of_day: 'evening' }, doses: [] },
      ],
    };
    expect(dueAtTimeOfDay(data, '2026-04-22', 'evening')).toEqual({
      due_now: ['BPC', 'Ozempic'],
      missed_earlier: ['insulin'],
    });
  });
});
