/**
 * Reattaching to a running turn in Debian's Chromium against the real server and the scripted
 * gateway (docs/API.md "Reattach to a turn"). The answer streams slowly (one word every
 * 60 ms) so that each disturbance lands in the middle of the turn:
 * - the event stream is cut mid-turn (a route that ends the response after a few events) and the
 *   first reattach fails at the network level (route abort): the widget reattaches with
 *   `Last-Event-ID` and shows every missed word once;
 * - the tab comes back to the foreground (`visibilitychange`): it reattaches, no word twice;
 * - the page is reloaded mid-turn: the panel reopens, shows what it had, reattaches after the
 *   last event it saved, and ends with the whole answer once;
 * - the message never reaches the server: the reattach answers 204, the conversation is reloaded
 *   from the server, and the text goes back into the composer;
 * - the message's turn is already running at the server when the widget's request arrives (a
 *   first copy of the request got through): the server answers 409 `TURN_RUNNING` and the widget
 *   attaches to the running turn, showing its answer once.
 * In every case the texts the streaming answer showed only ever grew (recorded in the page).
 */
import type { Page, Route } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { TestServer } from '../helpers/server.js';
import {
  answers,
  chatBrowser,
  eventually,
  liveText,
  liveTextRecorder,
  openPanel,
  PANEL,
  recordLiveTexts,
  sendText,
  shownTexts,
  turnOver,
} from './chat-support.js';

// a route that aborts a request is a failed request by design in two of these tests, and the
// 409 of a message whose turn already runs is logged by the browser as a failed load
const browser = chatBrowser({
  allow: [
    /api\/chat(\/turn\/[^ ]+)? net::ERR_(CONNECTION_RESET|FAILED)/,
    /ERR_CONNECTION_RESET|ERR_FAILED/,
    /status of 409 \(Conflict\) http:\/\/[^ ]+\/api\/chat$/,
  ],
});
const chat = chatServers();
afterEach(() => chat.closeAll());

const ANSWER = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');
const SLOW = { kind: 'reply' as const, text: ANSWER, chunkDelayMs: 60 };
const TITLE = { kind: 'reply' as const, text: 'A long answer' };

/** Every text the live answer showed grew from the one before; the last one is the whole answer. */
async function expectGrowingTexts(page: Page): Promise<void> {
  const shown = (await shownTexts(page)).map((t) => t.trim());
  expect(shown.length).toBeGreaterThan(2);
  for (let i = 1; i < shown.length; i++) expect(shown[i].startsWith(shown[i - 1]), shown[i]).toBe(true);
  expect(ANSWER.startsWith(shown.at(-1) ?? '')).toBe(true);
}

/** Reads the event ids of an SSE text. */
function ids(sse: string): number[] {
  return [...sse.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}

/**
 * Sends the browser's `POST /api/chat` again from here and reads its live stream until `events`
 * events have come (or it ends), then stops reading (the turn goes on at the server).
 * Resolves with the SSE text read.
 */
async function readEvents(url: string, body: string, events: number): Promise<string> {
  const ctl = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: ctl.signal,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const dec = new TextDecoder();
  let text = '';
  while (ids(text).length < events) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  ctl.abort();
  return text;
}

/**
 * Serves the browser's `POST /api/chat` itself: forwards it to the server, reads the live stream
 * until `events` events have come, then hands the browser just those and ends the response (the
 * turn goes on at the server). Resolves with the SSE text the browser got.
 */
function cutStreamAfter(page: Page, events: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const handler = async (route: Route) => {
      const req = route.request();
      if (req.method() !== 'POST') return route.continue();
      await page.unroute('**/api/chat', handler);
      try {
        const text = await readEvents(req.url(), req.postData() ?? '', events);
        const cut = text.slice(0, text.lastIndexOf('\n\n') + 2);
        await route.fulfill({
          status: 200,
          headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
          body: cut,
        });
        resolve(cut);
      } catch (err) {
        reject(err);
      }
    };
    void page.route('**/api/chat', handler);
  });
}

/**
 * Lets the browser's `POST /api/chat` reach the server only after a copy of it has started the
 * turn (the copy is sent from here and read until its first event): the browser's own request then
 * finds the turn running. Resolves with the status the browser's request got.
 */
function turnStartedFirst(page: Page): Promise<number> {
  return new Promise((resolve, reject) => {
    let taken = false;
    const handler = async (route: Route) => {
      const req = route.request();
      if (req.method() !== 'POST' || taken) return route.continue();
      taken = true;
      try {
        await readEvents(req.url(), req.postData() ?? '', 1); // the turn goes on at the server
        const answered = page.waitForResponse((r) => r.request() === req);
        await route.continue();
        resolve((await answered).status());
      } catch (err) {
        reject(err);
      }
    };
    void page.route('**/api/chat', handler);
  });
}

/**
 * A new server whose model answers SLOW (then the title), and its Today page with the chat panel
 * open; with `record`, every text the live answer shows is recorded in the page.
 */
async function slowTurnPanel(opts: { record: boolean }): Promise<{ s: TestServer; page: Page }> {
  const { gw, s } = await chat.boot();
  gw.script(SLOW, TITLE);
  const { page } = await browser.open(`${s.url}/`);
  await openPanel(page);
  if (opts.record) await recordLiveTexts(page);
  return { s, page };
}

/** The next reattach request (`GET /api/chat/turn/…`) the page sends. */
function nextReattach(page: Page) {
  return page.waitForRequest((r) => r.method() === 'GET' && r.url().includes('/api/chat/turn/'));
}

/** The panel shows the one message sent. */
async function expectOneUserMessage(page: Page): Promise<void> {
  expect(await page.locator(`${PANEL} .chat-msg[data-role="user"]`).allTextContents()).toEqual([
    'Tell me a long story',
  ]);
}

/** The server stored one turn: the message and the whole answer. */
async function expectOneTurnStored(s: TestServer): Promise<void> {
  const list = (await s.api('/api/conversations')).body.conversations;
  const conv = (await s.api(`/api/conversations/${list[0].id}`)).body.conversation;
  expect(conv.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
    ['user', 'Tell me a long story'],
    ['assistant', ANSWER],
  ]);
}

describe('reattaching to a running turn', { timeout: 90_000 }, () => {
  it('attaches to the running turn when the message is answered 409 because its turn already runs', async () => {
    const { s, page } = await slowTurnPanel({ record: true });
    const status = turnStartedFirst(page);
    const attached = nextReattach(page);
    await sendText(page, 'Tell me a long story');
    expect(await status).toBe(409);
    await attached;
    await turnOver(page);
    expect(await answers(page)).toEqual([ANSWER]);
    await expectGrowingTexts(page);
    await expectOneUserMessage(page);
    // one turn ran: the refused copy added nothing
    await expectOneTurnStored(s);
  });

  it('after the stream is cut mid-turn and a reattach fails, shows every missed word once', async () => {
    const { s, page } = await slowTurnPanel({ record: true });

    const got = cutStreamAfter(page, 8);
    // the first reattach dies at the network level; the next one goes through
    let aborted = 0;
    await page.route('**/api/chat/turn/*', async (route) => {
      if (route.request().method() === 'GET' && aborted === 0) {
        aborted += 1;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    const reattaches: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && r.url().includes('/api/chat/turn/'))
        reattaches.push(r.headers()['last-event-id']);
    });

    await sendText(page, 'Tell me a long story');
    const cut = await got;
    const lastSeen = ids(cut).at(-1);
    await turnOver(page);
    expect(await answers(page)).toEqual([ANSWER]);
    expect(await liveText(page)).toBe('');
    expect(aborted).toBe(1);
    expect(reattaches.length).toBeGreaterThanOrEqual(2);
    expect(reattaches[0]).toBe(String(lastSeen));
    await expectGrowingTexts(page);

    await expectOneTurnStored(s);
  });

  it('reattaches when the tab comes back to the foreground, with no word twice', async () => {
    const { page } = await slowTurnPanel({ record: true });
    await sendText(page, 'Tell me a long story');
    await eventually(() => liveText(page)).toContain('word5 ');
    const reattach = nextReattach(page);
    // what a phone does when the app comes back: the page is told it is visible again
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    const req = await reattach;
    expect(Number(req.headers()['last-event-id'])).toBeGreaterThan(0);
    await turnOver(page);
    expect(await answers(page)).toEqual([ANSWER]);
    await expectGrowingTexts(page);
  });

  it('reattaches after a reload mid-turn: the panel reopens and the answer ends whole, once', async () => {
    const { s, page } = await slowTurnPanel({ record: false });
    await sendText(page, 'Tell me a long story');
    await eventually(() => liveText(page)).toContain('word8 ');
    const conversationId = await page.evaluate(() => localStorage.getItem('klebb.chat.conversation'));

    const reattach = nextReattach(page);
    await page.addInitScript(liveTextRecorder);
    await page.reload();
    const req = await reattach;
    expect(req.url()).toContain(`/api/chat/turn/${conversationId}`);
    // it picks up after the last event shown before the reload (saved when the page was left)
    expect(req.headers()['last-event-id']).toMatch(/^\d+$/);
    await page.locator(`${PANEL}:not([hidden])`).waitFor();
    await turnOver(page);
    expect(await answers(page)).toEqual([ANSWER]);
    // the first text after the reload is what was shown before it (restored), then it only grew
    expect((await shownTexts(page))[0]).toMatch(/^word1 word2 word3 word4 word5 word6 word7 word8/);
    await expectGrowingTexts(page);
    await expectOneUserMessage(page);
    expect(await page.evaluate(() => sessionStorage.getItem('klebb.chat.turn'))).toBeNull();
    const conv = (await s.api(`/api/conversations/${conversationId}`)).body.conversation;
    expect(conv.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  });

  it('reloads the conversation on 204 and puts back a message that never reached the server', async () => {
    const { s } = await chat.boot();
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await page.route('**/api/chat', (route) =>
      route.request().method() === 'POST' ? route.abort('failed') : route.continue(),
    );
    const gone = page.waitForResponse((r) => r.url().includes('/api/chat/turn/') && r.status() === 204);
    await sendText(page, 'Log 72.4 kg for today');
    await gone;
    await eventually(() => page.locator('#chat-input').inputValue()).toBe('Log 72.4 kg for today');
    await page.locator(`${PANEL} .chat-notice`, { hasText: 'did not reach' }).waitFor();
    expect(await page.locator(`${PANEL} .chat-msg[data-role="user"]`).count()).toBe(0);
    await turnOver(page);
  });
});
