/**
 * Settings › Cards › Add a card in Debian's Chromium against the real server, at 1280 and 390 px:
 * - Settings links to the gallery; the search finds cards by title, category name and other words
 *   ("scales" finds Body weight, "vital signs" the vital signs, "coffee" Caffeine), and says so
 *   when nothing matches;
 * - a chosen card's preview is drawn by the real renderers on its example rows (Today's headline
 *   with its unit, Trends' chart), with no "no display yet" placeholder;
 * - Add makes the card; with a row logged it shows that row on Today;
 * - every template's preview draws on each page it declares;
 * - every template added from the gallery's route appears on each page it declares (Today,
 *   Trends, Reports, the Calendar's legend);
 * - nothing scrolls sideways on a phone; screenshots of the gallery at both widths;
 * - no console error, exception or failed request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate, templateIds } from '../helpers/templates.js';
import { DESKTOP, PHONE, screenshot, scrollsSideways, type WatchedPage } from './browser.js';
import { watchPages } from './watched-pages.js';

const TZ = 'Europe/Berlin';
const { open } = watchPages({ timezoneId: TZ });

const shownIds = (w: WatchedPage) =>
  w.page.locator('.gallery-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-template-id')));

describe('the card gallery', { timeout: 120_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('searches by title, category and other words, previews with the real renderers, and adds a card', async () => {
    const w = await open(`${s.url}/settings`);
    const { page } = w;
    await page.getByRole('link', { name: 'Add a card' }).click();
    await page.waitForURL(`${s.url}/settings/cards/add`);
    await page.locator('.gallery-item').first().waitFor();
    expect(await page.locator('main h1').textContent()).toBe('Add a card');
    // featured first
    const all = await shownIds(w);
    expect(all).toHaveLength(templateIds().length);
    const featured = templateIds().filter(
      (id) => (readTemplate(id).meta.template as { featured?: boolean } | undefined)?.featured === true,
    );
    expect(all.slice(0, featured.length).sort()).toEqual(featured.sort());

    const search = page.getByLabel('Search cards');
    await search.fill('scales');
    await expect.poll(() => shownIds(w)).toEqual(['weight']);
    await search.fill('coffee');
    await expect.poll(() => shownIds(w)).toEqual(['caffeine']);
    await search.fill('vital signs');
    const vitals = templateIds().filter((id) => readTemplate(id).meta.category === 'vitals');
    await expect.poll(async () => (await shownIds(w)).sort()).toEqual(vitals.sort());
    await search.fill('blood');
    await expect.poll(() => shownIds(w)).toContain('bp');
    await search.fill('xylophone');
    await page.locator('main .state-empty').waitFor();
    expect(await page.locator('main .state-empty h2').textContent()).toBe('No card matches');

    await search.fill('weight');
    const item = page.locator('.gallery-item[data-template-id="weight"]');
    await item.locator('.gallery-tile').click();
    const today = item.locator('[data-preview-view="view"] .card');
    await today.waitFor();
    // the last example row is today's: 73.0 kg, drawn by the generic card
    await expect.poll(() => today.locator('.gc-value').textContent()).toBe('73.0');
    expect(await today.locator('.gc-unit').first().textContent()).toBe('kg');
    const trends = item.locator('[data-preview-view="trends"] .card-body');
    await expect.poll(() => trends.locator('svg, canvas').count()).toBeGreaterThan(0);
    expect(await item.locator('[data-unknown-renderer]').count()).toBe(0);
    // a preview takes no entries
    expect(await item.locator('[data-action="log"]').count()).toBe(0);
    await screenshot(page, 'gallery-desktop');

    await item.getByRole('button', { name: 'Add to my cards' }).click();
    await expect
      .poll(() => page.locator('.gallery-status').textContent())
      .toMatch(/Body weight is on your dashboard/);
    // the gallery now says the card is on the dashboard, and offers another
    await expect.poll(() => item.locator('.gallery-have').count()).toBe(1);
    await item.locator('.gallery-tile').click();
    expect(await item.getByRole('button', { name: 'Add another' }).count()).toBe(1);
    await item.locator('.gallery-tile').click();
    const card = await s.api('/api/manifests/weight');
    expect(card.status).toBe(200);
    expect(card.body.meta).not.toHaveProperty('template');

    // with a row logged, Today shows it
    const day = todayIn(TZ);
    const row = await s.api('/api/manifests/weight/rows', { json: { value: { date: day, kg: 81.4 } } });
    expect(row.status).toBe(201);
    await page.getByRole('link', { name: 'See it on Today' }).click();
    await page.waitForURL(`${s.url}/`);
    const onToday = page.locator('main .card[data-card-id="weight"]');
    await onToday.waitFor();
    await expect.poll(() => onToday.locator('.gc-value').textContent()).toBe('81.4');
  });

  it('draws every template’s preview on each page it declares', async () => {
    const { page } = await open(`${s.url}/settings/cards/add`);
    await page.locator('.gallery-item').first().waitFor();
    const failures: string[] = [];
    for (const id of templateIds()) {
      const meta = readTemplate(id).meta as Record<string, { enabled?: boolean; component?: string }>;
      const item = page.locator(`.gallery-item[data-template-id="${id}"]`);
      await item.locator('.gallery-tile').click();
      await item.locator('.gallery-preview').waitFor();
      for (const view of ['view', 'trends', 'reports']) {
        const declared = meta[view]?.enabled === true && typeof meta[view]?.component === 'string';
        const preview = item.locator(`[data-preview-view="${view}"] .card-body`);
        if (!declared) {
          if ((await preview.count()) > 0) failures.push(`${id}: a ${view} preview it does not declare`);
          continue;
        }
        if ((await preview.count()) !== 1) {
          failures.push(`${id}: no ${view} preview`);
          continue;
        }
        await page.waitForFunction(
          (el) => !el?.querySelector('[data-renderer-note="loading"]'),
          await preview.elementHandle(),
        );
        const seen = await preview.evaluate((body) => ({
          text: (body.textContent ?? '').trim(),
          drawing: body.querySelector('canvas, svg, img') !== null,
          unknown: body.querySelector('[data-unknown-renderer]') !== null,
        }));
        if (seen.unknown) failures.push(`${id}: ${view} preview shows the no-display placeholder`);
        if (!seen.text && !seen.drawing) failures.push(`${id}: ${view} preview shows nothing`);
      }
      await item.locator('.gallery-tile').click();
    }
    expect(failures).toEqual([]);
  });

  it('fits a phone: nothing scrolls sideways, the preview and Add are reachable', async () => {
    const { page } = await open(`${s.url}/settings/cards/add`, PHONE);
    const item = page.locator('.gallery-item[data-template-id="bp"]');
    await item.locator('.gallery-tile').click();
    await item.locator('[data-preview-view="view"] .card').waitFor();
    await expect
      .poll(() => item.locator('[data-preview-view="view"] .gc-value').textContent())
      .toBe('122/78');
    expect(await scrollsSideways(page)).toBe(false);
    const add = item.getByRole('button', { name: 'Add to my cards' });
    await add.scrollIntoViewIfNeeded();
    const box = await add.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= PHONE.width).toBe(true);
    await item.locator('.gallery-tile').scrollIntoViewIfNeeded();
    await screenshot(page, 'gallery-phone');
  });
});

describe('every template added from the gallery', { timeout: 120_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
    for (const id of templateIds()) {
      const r = await s.api('/api/settings/cards/from-template', { json: { templateId: id } });
      expect(r.status, r.text).toBe(201);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  const ROUTES = [
    ['view', '/'],
    ['trends', '/trends'],
    ['reports', '/reports'],
    ['calendar', '/calendar'],
  ] as const;

  for (const viewport of [DESKTOP, PHONE]) {
    it(`appears on each page it declares, at ${viewport.width} px`, async () => {
      const failures: string[] = [];
      for (const [view, route] of ROUTES) {
        const { page } = await open(`${s.url}${route}`, viewport);
        await page.locator('[data-drawn="true"], main .month').first().waitFor();
        for (const id of templateIds()) {
          const vc = (readTemplate(id).meta as Record<string, { enabled?: boolean; component?: string }>)[
            view
          ];
          if (vc?.enabled !== true || typeof vc.component !== 'string') continue;
          const where =
            view === 'calendar'
              ? page.locator(`.calendar-legend .chip[data-card-id="${id}"]`)
              : page.locator(`main .card[data-card-id="${id}"] .card-body`);
          if ((await where.count()) !== 1) {
            failures.push(`${id}: not on ${route}`);
            continue;
          }
          if (view !== 'calendar' && (await where.locator('[data-unknown-renderer]').count()) > 0) {
            failures.push(`${id}: the no-display placeholder on ${route}`);
          }
        }
        if (viewport === PHONE && (await scrollsSideways(page))) failures.push(`${route} scrolls sideways`);
      }
      expect(failures).toEqual([]);
    });
  }
});
