// The answer's `content` in the shapes servers and proxies actually send, not only as a string:
// a list of parts in the Responses shape (`output_text`) or the Assistants shape (`text: {value}`),
// plain strings in a list, one part on its own, a token sent as a bare number (a digit dropped
// would turn "$0.005" into "$"), reasoning as `reasoning` parts beside the text or as an object
// under `reasoning_content`; and a call in the older `function_call` shape of a whole message.
// Each is read as the text or call it is, streamed and not, instead of an empty answer.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

type Body = Record<string, unknown>;
const message = (m: Body, finish = 'stop'): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [
    JSON.stringify({
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', ...m }, finish_reason: finish }],
    }),
  ],
});
const deltas = (...ds: Body[]): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [
    ...ds.map(
      (d, i) =>
        `data: ${JSON.stringify({
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: d, finish_reason: i === ds.length - 1 ? 'stop' : null }],
        })}\n\n`,
    ),
    'data: [DONE]\n\n',
  ],
});
const tools = [
  { type: 'function' as const, function: { name: 'append_row', parameters: { type: 'object' } } },
];

async function ask(step: ScriptStep, stream: boolean) {
  gw.script(step);
  const heard = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('water'), stream, tools },
    heard.hooks,
  );
  return { result, shown: heard.tokens.join('') };
}

const ANSWER = 'Logged 250 ml.';
const cases: Array<[string, unknown, unknown[]]> = [
  [
    'parts in the Responses shape (output_text)',
    [{ type: 'output_text', text: ANSWER, annotations: [] }],
    [[{ type: 'output_text', text: 'Logged ' }], [{ type: 'output_text', text: '250 ml.' }]],
  ],
  [
    'parts in the Assistants shape (text: {value})',
    [{ type: 'text', text: { value: ANSWER, annotations: [] } }],
    [[{ type: 'text', text: { value: 'Logged ' } }], [{ type: 'text', text: { value: '250 ml.' } }]],
  ],
  ['plain strings in a list', ['Logged ', '250 ml.'], [['Logged '], ['250 ml.']]],
  [
    'one part on its own, not in a list',
    { type: 'text', text: ANSWER },
    [
      { type: 'text', text: 'Logged ' },
      { type: 'text', text: '250 ml.' },
    ],
  ],
];

for (const [what, whole, pieces] of cases) {
  it(`content as ${what}, in a JSON reply: read as the answer`, async () => {
    const { result } = await ask(message({ content: whole }), false);
    expect(result.text).toBe(ANSWER);
  });
  it(`content as ${what}, streamed: shown and kept`, async () => {
    const { result, shown } = await ask(deltas(...pieces.map((content) => ({ content }))), true);
    expect(result.text).toBe(ANSWER);
    expect(shown).toBe(ANSWER);
  });
}

it('a token sent as a bare number: the digits are kept', async () => {
  const { result, shown } = await ask(
    deltas(
      { content: 'That is ' },
      { content: 2 },
      { content: 50 },
      { content: ' ml, about $' },
      { content: 0 },
      { content: '.005' },
    ),
    true,
  );
  expect(result.text).toBe('That is 250 ml, about $0.005');
  expect(shown).toBe('That is 250 ml, about $0.005');
});

it('reasoning parts beside the text parts: kept apart from the answer', async () => {
  const content = [
    { type: 'reasoning', summary: [{ type: 'summary_text', text: 'The person logged water.' }] },
    { type: 'text', text: ANSWER },
  ];
  const buffered = await ask(message({ content }), false);
  expect(buffered.result.text).toBe(ANSWER);
  expect(buffered.result.reasoning).toBe('The person logged water.');
  const streamed = await ask(
    deltas(
      { content: [{ type: 'reasoning', text: 'The person logged water.' }] },
      { content: [{ type: 'text', text: ANSWER }] },
    ),
    true,
  );
  expect(streamed.result.text).toBe(ANSWER);
  expect(streamed.result.reasoning).toBe('The person logged water.');
  expect(streamed.shown).toBe(ANSWER);
});

it('reasoning_content as an object holding its text (Bedrock reasoning relayed as is): kept as reasoning', async () => {
  const { result, shown } = await ask(
    deltas(
      { reasoning_content: { text: 'The person ' } },
      { reasoning_content: { text: 'logged water.' } },
      { content: ANSWER },
    ),
    true,
  );
  expect(result.reasoning).toBe('The person logged water.');
  expect(result.text).toBe(ANSWER);
  expect(shown).toBe(ANSWER);
});

// guards the older functions shape in a whole message (the streamed one has its corpus fixture)
it('a call as the older function_call of a whole message, arguments as text or as an object: run', async () => {
  for (const args of ['{"id": "water", "value": 250}', { id: 'water', value: 250 }]) {
    const { result } = await ask(
      message({ content: null, function_call: { name: 'append_row', arguments: args } }, 'function_call'),
      false,
    );
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
      ['append_row', { id: 'water', value: 250 }],
    ]);
  }
});
