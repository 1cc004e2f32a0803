/**
 * The readings table of the doctor's summary in Chromium with a German browser: a number is
 * written as the stats above it are (1.234,5, not 1234.5), a reading holding several values
 * (a list, an object) shows them, and one reading is "1 reading".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, type TestBrowser } from './browser.js';

const T = 'summary-cells-token';
let s: TestServer;
let browser: TestBrowser;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const made = await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'labs', label: 'Labs' },
      data: [
        {
          date: '2026-04-02',
          ldl: 1234.5,
          panel: { hdl: 55, ratio: 2.5 },
          tags: ['fasting', 'morning'],
          fasting: true,
        },
      ],
    },
  });
  expect(made.status, made.text).toBe(201);
  browser = await launchBrowser({ timezoneId: 'Europe/Berlin', locale: 'de-DE' });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the summary readings table', () => {
  it('writes numbers as the stats do and shows what a nested reading holds', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${s.url}/summary?from=2026-04-01&to=2026-04-30&cards=labs`);
    const card = page.locator('[data-summary-card="labs"]');
    await card.locator('.summary-readings').waitFor();
    const stat = await card.locator('.summary-stats tr', { hasText: 'ldl' }).locator('td').allInnerTexts();
    expect(stat[1]).toBe('1.234,5');
    const heads = await card.locator('.summary-readings thead th').allInnerTexts();
    const cells = await card.locator('.summary-readings tbody td').allInnerTexts();
    const cell = (field: string) => cells[heads.indexOf(field)];
    expect(cell('ldl')).toBe('1.234,5');
    expect(cell('panel')).not.toContain('[object Object]');
    expect(cell('panel')).toContain('55');
    expect(cell('tags')).toContain('morning');
    expect(await card.locator('.summary-readings caption').textContent()).toBe('1 reading');
    expect(problems).toEqual([]);
  });
});
