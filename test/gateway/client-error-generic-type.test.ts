// Ollama's OpenAI-compatible endpoint files every error that is not a 400 under one catch-all type:
// a model never pulled is 404 {"error": {"message": "model \"llama3\" not found, try pulling it
// first", "type": "api_error"}}, a refused key on its cloud models 401 with "api_error" too. Klebb
// counted "api_error" among the types of a momentary server failure, so a plain client error was
// asked again twice and then told as "The chat service is unavailable right now. Please try again
// in a little while", when the person had to pull the model or fix the key. The status says what
// the failure is; a catch-all type does not overrule a 4xx.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
const retrying = () => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
const ask = { messages: userSays('hi'), stream: true };

const ollamaError = (status: number, message: string, type = 'api_error'): ScriptStep => ({
  kind: 'error',
  status,
  body: { error: { message, type, param: null, code: null } },
});

for (const [status, message, reason, copy] of [
  [404, 'model "llama3" not found, try pulling it first', 'not_found', /does not know this model/],
  [401, 'unauthorized', 'auth', /refused the API key/],
  [403, 'forbidden: this model requires a subscription', 'auth', /refused the API key/],
] as const) {
  it(`a ${status} with the catch-all type "api_error" is the client error its status says, asked once`, async () => {
    gw.script(ollamaError(status, message), { kind: 'reply', text: 'never' });
    const err = await gatewayFailure(callGateway(retrying(), ask));
    expect(gw.requests).toHaveLength(1);
    expect(err.reason).toBe(reason);
    expect(err.retryable).toBe(false);
    expect(failureCopy(err).error).toMatch(copy);
  });
}

it('a 4xx whose type says overloaded or rate limited is still transient', async () => {
  gw.script(ollamaError(400, 'Server overloaded, please retry shortly', 'overloaded_error'), {
    kind: 'reply',
    text: 'Second time.',
  });
  expect((await callGateway(retrying(), ask)).text).toBe('Second time.');
});

it('a 5xx with the catch-all type is still a server failure, asked again', async () => {
  gw.script(ollamaError(500, 'llama runner process has terminated: exit status 2'), {
    kind: 'reply',
    text: 'Back.',
  });
  expect((await callGateway(retrying(), ask)).text).toBe('Back.');
});

it('an error inside a reply with code 404 and type "api_error" is not retried either', async () => {
  gw.script(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [
        JSON.stringify({
          error: { message: 'model "llama3" not found, try pulling it first', type: 'api_error', code: 404 },
        }),
      ],
    },
    { kind: 'reply', text: 'never' },
  );
  const err = await gatewayFailure(callGateway(retrying(), ask));
  expect(gw.requests).toHaveLength(1);
  expect(err.reason).toBe('not_found');
});
