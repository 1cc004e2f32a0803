/**
 * Shared steps of the chat widget's end-to-end tests (test/e2e/chat-*.test.ts): one
 * Chromium per test file (a launch failure fails every test, never a skip), pages that must end
 * without console errors, exceptions or failed requests, and the few moves every chat test makes
 * (open the panel, send a message, read the answers). The server and the scripted gateway come
 * from test/helpers/chat-server.ts.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { DESKTOP, launchBrowser, type TestBrowser, type WatchedPage } from './browser.js';

/** Registers the browser's lifecycle hooks in the calling test file; `open(url)` opens a watched page. */
export function chatBrowser(opts: { timezoneId?: string; allow?: RegExp[] } = {}) {
  let browser: TestBrowser | undefined;
  let launchError: Error | undefined;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    try {
      browser = await launchBrowser({ timezoneId: opts.timezoneId ?? 'Europe/London' });
    } catch (err) {
      launchError = err as Error;
    }
  });

  afterEach(async () => {
    const problems = pages.flatMap((w) => w.problems).filter((p) => !opts.allow?.some((re) => re.test(p)));
    for (const w of pages.splice(0)) await w.page.close();
    expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    /**
     * A new tab on `url` (desktop size unless given), waiting for the shell. `init` runs in the
     * page before any of its scripts (Playwright's addInitScript).
     */
    async open(url: string, viewport = DESKTOP, init?: () => void): Promise<WatchedPage> {
      if (!browser) throw launchError ?? new Error('Chromium was not started');
      const w = await browser.newPage(viewport);
      pages.push(w);
      if (init) await w.page.addInitScript(init);
      await w.page.goto(url);
      await w.page.locator('.brand-name').waitFor();
      return w;
    },
  };
}

/** The panel element. */
export const PANEL = '[data-chat-panel]';

/** Opens the chat panel with its button and waits until it can take a message. */
export async function openPanel(page: Page): Promise<void> {
  await page.locator('[data-chat-launcher]').click();
  await page.locator(`${PANEL}:not([hidden])`).waitFor();
  await page.locator('#chat-input').waitFor();
}

/**
 * Types `text` into the composer and sends it with Enter; returns once the turn's `POST /api/chat`
 * has gone out (a new conversation is created first, and until then no turn is running).
 */
export async function sendText(page: Page, text: string): Promise<void> {
  const box = page.locator('#chat-input');
  await box.fill(text);
  const posted = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/chat',
  );
  await box.press('Enter');
  await posted;
}

/** The text of every settled assistant answer, in order (without marked's closing newline). */
export async function answers(page: Page): Promise<string[]> {
  const texts = await page.locator(`${PANEL} .chat-msg[data-role="assistant"] .chat-md`).allTextContents();
  return texts.map((t) => t.trim());
}

/** The text of the answer being streamed ('' when none is). */
export async function liveText(page: Page): Promise<string> {
  const live = page.locator(`${PANEL} .chat-msg[data-role="live"] .chat-md`);
  return (await live.count()) ? ((await live.textContent()) ?? '').trim() : '';
}

/** Waits until no turn is running (the send button is back). */
export async function turnOver(page: Page): Promise<void> {
  await page.locator(`${PANEL} button.chat-send[aria-label="Send"]`).waitFor();
}

/**
 * Records, in the page, every text the streaming answer showed (once per change), so a test can
 * check that text only ever grew: no word shown twice, none taken back. Read with `shownTexts`.
 */
export async function recordLiveTexts(page: Page): Promise<void> {
  await page.evaluate(liveTextRecorder);
}

/**
 * The recorder itself, a self-contained function: `page.evaluate(liveTextRecorder)` starts it now,
 * `page.addInitScript(liveTextRecorder)` on every load before the app's scripts.
 */
export function liveTextRecorder(): void {
  const seen: string[] = [];
  (window as unknown as { __chatTexts: string[] }).__chatTexts = seen;
  new MutationObserver(() => {
    const el = document.querySelector('[data-chat-panel] .chat-msg[data-role="live"] .chat-md');
    const t = el?.textContent ?? '';
    if (t && t !== seen.at(-1)) seen.push(t);
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/**
 * Records, in the page, every status line the panel showed ("Thinking…", "Updating Weight…"),
 * once per change, so a test sees a line that was up for less than a polling interval. Read with
 * `shownStatuses`.
 */
export async function recordStatusLines(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __chatStatuses: string[] }).__chatStatuses = seen;
    new MutationObserver(() => {
      const t = document.querySelector('[data-chat-panel] .chat-status')?.textContent?.trim() ?? '';
      if (t && t !== seen.at(-1)) seen.push(t);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/** The status lines recorded by recordStatusLines, in order. */
export function shownStatuses(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __chatStatuses?: string[] }).__chatStatuses ?? []);
}

/** The texts recorded by recordLiveTexts. */
export function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __chatTexts: string[] }).__chatTexts ?? []);
}

/**
 * `expect.poll` with room to wait: its default gives up after one second, too soon for a page
 * on a loaded two-core machine. A wait, not a timing assertion.
 */
export function eventually<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 20_000, interval: 50 });
}
