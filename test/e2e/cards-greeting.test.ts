/**
 * The `greeting-banner` renderer in Debian's Chromium against the real server (
 * docs/MANIFEST-SCHEMA.md; the greeting template, here under the legacy `eddzhealth` schema id):
 * - the greeting follows the person's time of day in their own zone (the browser's clock is set:
 *   08:00, 19:00 and 02:00 in Los Angeles);
 * - it names the day shown and the instance (HEALTH_INSTANCE_NAME);
 * - the card's own messages rotate by date, one a day, without rewriting the card's data;
 * - on a past day it looks back instead of greeting; it spans the top of the grid.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daysBetween } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import { launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

const TZ = 'America/Los_Angeles';
const MESSAGES = [
  'Drink a glass of water first.',
  'Stretch for two minutes.',
  'Step outside for some light.',
];

let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];
let s: TestServer;

/** Opens `url` with the browser's clock fixed at `instant` (an ISO time with its offset). */
async function openAt(url: string, instant: string): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage();
  pages.push(w);
  await w.page.clock.setFixedTime(new Date(instant));
  await w.page.goto(url);
  await settled(w.page);
  await w.page.locator('.greeting-banner').waitFor();
  return w;
}

beforeAll(async () => {
  try {
    browser = await launchBrowser({ timezoneId: TZ });
  } catch (err) {
    launchError = err as Error;
  }
  s = await startServer({
    env: { HEALTH_INSTANCE_NAME: 'Casa Salud' },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      // the template without its messages (the second test gives it some), under the older id
      const m = readTemplate('greeting');
      m.$schema = 'eddzhealth.datafile.v1';
      m.data = [];
      fs.writeFileSync(path.join(dataDir, 'greeting.json'), JSON.stringify(m, null, 2));
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

describe('greeting-banner', { timeout: 60_000 }, () => {
  it('greets by the person’s time of day, with the day and the instance name', async () => {
    const { page } = await openAt(`${s.url}/`, '2026-04-20T08:00:00-07:00');
    const banner = page.locator('.card[data-card-id="greeting"]');
    expect(await banner.getAttribute('class')).toContain('card-wide');
    expect(await banner.locator('.greeting-hello').textContent()).toBe('Good morning');
    expect(await banner.locator('.greeting-day').textContent()).toBe('Monday 20 April · Casa Salud');
    // no messages in the card's data: no message line
    expect(await banner.locator('.greeting-message').count()).toBe(0);

    for (const [instant, hello] of [
      ['2026-04-20T19:00:00-07:00', 'Good evening'],
      ['2026-04-20T02:00:00-07:00', 'Hello, night owl'],
      ['2026-04-20T13:30:00-07:00', 'Good afternoon'],
    ] as const) {
      await page.clock.setFixedTime(new Date(instant));
      await page.reload();
      await settled(page);
      expect(await page.locator('.greeting-hello').textContent(), instant).toBe(hello);
    }
  });

  it('shows one of its own messages a day, rotating by date, and looks back on a past day', async () => {
    const put = await s.api('/api/manifests/greeting/data', { json: { data: MESSAGES } });
    // the greeting is not writeable from the web app: its file is the way to give it messages
    if (put.status === 403) {
      const file = path.join(s.dataDir, 'greeting.json');
      const m = JSON.parse(fs.readFileSync(file, 'utf8'));
      m.data = MESSAGES;
      fs.writeFileSync(file, JSON.stringify(m, null, 2));
      await expect
        .poll(async () => (await s.api('/api/manifests/greeting/data')).body.data)
        .toEqual(MESSAGES);
    } else {
      expect(put.status, put.text).toBe(200);
    }
    const of = (date: string) => MESSAGES[daysBetween('1970-01-01', date) % MESSAGES.length];
    const { page } = await openAt(`${s.url}/`, '2026-04-20T09:00:00-07:00');
    expect(await page.locator('.greeting-message').textContent()).toBe(of('2026-04-20'));
    await page.clock.setFixedTime(new Date('2026-04-21T09:00:00-07:00'));
    await page.reload();
    await settled(page);
    expect(await page.locator('.greeting-message').textContent()).toBe(of('2026-04-21'));
    expect(of('2026-04-21')).not.toBe(of('2026-04-20'));
    // reading it never rewrites the card's data
    expect((await s.api('/api/manifests/greeting/data')).body.data).toEqual(MESSAGES);

    await page.getByRole('link', { name: 'Previous day' }).click();
    await page.waitForURL(`${s.url}/day/2026-04-20`);
    await expect.poll(() => page.locator('.greeting-hello').textContent()).toBe('Looking back');
    expect(await page.locator('.greeting-day').textContent()).toBe('Monday 20 April · Casa Salud');
    expect(await page.locator('.greeting-message').textContent()).toBe(of('2026-04-20'));
  });
});
