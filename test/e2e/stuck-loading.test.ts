/**
 * A request can wait without ever failing: queued behind the browser's six connections to one
 * server while other tabs hold streams, on a phone network that drops packets silently, or behind
 * a proxy keeping it open. The view then showed its spinner for ever. In Debian's Chromium
 * against the real server, another tab holds the other connections open, and the calendar's read
 * waits: after a while the view says it is stuck and offers a reload; once the connections come
 * free, the calendar shows and the note is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser } from './browser.js';

let s: TestServer;
let browser: TestBrowser;

beforeAll(async () => {
  s = await startServer();
  browser = await launchBrowser({ timezoneId: 'Europe/Berlin' });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('a load that never answers', { timeout: 90_000 }, () => {
  it('says it is stuck and offers a reload, and shows the view once the connection frees', async () => {
    const app = await browser.newPage();
    await app.page.goto(`${s.url}/`);
    await settled(app.page);

    // another tab of the same browser holds streams on every other connection to the server
    const other = await browser.newPage();
    await other.page.goto(`${s.url}/healthz`);
    await other.page.evaluate(() => {
      const w = window as unknown as { held: EventSource[] };
      w.held = Array.from({ length: 6 }, () => new EventSource('/api/events'));
    });
    await other.page.waitForFunction(
      () => (window as unknown as { held: EventSource[] }).held.filter((e) => e.readyState === 1).length >= 5,
    );

    await app.page.locator('a.nav-link[href="/calendar"]').first().click();
    const note = app.page.locator('main .state-loading .state-slow');
    // the note comes after SLOW_LOAD_MS (web/components/status.tsx, 10 s)
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toContain('taking longer than it should');
    expect(await note.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);

    // the other tab goes: the waiting read gets its connection, the calendar shows
    await other.page.close();
    await app.page.locator('main .month').waitFor({ timeout: 20_000 });
    // the calendar's other reads waited on the same connections: the note goes once they answer
    await app.page.locator('main .state-slow').waitFor({ state: 'detached', timeout: 20_000 });
    expect(await app.page.locator('main .state-slow').count()).toBe(0);
    expect(app.problems).toEqual([]);
    await app.page.close();
  });
});
