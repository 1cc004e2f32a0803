// A streamed call whose arguments open with an empty object `{}` as a placeholder (relays and
// middleware that seed a call's arguments with `{}` before the model's arguments stream in) is one
// call with the arguments that followed, whether those came whole or in pieces: never a call with
// no arguments plus a second call, nor `{}{...}` read as empty arguments.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const fragment = (call: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: finish }] })}\n\n`;
const stream = (...events: string[]) => ({
  kind: 'bytes' as const,
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [...events, 'data: [DONE]\n\n'],
});
const opening = {
  index: 0,
  id: 'call_1',
  type: 'function',
  function: { name: 'log_water', arguments: '{}' },
};

const cases: Array<[string, ReturnType<typeof stream>]> = [
  [
    'then the whole arguments',
    stream(fragment(opening), fragment({ index: 0, function: { arguments: '{"ml":250}' } }, 'tool_calls')),
  ],
  [
    'then the arguments in pieces',
    stream(
      fragment(opening),
      fragment({ index: 0, function: { arguments: '{"ml"' } }),
      fragment({ index: 0, function: { arguments: ':250}' } }, 'tool_calls'),
    ),
  ],
  [
    'then pieces carrying the same id',
    stream(
      fragment(opening),
      fragment({ index: 0, id: 'call_1', function: { arguments: '{"ml":' } }),
      fragment({ index: 0, id: 'call_1', function: { arguments: '250}' } }, 'tool_calls'),
    ),
  ],
];
for (const [what, script] of cases) {
  it(`arguments opened with a placeholder {} ${what}: one call with those arguments`, async () => {
    gw.script(script);
    const result = await callGateway(configFor(gw.url), { messages: userSays('log a glass'), stream: true });
    expect(result.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['log_water', { ml: 250 }],
    ]);
  });
}

it('a call with no parameters, its {} restated, stays one call with {}', async () => {
  gw.script(stream(fragment(opening), fragment({ index: 0, function: { arguments: '{}' } }, 'tool_calls')));
  const result = await callGateway(configFor(gw.url), { messages: userSays('log'), stream: true });
  expect(result.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['log_water', '{}']]);
});
