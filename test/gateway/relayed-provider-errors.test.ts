// OpenRouter (and relays copying its shape) reports an upstream provider's failure as the generic
// `{"error": {"message": "Provider returned error", "code": 400, "metadata": {"raw": "...",
// "provider_name": "..."}}}`: the provider's own error sits in `metadata.raw`, as its JSON body
// in a string or as plain text. Read only by its message, every such failure was "Provider returned
// error": a prompt too long for the model was told as an unexplained refusal instead of a
// conversation too long, a refusal a repair answers was not repaired, and the person never saw why.
// The provider's words are read with the relay's, the same on a status line and inside a stream.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const relayed = (code: number, raw: string, provider = 'Crucible') => ({
  error: {
    message: 'Provider returned error',
    code,
    metadata: { raw, provider_name: provider, is_byok: false },
  },
  user_id: 'user_1',
});

const contextRaw = JSON.stringify({
  error: {
    message: "This model's maximum context length is 131072 tokens. However, you requested 140211 tokens.",
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
  },
});

it('a prompt too long, said in the raw JSON of a 400: told as a conversation too long, not asked again', async () => {
  gw.script({ kind: 'error', status: 400, body: relayed(400, contextRaw) }, { kind: 'reply', text: 'no' });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('x') }),
  );
  expect(err.reason).toBe('request_too_large');
  expect(err.message).toContain('maximum context length is 131072 tokens');
  expect(failureCopy(err).error).toMatch(/too long for the model/);
  expect(gw.requests).toHaveLength(1);
});

it('a provider refusal in plain-text raw reaches the person with the provider named', async () => {
  const raw = "Model 'moonshotai/kimi-k2.6' supports at most 1 image per prompt.";
  gw.script({ kind: 'error', status: 400, body: relayed(400, raw) });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.message).toContain('supports at most 1 image per prompt');
  expect(err.message).toContain('Crucible');
  expect(failureCopy(err).error).toContain('supports at most 1 image per prompt');
});

it('the same relayed error as an event of a started stream: the provider words, the same reason', async () => {
  const chunk = {
    id: 'gen-1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    ...relayed(400, contextRaw),
  };
  gw.script({ kind: 'bytes', chunks: [`data: ${JSON.stringify(chunk)}\n\n`, 'data: [DONE]\n\n'] });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }));
  expect(err.reason).toBe('request_too_large');
  expect(err.message).toContain('maximum context length');
});

it('a raw HTML page is reduced to its title, never passed on', async () => {
  const raw =
    '<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1><script>x()</script></body></html>';
  gw.script({ kind: 'error', status: 502, body: relayed(502, raw) });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.message).toContain('502 Bad Gateway');
  expect(err.message).not.toContain('<');
  expect(err.retryable).toBe(true);
});

it('a message that already says it all is not repeated', async () => {
  const body = {
    error: {
      message: 'Rate limit exceeded: free-models-per-day',
      code: 429,
      metadata: { raw: 'Rate limit exceeded: free-models-per-day' },
    },
  };
  gw.script({ kind: 'error', status: 429, body });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.message.match(/free-models-per-day/g)).toHaveLength(1);
});
