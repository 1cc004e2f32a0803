/**
 * A chat message sent while the session had ended (30 days passed, signed out in another tab)
 * is not lost: its send met a 401 and the page went to the sign-in page; once signed in again
 * with the passkey, the chat opened shows the message back in the box, and it sends. Before,
 * the first message of a new conversation was gone with the page, and one in a conversation got
 * an 'Unauthorized' note with the message taken out of the box. Real server at
 * http://localhost:<port>, a stand-in chat gateway, Debian's Chromium with a virtual authenticator.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { contentText, type ScriptedGateway } from '../helpers/scripted-gateway.js';
import { settled } from './browser.js';
import { answers, chatBrowser, openPanel, PANEL, turnOver } from './chat-support.js';
import { addPasskeyAuthenticator } from './virtual-authenticator.js';

// the refused sends (401) are the answers these tests provoke
const browser = chatBrowser({ allow: [/status of 401/] });
const chat = chatServers();
afterEach(() => chat.closeAll());

async function withPasskey(page: Page): Promise<void> {
  await addPasskeyAuthenticator(page);
}

/** Sends `text` with Enter while the session has ended, signs in again, and waits for the chat. */
async function sendSignedOut(page: Page, base: string, text: string): Promise<void> {
  await page.context().clearCookies();
  const box = page.locator('#chat-input');
  await box.fill(text);
  await box.press('Enter');
  await page.waitForURL(`${base}/login?next=%2F`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL(`${base}/`);
  await settled(page);
  // the chat was open when the page left: it opens again by itself
  await page.locator(`${PANEL}:not([hidden]) #chat-input`).waitFor();
}

/** The user messages the gateway was sent in the turn's request (the first; a title request follows). */
function turnUserTexts(gw: ScriptedGateway): string[] {
  const turn = gw.requests.find((r) => Array.isArray(r.body?.messages));
  return (turn?.body.messages ?? [])
    .filter((m: { role: string }) => m.role === 'user')
    .map((m: { content: unknown }) => contentText(m.content));
}

describe('a chat message when the session has ended', { timeout: 120_000 }, () => {
  it('is back in the box after signing in, the first of a conversation and a later one', async () => {
    const { gw, s } = await chat.boot();
    const base = s.url.replace('127.0.0.1', 'localhost');
    const { page } = await browser.open(`${base}/`);
    await withPasskey(page);
    await page.goto(`${base}/setup${new URL(s.inst.auth.setupLink() as string).hash}`);
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.waitForURL(`${base}/`);
    await settled(page);
    await openPanel(page);

    // the first message: the new conversation is refused
    const first = 'How did I sleep this week? I went to bed late on Tuesday and Thursday.';
    await sendSignedOut(page, base, first);
    const box = page.locator('#chat-input');
    expect(await box.inputValue()).toBe(first);
    gw.script({ kind: 'reply', text: 'About seven hours a night.' }, { kind: 'reply', text: 'Sleep' });
    await box.press('Enter');
    await expect.poll(() => answers(page), { timeout: 30_000 }).toEqual(['About seven hours a night.']);
    await turnOver(page);
    expect(turnUserTexts(gw)).toEqual([first]);

    // a later message of the same conversation: the turn is refused
    const second = 'And the week before, when I was travelling?';
    await sendSignedOut(page, base, second);
    expect(await box.inputValue()).toBe(second);
  });
});
