// Error bodies in the shapes of the API gateways and proxies that sit in front of a model (Azure
// API Management, Kong, AWS API Gateway, Cloudflare, a proxy wrapping the provider's error once
// more): the person reads the gateway's own message, which names the key, limit or address at
// fault, and a wait it gives in words is honoured, instead of a bare "gateway HTTP 401". A key or
// model refused with a plain 400 is told as one refused with 401 or 404.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const cases: Array<{ who: string; status: number; body: object; says: string; copy: RegExp }> = [
  {
    who: 'Azure API Management, a wrong subscription key',
    status: 401,
    body: {
      statusCode: 401,
      message:
        'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
    },
    says: 'invalid subscription key',
    copy: /CHAT_API_KEY/,
  },
  {
    who: 'Kong, a rate limit',
    status: 429,
    body: { message: 'API rate limit exceeded' },
    says: 'API rate limit exceeded',
    copy: /busy right now/,
  },
  {
    who: 'AWS API Gateway, a denied key (capitalised field)',
    status: 403,
    body: { Message: 'User is not authorized to access this resource with an explicit deny' },
    says: 'not authorized to access this resource',
    copy: /CHAT_API_KEY/,
  },
  {
    who: 'Cloudflare, a path it cannot route',
    status: 404,
    body: {
      result: null,
      success: false,
      errors: [{ code: 7003, message: 'Could not route to /client/v4/accounts/x/ai/v1/chat/completions' }],
      messages: [],
    },
    says: 'Could not route to',
    copy: /CHAT_ENDPOINT_URL/,
  },
  {
    who: "Cloudflare's AI Gateway, errors listed under `error`",
    status: 401,
    body: { success: false, result: [], messages: [], error: [{ code: 2009, message: 'Unauthorized' }] },
    says: 'Unauthorized',
    copy: /CHAT_API_KEY/,
  },
  {
    who: "a proxy that wraps the provider's error once more",
    status: 404,
    body: {
      error: {
        error: {
          message: 'The model `gpt-9` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      },
    },
    says: 'The model `gpt-9` does not exist',
    copy: /CHAT_MODEL/,
  },
  {
    who: "Gemini's OpenAI-compatible endpoint, a key it does not take, said with 400",
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
        },
      },
    ],
    says: 'API key not valid',
    copy: /CHAT_API_KEY/,
  },
  {
    who: 'LiteLLM, a model it does not route, said with 400',
    status: 400,
    body: {
      error: {
        message: 'Invalid model name passed in model=gpt-9. Call `/v1/models` to view available models.',
        type: 'None',
        param: 'None',
        code: '400',
      },
    },
    says: 'Invalid model name passed in model=gpt-9',
    copy: /CHAT_MODEL/,
  },
];

for (const c of cases) {
  it(`${c.who}: the message reaches the person`, async () => {
    // a refusal naming the subscription key is asked once more with the key in Azure's headers
    gw.script(
      { kind: 'error', status: c.status, body: c.body },
      { kind: 'error', status: c.status, body: c.body },
    );
    const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
    expect(err.message).toContain(c.says);
    const copy = failureCopy(err).error;
    expect(copy).toMatch(c.copy);
    if (c.status !== 429) expect(copy).toContain(c.says);
  });
}

it('Azure API Management says the wait only in its message: it is waited out, and said', async () => {
  const limited = {
    kind: 'error' as const,
    status: 429,
    body: { statusCode: 429, message: 'Rate limit is exceeded. Try again in 9 seconds.' },
  };
  gw.script(limited);
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.retryAfterMs).toBe(9000);
  expect(failureCopy(err).error).toBe(
    'The model is busy right now (rate limited). Please try again in about 9 seconds.',
  );
});
