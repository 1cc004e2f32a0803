/**
 * The doctor's summary page in Chromium, laid out for print on A4: print media, an A4-wide
 * page, blood pressure readings (with long notes), a weight card and a medication schedule.
 * Checks the figures (readings, average, min, max with units; adherence), that no table is
 * clipped or wider than the page, that the app's bar and the controls are not printed, and that
 * Chromium's own Print to PDF makes a document. Screenshot: __screenshots__/summary-a4-print.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, SCREENSHOT_DIR, type TestBrowser } from './browser.js';

/** A4 at 96 dpi, px. */
const A4 = { width: 794, height: 1123 };
const T = 'summary-token';
const ZONE = 'Europe/Berlin';
let s: TestServer;
let browser: TestBrowser;

const bpRows = Array.from({ length: 30 }, (_, i) => ({
  date: `2026-04-${String(i + 1).padStart(2, '0')}`,
  time: '08:00',
  systolic: 110 + (i % 10) * 2,
  diastolic: 70 + (i % 5),
  notes:
    i % 7 === 0
      ? 'After a long walk up the hill; felt a little dizzy, measured twice and wrote down the second value'
      : '',
}));

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const post = (json: unknown) => s.api('/api/manifests', { token: T, json });
  expect(
    (
      await post({
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'bp',
          label: 'Blood pressure',
          emoji: '💓',
          trends: {
            enabled: true,
            series: [{ field: 'systolic' }, { field: 'diastolic' }],
            yAxisLabel: 'mmHg',
          },
        },
        data: [{ date: '2026-03-30', systolic: 200, diastolic: 120 }, ...bpRows],
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await post({
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'weight',
          label: 'Weight',
          view: { enabled: true, component: 'generic-card', display: { primary: 'latest.kg', unit: 'kg' } },
        },
        data: [
          { date: '2026-04-02', kg: 81.2 },
          { date: '2026-04-16', kg: 80.4 },
        ],
      })
    ).status,
  ).toBe(201);
  const doses = Array.from({ length: 20 }, (_, i) => ({
    scheduledDate: `2026-04-${String(i + 1).padStart(2, '0')}`,
    takenAt: `2026-04-${String(i + 1).padStart(2, '0')}T08:00:00Z`,
  }));
  expect(
    (
      await post({
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'meds',
          label: 'Medication',
          emoji: '💊',
          view: { enabled: true, component: 'schedule-card' },
        },
        data: {
          items: [{ name: 'Ramipril 5 mg', schedule: { type: 'daily', start_date: '2026-04-01' }, doses }],
        },
      })
    ).status,
  ).toBe(201);
  browser = await launchBrowser({ timezoneId: ZONE });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the printable summary', () => {
  it('fits A4 with nothing clipped and the right figures', async () => {
    const { page, problems } = await browser.newPage(A4);
    await page.emulateMedia({ media: 'print' });
    await page.goto(`${s.url}/summary?from=2026-04-01&to=2026-04-30&cards=bp,weight,meds`);
    await page.locator('[data-summary-card]').nth(2).waitFor();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    // the time it was made as the page writes dates, never in a locale's day/month order
    const footer = await page.locator('.summary-footer').textContent();
    expect(footer).toMatch(/^Generated \d{4}-\d{2}-\d{2} \d{2}:\d{2} by Klebb\.$/);
    expect([todayIn(ZONE), todayIn(ZONE, new Date(Date.now() - 120_000))]).toContain(footer?.slice(10, 20));

    const bp = page.locator('[data-summary-card="bp"]');
    const sys = bp.locator('.summary-stats tr', { hasText: 'systolic' });
    // 30 readings in April (the March one is outside the range)
    const values = bpRows.map((r) => r.systolic);
    const avg = values.reduce((a, b) => a + b, 0) / values.length;
    expect(await sys.locator('th, td').allInnerTexts()).toEqual([
      'systolic (mmHg)',
      '30',
      Number.isInteger(avg) ? String(avg) : avg.toFixed(1),
      String(Math.min(...values)),
      String(Math.max(...values)),
    ]);
    expect(await bp.locator('.summary-readings tbody tr').count()).toBe(30);
    expect(
      await page
        .locator('[data-summary-card="weight"] .summary-stats tr', { hasText: 'kg' })
        .locator('td')
        .allInnerTexts(),
    ).toEqual(['2', '80.8', '80.4', '81.2']);
    // daily from 1 April to 30 April: 30 doses scheduled, 20 taken
    expect(
      await page.locator('[data-summary-card="meds"] .summary-adherence tbody td').allInnerTexts(),
    ).toEqual(['30', '20', '67%']);

    // not printed: the app's bar, the chat button, the controls
    for (const sel of ['.topbar', '.summary-controls', '.chat-slot']) {
      expect(await page.locator(sel).evaluate((el) => getComputedStyle(el).display), sel).toBe('none');
    }
    // no table wider than the page or clipped: every table and cell inside the page width
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const bad: string[] = [];
      for (const t of document.querySelectorAll<HTMLTableElement>('.summary-table')) {
        const r = t.getBoundingClientRect();
        if (r.right > width + 0.5 || r.left < -0.5) bad.push(`table ${r.left}-${r.right} of ${width}`);
        if (t.scrollWidth > t.clientWidth + 1) bad.push(`table scrolls ${t.scrollWidth} > ${t.clientWidth}`);
        for (const c of t.querySelectorAll<HTMLElement>('th, td')) {
          if (c.scrollWidth > c.clientWidth + 1) bad.push(`cell "${c.innerText.slice(0, 20)}" clipped`);
          if (c.getBoundingClientRect().right > r.right + 0.5)
            bad.push(`cell "${c.innerText.slice(0, 20)}" past its table`);
        }
      }
      if (document.documentElement.scrollWidth > width) bad.push('the page scrolls sideways');
      return bad;
    });
    expect(overflow).toEqual([]);

    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, 'summary-a4-print.png'),
      fullPage: true,
      animations: 'disabled',
    });
    const pdf = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-summary-')), 'summary.pdf');
    await page.pdf({ path: pdf, format: 'A4', printBackground: true, preferCSSPageSize: true });
    const bytes = fs.readFileSync(pdf);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
    fs.rmSync(path.dirname(pdf), { recursive: true, force: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('offers each card as CSV from its menu', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${s.url}/`);
    const card = page.locator('[data-card-id="weight"]');
    await card.waitFor();
    await card.locator('.card-menu summary').click();
    const link = card.locator('.card-menu-list a', { hasText: 'Download CSV' });
    // the browser's language goes along: an English one gets commas and decimal points
    expect(await link.getAttribute('href')).toBe('/api/manifests/weight/export.csv?locale=en-GB');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = await download.path();
    // the byte order mark first, so Excel reads the file as UTF-8
    expect(fs.readFileSync(file, 'utf8')).toBe('\uFEFFdate,kg\r\n2026-04-02,81.2\r\n2026-04-16,80.4\r\n');
    await page.close();
  });
});
