/**
 * `generic-card` in Chromium against the real server, drawing the card templates with rows: the headline from the display template (round, emoji, truncate, ternary, fallbacks), the
 * unit, the threshold band's label, the trend arrow with its signed change (no float artefacts),
 * the secondary line, a legacy metric-card, the empty headline, fallbackToLatest, a
 * sparkline; no console errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import {
  launchBrowser,
  PHONE,
  scrollsSideways,
  settled,
  type TestBrowser,
  type WatchedPage,
} from './browser.js';

const DAY = '2026-04-20';

/** An older card: a metric-card with `format`, `primary`/`secondary` paths and thresholds without ifField. */
const LEGACY_BP = {
  $schema: 'eddzhealth.datafile.v1',
  meta: {
    id: 'bp-legacy',
    label: 'Blood pressure (older card)',
    emoji: '🩺',
    view: {
      enabled: true,
      component: 'metric-card',
      dateContext: 'latest',
      display: {
        primary: 'latest.systolic',
        secondary: 'latest.diastolic',
        format: '{systolic}/{diastolic}',
        unit: 'mmHg',
        subtitle: 'Logged {date}',
        thresholds: [
          { max: 120, colour: '#16a34a', label: 'Optimal' },
          { max: 139, colour: '#ca8a04', label: 'Raised' },
          { max: 180, colour: '#dc2626', label: 'High' },
        ],
      },
    },
  },
};

// biome-ignore lint/suspicious/noExplicitAny: manifests are open-ended JSON
function example(id: string): any {
  return id === 'bp-legacy' ? structuredClone(LEGACY_BP) : readTemplate(id);
}

/** The template cards with rows, written as import files (the data moves into the store at start). */
const HOME: Record<string, unknown[]> = {
  weight: [
    { date: '2026-04-18', kg: 85.7 },
    { date: '2026-04-19', kg: 85.3 },
    { date: DAY, kg: 85.5, fatPercent: 21.4, note: 'after a run' },
  ],
  'sleep-hours': [
    { date: '2026-04-19', hours: 7.25 },
    { date: DAY, hours: 5.5, wakeUps: 3 },
  ],
  mood: [{ date: DAY, mood: 4, note: 'slept badly' }],
  workouts: [{ date: DAY, trained: true, type: 'run', durationMin: 40 }],
  notes: [
    {
      date: DAY,
      text: 'Ran 10k in the rain, legs ok 🏃 but knee sore later, iced it in the evening and went to bed early enough to sleep well',
    },
  ],
  bp: [
    { date: '2026-04-17', time: '07:40', systolic: 118, diastolic: 76, pulse: 61 },
    { date: '2026-04-19', time: '07:35', systolic: 126, diastolic: 82, pulse: 64 },
  ],
  'bp-legacy': [
    { date: '2026-04-17', systolic: 118, diastolic: 76 },
    { date: '2026-04-19', systolic: 126, diastolic: 82 },
  ],
  energy: [],
  bristol: [],
};

let s: TestServer;
let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];

async function open(url: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage(viewport);
  pages.push(w);
  await w.page.goto(url);
  await settled(w.page);
  return w;
}

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      for (const [id, data] of Object.entries(HOME)) {
        if (id === 'bristol') continue;
        const m = example(id);
        if (id === 'sleep-hours') m.meta.view.showSparkline = true;
        if (id === 'workouts') m.meta.writeable = { fromWebapp: false };
        if (id === 'energy') m.meta.view.fallbackToLatest = true;
        fs.writeFileSync(path.join(dataDir, `${id}.json`), JSON.stringify({ ...m, data }));
      }
    },
  });
  // energy: one rating three days before the shown day, for fallbackToLatest
  await s.api('/api/manifests/energy/data', { json: { data: [{ date: '2026-04-17', level: 4 }] } });
  try {
    browser = await launchBrowser({ timezoneId: 'Europe/Berlin' });
  } catch (err) {
    launchError = err as Error;
  }
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

const card = (w: WatchedPage, id: string) => w.page.locator(`main .card[data-card-id="${id}"]`);
const textOf = async (w: WatchedPage, id: string, sel: string) =>
  ((await card(w, id).locator(sel).first().textContent()) ?? '').trim();

describe('generic-card with the card templates', { timeout: 90_000 }, () => {
  it('weight: rounded headline, unit, trend with a clean signed change, secondary, sparkline', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    await card(w, 'weight').locator('.gc-value').waitFor();
    expect(await textOf(w, 'weight', '.gc-value')).toBe('85.5');
    expect(await textOf(w, 'weight', '.gc-headline .gc-unit')).toBe('kg');
    // 85.3 → 85.5 is +0.2 (never 0.20000000000000284), up, and down is good for weight
    expect(await textOf(w, 'weight', '.gc-trend')).toBe('↑+0.2');
    expect(await card(w, 'weight').locator('.gc-trend').getAttribute('class')).toContain('gc-trend-bad');
    expect(await card(w, 'weight').locator('.gc-trend').getAttribute('aria-label')).toBe(
      'Up +0.2 since 19 April',
    );
    expect(await textOf(w, 'weight', '.gc-secondary')).toBe('21.4% body fat');
    expect(await card(w, 'weight').locator('.gc-sparkline path').count()).toBe(1);
  });

  it('sleep-hours: the threshold band and its label, a sparkline of the days up to the shown one', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    const c = card(w, 'sleep-hours');
    await c.locator('.gc-value').waitFor();
    expect(await textOf(w, 'sleep-hours', '.gc-value')).toBe('5.5');
    expect(await textOf(w, 'sleep-hours', '.gc-pill')).toBe('Short night');
    const band = await c
      .locator('.gc')
      .evaluate((el) => getComputedStyle(el).getPropertyValue('--gc-band').trim());
    expect(band).toBe('#dc2626');
    expect(await textOf(w, 'sleep-hours', '.gc-secondary')).toBe('woke 3× · quality –/5');
    expect(await c.locator('.gc-sparkline path').count()).toBe(1);
    expect(await textOf(w, 'sleep-hours', '.gc-trend')).toBe('↓−1.75');
    // the day before: one point only, no sparkline, and no trend
    const before = await open(`${s.url}/day/2026-04-19`);
    await card(before, 'sleep-hours').locator('.gc-value').waitFor();
    expect(await textOf(before, 'sleep-hours', '.gc-value')).toBe('7.3');
    expect(await card(before, 'sleep-hours').locator('.gc-sparkline').count()).toBe(0);
  });

  it('mood: the emoji map and the note in the secondary line', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    await card(w, 'mood').locator('.gc-value').waitFor();
    expect(await textOf(w, 'mood', '.gc-value')).toBe('🙂');
    expect(await textOf(w, 'mood', '.gc-secondary')).toBe('slept badly');
  });

  it('workouts (read-only): the ternary headline, no form buttons', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    await card(w, 'workouts').locator('.gc-value').waitFor();
    expect(await textOf(w, 'workouts', '.gc-value')).toBe('Trained');
    expect(await textOf(w, 'workouts', '.gc-secondary')).toBe('🏃 run · 40 min');
    expect(await card(w, 'workouts').locator('button').count()).toBe(0);
  });

  it('notes: truncated to 80 characters without splitting the emoji', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    await card(w, 'notes').locator('.gc-value').waitFor();
    const headline = await textOf(w, 'notes', '.gc-value');
    expect(headline.endsWith('…')).toBe(true);
    expect([...new Intl.Segmenter().segment(headline)].length).toBe(81);
    expect(headline).toContain('🏃');
    expect(headline).not.toContain('\uFFFD');
  });

  it('bp (dateContext latest): the latest reading, its band and its age', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    await card(w, 'bp').locator('.gc-value').waitFor();
    expect(await textOf(w, 'bp', '.gc-value')).toBe('126/82');
    expect(await textOf(w, 'bp', '.gc-headline .gc-unit')).toBe('mmHg');
    expect(await textOf(w, 'bp', '.gc-pill')).toBe('Raised');
    expect(await textOf(w, 'bp', '.gc-secondary')).toBe('pulse 64 · 07:35');
    expect(await textOf(w, 'bp', '.gc-age')).toBe('from 1 day ago');
  });

  it('a legacy metric-card: the format headline, thresholds on the primary field, the subtitle', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    await card(w, 'bp-legacy').locator('.gc-value').waitFor();
    expect(await textOf(w, 'bp-legacy', '.gc-value')).toBe('126/82');
    expect(await textOf(w, 'bp-legacy', '.gc-headline .gc-unit')).toBe('mmHg');
    // thresholds without ifField read the primary field (systolic): 126 is between 120 and 139
    expect(await textOf(w, 'bp-legacy', '.gc-pill')).toBe('Raised');
    expect(await textOf(w, 'bp-legacy', '.gc-subtitle')).toBe('Logged 2026-04-19');
    expect(await textOf(w, 'bp-legacy', '.gc-age')).toBe('from 1 day ago');
    // no bare "latest.diastolic" second value under a format headline
    expect(await card(w, 'bp-legacy').locator('.gc-secondary').count()).toBe(0);
    expect(await card(w, 'bp-legacy').locator('[data-unknown-renderer]').count()).toBe(0);
  });

  it('an empty day shows the empty headline; fallbackToLatest shows the latest row and its age', async () => {
    const w = await open(`${s.url}/day/2026-04-10`);
    await card(w, 'weight').locator('.gc-empty').waitFor();
    expect(await textOf(w, 'weight', '.gc-empty')).toBe('Not weighed yet');
    expect(await textOf(w, 'mood', '.gc-empty')).toBe('No entry yet');
    const later = await open(`${s.url}/day/${DAY}`);
    await card(later, 'energy').locator('.gc-value').waitFor();
    expect(await textOf(later, 'energy', '.gc-value')).toBe('4/5');
    expect(await textOf(later, 'energy', '.gc-age')).toBe('from 3 days ago');
    expect(await textOf(later, 'energy', '.gc-pill')).toBe('Good');
  });

  it('fits a 390 px phone without sideways scrolling', async () => {
    const w = await open(`${s.url}/day/${DAY}`, PHONE);
    await card(w, 'notes').locator('.gc-value').waitFor();
    expect(await scrollsSideways(w.page)).toBe(false);
  });
});
