import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import { PHONE, scrollsSideways, settled } from './browser.js';
import { startServerWithCards, watchPages } from './watched-pages.js';

const TZ = 'Pacific/Auckland';

const { open } = watchPages({ timezoneId: TZ });

describe('a fresh home', { timeout: 90_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows the welcome card on Today, with the instance name, and reports the time zone', async () => {
    const { page } = await open(`${s.url}/`);
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Today');
    const card = page.locator('main .card[data-card-id="welcome"]');
    await card.waitFor();
    expect(await card.locator('.card-label').textContent()).toBe('Welcome to Klebb');
    expect(await card.locator('.card-emoji').textContent()).toBe('👋');
    // the welcome text is drawn as markdown, never the unknown-renderer placeholder
    // (its `## Welcome` is an h4: card headings sit two levels below the page's)
    await expect.poll(() => card.locator('h4').filter({ hasText: 'Welcome 👋' }).count()).toBe(1);
    expect(await card.locator('[data-unknown-renderer]').count()).toBe(0);
    expect(await page.locator('.brand-name').textContent()).toBe('Klebb');
    expect(await page.title()).toBe('Klebb');
    expect(await page.locator('#chat-slot').count()).toBe(1);
    await expect.poll(() => s.inst.user.timeZone()).toBe(TZ);
  });

  it('switches a card off and on in Settings, and the API and Today follow', async () => {
    const { page } = await open(`${s.url}/`);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(`${s.url}/settings`);
    const row = page.locator('.setting-row[data-card-id="welcome"]');
    await row.waitFor();
    expect(await row.locator('.setting-label').textContent()).toBe('Welcome to Klebb');
    const sw = row.getByRole('switch');
    expect(await sw.getAttribute('aria-checked')).toBe('true');

    await sw.click();
    await expect.poll(() => sw.getAttribute('aria-checked')).toBe('false');
    await expect.poll(() => sw.isEnabled()).toBe(true);
    const off = await s.api('/api/settings/cards');
    expect(off.body.cards.find((c: { id: string }) => c.id === 'welcome').enabled).toBe(false);
    expect((await s.api('/api/manifests/welcome')).body.meta.enabled).toBe(false);

    await page.getByRole('link', { name: 'Today' }).click();
    await page.waitForURL(`${s.url}/`);
    await page.locator('main .state-empty').waitFor();
    expect(await page.locator('main .card').count()).toBe(0);

    await page.getByRole('link', { name: 'Settings' }).click();
    const sw2 = page.locator('.setting-row[data-card-id="welcome"]').getByRole('switch');
    await sw2.click();
    await expect.poll(() => sw2.getAttribute('aria-checked')).toBe('true');
    await expect.poll(async () => (await s.api('/api/manifests/welcome')).body.meta.enabled).toBe(true);
  });

  it('opens client routes directly, goes back and forward, and remembers the theme', async () => {
    const { page } = await open(`${s.url}/settings`);
    expect(await page.locator('main h1').textContent()).toBe('Settings');

    await page.goto(`${s.url}/day/2026-04-20`);
    await settled(page);
    expect(await page.locator('main .date-bar-title').textContent()).toMatch(/20 April/);
    expect(await page.locator('main .card[data-card-id="welcome"]').count()).toBe(1);
    await page.getByRole('link', { name: 'Previous day' }).click();
    await page.waitForURL(`${s.url}/day/2026-04-19`);
    await page.goBack();
    await page.waitForURL(`${s.url}/day/2026-04-20`);
    await page.goForward();
    await page.waitForURL(`${s.url}/day/2026-04-19`);

    for (const [route, title] of [
      ['/calendar', null],
      ['/trends', 'Trends'],
      ['/reports', 'Reports'],
      ['/no-such-page', null],
    ] as const) {
      await page.goto(`${s.url}${route}`);
      await settled(page);
      if (title) expect(await page.locator('main h1').textContent()).toBe(title);
    }
    expect(await page.locator('main .state-empty h2').textContent()).toBe('Nothing here');

    // the theme toggle: dark now, still dark after a reload
    const before = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
    expect(before).toBeNull();
    await page.locator('.theme-toggle').click();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    await page.reload();
    await settled(page);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    await page.locator('.theme-toggle').click();
    expect(await page.evaluate(() => localStorage.getItem('klebb.theme'))).toBe('light');
    await page.evaluate(() => localStorage.removeItem('klebb.theme'));
  });
});

describe('a home with cards', { timeout: 90_000 }, () => {
  const examples = ['weight', 'mood', 'bp', 'medication-schedule', 'steps', 'sleep-hours', 'lab-results'];
  let s: TestServer;
  beforeAll(async () => {
    s = await startServerWithCards(
      examples.map((id) => {
        // the daily prompt (meta.prompt) is its own test (daily-prompt.test.ts): without it here,
        // no modal covers the page these tests click on
        const manifest = readTemplate(id);
        delete manifest.meta.prompt;
        return manifest;
      }),
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists each view’s cards by label and emoji', async () => {
    const { page } = await open(`${s.url}/`);
    for (const view of ['view', 'trends', 'reports'] as const) {
      const expected = (await s.api(`/api/views/${view}`)).body.cards.map(
        (c: { meta: { label: string } }) => c.meta.label,
      );
      expect(expected.length).toBeGreaterThan(0);
      if (view !== 'view') {
        await page.getByRole('link', { name: view === 'trends' ? 'Trends' : 'Reports' }).click();
        await settled(page);
      }
      expect(await page.locator('main .card .card-label').allTextContents()).toEqual(expected);
    }
    await page.getByRole('link', { name: 'Calendar' }).click();
    await settled(page);
    const onCalendar = (await s.api('/api/views/calendar')).body.cards.map((c: { id: string }) => c.id);
    await expect
      .poll(() =>
        page
          .locator('.calendar-legend .chip')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-card-id'))),
      )
      .toEqual(onCalendar);
  });

  it('fits a 390 px phone: no sideways scroll, 44 px touch targets', async () => {
    for (const route of ['/', '/calendar', '/settings']) {
      const { page } = await open(`${s.url}${route}`, PHONE);
      expect(await scrollsSideways(page), route).toBe(false);
      const small = await page.evaluate(() =>
        [
          ...document.querySelectorAll<HTMLElement>(
            '.nav-link, .icon-button, .switch, .segment, .brand-mark, a.month-day',
          ),
        ]
          .filter((el) => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
          .map((el) => ({ el: el.className, r: el.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 && (r.width < 44 || r.height < 44))
          .map(({ el, r }) => `${el} ${Math.round(r.width)}x${Math.round(r.height)}`),
      );
      expect(small, route).toEqual([]);
      // the tab bar sits at the bottom of the screen
      const nav = await page.locator('nav.nav').boundingBox();
      expect(nav && Math.round(nav.y + nav.height), route).toBe(PHONE.height);
    }
  });
});
