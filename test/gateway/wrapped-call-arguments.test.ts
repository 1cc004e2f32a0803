// Ollama serving Qwen 2.5 and 3 now and then hands over a call whose arguments hold the call
// once more, {"name": "append_row", "arguments": {...}}, and vLLM's DeepSeek tool parser has sent
// {"arguments": {...}} alone. The tool's schema knows none of those keys, so every such call was
// refused as invalid arguments and the model, told so, often wrapped it the same way again. Read
// against the tool's own parameters, the inner object is what was meant: the call runs with it,
// and it goes back in the history as the call that ran.
import { expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const appendRow: ToolDefinition = {
  type: 'function',
  function: {
    name: 'append_row',
    parameters: {
      type: 'object',
      properties: { id: { type: 'string' }, row: { type: 'object' } },
      required: ['id', 'row'],
    },
  },
};
const MEANT = { id: 'water', row: { ml: 250 } };

const callStep = (args: string) =>
  completionStep({
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'append_row', arguments: args } }],
    },
    finish_reason: 'tool_calls',
  });

for (const [what, args] of [
  ['name and arguments', { name: 'append_row', arguments: MEANT }],
  ['a namespaced name and parameters', { name: 'functions.append_row', parameters: MEANT }],
  ['arguments alone', { arguments: MEANT }],
  ['arguments as JSON text', { name: 'append_row', arguments: JSON.stringify(MEANT) }],
] as const) {
  it(`a call restating itself in its arguments (${what}) runs with the inner arguments`, async () => {
    gw.script(callStep(JSON.stringify(args)), { kind: 'reply', text: 'Logged.' });
    const turn = await agentTurn(gw, { stream: false, toolDefinitions: [appendRow] });
    expect(turn.dispatched).toEqual([{ name: 'append_row', args: MEANT }]);
    const assistant = gw.requests[1].body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual(MEANT);
  });
}

it('streamed, the wrapped arguments are read the same way', async () => {
  const text = JSON.stringify({ name: 'append_row', arguments: MEANT });
  gw.script(
    sseStep(
      choiceEvent({
        delta: {
          role: 'assistant',
          tool_calls: [
            { index: 0, id: 'c1', type: 'function', function: { name: 'append_row', arguments: '' } },
          ],
        },
      }),
      choiceEvent({ delta: { tool_calls: [{ index: 0, function: { arguments: text.slice(0, 20) } }] } }),
      choiceEvent({ delta: { tool_calls: [{ index: 0, function: { arguments: text.slice(20) } }] } }),
      choiceEvent({ delta: {}, finish_reason: 'tool_calls' }),
      DONE,
    ),
    { kind: 'reply', text: 'Logged.' },
  );
  const turn = await agentTurn(gw, { stream: true, toolDefinitions: [appendRow] });
  expect(turn.dispatched).toEqual([{ name: 'append_row', args: MEANT }]);
});

for (const [what, args] of [
  ['a wrapper naming another tool', { name: 'remove_row', arguments: MEANT }],
  ['inner keys the tool does not take', { arguments: { id: 'water', amount: 250 } }],
  ['the real arguments beside a wrapper', { id: 'water', arguments: MEANT }],
] as const) {
  it(`arguments that are no wrapper (${what}) go to the tool as they came`, async () => {
    gw.script(callStep(JSON.stringify(args)), { kind: 'reply', text: 'Done.' });
    const turn = await agentTurn(gw, { stream: false, toolDefinitions: [appendRow] });
    expect(turn.dispatched).toEqual([{ name: 'append_row', args }]);
  });
}

it('a tool that has a parameter named arguments gets it as sent', async () => {
  const runScript: ToolDefinition = {
    type: 'function',
    function: {
      name: 'run_script',
      parameters: { type: 'object', properties: { arguments: { type: 'object' }, path: { type: 'string' } } },
    },
  };
  const args = { arguments: { path: 'x' } };
  gw.script(
    completionStep({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c', type: 'function', function: { name: 'run_script', arguments: JSON.stringify(args) } },
        ],
      },
      finish_reason: 'tool_calls',
    }),
    { kind: 'reply', text: 'Ran.' },
  );
  const turn = await agentTurn(gw, { stream: false, toolDefinitions: [runScript] });
  expect(turn.dispatched).toEqual([{ name: 'run_script', args }]);
});
