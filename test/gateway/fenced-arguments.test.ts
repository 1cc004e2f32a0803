// Some models, and gateways that re-serialise a reply (OpenRouter, DeepSeek behind relays,
// MiniMax), send a call's `arguments` as JSON inside one Markdown code fence ("```json\n{...}\n```").
// Read strictly, the call was refused as "arguments were not valid JSON" and the model had to try
// again, often the same way. The fence around the whole arguments is taken off; anything else
// (prose before the fence, two fences, a fence around something that is not an object) is still
// refused, and such a call never runs.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = [
  { type: 'function' as const, function: { name: 'read_rows', parameters: { type: 'object' } } },
];
const call = (pieces: string[]): ScriptStep => ({
  kind: 'bytes',
  chunks: [
    ...pieces.map(
      (args, i) =>
        `data: ${JSON.stringify({
          object: 'chat.completion.chunk',
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  i === 0
                    ? {
                        index: 0,
                        id: 'c1',
                        type: 'function',
                        function: { name: 'read_rows', arguments: args },
                      }
                    : { index: 0, function: { arguments: args } },
                ],
              },
            },
          ],
        })}\n\n`,
    ),
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\n`,
    'data: [DONE]\n\n',
  ],
});
const ask = () => callGateway(configFor(gw.url), { messages: userSays('water?'), stream: true, tools });

for (const [what, pieces] of [
  ['```json, streamed in pieces', ['```json\n{"card":', ' "water", "limit": 7}\n', '```']],
  ['a bare fence', ['```\n{"card": "water", "limit": 7}\n```']],
  ['a fence on one line, spaces around', ['  ```json {"card": "water", "limit": 7} ```  ']],
] as const) {
  it(`arguments inside ${what}: the call runs with them`, async () => {
    gw.script(call([...pieces]));
    const [c] = (await ask()).toolCalls;
    expect(c.parsedArguments).toEqual({ card: 'water', limit: 7 });
    expect(c.arguments).toBe('{"card":"water","limit":7}');
    expect(c.argumentsError).toBeUndefined();
  });
}

for (const [what, args] of [
  ['prose before the fence', 'Here you go: ```json\n{"card": "water"}\n```'],
  ['two fences', '```json\n{"card": "water"}\n```\n```json\n{"card": "sleep"}\n```'],
  ['a fenced list', '```json\n[{"card": "water"}]\n```'],
] as const) {
  it(`${what}: still refused, never run`, async () => {
    gw.script(call([args]));
    const [c] = (await ask()).toolCalls;
    expect(c.parsedArguments).toBeUndefined();
    expect(c.argumentsError).toBeDefined();
  });
}
