// CHAT_MODEL set to a model that takes no chat requests: an embedding model on Ollama (400
// "\"bge-m3:latest\" does not support chat"; older builds "embedding models do not support
// chat"), a deployment of one on Azure OpenAI (400 OperationNotSupported "The chatCompletion
// operation does not work with the specified model"), a completions-only or Responses-only model
// on OpenAI (404 "This is not a chat model and thus not supported in the v1/chat/completions
// endpoint", "This model is only supported in v1/responses and not in v1/chat/completions").
// The person was told "The model could not answer this time. Please try again", or that the
// endpoint does not know the model, and trying again never helps: the model must change.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const cases: Array<[string, ScriptStep]> = [
  [
    'an embedding model on Ollama',
    {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: '"bge-m3:latest" does not support chat',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    },
  ],
  [
    "an embedding model on an older Ollama's native answer",
    { kind: 'error', status: 400, body: { error: 'embedding models do not support chat' } },
  ],
  [
    'an embedding deployment on Azure OpenAI',
    {
      kind: 'error',
      status: 400,
      body: {
        error: {
          code: 'OperationNotSupported',
          message:
            'The chatCompletion operation does not work with the specified model, text-embedding-ada-002. Please choose different model and try again. You can learn more about which models can be used with each operation here: https://go.microsoft.com/fwlink/?linkid=2197993.',
        },
      },
    },
  ],
  [
    'a completions-only model on OpenAI',
    {
      kind: 'error',
      status: 404,
      body: {
        error: {
          message:
            'This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?',
          type: 'invalid_request_error',
          param: 'model',
          code: null,
        },
      },
    },
  ],
  [
    'a Responses-only model on OpenAI',
    {
      kind: 'error',
      status: 404,
      body: {
        error: {
          message: 'This model is only supported in v1/responses and not in v1/chat/completions.',
          type: 'invalid_request_error',
          param: 'model',
          code: null,
        },
      },
    },
  ],
];

for (const [who, step] of cases) {
  it(`${who}: told to choose a chat model, asked once`, async () => {
    gw.script(step, { kind: 'reply', text: 'never' });
    const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
    const err = await gatewayFailure(callGateway(cfg, { messages: userSays('hi'), stream: true }));
    expect(err.reason).toBe('not_chat_model');
    const copy = failureCopy(err).error;
    expect(copy).toMatch(/^The model set in CHAT_MODEL does not take chat requests/);
    expect(copy).toMatch(/Choose a chat model/);
    expect(copy).not.toMatch(/try again\.$/i);
    expect(gw.requests).toHaveLength(1);
  });
}

it('through the agent loop the person reads the same advice', async () => {
  gw.script(cases[0][1]);
  const turn = await agentTurn(gw, { stream: true });
  expect(turn.result.error).toMatch(/^The model set in CHAT_MODEL does not take chat requests/);
});

it('an unknown model is still told as one the endpoint does not know', async () => {
  gw.script({
    kind: 'error',
    status: 404,
    body: {
      error: {
        message: 'The model `gpt-9` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        code: 'model_not_found',
      },
    },
  });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true }),
  );
  expect(err.reason).toBe('not_found');
});
