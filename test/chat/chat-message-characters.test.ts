/**
 * A chat message's length limit counts characters as a person counts them, not UTF-16 units: a
 * message of emoji, or of CJK characters outside the Basic Multilingual Plane (two units each),
 * within the limit is answered, sent on whole; one character over is refused naming the field and
 * how long it is. Nothing is sent to the model for a refused message.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_CHAT_MESSAGE_CHARS } from '../../src/limits.js';
import { contentText, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';

let gw: ScriptedGateway;
let s: TestServer;
beforeAll(async () => {
  gw = await startScriptedGateway();
  s = await startServer({
    env: { CHAT_ENDPOINT_URL: gw.url, CHAT_API_KEY: 'sk-test', CHAT_MODEL: 'test-model' },
  });
});
afterAll(async () => {
  await s?.close();
  await gw?.close();
});

const lastUserText = (body: { messages: Array<{ role: string; content: unknown }> }) =>
  contentText(body.messages.filter((m) => m.role === 'user').at(-1)?.content);

it.each([
  ['emoji (two units each)', '😀'],
  ['CJK outside the BMP (two units each)', '𠀋'],
  ['a family emoji (eleven units)', '👨‍👩‍👧'],
])('a message of %s at the limit is answered and reaches the model whole', async (_, ch) => {
  const text = ch.repeat(MAX_CHAT_MESSAGE_CHARS);
  expect(text.length).toBeGreaterThan(MAX_CHAT_MESSAGE_CHARS);
  gw.script({ kind: 'reply', text: 'Noted.' });
  const before = gw.requests.length;
  const r = await s.api('/api/chat', { json: { messages: [{ role: 'user', content: text }] } });
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.body.reply).toBe('Noted.');
  expect(gw.requests.length).toBe(before + 1);
  expect(lastUserText(gw.requests[before].body)).toBe(text);
});

it('one character over the limit is refused naming the field and its length; nothing is sent', async () => {
  const before = gw.requests.length;
  const r = await s.api('/api/chat', {
    json: { messages: [{ role: 'user', content: '😀'.repeat(MAX_CHAT_MESSAGE_CHARS + 1) }] },
  });
  expect(r.status).toBe(400);
  expect(r.body.error).toBe(
    `messages[0].content is ${MAX_CHAT_MESSAGE_CHARS + 1} characters long; at most ${MAX_CHAT_MESSAGE_CHARS} characters`,
  );
  expect(r.body.details).toEqual([
    { path: 'body.messages[0].content', message: `must be at most ${MAX_CHAT_MESSAGE_CHARS} characters` },
  ]);
  expect(gw.requests.length).toBe(before);
});
