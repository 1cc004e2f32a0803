// llama.cpp's `llama-server` counts tokens in a `timings` object of its own (`prompt_n` input
// tokens evaluated, `cache_n` input tokens reused from its cache, `predicted_n` output tokens), on
// the last chunk of a stream (a chunk with `choices: []`, or the finishing one) or beside a whole
// reply, and a build or a request without `stream_options` sends no `usage` beside it (the
// `cache_n` count was added to `timings` in ggml-org/llama.cpp#15827). The counts are read as the
// round-trip's usage instead of "usage unknown"; `usage`, when sent too, wins.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { type Body, completionStep, DONE, dataEvent, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const ANSWER = 'Logged 250 ml.';

const timings = {
  cache_n: 236,
  prompt_n: 14,
  prompt_ms: 30.958,
  prompt_per_token_ms: 2.2,
  prompt_per_second: 452.2,
  predicted_n: 35,
  predicted_ms: 661.064,
  predicted_per_token_ms: 18.9,
  predicted_per_second: 52.9,
};
const expected = {
  promptTokens: 250,
  completionTokens: 35,
  totalTokens: 285,
  cachedTokens: 236,
  uncachedPromptTokens: 14,
};

const json = (extra: Body) =>
  completionStep({ message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }, extra);

const chunk = (choices: Body[], extra: Body = {}) =>
  dataEvent({ object: 'chat.completion.chunk', model: 'm', choices, ...extra });
const text = chunk([{ index: 0, delta: { content: ANSWER }, finish_reason: null }]);
const finishing = (extra: Body = {}) => chunk([{ index: 0, delta: {}, finish_reason: 'stop' }], extra);
const sse = (...events: string[]) => sseStep(...events, DONE);

async function usageOf(step: ScriptStep, stream: boolean) {
  gw.script(step);
  const result = await callGateway(configFor(gw.url), { messages: userSays('water'), stream });
  expect(result.text).toBe(ANSWER);
  return result.usage;
}

it('timings beside a whole reply, no usage: read as usage, the cache reuse as cache hits', async () => {
  expect(await usageOf(json({ timings }), false)).toEqual(expected);
});

it('timings on a closing chunk with no choices, no usage: read as usage', async () => {
  expect(await usageOf(sse(text, finishing(), chunk([], { timings })), true)).toEqual(expected);
});

it('timings on the finishing chunk, usage null: read as usage', async () => {
  expect(await usageOf(sse(text, finishing({ timings, usage: null })), true)).toEqual(expected);
});

it('timings without cache_n (older builds): every input token is evaluated, cache hits unknown', async () => {
  const { cache_n: _, ...older } = timings;
  expect(await usageOf(json({ timings: older }), false)).toEqual({
    promptTokens: 14,
    completionTokens: 35,
    totalTokens: 49,
    uncachedPromptTokens: 14,
  });
});

it('usage beside timings: usage wins', async () => {
  const usage = { prompt_tokens: 250, completion_tokens: 35, total_tokens: 285 };
  expect(await usageOf(sse(text, finishing({ timings, usage })), true)).toEqual({
    promptTokens: 250,
    completionTokens: 35,
    totalTokens: 285,
    uncachedPromptTokens: 250,
  });
});

it('timings with no token counts (only durations): usage stays unknown, not zero', async () => {
  expect(await usageOf(json({ timings: { prompt_ms: 30.9, predicted_ms: 661 } }), false)).toBeNull();
});
