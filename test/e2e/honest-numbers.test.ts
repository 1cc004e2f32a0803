/**
 * Honest numbers on Today and Trends, in Chromium against a real server whose cards got several
 * weeks of rows through the API, at 390 and 1280 px:
 * - a trend arrow is green or red only on a card that says which direction is good, grey otherwise;
 * - a running total (water, steps) is "so far" while the day lasts, compared with the same time
 *   yesterday or not at all, and does not show "Quiet day" at lunchtime;
 * - two blood-pressure readings of a day are both on Today, and Trends says its point is their average;
 * - a line breaks across weeks without a measurement (the sparkline's SVG path has two runs, the
 *   chart's canvas has no line in the gap);
 * - a German browser reads 78,6 and "3. Dezember";
 * - no developer words on Today, Settings or an empty view, and the problem note can be dismissed.
 * The page clock is fixed at 12:00 UTC today (13:00 or 14:00 in Berlin), so "now" is known.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import {
  DESKTOP,
  launchBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
  settled,
  type TestBrowser,
  type WatchedPage,
} from './browser.js';

const TZ = 'Europe/Berlin';
const T = todayIn(TZ);
const day = (n: number) => addDays(T, n);
/** Weight of day n (0 today, -1 yesterday): a slow fall of 0.1 kg a day. */
const kgOn = (n: number) => Math.round((78.6 - n * 0.1) * 10) / 10;

/** Words and shapes a person should never meet on these pages. */
const DEVELOPER_WORDS =
  /meta\.\w|\/api\/|HEALTH_HOME|\bPOST\b|\.json\b|\{\s*date|\bmanifest|\bJSON\b|\w+_\w+\)/i;

let s: TestServer;
let en: TestBrowser | undefined;
let de: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];

async function post(p: string, json: unknown): Promise<void> {
  // "today" is Berlin's, the page's zone, also in the hour it is a day ahead of UTC
  const r = await s.api(p, { json, headers: { 'x-klebb-time-zone': TZ } });
  if (r.status !== 201) throw new Error(`${p}: ${r.status} ${r.text}`);
}

async function patchMeta(id: string, meta: Record<string, unknown>): Promise<void> {
  const r = await s.api(`/api/manifests/${id}`, { method: 'PATCH', json: { meta } });
  if (r.status !== 200) throw new Error(`PATCH ${id}: ${r.status} ${r.text}`);
}

/** The cards, created and filled through the API as a phone, a script or the chat would. */
async function fillHome(): Promise<void> {
  const weight = readTemplate('weight');
  weight.meta.cadence = { expectDays: 3 };
  await post('/api/manifests', weight);
  // five weeks ago for two weeks, then nothing for 17 days, then the last two weeks
  for (let n = -45; n <= 0; n++)
    if (n <= -31 || n >= -13)
      await post('/api/manifests/weight/rows', { value: { date: day(n), kg: kgOn(n) } });

  // a card with an arrow that does not say which way is good
  await post('/api/manifests', {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: 'energy',
      label: 'Energy',
      emoji: '⚡',
      order: 150,
      view: {
        enabled: true,
        component: 'generic-card',
        display: { template: '{level}', unit: 'of 5', trendArrow: { field: 'level' } },
      },
      writeable: {
        fromWebapp: true,
        pastAllowed: true,
        inputs: [{ key: 'level', type: 'rating', min: 1, max: 5 }],
      },
    },
    description: 'How much energy the day had, 1 to 5.',
  });
  for (let n = -20; n <= 0; n++)
    await post('/api/manifests/energy/rows', { value: { date: day(n), level: 2 + ((n + 40) % 3) } });

  const water = readTemplate('hydration');
  (water.meta.view as { display: Record<string, unknown> }).display.trendArrow = {
    field: 'glasses',
    goodDirection: 'up',
  };
  await post('/api/manifests', water);
  for (let n = -14; n <= -2; n++)
    await post('/api/manifests/hydration/rows', { value: { date: day(n), time: '09:00', glasses: 6 } });
  for (const [time, glasses] of [
    ['08:00', 1],
    ['10:30', 1],
    ['18:00', 4],
  ] as const)
    await post('/api/manifests/hydration/rows', { value: { date: day(-1), time, glasses } });
  for (const [time, glasses] of [
    ['08:00', 1],
    ['11:30', 2],
  ] as const)
    await post('/api/manifests/hydration/rows', { value: { date: T, time, glasses } });

  // steps come from the phone: the card takes no entries from the app, so it is opened for the
  // rows and closed again
  const steps = readTemplate('steps');
  steps.meta.writeable = { fromWebapp: true, pastAllowed: true };
  await post('/api/manifests', steps);
  for (let n = -20; n <= -1; n++)
    await post('/api/manifests/steps/rows', {
      value: { date: day(n), count: n === -1 ? 3500 : 9000 + n * 10 },
    });
  await post('/api/manifests/steps/rows', { value: { date: T, count: 3000 } });
  await patchMeta('steps', { writeable: null });

  // blood pressure from a device: read-only, two readings a day, pinned on Today
  const bp = readTemplate('bp');
  (bp.meta.view as Record<string, unknown>).priority = 1;
  (bp.meta.view as Record<string, unknown>).order = 900;
  await post('/api/manifests', bp);
  for (let n = -27; n <= 0; n++) {
    const evening = n === 0 ? '12:15' : '20:30';
    await post('/api/manifests/bp/rows', {
      value: { date: day(n), time: '07:30', systolic: 124, diastolic: 80, pulse: 62 },
    });
    await post('/api/manifests/bp/rows', {
      value: { date: day(n), time: evening, systolic: 131, diastolic: 85, pulse: 66 },
    });
  }
  // from now on only the device writes it
  await patchMeta('bp', { writeable: { fromWebapp: false } });
}

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      // a card file with a setting that cannot be used: the problem note
      fs.mkdirSync(dataDir, { recursive: true });
      const waist = readTemplate('waist');
      waist.meta.cadence = { expectDays: 0 };
      fs.writeFileSync(path.join(dataDir, 'waist.json'), JSON.stringify(waist, null, 2));
    },
  });
  await fillHome();
  try {
    en = await launchBrowser({ timezoneId: TZ, locale: 'en-GB' });
    de = await launchBrowser({ timezoneId: TZ, locale: 'de-DE' });
  } catch (err) {
    launchError = err as Error;
  }
}, 180_000);

afterEach(async () => {
  const problems = pages.flatMap((w) => w.problems);
  for (const w of pages.splice(0)) await w.page.close();
  expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
});

afterAll(async () => {
  await en?.close();
  await de?.close();
  await s?.close();
});

async function open(
  b: TestBrowser | undefined,
  pathname: string,
  viewport = DESKTOP,
  grid = true,
): Promise<WatchedPage> {
  if (!b) throw launchError ?? new Error('Chromium was not started');
  const w = await b.newPage(viewport);
  pages.push(w);
  await w.page.clock.setFixedTime(new Date(`${T}T12:00:00Z`));
  await w.page.goto(`${s.url}${pathname}`);
  await settled(w.page);
  if (grid) await w.page.locator('main .card-grid[data-drawn="true"]').waitFor();
  return w;
}

const card = (page: Page, id: string) => page.locator(`main .card[data-card-id="${id}"]`);
const text = async (page: Page, id: string, sel: string) =>
  ((await card(page, id).locator(sel).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
/** What the page shows (folded parts left out), as a person reads it. */
const shownText = (page: Page) => page.evaluate(() => document.body.innerText);

describe('honest numbers', { timeout: 120_000 }, () => {
  it('Today at 1280 px: arrow colours, running totals so far, both readings, a broken sparkline, people words', async () => {
    const { page } = await open(en, '/');
    // weight says down is good, and it went down
    expect(await card(page, 'weight').locator('.gc-trend').getAttribute('data-tone')).toBe('good');
    expect(await card(page, 'weight').locator('.gc-trend').getAttribute('class')).toContain('gc-trend-good');
    expect(await text(page, 'weight', '.gc-trend')).toBe('↓−0.1');
    // energy says nothing about good or bad: grey, whichever way it moved
    expect(await card(page, 'energy').locator('.gc-trend').getAttribute('data-tone')).toBe('neutral');
    expect(await card(page, 'energy').locator('.gc-trend').getAttribute('class')).toContain(
      'gc-trend-neutral',
    );

    // water: 1 + 2 glasses so far, against 2 by this time yesterday (the whole of yesterday was 6)
    expect(await text(page, 'hydration', '.gc-value')).toBe('3');
    expect(await text(page, 'hydration', '.gc-so-far')).toBe('so far');
    expect(await text(page, 'hydration', '.gc-trend')).toBe('↑+1vs. this time yesterday');
    expect(await card(page, 'hydration').locator('.gc-trend').getAttribute('data-tone')).toBe('good');
    // steps come without a time: "so far", no comparison with all of yesterday, no "Quiet day" at lunchtime
    expect(await text(page, 'steps', '.gc-value')).toBe('3,000');
    expect(await text(page, 'steps', '.gc-so-far')).toBe('so far');
    expect(await card(page, 'steps').locator('.gc-trend').count()).toBe(0);
    expect(await card(page, 'steps').locator('.gc-pill').count()).toBe(0);

    // blood pressure: the morning and the midday reading, both on Today
    const readings = card(page, 'bp').locator('.gc-entries li');
    expect(await readings.count()).toBe(2);
    expect(await readings.allTextContents()).toEqual(['124/80mmHg07:30', '131/85mmHg12:15']);
    expect(await card(page, 'bp').locator('.gc-entries').getAttribute('aria-label')).toBe(
      '2 readings of this day',
    );

    // the weight sparkline: two runs, the 17 unmeasured days left blank
    const d = (await card(page, 'weight').locator('.gc-sparkline path').getAttribute('d')) ?? '';
    expect(d.match(/M/g)?.length).toBe(2);

    // the problem note, in words for people, dismissed for good
    const note = page.locator('main details.notice');
    expect(await note.locator('summary').textContent()).toBe('One card file has a problem');
    await note.locator('summary').click();
    expect(await note.locator(':scope > ul > li').first().innerText()).toMatch(
      /^waist: one of its settings could not be used and is left out; the rest of the card works\./,
    );
    expect(await shownText(page)).not.toMatch(DEVELOPER_WORDS);
    await screenshot(page, 'honest-today-desktop');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    expect(await note.count()).toBe(0);
    await page.reload();
    await settled(page);
    await page.locator('main .card-grid[data-drawn="true"]').waitFor();
    expect(await page.locator('main details.notice').count()).toBe(0);

    // yesterday is over: its steps are judged as a whole day
    const past = await open(en, `/day/${day(-1)}`);
    expect(await text(past.page, 'steps', '.gc-pill')).toBe('Quiet day');
    expect(await past.page.locator('main .card[data-card-id="steps"] .gc-so-far').count()).toBe(0);
  });

  it('Trends at 1280 px: the line breaks in the gap, two readings a day say they are averaged, the unit once', async () => {
    const { page } = await open(en, '/trends');
    const weight = page.locator('.card[data-card-id="weight"] figure.line-chart[data-drawn="true"]');
    await weight.waitFor();
    expect(await weight.getAttribute('data-segments')).toBe('2');
    expect(await weight.getAttribute('data-gap-days')).toBe('3');
    const toSec = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
    const ink = await page.evaluate(
      ({ gap, line }) => {
        const fig = document.querySelector('.card[data-card-id="weight"] figure.line-chart') as HTMLElement;
        const plot = fig.querySelector('.line-chart-plot') as HTMLElement;
        const over = (fig.querySelector('.u-over') as HTMLElement).getBoundingClientRect();
        const canvas = fig.querySelector('canvas') as HTMLCanvasElement;
        const box = canvas.getBoundingClientRect();
        const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
        const xMin = Number(plot.dataset.xMin);
        const xMax = Number(plot.dataset.xMax);
        const scale = canvas.width / box.width;
        // pixels of the series colour (#2f8f6f) in the canvas column at time `sec`
        const inkAt = (sec: number) => {
          const x = over.left + ((sec - xMin) / (xMax - xMin)) * over.width - box.left;
          const col = ctx.getImageData(Math.round(x * scale), 0, 1, canvas.height).data;
          let n = 0;
          for (let i = 0; i < col.length; i += 4) {
            if (
              Math.abs(col[i] - 47) < 40 &&
              Math.abs(col[i + 1] - 143) < 40 &&
              Math.abs(col[i + 2] - 111) < 40 &&
              col[i + 3] > 100
            )
              n++;
          }
          return n;
        };
        return { gap: inkAt(gap), line: inkAt(line) };
      },
      { gap: toSec(day(-22)), line: toSec(day(-5)) + 43_200 },
    );
    // between two neighbouring days the line is drawn; in the middle of the 17 empty days it is not
    expect(ink.line).toBeGreaterThan(0);
    expect(ink.gap).toBe(0);
    // the legend: the label and the unit once ("Weight 78.6 kg", not "Weight (kg) 78.6 kg")
    const latest = ((await weight.locator('.line-chart-latest').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(latest).toMatch(/^Weight 78\.6 kg · /);
    expect(latest.match(/kg/g)?.length).toBe(1);

    const bp = page.locator('.card[data-card-id="bp"] figure.line-chart[data-drawn="true"]');
    await bp.waitFor();
    const first = ((await bp.locator('.line-chart-latest').first().textContent()) ?? '').replace(/\s+/g, ' ');
    expect(first).toMatch(/^Systolic 127\.5 · .*\(daily average of 2 readings\)$/);
    expect(await bp.locator('.line-chart-note').textContent()).toMatch(/daily average/);
    expect(await shownText(page)).not.toMatch(DEVELOPER_WORDS);
    await screenshot(page, 'honest-trends-desktop');
  });

  it('a phone at 390 px opens on the pinned card, fits the screen, and speaks to people', async () => {
    const { page } = await open(en, '/', PHONE);
    const tops = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main .card-grid .card')].map((c) => ({
        id: c.dataset.cardId,
        top: c.getBoundingClientRect().top,
      })),
    );
    const highest = tops.reduce((a, b) => (b.top < a.top ? b : a));
    // bp is pinned (priority) and last in order, yet first on the phone
    expect(highest.id).toBe('bp');
    expect(await card(page, 'bp').getAttribute('class')).toContain('card-pinned');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await shownText(page)).not.toMatch(DEVELOPER_WORDS);
    await screenshot(page, 'honest-today-phone');

    const trends = await open(en, '/trends', PHONE);
    await trends.page.locator('.card[data-card-id="bp"] figure.line-chart[data-drawn="true"]').waitFor();
    expect(await scrollsSideways(trends.page)).toBe(false);
    await screenshot(trends.page, 'honest-trends-phone');
  });

  it('a German browser reads decimal commas and German days, on Today and Trends', async () => {
    const { page } = await open(de, '/');
    expect(await text(page, 'weight', '.gc-value')).toBe('78,6');
    expect(await text(page, 'weight', '.gc-trend')).toBe('↓−0,1');
    expect(await text(page, 'steps', '.gc-value')).toBe('3.000');
    const long = new Intl.DateTimeFormat('de-DE', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    }).format(new Date(`${T}T12:00:00Z`));
    expect(await page.locator('.date-bar-title p').textContent()).toBe(long);
    await screenshot(page, 'honest-today-de');

    const trends = await open(de, '/trends');
    const weight = trends.page.locator('.card[data-card-id="weight"] figure.line-chart[data-drawn="true"]');
    await weight.waitFor();
    const short = new Intl.DateTimeFormat('de-DE', {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }).format(new Date(`${T}T12:00:00Z`));
    expect(((await weight.locator('.line-chart-latest').textContent()) ?? '').replace(/\s+/g, ' ')).toBe(
      `Weight 78,6 kg · ${short}`,
    );
    const bp = trends.page.locator('.card[data-card-id="bp"] figure.line-chart[data-drawn="true"]');
    expect(
      ((await bp.locator('.line-chart-latest').first().textContent()) ?? '').replace(/\s+/g, ' '),
    ).toMatch(/^Systolic 127,5 · /);
  });

  it('Settings and an empty view carry no developer words', async () => {
    const settings = await open(en, '/settings', DESKTOP, false);
    await settings.page.locator('.setting-row[data-card-id="weight"]').waitFor();
    expect(
      await settings.page.locator('.setting-row[data-card-id="steps"] .setting-description').textContent(),
    ).toBe('Steps walked per day, from the phone or watch via Health Auto Export.');
    expect(await shownText(settings.page)).not.toMatch(DEVELOPER_WORDS);
    await screenshot(settings.page, 'honest-settings-desktop');

    // no card is on Reports: its empty state
    const reports = await open(en, '/reports', DESKTOP, false);
    await reports.page.locator('main .state-empty').first().waitFor();
    expect(await shownText(reports.page)).not.toMatch(DEVELOPER_WORDS);
  });
});
