// text-generation-inference (Hugging Face's server, and the Inference Endpoints that ran it)
// forces the model to write one JSON object, {"function": {"_name": …, …arguments}}, and (2.0 to
// 2.3) offers a tool of its own, notify_error, for when no offered tool fits. Streamed (2.0 to
// 3.1), the object comes in pieces as a call's arguments with name null and the end-of-turn token
// as the last piece (its own snapshot test_flash_llama_grammar_tools_stream.json); whole, a notify_error call carries the
// model's sentence to the person (test_flash_llama_grammar_tools_insufficient_information.json; in
// https://github.com/huggingface/text-generation-inference/issues/2461 agents looped on it until
// TGI itself began to put that sentence in the answer). Klebb dropped the nameless call ('No
// answer came back') and ran notify_error as a tool that does not exist.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { type Body, DONE, dataEvent, jsonStep, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

/** One streamed piece as TGI 2.0 sends it: `tool_calls` one object, the name null. */
const piece = (text: string, finish: string | null = null) =>
  dataEvent({
    id: '',
    object: 'text_completion',
    created: 1712788218,
    model: 'meta-llama/Meta-Llama-3-8B-Instruct',
    system_fingerprint: '2.0.1-native',
    choices: [
      {
        index: 0,
        delta: {
          role: 'assistant',
          content: null,
          tool_calls: { index: 0, id: '', type: 'function', function: { name: null, arguments: text } },
        },
        logprobs: null,
        finish_reason: finish,
      },
    ],
  });

/** The model's object sent a few characters at a time, then the end-of-turn token. */
const pieces = (object: string) =>
  sseStep(...(object.match(/.{1,4}/gs) ?? []).map((t) => piece(t)), piece('<|eot_id|>', 'eos_token'), DONE);

/** A whole TGI 2.0 reply whose one call is `fn` (the name and object arguments as TGI sends them). */
const whole = (fn: Body) =>
  jsonStep({
    choices: [
      {
        finish_reason: 'eos_token',
        index: 0,
        logprobs: null,
        message: {
          content: null,
          name: null,
          role: 'assistant',
          tool_calls: [{ function: { ...fn, description: null }, id: 0, type: 'function' }],
        },
        usage: null,
      },
    ],
    created: 1712852597,
    id: '',
    model: 'meta-llama/Meta-Llama-3-8B-Instruct',
    object: 'text_completion',
    system_fingerprint: '2.0.1-native',
    usage: { completion_tokens: 39, prompt_tokens: 496, total_tokens: 535 },
  });

const SENTENCE = 'There is no tool to look up the weather, so I cannot answer that.';

it('streamed: the call named only inside its arguments runs', async () => {
  gw.script(pieces('{"function": {"_name": "append_row", "id": "water", "row": {"ml": 250}}}'), {
    kind: 'reply',
    text: 'Logged 250 ml.',
  });
  const { result, dispatched } = await agentTurn(gw, { stream: true, tools: ['read_rows', 'append_row'] });
  expect(dispatched).toEqual([{ name: 'append_row', args: { id: 'water', row: { ml: 250 } } }]);
  expect(result.payload?.reply).toBe('Logged 250 ml.');
  // the call goes back as an ordinary call of that tool
  const messages = gw.requests[1].body.messages as Array<Record<string, unknown>>;
  const assistant = messages.find((m) => m.role === 'assistant') as {
    tool_calls: Array<{ function: { name: string; arguments: string } }>;
  };
  expect(assistant.tool_calls[0].function).toEqual({
    name: 'append_row',
    arguments: '{"id":"water","row":{"ml":250}}',
  });
});

it('streamed: notify_error is the answer the person reads', async () => {
  gw.script(pieces(`{"function": {"_name": "notify_error", "error": "${SENTENCE}"}}`));
  const { result, dispatched, events } = await agentTurn(gw, { stream: true, tools: ['read_rows'] });
  expect(dispatched).toEqual([]);
  expect(result.reason).toBe('answered');
  expect(result.payload?.reply).toBe(SENTENCE);
  expect(gw.requests).toHaveLength(1);
  expect(events.filter((e) => e.type === 'reply')).toHaveLength(1);
});

it('whole: notify_error is the answer, asked once', async () => {
  gw.script(whole({ name: 'notify_error', arguments: { error: SENTENCE } }), {
    kind: 'reply',
    text: 'again',
  });
  const { result, dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(dispatched).toEqual([]);
  expect(result.payload?.reply).toBe(SENTENCE);
  expect(gw.requests).toHaveLength(1);
});

it('an offered tool called notify_error still runs', async () => {
  gw.script(whole({ name: 'notify_error', arguments: { error: 'disk full' } }), {
    kind: 'reply',
    text: 'Sent.',
  });
  const { dispatched } = await agentTurn(gw, { stream: false, tools: ['notify_error'] });
  expect(dispatched).toEqual([{ name: 'notify_error', args: { error: 'disk full' } }]);
});

it('a nameless call with ordinary arguments is still not run', async () => {
  gw.script(pieces('{"id": "water"}'), { kind: 'reply', text: 'again' });
  const { dispatched } = await agentTurn(gw, { stream: true, tools: ['read_rows'] });
  expect(dispatched).toEqual([]);
});
