// A turn whose model endpoint fails after its tools changed data says so in plain words (in the
// reply and in the stored conversation), and sending the same message again does not apply the
// same writes a second time. A message answered normally is not guarded: asking again writes again.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { contentText } from '../helpers/scripted-gateway.js';
import { waterCard } from '../helpers/water-card.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000' });
afterEach(() => chat.closeAll());

const card = waterCard();
const row = { date: '2026-05-01', ml: 250 };
const appendCall = (id: string): ScriptStep => ({
  kind: 'reply',
  toolCalls: [{ id, name: 'append_row', arguments: { id: 'water', value: row } }],
});
const refusal: ScriptStep = {
  kind: 'error',
  status: 400,
  body: { error: { message: 'model is overloaded for this key' } },
};

it('fails after writing: the reply and the stored message say what changed; resending does not write twice', async () => {
  const { gw, s } = await chat.boot();
  expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
  const conv = (await s.api('/api/conversations', { json: {} })).body.conversation;
  const ask = { conversationId: conv.id, messages: [{ role: 'user', content: 'log 250 ml of water' }] };

  gw.script(appendCall('a1'), refusal);
  const first = await s.api('/api/chat', { json: ask });
  expect(first.status).toBe(200);
  expect(first.body.reply).toMatch(/could not answer/);
  expect(first.body.reply).toMatch(
    /Before that, I had already added a row to "water"; those changes are saved\./,
  );
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([row]);
  // the stored conversation keeps the same words
  const stored = (await s.api(`/api/conversations/${conv.id}`)).body.conversation;
  expect(stored.messages.at(-1)).toMatchObject({ role: 'assistant', content: first.body.reply });

  // the title side call after the first exchange goes out on its own: let it get its (unscripted)
  // answer first, or on a slow machine it takes the next turn's first scripted step
  for (let i = 0; i < 300 && gw.requests.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
  expect(gw.requests).toHaveLength(3);

  // the same message again: the model asks for the same write; it is answered, not applied again
  gw.script(appendCall('a2'), { kind: 'reply', text: 'Logged 250 ml.' });
  const again = await s.api('/api/chat', { json: ask });
  expect(again.body.reply).toBe('Logged 250 ml.');
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([row]);
  // (a conversation's title side call also reaches the gateway: pick the requests carrying tool replies)
  const toolReplies = gw.requests.map((q) => q.body?.messages?.at(-1)).filter((m) => m?.role === 'tool');
  expect(toolReplies).toHaveLength(2);
  expect(JSON.parse(contentText(toolReplies[1].content))).toEqual(
    JSON.parse(contentText(toolReplies[0].content)),
  );
});

it('without a conversation too: the failure is a 200 reply listing the change, and the resent transcript does not repeat it', async () => {
  const { gw, s } = await chat.boot();
  await s.api('/api/manifests', { json: card });
  const ask = { messages: [{ role: 'user', content: 'log 250 ml of water' }] };
  gw.script(appendCall('b1'), refusal);
  const first = await s.api('/api/chat', { json: ask });
  expect(first.status).toBe(200);
  expect(first.body.reply).toMatch(/added a row to "water"/);
  gw.script(appendCall('b2'), { kind: 'reply', text: 'Done.' });
  await s.api('/api/chat', {
    json: { messages: [...ask.messages, { role: 'assistant', content: first.body.reply }, ...ask.messages] },
  });
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([row]);
});

it('a message answered normally is not guarded: asking the same again writes again', async () => {
  const { gw, s } = await chat.boot();
  await s.api('/api/manifests', { json: card });
  const ask = { messages: [{ role: 'user', content: 'log 250 ml of water' }] };
  gw.script(appendCall('c1'), { kind: 'reply', text: 'Logged.' }, appendCall('c2'), {
    kind: 'reply',
    text: 'Logged again.',
  });
  await s.api('/api/chat', { json: ask });
  await s.api('/api/chat', { json: ask });
  expect((await s.api('/api/manifests/water/data')).body.data).toEqual([row, row]);
});

it('a failure before any write stays an error, with nothing to list', async () => {
  const { gw, s } = await chat.boot();
  gw.script(refusal);
  const r = await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hi' }] } });
  expect(r.status).toBe(502);
  expect(r.body.error).not.toMatch(/Before that/);
});
