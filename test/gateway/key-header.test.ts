// Azure OpenAI takes a key in an `api-key` header, not as `Authorization: Bearer` (which it reads
// as a Microsoft Entra token), and an Azure API Management front takes it in its subscription-key
// header: a key sent only as a bearer token was refused with 401 "Access denied due to invalid
// subscription key or wrong API endpoint" on every request, though the key was right. Azure's own
// hosts get the key in `api-key` from the start; any other endpoint refusing a bearer key for a
// missing or invalid subscription key is asked once more with the key in those headers, and that
// is remembered per endpoint and model.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { knownCapabilities } from '../../src/chat/gateway/provider-capabilities.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const azure401 = {
  error: {
    code: '401',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  },
};
const apim401 = {
  statusCode: 401,
  message:
    'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
};

const wantsKeyHeader =
  (body: object) =>
  (q: RecordedRequest): ScriptStep =>
    q.headers['api-key'] === 'sk-test' || q.headers['ocp-apim-subscription-key'] === 'sk-test'
      ? { kind: 'reply', text: 'Six glasses.' }
      : { kind: 'error', status: 401, body };

for (const [who, body] of [
  ['Azure OpenAI behind its own domain', azure401],
  ['Azure API Management', apim401],
] as const) {
  it(`${who}: asked once more with the key in its header, and remembered`, async () => {
    gw.script(
      { kind: 'decide', choose: wantsKeyHeader(body) },
      { kind: 'decide', choose: wantsKeyHeader(body) },
      { kind: 'decide', choose: wantsKeyHeader(body) },
    );
    const cfg = configFor(gw.url);
    expect((await callGateway(cfg, { messages: userSays('water?'), stream: true })).text).toBe(
      'Six glasses.',
    );
    expect(gw.requests).toHaveLength(2);
    expect(gw.requests[0].headers.authorization).toBe('Bearer sk-test');
    expect(gw.requests[1].headers.authorization).toBeUndefined();
    await callGateway(cfg, { messages: userSays('water?'), stream: true });
    expect(gw.requests).toHaveLength(3);
  });
}

it('a key refused as wrong in other words is not asked again', async () => {
  gw.script({
    kind: 'error',
    status: 401,
    body: {
      error: {
        message: 'Incorrect API key provided: sk-test.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    },
  });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url), { messages: userSays('water?'), stream: true }),
  );
  expect(err.reason).toBe('auth');
  expect(gw.requests).toHaveLength(1);
});

it('a key refused in the headers too is told as a refused key, and how it is sent is not remembered', async () => {
  gw.script(
    { kind: 'error', status: 401, body: azure401 },
    { kind: 'error', status: 401, body: azure401 },
    { kind: 'reply', text: 'Six glasses.' },
  );
  const cfg = configFor(gw.url);
  const err = await gatewayFailure(callGateway(cfg, { messages: userSays('water?'), stream: true }));
  expect(err.reason).toBe('auth');
  expect(gw.requests).toHaveLength(2);
  // the key fixed, the next call sends it as a bearer token again
  await callGateway(cfg, { messages: userSays('water?'), stream: true });
  expect(gw.requests[2].headers.authorization).toBe('Bearer sk-test');
});

it("Azure's own hosts get the key in its header from the start", () => {
  for (const host of ['me.openai.azure.com', 'me.cognitiveservices.azure.com', 'me.services.ai.azure.com'])
    expect(knownCapabilities(host, 'gpt-4o').keyInHeader).toBe(true);
  expect(knownCapabilities('api.openai.com', 'gpt-4o').keyInHeader).toBeUndefined();
});
