/**
 * The `combination-card` renderer in Debian's Chromium against the real server (
 * docs/MANIFEST-SCHEMA.md "Combination cards"), on the example cards activity, activity-rings and
 * sleep with their real source cards:
 * - stack: the primary value as the headline, secondary lines, annotation chips, each from its
 *   own source card, emoji maps applied;
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
import { casesDir } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  launchBrowser,
  PHONE,
  scrollsSideways,
  settled,
  type TestBrowser,
  type WatchedPage,
} from './browser.js';

const TZ = 'Pacific/Auckland';
const EXAMPLES = path.join(casesDir, 'manifests/examples');
const today = todayIn(TZ);
const yesterday = addDays(today, -1);

/** Source rows imported with the example files (read-only cards take data only this way). */
const ROWS: Record<string, unknown[]> = {
  steps: [
    { date: yesterday, count: 12000 },
    { date: today, count: 8123 },
  ],
  'active-minutes': [{ date: today, minutes: 42 }],
  workouts: [{ date: today, trained: true, type: 'Run' }],
  'sleep-hours': [{ date: today, hours: 7.25 }],
  mood: [{ date: today, mood: 4, wakeUps: 2 }],
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
      for (const id of [
        'activity',
        'activity-rings',
        'sleep',
        'steps',
        'active-minutes',
        'workouts',
        'sleep-hours',
        'mood',
      ]) {
        const m = JSON.parse(fs.readFileSync(path.join(EXAMPLES, `${id}.example.json`), 'utf8'));
        if (id === 'activity-rings') m.meta.enabled = true; // ships switched off
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
                { sourceId: 'hydration', role: 'primary', label: 'Water' },
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
  it('stack: headline, secondary line and annotation chip, each from its source card', async () => {
    const { page } = await open(`${s.url}/`);
    const activity = combo(page, 'activity');
    await activity.waitFor();
    expect(await activity.getAttribute('data-layout')).toBe('stack');
    expect(await text(activity.locator('.combo-primary .combo-label').textContent())).toBe('Steps');
    expect(await text(activity.locator('.combo-primary .combo-headline').textContent())).toBe('8,123 steps');
    expect(await text(activity.locator('.combo-line[data-role="secondary"]').textContent())).toBe(
      'Active minutes42 min',
    );
    expect(await text(activity.locator('.combo-chip').textContent())).toBe('Trained ✅');

    const sleep = combo(page, 'sleep');
    expect(await text(sleep.locator('.combo-headline').textContent())).toBe('7.25 h');
    expect(
      await text(sleep.locator('.combo-line[data-role="secondary"] .combo-line-value').textContent()),
    ).toBe('🙂');
    expect(await text(sleep.locator('.combo-chip').textContent())).toBe('Wake-ups 2');
  });

  it('rings: one ring per ring-segment, filled towards the goal, complete past it', async () => {
    const { page } = await open(`${s.url}/`);
    const rings = combo(page, 'activity-rings');
    await rings.waitFor();
    expect(await rings.getAttribute('data-layout')).toBe('rings');
    const legend = rings.locator('.combo-ring-legend li');
    expect(await legend.count()).toBe(2);
    expect(await text(legend.nth(0).textContent())).toBe('Steps8,123 / 10,000 steps · 81%');
    expect(await legend.nth(0).getAttribute('data-complete')).toBe('false');
    expect(await text(legend.nth(1).textContent())).toBe('Active42 / 30 min · 140% ✓');
    expect(await legend.nth(1).getAttribute('data-complete')).toBe('true');
    expect(await rings.locator('circle.combo-ring-fill').count()).toBe(2);
    expect(await rings.locator('svg').getAttribute('aria-label')).toBe('Steps: 81%, Active: 140%');
    // the manifest's own colours
    expect(
      await rings
        .locator('circle.combo-ring-fill')
        .evaluateAll((els) => els.map((e) => e.getAttribute('stroke'))),
    ).toEqual(['#0ea5e9', '#f59e0b']);
    expect(await text(rings.locator('.combo-chip').textContent())).toBe('Trained ✅');
  });

  it('shows each source’s state: no card, no entry for the day, no goal, reserved role', async () => {
    const { page } = await open(`${s.url}/`);
    const odd = combo(page, 'odd-combo');
    await odd.waitFor();
    expect(await odd.locator('.combo-primary').getAttribute('data-state')).toBe('no-source');
    expect(await text(odd.locator('.combo-primary .combo-state').textContent())).toBe('No card “hydration”');
    expect(await odd.locator('.combo-bar').getAttribute('data-state')).toBe('no-goal');
    expect(await text(odd.locator('.combo-bar .combo-state').textContent())).toBe('Needs a daily goal');
    expect(await text(odd.locator('.combo-ignored').textContent())).toMatch(
      /^One source is not shown: #2 role "bar-series" is reserved/,
    );

    // the day before: steps has a row, the other sources none
    await page.getByRole('link', { name: 'Previous day' }).click();
    await page.waitForURL(`${s.url}/day/${yesterday}`);
    const activity = combo(page, 'activity');
    await expect
      .poll(() => text(activity.locator('.combo-primary .combo-headline').textContent()))
      .toBe('12,000 steps');
    expect(await activity.locator('.combo-line[data-role="secondary"]').getAttribute('data-state')).toBe(
      'no-entry',
    );
    expect(
      await text(activity.locator('.combo-line[data-role="secondary"] .combo-state').textContent()),
    ).toBe('No entry');
    const sleep = combo(page, 'sleep');
    expect(await text(sleep.locator('[data-renderer-note]').textContent())).toBe(
      'Nothing logged for this day yet.',
    );
  });

  it('re-resolves when a source row is written, and a switched-off source still feeds it', async () => {
    const { page } = await open(`${s.url}/`);
    const sleep = combo(page, 'sleep');
    await sleep.waitFor();
    await page.evaluate(() => {
      (window as unknown as { __sameLoad: boolean }).__sameLoad = true;
    });
    const r = await s.api('/api/manifests/mood/rows', {
      json: { value: { date: today, mood: 5, wakeUps: 0 } },
    });
    expect(r.status, r.text).toBe(201);
    await expect
      .poll(() => text(sleep.locator('.combo-line[data-role="secondary"] .combo-line-value').textContent()))
      .toBe('😄');
    expect(await text(sleep.locator('.combo-chip').textContent())).toBe('Wake-ups 0');

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
    await combo(page, 'activity-rings').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
  });
});
