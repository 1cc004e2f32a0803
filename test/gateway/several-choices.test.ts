// A reply with several choices (`n` set by a proxy or a server default, though we never ask for
// it): choice 0 alone is the reply, streamed or not; the text and tool calls of the other choices
// are neither shown nor run. A server that numbers the choice of each chunk anew (a counter, not
// several choices) still has its whole text read as the one reply.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

type Choice = Record<string, unknown>;
const stream = (...chunks: Choice[][]) => ({
  kind: 'bytes' as const,
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [
    ...chunks.map(
      (choices) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices })}\n\n`,
    ),
    'data: [DONE]\n\n',
  ],
});
const text = (index: number, content: string, finish: string | null = null): Choice => ({
  index,
  delta: { content },
  finish_reason: finish,
});
const toolCalls = (index: number) => [
  {
    index: 0,
    id: `call_${index}`,
    type: 'function',
    function: { name: 'log_water', arguments: '{"ml":250}' },
  },
];
const call = (index: number, finish: string | null = null, content?: string): Choice => ({
  index,
  delta: { content, tool_calls: toolCalls(index) },
  finish_reason: finish,
});
const role = (index: number): Choice => ({
  index,
  delta: { role: 'assistant', content: '' },
  finish_reason: null,
});

const streams: Array<[string, ReturnType<typeof stream>]> = [
  [
    'interleaved one choice per chunk (role chunks first, as OpenAI streams n=2)',
    stream(
      [role(0)],
      [role(1)],
      [text(0, 'Drink ')],
      [text(1, 'Logging ')],
      [text(0, 'a glass.')],
      [call(1)],
      [text(0, '', 'stop')],
      [text(1, '', 'tool_calls')],
    ),
  ],
  [
    'interleaved without role chunks, the other choice speaking first after the first piece',
    stream(
      [text(0, 'Drink ')],
      [text(1, 'Logging ')],
      [text(0, 'a glass.')],
      [call(1, 'tool_calls')],
      [text(0, '', 'stop')],
    ),
  ],
  [
    'both choices in every chunk',
    stream([text(0, 'Drink '), call(1)], [text(0, 'a glass.', 'stop'), text(1, 'x', 'tool_calls')]),
  ],
  [
    'the other choice listed first in a chunk',
    stream([text(1, 'Logging '), text(0, 'Drink ')], [call(1), text(0, 'a glass.', 'stop')]),
  ],
  [
    'each choice whole in one chunk',
    stream([text(0, 'Drink a glass.', 'stop')], [call(1, 'tool_calls', 'Logging')]),
  ],
];

for (const [what, script] of streams) {
  it(`a stream with several choices, ${what}: choice 0 alone is the reply`, async () => {
    gw.script(script);
    const heard = recordHooks();
    const result = await callGateway(
      configFor(gw.url),
      { messages: userSays('water?'), stream: true },
      heard.hooks,
    );
    expect(result.text).toBe('Drink a glass.');
    expect(result.toolCalls).toEqual([]);
    expect(heard.tokens.join('')).toBe('Drink a glass.');
  });
}

it('a stream whose choice 0 calls a tool while choice 1 talks: the call alone, no text', async () => {
  gw.script(
    stream([call(0)], [text(1, 'I would log it.')], [text(0, '', 'tool_calls')], [text(1, '', 'stop')]),
  );
  const heard = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('log'), stream: true },
    heard.hooks,
  );
  expect(result.text).toBe('');
  expect(result.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['log_water', '{"ml":250}']]);
  expect(heard.tokens).toEqual([]);
});

it('a JSON reply with several choices, the other listed first: choice 0 alone, for a buffered and a streamed request', async () => {
  const body = {
    kind: 'bytes' as const,
    headers: { 'Content-Type': 'application/json' },
    chunks: [
      JSON.stringify({
        object: 'chat.completion',
        choices: [
          {
            index: 1,
            message: {
              role: 'assistant',
              content: 'Logging.',
              tool_calls: toolCalls(1),
            },
            finish_reason: 'tool_calls',
          },
          { index: 0, message: { role: 'assistant', content: 'Drink a glass.' }, finish_reason: 'stop' },
        ],
      }),
    ],
  };
  gw.script(body, body);
  for (const asStream of [false, true]) {
    const result = await callGateway(configFor(gw.url), { messages: userSays('water?'), stream: asStream });
    expect(result.text).toBe('Drink a glass.');
    expect(result.toolCalls).toEqual([]);
  }
});

it("a server numbering each chunk's choice anew from 0 (a counter, one choice per chunk): the whole text", async () => {
  gw.script(stream([text(0, 'Drink ')], [text(1, 'a ')], [text(2, 'glass.')], [text(3, '', 'stop')]));
  const heard = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('water?'), stream: true },
    heard.hooks,
  );
  expect(result.text).toBe('Drink a glass.');
  expect(heard.tokens.join('')).toBe('Drink a glass.');
});
