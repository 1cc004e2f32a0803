/**
 * Sending a chat message with the Send button from the keyboard (Tab to Send, Enter) leaves the
 * keyboard's focus in the composer, in Chromium against the real server and a stand-in chat
 * gateway speaking the chat-completions protocol. Send makes way for Stop while the answer
 * comes, and Stop for Send again, so the focus of the pressed button fell to the page: a keyboard
 * or screen-reader user had to find the message box again for every message. The focus now goes
 * to the message box, ready for the next message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { contentText } from '../helpers/scripted-gateway.js';
import { chatBrowser, openPanel, turnOver } from './chat-support.js';

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
    await turnOver(page);
    const sent = gw.requests[0].body.messages.filter((m: { role: string }) => m.role === 'user');
    expect(sent.map((m: { content: unknown }) => contentText(m.content))).toEqual([
      'I drank a glass of water',
    ]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? 'body')).toBe('chat-input');
  });
});
