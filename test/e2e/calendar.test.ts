/**
 * The calendar in Debian's Chromium, with the browser's clock
 * at noon on Wednesday 15 April 2026 (Europe/Berlin):
 * - a month grid starting on Monday (en-GB; Sunday in en-US), today highlighted, days after today
 *   not links;
 * - each card with `meta.calendar.enabled` puts its glyph on the days it has entries: a static
 *   emoji, `field-emoji` (the day's latest entry wins), `trend-arrow`, `threshold`, `template`,
 *   and taken doses of a schedule (a missed one marks nothing);
 * - at most three glyphs a day, then `+N`;
 * - previous / next month (no month after the current one), `?month=` in the address, and a tap
 *   on a day opens that day's dashboard.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, PHONE, settled, type TestBrowser, type WatchedPage } from './browser.js';

const TZ = 'Europe/Berlin';
const NOW = '2026-04-15T12:00:00+02:00';

const card = (id: string, order: number, calendar: Record<string, unknown>, data: unknown, extra = {}) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label: id,
    emoji: '🔹',
    order,
    calendar: { enabled: true, component: 'day-marker', ...calendar },
    ...extra,
  },
  data,
});

const CARDS = [
  card('static', 10, { marker: '💓' }, [
    { date: '2026-04-13' },
    { date: '2026-04-14' },
    { date: '2026-03-30' },
  ]),
  card(
    'mood',
    20,
    { marker: { type: 'field-emoji', field: 'mood' } },
    [
      { date: '2026-04-13', mood: 1 },
      { date: '2026-04-13', mood: 5 },
      { date: '2026-04-14', mood: 3 },
    ],
    {
      view: {
        enabled: false,
        component: 'generic-card',
        display: { emojiMap: { mood: { 1: '😩', 3: '😐', 5: '😄' } } },
      },
    },
  ),
  card('weight', 30, { marker: { type: 'trend-arrow', field: 'kg' } }, [
    { date: '2026-04-12', kg: 80 },
    { date: '2026-04-13', kg: 79.5 },
    { date: '2026-04-14', kg: 79.5 },
  ]),
  card(
    'sleep',
    40,
    { marker: { type: 'threshold', field: 'hours', rules: [{ max: 6, emoji: '🥱' }, { emoji: '😴' }] } },
    [
      { date: '2026-04-13', hours: 5.5 },
      { date: '2026-04-14', hours: 8 },
    ],
  ),
  card('steps', 50, { marker: { type: 'template', template: '{count:round(0)}' } }, [
    { date: '2026-04-13', count: 9000 },
  ]),
  card(
    'meds',
    60,
    { marker: '💊' },
    {
      items: [
        {
          name: 'a',
          schedule: { type: 'daily' },
          doses: [
            { scheduledDate: '2026-04-10', takenAt: '2026-04-10T08:00:00+02:00' },
            { scheduledDate: '2026-04-11', takenAt: null },
          ],
        },
      ],
    },
  ),
  // switched off: marks nothing
  card('hidden', 70, { marker: '🙈' }, [{ date: '2026-04-13' }], { enabled: false }),
];

let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];
let s: TestServer;

async function open(route: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage(viewport);
  pages.push(w);
  await w.page.clock.setFixedTime(new Date(NOW));
  await w.page.goto(`${s.url}${route}`);
  await settled(w.page);
  await w.page.locator('.month[data-drawn="true"]').waitFor();
  return w;
}

const glyphs = (w: WatchedPage, date: string) =>
  w.page.locator(`.month-markers[data-date="${date}"]`).evaluate((el) => ({
    glyphs: [...el.querySelectorAll('.month-glyph')].map((g) => g.textContent),
    more: el.querySelector('.month-more')?.textContent ?? null,
  }));

beforeAll(async () => {
  try {
    browser = await launchBrowser({ timezoneId: TZ });
  } catch (err) {
    launchError = err as Error;
  }
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      for (const c of CARDS)
        fs.writeFileSync(path.join(dataDir, `${c.meta.id}.json`), JSON.stringify(c, null, 2));
    },
  });
});

afterEach(async () => {
  const problems = pages.flatMap((w) => w.problems);
  for (const w of pages.splice(0)) await w.page.close();
  expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the calendar', { timeout: 90_000 }, () => {
  it('lays out the month from Monday, highlights today, and links only days so far', async () => {
    const w = await open('/calendar');
    expect(await w.page.locator('main h1').textContent()).toBe('April 2026');
    expect(await w.page.locator('.month-weekday').allTextContents()).toEqual([
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
      'Sun',
    ]);
    // 1 April 2026 is a Wednesday: two blanks first
    expect(await w.page.locator('.month > .month-day').first().getAttribute('class')).toContain(
      'month-blank',
    );
    expect(await w.page.locator('.month > .month-blank').count()).toBe(2);
    const today = w.page.locator('a.month-day[aria-current="date"]');
    expect(await today.getAttribute('data-date')).toBe('2026-04-15');
    expect(await today.getAttribute('href')).toBe('/');
    expect(await w.page.locator('a.month-day').count()).toBe(15);
    expect(await w.page.locator('.month-future').count()).toBe(15);
    expect(await w.page.getByRole('button', { name: 'Next month' }).isDisabled()).toBe(true);
  });

  it('starts the week where the person’s language does: Sunday in American English, Monday in German', async () => {
    for (const [locale, heads, blanks] of [
      ['en-US', ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'], 3],
      ['de-DE', ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'], 2],
    ] as const) {
      const other = await launchBrowser({ timezoneId: TZ, locale });
      try {
        const w = await other.newPage();
        await w.page.clock.setFixedTime(new Date(NOW));
        await w.page.goto(`${s.url}/calendar`);
        await settled(w.page);
        await w.page.locator('.month[data-drawn="true"]').waitFor();
        expect(await w.page.locator('.month-weekday').allTextContents(), locale).toEqual([...heads]);
        // 1 April 2026 is a Wednesday: three blanks from Sunday, two from Monday
        expect(await w.page.locator('.month > .month-blank').count(), locale).toBe(blanks);
        // Sunday 12 April sits in the first column in American English, in the last in German
        const head = w.page.locator('.month-weekday');
        const col = locale === 'en-US' ? head.first() : head.last();
        const sunday = await w.page
          .locator('.month-day[data-date="2026-04-12"], .month-day:has([data-date="2026-04-12"])')
          .first()
          .boundingBox();
        const colBox = await col.boundingBox();
        expect(sunday && colBox && Math.abs(sunday.x - colBox.x), locale).toBeLessThan(2);
        expect(w.problems, locale).toEqual([]);
      } finally {
        await other.close();
      }
    }
  });

  it('puts each card’s glyph on its days, three at most and then +N', async () => {
    const w = await open('/calendar');
    // the 13th: static, mood (latest entry: 5), weight (down from 80), sleep (5.5 h), steps: five marks
    expect(await glyphs(w, '2026-04-13')).toEqual({ glyphs: ['💓', '😄', '⬇️'], more: '+2' });
    expect(await w.page.locator('a.month-day[data-date="2026-04-13"]').getAttribute('aria-label')).toBe(
      'Monday 13 April: static 💓, mood 😄, weight ⬇️, sleep 🥱, steps 9000',
    );
    // the 14th: static, mood 3, weight flat, sleep 8 h
    expect(await glyphs(w, '2026-04-14')).toEqual({ glyphs: ['💓', '😐', '➡️'], more: '+1' });
    // the 12th: the first weight has nothing to compare with, so the card's emoji
    expect(await glyphs(w, '2026-04-12')).toEqual({ glyphs: ['🔹'], more: null });
    // a taken dose marks its day, a missed one does not
    expect(await glyphs(w, '2026-04-10')).toEqual({ glyphs: ['💊'], more: null });
    expect(await glyphs(w, '2026-04-11')).toEqual({ glyphs: [], more: null });
    // the legend: the cards on the calendar, not the switched-off one
    expect(
      await w.page
        .locator('.calendar-legend .chip')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-card-id'))),
    ).toEqual(['static', 'mood', 'weight', 'sleep', 'steps', 'meds']);
    expect(await w.page.locator('.month').textContent()).not.toContain('🙈');
  });

  it('goes to other months, keeps the month in the address, and opens a day', async () => {
    const w = await open('/calendar');
    await w.page.getByRole('button', { name: 'Previous month' }).click();
    await expect.poll(() => w.page.locator('main h1').textContent()).toBe('March 2026');
    expect(new URL(w.page.url()).search).toBe('?month=2026-03');
    expect(await glyphs(w, '2026-03-30')).toEqual({ glyphs: ['💓'], more: null });
    await w.page.reload();
    await settled(w.page);
    expect(await w.page.locator('main h1').textContent()).toBe('March 2026');
    await w.page.getByRole('link', { name: 'Back to this month' }).click();
    await expect.poll(() => w.page.locator('main h1').textContent()).toBe('April 2026');
    expect(new URL(w.page.url()).search).toBe('');
    // a month after this one is not offered, even by address
    await w.page.goto(`${s.url}/calendar?month=2026-09`);
    await settled(w.page);
    expect(await w.page.locator('main h1').textContent()).toBe('April 2026');

    await w.page.locator('a.month-day[data-date="2026-04-13"]').click();
    await w.page.waitForURL(`${s.url}/day/2026-04-13`);
    await settled(w.page);
    expect(await w.page.locator('main .date-bar-title h1').textContent()).toBe('Monday');
  });

  it('fits a 390 px phone with 44 px days', async () => {
    const w = await open('/calendar', PHONE);
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const small = await w.page
      .locator('a.month-day')
      .evaluateAll(
        (els) =>
          els.map((e) => e.getBoundingClientRect()).filter((r) => r.width < 44 || r.height < 44).length,
      );
    expect(small).toBe(0);
  });
});
