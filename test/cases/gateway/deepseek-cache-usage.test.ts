// cache hits reported as top-level prompt_cache_hit_tokens / prompt_cache_miss_tokens (DeepSeek).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const expected = {
  promptTokens: 100,
  completionTokens: 50,
  totalTokens: 150,
  cachedTokens: 80,
  cacheWriteTokens: 0,
  uncachedPromptTokens: 20,
};

it('cached = hit tokens, cache writes = 0, uncached = prompt - cached (buffered)', async () => {
  gw.script({ kind: 'raw', caseId: 'G19' });
  const result = await callGateway(configFor(gw.url), { messages: userSays('x') });
  expect(result.text).toBe('OK.');
  expect(result.usage).toEqual(expected);
});

it('the same fields on the final usage chunk when streaming', async () => {
  gw.script({
    kind: 'reply',
    text: 'OK.',
    usage: {
      prompt_tokens: 100,
      completion_tokens: 50,
      total_tokens: 150,
      prompt_cache_hit_tokens: 80,
      prompt_cache_miss_tokens: 20,
    },
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true });
  expect(result.usage).toEqual(expected);
});

it('OpenAI-style prompt_tokens_details.cached_tokens wins when present; writes stay unreported', async () => {
  gw.script({
    kind: 'reply',
    text: 'OK.',
    usage: {
      prompt_tokens: 100,
      completion_tokens: 5,
      prompt_tokens_details: { cached_tokens: 64 },
      cost: 0.0012,
    },
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('x') });
  expect(result.usage).toEqual({
    promptTokens: 100,
    completionTokens: 5,
    totalTokens: 105,
    cachedTokens: 64,
    uncachedPromptTokens: 36,
    cost: 0.0012,
  });
});
