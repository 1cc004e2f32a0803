/**
 * Names and notes typed in the web app count characters as the server counts them (a person's
 * characters: a ZWJ family emoji, a flag, a letter with its accent is one), in Debian's Chromium
 * against the real server. Chromium's own `maxlength` counts UTF-16 units (a family emoji is
 * eleven), so it used to cut a conversation name, a feedback note, a passkey's name or a token's
 * name short of the limit or in the middle of an emoji. Now a text at the limit is stored whole,
 * and one character over holds back Save/Send with a sentence naming both counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { DESKTOP, launchBrowser, type TestBrowser, type WatchedPage } from './browser.js';
import { chatBrowser, eventually, openPanel, PANEL } from './chat-support.js';
import { addPasskeyAuthenticator } from './virtual-authenticator.js';

/** One character, eleven UTF-16 units, seven code points. */
const FAMILY = '👨‍👩‍👧‍👦';
const FLAG = '🇳🇿';

/** `n` characters that take far more UTF-16 units (and code points) than characters. */
function emojiText(n: number, lead: string): string {
  const emoji = `${FAMILY}${FLAG}é`.repeat(3); // 9 characters
  return `${lead}${emoji}${'x'.repeat(n - lead.length - 9)}`;
}

const browser = chatBrowser();
const chat = chatServers();
afterEach(() => chat.closeAll());

const DRAWER = `${PANEL} .chat-drawer`;

describe('conversation names and feedback notes', { timeout: 90_000 }, () => {
  it('a conversation name of 120 characters with emoji is stored whole; 121 holds back Save', async () => {
    const { s } = await chat.boot();
    const made = await s.api('/api/conversations', { json: { title: 'Trip', messages: [] } });
    const id = made.body.conversation.id as string;
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.getByRole('button', { name: 'Rename Trip' }).click();
    const input = page.locator(`#chat-rename-${id}`);
    const save = page.locator(`${DRAWER} .chat-rename button[type="submit"]`);

    const name = emojiText(120, 'Holiday ');
    await input.fill(`${name}!`);
    expect(await input.inputValue()).toBe(`${name}!`);
    expect(await page.locator(`${DRAWER} .chat-rename-limit`).textContent()).toBe(
      'The name is 121 characters long; at most 120.',
    );
    expect(await save.isDisabled()).toBe(true);

    await input.fill(name);
    expect(await save.isDisabled()).toBe(false);
    await input.press('Enter');
    await eventually(async () => (await s.api(`/api/conversations/${id}`)).body.conversation.title).toBe(
      name,
    );
  });

  it('a feedback note of 280 characters with emoji is logged whole, not cut with …; 281 holds back Send', async () => {
    const { s } = await chat.boot();
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.locator(`${DRAWER} .chat-feedback summary`).click();
    const box = page.locator('#chat-feedback-text');
    const send = page.locator(`${DRAWER} .chat-feedback button[type="submit"]`);

    const note = emojiText(280, 'The chart ');
    await box.fill(`${note}?`);
    expect(await box.inputValue()).toBe(`${note}?`);
    expect(await page.locator('#chat-feedback-limit').textContent()).toBe(
      'Feedback is 281 characters long; at most 280.',
    );
    expect(await send.isDisabled()).toBe(true);

    await box.fill(note);
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/feedback'));
    await send.click();
    expect((await posted).status()).toBe(201);
    const log = fs.readFileSync(path.join(s.dataDir, '_meta/feedback.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(log.at(-1) ?? '{}').intent).toBe(note);
  });
});

describe('a passkey’s name and a token’s name', { timeout: 120_000 }, () => {
  let s: TestServer;
  let base: string;
  let chromium: TestBrowser | undefined;
  let launchError: Error | undefined;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    s = await startServer();
    base = s.url.replace('127.0.0.1', 'localhost'); // WebAuthn needs a host name
    try {
      chromium = await launchBrowser();
    } catch (err) {
      launchError = err as Error;
    }
  });
  afterAll(async () => {
    const problems = pages.flatMap((w) => w.problems);
    for (const w of pages) await w.page.close().catch(() => {});
    await chromium?.close();
    await s?.close();
    expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
  });

  it('64 characters with emoji are taken whole for both; 65 hold back the button', async () => {
    if (!chromium) throw launchError ?? new Error('Chromium was not started');
    const w = await chromium.newPage(DESKTOP);
    pages.push(w);
    await addPasskeyAuthenticator(w.page);
    const page = w.page;
    await page.goto(`${base}/setup${new URL(s.inst.auth.setupLink() as string).hash}`);
    const nickname = page.getByLabel('Name this device (optional)');
    const create = page.getByRole('button', { name: 'Create a passkey' });
    const device = emojiText(64, 'Laptop ');
    await nickname.fill(`${device}!`);
    expect(await nickname.inputValue()).toBe(`${device}!`);
    expect(await page.locator('#nickname-limit').textContent()).toBe(
      'The name is 65 characters long; at most 64.',
    );
    expect(await create.isDisabled()).toBe(true);
    await nickname.fill(device);
    await create.click();
    await page.waitForURL(`${base}/`);
    expect(s.inst.auth.passkeys.user('user')?.credentials.map((c) => c.nickname)).toEqual([device]);

    await page.goto(`${base}/settings/security`);
    const tokenName = page.getByLabel('Name', { exact: true });
    const make = page.getByRole('button', { name: 'Create token' });
    const script = emojiText(64, 'Shortcuts ');
    await tokenName.fill(`${script}!`);
    expect(await tokenName.inputValue()).toBe(`${script}!`);
    expect(await page.locator('#token-name-limit').textContent()).toBe(
      'The name is 65 characters long; at most 64.',
    );
    expect(await make.isDisabled()).toBe(true);
    await tokenName.fill(script);
    await make.click();
    await page.locator('[data-new-token] input').waitFor();
    await expect
      .poll(() => page.locator('[aria-label="Agent tokens"] li').allTextContents())
      .toEqual([expect.stringContaining(script)]);

    // a name holding a right-to-left override is refused when a token is made, but one kept from
    // before that rule stays inside its own box: the access badge beside it still reads left to right
    s.inst.auth.tokens.create('\u202Ereader', 'read');
    await page.reload();
    const badge = page
      .locator('[aria-label="Agent tokens"] li', { hasText: 'reader' })
      .locator('.auth-badge');
    await badge.waitFor();
    const order = await badge.evaluate((el) => {
      const text = el.firstChild as Text;
      const x = (i: number) => {
        const r = document.createRange();
        r.setStart(text, i);
        r.setEnd(text, i + 1);
        return r.getBoundingClientRect().left;
      };
      return { text: text.data, first: x(0), last: x(text.data.length - 1) };
    });
    expect(order.text).toBe('Read-only');
    expect(order.first, "the badge's first letter is drawn left of its last").toBeLessThan(order.last);
  });
});
