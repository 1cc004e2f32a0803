/**
 * The date scrub on Today, in Debian's Chromium ("a date scrub through past days that
 * re-renders every card for that date"):
 * - tapping a day in the scrubber, the ←/→ keys and the previous/next buttons show that day's
 *   rows in every card, with the address following (`/day/:date`, `/` for today);
 * - scrubbing reads no card list and no card data from the server (it is already in the page), and each drawn day
 *   leaves a `klebb:cards-rendered` performance mark naming it;
 * - the keys do nothing while typing in a field, and never go past today.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { readExample } from '../helpers/dashboard-home.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

const TZ = 'Asia/Tokyo';
const today = todayIn(TZ);
/** kg on each of the last ten days: 80.0 on today, 80.1 the day before, ... */
const kgOn = (daysBack: number) => (80 + daysBack / 10).toFixed(1);
const rows = Array.from({ length: 10 }, (_, i) => ({
  date: addDays(today, -i),
  kg: Number(kgOn(i)),
})).reverse();

const marks = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'marks',
    label: 'Marks',
    emoji: '📍',
    order: 10,
    view: { enabled: true, component: 'day-marker', marker: { type: 'template', template: '{kg:round(1)}' } },
  },
  data: rows,
};

let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];
let s: TestServer;

beforeAll(async () => {
  try {
    browser = await launchBrowser({ timezoneId: TZ });
  } catch (err) {
    launchError = err as Error;
  }
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'marks.json'), JSON.stringify(marks, null, 2));
      const weight = readExample('weight');
      weight.data = rows;
      fs.writeFileSync(path.join(dataDir, 'weight.json'), JSON.stringify(weight, null, 2));
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

describe('the date scrub', { timeout: 90_000 }, () => {
  it('re-draws every card for the chosen day, with no request', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const w = await browser.newPage();
    pages.push(w);
    const { page } = w;
    await page.goto(`${s.url}/`);
    await settled(page);
    await page.locator('.card-grid[data-drawn="true"]').waitFor();

    const shown = () =>
      page.locator('.card[data-card-id="marks"] .day-marker-shown .day-marker-glyph').textContent();
    const weight = () => page.locator('.card[data-card-id="weight"] .card-body').textContent();
    const gridDate = () => page.locator('.card-grid').getAttribute('data-date');
    const marksFor = (date: string) =>
      page.evaluate(
        (d) =>
          performance
            .getEntriesByName('klebb:cards-rendered')
            .filter((m) => (m as PerformanceMark).detail?.date === d).length,
        date,
      );
    expect(await shown()).toBe(kgOn(0));
    expect(await weight()).toContain(kgOn(0));
    expect(await marksFor(today)).toBe(1);

    const requests: string[] = [];
    page.on('request', (req) => {
      const p = new URL(req.url()).pathname;
      // reads of card lists or card data (other parts of the page, like the daily prompt's idle read of the
      // manifest list, are not the scrub's business)
      if (/^\/api\/views\/|^\/api\/manifests\/[^/]+(\/(data|rows))?$/.test(p))
        requests.push(`${req.method()} ${p}`);
    });

    // a tap on a day three days back
    const three = addDays(today, -3);
    await page.locator(`.scrubber a[data-date="${three}"]`).click();
    await page.waitForURL(`${s.url}/day/${three}`);
    await expect.poll(gridDate).toBe(three);
    expect(await shown()).toBe(kgOn(3));
    expect(await weight()).toContain(kgOn(3));
    expect(await page.locator('.scrubber [aria-current="date"]').getAttribute('data-date')).toBe(three);
    expect(await marksFor(three)).toBe(1);

    // the keys: ← one more day back, → twice forward
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL(`${s.url}/day/${addDays(today, -4)}`);
    await expect.poll(shown).toBe(kgOn(4));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(`${s.url}/day/${addDays(today, -2)}`);
    await expect.poll(shown).toBe(kgOn(2));
    expect(await weight()).toContain(kgOn(2));

    // the buttons
    await page.getByRole('link', { name: 'Next day' }).click();
    await page.waitForURL(`${s.url}/day/${addDays(today, -1)}`);
    await expect.poll(shown).toBe(kgOn(1));
    await page.getByRole('link', { name: 'Next day' }).click();
    await page.waitForURL(`${s.url}/`);
    await expect.poll(shown).toBe(kgOn(0));
    expect(await page.locator('main h1').textContent()).toBe('Today');

    // never past today
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('link', { name: 'Next day' }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/');

    expect(requests, 'requests made while scrubbing').toEqual([]);
  });

  it('leaves the keys alone while typing in a field', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const w = await browser.newPage();
    pages.push(w);
    await w.page.goto(`${s.url}/day/${addDays(today, -2)}`);
    await settled(w.page);
    await w.page.evaluate(() => {
      const input = document.createElement('input');
      input.id = 'probe';
      document.querySelector('main')?.prepend(input);
    });
    await w.page.locator('#probe').focus();
    await w.page.keyboard.press('ArrowLeft');
    await w.page.keyboard.press('ArrowRight');
    expect(new URL(w.page.url()).pathname).toBe(`/day/${addDays(today, -2)}`);
  });
});
