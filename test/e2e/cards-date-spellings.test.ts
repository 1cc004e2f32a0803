/**
 * Rows dated year first in another way than YYYY-MM-DD (written by hand or by a spreadsheet:
 * `2026-4-5`, `2026/04/06`, `2026.04.07 08:30`) are shown on their day by the card, drawn on the
 * chart and marked on the calendar, in Chromium; a day-first date (`08/04/2026`), which could be
 * two days, is not placed.
 */
import { describe, expect, it } from 'vitest';
import { settled } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

const d = useDashboard({
  timezoneId: 'Europe/Berlin',
  manifests: () => [
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'weight',
        label: 'Weight',
        emoji: '⚖️',
        view: { enabled: true, component: 'generic-card', display: { template: '{kg}', unit: 'kg' } },
        trends: { enabled: true, component: 'line-chart', series: ['kg'] },
        calendar: { enabled: true, component: 'day-marker' },
      },
      data: [
        { date: '2026-4-5', kg: 80 },
        { date: '2026/04/06', kg: 81 },
        { date: '2026.04.07 08:30', kg: 82 },
        { date: '08/04/2026', kg: 83 },
      ],
    },
  ],
});

describe('dates written year first another way', { timeout: 60_000 }, () => {
  it('are on their day on the card, the chart and the calendar', async () => {
    const w = await d.open('/day/2026-04-05');
    const card = cardOf(w, 'weight');
    await card.locator('.card-body').waitFor();
    const headline = async (day: string) => {
      await w.page.goto(`${d.s.url}/day/${day}`);
      await settled(w.page);
      return (await card.locator('.card-body').textContent())?.replace(/\s+/g, ' ').trim();
    };
    expect(await headline('2026-04-05')).toMatch(/^80 ?kg/);
    expect(await headline('2026-04-06')).toMatch(/^81 ?kg/);
    expect(await headline('2026-04-07')).toMatch(/^82 ?kg/);
    expect(await headline('2026-04-08')).toMatch(/^No entry yet/);

    await w.page.goto(`${d.s.url}/trends`);
    await settled(w.page);
    await w.page.getByRole('button', { name: 'All' }).first().click();
    const chart = cardOf(w, 'weight').locator('.line-chart');
    await chart.waitFor();
    expect(await chart.getAttribute('data-points')).toBe('3');
    expect(await chart.getAttribute('data-first')).toBe('2026-04-05');

    await w.page.goto(`${d.s.url}/calendar?month=2026-04`);
    await settled(w.page);
    for (const day of ['2026-04-05', '2026-04-06', '2026-04-07'])
      expect(await w.page.locator(`main a.month-day[href$="${day}"]`).textContent()).toContain('⚖️');
  });
});
