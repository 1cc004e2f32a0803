// The message and its calls in the shapes servers get wrong: `choices[0].message` (or a streamed
// `delta`) sent as the plain answer text instead of a message object (an OpenAI-compatible server
// fixed for it, open-chat-studio#526); `tool_calls` as one call object instead of a list, whole or
// streamed; a call to a tool without parameters with no `function.arguments` at all (clients broke
// on it, vercel/ai#3073), also when the next call follows it under the same index or none, where
// the two names would otherwise run together into one unknown tool. Each is read as the text or
// calls it stands for; a call with no arguments runs with `{}` and goes back as the string "{}".
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../src/chat/gateway/history.js';
import type { GatewayResult } from '../../src/chat/gateway/types.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

type Body = Record<string, unknown>;
const ANSWER = 'Logged 250 ml.';
const tools = [
  {
    type: 'function' as const,
    function: { name: 'list_manifests', parameters: { type: 'object', properties: {} } },
  },
  { type: 'function' as const, function: { name: 'read_manifest', parameters: { type: 'object' } } },
];

const json = (choice: Body): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, ...choice }],
    }),
  ],
});
const sse = (...choices: Body[]): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [
    ...choices.map(
      (c) =>
        `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, ...c }] })}\n\n`,
    ),
    'data: [DONE]\n\n',
  ],
});

async function ask(step: ScriptStep, stream: boolean) {
  gw.script(step);
  const heard = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('cards'), stream, tools },
    heard.hooks,
  );
  return { result, shown: heard.tokens.join('') };
}
const callsOf = (r: GatewayResult) => r.toolCalls.map((c) => [c.name, c.parsedArguments]);

it('message sent as the plain answer text, in a JSON reply: the answer', async () => {
  const { result } = await ask(json({ message: ANSWER, finish_reason: 'stop' }), false);
  expect(result.text).toBe(ANSWER);
});

it('deltas sent as plain text, streamed: shown and kept', async () => {
  const { result, shown } = await ask(
    sse({ delta: 'Logged ' }, { delta: '250 ml.' }, { delta: {}, finish_reason: 'stop' }),
    true,
  );
  expect(result.text).toBe(ANSWER);
  expect(shown).toBe(ANSWER);
});

it('tool_calls as one call object instead of a list, in a JSON reply: run', async () => {
  const call = {
    id: 'call_1',
    type: 'function',
    function: { name: 'read_manifest', arguments: '{"id":"weight"}' },
  };
  const { result } = await ask(
    json({ message: { role: 'assistant', content: null, tool_calls: call }, finish_reason: 'tool_calls' }),
    false,
  );
  expect(callsOf(result)).toEqual([['read_manifest', { id: 'weight' }]]);
});

it('tool_calls as one call object in every streamed delta: one call, run', async () => {
  const { result, shown } = await ask(
    sse(
      {
        delta: {
          role: 'assistant',
          tool_calls: {
            index: 0,
            id: 'call_1',
            type: 'function',
            function: { name: 'read_manifest', arguments: '' },
          },
        },
      },
      { delta: { tool_calls: { index: 0, function: { arguments: '{"id":' } } } },
      { delta: { tool_calls: { index: 0, function: { arguments: '"weight"}' } } } },
      { delta: {}, finish_reason: 'tool_calls' },
    ),
    true,
  );
  expect(callsOf(result)).toEqual([['read_manifest', { id: 'weight' }]]);
  expect(shown).toBe('');
});

// the next two guard what already worked: a lone call with no arguments runs with {}
it('a call with no function.arguments at all, in a JSON reply: run with {} and sent back as "{}"', async () => {
  const call = { id: 'call_1', type: 'function', function: { name: 'list_manifests' } };
  const { result } = await ask(
    json({ message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }),
    false,
  );
  expect(callsOf(result)).toEqual([['list_manifests', {}]]);
  gw.script({ kind: 'reply', text: 'You track weight.' });
  const history = [
    ...userSays('cards'),
    assistantMessageFor(result),
    toolResultMessage(result.toolCalls[0], '[]'),
  ];
  await callGateway(configFor(gw.url), { messages: history, tools });
  expect(gw.requests[1].body.messages[1].tool_calls[0].function.arguments).toBe('{}');
});

it('a streamed call with no function.arguments at all, alone: run with {}', async () => {
  const { result } = await ask(
    sse(
      {
        delta: {
          role: 'assistant',
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'list_manifests' } }],
        },
      },
      { delta: {}, finish_reason: 'tool_calls' },
    ),
    true,
  );
  expect(callsOf(result)).toEqual([['list_manifests', {}]]);
});

for (const [what, index] of [
  ['under the same index', 0],
  ['with no index', undefined],
] as const) {
  for (const missing of [{}, { arguments: null }]) {
    const how = 'arguments' in missing ? 'arguments: null' : 'no arguments';
    it(`a streamed call with ${how}, then the next call ${what} and no ids: two calls`, async () => {
      const { result } = await ask(
        sse(
          {
            delta: {
              role: 'assistant',
              tool_calls: [{ index, type: 'function', function: { name: 'list_manifests', ...missing } }],
            },
          },
          {
            delta: {
              tool_calls: [
                {
                  index,
                  type: 'function',
                  function: { name: 'read_manifest', arguments: '{"id":"weight"}' },
                },
              ],
            },
          },
          { delta: {}, finish_reason: 'tool_calls' },
        ),
        true,
      );
      expect(callsOf(result)).toEqual([
        ['list_manifests', {}],
        ['read_manifest', { id: 'weight' }],
      ]);
    });
  }
}
