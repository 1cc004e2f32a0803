// docs/CHAT-AGENT.md /: a bare 429 is transient; 429 with budget wording is 'budget'.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('a bare 429 with Retry-After seconds is rate_limited and carries the wait in ms', async () => {
  gw.script({
    kind: 'error',
    status: 429,
    headers: { 'Retry-After': '3' },
    body: { error: { message: 'Too many requests' } },
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err).toMatchObject({
    kind: 'rate_limited',
    retryable: true,
    retryAfterMs: 3000,
    upstreamStatus: 429,
    status: 502,
  });
  expect(err).toMatchObject({ kind: 'rate_limited', code: 'GATEWAY_ERROR' });
});

it('a bare 429 with an HTTP-date Retry-After and no body', async () => {
  const at = new Date(Date.now() + 10_000).toUTCString();
  gw.script({
    kind: 'error',
    status: 429,
    headers: { 'Retry-After': at, 'Content-Type': 'text/plain' },
    body: '',
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.kind).toBe('rate_limited');
  expect(err.retryAfterMs).toBeGreaterThan(7000);
  expect(err.retryAfterMs).toBeLessThanOrEqual(10_000);
});

for (const [label, body] of [
  [
    'LiteLLM budget',
    {
      error: {
        message: 'Budget has been exceeded! Current cost: 10.02, Max budget: 10.0',
        type: 'budget_exceeded',
      },
    },
  ],
  [
    'OpenAI insufficient_quota',
    {
      error: {
        message: 'You exceeded your current quota.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    },
  ],
  ['quota exceeded wording', { error: { message: 'Daily quota exceeded for this key' } }],
] as const) {
  it(`a 429 with budget wording is 'budget', never retried (${label})`, async () => {
    gw.script({ kind: 'error', status: 429, headers: { 'Retry-After': '1' }, body });
    const err = await gatewayFailure(
      callGateway(configFor(gw.url, { maxRetries: 3 }), { messages: userSays('x') }),
    );
    expect(err).toMatchObject({ kind: 'budget', retryable: false, status: 429, code: 'GATEWAY_ERROR' });
    expect(gw.requests).toHaveLength(1);
  });
}

it('402 Payment Required is budget too', async () => {
  gw.script({ kind: 'error', status: 402, body: { error: { message: 'Insufficient credits', code: 402 } } });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.kind).toBe('budget');
});

it('an in-stream error with budget wording is budget', async () => {
  gw.script({
    kind: 'bytes',
    chunks: ['data: {"error":{"message":"Budget has been exceeded!","code":429}}\n\n'],
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }));
  expect(err.kind).toBe('budget');
});
