/**
 * Set-up of a browser test file that signs in on one fresh real server: the server and Debian's
 * Chromium start before the file's tests and close after them. A Chromium that could not start
 * fails each test with its reason (never a skip). The tests check their own pages' problems, so
 * a test that expects the browser to log a refusal can allow just that one.
 */
import { afterAll, beforeAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, type TestBrowser } from './browser.js';

/** What the file's tests get: the running server and the browser (each throws before the start). */
export interface ServerAndBrowser {
  server(): TestServer;
  /** @throws the reason Chromium could not start. */
  browser(): TestBrowser;
}

/** Registers the hooks in the calling test file; `opts` go to startServer. */
export function serverAndBrowser(opts: Parameters<typeof startServer>[0] = {}): ServerAndBrowser {
  let s: TestServer | undefined;
  let browser: TestBrowser | undefined;
  let launchError: Error | undefined;
  beforeAll(async () => {
    s = await startServer(opts);
    try {
      browser = await launchBrowser();
    } catch (err) {
      launchError = err as Error;
    }
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });
  return {
    server() {
      if (!s) throw new Error('the server was not started');
      return s;
    },
    browser() {
      if (!browser) throw launchError ?? new Error('Chromium was not started');
      return browser;
    },
  };
}
