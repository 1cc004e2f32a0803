// Cloudflare Workers AI's own endpoint (`/ai/run/<model>`, which takes the same messages and tools
// as its OpenAI-compatible one) answers `{result: {response, tool_calls, usage}, success: true}`,
// or streams `{response, p}` events; Ollama's `/api/generate` streams `{response, done}`. With no
// `choices`, each was "a reply that could not be read" (or an empty answer when streamed): the
// `response` text is the answer and `tool_calls` (`[{name, arguments}]`) its calls. A `response`
// that is an object is an envelope around a reply, read as before.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = [
  { type: 'function' as const, function: { name: 'read_rows', parameters: { type: 'object' } } },
];
const json = (body: object): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [JSON.stringify(body)],
});
const cloudflare = (result: object) => ({ result, success: true, errors: [], messages: [] });

it("Workers AI's whole answer: the text and its usage", async () => {
  gw.script(
    json(
      cloudflare({
        response: 'You drank 6 glasses.',
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
    ),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('water?'), tools });
  expect(result.text).toBe('You drank 6 glasses.');
  expect(result.usage?.totalTokens).toBe(15);
});

it("Workers AI's stream of {response, p} events, event by event: shown as it arrives, usage read", async () => {
  gw.script({ kind: 'fixture', name: 'workers-ai-native-stream', split: 'events' });
  const r = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('hr?'), stream: true }, r.hooks);
  expect(result.text).toBe('Your resting heart rate is 58 bpm.');
  expect(r.tokens.join('')).toBe('Your resting heart rate is 58 bpm.');
  expect(result.usage).toMatchObject({ promptTokens: 31, completionTokens: 9, totalTokens: 40 });
});

it("Workers AI's calls beside a null response: run", async () => {
  gw.script(
    json(cloudflare({ response: null, tool_calls: [{ name: 'read_rows', arguments: { card: 'water' } }] })),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('water?'), tools, stream: true });
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
    ['read_rows', { card: 'water' }],
  ]);
});

it("Ollama's /api/generate stream: the text as it arrives, finished by done", async () => {
  const line = (o: object) => `${JSON.stringify(o)}\n`;
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'application/x-ndjson' },
    chunks: [
      line({ model: 'llama3.2', response: 'Six', done: false }),
      line({ model: 'llama3.2', response: ' glasses.', done: false }),
      line({
        model: 'llama3.2',
        response: '',
        done: true,
        done_reason: 'stop',
        prompt_eval_count: 12,
        eval_count: 3,
      }),
    ],
    end: 'hold',
  });
  const r = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('water?'), stream: true },
    r.hooks,
  );
  expect(result.text).toBe('Six glasses.');
  expect(r.tokens.join('')).toBe('Six glasses.');
  expect(result.usage?.promptTokens).toBe(12);
});

it('a response that is an object is the reply it holds', async () => {
  gw.script(
    json({
      response: {
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'Six glasses.' }, finish_reason: 'stop' },
        ],
      },
    }),
  );
  expect((await callGateway(configFor(gw.url), { messages: userSays('water?') })).text).toBe('Six glasses.');
});
