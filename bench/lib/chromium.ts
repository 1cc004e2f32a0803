/**
 * Debian's Chromium for the browser benchmarks, driven by playwright-core the way the end-to-end
 * tests drive it (test/e2e/browser.ts): `/usr/bin/chromium` (KLEBB_CHROMIUM overrides), headless,
 * no sandbox, no GPU, no background networking, a fresh temporary profile removed on close.
 */
import fs from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';
import { makeTempDir, removeTempDir } from './temp.js';

/** Where Chromium is looked for. */
export const CHROMIUM_PATH = process.env.KLEBB_CHROMIUM || '/usr/bin/chromium';

/** A running Chromium with one persistent context. */
export interface BenchBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts Chromium (1280×800, `timezoneId`, light theme).
 * @throws when Chromium is missing or does not start, saying what to install.
 */
export async function launchChromium(opts: { timezoneId?: string } = {}): Promise<BenchBrowser> {
  try {
    fs.accessSync(CHROMIUM_PATH, fs.constants.X_OK);
  } catch {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium, or set KLEBB_CHROMIUM)`,
    );
  }
  const profile = makeTempDir('chromium');
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
      locale: 'en-GB',
      timezoneId: opts.timezoneId,
      colorScheme: 'light',
    });
    for (const p of context.pages()) await p.close();
    return {
      context,
      async close() {
        await context.close();
        removeTempDir(profile);
      },
    };
  } catch (err) {
    removeTempDir(profile);
    throw new Error(`Chromium at ${CHROMIUM_PATH} did not start: ${(err as Error).message}`);
  }
}
