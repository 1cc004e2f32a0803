// A spent balance in the words providers use beyond "insufficient_quota": Zhipu (GLM, z.ai)
// answers 429 with code 1113 and "余额不足或无可用资源包,请充值。" or "您的账户已欠费，请充值后重试。"
// in Chinese; SiliconFlow answers 403 "The selected model requires paid balance. Your paid balance
// is insufficient. Please top up and try again." Read as a rate limit (429) the person was told the
// model was busy and the request was sent again and again; read as a refused key (403) they
// checked a key that was fine. Anthropic's 400 "Your credit balance is too low" and "You have
// reached your specified API usage limits" were "could not answer this time, please try again",
// OpenRouter's 403 "Key limit exceeded (daily limit)" a refused key. Each is a spent allowance:
// told as one, never asked again.
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
