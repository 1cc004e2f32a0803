// 400 because cache_control is an unknown field ("Extra inputs are not permitted").
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { ProviderMemory } from '../../../src/chat/gateway/provider-capabilities.js';
import type { ChatMessage, ToolDefinition } from '../../../src/chat/gateway/types.js';
import { configFor, gatewayFailure } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const messages: ChatMessage[] = [
  {
    role: 'system',
    content: [
      { type: 'text', text: 'Static.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Instance.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Today.' },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
];
const tools: ToolDefinition[] = [
  {
    type: 'function',
    function: { name: 'f', parameters: { type: 'object' } },
    cache_control: { type: 'ephemeral' },
  },
];
const usage = {
  prompt_tokens: 50,
  completion_tokens: 5,
  total_tokens: 55,
  prompt_tokens_details: { cached_tokens: 0 },
};

it('strips every cache_control and retries once, remembers per (provider, model), reports cache as unknown', async () => {
  gw.script(
    { kind: 'raw', caseId: 'G12' },
    { kind: 'reply', text: 'ok', usage },
    { kind: 'reply', text: 'ok again', usage },
    { kind: 'reply', text: 'other model', usage },
  );
  const memory = new ProviderMemory();
  const cfg = configFor(gw.url, { capabilities: { cacheControl: true }, memory });

  const result = await callGateway(cfg, { messages, tools });
  expect(result.text).toBe('ok');
  expect(JSON.stringify(gw.requests[0].body)).toContain('cache_control');
  const retried = gw.requests[1].body;
  expect(JSON.stringify(retried)).not.toContain('cache_control');
  expect(retried.tools[0]).toEqual({
    type: 'function',
    function: { name: 'f', parameters: { type: 'object' } },
  });
  expect(result.usage?.cachedTokens).toBeUndefined();
  expect(result.usage?.cacheWriteTokens).toBeUndefined();
  expect(result.usage?.promptTokens).toBe(50);

  // Remembered for this model: no cache_control and no failed first attempt.
  await callGateway(cfg, { messages, tools });
  expect(gw.requests).toHaveLength(3);
  expect(JSON.stringify(gw.requests[2].body)).not.toContain('cache_control');

  // ...but only for this model.
  await callGateway({ ...cfg, model: 'another-model' }, { messages, tools });
  expect(JSON.stringify(gw.requests[3].body)).toContain('cache_control');
});

it('a provider and model not listed as supporting cache_control never gets it', async () => {
  gw.script({ kind: 'reply', text: 'ok' });
  await callGateway(configFor(gw.url), { messages, tools });
  const body = gw.requests[0].body;
  expect(JSON.stringify(body)).not.toContain('cache_control');
  expect(body.messages[0].content).toBe('Static.\n\nInstance.\n\nToday.');
  expect(body.messages[1].content).toEqual([{ type: 'text', text: 'hi' }]);
});

it('the 400 is not retried when nothing carried cache_control', async () => {
  gw.script({ kind: 'raw', caseId: 'G12' });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages }));
  expect(err).toMatchObject({ kind: 'failed', reason: 'cache_control_rejected', retryable: false });
  expect(gw.requests).toHaveLength(1);
});
