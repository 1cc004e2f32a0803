/**
 * The first start of a new home in Debian's Chromium, at 390 and 1280 px: Today shows the welcome
 * card in words for people (no field names, routes, JSON or folders of the server) with a few
 * ready-made cards to tick; adding two puts them on Today in its place (the first card added
 * hides the welcome card); "See all cards" opens the gallery. Screenshots of the welcome card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate, templateIds } from '../helpers/templates.js';
import { DESKTOP, PHONE, screenshot, scrollsSideways } from './browser.js';
import { watchPages } from './watched-pages.js';

const { open } = watchPages({ timezoneId: 'Europe/Berlin' });

const featured = templateIds().filter(
  (id) => (readTemplate(id).meta.template as { featured?: boolean } | undefined)?.featured === true,
);

for (const [name, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  describe(`the first start, at ${viewport.width} px`, { timeout: 90_000 }, () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startServer();
    });
    afterAll(async () => {
      await s?.close();
    });

    it('links to the whole gallery', async () => {
      const { page } = await open(`${s.url}/`, viewport);
      const link = page
        .locator('main .card[data-card-id="welcome"]')
        .getByRole('link', { name: 'See all cards' });
      await link.click();
      await page.waitForURL(`${s.url}/settings/cards/add`);
      await page.locator('.gallery-item').first().waitFor();
    });

    it('offers starter cards in words for people, and adds the ones ticked', async () => {
      const { page } = await open(`${s.url}/`, viewport);
      const card = page.locator('main .card[data-card-id="welcome"]');
      await card.waitFor();
      const picks = card.locator('.starter-pick');
      await picks.first().waitFor();
      const offered = await picks.evaluateAll((els) => els.map((e) => e.getAttribute('data-template-id')));
      expect(offered.length).toBeGreaterThanOrEqual(3);
      for (const id of offered) expect(featured).toContain(id);
      const words = (await card.textContent()) ?? '';
      expect(words).toMatch(/Pick a few to start with/);
      expect(words).not.toMatch(/meta\.|\/api\/|JSON|HEALTH_HOME|data\/|\.json|manifest/i);
      expect(await scrollsSideways(page)).toBe(false);
      const add = card.getByRole('button', { name: /^Add/ });
      expect(await add.isDisabled()).toBe(true);
      await screenshot(page, `first-start-${name}`);

      await card.locator('.starter-pick[data-template-id="sleep-hours"]').click();
      await card.locator('.starter-pick[data-template-id="mood"]').click();
      expect(await add.textContent()).toBe('Add 2 cards');
      // two clicks in the same tick (before the page re-renders) add each card once: no mood-2
      await add.evaluate((b: HTMLButtonElement) => {
        b.click();
        b.click();
      });
      // the new cards take the welcome card's place on Today
      await page.locator('main .card[data-card-id="sleep-hours"]').waitFor();
      await page.locator('main .card[data-card-id="mood"]').waitFor();
      await expect.poll(() => page.locator('main .card[data-card-id="welcome"]').count()).toBe(0);
      const ids = (await s.api('/api/manifests')).body.entries.map((e: { id: string }) => e.id).sort();
      expect(ids).toEqual(['mood', 'sleep-hours', 'welcome']);
      expect((await s.api('/api/manifests/welcome')).body.meta.enabled).toBe(false);
    });
  });
}
