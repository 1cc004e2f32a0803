// Models that answer a tool's result with nothing at all (Gemini, after a function response, often
// ends the turn with empty content and finish_reason "stop"; others send only stop tokens). When
// the tools had already changed data, the person read only "No answer came back from the model
// this time. Please try again": nothing said the water was logged, and sending the message again
// logged it a second time, since an answered turn's writes are not remembered. Now such a turn
// says what it changed and is guarded like any turn that ended badly after writing.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { postSse } from '../helpers/sse-client.js';
import { waterCard } from '../helpers/water-card.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000' });
afterEach(() => chat.closeAll());

const card = waterCard();
const row = { date: '2026-05-01', ml: 250 };
const appendCall = (id: string): ScriptStep => ({
  kind: 'reply',
  toolCalls: [{ id, name: 'append_row', arguments: { id: 'water', value: row } }],
});
/** Gemini's answer to the tool result: no text, a normal stop. */
const nothing: ScriptStep = { kind: 'reply', text: '', finishReason: 'stop' };
const ask = { messages: [{ role: 'user', content: 'log 250 ml of water' }] };

it('an empty answer after a write: the reply says what changed, and resending does not write twice', async () => {
  const { gw, s } = await chat.boot();
  await s.api('/api/manifests', { json: card });
  gw.script(appendCall('a1'), nothing, nothing); // an empty answer is asked for once more
  const first = await s.api('/api/chat', { json: ask });
  expect(first.status).toBe(200);
  expect(first.body.reply).toMatch(/^No answer came back from the model this time\./);
  expect(first.body.reply).toMatch(
    /Before that, I had already added a row to "water"; those changes are saved\./,
  );
  expect(first.body.reply).not.toMatch(/Please try again/);
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([row]);

  gw.script(appendCall('a2'), { kind: 'reply', text: 'Logged 250 ml.' });
  const again = await s.api('/api/chat', { json: ask });
  expect(again.body.reply).toBe('Logged 250 ml.');
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([row]);
});

it('streamed, the empty answer that arrives as an empty stream says the same', async () => {
  const { gw, s } = await chat.boot();
  await s.api('/api/manifests', { json: card });
  gw.script(appendCall('b1'), nothing, nothing);
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
  const reply = r.events.find((e) => e.event === 'reply')?.data as { reply?: string } | undefined;
  expect(reply?.reply).toMatch(/added a row to "water"; those changes are saved/);
  gw.script(appendCall('b2'), { kind: 'reply', text: 'Logged.' });
  await s.api('/api/chat', { json: ask });
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([row]);
});

it('an empty answer with no write before it is still the plain "no answer" reply', async () => {
  const { gw, s } = await chat.boot();
  gw.script(nothing, nothing);
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(200);
  expect(r.body.reply).toMatch(/^No answer came back from the model this time\. Please try again/);
});
