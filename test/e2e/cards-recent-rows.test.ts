/**
 * Today drawn from a long card's latest rows (docs/API.md "Latest rows only: ?data=recent";
 * web/lib/card-data.ts): a generic card of 400 daily rows shows today's value, trend and a full
 * sparkline from the 120 rows of the first batch read, without reading its whole block; an edit
 * from that page changes the right row of the whole array; a day older than the rows held (a
 * deep link to 200 days ago) reads the whole block and shows that day's row.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import type { WatchedPage } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const N = 400;
/** Row i of the card (0 the oldest, N-1 today): a distinct weight per day. */
const kgOf = (i: number) => Math.round((60 + i / 10) * 10) / 10;

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    const today = todayIn(TZ);
    return [
      {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'weight',
          label: 'Weight',
          emoji: '⚖️',
          view: {
            enabled: true,
            component: 'generic-card',
            showSparkline: true,
            display: { template: '{kg:round(1)}', unit: 'kg', trendArrow: { field: 'kg' } },
          },
          writeable: {
            fromWebapp: true,
            inputs: [{ key: 'kg', type: 'number', label: 'Weight (kg)', min: 1, max: 500 }],
          },
        },
        data: Array.from({ length: N }, (_, i) => ({ date: addDays(today, i - (N - 1)), kg: kgOf(i) })),
      },
    ];
  },
});

/** The data URLs the page has fetched so far (paths with their query). */
const fetched = (w: WatchedPage) =>
  w.page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname + new URL(e.name).search)
      .filter((u) => u.startsWith('/api/')),
  );

describe('a long card drawn from its latest rows', { timeout: 120_000 }, () => {
  it('shows today, the trend and a 30-point sparkline without reading the whole block', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'weight');
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe(kgOf(N - 1).toFixed(1));
    expect(await card.locator('.gc-trend').getAttribute('aria-label')).toMatch(/^Up \+0\.1 since/);
    expect(await card.locator('.gc-sparkline').getAttribute('aria-label')).toBe('Last 30 values');
    // yesterday, through the scrub strip: still from the rows held
    await w.page.keyboard.press('ArrowLeft');
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe(kgOf(N - 2).toFixed(1));
    const urls = await fetched(w);
    expect(urls).toContain('/api/views/view?data=recent');
    expect(urls.filter((u) => u.startsWith('/api/manifests/weight/data'))).toEqual([]);
  });

  it('edits the right row of the whole array from the rows held', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'weight');
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe(kgOf(N - 1).toFixed(1));
    await card.getByRole('button', { name: 'Edit entry' }).click();
    const form = card.getByRole('form');
    expect(await form.getByLabel('Weight (kg)').inputValue()).toBe(String(kgOf(N - 1)));
    await form.getByLabel('Weight (kg)').fill('77.7');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('77.7');
    const rows = (await d.data('weight')) as { date: string; kg: number }[];
    expect(rows).toHaveLength(N);
    expect(rows[N - 1]).toEqual({ date: todayIn(TZ), kg: 77.7 });
    expect(rows[N - 2].kg).toBe(kgOf(N - 2));
    expect(rows[N - 121].kg).toBe(kgOf(N - 121));
  });

  it('reads the whole block for a day older than the rows held', async () => {
    const day = addDays(todayIn(TZ), -200);
    const w = await d.open(`/day/${day}`);
    const card = cardOf(w, 'weight');
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe(kgOf(N - 1 - 200).toFixed(1));
    expect(await card.locator('.gc-sparkline').getAttribute('aria-label')).toBe('Last 30 values');
    expect((await fetched(w)).filter((u) => u.startsWith('/api/manifests/weight/data'))).toHaveLength(1);
  });
});
