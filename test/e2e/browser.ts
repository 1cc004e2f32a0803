/**
 * Debian's Chromium driven by playwright-core, for the end-to-end tests:
 * `/usr/bin/chromium` (KLEBB_CHROMIUM overrides), headless, no sandbox (we run as root), no GPU,
 * no background networking (this machine's network is closed), and a fresh temporary profile
 * that is removed on close. Pages record console errors, uncaught exceptions and failed
 * requests so a test can assert that nothing went wrong.
 *
 * A missing Chromium or a missing web build is an error, never a skip: the e2e tests must fail
 * loudly on a machine that cannot run them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { repoRoot } from '../helpers/sandbox-home.js';

export const CHROMIUM_PATH = process.env.KLEBB_CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Where screenshots are written (committed, so that people can look at them). */
export const SCREENSHOT_DIR = path.join(repoRoot, 'test/e2e/__screenshots__');

/** @throws with what to do when Chromium is not installed. */
export function assertChromium(): void {
  try {
    fs.accessSync(CHROMIUM_PATH, fs.constants.X_OK);
  } catch {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: the end-to-end tests need Debian's Chromium. ` +
        'Install it with `apt-get install -y chromium` (.ci/run does this), or set KLEBB_CHROMIUM to its path.',
    );
  }
}

/** @throws when the web app has not been built into dist/web. */
export function assertWebBuilt(): void {
  if (!fs.existsSync(path.join(repoRoot, 'dist/web/index.html'))) {
    throw new Error(
      'dist/web/index.html is missing: run `npm run build` first (`npm test` does it in pretest).',
    );
  }
}

/** A page that remembers what went wrong in it. */
export interface WatchedPage {
  page: Page;
  /** Console errors, uncaught exceptions and failed requests, in order. */
  problems: string[];
}

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab with the given viewport (desktop by default). */
  newPage(viewport?: { width: number; height: number }): Promise<WatchedPage>;
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh profile. `timezoneId`/`locale` fix what "today" and dates look
 * like; `args` are extra command-line switches (host mapping, a test certificate);
 * `serviceWorkers: 'allow'` lets the app's service worker run (blocked by default).
 */
export async function launchBrowser(
  opts: { timezoneId?: string; locale?: string; args?: string[]; serviceWorkers?: 'allow' | 'block' } = {},
): Promise<TestBrowser> {
  assertChromium();
  assertWebBuilt();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_FLAGS, ...(opts.args ?? [])],
      // a service worker answers the page's requests itself, so request interception would miss
      // them: blocked unless a test is about the worker (push, offline)
      serviceWorkers: opts.serviceWorkers ?? 'block',
      viewport: DESKTOP,
      deviceScaleFactor: 1,
      locale: opts.locale ?? 'en-GB',
      timezoneId: opts.timezoneId,
      colorScheme: 'light',
      reducedMotion: 'reduce',
    });
  } catch (err) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw new Error(`Chromium at ${CHROMIUM_PATH} did not start: ${(err as Error).message}`);
  }
  // the persistent context opens with one blank tab; tests use their own
  for (const p of context.pages()) await p.close();
  return {
    context,
    async newPage(viewport = DESKTOP) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      const problems: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        // Chromium's "Failed to load resource" line does not name the URL: add it, so a failure says which request
        const at = msg.text().startsWith('Failed to load resource') ? msg.location().url : '';
        problems.push(at ? `console: ${msg.text()} ${at}` : `console: ${msg.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`exception: ${err.message}`));
      page.on('requestfailed', (req) => {
        const why = req.failure()?.errorText ?? 'failed';
        // a navigation away cancels the previous page's requests: not a fault
        if (why !== 'net::ERR_ABORTED') problems.push(`request: ${req.method()} ${req.url()} ${why}`);
      });
      return { page, problems };
    },
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the shell has its instance name and the current view has settled (cards or an empty state). */
export async function settled(page: Page): Promise<void> {
  await page.locator('.brand-name').waitFor();
  await page.locator('main .card, main .state-empty, main .panel, main .month').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main .state-loading'));
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Writes `<name>.png` into the screenshot folder (the viewport, not the full page). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.mouse.move(0, page.viewportSize()?.height ?? 0); // no hover highlight in the picture
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  return file;
}

/** True when the page is wider than the viewport (sideways scrolling). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}
