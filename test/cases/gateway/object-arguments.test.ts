// tool_call arguments arrive as a JSON object instead of a string (llama-server).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../../src/chat/gateway/history.js';
import type { ChatMessage } from '../../../src/chat/gateway/types.js';
import { configFor, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('accepts object arguments, stores one canonical string and replays it as a string', async () => {
  gw.script({ kind: 'raw', caseId: 'G01' }, { kind: 'reply', text: 'It is mild in Paris.' });
  const cfg = configFor(gw.url);
  const first = await callGateway(cfg, { messages: userSays('weather?') });

  expect(first.streamed).toBe(false);
  expect(first.finishReason).toBe('tool_calls');
  expect(first.toolCalls).toEqual([
    {
      id: expect.stringMatching(/^[A-Za-z0-9]{9}$/),
      providerId: 'call_PLACEHOLDER01',
      name: 'get_weather',
      arguments: '{"city":"Paris","unit":"celsius"}',
      parsedArguments: { city: 'Paris', unit: 'celsius' },
    },
  ]);
  expect(first.usage).toMatchObject({ promptTokens: 120, completionTokens: 22, totalTokens: 142 });

  const history: ChatMessage[] = [
    ...userSays('weather?'),
    assistantMessageFor(first),
    toolResultMessage(first.toolCalls[0], '{"temp":12}'),
  ];
  const second = await callGateway(cfg, { messages: history });
  expect(second.text).toBe('It is mild in Paris.');

  const sent = gw.requests[1].body.messages;
  expect(sent[1].tool_calls[0].function.arguments).toBe('{"city":"Paris","unit":"celsius"}');
  expect(sent[2]).toEqual({
    role: 'tool',
    tool_call_id: first.toolCalls[0].id,
    name: 'get_weather',
    content: '{"temp":12}',
  });
});

it('an object handed back in history is sent as a string; a string is never double-encoded', async () => {
  gw.script({ kind: 'reply', text: 'ok' });
  await callGateway(configFor(gw.url), {
    messages: [
      ...userSays('go'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'f', arguments: { x: 1 } } },
          { id: 'b', type: 'function', function: { name: 'g', arguments: '{"y":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '2' },
    ],
  });
  const calls = gw.requests[0].body.messages[1].tool_calls;
  expect(calls[0].function.arguments).toBe('{"x":1}');
  expect(calls[1].function.arguments).toBe('{"y":2}');
});
