// finish_reason "stop" on a streamed turn that contains tool_calls (Gemini).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('a named tool call makes a tool-call turn whatever finish_reason says', async () => {
  gw.script({ kind: 'raw', caseId: 'G04' });
  const result = await callGateway(configFor(gw.url), {
    messages: userSays('weather in Lima'),
    stream: true,
  });
  expect(result.rawFinishReason).toBe('stop');
  expect(result.finishReason).toBe('tool_calls');
  expect(result.toolCalls).toEqual([
    {
      id: expect.stringMatching(/^[A-Za-z0-9]{9}$/),
      providerId: 'call_PLACEHOLDER04',
      name: 'get_weather',
      arguments: '{"location":"Lima, Peru"}',
      parsedArguments: { location: 'Lima, Peru' },
    },
  ]);
});

it('finish_reason overrides only for failures: length with a tool call is not executed', async () => {
  gw.script(
    { kind: 'reply', toolCalls: [{ id: 'c', name: 'f', arguments: '{"a":' }], finishReason: 'length' },
    { kind: 'reply', text: 'Partial', finishReason: 'content_filter' },
    { kind: 'reply', text: 'A long answer', finishReason: 'length' },
  );
  const cfg = configFor(gw.url);
  const cut = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
  expect(cut).toMatchObject({ kind: 'failed', reason: 'length' });
  const filtered = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
  expect(filtered).toMatchObject({ kind: 'failed', reason: 'content_filter', partialText: 'Partial' });
  const long = await callGateway(cfg, { messages: userSays('x'), stream: true });
  expect(long).toMatchObject({ text: 'A long answer', finishReason: 'length', toolCalls: [] });
});
