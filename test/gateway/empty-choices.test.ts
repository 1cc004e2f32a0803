// A reply whose `choices` is an empty list, with its usage: proxies pass on a turn the model left
// empty this way (a Gemini candidate without content, through an OpenAI-compatible path). It is a
// well-formed reply with nothing in it, told as "no answer came back", as a stream that carries no
// text is, not as a reply that could not be read.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EMPTY_REPLY_COPY, gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const usage = { prompt_tokens: 4241, completion_tokens: 0, total_tokens: 4241 };

it('a JSON reply with choices: [] and usage: no answer, not an unreadable reply', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'application/json' },
    chunks: [JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: 'm', choices: [], usage })],
  });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url), { messages: userSays('x'), stream: false }),
  );
  expect(err).toMatchObject({ kind: 'empty', reason: 'empty' });
  expect(failureCopy(err)).toEqual({ status: 200, error: EMPTY_REPLY_COPY });
});

// guards the streamed counterpart, which was already read so
it('a stream of only a choices: [] usage chunk: no answer', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'text/event-stream' },
    chunks: [
      `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [], usage })}\n\n`,
      'data: [DONE]\n\n',
    ],
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }));
  expect(err).toMatchObject({ kind: 'empty', reason: 'empty' });
});
