// Mistral's end-of-calls marker `[/TOOL_CALLS]` left in an answer with no list of calls before it
// (a server that took the calls out, or a model that wrote the marker alone: the leak traced in
// https://github.com/ai-dynamo/dynamo/pull/10725). It is markup, never words: the person does
// not see it, streamed or not, and a list of calls before it is still read as the calls.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import { configFor, recordHooks, userSays } from './support.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools: ToolDefinition[] = [
  { type: 'function', function: { name: 'read_rows', parameters: { type: 'object' } } },
];

it('an orphan [/TOOL_CALLS] at the end of an answer is not shown', async () => {
  gw.script(
    completionStep({
      message: { role: 'assistant', content: 'You slept 7 h.[/TOOL_CALLS]' },
      finish_reason: 'stop',
    }),
  );
  const whole = await callGateway(configFor(gw.url), { messages: userSays('sleep?'), stream: false });
  expect(whole.text).toBe('You slept 7 h.');

  const rec = recordHooks();
  gw.script(
    sseStep(
      ...['You slept', ' 7 h.[/TOOL', '_CALLS]'].map((t) => choiceEvent({ delta: { content: t } })),
      choiceEvent({ delta: {}, finish_reason: 'stop' }),
      DONE,
    ),
  );
  const streamed = await callGateway(
    configFor(gw.url),
    { messages: userSays('sleep?'), stream: true },
    rec.hooks,
  );
  expect(streamed.text).toBe('You slept 7 h.');
  expect(rec.tokens.join('')).toBe('You slept 7 h.');
});

it('a [TOOL_CALLS] list closed by the marker is still the call', async () => {
  gw.script(
    completionStep({
      message: {
        role: 'assistant',
        content: '[TOOL_CALLS][{"name": "read_rows", "arguments": {"id": "sleep"}}][/TOOL_CALLS]',
      },
      finish_reason: 'stop',
    }),
  );
  const r = await callGateway(configFor(gw.url), { messages: userSays('sleep?'), tools });
  expect(r.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([['read_rows', { id: 'sleep' }]]);
  expect(r.text).toBe('');
});
