// A tool call in the spellings servers and translators really use instead of OpenAI's
// `{id, type, function: {name, arguments}}`: the name and arguments flat on the entry (no
// `function` object; translators from other APIs, small servers), Anthropic's `input` for the
// arguments (a `tool_use` block relayed into `tool_calls`), `tool` instead of `function` as the
// inner object, the arguments as `parameters` or `args` (models writing the call themselves, as
// in Groq's failed generations: `"function": {"name"}, "parameters": {...}`), `function` as the
// bare name, and the older `function_call` with any of these. Each is the call it spells, whole
// and streamed, runs once with its arguments, and goes back on the next request in OpenAI's shape.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../src/chat/gateway/history.js';
import type { GatewayResult } from '../../src/chat/gateway/types.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import {
  type Body,
  choiceEvent,
  completionStep,
  DONE,
  functionTools,
  scriptedGatewayPerTest,
  sseStep,
} from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = functionTools('append_row');
const ARGS = { id: 'water', value: { ml: 250 } };
const ARGS_TEXT = '{"id": "water", "value": {"ml": 250}}';

const json = (message: Body) =>
  completionStep({ message: { role: 'assistant', content: null, ...message }, finish_reason: 'tool_calls' });
const sse = (...deltas: Body[]) =>
  sseStep(
    ...deltas.map((delta) => choiceEvent({ delta, finish_reason: null })),
    choiceEvent({ delta: {}, finish_reason: 'tool_calls' }),
    DONE,
  );

async function ask(step: ScriptStep, stream: boolean): Promise<GatewayResult> {
  gw.script(step);
  return callGateway(configFor(gw.url), { messages: userSays('water'), stream, tools });
}
const callsOf = (r: GatewayResult) => r.toolCalls.map((c) => [c.name, c.parsedArguments]);

/** Each spelling as one whole call entry, with `args` (text or object) as its arguments. */
const spellings: Array<[string, (args: unknown) => Body]> = [
  ['name and arguments flat on the entry', (args) => ({ id: 'c1', name: 'append_row', arguments: args })],
  [
    'a tool_use block: name and input',
    (args) => ({ id: 'c1', type: 'tool_use', name: 'append_row', input: args }),
  ],
  [
    '`tool` instead of `function`',
    (args) => ({ id: 'c1', type: 'function', tool: { name: 'append_row', arguments: args } }),
  ],
  [
    '`parameters` instead of `arguments`',
    (args) => ({ id: 'c1', function: { name: 'append_row', parameters: args } }),
  ],
  ['`args` instead of `arguments`', (args) => ({ id: 'c1', function: { name: 'append_row', args } })],
  ['`input` instead of `arguments`', (args) => ({ id: 'c1', function: { name: 'append_row', input: args } })],
  [
    '`parameters` beside a `function` holding only the name',
    (args) => ({ id: 'c1', function: { name: 'append_row' }, parameters: args }),
  ],
  ['`function` as the bare name', (args) => ({ id: 'c1', function: 'append_row', arguments: args })],
];

for (const [what, entry] of spellings) {
  it(`${what}, in a whole reply (arguments as text and as an object): one call, run`, async () => {
    for (const args of [ARGS_TEXT, ARGS]) {
      expect(callsOf(await ask(json({ tool_calls: [entry(args)] }), false))).toEqual([['append_row', ARGS]]);
    }
  });

  it(`${what}, streamed with the arguments in pieces: one call, run`, async () => {
    const head = entry(ARGS_TEXT.slice(0, 12));
    const rest = entry(ARGS_TEXT.slice(12));
    // the later pieces carry neither id nor name, as a stream's continuations do
    delete rest.id;
    delete rest.name;
    const inner = (rest.function ?? rest.tool) as Body | string | undefined;
    if (typeof inner === 'object') delete inner.name;
    else delete rest.function;
    const result = await ask(
      sse({ tool_calls: [{ index: 0, ...head }] }, { tool_calls: [{ index: 0, ...rest }] }),
      true,
    );
    expect(callsOf(result)).toEqual([['append_row', ARGS]]);
  });
}

it('the older function_call with `parameters`, whole and streamed: one call, run', async () => {
  const whole = await ask(json({ function_call: { name: 'append_row', parameters: ARGS } }), false);
  expect(callsOf(whole)).toEqual([['append_row', ARGS]]);
  const streamed = await ask(
    sse(
      { function_call: { name: 'append_row', args: ARGS_TEXT.slice(0, 9) } },
      { function_call: { args: ARGS_TEXT.slice(9) } },
    ),
    true,
  );
  expect(callsOf(streamed)).toEqual([['append_row', ARGS]]);
});

it('a flat call goes back on the next request in OpenAI shape, without the spelling it came in', async () => {
  const result = await ask(
    json({ tool_calls: [{ id: 'c1', type: 'tool_use', name: 'append_row', input: ARGS, cache_hint: 'x' }] }),
    false,
  );
  gw.script({ kind: 'reply', text: 'Logged.' });
  const history = [
    ...userSays('water'),
    assistantMessageFor(result),
    toolResultMessage(result.toolCalls[0], '{"ok":true}'),
  ];
  await callGateway(configFor(gw.url), { messages: history, tools });
  const sent = gw.requests[1].body.messages[1].tool_calls[0];
  expect(sent).toEqual({
    id: result.toolCalls[0].id,
    type: 'function',
    function: { name: 'append_row', arguments: JSON.stringify(ARGS) },
    cache_hint: 'x',
  });
});
