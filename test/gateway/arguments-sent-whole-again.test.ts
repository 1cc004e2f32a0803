// vLLM's tool parsers stream a call's arguments in pieces and then, at the end of the stream,
// flush "what was not streamed yet", which under some chunk alignments is the whole argument
// object again (vllm-project/vllm#51697 for the xlam parser; GLM's final chunk in
// vllm-project/vllm#42167 carries the whole arguments beside the finish_reason), and the flush is
// serialised anew: Python's spacing, non-ASCII text as `\uXXXX` escapes. Joined naively the call
// reads `{"a": 1, "b"{"a":1,"b":2}`. A piece that is a complete object beginning with everything
// streamed so far (spaces and escapes set aside) is the whole arguments again and replaces the
// pieces; a nested object value that happens to look so (more text follows it) is still joined
// as the delta it is, and ordinary pieces are untouched.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { GatewayResult } from '../../src/chat/gateway/types.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { type Body, choiceEvent, DONE, functionTools, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = functionTools('append_row', 'read_rows');

const chunk = (delta: Body, finish: string | null = null) => choiceEvent({ delta, finish_reason: finish });
const head = (args: string, index: number | undefined = 0, name = 'append_row') =>
  chunk({
    tool_calls: [
      { index, id: `call_${index ?? 'x'}`, type: 'function', function: { name, arguments: args } },
    ],
  });
const piece = (args: string, index: number | undefined = 0) =>
  chunk({ tool_calls: [{ index, function: { arguments: args } }] });
const end = [chunk({}, 'tool_calls'), DONE];
const sse = sseStep;

async function callsOf(step: ScriptStep): Promise<Array<[string, unknown]>> {
  gw.script(step);
  const result: GatewayResult = await callGateway(configFor(gw.url), {
    messages: userSays('water'),
    stream: true,
    tools,
  });
  expect(result.toolCalls.every((c) => c.argumentsError === undefined)).toBe(true);
  return result.toolCalls.map((c) => [c.name, c.parsedArguments]);
}

const WATER = { id: 'water', value: { ml: 250 }, note: 'après le café' };

it('pieces, then the whole arguments again re-serialised (compact): one call with them', async () => {
  expect(
    await callsOf(
      sse(
        head('{"id": "water", '),
        piece('"value": {"ml": 250}, "note": "apr'),
        piece(JSON.stringify(WATER)),
        ...end,
      ),
    ),
  ).toEqual([['append_row', WATER]]);
});

it('pieces, then the whole arguments again with non-ASCII text escaped: one call with them', async () => {
  const escaped = '{"id": "water", "value": {"ml": 250}, "note": "apr\\u00e8s le caf\\u00e9"}';
  expect(
    await callsOf(
      sse(head('{"id":"water","value":{"ml":250},'), piece('"note":"après le'), piece(escaped), ...end),
    ),
  ).toEqual([['append_row', WATER]]);
});

it('pieces cut off inside an escape, then the whole arguments again: one call with them', async () => {
  const escaped = '{"id": "water", "value": {"ml": 250}, "note": "apr\\u00e8s le caf\\u00e9"}';
  expect(
    await callsOf(
      sse(head('{"id": "water", "value": {"ml": 250}, "note": "apr\\u00'), piece(escaped), ...end),
    ),
  ).toEqual([['append_row', WATER]]);
});

it('the whole arguments again on the chunk that carries the finish_reason, name restated: one call', async () => {
  const last = chunk(
    {
      tool_calls: [
        { index: 0, type: 'function', function: { name: 'append_row', arguments: JSON.stringify(WATER) } },
      ],
    },
    'tool_calls',
  );
  expect(
    await callsOf(
      sse(head('{"id": "water", "value": '), piece('{"ml": 250}, "note": "après le café"'), last, DONE),
    ),
  ).toEqual([['append_row', WATER]]);
});

it('without indexes, the whole arguments again after the pieces: one call', async () => {
  expect(
    await callsOf(
      sse(
        head('{"id": "water", ', undefined),
        piece('"value": {"ml": ', undefined),
        piece(JSON.stringify(WATER), undefined),
        ...end,
      ),
    ),
  ).toEqual([['append_row', WATER]]);
});

it('two parallel calls, each flushed whole again after its pieces: two calls with their arguments', async () => {
  expect(
    await callsOf(
      sse(
        head('{"id": "wa'),
        piece('ter"'),
        head('{"id": "co', 1, 'read_rows'),
        piece('ffee", "limit": ', 1),
        piece('{"id":"water"}', 0),
        piece('{"id":"coffee","limit":3}', 1),
        ...end,
      ),
    ),
  ).toEqual([
    ['append_row', { id: 'water' }],
    ['read_rows', { id: 'coffee', limit: 3 }],
  ]);
});

it('a nested object value that begins like the arguments so far, more text after it: joined as deltas', async () => {
  expect(
    await callsOf(sse(head('{"filter": '), piece('{"filter": "water"}'), piece(', "limit": 3}'), ...end)),
  ).toEqual([['append_row', { filter: { filter: 'water' }, limit: 3 }]]);
  expect(await callsOf(sse(head('{"filter":'), piece('{"filter":"water"}'), piece('}'), ...end))).toEqual([
    ['append_row', { filter: { filter: 'water' } }],
  ]);
});

it('ordinary pieces, a nested object arriving whole among them, an empty piece at the end: joined as deltas', async () => {
  expect(
    await callsOf(
      sse(
        head('{"id": "water", "value": '),
        piece('{"ml": 250}'),
        piece(', "note": "après le café"}'),
        piece(''),
        ...end,
      ),
    ),
  ).toEqual([['append_row', WATER]]);
});
