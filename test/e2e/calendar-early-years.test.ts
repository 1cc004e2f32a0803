/**
 * The calendar's month of a year from 0 to 999 (`?month=0027-05`: a reading typed with a short
 * year lands there) in Debian's Chromium: its days are named with four-digit years, so the
 * reading's marker shows on its day, and the month starts on its own weekday (`Date.UTC` reads
 * the years 0 to 99 as 1900 to 1999, whose May began on another weekday).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcMs } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser } from './browser.js';

let s: TestServer;
let browser: TestBrowser;

beforeAll(async () => {
  browser = await launchBrowser({ timezoneId: 'UTC' });
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      const c = {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'early',
          label: 'early',
          emoji: '🔹',
          calendar: { enabled: true, component: 'day-marker', marker: '💓' },
        },
        data: [{ date: '0027-05-03' }],
      };
      fs.writeFileSync(path.join(dataDir, 'early.json'), JSON.stringify(c, null, 2));
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('a month of the year 27', { timeout: 60_000 }, () => {
  it('names its days with four digits, starts on its weekday and marks the reading', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${s.url}/calendar?month=0027-05`);
    await settled(page);
    await page.locator('.month[data-drawn="true"]').waitFor();
    // weeks start on Monday (en-GB): blanks before the 1st as many as its weekday asks
    const lead = (new Date(utcMs(27, 4, 1)).getUTCDay() + 6) % 7;
    expect(await page.locator('.month > .month-blank').count()).toBe(lead);
    expect(await page.locator('.month-markers[data-date="0027-05-03"] .month-glyph').count()).toBe(1);
    expect(await page.locator('.month-markers[data-date^="27-"]').count()).toBe(0);
  });
});
