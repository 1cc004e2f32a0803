/**
 * Connecting the iPhone (Health Auto Export) from Settings in Debian's Chromium, at phone and
 * desktop widths, with no curl: create the token in the panel, read the URL and the header from
 * the page, post a real-shaped payload with them, see the last push and the filled cards; a metric
 * no card shows → "Add a card" (in Settings and on Today's discovery card) → its rows appear; a
 * card that reads another field than the phone sends says so on the card; a new token shuts the
 * old one out (401); removing it switches the webhook off (501).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedHaeText } from '../fixtures/hae-payloads.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { templateText } from '../helpers/templates.js';
import {
  DESKTOP,
  launchBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
  settled,
  type TestBrowser,
} from './browser.js';

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser({ timezoneId: 'UTC' });
});
afterAll(async () => {
  await browser?.close();
});

/** A card written by hand before the fit rule: blood oxygen read as `percent` (rows carry `pct`). */
const PERCENT_CARD = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'oxygen',
    label: 'Oxygen',
    emoji: '🫁',
    ingest: { source: 'hae', metric: 'blood_oxygen_saturation' },
    writeable: { fromWebapp: false },
    view: { enabled: true, component: 'generic-card', display: { template: '{percent}', unit: '%' } },
  },
};

/** The payload the phone posts: three weeks of January 2026 (steps, heart rate, sleep, weight, workouts...). */
const PAYLOAD = generatedHaeText('generated-2026-total-sleep.json');

/** POSTs the payload as the app would, with the URL and header read from the page. */
async function pushFromPhone(url: string, header: string, body = PAYLOAD): Promise<Response> {
  // the page names loopback `localhost`; the test server listens on 127.0.0.1
  return fetch(url.replace('//localhost:', '//127.0.0.1:'), {
    method: 'POST',
    headers: { authorization: header, 'content-type': 'application/json' },
    body,
  });
}

const inputValue = (page: Page, name: string) =>
  page.locator(`[data-copy-field="${name}"] input`).inputValue();

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])('Settings › Health Auto Export at %s width', (name, viewport) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({
      before: (_home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        fs.writeFileSync(path.join(dataDir, 'oxygen.json'), JSON.stringify(PERCENT_CARD));
      },
    });
    expect((await s.api('/api/manifests', { json: JSON.parse(templateText('steps')) })).status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('connects the phone, shows what it filled, adds cards for new metrics, and rotates and removes the token', async () => {
    const { page, problems } = await browser.newPage(viewport);
    await page.goto(`${s.url}/settings`);
    await settled(page);
    await page.getByRole('link', { name: /Health Auto Export/ }).click();
    await page.waitForURL(`${s.url}/settings/health-auto-export`);
    await page.getByRole('button', { name: 'Create the token' }).click();

    // what to paste into the app, read from the page
    const header = page.locator('[data-copy-field="header-value"] input');
    await header.waitFor();
    const url = await inputValue(page, 'url');
    expect(url).toBe(`http://localhost:${new URL(s.url).port}/api/health-auto-export`);
    // a localhost URL reaches the phone itself: the page says so and what to do instead
    expect(await page.locator('.phone-loopback-note').textContent()).toMatch(
      /works only on this computer: your phone cannot reach it.*address your phone will use/,
    );
    expect(await inputValue(page, 'header-key')).toBe('Authorization');
    const first = await header.inputValue();
    expect(first).toMatch(/^Bearer [A-Za-z0-9_-]{43}$/);
    await page.getByText('Nothing has arrived yet').waitFor();

    const pushed = await pushFromPhone(url, first);
    expect(pushed.status).toBe(200);
    expect(((await pushed.json()) as { ingested: Record<string, number> }).ingested).toEqual({ steps: 21 });

    // the last push and what it filled (the panel re-reads by itself)
    const last = page.locator('[aria-labelledby="phone-last-push"]');
    await last.locator('[data-card-id="steps"]').waitFor({ timeout: 15_000 });
    expect(await last.locator('[data-card-id="steps"]').textContent()).toBe('Steps: 21 days filled');
    const facts = await last.locator('.facts').textContent();
    expect(facts).toContain(`${Math.round(Buffer.byteLength(PAYLOAD) / 100) / 10} kB`);
    expect(facts).toMatch(/Received.*2026/);

    // the card on disk that reads another field says so, in Settings
    const oxygenRow = page.locator('[aria-labelledby="phone-cards"] [data-card-id="oxygen"]');
    expect(await oxygenRow.locator('[data-fit-problem]').textContent()).toBe(
      'The phone sends pct; this card reads percent.',
    );

    // a metric no card shows: Add a card, its rows are there at once
    const newList = page.locator('[aria-labelledby="phone-new"]');
    await newList.locator('[data-metric="heart_rate"]').waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(/heart_rate|\/api\/|meta\./);
    await screenshot(page, `phone-setup-settings-${name}`);
    expect(await scrollsSideways(page)).toBe(false);
    // two clicks in the same tick (before the page re-renders) add one card, not two
    await page.getByRole('button', { name: 'Add a card for Heart rate' }).evaluate((b: HTMLButtonElement) => {
      b.click();
      b.click();
    });
    await page.getByText('Added “Heart rate” with 21 days already received.').waitFor();
    const ids = (await s.api('/api/manifests')).body.entries.map((e: { id: string }) => e.id);
    expect(ids.filter((id: string) => id.startsWith('heart-rate'))).toEqual(['heart-rate']);
    await newList.locator('[data-metric="heart_rate"]').waitFor({ state: 'detached' });
    expect((await s.api('/api/manifests/heart-rate/data')).body.data).toHaveLength(21);
    await page.locator('[aria-labelledby="phone-cards"] [data-card-id="heart-rate"]').waitFor();

    // Today: the discovery card offers the rest; the mismatched card explains itself
    await page.getByRole('link', { name: 'Today' }).click();
    const discovery = page.locator('.phone-discovery');
    await discovery.waitFor();
    const oxygen = page.locator('article[data-card-id="oxygen"]');
    expect(await oxygen.locator('[data-ingest-fit]').textContent()).toBe(
      'The phone sends pct; this card reads percent.',
    );
    await screenshot(page, `phone-setup-today-${name}`);
    await discovery.getByRole('button', { name: 'Add a card for Resting heart rate' }).click();
    await page.locator('article[data-card-id="heart-rate-resting"]').waitFor();
    expect((await s.api('/api/manifests/heart-rate-resting/data')).body.data).toHaveLength(21);
    // a day of the push shows the phone's value on the new card
    await page.goto(`${s.url}/day/2026-01-10`);
    await settled(page);
    const resting = page.locator('article[data-card-id="heart-rate-resting"] .card-body');
    expect(await resting.textContent()).toContain(String(54 + (5 % 6)));
    // the × hides the remaining suggestions (they can be shown again in Settings)
    await page.goto(s.url);
    await settled(page);
    await page.getByRole('button', { name: 'Hide these suggestions' }).click();
    await discovery.waitFor({ state: 'detached' });
    const d = (await s.api('/api/health-auto-export/discoveries')).body;
    expect(Object.values(d.undismissed.supported).flat()).toEqual([]);
    expect(d.dismissed.length).toBeGreaterThan(0);

    // a new token: the old one is refused at once, the new one works
    await page.goto(`${s.url}/settings/health-auto-export`);
    await settled(page);
    await page.getByRole('button', { name: 'New token…' }).click();
    await page.getByRole('button', { name: 'Make a new token' }).click();
    await expect.poll(() => header.inputValue()).not.toBe(first);
    const second = await header.inputValue();
    expect((await pushFromPhone(url, first)).status).toBe(401);
    expect((await pushFromPhone(url, second)).status).toBe(200);

    // removing it switches the phone off
    await page.getByRole('button', { name: 'Remove token…' }).click();
    await page.getByRole('button', { name: 'Remove the token' }).click();
    await page.getByRole('button', { name: 'Create the token' }).waitFor();
    expect((await pushFromPhone(url, second)).status).toBe(501);
    expect(problems).toEqual([]);
  });
});

/** The gallery's Body weight card as made before templates named their phone metric, with a day entered by hand. */
function oldWeightCard(): Record<string, unknown> {
  const t = JSON.parse(templateText('weight')) as { meta: Record<string, unknown> };
  const { ingest: _i, template: _t, ...meta } = t.meta;
  return { ...t, meta, data: [{ date: '2025-12-30', kg: 75.5, note: 'by hand' }] };
}

describe('a Body weight card already there, then the phone sends weight', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
    expect((await s.api('/api/manifests', { json: oldWeightCard() })).status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('offers to fill Body weight from the phone; one click fills it, no second card; names and dates read as words', async () => {
    const token = (await s.api('/api/health-auto-export/token', { method: 'POST' })).body.token as string;
    const pushed = await pushFromPhone(`${s.url}/api/health-auto-export`, `Bearer ${token}`);
    expect(pushed.status).toBe(200);
    const { page, problems } = await browser.newPage(DESKTOP);
    await page.goto(`${s.url}/settings/health-auto-export`);
    await settled(page);
    const newList = page.locator('[aria-labelledby="phone-new"]');
    const weightRow = newList.locator('[data-metric="weight_body_mass"]');
    await weightRow.waitFor();
    expect(await weightRow.locator('.setting-label').textContent()).toBe('Body weight');
    const names = await newList.locator('.setting-label').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['Steps', 'Sleep', 'Body weight']));
    expect(await newList.textContent()).not.toMatch(/Weight body mass|Sleep analysis|Step count|_/);
    await screenshot(page, 'phone-setup-fill-offer');

    await weightRow.getByRole('button', { name: 'Fill Body weight from the phone' }).click();
    await page.getByText(/“Body weight” now comes from the phone with \d+ days on it\./).waitFor();
    await weightRow.waitFor({ state: 'detached' });
    const rows = (await s.api('/api/manifests/weight/data')).body.data as { date: string; kg: number }[];
    // the phone's days plus the day entered by hand
    expect(rows[0]).toEqual({ date: '2025-12-30', kg: 75.5, note: 'by hand' });
    expect(rows.length).toBeGreaterThan(1);
    const ids = ((await s.api('/api/settings/cards')).body.cards as { id: string }[]).map((c) => c.id);
    expect(ids.filter((id) => id.includes('weight'))).toEqual(['weight']);

    // the card the phone fills: its metric by name, the latest day in words
    const fed = page.locator('[aria-labelledby="phone-cards"] [data-card-id="weight"]');
    await fed.waitFor();
    const fedText = (await fed.textContent()) ?? '';
    expect(fedText).toContain(`Body weight · ${rows.length} days, latest `);
    expect(fedText).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    // Today: the Body weight card shows the phone's latest reading
    await page.goto(s.url);
    await settled(page);
    const card = page.locator('article[data-card-id="weight"]');
    await card.waitFor();
    expect(await card.textContent()).toContain(rows[rows.length - 1].kg.toFixed(1));
    expect(problems).toEqual([]);
  });
});
