// 400 because the system message content was an array of parts (Groq).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { ProviderMemory } from '../../../src/chat/gateway/provider-capabilities.js';
import type { ChatMessage } from '../../../src/chat/gateway/types.js';
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
      { type: 'text', text: 'Static part.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Volatile part.' },
    ],
  },
  { role: 'user', content: 'hi' },
];

it('on this exact 400, retries once with string system content and remembers it', async () => {
  gw.script(
    { kind: 'raw', caseId: 'G11' },
    { kind: 'reply', text: 'Hello.' },
    { kind: 'reply', text: 'Again.' },
  );
  const memory = new ProviderMemory();
  const cfg = configFor(gw.url, { capabilities: { cacheControl: true }, memory });

  const result = await callGateway(cfg, { messages });
  expect(result.text).toBe('Hello.');
  expect(gw.requests).toHaveLength(2);
  expect(Array.isArray(gw.requests[0].body.messages[0].content)).toBe(true);
  expect(gw.requests[1].body.messages[0].content).toBe('Static part.\n\nVolatile part.');
  expect(JSON.stringify(gw.requests[1].body)).not.toContain('cache_control');

  // Remembered for this provider: the next call sends a string straight away.
  await callGateway(cfg, { messages });
  expect(gw.requests).toHaveLength(3);
  expect(gw.requests[2].body.messages[0].content).toBe('Static part.\n\nVolatile part.');
});

it('the same 400 when the system content was already a string is not retried', async () => {
  gw.script({ kind: 'raw', caseId: 'G11' });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2 }), {
      messages: [
        { role: 'system', content: 'flat' },
        { role: 'user', content: 'hi' },
      ],
    }),
  );
  expect(err).toMatchObject({
    kind: 'failed',
    reason: 'system_content_must_be_string',
    upstreamStatus: 400,
    retryable: false,
  });
  expect(gw.requests).toHaveLength(1);
});

it('other 400s are not retried', async () => {
  gw.script({
    kind: 'error',
    status: 400,
    body: { error: { message: "'temperature' must be <= 2", type: 'invalid_request_error' } },
  });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { capabilities: { cacheControl: true } }), { messages }),
  );
  expect(err).toMatchObject({ kind: 'failed', reason: 'invalid_request' });
  expect(gw.requests).toHaveLength(1);
});
