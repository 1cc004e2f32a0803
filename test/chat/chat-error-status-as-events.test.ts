// A server asked to stream that refuses the request after choosing its stream framing (SGLang and
// vLLM validating inside their stream generator, relays answering a streamed request in kind)
// sends its error status with the JSON error as an event: `data: {"error": {...}}`, often
// followed by `data: [DONE]`. Read as one JSON document the body is not JSON, so the person was
// shown the raw event text ("data: {\"error\":{\"message\":...") inside the copy. The error is
// read out of the event and worded like the same error sent as plain JSON.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { postSse } from '../helpers/sse-client.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000', CHAT_TURN_DEADLINE_MS: '8000' });
afterEach(() => chat.closeAll());

const ask = { messages: [{ role: 'user', content: 'How much water today?' }] };

const framed = (status: number, event: object, lineEnd = '\n'): ScriptStep => ({
  kind: 'bytes',
  status,
  headers: { 'Content-Type': 'text/event-stream; charset=utf-8' },
  chunks: [`data: ${JSON.stringify(event)}${lineEnd}${lineEnd}data: [DONE]${lineEnd}${lineEnd}`],
});

const tooLong = {
  error: {
    message:
      "This model's maximum context length is 4096 tokens. However, your messages resulted in 9000 tokens.",
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
  },
};

for (const lineEnd of ['\n', '\r\n']) {
  it(`a 400 whose body is an error event (${JSON.stringify(lineEnd)}): worded from its message, no raw event text`, async () => {
    const { gw, s } = await chat.boot();
    gw.script(framed(400, tooLong, lineEnd));
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
    const error = r.events.find((e) => e.event === 'error')?.data.error as string;
    expect(error).toContain(
      "(gateway HTTP 400: This model's maximum context length is 4096 tokens. However, your messages resulted in 9000 tokens.)",
    );
    expect(error).toMatch(/larger context/);
    expect(error).not.toMatch(/data:|\{/);
  });
}

it("vLLM's own error shape as an event with a 404: the unknown model is named, not shown as JSON", async () => {
  const { gw, s } = await chat.boot();
  gw.script(
    framed(404, {
      object: 'error',
      message: 'The model `test-model` does not exist.',
      type: 'NotFoundError',
      param: null,
      code: 404,
    }),
  );
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.error).toBe(
    "The chat endpoint does not know this model or address (gateway HTTP 404: The model `test-model` does not exist.). Check CHAT_MODEL and CHAT_ENDPOINT_URL in the server's settings.",
  );
});

it('a 500 whose body is an error event: unavailable, asked again, then answered (guards the retry)', async () => {
  const { gw, s } = await chat.boot();
  gw.script(
    framed(500, {
      error: { message: 'The server had an error while processing your request.', type: 'server_error' },
    }),
    {
      kind: 'reply',
      text: 'You drank 1.5 l today.',
    },
  );
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.reply).toBe('You drank 1.5 l today.');
  expect(gw.requests).toHaveLength(2);
});
