// Usage figures as servers and proxies really send them, not only as OpenAI's numbers: counts
// written as text ("12": telemetry code coerces them for this reason, openinference#1183),
// Ollama's own names (`prompt_eval_count`, `eval_count`) inside `usage` instead of or beside
// OpenAI's (Open WebUI passes Ollama's counters on so), or beside the reply with no `usage` at all
// (Ollama's native shape relayed), camelCase names (an endpoint serialising its own usage type),
// and nulls (Gemini leaves `completion_tokens` null beside a total). Each is read as the counts it
// gives, streamed and not, instead of "usage unknown"; a count left out beside a total is the total
// minus the other. What carries no count at all stays unknown, never zero.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

type Body = Record<string, unknown>;
const ANSWER = 'Logged 250 ml.';
const choice = { index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' };

/** A JSON reply with `extra` beside its choices. */
const json = (extra: Body): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [
    JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: 'm', choices: [choice], ...extra }),
  ],
});

/** A stream of the answer whose closing usage chunk (no choices) carries `extra`. */
const stream = (extra: Body): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: ANSWER }, finish_reason: 'stop' }] })}\n\n`,
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [], ...extra })}\n\n`,
    'data: [DONE]\n\n',
  ],
});

async function usageOf(step: ScriptStep, streamed: boolean) {
  gw.script(step);
  const result = await callGateway(configFor(gw.url), { messages: userSays('water'), stream: streamed });
  expect(result.text).toBe(ANSWER);
  return result.usage;
}

const ollamaCounters = {
  'response_token/s': 71.47,
  'prompt_token/s': 1054.3,
  total_duration: 2079541625,
  load_duration: 1470000250,
  prompt_eval_count: 12,
  prompt_eval_duration: 11381000,
  eval_count: 3,
  eval_duration: 41975000,
  approximate_total: '0h0m2s',
};

const cases: Array<[string, Body]> = [
  ['counts written as text', { usage: { prompt_tokens: '12', completion_tokens: '3', total_tokens: '15' } }],
  ["only Ollama's names inside usage", { usage: ollamaCounters }],
  [
    "OpenAI's names null beside Ollama's",
    { usage: { prompt_tokens: null, completion_tokens: null, total_tokens: null, ...ollamaCounters } },
  ],
  [
    'the output count null beside a total',
    { usage: { prompt_tokens: 12, completion_tokens: null, total_tokens: 15 } },
  ],
  [
    'the input count null beside a total, as text',
    { usage: { prompt_tokens: null, completion_tokens: '3', total_tokens: '15' } },
  ],
  [
    "Ollama's counts beside the reply and no usage",
    { done: true, done_reason: 'stop', prompt_eval_count: 12, eval_count: 3 },
  ],
  ['camelCase names', { usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 } }],
];

for (const [what, extra] of cases) {
  it(`usage with ${what}, in a JSON reply: recorded`, async () => {
    expect(await usageOf(json(extra), false)).toMatchObject({
      promptTokens: 12,
      completionTokens: 3,
      totalTokens: 15,
    });
  });
  it(`usage with ${what}, streamed: recorded`, async () => {
    expect(await usageOf(stream(extra), true)).toMatchObject({
      promptTokens: 12,
      completionTokens: 3,
      totalTokens: 15,
    });
  });
}

it("Ollama's count of cached input tokens is read as the cache hits", async () => {
  const usage = await usageOf(
    json({ prompt_eval_count: 812, eval_count: 41, prompt_eval_cached_count: 768 }),
    false,
  );
  expect(usage).toMatchObject({
    promptTokens: 812,
    completionTokens: 41,
    cachedTokens: 768,
    uncachedPromptTokens: 44,
  });
});

// guards: usage that says nothing stays unknown, and OpenAI's numbers win over any other name
it('usage whose every count is null, or text that is no number, stays unknown (never zero)', async () => {
  const nulls = { usage: { prompt_tokens: null, completion_tokens: null, total_tokens: null } };
  expect(await usageOf(json(nulls), false)).toBeNull();
  expect(await usageOf(stream(nulls), true)).toBeNull();
  expect(await usageOf(json({ usage: { prompt_tokens: 'n/a', completion_tokens: '' } }), false)).toBeNull();
});

it("OpenAI's counts are read as given when other names come beside them", async () => {
  const usage = await usageOf(
    json({
      usage: {
        prompt_tokens: 20,
        completion_tokens: 5,
        total_tokens: 25,
        prompt_eval_count: 12,
        eval_count: 3,
      },
    }),
    false,
  );
  expect(usage).toMatchObject({ promptTokens: 20, completionTokens: 5, totalTokens: 25 });
});
