/**
 * The welcome card's starter picks: an Add the server refuses (the card was already made from
 * that template on another device: 409 CARD_EXISTS) leaves the keyboard's focus on Add, with the
 * refused pick still ticked so Add can be pressed again, in Chromium against the real server.
 * Add was disabled while the cards were added, and a focused button that is disabled drops the
 * focus to the page: a keyboard or screen-reader user heard the refusal and was left at the top
 * of the page. Add is now aria-disabled while busy.
 */
import { describe, expect, it } from 'vitest';
import { focusedName } from './focus.js';
import { serverAndBrowser } from './server-and-browser.js';

const { server, browser } = serverAndBrowser();

describe('a refused starter pick', { timeout: 90_000 }, () => {
  it('leaves the focus on Add, the pick still ticked', async () => {
    const s = server();
    // another device added Body weight already (which switched the welcome card off); it is shown again
    const other = await s.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
    expect(other.status, other.text).toBe(201);
    const shown = await s.api('/api/settings/cards/welcome/enable', { method: 'POST' });
    expect(shown.status, shown.text).toBe(200);

    const w = await browser().newPage();
    await w.page.goto(`${s.url}/`);
    const card = w.page.locator('main .card[data-card-id="welcome"]');
    const pick = card.locator('.starter-pick[data-template-id="weight"] input');
    await pick.check();
    const add = card.getByRole('button', { name: 'Add 1 card' });
    await add.focus();
    await w.page.keyboard.press('Enter');
    await card.getByText('Not everything could be added').waitFor();
    expect(await focusedName(w)).toBe('Add 1 card');
    expect(await pick.isChecked()).toBe(true);
    // the browser logs the refusal it was meant to get; anything else fails the test
    const expected = (p: string) => p.includes('status of 409') && p.includes('/from-template');
    expect(w.problems.filter((p) => !expected(p))).toEqual([]);
    await w.page.close();
  });
});
