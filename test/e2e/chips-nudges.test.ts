/**
 * The chat's starter chips and Today's nudges in Debian's Chromium, against the real server and
 * the scripted gateway, at 1280 and 390 px:
 * - a new conversation shows chips from the cards' starter prompts (general first steps on a new
 *   home); a chip sends its text as the message;
 * - three vital-sign cards bring a suggestion to show them together: **Ask the chat** opens the
 *   chat with that request in the composer; **Not now** dismisses it for good (after a reload too,
 *   and on the server);
 * - a card not logged for longer than it declares brings a nudge that goes once it is logged, and
 *   a dismissed nudge stays away after a reload;
 * - screenshots of the chips and the nudges.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { chatServers } from '../helpers/chat-server.js';
import type { TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import { DESKTOP, PHONE, screenshot, scrollsSideways, settled } from './browser.js';
import { chatBrowser, eventually, openPanel, PANEL } from './chat-support.js';

const TZ = 'Europe/Berlin';
const chat = chatServers();
// registered before the browser's hooks, so it runs after them: the pages close before their
// server does (a live feed losing its server would log a failed request)
afterEach(() => chat.closeAll());
const browser = chatBrowser({ timezoneId: TZ });

const add = async (s: TestServer, templateId: string) => {
  const r = await s.api('/api/settings/cards/from-template', { json: { templateId } });
  expect(r.status, r.text).toBe(201);
};
const chipTexts = (page: import('playwright-core').Page) =>
  page.locator(`${PANEL} [data-chat-chips] .chat-chip`).allTextContents();
const firstPrompt = (id: string) =>
  (readTemplate(id).meta.chat as { starterPrompts: { text: string }[] }).starterPrompts[0].text;

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`starter chips, at ${viewport.width} px`, { timeout: 90_000 }, () => {
    it('offers general first steps on a new home, then the cards’ own; a chip sends its text', async () => {
      const { gw, s } = await chat.boot();
      const fresh = await browser.open(`${s.url}/`, viewport);
      await openPanel(fresh.page);
      await eventually(async () => expect((await chipTexts(fresh.page)).length).toBeGreaterThan(0));
      expect(await chipTexts(fresh.page)).toContain('What can you help me track?');

      for (const id of ['weight', 'sleep-hours']) await add(s, id);
      const { page } = await browser.open(`${s.url}/`, viewport);
      await openPanel(page);
      await eventually(async () =>
        expect((await chipTexts(page)).sort()).toEqual(
          [firstPrompt('sleep-hours'), firstPrompt('weight')].sort(),
        ),
      );
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, `chat-chips-${name}`);

      gw.script(
        { kind: 'reply', text: 'You slept about seven hours a night.' },
        { kind: 'reply', text: 'Sleep' },
      );
      await page.locator(`${PANEL} .chat-chip`, { hasText: firstPrompt('sleep-hours') }).click();
      await page.locator(`${PANEL} .chat-msg-user`).waitFor();
      expect(await page.locator(`${PANEL} .chat-msg-user .chat-bubble`).textContent()).toBe(
        firstPrompt('sleep-hours'),
      );
      await eventually(async () =>
        expect(await page.locator(`${PANEL} .chat-msg[data-role="assistant"]`).count()).toBe(1),
      );
      // the chip's text reached the model as the person's message
      await eventually(() =>
        expect(gw.requests.map((r) => r.rawBody).join('\n')).toContain(firstPrompt('sleep-hours')),
      );
    });
  });

  describe(`Today's nudges, at ${viewport.width} px`, { timeout: 90_000 }, () => {
    it('suggests a combined view: Ask the chat fills the composer, Not now dismisses it for good', async () => {
      const { s } = await chat.boot();
      for (const id of ['bp', 'spo2', 'glucose']) await add(s, id);
      const { page } = await browser.open(`${s.url}/`, viewport);
      await settled(page);
      const nudge = page.locator('[data-nudge="combine"][data-category="vitals"]');
      await nudge.waitFor();
      expect(await nudge.textContent()).toMatch(
        /3 cards about vital signs: Blood pressure, Blood oxygen and Blood glucose/,
      );
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, `today-nudges-${name}`);

      await nudge.getByRole('button', { name: 'Ask the chat' }).click();
      await page.locator(`${PANEL}:not([hidden])`).waitFor();
      await eventually(async () =>
        expect(await page.locator('#chat-input').inputValue()).toBe(
          'Make me one card that shows Blood pressure, Blood oxygen and Blood glucose together.',
        ),
      );
      await page.getByRole('button', { name: 'Close chat' }).click();

      await nudge.getByRole('button', { name: /Dismiss the suggestion/ }).click();
      await eventually(async () => expect(await nudge.count()).toBe(0));
      await eventually(async () => expect((await s.api('/api/cc-suggestions')).body.suggestions).toEqual([]));
      await page.reload();
      await settled(page);
      await page.locator('main .card[data-card-id="bp"]').waitFor();
      expect(await page.locator('[data-nudge="combine"]').count()).toBe(0);
    });

    it('nudges about a card not logged for longer than it expects; logging or dismissing ends it', async () => {
      const { s } = await chat.boot();
      for (const id of ['weight', 'sleep-hours']) await add(s, id);
      const today = todayIn(TZ);
      for (const [id, row] of [
        ['weight', { kg: 80 }],
        ['sleep-hours', { hours: 7 }],
      ] as const) {
        for (const back of [9, 8, 7]) {
          const r = await s.api(`/api/manifests/${id}/rows`, {
            json: { value: { date: addDays(today, -back), ...row } },
          });
          expect(r.status).toBe(201);
        }
      }
      const { page } = await browser.open(`${s.url}/`, viewport);
      await settled(page);
      const weight = page.locator('[data-nudge="stale"][data-card-id="weight"]');
      const sleep = page.locator('[data-nudge="stale"][data-card-id="sleep-hours"]');
      await weight.waitFor();
      expect(await weight.textContent()).toMatch(
        /Body weight: nothing logged for 7 days \(you planned every 3 days\)/,
      );
      await sleep.waitFor();

      // logged (here by a script): the nudge goes without a reload
      const r = await s.api('/api/manifests/weight/rows', { json: { value: { date: today, kg: 79.6 } } });
      expect(r.status).toBe(201);
      await eventually(async () => expect(await weight.count()).toBe(0));

      await sleep.getByRole('button', { name: 'Dismiss the reminder about Sleep' }).click();
      await eventually(async () => expect(await sleep.count()).toBe(0));
      await page.reload();
      await settled(page);
      await page.locator('main .card[data-card-id="sleep-hours"]').waitFor();
      expect(await page.locator('[data-nudge="stale"]').count()).toBe(0);
      expect((await s.api('/api/hygiene')).body.findings).toEqual([]);
    });
  });
}
