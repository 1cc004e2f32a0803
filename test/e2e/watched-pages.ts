/**
 * Shared set-up of the browser tests that open pages of their own real servers: Debian's Chromium
 * in a fixed time zone (a launch failure fails every test with its reason, never a skip), pages
 * that must end each test without a console error, uncaught exception or failed request, and a
 * server whose data folder holds the given cards. Call `watchPages` once per test file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { DESKTOP, launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

type Viewport = { width: number; height: number };

/** What a test file gets from `watchPages`. */
export interface PageWatch {
  /** A new tab on `url` (desktop size unless given) in the file's browser, once the page has settled. */
  open(url: string, viewport?: Viewport): Promise<WatchedPage>;
  /** The same in `browser` (from `browserIn`; undefined when it could not start: this then fails with why). */
  openIn(browser: TestBrowser | undefined, url: string, viewport?: Viewport): Promise<WatchedPage>;
  /** Another Chromium in `timezoneId`, closed after the file's tests (undefined when it could not start). */
  browserIn(timezoneId: string): Promise<TestBrowser | undefined>;
}

/**
 * Registers the browser's hooks in the calling test file: Chromium in `timezoneId` before the
 * tests, the page check after each, every browser closed at the end.
 */
export function watchPages(opts: { timezoneId: string }): PageWatch {
  const browsers: TestBrowser[] = [];
  let main: TestBrowser | undefined;
  let launchError: Error | undefined;
  const pages: WatchedPage[] = [];

  const browserIn = async (timezoneId: string) => {
    try {
      const b = await launchBrowser({ timezoneId });
      browsers.push(b);
      return b;
    } catch (err) {
      launchError = err as Error;
      return undefined;
    }
  };
  const openIn = async (browser: TestBrowser | undefined, url: string, viewport: Viewport = DESKTOP) => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const w = await browser.newPage(viewport);
    pages.push(w);
    await w.page.goto(url);
    await settled(w.page);
    return w;
  };

  beforeAll(async () => {
    main = await browserIn(opts.timezoneId);
  });

  afterEach(async () => {
    const problems = pages.flatMap((w) => w.problems);
    for (const w of pages.splice(0)) await w.page.close();
    expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
  });

  afterAll(async () => {
    for (const b of browsers.splice(0)) await b.close();
  });

  return {
    open: (url, viewport) => openIn(main, url, viewport),
    openIn,
    browserIn,
  };
}

/**
 * Starts a real server whose data folder holds `manifests` (each written to `data/<meta.id>.json`
 * before the instance opens; a `data` key is imported into the store at start).
 */
export function startServerWithCards(
  manifests: Record<string, unknown>[],
  opts: { env?: Record<string, string> } = {},
): Promise<TestServer> {
  return startServer({
    env: opts.env,
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      for (const m of manifests) {
        const id = (m.meta as { id: string }).id;
        fs.writeFileSync(path.join(dataDir, `${id}.json`), JSON.stringify(m, null, 2));
      }
    },
  });
}
