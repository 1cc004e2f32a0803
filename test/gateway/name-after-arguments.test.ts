// Some OpenAI-compatible servers stream a tool call's id and arguments first and its
// `function.name` only in a later piece (anomalyco/opencode#24137; vercel/ai#6687 is its kin).
// The name belongs to the call already under way: one call with its arguments runs, never the
// named tool with `{}` beside a nameless call that is dropped (running a tool with no arguments
// is the wrong call). A named piece bringing other complete arguments is still another call.
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

for (const index of [0, undefined]) {
  const at = index === undefined ? 'without indexes' : 'under one index';
  it(`id and whole arguments first, the name in a later piece, ${at}: one call with its arguments`, async () => {
    expect(
      await callsOf(
        sse(
          call({
            index,
            id: 'call_1',
            type: 'function',
            function: { arguments: '{"id": "water", "limit": 3}' },
          }),
          call({ index, function: { name: 'read_rows' } }),
        ),
      ),
    ).toEqual([['read_rows', { id: 'water', limit: 3 }]]);
  });
}

it('the name in a later piece that restates the id and the arguments: one call', async () => {
  expect(
    await callsOf(
      sse(
        call({ index: 0, id: 'call_1', function: { arguments: '{"id":"water"}' } }),
        call({ index: 0, id: 'call_1', function: { name: 'read_rows', arguments: '{"id": "water"}' } }),
      ),
    ),
  ).toEqual([['read_rows', { id: 'water' }]]);
});

it('the name arriving with the second half of the arguments: one call (guards what worked)', async () => {
  expect(
    await callsOf(
      sse(
        call({ index: 0, id: 'call_1', function: { arguments: '{"id": ' } }),
        call({ index: 0, function: { name: 'read_rows', arguments: '"water"}' } }),
      ),
    ),
  ).toEqual([['read_rows', { id: 'water' }]]);
});

it('a nameless call, then a named one with other whole arguments: the named one alone runs', async () => {
  expect(
    await callsOf(
      sse(
        call({ index: 0, function: { arguments: '{"id":"water"}' } }),
        call({ index: 0, function: { name: 'read_rows', arguments: '{"id":"coffee"}' } }),
      ),
    ),
  ).toEqual([['read_rows', { id: 'coffee' }]]);
});
