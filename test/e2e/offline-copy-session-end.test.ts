/**
 * The service worker keeps the last answered reads of the cards for offline use. They leave with
 * the session however it ended, not only by Sign out: once the server answers a kept read 401
 * (the session expired, or its passkey was removed on another device: a lost phone), the worker
 * drops them (and keeps no answer to a read sent before that), and the sign-in page drops them
 * when it opens signed out; so a browser left signed
 * out never shows the cards offline to whoever holds it next. Real server at
 * http://localhost:<port>, Debian's Chromium with its service worker and a virtual authenticator.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { DESKTOP, launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';
import { addPasskeyAuthenticator } from './virtual-authenticator.js';
import { startServerWithCards } from './watched-pages.js';

const LABEL = 'Zebra finch weight';
let s: TestServer;
let base: string;
let browser: TestBrowser | undefined;
let launchError: Error | undefined;
let w: WatchedPage;

/** How many entries of the page's Cache Storage hold the card (its label). */
function keptCardCopies(page: WatchedPage['page']): Promise<number> {
  return page.evaluate(async (label) => {
    let n = 0;
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        if (((await (await cache.match(req))?.text()) ?? '').includes(label)) n++;
      }
    }
    return n;
  }, LABEL);
}

/** Opens Today signed in, under the worker's control, and waits until it kept the card. */
async function todayKept(): Promise<void> {
  await w.page.goto(`${base}/`);
  await settled(w.page);
  // a page loaded while the worker was still starting stays out of its control (claiming the
  // pages open happened before it): once the worker is active, a reload reads through it
  await w.page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await w.page.reload();
  await settled(w.page);
  await w.page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await w.page.locator('main .card[data-card-id="zebra"]').waitFor();
  await expect.poll(() => keptCardCopies(w.page), { timeout: 15_000 }).toBeGreaterThan(0);
}

beforeAll(async () => {
  s = await startServerWithCards([
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'zebra',
        label: LABEL,
        view: { enabled: true, component: 'generic-card', display: { template: '{g}', unit: 'g' } },
      },
      data: [{ date: '2026-04-01', g: 12.4 }],
    },
  ]);
  base = s.url.replace('127.0.0.1', 'localhost');
  try {
    browser = await launchBrowser({ serviceWorkers: 'allow' });
    w = await browser.newPage(DESKTOP);
    await addPasskeyAuthenticator(w.page);
  } catch (err) {
    launchError = err as Error;
  }
});

afterEach(() => {
  // the refusals of the ended session (401) are the answers these tests provoke
  const problems = w ? w.problems.splice(0).filter((p) => !p.includes('status of 401')) : [];
  expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** Signs in with the tab's passkey from the sign-in page. */
async function signIn(): Promise<void> {
  await w.page.goto(`${base}/login`);
  await w.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await w.page.waitForURL(`${base}/`);
}

describe('the offline copy of the cards when the session ends', { timeout: 120_000 }, () => {
  it('is dropped by the worker when the server answers a kept read 401', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const code = new URL(s.inst.auth.setupLink() as string).hash;
    await w.page.goto(`${base}/setup${code}`);
    await w.page.getByRole('button', { name: 'Create a passkey' }).click();
    await w.page.waitForURL(`${base}/`);
    await todayKept();

    // the session ends (as 30 days passing would); the next read of the cards meets a 401
    await browser.context.clearCookies();
    const status = await w.page.evaluate(async () => (await fetch('/api/manifests')).status);
    expect(status).toBe(401);
    expect(await keptCardCopies(w.page)).toBe(0);
  });

  it('is dropped by the sign-in page opened signed out', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    await signIn();
    await todayKept();

    await browser.context.clearCookies();
    // straight to the sign-in page: no read of the cards on the way
    await w.page.goto(`${base}/login`);
    await w.page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await expect.poll(() => keptCardCopies(w.page), { timeout: 15_000 }).toBe(0);
  });

  it('is not put back by a read sent before the session ended and answered after', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    await signIn();
    await todayKept();
    const context = browser.context;

    // the worker's read of the cards is answered by the server while signed in, but the answer
    // reaches the worker only once the session ended and another read met a 401
    let release: () => void = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    let seen: () => void = () => {};
    const held = new Promise<void>((r) => {
      seen = r;
    });
    await context.route('**/api/manifests?slow=1', async (route) => {
      const answer = await route.fetch();
      seen();
      await released;
      await route.fulfill({ response: answer });
    });
    await w.page.evaluate(() => {
      (window as unknown as { slowRead: Promise<number> }).slowRead = fetch('/api/manifests?slow=1').then(
        (r) => r.status,
      );
    });
    await held;
    await context.clearCookies();
    const status = await w.page.evaluate(async () => (await fetch('/api/manifests')).status);
    expect(status).toBe(401);
    release();
    const late = await w.page.evaluate(() => (window as unknown as { slowRead: Promise<number> }).slowRead);
    expect(late).toBe(200);
    expect(await keptCardCopies(w.page)).toBe(0);
    await context.unrouteAll();
  });
});
