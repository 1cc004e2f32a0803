/**
 * Sending a chat message with the Send button from the keyboard (Tab to Send, Enter) leaves the
 * keyboard's focus in the composer, in Chromium against the real server and a stand-in chat
 * gateway speaking the chat-completions protocol. Send makes way for Stop while the answer
 * comes, and Stop for Send again, so the focus of the pressed button fell to the page: a keyboard
 * or screen-reader user had to find the message box again for every message (and after Stop).
 * The focus now goes to the message box, ready for the next message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { contentText } from '../helpers/scripted-gateway.js';
import { chatBrowser, eventually, liveText, openPanel, PANEL, sendText, turnOver } from './chat-support.js';

const browser = chatBrowser({ timezoneId: 'Europe/Berlin' });
const chat = chatServers();
afterEach(() => chat.closeAll());

describe('the focus after Send in the chat', { timeout: 90_000 }, () => {
  it('goes to the message box', async () => {
    const { gw, s } = await chat.boot();
    gw.script({ kind: 'reply', text: 'Noted.' }, { kind: 'reply', text: 'Water' });
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.locator('#chat-input').fill('I drank a glass of water');
    await page.getByRole('button', { name: 'Send' }).focus();
    await page.keyboard.press('Enter');
    // Send is on screen before the turn starts too: wait for the answer, then for the turn's end
    await page.locator(PANEL).getByText('Noted.').waitFor();
    await turnOver(page);
    const sent = gw.requests[0].body.messages.filter((m: { role: string }) => m.role === 'user');
    expect(sent.map((m: { content: unknown }) => contentText(m.content))).toEqual([
      'I drank a glass of water',
    ]);
    await eventually(() => page.evaluate(() => document.activeElement?.id ?? 'body')).toBe('chat-input');
  });

  it('goes to the message box after Stop', async () => {
    const { gw, s } = await chat.boot();
    gw.script({ kind: 'stall', afterText: 'Let me think about this for a long ', chunkDelayMs: 30 });
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await sendText(page, 'Analyse everything I ever logged');
    await eventually(() => liveText(page)).toContain('for a long');
    const stop = page.locator(`${PANEL} button.chat-stop`);
    await eventually(() => stop.isEnabled()).toBe(true);
    await stop.focus();
    await page.keyboard.press('Enter');
    await page.locator(`${PANEL} .chat-note`, { hasText: 'Stopped' }).waitFor();
    await turnOver(page);
    await eventually(() => page.evaluate(() => document.activeElement?.id ?? 'body')).toBe('chat-input');
  });
});
