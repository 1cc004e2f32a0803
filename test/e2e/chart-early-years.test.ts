/**
 * A chart's days in the years 0 to 99 (a year typed short, "0026-05-01", or a record kept that
 * way) are drawn in those years, in Debian's Chromium: `Date.UTC` reads the years 0 to 99 as 1900
 * to 1999, which put such a reading 1900 years later than its date (in 1926, beside the 2026
 * ones). The month grid of such a year starts on its own weekday and names its days with four
 * digits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcMs } from '../../src/common/dates.js';
import type { TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import { startServerWithCards, watchPages } from './watched-pages.js';

const { open } = watchPages({ timezoneId: 'UTC' });
let s: TestServer;

beforeAll(async () => {
  const m = readTemplate('weight');
  m.meta.id = 'early';
  m.meta.label = 'Early';
  m.data = [
    { date: '0026-05-01', kg: 80 },
    { date: '0026-05-03', kg: 81 },
  ];
  s = await startServerWithCards([m]);
});
afterAll(async () => {
  await s?.close();
});

describe('a chart of readings in the year 26', { timeout: 90_000 }, () => {
  it('places them in the year 26, not 1926', async () => {
    const { page } = await open(`${s.url}/trends`);
    await page.getByRole('radio', { name: 'all time' }).check();
    const fig = page.locator('.card[data-card-id="early"] figure.line-chart');
    await fig.locator('canvas').first().waitFor();
    await page.locator('.card[data-card-id="early"] figure.line-chart[data-drawn="true"]').waitFor();
    const plot = fig.locator('.line-chart-plot');
    const xMin = Number(await plot.getAttribute('data-x-min'));
    const first = utcMs(26, 4, 1) / 1000;
    // the left edge is at (or a day before) 1 May 26, never near 1926
    expect(xMin).toBeLessThanOrEqual(first);
    expect(first - xMin).toBeLessThanOrEqual(2 * 86_400);
    await page.evaluate(() => localStorage.removeItem('klebb.trends.range'));
  });
});
