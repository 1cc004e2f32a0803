/**
 * A chart whose `series` name fields the card's rows never hold (a renamed field, a typo, a chart
 * copied from another card) says so in Chromium, naming the fields it draws and the ones the rows
 * hold, instead of "Nothing in the last 90 days" over a card full of entries; one whose rows have
 * no date it can read says that.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { settled } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const chart = (id: string, series: unknown, data: unknown) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, trends: { enabled: true, component: 'line-chart', series } },
  data,
});

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    const t = todayIn(TZ);
    const rows = [0, 1, 2].map((k) => ({ date: addDays(t, -k), kg: 80 + k, pulse: 60 + k, note: 'ok' }));
    return [
      chart('renamed', [{ field: 'weight', label: 'Weight' }], rows),
      chart('one-missing', [{ field: 'weight' }, { field: 'kg' }], rows),
      chart(
        'undated',
        ['kg'],
        [
          { date: '06/12/2026', kg: 80 },
          { day: t, kg: 81 },
        ],
      ),
    ];
  },
});

describe('charts naming fields the rows do not hold', { timeout: 60_000 }, () => {
  it('say which fields they draw and which the rows hold', async () => {
    const w = await d.open('/trends');
    await settled(w.page);
    await cardOf(w, 'one-missing').locator('.line-chart').waitFor();
    expect(await cardOf(w, 'renamed').locator('.card-body').textContent()).toBe(
      'No entry holds a number in “weight”, which this chart draws; the entries hold “kg”, “pulse”.',
    );
    expect(await cardOf(w, 'undated').locator('.card-body').textContent()).toBe(
      'No entry has a date written YYYY-MM-DD in “date”, so none can be placed on the chart.',
    );
    // a chart with one field the rows hold is drawn
    expect(await cardOf(w, 'one-missing').locator('.line-chart').getAttribute('data-points')).toBe('3');
  });
});
