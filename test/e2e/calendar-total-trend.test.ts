/**
 * The calendar's trend-arrow marker on a card that adds up its day (`aggregate: "sum"`: steps
 * logged in parts), in Debian's Chromium at noon on Wednesday 15 April 2026 (Europe/Berlin): a
 * day is marked by how its total compares with the day before it, not by its last entry against
 * the last entry of that day. Today's total is only so far: it has no arrow yet (the fallback).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser } from './browser.js';

const TZ = 'Europe/Berlin';
const NOW = '2026-04-15T12:00:00+02:00';

const STEPS = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'steps',
    label: 'Steps',
    emoji: '👟',
    trends: { enabled: true, component: 'bar-chart', series: [{ field: 'steps' }], aggregate: 'sum' },
    calendar: {
      enabled: true,
      component: 'day-marker',
      marker: { type: 'trend-arrow', field: 'steps', fallback: '·' },
    },
  },
  data: [
    ...[4000, 4000, 4000].map((steps) => ({ date: '2026-04-12', steps })),
    { date: '2026-04-13', steps: 9000 },
    ...[3000, 3000, 3000, 3000].map((steps) => ({ date: '2026-04-14', steps })),
    { date: '2026-04-15', steps: 2000 },
  ],
};

let s: TestServer;
let browser: TestBrowser;

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'steps.json'), JSON.stringify(STEPS));
    },
  });
  browser = await launchBrowser({ timezoneId: TZ });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the trend arrow of a card that adds up its day', { timeout: 90_000 }, () => {
  it('compares day totals; today, still growing, has none yet', async () => {
    const { page, problems } = await browser.newPage();
    await page.clock.setFixedTime(new Date(NOW));
    await page.goto(`${s.url}/calendar`);
    await settled(page);
    await page.locator('.month[data-drawn="true"]').waitFor();
    const glyph = (date: string) =>
      page.locator(`.month-markers[data-date="${date}"] .month-glyph`).first().textContent();
    // 9 000 in one walk against 12 000 in three: down (its last entry, 9 000 against 4 000, went up)
    expect(await glyph('2026-04-13')).toBe('⬇️');
    // 12 000 in four against 9 000: up (3 000 against 9 000 went down)
    expect(await glyph('2026-04-14')).toBe('⬆️');
    expect(await glyph('2026-04-15')).toBe('·');
    expect(problems).toEqual([]);
  });
});
