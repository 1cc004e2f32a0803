/**
 * Live updates in Debian's Chromium against the real server ("Cards appear, change and
 * disappear when their files or rows change ... without a page reload"):
 * - a row written through the REST API with the agent token shows on an open Today page and in
 *   its calendar cell;
 * - a card file dropped into data/ appears, a hand edit of its label shows, deleting the file
 *   makes it disappear;
 * - none of it reloads the page (a flag set in the page survives), and no console error;
 * - two tabs share one event stream (only one `GET /api/events` between them); when the
 *   tab holding it closes, the other takes over and keeps updating;
 * - while the server is away the top bar says "Offline"; when it is back the note goes and the page
 *   shows what changed meanwhile.
 *
 * The cards here draw with `day-marker` on Today (a template marker shows the row's value), a
 * renderer that is always there; the other renderers read their data through the same cache.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { todayIn } from '../../src/common/dates.js';
import { loadConfig } from '../../src/config.js';
import { openInstance } from '../../src/instance.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

const TZ = 'Europe/Berlin';
const TOKEN = 'live-updates-token-0123456789abcdef';

const manifest = (id: string, label: string, emoji: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label,
    emoji,
    view: {
      enabled: true,
      component: 'day-marker',
      marker: { type: 'template', template: '{kg:round(1)} kg' },
    },
    calendar: { enabled: true, component: 'day-marker', marker: emoji },
    writeable: { fromWebapp: true },
  },
});

let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];
let s: TestServer;

async function open(url: string): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage();
  pages.push(w);
  await w.page.goto(url);
  await settled(w.page);
  // survives only as long as the page is not reloaded
  await w.page.evaluate(() => {
    (window as unknown as { __sameLoad: boolean }).__sameLoad = true;
  });
  return w;
}

const sameLoad = (w: WatchedPage) =>
  w.page.evaluate(() => (window as unknown as { __sameLoad?: boolean }).__sameLoad === true);

/** Waits until the page receives the live feed (its own stream or the leader tab's). */
async function live(w: WatchedPage): Promise<void> {
  await w.page.locator('html[data-live="on"]').waitFor({ state: 'attached' });
}

beforeAll(async () => {
  try {
    browser = await launchBrowser({ timezoneId: TZ });
  } catch (err) {
    launchError = err as Error;
  }
  s = await startServer({
    env: { AGENT_API_TOKEN: TOKEN },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(
        path.join(dataDir, 'weight.json'),
        JSON.stringify(manifest('weight', 'Weight', '⚖️'), null, 2),
      );
    },
  });
});

afterEach(async () => {
  const problems = pages.flatMap((w) => w.problems);
  for (const w of pages.splice(0)) if (!w.page.isClosed()) await w.page.close();
  expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('live updates', { timeout: 60_000 }, () => {
  it('shows a row written by an agent on Today and in the calendar, without a reload', async () => {
    const today = todayIn(TZ);
    const w = await open(`${s.url}/`);
    await live(w);
    const card = w.page.locator('main .card[data-card-id="weight"]');
    await card.waitFor();
    await expect.poll(() => card.locator('.day-marker-count').textContent()).toBe('No entries this week.');

    const cal = await open(`${s.url}/calendar`);
    await live(cal);
    await cal.page.locator('.month[data-drawn="true"]').waitFor();
    const cell = cal.page.locator(`.month-markers[data-date="${today}"]`);
    expect(await cell.textContent()).toBe('');

    const r = await s.api('/api/manifests/weight/rows', {
      json: { value: { date: today, kg: 85.46 } },
      token: TOKEN,
    });
    expect(r.status).toBe(201);

    await expect
      .poll(() => card.locator(`[data-date="${today}"] .day-marker-glyph`).textContent())
      .toBe('85.5 kg');
    expect(await card.locator('.day-marker-count').textContent()).toBe('1 of 7 days with an entry.');
    await expect.poll(() => cell.textContent()).toBe('⚖️');
    expect(await sameLoad(w)).toBe(true);
    expect(await sameLoad(cal)).toBe(true);
  });

  it('shows a dropped card file, its hand-edited label, and drops it when the file goes', async () => {
    const w = await open(`${s.url}/`);
    await live(w);
    await w.page.locator('main .card[data-card-id="weight"]').waitFor();
    const file = path.join(s.dataDir, 'mood.json');
    const mood = manifest('mood', 'Mood', '🙂');

    fs.writeFileSync(file, JSON.stringify(mood, null, 2));
    const card = w.page.locator('main .card[data-card-id="mood"]');
    await card.waitFor({ timeout: 5000 });
    expect(await card.locator('.card-label').textContent()).toBe('Mood');

    fs.writeFileSync(file, JSON.stringify({ ...mood, meta: { ...mood.meta, label: 'How I feel' } }, null, 2));
    await expect.poll(() => card.locator('.card-label').textContent(), { timeout: 5000 }).toBe('How I feel');

    fs.rmSync(file);
    await card.waitFor({ state: 'detached', timeout: 5000 });
    expect(await w.page.locator('main .card[data-card-id="weight"]').count()).toBe(1);
    expect(await sameLoad(w)).toBe(true);
  });

  it('notes a broken card file dropped in while the page is open, and drops the note when it goes', async () => {
    const w = await open(`${s.url}/`);
    await live(w);
    await w.page.locator('main .card[data-card-id="weight"]').waitFor();
    const notice = w.page.locator('main details.notice');
    expect(await notice.count()).toBe(0);
    const file = path.join(s.dataDir, 'half-saved.json');
    fs.writeFileSync(file, '{"$schema": "klebb.datafile.v1", "meta": {"id": "half", "label": ');
    await notice.waitFor({ timeout: 5000 });
    expect(await notice.locator('summary').textContent()).toBe('One card file has a problem');
    // in words for people, with the line to look at; the file, the place and the mistake are the
    // item's tooltip
    expect(await notice.textContent()).toContain(
      'half-saved: it has a mistake on line 1, so it is not shown.',
    );
    expect(await notice.locator('li').first().getAttribute('title')).toMatch(
      /^half-saved\.json: not valid JSON at line 1, column 66: the file ends early/,
    );
    fs.rmSync(file);
    await notice.waitFor({ state: 'detached', timeout: 5000 });
    expect(await sameLoad(w)).toBe(true);
  });

  it('holds one event stream for two tabs, and hands it over when that tab closes', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const streams: string[] = [];
    browser.context.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/events') streams.push(req.url());
    });
    const a = await open(`${s.url}/`);
    await live(a);
    const b = await open(`${s.url}/`);
    await live(b);
    await expect.poll(() => streams.length).toBeGreaterThan(0);
    // b is up and listening through a's stream: still one stream
    const today = todayIn(TZ);
    await s.api('/api/manifests/weight/rows', { json: { value: { date: today, kg: 84.9 } }, token: TOKEN });
    const glyphIn = (w: WatchedPage) =>
      w.page
        .locator(`main .card[data-card-id="weight"] [data-date="${today}"] .day-marker-glyph`)
        .textContent();
    await expect.poll(() => glyphIn(b)).toBe('84.9 kg');
    await expect.poll(() => glyphIn(a)).toBe('84.9 kg');
    const before = streams.length;
    expect(before).toBe(1);

    // the leader goes; the other tab opens the stream and keeps updating
    await a.page.close();
    await expect.poll(() => streams.length).toBe(before + 1);
    await live(b);
    await s.api('/api/manifests/weight/rows', { json: { value: { date: today, kg: 84.2 } }, token: TOKEN });
    await expect.poll(() => glyphIn(b)).toBe('84.2 kg');
    expect(await sameLoad(b)).toBe(true);
  });

  it('says so while the server is away, and catches up with what changed meanwhile when it is back', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    // a server of its own, on a port it gets back after the restart
    const first = await startServer({
      before: (_home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        fs.writeFileSync(
          path.join(dataDir, 'weight.json'),
          JSON.stringify(manifest('weight', 'Weight', '⚖️'), null, 2),
        );
      },
    });
    const port = new URL(first.url).port;
    const w = await browser.newPage();
    await w.page.goto(`${first.url}/`);
    await settled(w.page);
    await live(w);
    const status = w.page.locator('.topbar .live-status');
    expect(await status.count()).toBe(0);

    await first.close({ keepHome: true });
    await status.waitFor({ timeout: 20_000 });
    expect(await status.textContent()).toBe('Offline');
    expect(await status.getAttribute('role')).toBe('status');

    // back on the same port and home, with a row written while the page was away
    const today = todayIn(TZ);
    const inst = await openInstance(loadConfig({ HEALTH_HOME: first.home, KLEBB_LOG_LEVEL: 'silent' }));
    inst.cards.store.replace('weight', [{ date: today, kg: 77.7 }], 'test', 'offline write');
    const app = buildApp(inst);
    try {
      await app.listen({ port: Number(port), host: '127.0.0.1' });
      await status.waitFor({ state: 'detached', timeout: 30_000 });
      await expect
        .poll(() =>
          w.page
            .locator(`main .card[data-card-id="weight"] [data-date="${today}"] .day-marker-glyph`)
            .textContent(),
        )
        .toBe('77.7 kg');
    } finally {
      await w.page.close();
      await Promise.all([inst.stopTurns(), app.close()]);
      await inst.close();
      fs.rmSync(first.home, { recursive: true, force: true });
    }
    // only the feed's own reconnection attempts failed while the server was away, and what reached
    // it while it was shutting down (Fastify answers 503 then)
    const unexpected = w.problems.filter(
      (p) => !/\/api\/events|ERR_CONNECTION_REFUSED|net::ERR|status of 503 \(Service Unavailable\)/.test(p),
    );
    expect(unexpected).toEqual([]);
  });
});
