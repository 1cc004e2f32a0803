// LiteLLM, aider and many guides name a model with its provider in front (openai/gpt-4o,
// ollama/llama3, groq/llama-3.3-70b-versatile). Given to the provider itself, that name is a
// model it does not know: OpenAI answers 404 model_not_found, Ollama 'model "ollama/llama3" not
// found', and every message failed with "The chat endpoint does not know this model". The name
// is asked for once more without its prefix, and that is remembered; a router that knows the
// prefixed name answers the first request.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { ProviderMemory } from '../../src/chat/gateway/provider-memory.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

/** A provider that knows its models by their own names only, refusing others as OpenAI does. */
const provider =
  (known: string[]) =>
  (request: RecordedRequest): ScriptStep =>
    known.includes(request.body.model)
      ? { kind: 'reply', text: `Hello from ${request.body.model}.` }
      : {
          kind: 'error',
          status: 404,
          body: {
            error: {
              message: `The model \`${request.body.model}\` does not exist or you do not have access to it.`,
              type: 'invalid_request_error',
              code: 'model_not_found',
            },
          },
        };

const ollama = (request: RecordedRequest): ScriptStep =>
  request.body.model === 'llama3'
    ? { kind: 'reply', text: 'Hi.' }
    : {
        kind: 'error',
        status: 404,
        body: {
          error: {
            message: `model "${request.body.model}" not found, try pulling it first`,
            type: 'api_error',
          },
        },
      };

it('openai/gpt-4o given to the provider itself is asked for as gpt-4o, and remembered', async () => {
  const memory = new ProviderMemory();
  gw.script(
    { kind: 'decide', choose: provider(['gpt-4o']) },
    { kind: 'decide', choose: provider(['gpt-4o']) },
    { kind: 'decide', choose: provider(['gpt-4o']) },
  );
  const cfg = configFor(gw.url, { model: 'openai/gpt-4o', memory });
  expect((await callGateway(cfg, { messages: userSays('hi'), stream: true })).text).toBe(
    'Hello from gpt-4o.',
  );
  expect(gw.requests.map((r) => r.body.model)).toEqual(['openai/gpt-4o', 'gpt-4o']);
  await callGateway(cfg, { messages: userSays('again') });
  expect(gw.requests.map((r) => r.body.model)).toEqual(['openai/gpt-4o', 'gpt-4o', 'gpt-4o']);
});

it('ollama/llama3 given to Ollama is asked for as llama3', async () => {
  gw.script({ kind: 'decide', choose: ollama }, { kind: 'decide', choose: ollama });
  const cfg = configFor(gw.url, { model: 'ollama/llama3' });
  expect((await callGateway(cfg, { messages: userSays('hi') })).text).toBe('Hi.');
});

it('a router that knows the prefixed name is asked once, with that name', async () => {
  gw.script({ kind: 'decide', choose: provider(['openai/gpt-4o']) });
  const cfg = configFor(gw.url, { model: 'openai/gpt-4o' });
  expect((await callGateway(cfg, { messages: userSays('hi') })).text).toBe('Hello from openai/gpt-4o.');
  expect(gw.requests).toHaveLength(1);
});

it('a model unknown under both names is told as unknown, and nothing is remembered', async () => {
  const memory = new ProviderMemory();
  gw.script(
    { kind: 'decide', choose: provider(['gpt-4o']) },
    { kind: 'decide', choose: provider(['gpt-4o']) },
    { kind: 'decide', choose: provider(['gpt-4o']) },
  );
  const cfg = configFor(gw.url, { model: 'openai/gpt-4oo', memory });
  const err = await gatewayFailure(callGateway(cfg, { messages: userSays('hi') }));
  expect(err.reason).toBe('not_found');
  expect(gw.requests.map((r) => r.body.model)).toEqual(['openai/gpt-4oo', 'gpt-4oo']);
  await gatewayFailure(callGateway(cfg, { messages: userSays('hi') }));
  expect(gw.requests[2].body.model, 'the next call starts from the name as written').toBe('openai/gpt-4oo');
});

it('a name whose first part is an organisation (Qwen/Qwen2.5-7B-Instruct) is never cut', async () => {
  gw.script({ kind: 'decide', choose: provider(['Qwen2.5-7B-Instruct']) });
  const cfg = configFor(gw.url, { model: 'Qwen/Qwen2.5-7B-Instruct' });
  await gatewayFailure(callGateway(cfg, { messages: userSays('hi') }));
  expect(gw.requests).toHaveLength(1);
});
