// Relays written in Go (one-api and its forks) serialise their zero-valued error struct beside
// every successful reply and chunk: `"error": {"message": "", "type": "", "param": "", "code":
// null}`, or `"error": {}` / `"error": ""`. Read as an in-band error, every good answer failed as
// "The model could not answer this time (provider error: unknown)". A placeholder that says
// nothing is no error; an error that says something still fails the turn.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { postSse } from '../helpers/sse-client.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000', CHAT_TURN_DEADLINE_MS: '8000' });
afterEach(() => chat.closeAll());

const ANSWER = 'You drank 1.5 l of water today.';
const ask = { messages: [{ role: 'user', content: 'How much water today?' }] };
const GO_ZERO = { message: '', type: '', param: '', code: null };

const placeholders: Array<[string, unknown]> = [
  ['a zero-valued error struct', GO_ZERO],
  ['an empty object', {}],
  ['empty text', ''],
  ['a zero code and empty message', { code: 0, message: '' }],
];

for (const [what, error] of placeholders) {
  it(`a reply beside ${what} under "error": the answer`, async () => {
    const { gw, s } = await chat.boot();
    gw.script({
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
          error,
        }),
      ],
    });
    const r = await s.api('/api/chat', { json: ask });
    expect(r.status).toBe(200);
    expect(r.body.reply).toBe(ANSWER);
  });
}

it('a stream whose every chunk carries the zero-valued error struct: the answer, streamed', async () => {
  const { gw, s } = await chat.boot();
  const chunk = (content: string, finish: string | null) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: finish }], error: GO_ZERO })}\n\n`;
  const step: ScriptStep = {
    kind: 'bytes',
    headers: { 'Content-Type': 'text/event-stream' },
    chunks: [chunk('You drank 1.5 l ', null), chunk('of water today.', 'stop'), 'data: [DONE]\n\n'],
  };
  gw.script(step);
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask });
  expect(r.events.find((e) => e.event === 'reply')?.data.reply).toBe(ANSWER);
  expect(r.events.some((e) => e.event === 'error')).toBe(false);
});

it('an error that says something beside the choices still fails the turn (guards what worked)', async () => {
  const { gw, s } = await chat.boot();
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'application/json' },
    chunks: [
      JSON.stringify({
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'stop' }],
        error: {
          message: 'The request contains sensitive content.',
          type: 'content_check_error',
          code: 'content_check_rejected',
        },
      }),
    ],
  });
  const r = await s.api('/api/chat', { json: ask });
  expect(r.body.error).toMatch(/sensitive content/);
});
