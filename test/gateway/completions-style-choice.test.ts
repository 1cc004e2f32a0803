// A chat-completions reply whose choice is completions-style: `choices[0].text`, no `message`
// (some gateways answer so): its text is the answer, for a buffered request and for a streamed
// request answered with one JSON body. (The streamed form runs in the corpus tests.)
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const body = (choice: Record<string, unknown>) => ({
  kind: 'bytes' as const,
  headers: { 'Content-Type': 'application/json' },
  chunks: [
    JSON.stringify({
      id: 'cmpl-1',
      object: 'text_completion',
      model: 'm',
      choices: [{ index: 0, logprobs: null, ...choice }],
      usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
    }),
  ],
});

it('choices[0].text is the answer, buffered and for a streamed request', async () => {
  gw.script(
    body({ text: 'Walk after lunch.', finish_reason: 'stop' }),
    body({ text: 'Sleep by eleven.', finish_reason: 'length' }),
  );
  const cfg = configFor(gw.url);
  const buffered = await callGateway(cfg, { messages: userSays('tip?') });
  expect(buffered).toMatchObject({ text: 'Walk after lunch.', finishReason: 'stop', streamed: false });
  expect(buffered.usage).toMatchObject({ totalTokens: 13 });
  const rec = recordHooks();
  const streamed = await callGateway(cfg, { messages: userSays('tip?'), stream: true }, rec.hooks);
  expect(streamed).toMatchObject({ text: 'Sleep by eleven.', finishReason: 'length' });
  expect(rec.tokens).toEqual(['Sleep by eleven.']);
});

it('an empty text is an empty reply, not a success', async () => {
  gw.script(body({ text: '', finish_reason: 'stop' }));
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.kind).toBe('empty');
});
