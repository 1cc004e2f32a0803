// Relays written in PHP send whatever they echo with PHP's default `Content-Type: text/html`
// unless told otherwise, and so do frameworks left at their default: a whole chat completion, or
// a JSON error, labelled as a web page. The label decided: the answer was thrown away as "The chat
// endpoint answered with a web page instead of the model's API", and an error lost its message
// (an unknown model read as "could not answer this time (gateway HTTP 400)"). The body decides
// now; a real HTML page is still a web page.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { postSse } from '../helpers/sse-client.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000', CHAT_TURN_DEADLINE_MS: '8000' });
afterEach(() => chat.closeAll());

const ANSWER = 'You drank <b>1.5 l</b> of water today.';
const ask = { messages: [{ role: 'user', content: 'How much water today?' }] };
const HTML = 'text/html; charset=UTF-8';

const completion: ScriptStep = {
  kind: 'bytes',
  headers: { 'Content-Type': HTML },
  chunks: [
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
    }),
  ],
};

it('a chat completion labelled text/html: the answer', async () => {
  const { gw, s } = await chat.boot();
  gw.script(completion);
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(200);
  expect(r.body.reply).toBe(ANSWER);
});

it('the same to a streamed request: the answer, streamed', async () => {
  const { gw, s } = await chat.boot();
  gw.script(completion);
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
  expect(r.events.find((e) => e.event === 'reply')?.data.reply).toBe(ANSWER);
});

it('a JSON error labelled text/html keeps its message: the unknown model is named', async () => {
  const { gw, s } = await chat.boot();
  gw.script({
    kind: 'bytes',
    status: 400,
    headers: { 'Content-Type': HTML },
    chunks: [
      '{"error":{"message":"Invalid model name: test-model","type":"invalid_request_error","code":"model_not_found"}}',
    ],
  });
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.error).toBe(
    "The chat endpoint does not know this model or address (gateway HTTP 400: Invalid model name: test-model). Check CHAT_MODEL and CHAT_ENDPOINT_URL in the server's settings.",
  );
});

it('a real web page with a 200 is still a web page (guards what worked)', async () => {
  const { gw, s } = await chat.boot();
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': HTML },
    chunks: [
      '<!DOCTYPE html><html><head><title>Sign in to Wi-Fi</title></head><body>Accept the terms</body></html>',
    ],
  });
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.error).toMatch(/answered with a web page instead of the model's API/);
});
