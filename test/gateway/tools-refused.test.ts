// A server that takes no tools at all is asked again without them (the model answers in words).
// A refusal of several calls in one message is not that: the tools stay offered, so the
// assistant can still act, one call at a time.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, userSays } from './support.js';
import { functionTools, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
const refusal = (message: string) => ({
  kind: 'error' as const,
  status: 400,
  body: { error: { message, type: 'invalid_request_error' } },
});
const ask = { messages: userSays('steps today?'), tools: functionTools('read_rows'), stream: true };

it('tools not supported at all: asked again without them', async () => {
  gw.script(refusal('Tool calls are not supported for this model'), { kind: 'reply', text: 'Words.' });
  expect((await callGateway(configFor(gw.url), ask)).text).toBe('Words.');
  expect(gw.requests[1].body).not.toHaveProperty('tools');
});

for (const message of [
  'Parallel tool calls are not supported for this model',
  'Multiple tool calls are not supported',
]) {
  it(`"${message}" keeps the tools offered, now and later`, async () => {
    gw.script(refusal(message), { kind: 'reply', text: 'Words.' });
    const cfg = configFor(gw.url);
    await expect(callGateway(cfg, ask)).rejects.toThrow(/not supported/);
    expect(gw.requests).toHaveLength(1);
    await callGateway(cfg, ask);
    expect(gw.requests[1].body.tools).toHaveLength(1);
  });
}
