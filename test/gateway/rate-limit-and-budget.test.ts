// docs/CHAT-AGENT.md /: a bare 429 is transient; 429 with budget wording is 'budget'.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

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

// Many 429s say when the spent limit resets instead of asking for a wait: the wait is read from
// the reset of the window whose allowance is 0, in whichever format the provider writes it.
it('a 429 with only rate-limit reset headers waits for the spent window, not an unrelated one', async () => {
  gw.script(
    {
      kind: 'error',
      status: 429,
      headers: {
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '250ms',
        'x-ratelimit-remaining-tokens': '9000',
        'x-ratelimit-reset-tokens': '6m0s',
      },
      body: { error: { message: 'Rate limit reached for requests', code: 'rate_limit_exceeded' } },
    },
    { kind: 'reply', text: 'Your step count is up.' },
  );
  const rec = recordHooks();
  const result = await callGateway(
    configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 }),
    { messages: userSays('steps?') },
    rec.hooks,
  );
  expect(result.text).toBe('Your step count is up.');
  expect(rec.retries).toHaveLength(1);
  expect(rec.retries[0].waitMs).toBeGreaterThanOrEqual(250);
  expect(rec.retries[0].waitMs, 'not the 6-minute token window, which has allowance left').toBeLessThan(
    60_000,
  );
});

it("OpenRouter's daily cap (reset relayed in the error body) says when, and is not retried before", async () => {
  const resetAt = Date.now() + 3 * 3_600_000;
  gw.script({
    kind: 'error',
    status: 429,
    body: {
      error: {
        message:
          'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day',
        code: 429,
        metadata: {
          headers: {
            'X-RateLimit-Limit': '50',
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': String(resetAt),
          },
        },
      },
    },
  });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('x') }),
  );
  // a daily allowance, not a burst: told as used up, with when it comes back
  expect(err.kind).toBe('budget');
  expect(gw.requests, 'a wait of hours is not spent inside the turn').toHaveLength(1);
  expect(failureCopy(err).error).toBe(
    "The chat allowance for this model is used up. It comes back in about 3 hours, on the provider's schedule; ask whoever runs the gateway to raise it.",
  );
});

it("Anthropic's reset times (RFC 3339) and an explicit Retry-After, which wins", async () => {
  const at = new Date(Date.now() + 200_000).toISOString();
  gw.script(
    {
      kind: 'error',
      status: 429,
      headers: { 'anthropic-ratelimit-tokens-remaining': '0', 'anthropic-ratelimit-tokens-reset': at },
      body: {
        type: 'error',
        error: {
          type: 'rate_limit_error',
          message: 'Number of request tokens has exceeded your per-minute rate limit',
        },
      },
    },
    {
      kind: 'error',
      status: 429,
      headers: {
        'Retry-After': '3',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '6m0s',
      },
      body: { error: { message: 'Rate limit reached for tokens' } },
    },
  );
  const cfg = configFor(gw.url);
  const reset = await gatewayFailure(callGateway(cfg, { messages: userSays('x') }));
  expect(failureCopy(reset).error).toBe(
    'The model is busy right now (rate limited). Please try again in about 3 minutes.',
  );
  const explicit = await gatewayFailure(callGateway(cfg, { messages: userSays('x') }));
  expect(explicit.retryAfterMs).toBe(3000);
});
