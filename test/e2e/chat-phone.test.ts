/**
 * The chat panel on a 390 px phone and on a desktop, in Debian's Chromium:
 * - on a phone the panel is a full-height sheet over everything, with its composer at the bottom;
 *   nothing scrolls sideways, even with long words, long code lines and wide tables in a reply;
 *   every button and field is at least 44 px; when the on-screen keyboard shrinks the visual
 *   viewport, the sheet (and its composer) shrink with it;
 * - voice: the microphone button is there exactly when the browser offers speech recognition; a
 *   dictated message is sent with `voiceMode: true` and the reply's `speak` text is read aloud;
 * - screenshots (test/e2e/__screenshots__/chat-*.png) of a conversation, a streaming answer, the
 *   drawer, the dark theme, the not-configured state and the desktop panel.
 * Headless Chromium has no on-screen keyboard and no microphone: the keyboard test sets
 * `visualViewport.height` as a keyboard would, and the voice test gives the page a recogniser that
 * "hears" a sentence and a speechSynthesis that records what it is asked to say.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { DESKTOP, PHONE, screenshot, scrollsSideways } from './browser.js';
import {
  answers,
  chatBrowser,
  eventually,
  liveText,
  openPanel,
  PANEL,
  sendText,
  turnOver,
} from './chat-support.js';

const browser = chatBrowser();
const chat = chatServers();
afterEach(() => chat.closeAll());

const REPLY = [
  'Last week you slept **7 h 12 min** a night on average, a little more than the week before.',
  '',
  '- Best night: **Saturday**, 8 h 05 min',
  '- Shortest: **Wednesday**, 5 h 50 min',
  '',
  '| Night | Hours | Wake-ups |',
  '| --- | --- | --- |',
  '| Mon | 7.1 | 2 |',
  '| Tue | 6.8 | 1 |',
  '',
  'Want a reminder to go to bed by 23:00 on weeknights?',
].join('\n');

/** A stored conversation shown in the panel, as after some use. */
async function withConversation(s: TestServer): Promise<string> {
  const r = await s.api('/api/conversations', {
    json: {
      title: 'Sleep this week',
      messages: [
        { role: 'user', content: 'How did I sleep last week?' },
        { role: 'assistant', content: REPLY },
      ],
    },
  });
  await s.api('/api/conversations', {
    json: { title: 'Vitamin D reminder', messages: [{ role: 'user', content: 'Remind me about vitamin D' }] },
  });
  await s.api('/api/conversations', {
    json: { title: 'Blood pressure log', messages: [{ role: 'user', content: 'Log 128/84' }] },
  });
  return r.body.conversation.id;
}

/** Opens the panel on `id` (the conversation the browser remembers). */
async function showConversation(page: import('playwright-core').Page, id: string): Promise<void> {
  await page.evaluate((cid) => localStorage.setItem('klebb.chat.conversation', cid), id);
  await openPanel(page);
  await eventually(() => answers(page)).toHaveLength(1);
}

/** Visible buttons, inputs and links of the panel smaller than 44 px either way. */
function smallTargets(page: import('playwright-core').Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        '[data-chat-panel] :is(button, input, textarea, summary, select)',
      ),
    ]
      .filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden')
      .filter((el) => !(el instanceof HTMLInputElement && el.type === 'radio'))
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.width < 44 || r.height < 44))
      .map(
        ({ el, r }) =>
          `${el.tagName.toLowerCase()}.${el.className} "${el.getAttribute('aria-label') ?? el.textContent}" ${Math.round(r.width)}x${Math.round(r.height)}`,
      ),
  );
}

describe('the chat panel on a phone', { timeout: 120_000 }, () => {
  it('is a full-height sheet that fits 390 px, with 44 px targets, and follows the keyboard', async () => {
    const { gw, s } = await chat.boot();
    const id = await withConversation(s);
    const { page } = await browser.open(`${s.url}/`, PHONE);
    await showConversation(page, id);
    const panel = await page.locator(PANEL).boundingBox();
    expect(panel).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    const composer = await page.locator(`${PANEL} .chat-composer`).boundingBox();
    expect(composer && Math.round(composer.y + composer.height)).toBe(PHONE.height);
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 'chat-phone-conversation');

    // a reply with a long word, a long code line and a wide table: still no sideways scroll
    gw.script(
      {
        kind: 'reply',
        text: `${'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(3)}\n\n\`\`\`\n${'const x = 1; '.repeat(30)}\n\`\`\`\n\n| a | b | c | d | e | f | g | h |\n|---|---|---|---|---|---|---|---|\n| ${'wide cell '.repeat(4)} | 2 | 3 | 4 | 5 | 6 | 7 | 8 |`,
      },
      { kind: 'reply', text: 'unused title' },
    );
    await sendText(page, 'Show me something wide');
    await turnOver(page);
    await eventually(() => answers(page)).toHaveLength(2);
    expect(await scrollsSideways(page)).toBe(false);
    const sideways = await page.evaluate(() => {
      const el = document.querySelector('[data-chat-panel] .chat-scroll') as HTMLElement;
      return el.scrollWidth > el.clientWidth;
    });
    expect(sideways).toBe(false);

    // the drawer fits too
    await page.getByRole('button', { name: 'Conversations' }).click();
    await eventually(() => page.locator(`${PANEL} .chat-conv`).count()).toBe(3);
    expect(await smallTargets(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByRole('button', { name: 'Close the list' }).click();

    // the on-screen keyboard takes the lower 344 px: the sheet and its composer stay above it
    await page.evaluate(() => {
      const vv = window.visualViewport as VisualViewport;
      Object.defineProperty(vv, 'height', { configurable: true, get: () => 500 });
      vv.dispatchEvent(new Event('resize'));
    });
    await eventually(async () => (await page.locator(PANEL).boundingBox())?.height).toBe(500);
    const above = await page.locator(`${PANEL} .chat-composer`).boundingBox();
    expect(above && Math.round(above.y + above.height)).toBe(500);
    expect(await page.locator('#chat-input').isVisible()).toBe(true);
  });

  it('takes screenshots: streaming, drawer, dark theme, desktop', async () => {
    const { gw, s } = await chat.boot();
    const id = await withConversation(s);
    const { page } = await browser.open(`${s.url}/`, PHONE);
    await showConversation(page, id);
    gw.script({
      kind: 'stall',
      afterText: 'Looking at your sleep card: the average over the last ',
      chunkDelayMs: 20,
    });
    await sendText(page, 'And the week before?');
    await eventually(() => liveText(page)).toContain('the last');
    await screenshot(page, 'chat-phone-streaming');
    await page.locator(`${PANEL} button.chat-stop`).click();
    await turnOver(page);

    await page.getByRole('button', { name: 'Conversations' }).click();
    await eventually(() => page.locator(`${PANEL} .chat-conv`).count()).toBe(3);
    await page.locator('#chat-search').blur();
    await screenshot(page, 'chat-phone-drawer');
    await page.getByRole('button', { name: 'Close the list' }).click();

    await page.evaluate(() => localStorage.setItem('klebb.theme', 'dark'));
    await page.reload();
    await page.locator(`${PANEL}:not([hidden])`).waitFor();
    await eventually(() => answers(page)).toHaveLength(1);
    await screenshot(page, 'chat-phone-dark');
    await page.evaluate(() => localStorage.removeItem('klebb.theme'));

    const desk = await browser.open(`${s.url}/`, DESKTOP);
    await desk.page.locator('main article[data-card-id="welcome"]').waitFor();
    await showConversation(desk.page, id);
    const box = await desk.page.locator(PANEL).boundingBox();
    expect(box?.width).toBeLessThanOrEqual(420);
    expect(Math.round((box?.x ?? 0) + (box?.width ?? 0))).toBe(DESKTOP.width - 24);
    await screenshot(desk.page, 'chat-desktop');
  });

  it('shows the not-configured state on a phone', async () => {
    let s: TestServer | undefined;
    try {
      s = await startServer();
      const { page } = await browser.open(`${s.url}/`, PHONE);
      await page.locator('[data-chat-launcher]').click();
      await page.locator(`${PANEL} [data-chat-not-configured]`).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      await screenshot(page, 'chat-phone-not-configured');
    } finally {
      await s?.close();
    }
  });
});

describe('voice', { timeout: 90_000 }, () => {
  it('shows the microphone exactly where the browser offers speech recognition', async () => {
    const { s } = await chat.boot();
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    const offered = await page.evaluate(
      () => 'SpeechRecognition' in window || 'webkitSpeechRecognition' in window,
    );
    expect(await page.locator(`${PANEL} .chat-mic`).count()).toBe(offered ? 1 : 0);

    const bare = await browser.open(`${s.url}/`, DESKTOP, () => {
      Object.defineProperty(window, 'SpeechRecognition', { configurable: true, value: undefined });
      Object.defineProperty(window, 'webkitSpeechRecognition', { configurable: true, value: undefined });
    });
    await openPanel(bare.page);
    expect(await bare.page.locator(`${PANEL} .chat-mic`).count()).toBe(0);
  });

  it('sends a dictated message as a voice turn and reads the reply’s speak text aloud', async () => {
    const { gw, s } = await chat.boot();
    gw.script(
      {
        kind: 'reply',
        text: '{"speak":"About seven hours a night.","display":"About **seven hours** a night."}',
      },
      { kind: 'reply', text: 'Sleep' },
    );
    const { page } = await browser.open(`${s.url}/`, DESKTOP, () => {
      class HeardOnce {
        onresult: ((e: unknown) => void) | null = null;
        onerror: ((e: unknown) => void) | null = null;
        onend: (() => void) | null = null;
        lang = '';
        interimResults = false;
        continuous = false;
        start() {
          setTimeout(() => {
            const result = Object.assign([{ transcript: 'How did I sleep' }], { isFinal: true });
            this.onresult?.({ resultIndex: 0, results: [result] });
          }, 30);
        }
        stop() {
          setTimeout(() => this.onend?.(), 10);
        }
        abort() {
          this.stop();
        }
      }
      const spoken: string[] = [];
      Object.assign(window, {
        __spoken: spoken,
        SpeechRecognition: HeardOnce,
        webkitSpeechRecognition: HeardOnce,
      });
      Object.defineProperty(window, 'speechSynthesis', {
        configurable: true,
        value: { speak: (u: { text: string }) => spoken.push(u.text), cancel() {} },
      });
    });
    await openPanel(page);
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/chat') && r.method() === 'POST');
    await page.locator(`${PANEL} .chat-mic`).click();
    const body = JSON.parse((await posted).postData() ?? '{}');
    expect(body).toMatchObject({ voiceMode: true, messages: [{ role: 'user', content: 'How did I sleep' }] });
    await turnOver(page);
    expect(await answers(page)).toEqual(['About seven hours a night.']);
    expect(await page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken)).toEqual([
      'About seven hours a night.',
    ]);
    await page.getByRole('button', { name: 'Read aloud' }).click();
    expect(await page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken)).toHaveLength(2);
  });
});
