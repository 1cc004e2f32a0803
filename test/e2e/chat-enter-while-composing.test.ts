/**
 * A person typing Japanese, Chinese or Korean presses Enter to take the word the input method
 * composed, and the browser passes that key press to the page: with isComposing set, or, from
 * Safari, which ends the composition before the key press, with the input method's key code 229
 * and isComposing false. The chat composer sent the message on the second kind: half a sentence
 * went to the assistant. Now only a plain Enter sends, the whole message. Real server, a stand-in
 * chat gateway speaking the chat-completions protocol, Debian's Chromium; the key presses are the
 * events the browser sends with an input method.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { contentText } from '../helpers/scripted-gateway.js';
import { chatBrowser, openPanel, turnOver } from './chat-support.js';

const browser = chatBrowser({ timezoneId: 'Asia/Tokyo' });
const chat = chatServers();
afterEach(() => chat.closeAll());

/** Sends, to `el`, the keydown an input method's Enter makes, as the browser dispatches it. */
const imeEnter = (el: Element, init: KeyboardEventInit) =>
  el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, ...init }));

describe('Enter in the chat composer while an input method is composing', { timeout: 90_000 }, () => {
  it('does not send; a plain Enter sends the whole message', async () => {
    const { gw, s } = await chat.boot();
    gw.script({ kind: 'reply', text: 'お大事に。' }, { kind: 'reply', text: '頭痛' });
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    const box = page.locator('#chat-input');
    await box.fill('今日は頭痛');

    await box.evaluate(imeEnter, { isComposing: true });
    // Safari: the composition already ended, the key press marked 229
    await box.evaluate(imeEnter, { keyCode: 229 });
    await box.press('End');
    await box.pressSequentially('がひどい');
    expect(await box.inputValue()).toBe('今日は頭痛がひどい');

    const posted = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/chat',
    );
    await box.press('Enter');
    await posted;
    await turnOver(page);
    const sent = gw.requests[0].body.messages.filter((m: { role: string }) => m.role === 'user');
    expect(sent.map((m: { content: unknown }) => contentText(m.content))).toEqual(['今日は頭痛がひどい']);
  });
});
