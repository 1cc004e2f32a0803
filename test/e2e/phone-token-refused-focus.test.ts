/**
 * Phone setup: a token request the server refuses (another device made the token meanwhile: 409
 * TOKEN_EXISTS) leaves the keyboard's focus on "Create the token", in Chromium against the real
 * server. The button was disabled while the request ran, and a focused button that is disabled
 * drops the focus to the page: a keyboard or screen-reader user heard the refusal and was left
 * at the top of the page. The panel's buttons are now aria-disabled while busy.
 */
import { describe, expect, it } from 'vitest';
import { focusedName } from './focus.js';
import { serverAndBrowser } from './server-and-browser.js';

const { server, browser } = serverAndBrowser();

describe('a refused token request', { timeout: 90_000 }, () => {
  it('leaves the focus on "Create the token"', async () => {
    const s = server();
    const w = await browser().newPage();
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
