/**
 * The `line-chart` renderer and the Trends view in Debian's Chromium against the real server
 * (every card template with `meta.trends` renders on /trends with no console error):
 * - every template card with `meta.trends` shows on /trends, none as an unknown renderer;
 * - a chart draws a canvas with the manifest's series (bp: systolic, diastolic and pulse; steps
 *   as bars), one point per day, the latest values under it;
 * - the range chooser narrows the window and offers "Show all time" when it hides everything;
 * - a row written through the API appears without a reload; the chart follows the page width
 *   (phone, no sideways scroll) and the theme;
 * - uPlot is not loaded by a page without charts (first-page JavaScript);
 * - a row dated 2026-04-20 sits on 20 April in America/Los_Angeles and Pacific/Auckland;
 * - screenshots of Trends, desktop and phone.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import type { TestServer } from '../helpers/server.js';
import { readTemplate, templateIds } from '../helpers/templates.js';
import { DESKTOP, PHONE, screenshot, scrollsSideways, settled } from './browser.js';
import { startServerWithCards, watchPages } from './watched-pages.js';

const TZ = 'Europe/Berlin';
/** Every card template id with `meta.trends` enabled. */
const TREND_EXAMPLES = templateIds()
  .map((id) => readTemplate(id))
  .filter(
    (m) => (m.meta.trends as { enabled?: boolean } | undefined)?.enabled === true && m.meta.enabled !== false,
  )
  .map((m) => m.meta.id);

const { open, openIn, browserIn } = watchPages({ timezoneId: TZ });
let s: TestServer;

const chart = (page: Page, id: string) => page.locator(`.card[data-card-id="${id}"] figure.line-chart`);

async function drawn(page: Page, id: string): Promise<void> {
  await page.locator(`.card[data-card-id="${id}"] figure.line-chart[data-drawn="true"] canvas`).waitFor();
}

const today = todayIn(TZ);

/** Rows imported with the template files (a manifest dropped in with `data` is an import). */
const ROWS: Record<string, unknown[]> = {
  bp: [
    { date: addDays(today, -2), systolic: 125, diastolic: 82, pulse: 66 },
    { date: addDays(today, -1), systolic: 128, diastolic: 84, pulse: 70 },
    { date: today, systolic: 120, diastolic: 80, pulse: 64 },
    { date: today, systolic: 131, diastolic: 86, pulse: 72 },
  ],
  steps: [
    { date: addDays(today, -3), count: 4200 },
    { date: addDays(today, -1), count: 9100 },
    { date: '2026-01-05', count: 3000 },
  ],
  weight: [
    { date: '2026-04-19', kg: 85.3 },
    { date: '2026-04-20', kg: 85.5 },
  ],
};

beforeAll(async () => {
  s = await startServerWithCards(
    TREND_EXAMPLES.map((id) => {
      const m = readTemplate(id);
      if (ROWS[id]) m.data = ROWS[id];
      return m;
    }),
  );
});

afterAll(async () => {
  await s?.close();
});

describe('Trends', { timeout: 90_000 }, () => {
  it('shows every template card with meta.trends, each drawn by a known renderer', async () => {
    expect(TREND_EXAMPLES.length).toBeGreaterThanOrEqual(9);
    const { page } = await open(`${s.url}/trends`);
    expect(await page.locator('main h1').textContent()).toBe('Trends');
    const ids = await page
      .locator('main .card')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-card-id')));
    expect([...ids].sort()).toEqual([...TREND_EXAMPLES].sort());
    expect(await page.locator('main [data-unknown-renderer]').count()).toBe(0);
    // cards without rows show their empty state, not a blank body
    const empty = page.locator('.card[data-card-id="heart-rate-resting"] [data-renderer-note]');
    expect(await empty.textContent()).toMatch(/No entries yet/);
    // the schedule templates on Trends draw their timeline
    await page.locator('.card[data-card-id="medication-schedule"] .timeline').waitFor();
  });

  it('draws the manifest’s series on a canvas, one point per day, latest values below', async () => {
    const { page } = await open(`${s.url}/trends`);
    await page.getByRole('radio', { name: 'the last 30 days' }).check();
    await drawn(page, 'bp');
    const bp = chart(page, 'bp');
    expect(await bp.getAttribute('data-series')).toBe('Systolic|Diastolic|Pulse');
    expect(await bp.getAttribute('data-points')).toBe('3');
    expect(await bp.getAttribute('data-last')).toBe(today);
    // today's two readings are averaged: (120 + 131) / 2, (80 + 86) / 2
    const latest = await bp.locator('.line-chart-latest').allTextContents();
    expect(latest[0]).toMatch(/^Systolic 125\.5 · /);
    expect(latest[1]).toMatch(/^Diastolic 83 · /);
    expect(latest[2]).toMatch(/^Pulse 68 · /);
    // today's point is the mean of two readings, and says so
    expect(latest[0]).toMatch(/\(daily average of 2 readings\)$/);
    expect(await bp.locator('.line-chart-note').textContent()).toBe(
      "All in mmHg. Days with several readings show the daily average of the day's readings.",
    );
    expect(await bp.locator('canvas').count()).toBe(1);
    const box = await bp.locator('canvas').boundingBox();
    expect(box?.width).toBeGreaterThan(200);
    // steps: bars of the day's total
    await drawn(page, 'steps');
    const steps = chart(page, 'steps');
    expect(await steps.getAttribute('data-fields')).toBe('count');
    expect(await steps.getAttribute('data-points')).toBe('2');
    expect((await steps.locator('.line-chart-latest').textContent())?.replace(/\s+/g, ' ')).toMatch(
      /^Steps 9,100 steps · /,
    );
  });

  it('narrows to the chosen range and offers all time when the range is empty', async () => {
    const { page } = await open(`${s.url}/trends`);
    await page.getByRole('radio', { name: 'the last 7 days' }).check();
    await drawn(page, 'steps');
    expect(await chart(page, 'steps').getAttribute('data-points')).toBe('2');
    const weight = chart(page, 'weight');
    await weight.locator('.line-chart-empty').waitFor();
    expect(await weight.locator('.line-chart-empty').textContent()).toMatch(
      /Nothing in the last 7 days; 2 earlier days have entries/,
    );
    await weight.getByRole('button', { name: 'Show all time' }).click();
    await drawn(page, 'weight');
    expect(await weight.getAttribute('data-points')).toBe('2');
    expect(await page.getByRole('radio', { name: 'all time' }).isChecked()).toBe(true);
    await drawn(page, 'steps');
    expect(await chart(page, 'steps').getAttribute('data-points')).toBe('3');
    // the choice is remembered
    await page.reload();
    await settled(page);
    expect(await page.getByRole('radio', { name: 'all time' }).isChecked()).toBe(true);
    await page.evaluate(() => localStorage.removeItem('klebb.trends.range'));
  });

  it('adds a row written through the API without a reload, and follows the width and the theme', async () => {
    const { page } = await open(`${s.url}/trends`);
    await page.getByRole('radio', { name: 'the last 30 days' }).check();
    await drawn(page, 'bp');
    await page.evaluate(() => {
      (window as unknown as { __sameLoad: boolean }).__sameLoad = true;
    });
    const r = await s.api('/api/manifests/bp/rows', {
      json: { value: { date: addDays(today, -5), systolic: 140, diastolic: 90 } },
    });
    expect(r.status, r.text).toBe(201);
    await expect.poll(() => chart(page, 'bp').getAttribute('data-points')).toBe('4');
    await drawn(page, 'bp');
    expect(await page.evaluate(() => (window as unknown as { __sameLoad?: boolean }).__sameLoad)).toBe(true);

    await page.setViewportSize(PHONE);
    await expect
      .poll(async () => (await chart(page, 'bp').locator('canvas').boundingBox())?.width ?? 9999)
      .toBeLessThan(PHONE.width - 40);
    expect(await scrollsSideways(page)).toBe(false);
    const small = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>('.range-option')]
          .map((e) => e.getBoundingClientRect())
          .filter((b) => b.width < 44 || b.height < 44).length,
    );
    expect(small).toBe(0);

    await page.locator('.theme-toggle').click();
    await drawn(page, 'bp');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    await page.locator('.theme-toggle').click();
    await page.evaluate(() => localStorage.removeItem('klebb.theme'));
  });

  it('loads uPlot only when a chart is drawn', async () => {
    const { page } = await open(`${s.url}/settings`);
    const scripts = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => /\/assets\/.*\.js$/.test(n)),
      );
    expect((await scripts()).filter((n) => /uplot/i.test(n))).toEqual([]);
    await page.getByRole('link', { name: 'Trends' }).click();
    await drawn(page, 'bp');
    expect((await scripts()).filter((n) => /uplot/i.test(n))).toHaveLength(1);
  });

  it('takes screenshots of Trends, desktop and phone', async () => {
    for (const [vp, suffix] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { page } = await open(`${s.url}/trends`, vp);
      await page.getByRole('radio', { name: 'all time' }).check();
      await drawn(page, 'weight');
      await drawn(page, 'bp');
      await drawn(page, 'steps');
      const file = await screenshot(page, `trends-${suffix}`);
      expect(fs.statSync(file).size).toBeGreaterThan(2_000);
      await page.evaluate(() => localStorage.removeItem('klebb.trends.range'));
    }
  });

  it('a single day of data today keeps the x axis within today (no tick for tomorrow), the point off the left edge', async () => {
    const m = readTemplate('weight');
    m.meta.id = 'one-day';
    m.meta.label = 'One day';
    m.data = [{ date: today, kg: 80 }];
    const made = await s.api('/api/manifests', { json: m });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    try {
      const { page } = await open(`${s.url}/trends`);
      await drawn(page, 'one-day');
      const plot = chart(page, 'one-day').locator('.line-chart-plot');
      const x = Date.parse(`${today}T00:00:00Z`) / 1000;
      const xMin = Number(await plot.getAttribute('data-x-min'));
      const xMax = Number(await plot.getAttribute('data-x-max'));
      // the next midnight (tomorrow) is outside the range, so no axis tick can name it
      expect(xMax).toBeLessThan(x + 86_400);
      expect(xMax).toBeGreaterThan(x);
      // a whole day and more left of the point: it is neither at the left edge nor cut at the right
      expect(x - xMin).toBeGreaterThanOrEqual(86_400);
    } finally {
      await s.api('/api/manifests/one-day', { method: 'DELETE' });
    }
  });

  it('huge values get compact y-axis labels that fit the axis (999 999 999 steps → 1bn in en-GB)', async () => {
    const m = readTemplate('steps');
    m.meta.id = 'huge-steps';
    m.meta.label = 'Huge steps';
    m.data = [
      { date: addDays(today, -1), count: 5 },
      { date: today, count: 999_999_999 },
    ];
    const made = await s.api('/api/manifests', { json: m });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    try {
      const { page } = await open(`${s.url}/trends`);
      await drawn(page, 'huge-steps');
      const plot = chart(page, 'huge-steps').locator('.line-chart-plot');
      const labels = (await plot.getAttribute('data-y-labels'))?.split('|') ?? [];
      expect(labels.length).toBeGreaterThan(1);
      // en-GB writes compact numbers as 500m, 1bn
      for (const l of labels) expect(l).toMatch(/^(0|[\d.]+(k|m|bn))$/);
      expect(labels).toContain('1bn');
      // every label fits the space left of the plot area (the axis is as wide as its widest label)
      const fits = await chart(page, 'huge-steps').evaluate((fig, texts) => {
        const over = fig.querySelector('.u-over')?.getBoundingClientRect();
        const root = fig.querySelector('.uplot')?.getBoundingClientRect();
        const ctx = document.createElement('canvas').getContext('2d');
        if (!over || !root || !ctx) return { room: 0, widest: Number.POSITIVE_INFINITY };
        ctx.font = '12px system-ui, sans-serif';
        return {
          room: over.left - root.left,
          widest: Math.max(...texts.map((t) => ctx.measureText(t).width)),
        };
      }, labels);
      expect(fits.room).toBeGreaterThan(fits.widest);
    } finally {
      await s.api('/api/manifests/huge-steps', { method: 'DELETE' });
    }
  });
});

describe('a row dated 2026-04-20 is on 20 April in every zone', { timeout: 90_000 }, () => {
  for (const zone of ['America/Los_Angeles', 'Pacific/Auckland']) {
    it(zone, async () => {
      const b = await browserIn(zone);
      const { page } = await openIn(b, `${s.url}/trends`);
      await page.getByRole('radio', { name: 'all time' }).check();
      await drawn(page, 'weight');
      const weight = chart(page, 'weight');
      expect(await weight.getAttribute('data-first')).toBe('2026-04-19');
      expect(await weight.getAttribute('data-last')).toBe('2026-04-20');
      expect((await weight.locator('.line-chart-latest').textContent())?.replace(/\s+/g, ' ')).toBe(
        'Weight 85.5 kg · 20 Apr',
      );
      // the cursor over each point names its day (both days are this year: no year shown)
      const box = await weight.locator('.u-over').boundingBox();
      if (!box) throw new Error('no plot area');
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      await expect.poll(() => weight.locator('.line-chart-latest').textContent()).toMatch(/85\.3.*19 Apr$/);
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
      await expect.poll(() => weight.locator('.line-chart-latest').textContent()).toMatch(/85\.5.*20 Apr$/);
      await page.evaluate(() => localStorage.removeItem('klebb.trends.range'));
    });
  }
});
