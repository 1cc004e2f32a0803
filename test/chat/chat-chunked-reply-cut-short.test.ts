// A 200 JSON reply sent chunked (no Content-Length) that stops inside its JSON: a proxy whose
// upstream connection died mid-reply (nginx, LiteLLM, an edge in front of the model) still ends
// its own chunked body cleanly with the last empty chunk, so the body "ends" without error. It was
// read as a reply that could not be read (500, "Please try again", never asked again); it is a
// reply cut off on the way, asked again while nothing was shown, and said to be cut off when the
// second answer is cut off too. A body that is whole but not JSON is still unreadable.
import { afterEach, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from '../gateway/support.js';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { postSse } from '../helpers/sse-client.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000', CHAT_TURN_DEADLINE_MS: '8000' });
afterEach(() => chat.closeAll());

const ANSWER = 'You drank 1.5 l of water today, 500 ml more than yesterday.';
const whole = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'test-model',
  choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9000, completion_tokens: 20, total_tokens: 9020 },
});

/** The reply's first `bytes` characters in two chunked writes, then the body ends cleanly. */
const cutAt = (bytes: number): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [whole.slice(0, 30), whole.slice(30, bytes)],
  end: 'end',
});
const wholeReply: ScriptStep = {
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [whole],
};
const ask = { messages: [{ role: 'user', content: 'How much water today?' }] };

for (const at of [40, 120, whole.length - 2]) {
  it(`a chunked reply cut at byte ${at} (body ended cleanly): asked again, the answer shown`, async () => {
    const { gw, s } = await chat.boot();
    gw.script(cutAt(at), wholeReply);
    const r = await s.api('/api/chat', { json: ask });
    expect(r.status).toBe(200);
    expect(r.body.reply).toBe(ANSWER);
    expect(gw.requests).toHaveLength(2);
  });
}

it('streamed, cut twice: said to be cut off, not "could not be read"', async () => {
  const { gw, s } = await chat.boot();
  gw.script(cutAt(120), cutAt(120), cutAt(120), cutAt(120));
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
  const error = r.events.find((e) => e.event === 'error');
  expect(error?.data.error).toBe("The model's reply was cut off before it was complete. Please try again.");
  expect(r.events.at(-1)?.event).toBe('done');
});

it('the gateway names it a cut-off reply worth asking again', async () => {
  const { gw } = await chat.boot();
  gw.script(cutAt(120));
  const err = await gatewayFailure(
    callGateway(configFor(gw.url), { messages: userSays('water?'), stream: false }),
  );
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'truncated', retryable: true });
  expect(failureCopy(err).error).toMatch(/cut off/);
});

it('a whole chunked body that is not JSON is still unreadable, not asked again (guards what worked)', async () => {
  const { gw } = await chat.boot();
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'application/json' },
    chunks: ['{"id": "x", oops}'],
  });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2 }), { messages: userSays('water?'), stream: false }),
  );
  expect(err).toMatchObject({ kind: 'parse', retryable: false });
  expect(gw.requests).toHaveLength(1);
});
