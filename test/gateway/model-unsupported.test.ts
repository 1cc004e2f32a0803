// A model the server's version cannot run: Ollama answers every request for it with 500 after its
// runner died on llama.cpp's "error loading model: unknown model architecture: 'mllama'"
// (https://github.com/meta-llama/llama-models/issues/496), newer builds adding "Your current
// version of Ollama doesn't support this model architecture. Consider upgrading."
// (https://github.com/ollama/ollama/pull/5419); a llama.cpp server says the same when it loads the
// model for the request. Asking again loads the model again and fails the same way: it is asked
// once, and the person is told to update the server or choose another model, with the server's
// words, instead of "The chat service is unavailable right now. Please try again in a little while."
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
const retrying = () => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });

const answers: Array<[string, ScriptStep, boolean]> = [
  [
    "Ollama's 500 after its runner died on an unknown architecture",
    {
      kind: 'error',
      status: 500,
      body: {
        error:
          "llama-server process has terminated: exit status 1: error loading model: unknown model architecture: 'mllama'",
      },
    },
    false,
  ],
  [
    "Ollama's advice to upgrade, through its OpenAI-compatible error object in a stream",
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [
        `data: ${JSON.stringify({
          error: {
            message:
              "llama runner process has terminated: signal: aborted (core dumped) error: unknown model architecture: 'chatglm' Your current version of Ollama doesn't support this model architecture. Consider upgrading.",
            type: 'api_error',
          },
        })}\n\n`,
      ],
    },
    true,
  ],
  [
    "a llama.cpp server's own error object",
    {
      kind: 'error',
      status: 500,
      body: {
        error: {
          code: 500,
          message: "error loading model: unknown model architecture: 'qwen35moe'",
          type: 'server_error',
        },
      },
    },
    false,
  ],
];

for (const [what, step, stream] of answers) {
  it(`${what}: asked once, and told to update the server or choose another model`, async () => {
    gw.script(step, step, step);
    const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('water'), stream }));
    expect(err).toMatchObject({ kind: 'failed', reason: 'model_unsupported', retryable: false });
    expect(gw.requests).toHaveLength(1);
    const copy = failureCopy(err).error;
    expect(copy).toMatch(/^The model's server cannot run this model: its version does not support/);
    expect(copy).toMatch(/Update the server/);
    expect(copy).toMatch(/CHAT_MODEL/);
    expect(copy).toMatch(/unknown model architecture/);
  });
}

it('a runner that died without saying why is still asked again', async () => {
  gw.script(
    { kind: 'error', status: 500, body: { error: 'llama runner process has terminated: exit status 2' } },
    { kind: 'reply', text: 'Logged.' },
  );
  const result = await callGateway(retrying(), { messages: userSays('water') });
  expect(result.text).toBe('Logged.');
});
