/**
 * A conversation's rename the server refuses (the conversation was deleted on another device
 * meanwhile: 404) keeps the keyboard's focus on Save, in Chromium against the real server. Save was
 * disabled while the rename was sent, and a focused button that is disabled drops the focus to the
 * page: a keyboard or screen-reader user heard the refusal and was left at the top of the page.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { chatBrowser, eventually, openPanel, PANEL } from './chat-support.js';

const browser = chatBrowser({ allow: [/status of 404 .*\/api\/conversations\//] });
const chat = chatServers();
afterEach(() => chat.closeAll());

const DRAWER = `${PANEL} .chat-drawer`;

describe('a refused rename', { timeout: 90_000 }, () => {
  it('leaves the focus on Save', async () => {
    const { s } = await chat.boot();
    const made = await s.api('/api/conversations', {
      json: { title: 'Supplements', messages: [{ role: 'user', content: 'vitamin D?' }] },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.conversation.id as string;
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.getByRole('button', { name: 'Rename Supplements' }).click();
    const input = page.locator(`#chat-rename-${id}`);
    await input.fill('Vitamins');

    // another device deletes the conversation
    expect((await s.api(`/api/conversations/${id}`, { method: 'DELETE' })).status).toBe(200);

    const save = page.locator(`${DRAWER} .chat-rename`).getByRole('button', { name: 'Save' });
    await save.focus();
    await page.keyboard.press('Enter');
    await page.locator(`${PANEL} .chat-notice[role="alert"]`).waitFor();
    await eventually(() =>
      page.evaluate(() => {
        const el = document.activeElement;
        return !el || el === document.body ? 'the page' : (el.textContent ?? '').trim();
      }),
    ).toBe('Save');
  });
});
