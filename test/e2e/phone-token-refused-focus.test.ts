/**
 * Phone setup: a token request the server refuses (another device made the token meanwhile: 409
 * TOKEN_EXISTS) leaves the keyboard's focus on "Create the token", in Chromium against the real
 * server. The button was disabled while the request ran, and a focused button that is disabled
 * drops the focus to the page: a keyboard or screen-reader user heard the refusal and was left
 * at the top of the page. The panel's buttons are now aria-disabled while busy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, type TestBrowser } from './browser.js';
import { focusedName } from './focus.js';

let s: TestServer;
let browser: TestBrowser | undefined;
let launchError: Error | undefined;

beforeAll(async () => {
  s = await startServer({});
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

describe('a refused token request', { timeout: 90_000 }, () => {
  it('leaves the focus on "Create the token"', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const w = await browser.newPage();
    await w.page.goto(`${s.url}/settings/health-auto-export`);
    const create = w.page.getByRole('button', { name: 'Create the token' });
    await create.waitFor();

    // another device makes the token first
    const other = await s.api('/api/health-auto-export/token', { method: 'POST' });
    expect(other.status, other.text).toBe(201);

    await create.focus();
    await w.page.keyboard.press('Enter');
    await w.page.getByText('already exists').waitFor();
    expect(await focusedName(w)).toBe('Create the token');
    // the browser logs the refusal it was meant to get; anything else fails the test
    const expected = (p: string) =>
      p.includes('status of 409') && p.includes('/api/health-auto-export/token');
    expect(w.problems.filter((p) => !expected(p))).toEqual([]);
    await w.page.close();
  });
});
