/**
 * Reordering cards in Settings, in Debian's Chromium ("drag reorder through
 * `POST /api/manifests/reorder`"):
 * - "Reorder" swaps the switches for a drag handle and up/down buttons;
 * - a button moves a card one step, the keyboard stays on the button, a screen reader hears where
 *   it went; a mouse drag by the handle and a touch drag (real touch events through CDP) move a
 *   card over several places;
 * - each change is saved at once: the server's order (`meta.order` 100, 200, … in the files) and
 *   Today's order follow, and a reload shows the new order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, PHONE, settled, type TestBrowser, type WatchedPage } from './browser.js';

const IDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];
let s: TestServer;

async function open(route: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage(viewport);
  pages.push(w);
  await w.page.goto(`${s.url}${route}`);
  await settled(w.page);
  return w;
}

const shownOrder = (w: WatchedPage) =>
  w.page.locator('.setting-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-card-id')));
const serverOrder = async () =>
  (await s.api('/api/settings/cards')).body.cards.map((c: { id: string }) => c.id) as string[];
const fileOrders = () =>
  IDS.map((id) => JSON.parse(fs.readFileSync(path.join(s.dataDir, `${id}.json`), 'utf8')).meta.order);

/** Drags row `id` by its handle so that its top lands `rows` rows further (negative: up). */
async function mouseDrag(w: WatchedPage, id: string, rows: number): Promise<void> {
  const handle = w.page.locator(`.setting-row[data-card-id="${id}"] .drag-handle`);
  const box = await handle.boundingBox();
  const row = await w.page.locator(`.setting-row[data-card-id="${id}"]`).boundingBox();
  if (!box || !row) throw new Error('no handle');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await w.page.mouse.move(x, y);
  await w.page.mouse.down();
  const steps = 12;
  for (let i = 1; i <= steps; i++) await w.page.mouse.move(x, y + (row.height * rows * i) / steps);
  await w.page.mouse.up();
}

beforeAll(async () => {
  try {
    browser = await launchBrowser({ timezoneId: 'Europe/Berlin' });
  } catch (err) {
    launchError = err as Error;
  }
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      IDS.forEach((id, i) => {
        const m = {
          $schema: 'klebb.datafile.v1',
          meta: {
            id,
            label: id[0].toUpperCase() + id.slice(1),
            emoji: '🔹',
            order: (i + 1) * 100,
            view: { enabled: true, component: 'day-marker' },
          },
        };
        fs.writeFileSync(path.join(dataDir, `${id}.json`), JSON.stringify(m, null, 2));
      });
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

describe('reordering cards in Settings', { timeout: 90_000 }, () => {
  it('moves a card a step with its buttons, keeping the keyboard there, and saves at once', async () => {
    const w = await open('/settings');
    expect(await shownOrder(w)).toEqual(IDS);
    expect(await w.page.locator('.drag-handle').count()).toBe(0);
    await w.page.getByRole('button', { name: 'Reorder' }).click();
    expect(await w.page.getByRole('button', { name: 'Done' }).getAttribute('aria-pressed')).toBe('true');
    expect(await w.page.locator('[role="switch"]').count()).toBe(0);
    expect(await w.page.getByRole('button', { name: 'Move Alpha up' }).isDisabled()).toBe(true);
    expect(await w.page.getByRole('button', { name: 'Move Echo down' }).isDisabled()).toBe(true);

    await w.page.getByRole('button', { name: 'Move Charlie up' }).click();
    const after = ['alpha', 'charlie', 'bravo', 'delta', 'echo'];
    await expect.poll(() => shownOrder(w)).toEqual(after);
    await expect.poll(serverOrder).toEqual(after);
    expect(await w.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Move Charlie up',
    );
    expect(await w.page.locator('[aria-live="polite"]').textContent()).toBe(
      'Charlie moved to position 2 of 5.',
    );
    // the keyboard: Enter on the focused button moves it again
    await w.page.keyboard.press('Enter');
    await expect.poll(serverOrder).toEqual(['charlie', 'alpha', 'bravo', 'delta', 'echo']);
    // at the top, "up" is off: the keyboard moves to "down" of the same card
    expect(await w.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Move Charlie down',
    );
    expect(fileOrders()).toEqual([200, 300, 100, 400, 500]);

    await w.page.getByRole('button', { name: 'Done' }).click();
    expect(await w.page.locator('[role="switch"]').count()).toBe(5);
  });

  it('drags a card by its handle with a mouse, and Today follows', async () => {
    const start = await serverOrder();
    const w = await open('/settings');
    await w.page.getByRole('button', { name: 'Reorder' }).click();
    expect(await shownOrder(w)).toEqual(start);
    // the first card, three rows down
    const first = start[0];
    await mouseDrag(w, first, 3);
    const want = [...start.slice(1, 4), first, ...start.slice(4)];
    await expect.poll(() => shownOrder(w)).toEqual(want);
    await expect.poll(serverOrder).toEqual(want);
    expect(await w.page.locator('.setting-row-dragging').count()).toBe(0);
    expect(await w.page.locator(`.setting-row[data-card-id="${first}"]`).getAttribute('style')).toBeFalsy();

    // back up two rows
    await mouseDrag(w, first, -2);
    const want2 = [want[0], first, want[1], want[2], want[4]];
    await expect.poll(serverOrder).toEqual(want2);

    await w.page.getByRole('link', { name: 'Today' }).click();
    await settled(w.page);
    await expect
      .poll(() =>
        w.page.locator('main .card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card-id'))),
      )
      .toEqual(want2);
    await w.page.reload();
    await settled(w.page);
    expect(
      await w.page.locator('main .card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card-id'))),
    ).toEqual(want2);
  });

  it('drags with a finger on a phone', async () => {
    const start = await serverOrder();
    const w = await open('/settings', PHONE);
    await w.page.getByRole('button', { name: 'Reorder' }).click();
    const last = start[4];
    // the list no longer fits above the phone's tab bar: scroll the row to the middle, as a thumb would
    await w.page
      .locator(`.setting-row[data-card-id="${last}"]`)
      .evaluate((e) => e.scrollIntoView({ block: 'center' }));
    const handle = await w.page.locator(`.setting-row[data-card-id="${last}"] .drag-handle`).boundingBox();
    const row = await w.page.locator(`.setting-row[data-card-id="${last}"]`).boundingBox();
    if (!handle || !row) throw new Error('no handle');
    const cdp = await w.page.context().newCDPSession(w.page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    const x = handle.x + handle.width / 2;
    const y = handle.y + handle.height / 2;
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', at: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: at }] });
    await touch('touchStart', y);
    for (let i = 1; i <= 12; i++) await touch('touchMove', y - (row.height * 2 * i) / 12);
    await touch('touchEnd', y - row.height * 2);
    const want = [start[0], start[1], last, start[2], start[3]];
    await expect.poll(() => shownOrder(w)).toEqual(want);
    await expect.poll(serverOrder).toEqual(want);
    // the page itself did not scroll sideways or stay lifted
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await w.page.locator('.setting-row-dragging').count()).toBe(0);
    await cdp.detach();
  });

  it('refuses a move decided on an order another device changed since, and shows the saved order', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const w = await browser.newPage();
    pages.push(w);
    // a tab that hears no live updates (a laptop asleep, a dropped stream): its list stays as read
    await w.page.route('**/api/events', (route) =>
      route.fulfill({ status: 200, contentType: 'text/event-stream', body: ': quiet\n\n' }),
    );
    await w.page.goto(`${s.url}/settings`);
    await settled(w.page);
    const read = await shownOrder(w);
    await w.page.getByRole('button', { name: 'Reorder' }).click();

    // the phone moves the last card to the top
    const phone = [read[4], ...read.slice(0, 4)];
    const moved = await s.api('/api/manifests/reorder', { json: { order: phone } });
    expect(moved.status, moved.text).toBe(200);

    // this tab, still showing the old order, moves its third card up
    const third = read[2] as string;
    const label = third[0].toUpperCase() + third.slice(1);
    await w.page.getByRole('button', { name: `Move ${label} up` }).click();
    await expect
      .poll(() => w.page.locator('.setting-error[role="alert"]').textContent(), { timeout: 20_000 })
      .toContain('changed on another device');
    await expect.poll(() => shownOrder(w), { timeout: 20_000 }).toEqual(phone);
    expect(await serverOrder()).toEqual(phone);
    // the browser logs the refusal it was meant to get; anything else still fails the test
    const expected = (p: string) => p.includes('status of 412') && p.includes('/api/manifests/reorder');
    const others = w.problems.filter((p) => !expected(p));
    w.problems.splice(0, w.problems.length, ...others);
  });
});
