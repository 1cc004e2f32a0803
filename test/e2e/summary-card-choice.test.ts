/**
 * The doctor's summary page in Chromium when its list of cards holds nothing or names a card that
 * is gone: an address with `cards=` and nothing in it shows no card and says so (before, it showed
 * every card after a reload and none before); unticking every card holds back Show; a saved link
 * naming a deleted card says which one, and Show leaves it out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, type TestBrowser } from './browser.js';

const T = 'summary-choice-token';
let s: TestServer;
let browser: TestBrowser;

const card = (id: string, label: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label, view: { enabled: true, component: 'generic-card' } },
  data: [{ date: '2026-04-06', kg: 80 }],
});

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  for (const [id, label] of [
    ['weight', 'Weight'],
    ['pulse', 'Pulse'],
  ]) {
    const r = await s.api('/api/manifests', { token: T, json: card(id, label) });
    expect(r.status, r.text).toBe(201);
  }
  browser = await launchBrowser({ timezoneId: 'Europe/Berlin' });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const shown = (page: import('playwright-core').Page) =>
  page
    .locator('[data-summary-card]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-summary-card')));

describe('the cards of the summary', () => {
  it('cards= with nothing in it shows no card and says so', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${s.url}/summary?from=2026-04-01&to=2026-04-30&cards=`);
    await page.getByText('No card is ticked').waitFor();
    expect(await shown(page)).toEqual([]);
    expect(await page.getByRole('button', { name: 'Show' }).isDisabled()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('unticking every card holds back Show; ticking one shows that one', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${s.url}/summary?from=2026-04-01&to=2026-04-30&cards=weight,pulse`);
    await page.locator('[data-summary-card="pulse"]').waitFor();
    await page.getByLabel('Weight').uncheck();
    await page.getByLabel('Pulse').uncheck();
    await page.getByText('Tick at least one card to show.').waitFor();
    expect(await page.getByRole('button', { name: 'Show' }).isDisabled()).toBe(true);
    await page.getByLabel('Pulse').check();
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/cards=pulse$/);
    await page.waitForFunction(() => document.querySelectorAll('[data-summary-card]').length === 1);
    expect(await shown(page)).toEqual(['pulse']);
    expect(problems).toEqual([]);
  });

  it('a saved link naming a deleted card names it, and Show leaves it out', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${s.url}/summary?from=2026-04-01&to=2026-04-30&cards=weight,old-bp`);
    await page.getByRole('alert').getByText('no card with id "old-bp"').waitFor();
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('[data-summary-card="weight"]').waitFor();
    expect(page.url()).toMatch(/cards=weight$/);
    expect(await shown(page)).toEqual(['weight']);
  });
});
