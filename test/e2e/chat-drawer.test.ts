/**
 * The chat panel's conversation drawer in Debian's Chromium against the real server:
 * conversations listed by recency, search (`POST /api/conversations/search`, with the matching
 * line), opening one, renaming and deleting in place (the server agrees), "new conversation", the
 * feedback form in the drawer's footer (`POST /api/feedback`), and the legacy transcript
 * (`/api/chat/history`) folded into a conversation the first time the panel opens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { TestServer } from '../helpers/server.js';
import { PHONE } from './browser.js';
import { answers, chatBrowser, eventually, openPanel, PANEL } from './chat-support.js';

const browser = chatBrowser();
const chat = chatServers();
afterEach(() => chat.closeAll());

const DRAWER = `${PANEL} .chat-drawer`;

/** Stores a conversation through the API (as another device would have); returns its id. */
async function stored(s: TestServer, title: string, messages: [string, string][]): Promise<string> {
  const r = await s.api('/api/conversations', {
    json: { title, messages: messages.map(([role, content]) => ({ role, content })) },
  });
  expect(r.status).toBe(201);
  return r.body.conversation.id;
}

describe('the conversation drawer', { timeout: 90_000 }, () => {
  it('shows a message the content filter refused with a note that it is not sent again', async () => {
    const { s } = await chat.boot();
    const r = await s.api('/api/conversations', {
      json: {
        title: 'Doses',
        messages: [
          { role: 'user', content: 'How many of my pills would be too many?', refused: true },
          { role: 'user', content: 'What is my weight?' },
          { role: 'assistant', content: 'About 80 kg.' },
        ],
      },
    });
    expect(r.status, r.text).toBe(201);
    const id = r.body.conversation.id as string;
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.locator(`${DRAWER} .chat-conv[data-conversation-id="${id}"] .chat-conv-open`).click();
    await eventually(() => answers(page)).toEqual(['About 80 kg.']);
    const users = page.locator(`${PANEL} .chat-msg-user`);
    expect(await users.count()).toBe(2);
    expect(await users.nth(0).locator('.chat-refused').textContent()).toContain('content filter');
    expect(await users.nth(1).locator('.chat-refused').count()).toBe(0);
  });

  it('gives keyboard focus back to the ☰ button when the list closes; a phone gets no keyboard on opening it', async () => {
    const { s } = await chat.boot();
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    const focused = () =>
      page.evaluate(
        () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id ?? '',
      );
    const menu = page.getByRole('button', { name: 'Conversations' });
    await menu.focus();
    await page.keyboard.press('Enter');
    await page.locator('#chat-search').waitFor();
    await eventually(focused).toBe('chat-search'); // on a desktop the search box takes the keys at once
    await page.keyboard.press('Escape');
    await page.locator(DRAWER).waitFor({ state: 'detached' });
    await eventually(focused).toBe('Conversations');
    expect(
      await page.locator(`${PANEL}:not([hidden])`).count(),
      'Escape closed the list, not the panel',
    ).toBe(1);

    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Close the list' }).click();
    await page.locator(DRAWER).waitFor({ state: 'detached' });
    await eventually(focused).toBe('Conversations');

    const phone = await browser.open(`${s.url}/`, PHONE);
    await openPanel(phone.page);
    await phone.page.getByRole('button', { name: 'Conversations' }).click();
    await phone.page.locator('#chat-search').waitFor();
    await phone.page.locator(`${DRAWER} .chat-drawer-state, ${DRAWER} .chat-conversations`).first().waitFor();
    expect(await phone.page.evaluate(() => document.activeElement?.id ?? '')).not.toBe('chat-search');
  });

  it('lists by recency, searches, opens, renames, deletes and starts a new conversation', async () => {
    const { s } = await chat.boot();
    const sleepId = await stored(s, 'Sleep questions', [
      ['user', 'How did I sleep last week?'],
      ['assistant', 'About **seven hours** a night.'],
    ]);
    const vitaminId = await stored(s, 'Supplements', [
      ['user', 'Did I take vitamin D this morning?'],
      ['assistant', 'Not yet: the last dose logged is from yesterday.'],
    ]);
    const bpId = await stored(s, 'Blood pressure', [['user', 'Log 128/84 please']]);
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.getByRole('button', { name: 'Conversations' }).click();
    const titles = () => page.locator(`${DRAWER} .chat-conv-title`).allTextContents();
    await eventually(titles).toEqual(['Blood pressure', 'Supplements', 'Sleep questions']);

    // search: the needle travels in the body; the hit shows its line
    const searched = page.waitForRequest((r) => r.url().endsWith('/api/conversations/search'));
    await page.locator('#chat-search').fill('VITAMIN d');
    const req = await searched;
    expect(req.postDataJSON()).toEqual({ q: 'VITAMIN d' });
    expect(req.url()).not.toContain('VITAMIN');
    await eventually(titles).toEqual(['Supplements']);
    expect(await page.locator(`${DRAWER} .chat-conv-snippet`).textContent()).toBe(
      'Did I take vitamin D this morning?',
    );
    await page.locator('#chat-search').fill('no such words anywhere');
    await page.locator(DRAWER, { hasText: 'No conversation mentions that.' }).waitFor();
    await page.locator('#chat-search').fill('');
    await eventually(titles).toHaveLength(3);

    // open one: its messages are shown, the drawer closes
    await page.locator(`${DRAWER} .chat-conv[data-conversation-id="${sleepId}"] .chat-conv-open`).click();
    await page.locator(DRAWER).waitFor({ state: 'detached' });
    await eventually(() => answers(page)).toEqual(['About seven hours a night.']);
    expect(await page.locator(`${PANEL} [data-chat-title]`).textContent()).toBe('Sleep questions');
    expect(await page.evaluate(() => localStorage.getItem('klebb.chat.conversation'))).toBe(sleepId);

    // rename
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.getByRole('button', { name: 'Rename Supplements' }).click();
    const input = page.locator(`#chat-rename-${vitaminId}`);
    await input.fill('  Vitamin   D  ');
    await input.press('Enter');
    await eventually(titles).toEqual(['Blood pressure', 'Vitamin D', 'Sleep questions']);
    expect((await s.api(`/api/conversations/${vitaminId}`)).body.conversation.title).toBe('Vitamin D');

    // delete the one shown: the server forgets it and the panel shows a new conversation
    await page.getByRole('button', { name: 'Delete Sleep questions' }).click();
    await page.locator(`${DRAWER} .chat-conv-confirm`).getByRole('button', { name: 'Delete' }).click();
    await eventually(titles).toEqual(['Blood pressure', 'Vitamin D']);
    expect((await s.api(`/api/conversations/${sleepId}`)).status).toBe(404);
    // the panel's title follows once the list has (the two update one after the other)
    await eventually(() => page.locator(`${PANEL} [data-chat-title]`).textContent()).toBe('New conversation');
    // a second thought: "Keep" leaves it alone
    await page.getByRole('button', { name: 'Delete Blood pressure' }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    expect((await s.api(`/api/conversations/${bpId}`)).status).toBe(200);

    // new conversation from the drawer
    await page.locator(`${DRAWER} .chat-conv[data-conversation-id="${vitaminId}"] .chat-conv-open`).click();
    await eventually(() => answers(page)).toEqual(['Not yet: the last dose logged is from yesterday.']);
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.locator(`${DRAWER} .chat-drawer-new`).click();
    await eventually(() => page.locator(`${PANEL} .chat-msg`).count()).toBe(0);
    expect(await page.locator(`${PANEL} [data-chat-title]`).textContent()).toBe('New conversation');
    expect(await page.evaluate(() => localStorage.getItem('klebb.chat.conversation'))).toBeNull();
  });

  it('after a deletion with the keyboard the focus goes to the next conversation, else the previous, else "New conversation"; the confirmation gets it first', async () => {
    const { s } = await chat.boot();
    await stored(s, 'First', [['user', 'one']]);
    await stored(s, 'Second', [['user', 'two']]);
    await stored(s, 'Third', [['user', 'three']]);
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.getByRole('button', { name: 'Conversations' }).click();
    const titles = () => page.locator(`${DRAWER} .chat-conv-title`).allTextContents();
    await eventually(titles).toEqual(['Third', 'Second', 'First']);
    /** The accessible text of the focused element (a row's button: its title; else its label). */
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return 'the page';
        return (
          el.querySelector('.chat-conv-title')?.textContent ??
          el.getAttribute('aria-label') ??
          el.textContent ??
          ''
        ).trim();
      });
    /** Deletes `title` with the keyboard: its Delete button, then the confirmation's Delete. */
    const deleteByKeyboard = async (title: string) => {
      await page.getByRole('button', { name: `Delete ${title}` }).focus();
      await page.keyboard.press('Enter');
      const confirm = page.locator(`${DRAWER} .chat-conv-confirm`).getByRole('button', { name: 'Delete' });
      await confirm.focus();
      await page.keyboard.press('Enter');
      await eventually(async () => (await titles()).includes(title)).toBe(false);
    };

    // the confirmation takes the place of the Delete button: its safe choice gets the focus, and
    // Keep gives it back to the Delete button
    await page.getByRole('button', { name: 'Delete Second' }).focus();
    await page.keyboard.press('Enter');
    await eventually(focused).toBe('Keep');
    await page.keyboard.press('Enter');
    await eventually(focused).toBe('Delete Second');
    // a rename left with Escape gives it back to the Rename button
    await page.getByRole('button', { name: 'Rename Third' }).focus();
    await page.keyboard.press('Enter');
    await page.locator(`${DRAWER} .chat-rename input`).waitFor();
    await page.locator(`${DRAWER} .chat-rename input`).focus();
    await page.keyboard.press('Escape');
    await eventually(focused).toBe('Rename Third');

    // the middle one: the next (older) conversation's row
    await deleteByKeyboard('Second');
    await eventually(focused).toBe('First');
    // the last one: the previous row
    await deleteByKeyboard('First');
    await eventually(focused).toBe('Third');
    // the only one: "New conversation"
    await deleteByKeyboard('Third');
    await page.locator(DRAWER, { hasText: 'No conversations yet.' }).waitFor();
    await eventually(focused).toBe('New conversation');
  });

  it('the search box takes a query of emoji longer than 500 UTF-16 units whole, as the server counts characters', async () => {
    const { s } = await chat.boot();
    // 300 emoji (600 UTF-16 units) then a word: under the server's limit of 500 characters
    const needle = `${'🌙'.repeat(300)} insomnia`;
    await stored(s, 'Night notes', [['user', `My diary: ${needle} again`]]);
    await stored(s, 'Other', [['user', `Only part: ${'🌙'.repeat(250)}`]]);
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.getByRole('button', { name: 'Conversations' }).click();
    const box = page.locator('#chat-search');
    // no maxlength: Chromium's counts UTF-16 units and cut this at 250 emoji
    expect(await box.getAttribute('maxlength')).toBeNull();
    const searched = page.waitForRequest((r) => r.url().endsWith('/api/conversations/search'));
    await box.fill(needle);
    expect(await box.inputValue()).toBe(needle);
    expect((await searched).postDataJSON()).toEqual({ q: needle });
    await eventually(() => page.locator(`${DRAWER} .chat-conv-title`).allTextContents()).toEqual([
      'Night notes',
    ]);
  });

  it('sends feedback from the drawer footer', async () => {
    const { s } = await chat.boot();
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.getByRole('button', { name: 'Conversations' }).click();
    await page.locator(`${DRAWER} .chat-feedback summary`).click();
    await page.getByLabel('Something went wrong').check();
    await page.locator('#chat-feedback-text').fill('The chart did not show the last week');
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/feedback'));
    await page.locator(`${DRAWER} .chat-feedback button[type="submit"]`).click();
    expect((await posted).status()).toBe(201);
    await page.locator(`${DRAWER} .chat-feedback`, { hasText: 'Thank you' }).waitFor();
    const log = fs.readFileSync(path.join(s.dataDir, '_meta/feedback.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(log.at(-1) ?? '{}')).toMatchObject({
      kind: 'bug',
      intent: 'The chart did not show the last week',
    });
  });

  it('folds the legacy transcript into a conversation the first time and shows it', async () => {
    const { s } = await chat.boot();
    const put = await s.api('/api/chat/history', {
      method: 'PUT',
      json: {
        messages: [
          { role: 'user', content: 'How did I sleep?' },
          { role: 'assistant', content: 'About seven hours.' },
        ],
      },
    });
    expect(put.status).toBe(200);
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await eventually(() => answers(page)).toEqual(['About seven hours.']);
    expect(await page.locator(`${PANEL} [data-chat-title]`).textContent()).toBe('Earlier chat');
    expect((await s.api('/api/chat/history')).body.messages).toEqual([]);
    const list = (await s.api('/api/conversations')).body.conversations;
    expect(list.map((c: { title: string }) => c.title)).toEqual(['Earlier chat']);
    expect(await page.evaluate(() => localStorage.getItem('klebb.chat.legacyFolded'))).toBe('1');
  });
});
