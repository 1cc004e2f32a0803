// A spent balance in the words providers use beyond "insufficient_quota": Zhipu (GLM, z.ai)
// answers 429 with code 1113 and "余额不足或无可用资源包,请充值。" or "您的账户已欠费，请充值后重试。"
// in Chinese; SiliconFlow answers 403 "The selected model requires paid balance. Your paid balance
// is insufficient. Please top up and try again." Read as a rate limit (429) the person was told the
// model was busy and the request was sent again and again; read as a refused key (403) they
// checked a key that was fine. Anthropic's 400 "Your credit balance is too low" and "You have
// reached your specified API usage limits" were "could not answer this time, please try again",
// OpenRouter's 403 "Key limit exceeded (daily limit)" a refused key, one-api's and new-api's 401
// "该令牌额度已用尽" (the relay token's quota used up) a refused key too. Each is a spent
// allowance: told as one, never asked again.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const cases: Array<[string, number, object]> = [
  [
    'Zhipu, balance used up (Chinese)',
    429,
    { error: { code: '1113', message: '余额不足或无可用资源包,请充值。' } },
  ],
  [
    'Zhipu, account in arrears (Chinese)',
    429,
    { error: { code: '1113', message: '您的账户已欠费，请充值后重试。' } },
  ],
  [
    'SiliconFlow, a paid balance too small',
    403,
    {
      code: 30011,
      message:
        'The selected model requires paid balance. Your paid balance is insufficient. Please top up and try again.',
      data: null,
    },
  ],
  [
    'Anthropic, a credit balance too low (400)',
    400,
    {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      },
    },
  ],
  [
    "Anthropic, the account's own usage limit reached (400)",
    400,
    {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'You have reached your specified API usage limits. You will regain access on 2027-01-01 at 00:00 UTC.',
      },
    },
  ],
  [
    "OpenRouter, the key's spending limit reached (403)",
    403,
    {
      error: {
        code: 403,
        message: 'Key limit exceeded (daily limit). Manage it using https://openrouter.ai/settings/keys',
      },
    },
  ],
  // one-api and new-api relays: the relay token's own quota used up (401 or 403, 'the token's quota
  // is exhausted'), and the user's balance, said with new-api's error codes
  [
    'one-api, the token quota exhausted (401, Chinese)',
    401,
    { error: { message: '该令牌额度已用尽 (request id: 20250101120000123456)', type: 'one_api_error' } },
  ],
  [
    'new-api, the token quota exhausted with its code (403)',
    403,
    {
      error: {
        message: '该令牌额度已用尽',
        type: 'new_api_error',
        code: 'pre_consume_token_quota_failed',
      },
    },
  ],
  [
    "new-api, the user's quota with its code (403)",
    403,
    { error: { message: 'quota exhausted', type: 'new_api_error', code: 'insufficient_user_quota' } },
  ],
];

for (const [who, status, body] of cases) {
  it(`${who}: a spent allowance, asked once`, async () => {
    gw.script({ kind: 'error', status, body }, { kind: 'reply', text: 'never' });
    const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
    const err = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
    expect(err.kind).toBe('budget');
    expect(failureCopy(err).error).toMatch(/allowance for this model is used up/);
    expect(gw.requests).toHaveLength(1);
  });
}

it('a Chinese rate limit (too many requests at once) is still a rate limit', async () => {
  gw.script(
    {
      kind: 'error',
      status: 429,
      body: {
        error: { code: '1302', message: '您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。' },
      },
    },
    { kind: 'reply', text: 'Six glasses.' },
  );
  const cfg = configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 });
  expect((await callGateway(cfg, { messages: userSays('x'), stream: true })).text).toBe('Six glasses.');
});

// OpenRouter's free models allow 50 requests a day (1000 with credit): past that, 429 "Rate limit
// exceeded: free-models-per-day". Read as a burst limit, it was asked twice more and told as "busy,
// try again in a minute" (or, with its reset header, "busy, try again in about 9 hours"). It is a
// daily allowance: told as used up, with when it comes back when OpenRouter says, never asked again.
const FREE_PER_DAY =
  'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day';

it("OpenRouter's free-models-per-day without a reset: the allowance used up, asked once", async () => {
  const step = { kind: 'error' as const, status: 429, body: { error: { message: FREE_PER_DAY, code: 429 } } };
  gw.script(step, step, step);
  const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
  const err = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
  expect(err.kind).toBe('budget');
  expect(failureCopy(err).error).toBe(
    "The chat allowance for this model is used up. It resets on the provider's schedule; ask whoever runs the gateway to raise it.",
  );
  expect(gw.requests).toHaveLength(1);
});

it("OpenRouter's free-models-per-day with its reset header: says when it comes back", async () => {
  const reset = String(Date.now() + 9 * 3_600_000);
  gw.script({
    kind: 'error',
    status: 429,
    headers: { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    body: {
      error: {
        message: FREE_PER_DAY,
        code: 429,
        metadata: {
          headers: { 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset },
        },
      },
    },
  });
  const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
  const err = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
  expect(err.kind).toBe('budget');
  expect(failureCopy(err).error).toMatch(
    /allowance for this model is used up\. It comes back in about 9 hours/,
  );
  expect(gw.requests).toHaveLength(1);
});

it("a spent balance's burst-limit reset headers are not read as when it comes back", async () => {
  gw.script({
    kind: 'error',
    status: 429,
    headers: { 'x-ratelimit-reset-requests': '8.64s', 'x-ratelimit-reset-tokens': '6ms' },
    body: {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    },
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(failureCopy(err).error).toMatch(/It resets on the provider's schedule/);
});
