// The answer outside the `choices` list a client expects. A proxy in front of Ollama that passes its
// native chat answer on as is (`{model, message: {role, content}, done, done_reason,
// prompt_eval_count, eval_count}`, no `choices`: a client read it as empty messages,
// SillyTavern#5128), whole or as its native stream of JSON lines, with reasoning in
// `message.thinking` and calls whose arguments are objects; and `choices` sent as one choice object
// instead of a list. Each is read as the one choice it is: text, reasoning, calls and usage.
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
const ANSWER = 'Logged 250 ml.';
const tools = [
  { type: 'function' as const, function: { name: 'read_manifest', parameters: { type: 'object' } } },
];
const counters = {
  total_duration: 872113375,
  load_duration: 33094083,
  prompt_eval_count: 29,
  prompt_eval_duration: 516695792,
  eval_count: 25,
  eval_duration: 321374542,
};
const native = (message: Body, done = true, extra: Body = {}): Body => ({
  model: 'llama3.2:latest',
  created_at: '2025-06-06T15:50:35.350672Z',
  message: { role: 'assistant', ...message },
  ...(done ? { done_reason: 'stop', done: true, ...counters } : { done: false }),
  ...extra,
});

const json = (body: Body): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  chunks: [JSON.stringify(body)],
});
const lines = (...bodies: Body[]): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/x-ndjson' },
  chunks: bodies.map((b) => `${JSON.stringify(b)}\n`),
});

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

it("Ollama's native chat answer relayed as a JSON reply: its text and usage are read", async () => {
  const { result } = await ask(json(native({ content: ANSWER })), false);
  expect(result.text).toBe(ANSWER);
  expect(result.usage).toMatchObject({ promptTokens: 29, completionTokens: 25, totalTokens: 54 });
});

it("Ollama's native answer with thinking and a call: reasoning kept apart, the call run", async () => {
  const { result } = await ask(
    json(
      native({
        content: '',
        thinking: 'The person asks about weight.',
        tool_calls: [{ function: { name: 'read_manifest', arguments: { id: 'weight' } } }],
      }),
    ),
    false,
  );
  expect(result.reasoning).toBe('The person asks about weight.');
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
    ['read_manifest', { id: 'weight' }],
  ]);
});

it("Ollama's native stream of JSON lines relayed: shown and kept, usage read", async () => {
  const { result, shown } = await ask(
    lines(
      native({ content: 'Logged ' }, false),
      native({ content: '250 ml.' }, false),
      native({ content: '' }, true),
    ),
    true,
  );
  expect(result.text).toBe(ANSWER);
  expect(shown).toBe(ANSWER);
  expect(result.finishReason).toBe('stop');
  expect(result.usage).toMatchObject({ promptTokens: 29, completionTokens: 25, totalTokens: 54 });
});

it("Ollama's native stream with a call in one line: the call is run, nothing shown", async () => {
  const { result, shown } = await ask(
    lines(
      native(
        { content: '', tool_calls: [{ function: { name: 'read_manifest', arguments: { id: 'sleep' } } }] },
        false,
      ),
      native({ content: '' }, true),
    ),
    true,
  );
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
    ['read_manifest', { id: 'sleep' }],
  ]);
  expect(shown).toBe('');
});

it('choices sent as one choice object instead of a list, in a JSON reply: the answer', async () => {
  const { result } = await ask(
    json({
      object: 'chat.completion',
      choices: { index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' },
    }),
    false,
  );
  expect(result.text).toBe(ANSWER);
});

it('choices sent as one choice object in every streamed chunk: shown and kept', async () => {
  const chunk = (delta: Body, finish: string | null = null) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: { index: 0, delta, finish_reason: finish } })}\n\n`;
  const { result, shown } = await ask(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [chunk({ content: 'Logged ' }), chunk({ content: '250 ml.' }, 'stop'), 'data: [DONE]\n\n'],
    },
    true,
  );
  expect(result.text).toBe(ANSWER);
  expect(shown).toBe(ANSWER);
});
