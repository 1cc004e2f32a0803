/**
 * The calendar of a card that adds up its day (`aggregate: "sum"`: water by the glass, coffee by
 * the cup), in Debian's Chromium with the browser's clock at noon on Wednesday 15 April 2026
 * (Europe/Berlin). Its threshold marker reads the day's total, as Today's headline does: eight
 * glasses logged as 3, 3 and 2 mark the day 💧 (eight a day), not by the last glass of two; 500 mg
 * of caffeine in two cups is over 400 (☕), not the 300 of the last cup. Today's total is only so
 * far: it is marked by a rule it cannot fall out of (8 glasses reached by noon) but not by one it
 * may still leave (under 200 mg so far is not yet a day under 200 mg).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

const TZ = 'Europe/Berlin';
const NOW = '2026-04-15T12:00:00+02:00';

const card = (id: string, emoji: string, field: string, rules: unknown[], rows: [string, number][]) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label: id,
    emoji,
    order: id === 'water' ? 10 : 20,
    trends: { enabled: true, component: 'bar-chart', series: [{ field }], aggregate: 'sum' },
    calendar: { enabled: true, component: 'day-marker', marker: { type: 'threshold', field, rules } },
  },
  data: rows.map(([date, n]) => ({ date, [field]: n })),
});

const CARDS = [
  card(
    'water',
    '🥤',
    'glasses',
    [{ min: 8, emoji: '💧' }],
    [
      ['2026-04-13', 3],
      ['2026-04-13', 3],
      ['2026-04-13', 2],
      ['2026-04-14', 3],
      ['2026-04-14', 2],
      ['2026-04-15', 6],
      ['2026-04-15', 2],
    ],
  ),
  card(
    'coffee',
    '🔸',
    'mg',
    [
      { min: 400, emoji: '☕' },
      { max: 200, emoji: '✅' },
    ],
    [
      ['2026-04-13', 100],
      ['2026-04-13', 50],
      ['2026-04-14', 200],
      ['2026-04-14', 300],
      ['2026-04-15', 100],
    ],
  ),
];

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
      for (const c of CARDS) fs.writeFileSync(path.join(dataDir, `${c.meta.id}.json`), JSON.stringify(c));
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

describe('the calendar of a card that adds up its day', { timeout: 90_000 }, () => {
  it("marks each day by its total, and today only by a rule today's total cannot leave", async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const w = await browser.newPage();
    pages.push(w);
    await w.page.clock.setFixedTime(new Date(NOW));
    await w.page.goto(`${s.url}/calendar`);
    await settled(w.page);
    await w.page.locator('.month[data-drawn="true"]').waitFor();
    const glyphs = (date: string) =>
      w.page
        .locator(`.month-markers[data-date="${date}"]`)
        .evaluate((el) => [...el.querySelectorAll('.month-glyph')].map((g) => g.textContent));
    expect(await glyphs('2026-04-13')).toEqual(['💧', '✅']);
    expect(await glyphs('2026-04-14')).toEqual(['🥤', '☕']);
    expect(await glyphs('2026-04-15')).toEqual(['💧', '🔸']);
  });
});
