// usage delivered in a final chunk whose choices array is empty (Fireworks, OpenAI).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('reads usage from the trailing chunk with choices: [] and asks for it', async () => {
  gw.script({ kind: 'raw', caseId: 'G17' });
  const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true });
  expect(result.text).toBe('Hi there.');
  expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  expect(gw.requests[0].body.stream).toBe(true);
  expect(gw.requests[0].body.stream_options).toEqual({ include_usage: true });
});

it('usage on a chunk without any choices key; the last usage wins', async () => {
  const c = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
  gw.script({
    kind: 'bytes',
    chunks: [
      c({
        choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      }),
      c({ usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }),
      'data: [DONE]\n\n',
    ],
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true });
  expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
});

it('a stream without usage records usage as unknown (null), not zero', async () => {
  gw.script({ kind: 'reply', text: 'no usage here' });
  const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true });
  expect(result.usage).toBeNull();
});

it('a provider that rejects stream_options is retried once without it and remembered', async () => {
  gw.script(
    {
      kind: 'error',
      status: 400,
      body: { error: { message: 'Unrecognized request argument supplied: stream_options' } },
    },
    { kind: 'reply', text: 'fine' },
    { kind: 'reply', text: 'fine again' },
  );
  const cfg = configFor(gw.url);
  expect((await callGateway(cfg, { messages: userSays('x'), stream: true })).text).toBe('fine');
  await callGateway(cfg, { messages: userSays('x'), stream: true });
  expect(gw.requests.map((r) => r.body.stream_options)).toEqual([
    { include_usage: true },
    undefined,
    undefined,
  ]);
});
