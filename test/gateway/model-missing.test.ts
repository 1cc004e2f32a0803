// With CHAT_MODEL unset Klebb sends an empty model name, and an endpoint that needs one refuses
// every message: OpenAI and relays built like it with 400 "you must provide a model parameter",
// Ollama with "model is required". Read as any other refusal, the person was told the model "could
// not answer this time" and to try again, which fails the same way. It is now told as a setting to
// fix (CHAT_MODEL, or the address when a relay lost the name on the way), and never asked again.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

for (const message of [
  'you must provide a model parameter',
  'model is required',
  'Missing required parameter: model',
]) {
  it(`"${message}": check CHAT_MODEL, not "try again"`, async () => {
    const refusal = {
      kind: 'error' as const,
      status: 400,
      body: { error: { message, type: 'invalid_request_error', param: null, code: null } },
    };
    gw.script(refusal, refusal, refusal);
    const { result } = await agentTurn(gw, {
      stream: true,
      gateway: { model: '', maxRetries: 2, retryBaseDelayMs: 1 },
    });
    expect(gw.requests).toHaveLength(1);
    expect(gw.requests[0].body.model).toBe('');
    expect(result.error).toMatch(/CHAT_MODEL/);
    expect(result.error).not.toMatch(/please try again/i);
  });
}
