/**
 * In Debian's Chromium: date-only strings are calendar dates, in every time zone. A
 * browser in America/Los_Angeles and one in Pacific/Auckland, each with its clock at noon on
 * Monday 20 April 2026 local time, both show a row dated 2026-04-20:
 * - on Today (`/`, their today is the 20th) and on `/day/2026-04-20`, and not on the 19th or 21st;
 * - in the calendar cell of Monday 20 April (the Monday column), and in no other cell.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExample } from '../helpers/dashboard-home.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

const DAY = '2026-04-20';

const ZONES = [
  { tz: 'America/Los_Angeles', noon: '2026-04-20T12:00:00-07:00' },
  { tz: 'Pacific/Auckland', noon: '2026-04-20T12:00:00+12:00' },
] as const;

/** A card drawn by day-marker on Today (the week ending on the shown day) and on the calendar. */
const marks = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'marks',
    label: 'Marks',
    emoji: '📍',
    order: 10,
    view: { enabled: true, component: 'day-marker', marker: { type: 'template', template: '{kg} kg' } },
    calendar: { enabled: true, component: 'day-marker', marker: '📍' },
  },
  data: [{ date: DAY, kg: 85.5 }],
};

let s: TestServer;

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'marks.json'), JSON.stringify(marks, null, 2));
      const weight = readExample('weight');
      weight.data = [{ date: DAY, kg: 85.5 }];
      fs.writeFileSync(path.join(dataDir, 'weight.json'), JSON.stringify(weight, null, 2));
    },
  });
});

afterAll(async () => {
  await s?.close();
});

for (const { tz, noon } of ZONES) {
  describe(`a browser in ${tz}`, { timeout: 90_000 }, () => {
    let browser: TestBrowser | undefined;
    let launchError: Error | undefined;
    let w: WatchedPage;

    beforeAll(async () => {
      try {
        browser = await launchBrowser({ timezoneId: tz });
        w = await browser.newPage();
        await w.page.clock.setFixedTime(new Date(noon));
      } catch (err) {
        launchError = err as Error;
      }
    });

    afterAll(async () => {
      const problems = w?.problems ?? [];
      await browser?.close();
      expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
    });

    async function go(route: string): Promise<void> {
      if (!browser) throw launchError ?? new Error('Chromium was not started');
      await w.page.goto(`${s.url}${route}`);
      await settled(w.page);
      await w.page.locator('[data-drawn="true"]').waitFor();
    }

    const weekGlyph = (date: string) =>
      w.page
        .locator(`main .card[data-card-id="marks"] .day-marker-day[data-date="${date}"] .day-marker-glyph`)
        .textContent();
    const weightText = () => w.page.locator('main .card[data-card-id="weight"] .card-body').textContent();

    it('shows the row on Today, which is Monday 20 April there', async () => {
      await go('/');
      expect(await w.page.locator('main h1').textContent()).toBe('Today');
      expect(await w.page.locator('main .date-bar-title p').textContent()).toBe('Monday 20 April');
      expect(await weekGlyph(DAY)).toBe('85.5 kg');
      expect(await weightText()).toContain('85.5');
      expect(await w.page.locator('.scrubber [aria-current="date"]').getAttribute('data-date')).toBe(DAY);
    });

    it('shows it on /day/2026-04-20 and not on the days around it', async () => {
      // today is the 20th here, so its own address is "/": step back and forth from the 19th
      await go('/day/2026-04-19');
      expect(await w.page.locator('main .date-bar-title p').textContent()).toMatch(/^19 April/);
      expect(await weightText()).not.toContain('85.5');
      expect(await weekGlyph('2026-04-19')).not.toContain('85.5');
      await w.page.getByRole('link', { name: 'Next day' }).click();
      await w.page.waitForURL(`${s.url}/`);
      await w.page.locator(`.card-grid[data-date="${DAY}"][data-drawn="true"]`).waitFor();
      expect(await weekGlyph(DAY)).toBe('85.5 kg');
      expect(await weightText()).toContain('85.5');
      // a day before, the row is in the past week of the strip only
      await go('/day/2026-04-18');
      expect(await weightText()).not.toContain('85.5');
    });

    it('marks the Monday 20 April cell of the calendar, and no other', async () => {
      await go('/calendar');
      expect(await w.page.locator('main h1').textContent()).toBe('April 2026');
      const cell = w.page.locator(`a.month-day[data-date="${DAY}"]`);
      expect(await cell.getAttribute('aria-current')).toBe('date');
      expect(await cell.getAttribute('aria-label')).toMatch(/^Monday 20 April/);
      // both cards mark the day: the 📍 card, and weight (its trend marker, with no earlier row to
      // compare, falls back to the card's emoji)
      expect(await cell.locator('.month-markers').textContent()).toBe('📍⚖️');
      const marked = await w.page
        .locator('.month-markers')
        .evaluateAll((els) => els.filter((e) => e.textContent).map((e) => e.getAttribute('data-date')));
      expect(marked).toEqual([DAY]);
      // in the Monday column
      const mon = await w.page.locator('.month-weekday').first().boundingBox();
      const box = await cell.boundingBox();
      expect(mon && box && Math.abs(mon.x - box.x)).toBeLessThan(2);
    });
  });
}
