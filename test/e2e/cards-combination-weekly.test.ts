/**
 * Combination cards as the older app wrote them, in Chromium: a ring with `goalWeekly` fills with
 * the rows of the Monday-to-Sunday week of the day shown and says "a week"; a card that draws its own
 * rows as rings (its `combines` read the card itself) shows them.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/common/dates.js';
import { settled } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

// a Wednesday: the week runs from Monday 20 to Sunday 26 April 2026
const DAY = '2026-04-22';

const d = useDashboard({
  timezoneId: 'Europe/Berlin',
  manifests: () => [
    {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'workouts', label: 'Workouts', writeable: { fromWebapp: false } },
      data: [
        { date: addDays(DAY, -3), sessionCount: 1 },
        { date: addDays(DAY, -2), sessionCount: 1 },
        { date: DAY, sessionCount: 2 },
      ],
    },
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'sleep',
        label: 'Sleep',
        view: {
          enabled: true,
          component: 'combination-card',
          layout: 'rings',
          combines: [
            {
              sourceId: 'sleep',
              role: 'ring-segment',
              label: 'Total',
              accessor: 'hours',
              unit: 'h',
              goalDaily: 8,
            },
            {
              sourceId: 'sleep',
              role: 'ring-segment',
              label: 'Deep',
              accessor: 'deep',
              unit: 'h',
              goalDaily: 1.5,
            },
            {
              sourceId: 'workouts',
              role: 'ring-segment',
              label: 'Training',
              accessor: 'sessionCount',
              goalWeekly: 4,
            },
          ],
        },
      },
      data: [{ date: DAY, hours: 7.2, deep: 1.5 }],
    },
  ],
});

describe('combination rings in the older shapes', { timeout: 60_000 }, () => {
  it('a weekly goal counts the week; the card reads its own rows', async () => {
    const w = await d.open(`/day/${DAY}`);
    await settled(w.page);
    const card = cardOf(w, 'sleep');
    await card.locator('.combo-ring-text').first().waitFor();
    const lines = await card.locator('.combo-ring-text').allInnerTexts();
    expect(lines.map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      'Total 7.2 / 8 h · 90%',
      'Deep 1.5 / 1.5 h · 100% ✓',
      'Training 3 / 4 a week · 75%',
    ]);
  });
});
