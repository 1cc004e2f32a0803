// A call to a tool that takes no parameters comes with its missing arguments spelled in more ways
// than "{}" or "": as the JSON text "null" (Cohere through OpenAI-compatible paths), as an empty
// list "[]" (or an actual empty array) from models and servers that serialise "nothing" as a list,
// as Python's "None". Each was refused as "arguments must be a JSON object", so a call such as
// get_recent_activity never ran. They all mean no arguments; a list with something in it is still
// refused.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { completionStep, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const callWith = (args: unknown) =>
  completionStep({
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_recent_activity', arguments: args } },
      ],
    },
    finish_reason: 'tool_calls',
  });

for (const [what, args] of [
  ['the text "null"', 'null'],
  ['the text "[]"', '[]'],
  ['an empty array', []],
  ['the text "None"', 'None'],
  ['"null" with spaces around it', ' null \n'],
] as const) {
  it(`no arguments written as ${what}: the call runs with {} and goes back as "{}"`, async () => {
    gw.script(callWith(args), { kind: 'reply', text: 'All quiet.' });
    const turn = await agentTurn(gw, { stream: false, tools: ['get_recent_activity'] });
    expect(turn.dispatched).toEqual([{ name: 'get_recent_activity', args: {} }]);
    const assistant = gw.requests[1].body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant.tool_calls[0].function.arguments).toBe('{}');
  });
}

it('a list with something in it is still refused: the call does not run with made-up arguments', async () => {
  gw.script(callWith('["water"]'), { kind: 'reply', text: 'Sorry.' });
  const turn = await agentTurn(gw, { stream: false, tools: ['get_recent_activity'] });
  expect(turn.dispatched).toHaveLength(1);
  expect(turn.dispatched[0].args).toBeUndefined();
  expect(turn.dispatched[0].argumentsError).toMatch(/must be a JSON object/);
});
