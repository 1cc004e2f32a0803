/**
 * The `combination-card` renderer in Debian's Chromium against the real server
 * (docs/MANIFEST-SCHEMA.md `combination-card`), on the templates morning-check (stack) and
 * daily-rings (rings) with their real source cards:
 * - stack: the primary value as the headline, secondary lines, annotation chips, a bar, each from
 *   its own source card, emoji maps applied;
 * - rings: one ring per ring-segment, filled towards goalDaily, complete past the goal;
 * - per-source states on screen: no entry for the day, a source card that does not exist;
 * - a source row written through the API re-resolves the card without a reload, and a source
 *   switched off (the usual pairing) still feeds it;
 * - the date scrub shows another day's values; no console error; fits a phone.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
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

const TZ = 'Pacific/Auckland';
const today = todayIn(TZ);
const yesterday = addDays(today, -1);

/** Source rows imported with the template files. */
const ROWS: Record<string, unknown[]> = {
  steps: [{ date: today, count: 7200 }],
  'active-minutes': [{ date: today, minutes: 42 }],
  workouts: [{ date: today, trained: true, type: 'run' }],
  'sleep-hours': [
    { date: yesterday, hours: 6.5 },
    { date: today, hours: 7.25, wakeUps: 2 },
  ],
  mood: [{ date: today, mood: 4 }],
  'heart-rate-resting': [{ date: today, bpm: 54 }],
  hydration: [
    { date: today, glasses: 3 },
    { date: today, glasses: 3 },
  ],
};

let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];
let s: TestServer;

async function open(url: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage(viewport);
  pages.push(w);
  await w.page.goto(url);
  await settled(w.page);
  return w;
}

const combo = (page: Page, id: string) => page.locator(`main .card[data-card-id="${id}"] .combo`);
const text = async (p: Promise<string | null>) => ((await p) ?? '').replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  try {
    browser = await launchBrowser({ timezoneId: TZ });
  } catch (err) {
    launchError = err as Error;
  }
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      for (const id of ['morning-check', 'daily-rings', ...Object.keys(ROWS)]) {
        const m = readTemplate(id);
        if (ROWS[id]) m.data = ROWS[id];
        fs.writeFileSync(path.join(dataDir, `${id}.json`), JSON.stringify(m, null, 2));
      }
      // a combination naming a card that does not exist, and one role that is reserved
      fs.writeFileSync(
        path.join(dataDir, 'odd-combo.json'),
        JSON.stringify({
          $schema: 'klebb.datafile.v1',
          meta: {
            id: 'odd-combo',
            label: 'Odd combination',
            order: 5000,
            view: {
              enabled: true,
              component: 'combination-card',
              combines: [
                { sourceId: 'blood-sugar', role: 'primary', label: 'Glucose' },
                { sourceId: 'steps', role: 'bar-series' },
                { sourceId: 'steps', role: 'ring-segment', label: 'Steps goal', accessor: 'count' },
              ],
            },
          },
        }),
      );
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

describe('combination-card', { timeout: 90_000 }, () => {
  it('stack: headline, secondary lines, annotation chip and a bar, each from its source card', async () => {
    const { page } = await open(`${s.url}/`);
    const morning = combo(page, 'morning-check');
    await morning.waitFor();
    expect(await morning.getAttribute('data-layout')).toBe('stack');
    expect(await text(morning.locator('.combo-primary .combo-label').textContent())).toBe('Slept');
    expect(await text(morning.locator('.combo-primary .combo-headline').textContent())).toBe('7.25 h');
    const lines = morning.locator('.combo-line[data-role="secondary"]');
    expect(await text(lines.nth(0).textContent())).toBe('Resting HR54 bpm');
    expect(await text(lines.nth(1).textContent())).toBe('Woke up2 ×');
    expect(await text(morning.locator('.combo-chip').textContent())).toBe('Mood 🙂');
    expect(await morning.locator('.combo-bar').getAttribute('data-state')).toBe('ok');
  });

  it('rings: one ring per ring-segment, filled towards the goal, complete past it', async () => {
    const { page } = await open(`${s.url}/`);
    const rings = combo(page, 'daily-rings');
    await rings.waitFor();
    expect(await rings.getAttribute('data-layout')).toBe('rings');
    const legend = rings.locator('.combo-ring-legend li');
    expect(await legend.count()).toBe(3);
    expect(await text(legend.nth(0).textContent())).toBe('Steps7,200 / 8,000 steps · 90%');
    expect(await legend.nth(0).getAttribute('data-complete')).toBe('false');
    expect(await text(legend.nth(1).textContent())).toBe('Exercise42 / 30 min · 140% ✓');
    expect(await legend.nth(1).getAttribute('data-complete')).toBe('true');
    // a ring adds up the day's rows: 3 + 3 glasses
    expect(await text(legend.nth(2).textContent())).toBe('Water6 / 8 glasses · 75%');
    expect(await rings.locator('circle.combo-ring-fill').count()).toBe(3);
    expect(await rings.locator('svg').getAttribute('aria-label')).toBe(
      'Steps: 90%, Exercise: 140%, Water: 75%',
    );
    // the manifest's own colours
    expect(
      await rings
        .locator('circle.combo-ring-fill')
        .evaluateAll((els) => els.map((e) => e.getAttribute('stroke'))),
    ).toEqual(['#22c55e', '#f97316', '#0ea5e9']);
    expect(await text(rings.locator('.combo-chip').textContent())).toBe('Trained ✅');
  });

  it('shows each source’s state: no card, no entry for the day, no goal, reserved role', async () => {
    const { page } = await open(`${s.url}/`);
    const odd = combo(page, 'odd-combo');
    await odd.waitFor();
    expect(await odd.locator('.combo-primary').getAttribute('data-state')).toBe('no-source');
    expect(await text(odd.locator('.combo-primary .combo-state').textContent())).toBe(
      'No card “blood-sugar”',
    );
    expect(await odd.locator('.combo-bar').getAttribute('data-state')).toBe('no-goal');
    expect(await text(odd.locator('.combo-bar .combo-state').textContent())).toBe('Needs a daily goal');
    expect(await text(odd.locator('.combo-ignored').textContent())).toMatch(
      /^One source is not shown: #2 role "bar-series" is reserved/,
    );

    // the day before: sleep has a row, the other sources none
    await page.getByRole('link', { name: 'Previous day' }).click();
    await page.waitForURL(`${s.url}/day/${yesterday}`);
    const morning = combo(page, 'morning-check');
    await expect
      .poll(() => text(morning.locator('.combo-primary .combo-headline').textContent()))
      .toBe('6.5 h');
    const heart = morning.locator('.combo-line[data-role="secondary"]').nth(0);
    expect(await heart.getAttribute('data-state')).toBe('no-entry');
    expect(await text(heart.locator('.combo-state').textContent())).toBe('No entry');
    const rings = combo(page, 'daily-rings');
    expect(await text(rings.locator('[data-renderer-note]').textContent())).toBe(
      'Nothing logged for this day yet.',
    );
  });

  it('re-resolves when a source row is written, and a switched-off source still feeds it', async () => {
    const { page } = await open(`${s.url}/`);
    const sleep = combo(page, 'morning-check');
    await sleep.waitFor();
    await page.evaluate(() => {
      (window as unknown as { __sameLoad: boolean }).__sameLoad = true;
    });
    const r = await s.api('/api/manifests/mood/rows', {
      json: { value: { date: today, mood: 5 } },
    });
    expect(r.status, r.text).toBe(201);
    await expect.poll(() => text(sleep.locator('.combo-chip').textContent())).toBe('Mood 😁');

    // the usual pairing: the absorbed card switched off leaves Today but still feeds the combination
    const off = await s.api('/api/settings/cards/sleep-hours/disable', { method: 'POST' });
    expect(off.status, off.text).toBe(200);
    await expect.poll(() => page.locator('main .card[data-card-id="sleep-hours"]').count()).toBe(0);
    const r2 = await s.api('/api/manifests/sleep-hours/rows', { json: { value: { date: today, hours: 8 } } });
    expect(r2.status, r2.text).toBe(201);
    await expect.poll(() => text(sleep.locator('.combo-headline').textContent())).toBe('8 h');
    expect(await page.evaluate(() => (window as unknown as { __sameLoad?: boolean }).__sameLoad)).toBe(true);
  });

  it('fits a 390 px phone', async () => {
    const { page } = await open(`${s.url}/`, PHONE);
    await combo(page, 'daily-rings').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
  });
});
