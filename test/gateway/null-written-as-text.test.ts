// A proxy that serialises a missing field as text: LiteLLM sent every tool-call piece after the
// first with `"name": "null"` and `"id": ""` (BerriAI/litellm#12513), and Python code writes a
// missing value as "None". Such a name or id is no name or id: the piece continues the call under
// way, and no call to a tool named "null" is made (after a call whose arguments were already
// whole, the piece used to start one, run with `{}`).
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { type Body, choiceEvent, DONE, functionTools, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = functionTools('read_rows');
const call = (fields: Body) => choiceEvent({ delta: { tool_calls: [fields] }, finish_reason: null });
const sse = (...events: string[]) =>
  sseStep(...events, choiceEvent({ delta: {}, finish_reason: 'tool_calls' }), DONE);

async function callsOf(step: ScriptStep) {
  gw.script(step);
  const result = await callGateway(configFor(gw.url), { messages: userSays('water'), stream: true, tools });
  return result.toolCalls.map((c) => [c.name, c.parsedArguments]);
}

const first = (args: string, index?: number) =>
  call({
    index,
    id: 'chatcmpl-tool-947d',
    type: 'FUNCTION',
    function: { name: 'read_rows', arguments: args },
  });

for (const [spelled, id] of [
  ['"null"', ''],
  ['"None"', 'None'],
] as const) {
  it(`pieces named ${spelled} after a call whose arguments are whole: one call, none to a tool named so`, async () => {
    expect(
      await callsOf(
        sse(
          first('{"id": "water"}', 0),
          call({ index: 0, id, type: 'FUNCTION', function: { name: spelled.slice(1, -1), arguments: '' } }),
        ),
      ),
    ).toEqual([['read_rows', { id: 'water' }]]);
  });

  it(`pieces named ${spelled} carrying the rest of the arguments, without indexes: one call`, async () => {
    expect(
      await callsOf(
        sse(
          first('{"id": '),
          call({ id, type: 'FUNCTION', function: { name: spelled.slice(1, -1), arguments: '"water", ' } }),
          call({ id, type: 'FUNCTION', function: { name: spelled.slice(1, -1), arguments: '"limit": 3}' } }),
        ),
      ),
    ).toEqual([['read_rows', { id: 'water', limit: 3 }]]);
  });
}
