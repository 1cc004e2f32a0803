// Models that write their calls in Python's literal syntax rather than JSON (Qwen3-Coder, Llama
// and LFM-style "pythonic" callers, servers that hand the model's text through unparsed):
// single-quoted strings, True / False / None, and a trailing comma before a closing bracket.
// Strict JSON refused them all, so the call never ran and the model was told its arguments were
// not valid JSON. Each has one JSON meaning, so the arguments are read as that; text that is not
// a whole value in either syntax is still refused, and valid JSON is read as before.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { agentTurn } from './agent-turn.js';
import { configFor, userSays } from './support.js';
import { choiceEvent, completionStep, DONE, functionTools, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const callStep = (args: string) =>
  completionStep({
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'append_row', arguments: args } }],
    },
    finish_reason: 'tool_calls',
  });

const argumentsOf = async (args: string) => {
  gw.script(callStep(args));
  const result = await callGateway(configFor(gw.url), {
    messages: userSays('log it'),
    tools: functionTools('append_row'),
    stream: false,
  });
  return result.toolCalls[0];
};

it("Python's literals through the real loop: the call runs with their JSON meaning", async () => {
  gw.script(
    callStep("{'id': 'water', 'value': {'ml': 250, 'cold': True, 'note': None}, 'tags': ['am', 'gym']}"),
    { kind: 'reply', text: 'Logged.' },
  );
  const turn = await agentTurn(gw, { stream: false, tools: ['append_row'] });
  expect(turn.dispatched).toEqual([
    {
      name: 'append_row',
      args: { id: 'water', value: { ml: 250, cold: true, note: null }, tags: ['am', 'gym'] },
    },
  ]);
  // what goes back to the provider is JSON
  const assistant = gw.requests[1].body.messages.find((m: { role: string }) => m.role === 'assistant');
  expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual(turn.dispatched[0].args);
});

it('a streamed call in that syntax, cut anywhere, runs the same', async () => {
  const whole = "{'id': 'sleep', 'value': {'hours': 7.5, 'nap': False}}";
  const pieces = [whole.slice(0, 7), whole.slice(7, 30), whole.slice(30)];
  gw.script(
    sseStep(
      choiceEvent({
        delta: {
          tool_calls: [
            { index: 0, id: 'c1', type: 'function', function: { name: 'append_row', arguments: '' } },
          ],
        },
      }),
      ...pieces.map((p) =>
        choiceEvent({ delta: { tool_calls: [{ index: 0, function: { arguments: p } }] } }),
      ),
      choiceEvent({ delta: {}, finish_reason: 'tool_calls' }),
      DONE,
    ),
    { kind: 'reply', text: 'Logged.' },
  );
  const turn = await agentTurn(gw, { stream: true, tools: ['append_row'] });
  expect(turn.dispatched).toEqual([
    { name: 'append_row', args: { id: 'sleep', value: { hours: 7.5, nap: false } } },
  ]);
});

for (const [what, args, meant] of [
  ['an apostrophe escaped inside a single-quoted string', "{'text': 'it\\'s done'}", { text: "it's done" }],
  ['double quotes inside a single-quoted string', `{'text': 'say "hi"'}`, { text: 'say "hi"' }],
  [
    'a single quote inside a double-quoted string',
    `{"text": "it's", 'ok': True}`,
    { text: "it's", ok: true },
  ],
  ['trailing commas in JSON', '{"id": "water", "tags": ["a", "b",],}', { id: 'water', tags: ['a', 'b'] }],
  ['a brace inside a single-quoted string', "{'text': 'a } b'}", { text: 'a } b' }],
  ['True written inside a string stays text', "{'text': 'True or None'}", { text: 'True or None' }],
] as const) {
  it(`${what}: read as meant`, async () => {
    const call = await argumentsOf(args);
    expect(call.argumentsError).toBeUndefined();
    expect(call.parsedArguments).toEqual(meant);
  });
}

it('valid JSON with apostrophes in its strings is read exactly as before', async () => {
  const call = await argumentsOf(`{"text": "the user's 'best' day", "n": 1}`);
  expect(call.parsedArguments).toEqual({ text: "the user's 'best' day", n: 1 });
});

it('cut off: never run; the reply fails as cut at the length limit', async () => {
  await expect(argumentsOf("{'id': 'water', 'value': ")).rejects.toMatchObject({ reason: 'length' });
});

for (const [what, args] of [
  ['an unknown bare word', "{'id': water}"],
  ['a Python set', "{'a', 'b'}"],
] as const) {
  it(`${what}: still refused, never run`, async () => {
    const call = await argumentsOf(args);
    expect(call.parsedArguments).toBeUndefined();
    expect(call.argumentsError).toMatch(/not valid JSON/);
  });
}
