// Qwen3.5 now and then writes `\n` as two characters, a backslash and an n, between the values of
// its arguments, where JSON allows only whitespace:
// {"command": "view", "path": "/workspace/django/query.py", "view_range": \n[2142, 2250]\n\n}
// (https://github.com/OpenHands/software-agent-sdk/issues/2488). Read strictly, the call was
// refused as invalid JSON and the model was told its arguments were wrong; outside a string such
// an escape can only mean the whitespace it spells.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const STRAY = String.raw`{"id": "water", "range": \n[1, 7]\n\n}`;

/** A whole reply calling read_rows with `args` as the arguments text. */
const calling = (args: string) =>
  completionStep({
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_rows', arguments: args } }],
    },
    finish_reason: 'tool_calls',
  });

it('whole: the call runs with the arguments meant, and goes back as valid JSON', async () => {
  gw.script(calling(STRAY), { kind: 'reply', text: 'Seven days read.' });
  const { result, dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(dispatched).toEqual([{ name: 'read_rows', args: { id: 'water', range: [1, 7] } }]);
  expect(result.payload?.reply).toBe('Seven days read.');
  const assistant = (gw.requests[1].body.messages as Array<Record<string, unknown>>).find(
    (m) => m.role === 'assistant',
  ) as { tool_calls: Array<{ function: { arguments: string } }> };
  expect(assistant.tool_calls[0].function.arguments).toBe('{"id":"water","range":[1,7]}');
});

it('streamed in pieces (a backslash and its letter in different pieces): the call runs', async () => {
  const pieces = STRAY.match(/[\s\S]{1,5}/g) ?? [];
  gw.script(
    sseStep(
      choiceEvent({
        delta: {
          tool_calls: [
            { index: 0, id: 'call_1', type: 'function', function: { name: 'read_rows', arguments: '' } },
          ],
        },
      }),
      ...pieces.map((p) =>
        choiceEvent({ delta: { tool_calls: [{ index: 0, function: { arguments: p } }] } }),
      ),
      choiceEvent({ delta: {}, finish_reason: 'tool_calls' }),
      DONE,
    ),
    { kind: 'reply', text: 'ok' },
  );
  const { dispatched } = await agentTurn(gw, { stream: true, tools: ['read_rows'] });
  expect(dispatched).toEqual([{ name: 'read_rows', args: { id: 'water', range: [1, 7] } }]);
});

it('an escape inside a string is read as JSON reads it', async () => {
  gw.script(calling(String.raw`{"id": "water", "note": "one\ntwo"}`), { kind: 'reply', text: 'ok' });
  const { dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(dispatched).toEqual([{ name: 'read_rows', args: { id: 'water', note: 'one\ntwo' } }]);
});

it('another stray backslash still makes the arguments invalid', async () => {
  gw.script(calling(String.raw`{"id": "water", "range": \x[1, 7]}`), { kind: 'reply', text: 'ok' });
  const { dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(dispatched).toHaveLength(1);
  expect(dispatched[0].argumentsError).toBeDefined();
});
