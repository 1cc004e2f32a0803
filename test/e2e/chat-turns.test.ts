/**
 * The chat widget's turns in Debian's Chromium against the real server and the scripted gateway:
 * - the panel's code is a separate chunk, fetched only when the panel first opens;
 * - a streamed turn: the words appear as they arrive, the agent's status shows (a tool by the
 *   label of its card), the answer settles as markdown, the card in view goes along as
 *   `viewedCardId`; the card the agent created appears on Today without a reload (the live feed,
 *   web/lib/live.ts); words said before a tool call go when the stream says `reset`;
 * - the send button becomes a stop button mid-turn, and stopping ends the turn with no answer saved;
 * - a capped answer offers "Keep going", which sends exactly that as the next turn;
 * - without a chat endpoint the panel says which settings to set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { contentText } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  answers,
  chatBrowser,
  eventually,
  liveText,
  openPanel,
  PANEL,
  recordLiveTexts,
  recordStatusLines,
  sendText,
  shownStatuses,
  turnOver,
} from './chat-support.js';

const browser = chatBrowser();
const chat = chatServers();
afterEach(() => chat.closeAll());

/** The manifest the agent creates. */
const MIGRAINE = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'migraine',
    label: 'Migraine diary',
    emoji: '🤕',
    view: { enabled: true, component: 'list-card' },
  },
  description: 'Migraine attacks, one row each.',
};

describe('a streamed turn', { timeout: 90_000 }, () => {
  it('loads the panel code on first open only, streams the answer, and the new card appears on Today', async () => {
    const { gw, s } = await chat.boot();
    const answer = 'Done: I made a **Migraine diary** card for you. It is on Today now.';
    gw.script(
      {
        kind: 'reply',
        toolCalls: [{ id: 'c1', name: 'create_manifest', arguments: { manifest: MIGRAINE } }],
      },
      {
        kind: 'reply',
        headersDelayMs: 1_200,
        toolCalls: [
          { id: 'c2', name: 'append_row', arguments: { id: 'migraine', value: { date: '2026-11-30' } } },
        ],
      },
      { kind: 'reply', text: answer, headersDelayMs: 1_200, chunkDelayMs: 70 },
      { kind: 'reply', text: 'Migraine diary' }, // the conversation's title (a side call after the turn)
    );
    const { page } = await browser.open(`${s.url}/`);
    await page.locator('main article[data-card-id="welcome"]').waitFor();
    const chunks = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => /\/assets\/chat-panel-[^/]*\.js$/.test(n)),
      );
    expect(await chunks(), 'the panel chunk is not fetched before the panel opens').toEqual([]);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });

    await openPanel(page);
    expect(await chunks()).toHaveLength(1);
    expect(await page.locator(`${PANEL} .chat-name`).textContent()).toBe('Chat');
    await recordLiveTexts(page);
    await recordStatusLines(page);
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/chat') && r.method() === 'POST');
    await sendText(page, 'Make me a card for migraines');
    const body = JSON.parse((await posted).postData() ?? '{}');
    expect(body).toMatchObject({
      stream: true,
      voiceMode: false,
      viewedCardId: 'welcome',
      messages: [{ role: 'user', content: 'Make me a card for migraines' }],
    });
    expect(typeof body.conversationId).toBe('string');

    // mid-turn: the user's message, the status line, a stop button
    await eventually(() => page.locator(`${PANEL} .chat-msg[data-role="user"]`).allTextContents()).toEqual([
      'Make me a card for migraines',
    ]);
    // what the agent is doing, a tool by the card it works on (its label, once the card exists)
    await eventually(() => shownStatuses(page)).toContain('Updating Migraine diary…');
    const statuses = await shownStatuses(page);
    const creating = statuses.indexOf('Creating a card…');
    expect(creating, statuses.join(' | ')).toBeGreaterThanOrEqual(0);
    const thinking = statuses.indexOf('Thinking…', creating);
    expect(thinking, statuses.join(' | ')).toBeGreaterThan(creating);
    expect(statuses.indexOf('Updating Migraine diary…'), statuses.join(' | ')).toBeGreaterThan(thinking);
    await page.locator(`${PANEL} button.chat-stop`).waitFor();
    // the card appears on the dashboard while the agent is still answering
    await page.locator('main article[data-card-id="migraine"]').waitFor();
    expect(await page.locator('main article[data-card-id="migraine"] .card-label').textContent()).toBe(
      'Migraine diary',
    );

    await turnOver(page);
    expect(await answers(page)).toEqual(['Done: I made a Migraine diary card for you. It is on Today now.']);
    expect(
      await page.locator(`${PANEL} .chat-msg[data-role="assistant"] .chat-md strong`).textContent(),
    ).toBe('Migraine diary');
    // the words came in pieces, each text shown growing from the one before (asterisks aside:
    // "**Migraine" shows them until the closing pair arrives and makes it bold)
    const plain = (t: string) => t.replace(/\*/g, '').trimEnd();
    const shown = (await recordedTexts(page)).map(plain);
    expect(shown.length).toBeGreaterThan(3);
    for (let i = 1; i < shown.length; i++) expect(shown[i].startsWith(shown[i - 1]), shown[i]).toBe(true);
    expect(shown.at(-1)).toBe(plain(answer));
    expect(await liveText(page)).toBe('');
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);

    // the server has the exchange, and names the conversation; the panel picks the name up
    const conv = (await s.api(`/api/conversations/${body.conversationId}`)).body.conversation;
    expect(conv.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(conv.messages[1].content).toBe(answer);
    await eventually(() => page.locator(`${PANEL} [data-chat-title]`).textContent()).toBe('Migraine diary');
    expect(gw.remaining).toBe(0);
  });

  it('drops the words said before a tool call when the stream says reset', async () => {
    const { gw, s } = await chat.boot();
    gw.script(
      {
        kind: 'reply',
        text: 'Let me look at your cards first.',
        chunkDelayMs: 60,
        toolCalls: [{ id: 'l1', name: 'list_manifests', arguments: {} }],
      },
      { kind: 'reply', text: 'You have one card: Welcome to Klebb.', headersDelayMs: 800, chunkDelayMs: 60 },
      { kind: 'reply', text: 'Your cards' },
    );
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await recordLiveTexts(page);
    await sendText(page, 'Which cards do I have?');
    await turnOver(page);
    expect(await answers(page)).toEqual(['You have one card: Welcome to Klebb.']);
    const shown = (await recordedTexts(page)).map((t) => t.trim());
    const before = shown.findIndex((t) => t.startsWith('Let me look'));
    const after = shown.findIndex((t) => t.startsWith('You have'));
    expect(before).toBeGreaterThanOrEqual(0);
    expect(after).toBeGreaterThan(before);
    // once reset, the earlier words never come back
    for (const t of shown.slice(after)) expect(t).not.toContain('Let me look');
  });

  it('stops a running turn: the stop button ends it, no answer is saved, and a new message can go', async () => {
    const { gw, s } = await chat.boot();
    gw.script({ kind: 'stall', afterText: 'Let me think about this for a long ', chunkDelayMs: 30 });
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await sendText(page, 'Analyse everything I ever logged');
    await eventually(() => liveText(page)).toContain('for a long');
    const stop = page.locator(`${PANEL} button.chat-stop`);
    const deleted = page.waitForRequest(
      (r) => r.method() === 'DELETE' && r.url().includes('/api/chat/turn/'),
    );
    await stop.click();
    await deleted;
    await page.locator(`${PANEL} .chat-note`, { hasText: 'Stopped' }).waitFor();
    await turnOver(page);
    expect(await answers(page)).toEqual([]);
    expect(await liveText(page)).toBe('');
    const list = (await s.api('/api/conversations')).body.conversations;
    expect(list).toHaveLength(1);
    const conv = (await s.api(`/api/conversations/${list[0].id}`)).body.conversation;
    expect(conv.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Analyse everything I ever logged'],
    ]);

    // the lock is free again: the next message goes through
    gw.script(
      { kind: 'reply', text: 'Here is a smaller piece.' },
      { kind: 'reply', text: 'Logged data analysis' },
    );
    await sendText(page, 'Just this week then');
    await turnOver(page);
    await eventually(() => answers(page)).toEqual(['Here is a smaller piece.']);
  });

  it('a double click on Send sends once and keeps the turn: the stop button ignores the second click', async () => {
    const { gw, s } = await chat.boot();
    gw.script(
      { kind: 'reply', text: 'All of it, answered.', headersDelayMs: 800 },
      { kind: 'reply', text: 'Everything' },
    );
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    const chatRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/chat')) chatRequests.push(r.method());
    });
    await page.locator('#chat-input').fill('Tell me everything');
    // the second click of a double click lands on the stop button the moment it replaces Send
    await page.evaluate(() => {
      const w = window as unknown as { __secondClick: boolean };
      w.__secondClick = false;
      const mo = new MutationObserver(() => {
        const stop = document.querySelector<HTMLButtonElement>('[data-chat-panel] button.chat-stop');
        if (!stop) return;
        mo.disconnect();
        stop.click();
        w.__secondClick = true;
      });
      mo.observe(document, { subtree: true, childList: true, attributes: true });
    });
    await page.locator(`${PANEL} button.chat-send[aria-label="Send"]`).click();
    await eventually(() =>
      page.evaluate(() => (window as unknown as { __secondClick: boolean }).__secondClick),
    ).toBe(true);
    await eventually(() => answers(page)).toEqual(['All of it, answered.']);
    await turnOver(page);
    expect(await page.locator(`${PANEL} .chat-note`, { hasText: 'Stopped' }).count()).toBe(0);
    expect(
      chatRequests.filter((m) => m === 'DELETE'),
      'no stop was sent',
    ).toEqual([]);
    expect(
      chatRequests.filter((m) => m === 'POST'),
      'one turn was sent',
    ).toHaveLength(1);
  });

  it('sends the card the person last interacted with as the card in focus, not the first on Today', async () => {
    const { gw, s } = await chat.boot();
    for (const [id, label] of [
      ['sleep-log', 'Sleep log'],
      ['mood-log', 'Mood log'],
    ]) {
      const r = await s.api('/api/manifests', {
        json: {
          $schema: 'klebb.datafile.v1',
          meta: { id, label, view: { enabled: true, component: 'list-card' } },
          description: `${label}, one row each.`,
        },
      });
      expect(r.status).toBe(201);
    }
    gw.script({ kind: 'reply', text: 'That one has no rows yet.' }, { kind: 'reply', text: 'Mood log' });
    const { page } = await browser.open(`${s.url}/`);
    const second = page.locator('main article[data-card-id="mood-log"]');
    await page.locator('main article[data-card-id="sleep-log"]').waitFor();
    await second.waitFor();
    await second.click({ position: { x: 4, y: 4 } });
    await openPanel(page);
    const posted = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/chat',
    );
    await sendText(page, 'What is on this card?');
    expect(JSON.parse((await posted).postData() ?? '{}').viewedCardId).toBe('mood-log');
    await turnOver(page);
  });

  it('a message over the limit stays in the composer, with a counter and a plain sentence when the server refuses it', async () => {
    const { s } = await chat.boot();
    const watched = await browser.open(`${s.url}/`);
    const { page } = watched;
    await openPanel(page);
    const box = page.locator('#chat-input');
    // no maxlength: Chromium's counts UTF-16 units, which cut a message of emoji at half the limit
    expect(await box.getAttribute('maxlength')).toBeNull();
    await box.fill('a'.repeat(95_000));
    await page.locator(`${PANEL} [data-chat-count]`, { hasText: '5,000 characters left' }).waitFor();
    // characters as a person counts them: 95 000 emoji (190 000 UTF-16 units) are 5 000 short
    await box.fill('😀'.repeat(95_000));
    await page.locator(`${PANEL} [data-chat-count]`, { hasText: '5,000 characters left' }).waitFor();
    expect(await box.inputValue()).toBe('😀'.repeat(95_000));
    await box.fill('👨‍👩‍👧'.repeat(100_001));
    await page.locator(`${PANEL} [data-chat-count]`, { hasText: '1 character over the limit' }).waitFor();
    // a text put there past the limit (a script, an old browser) goes to the server, which refuses it
    const long = `${'b'.repeat(100_000)} and one more`;
    await box.evaluate((el: HTMLTextAreaElement, v: string) => {
      el.value = v;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, long);
    await page.locator(`${PANEL} [data-chat-count]`, { hasText: 'over the limit' }).waitFor();
    const refused = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/chat',
    );
    await box.press('Enter');
    expect((await refused).status()).toBe(400);
    const note = page.locator(`${PANEL} .chat-note`, { hasText: 'too long' });
    await note.waitFor();
    expect(await note.textContent()).not.toMatch(/messages\[|content is longer/);
    await turnOver(page);
    expect(await box.inputValue()).toBe(long);
    expect(await page.locator(`${PANEL} .chat-msg[data-role="user"]`).count()).toBe(0);
    // Chromium logs the refusal it was expected to get; that one line is no problem
    const logged = watched.problems.findIndex((p) =>
      p.startsWith(
        'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ),
    );
    expect(logged).toBeGreaterThanOrEqual(0);
    watched.problems.splice(logged, 1);
  });

  it('names a card by its label in the status line even when the turn looked for it before creating it', async () => {
    const { gw, s } = await chat.boot();
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'r1', name: 'read_manifest', arguments: { id: 'migraine' } }] },
      {
        kind: 'reply',
        toolCalls: [{ id: 'c1', name: 'create_manifest', arguments: { manifest: MIGRAINE } }],
      },
      {
        kind: 'reply',
        headersDelayMs: 1_500,
        toolCalls: [
          { id: 'c2', name: 'append_row', arguments: { id: 'migraine', value: { date: '2026-11-30' } } },
        ],
      },
      { kind: 'reply', text: 'Logged it.', headersDelayMs: 1_500 },
      { kind: 'reply', text: 'Migraine diary' },
    );
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await recordStatusLines(page);
    await sendText(page, 'Log a migraine for today');
    await eventually(() => shownStatuses(page)).toContain('Updating Migraine diary…');
    await eventually(() => answers(page)).toEqual(['Logged it.']);
  });

  it('offers "Keep going" after a capped answer and sends exactly that as the next turn', async () => {
    const { gw, s } = await chat.boot({ CHAT_MAX_TURNS: '1' });
    gw.script(
      {
        kind: 'reply',
        text: 'Going through your cards.',
        toolCalls: [{ id: 't1', name: 'list_manifests', arguments: {} }],
      },
      { kind: 'reply', text: 'Card review' },
    );
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await sendText(page, 'Add a category to every card');
    await turnOver(page);
    const capped = await answers(page);
    expect(capped).toHaveLength(1);
    expect(capped[0]).toContain('keep going');
    await eventually(() => gw.remaining).toBe(0); // the title call is done too
    const keepGoing = page.locator(`${PANEL} .chat-chip`, { hasText: 'Keep going' });
    await keepGoing.waitFor();

    gw.script({ kind: 'reply', text: 'All cards have a category now.' });
    await keepGoing.click();
    await turnOver(page);
    await eventually(() => answers(page)).toHaveLength(2);
    expect((await answers(page))[1]).toBe('All cards have a category now.');
    const last = gw.requests.at(-1)?.body.messages.at(-1);
    // the newest message carries the moving cache mark, so its text is read through contentText
    expect(last.role).toBe('user');
    expect(contentText(last.content)).toBe('Keep going');
    expect(await page.locator(`${PANEL} .chat-chip`, { hasText: 'Keep going' }).count()).toBe(0);
    expect(await page.locator(`${PANEL} .chat-msg[data-role="user"]`).allTextContents()).toEqual([
      'Add a category to every card',
      'Keep going',
    ]);
  });

  it('shows the error copy of a failed turn in place of the answer', async () => {
    const { gw, s } = await chat.boot();
    gw.script({
      kind: 'error',
      status: 402,
      body: { error: { message: 'Insufficient credits: budget exceeded' } },
    });
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await sendText(page, 'Compare this month with last month');
    await turnOver(page);
    const note = page.locator(`${PANEL} .chat-note-error`);
    await note.waitFor();
    expect(await note.textContent()).toContain('allowance for this model is used up');
    expect(await answers(page)).toEqual([]);
  });
});

describe('without a chat endpoint', { timeout: 60_000 }, () => {
  let s: TestServer | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('says chat is not set up and names CHAT_ENDPOINT_URL, CHAT_API_KEY and CHAT_MODEL', async () => {
    s = await startServer();
    const { page } = await browser.open(`${s.url}/`);
    await page.locator('[data-chat-launcher]').click();
    const notice = page.locator(`${PANEL} [data-chat-not-configured]`);
    await notice.waitFor();
    const text = await notice.textContent();
    for (const name of ['CHAT_ENDPOINT_URL', 'CHAT_API_KEY', 'CHAT_MODEL']) expect(text).toContain(name);
    expect(await page.locator('#chat-input').isDisabled()).toBe(true);
    expect(await page.locator(`${PANEL} button.chat-send`).isDisabled()).toBe(true);
  });
});

async function recordedTexts(page: import('playwright-core').Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __chatTexts: string[] }).__chatTexts ?? []);
}
