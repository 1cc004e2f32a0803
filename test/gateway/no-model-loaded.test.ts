// LM Studio's server running with no model loaded (never loaded, unloaded after its idle time
// without just-in-time loading, or after the model crashed) answers every request with "No models
// loaded. Please load a model in the developer page or use the `lms load` command.", said with 400
// on most versions and 404 on some. Klebb told the person the model "could not answer this time,
// please try again" (400) or that the endpoint did not know the model or address (404), though
// both were right: the model must be loaded where the server runs. It now says so, and is not
// asked again.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const NO_MODEL = "No models loaded. Please load a model in the developer page or use the 'lms load' command.";

for (const status of [400, 404]) {
  it(`LM Studio's ${status} with no model loaded: load the model there`, async () => {
    const step = {
      kind: 'error' as const,
      status,
      body: {
        error: { message: NO_MODEL, type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
      },
    };
    gw.script(step, step, step);
    const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
    expect(gw.requests).toHaveLength(1);
    expect(result.error).toMatch(/The model's server has no model loaded/);
    expect(result.error).toMatch(/lms load/);
    expect(result.error).not.toMatch(/could not answer this time|does not know this model/);
  });
}

it('an unknown model on LM Studio is still an unknown model', async () => {
  gw.script({
    kind: 'error',
    status: 404,
    body: {
      error: {
        message: 'Model "qwen3-8b" not found. Please specify a valid model.',
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    },
  });
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.error).toMatch(/does not know this model/);
});
