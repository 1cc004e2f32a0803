// The API version Azure OpenAI takes in the endpoint URL's query. A deployment URL without
// `?api-version=` is answered 404 "Resource not found" on every request
// (https://github.com/MicrosoftDocs/azure-docs/issues/114602, https://github.com/ThinkInAIXYZ/deepchat/issues/262);
// a version Azure does not take is 400 "API version not supported"
// (https://github.com/hotovo/aider-desk/issues/460), and one older than the model "Model … is
// enabled only for api versions 2024-12-01-preview and later"
// (https://github.com/egoist/chatwise-releases/issues/258). The person read "does not know this
// model or address" or "Please try again"; the version in CHAT_ENDPOINT_URL is what to change.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
const ask = { messages: userSays('hi'), stream: true };
const notFound: ScriptStep = {
  kind: 'error',
  status: 404,
  body: { error: { code: '404', message: 'Resource not found' } },
};
const deployment = (query = '') => `${gw.origin}/openai/deployments/gpt-4o/chat/completions${query}`;

it('a deployment URL without api-version, answered 404: told to add one, asked once', async () => {
  gw.script(notFound, { kind: 'reply', text: 'never' });
  const cfg = configFor(deployment(), { maxRetries: 2, retryBaseDelayMs: 1 });
  const err = await gatewayFailure(callGateway(cfg, ask));
  expect(err.reason).toBe('api_version');
  const copy = failureCopy(err).error;
  expect(copy).toMatch(/^The chat endpoint needs an API version it takes in CHAT_ENDPOINT_URL/);
  expect(copy).toMatch(/\?api-version=/);
  expect(gw.requests).toHaveLength(1);
});

for (const message of [
  'API version not supported',
  'Model o3-mini is enabled only for api versions 2024-12-01-preview and later',
]) {
  it(`"${message}": told to change the version, asked once`, async () => {
    gw.script(
      { kind: 'error', status: 400, body: { error: { code: 'BadRequest', message } } },
      { kind: 'reply', text: 'never' },
    );
    const cfg = configFor(deployment('?api-version=2024-02-01'), { maxRetries: 2, retryBaseDelayMs: 1 });
    const err = await gatewayFailure(callGateway(cfg, ask));
    expect(err.reason).toBe('api_version');
    expect(failureCopy(err).error).toMatch(/API version it takes in CHAT_ENDPOINT_URL/);
    expect(gw.requests).toHaveLength(1);
  });
}

it('the same 404 with an api-version in the URL, or from another endpoint, is an unknown model or address', async () => {
  gw.script(notFound, notFound);
  const withVersion = await gatewayFailure(
    callGateway(configFor(deployment('?api-version=2024-10-21')), ask),
  );
  expect(withVersion.reason).toBe('not_found');
  const elsewhere = await gatewayFailure(callGateway(configFor(gw.url), ask));
  expect(elsewhere.reason).toBe('not_found');
});
