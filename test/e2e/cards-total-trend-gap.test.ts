/**
 * The trend arrow of a card that adds up its day (`aggregate: "sum"`: water by the glass), on a
 * day that is over, when the day before holds an entry without the field (a note only): the day's
 * total is compared with the latest earlier day whose entries hold a number, as the arrow of a card
 * that does not add up its day does; before, the arrow was left out.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    const today = todayIn(TZ);
    const day = (back: number) => addDays(today, -back);
    return [
      {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'water',
          label: 'Water',
          emoji: '💧',
          view: {
            enabled: true,
            component: 'generic-card',
            aggregate: 'sum',
            display: { template: '{ml}', unit: 'ml', trendArrow: { field: 'ml', goodDirection: 'up' } },
          },
        },
        data: [
          { date: day(4), ml: 250 },
          { date: day(4), ml: 250 },
          { date: day(4), ml: 250 },
          { date: day(3), note: 'away, forgot to log' },
          { date: day(2), ml: 500 },
        ],
      },
    ];
  },
});

describe('the trend of a day total after a day without numbers', { timeout: 120_000 }, () => {
  it('compares with the latest earlier day that has a total', async () => {
    const twoBack = addDays(todayIn(TZ), -2);
    const w = await d.open(`/day/${twoBack}`);
    const card = cardOf(w, 'water');
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('500');
    const trend = card.locator('.gc-trend');
    await trend.waitFor();
    // 500 against the 750 of four days back, the day of a note only passed over
    expect(await trend.getAttribute('aria-label')).toMatch(/^Down −250 since /);
    expect(await trend.getAttribute('class')).toContain('gc-trend-bad');
  });
});
